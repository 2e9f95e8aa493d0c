// loom::random's choice, permutation, shuffle, permuted and multivariate_normal
// (include/loom/random.hpp): gathers (take) and a write (shuffle) on random orders, so they live
// in the indexing room, above the calls they use (draws, sorts, scans, linalg). A random order is a sort of 64-bit keys whose low bits are each
// element's index along the axis and whose high bits are random: the keys are distinct, so the
// sorted indices are a permutation, and each order is equally likely but for ties of the random
// high bits (broken by index: a bias below n 2^-(64 - log2 n), unobservable). The keys are fused
// work on one draw, the sort a CUB radix sort (a lazy barrier). choice with p takes
// searchsorted(cumsum(p), u) with replacement, and the k smallest E / p (E exponential: the
// exponential-key form of successive draws without replacement) without. Errors are NumPy's.

#include <loom/random.hpp>

#include <bit>
#include <cmath>

#include <loom/blas.hpp>
#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/linalg.hpp>
#include <loom/ops.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"
#include "calls/random_common.hpp"

namespace loom::random {

namespace {

// p as float64 on the host, checked as numpy.random.Generator.choice checks it.
std::vector<double> checked_p(const Array& p, std::int64_t pop_size) {
  if (p.ndim() != 1) throw ValueError("p must be 1-dimensional");
  if (p.size() != pop_size) throw ValueError("a and p must have same size");
  const std::vector<double> v = p.astype(DType::Float64).to_host<double>();
  double sum = 0, carry = 0;  // Kahan's sum
  bool negative = false;
  for (double x : v) {
    negative = negative || x < 0;
    const double y = x - carry, t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  }
  if (std::isnan(sum)) throw ValueError("probabilities contain NaN");
  if (negative) throw ValueError("probabilities are not non-negative");
  double atol = std::sqrt(std::numeric_limits<double>::epsilon());
  if (p.dtype() == DType::Float32) atol = std::max(atol, std::sqrt(double{std::numeric_limits<float>::epsilon()}));
  if (std::abs(sum - 1.0) > atol) throw ValueError("probabilities do not sum to 1");
  return v;
}

}  // namespace

Array Generator::random_order(const char* op, const Shape& shape, int axis) {
  common::check_shape(shape, op);
  if (shape.numel() == 0) return zeros(shape, DType::Int64);
  const std::int64_t length = shape[axis];
  const int index_bits = std::bit_width(static_cast<std::uint64_t>(length - 1));
  Shape along = Shape::filled(shape.size(), 1);
  along[axis] = length;
  const Array index = arange(length).astype(DType::UInt64).reshape(along);
  const Array keys = index_bits == 0 ? words64(op, shape) : ((words64(op, shape) >> index_bits) << index_bits) | index;
  const std::uint64_t mask = index_bits == 0 ? 0 : ~std::uint64_t{0} >> (64 - index_bits);
  return (sort(keys, axis) & mask).astype(DType::Int64);
}

Array Generator::choice(std::int64_t a, const Shape& size, bool replace, const std::optional<Array>& p, bool) {
  common::check_shape(size, "choice");
  const std::int64_t k = size.numel();
  if (a <= 0 && k != 0) throw ValueError("a must be a positive integer unless no samples are taken");
  std::vector<double> pv;
  if (p) pv = checked_p(*p, a);
  if (replace) {
    if (k == 0) return zeros(size, DType::Int64);
    if (!p) return integers(0, a, size);
    const Array cdf = cumsum(asarray(pv));
    const Array u = unit("choice", size, DType::Float64);
    return searchsorted(cdf / cdf[a - 1], u, "right");
  }
  if (k > a) throw ValueError("Cannot take a larger sample than population when replace is False");
  if (k == 0) return zeros(size, DType::Int64);
  if (!p && k <= a / 4) {
    // A few samples of a large population: draws with replacement, their distinct values (a
    // uniformly random subset of its size, by symmetry; one count read back), and a random k of
    // those in a random order, redrawn with twice the draws when too few are distinct. Sorts of
    // ~1.25 k elements instead of a random order of all a.
    for (std::int64_t m = k + k / 4 + 64;; m *= 2) {
      const Array distinct = unique(integers(0, a, Shape{m}));
      const std::int64_t s = distinct.size();
      if (s >= k) return take(distinct, random_order("choice", Shape{s}, 0).slice(0, 0, k)).reshape(size);
    }
  }
  if (!p) return random_order("choice", Shape{a}, 0).slice(0, 0, k).reshape(size);
  const std::int64_t nonzero = std::count_if(pv.begin(), pv.end(), [](double x) { return x > 0; });
  if (nonzero < k) throw ValueError("Fewer non-zero entries in p than size");
  const Array keys = -log(open_unit("choice", Shape{a})) / asarray(pv);
  return argsort(keys).slice(0, 0, k).reshape(size);
}

Array Generator::choice(const Array& a, const Shape& size, bool replace, const std::optional<Array>& p, int axis,
                        bool shuffle) {
  if (a.ndim() == 0) {
    if (!is_signed_int(a.dtype()) && !is_unsigned_int(a.dtype())) {
      throw ValueError(fmt::format("a must be a sequence or an integer, not a 0-d {} array", name(a.dtype())));
    }
    return choice(a.astype(DType::Int64).item<std::int64_t>(), size, replace, p, shuffle);
  }
  const int ax = detail::normalize_axis(axis, a.ndim());
  const std::int64_t pop_size = a.shape()[ax];
  common::check_shape(size, "choice");
  if (pop_size == 0 && size.numel() != 0) throw ValueError("a cannot be empty unless no samples are taken");
  return take(a, choice(std::max<std::int64_t>(pop_size, 1), size, replace, p, shuffle), ax);
}

Array Generator::permutation(std::int64_t n) { return random_order("permutation", Shape{std::max<std::int64_t>(n, 0)}, 0); }

Array Generator::permutation(const Array& x, int axis) {
  if (x.ndim() == 0) throw IndexError("x must be an integer or at least 1-dimensional");
  const int ax = detail::normalize_axis(axis, x.ndim());
  return take(x, random_order("permutation", Shape{x.shape()[ax]}, 0), ax);
}

void Generator::shuffle(Array& x, int axis) {
  const int ax = detail::normalize_axis(axis, x.ndim());
  x = take(x, random_order("shuffle", Shape{x.shape()[ax]}, 0), ax);
}

Array Generator::permuted(const Array& x, std::optional<int> axis) {
  if (!axis) return take(x.ravel(), random_order("permuted", Shape{x.size()}, 0)).reshape(x.shape());
  const int ax = detail::normalize_axis(*axis, x.ndim());
  return take_along_axis(x, random_order("permuted", x.shape(), ax), ax);
}

// mean + Z F^T for Z standard normal (size + (n,)) and F F^T = cov: F = U sqrt(S) from the SVD
// (NumPy's default; cov symmetric, so sqrt(S) Vh serves as F^T), from eigh (|eigenvalues|), or
// cov's Cholesky factor.
Array Generator::multivariate_normal(const Array& mean, const Array& cov, const Shape& size, std::string_view method) {
  if (method != "svd" && method != "eigh" && method != "cholesky") {
    throw ValueError("method must be one of {'eigh', 'svd', 'cholesky'}");
  }
  if (mean.ndim() != 1) throw ValueError("mean must be 1 dimensional");
  if (cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1]) throw ValueError("cov must be 2 dimensional and square");
  const std::int64_t n = mean.shape()[0];
  if (cov.shape()[0] != n) throw ValueError("mean and cov must have same length");
  Shape out = size;
  out.push_back(n);
  const Array c = cov.astype(DType::Float64);
  Array factor_t;  // F^T
  if (method == "svd") {
    const linalg::SVDResult r = linalg::svd(c);
    factor_t = sqrt(r.S).reshape({n, 1}) * r.Vh;
  } else if (method == "eigh") {
    const linalg::EighResult r = linalg::eigh(c);
    factor_t = (r.eigenvectors * sqrt(abs(r.eigenvalues))).T();
  } else {
    factor_t = linalg::cholesky(c).T();
  }
  return matmul(normals("multivariate_normal", out, DType::Float64), factor_t) + mean.astype(DType::Float64);
}

Array choice(std::int64_t a, const Shape& size, bool replace, const std::optional<Array>& p) {
  return default_generator().choice(a, size, replace, p);
}
Array choice(const Array& a, const Shape& size, bool replace, const std::optional<Array>& p, int axis) {
  return default_generator().choice(a, size, replace, p, axis);
}
Array permutation(std::int64_t n) { return default_generator().permutation(n); }
Array permutation(const Array& x, int axis) { return default_generator().permutation(x, axis); }
void shuffle(Array& x, int axis) { default_generator().shuffle(x, axis); }
Array permuted(const Array& x, std::optional<int> axis) { return default_generator().permuted(x, axis); }
Array multivariate_normal(const Array& mean, const Array& cov, const Shape& size, std::string_view method) {
  return default_generator().multivariate_normal(mean, cov, size, method);
}

}  // namespace loom::random
