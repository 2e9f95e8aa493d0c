// loom::random's discrete samplers beyond cuRAND's Poisson (include/loom/random.hpp): binomial,
// negative_binomial, hypergeometric, zipf and multinomial are counter-based sampler calls
// (runtime/libs/sampler.hpp); geometric is inversion fused on a uniform draw; random_integers is
// integers with the endpoint. All give int64; parameter errors are NumPy's.

#include <loom/random.hpp>

#include <cmath>
#include <limits>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "calls/random_common.hpp"
#include "calls/random_draw.hpp"

namespace loom::random {

namespace {

using common::check_bounded_0_1;
using common::check_bounded_gt_0_1;
using common::check_positive_not_nan;
using rt::SamplerKind;

int kind_of(SamplerKind k) { return static_cast<int>(k); }

void check_count(std::int64_t v, const char* what) {
  if (v < 0) throw ValueError(fmt::format("{} < 0", what));
}

}  // namespace

Array Generator::binomial(std::int64_t n, double p, const Shape& size) {
  check_count(n, "n");
  check_bounded_0_1(p, "p");
  return sampled("binomial", kind_of(SamplerKind::Binomial), size, size.numel(), static_cast<double>(n), p);
}

// Poisson(Gamma(n, (1 - p) / p)) in one call: each element draws its gamma and then its count.
Array Generator::negative_binomial(double n, double p, const Shape& size) {
  check_positive_not_nan(n, "n");
  check_bounded_gt_0_1(p, "p");
  return sampled("negative_binomial", kind_of(SamplerKind::NegativeBinomial), size, size.numel(), n, p);
}

// ceil(E / -log(1 - p)) for E standard exponential (E > 0, so the count is >= 1), saturating
// below 2^63 as NumPy's does for a tiny p.
Array Generator::geometric(double p, const Shape& size) {
  check_bounded_gt_0_1(p, "p");
  if (p == 1) return full(size, 1, DType::Int64);
  common::check_shape(size, "geometric");
  const Array e = -log(open_unit("geometric", size));
  return minimum(ceil(e / -std::log1p(-p)), 9.2e18).astype(DType::Int64);
}

Array Generator::hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample, const Shape& size) {
  check_count(ngood, "ngood");
  check_count(nbad, "nbad");
  check_count(nsample, "nsample");
  if (ngood > std::numeric_limits<std::int64_t>::max() - nbad || ngood + nbad < nsample) {
    throw ValueError("ngood + nbad < nsample");
  }
  return sampled("hypergeometric", kind_of(SamplerKind::Hypergeometric), size, size.numel(),
                 static_cast<double>(ngood), static_cast<double>(nbad), static_cast<double>(nsample));
}

Array Generator::zipf(double a, const Shape& size) {
  common::check_gt_1(a, "a");
  return sampled("zipf", kind_of(SamplerKind::Zipf), size, size.numel(), a);
}

// Conditional binomials per row: category j takes Binomial(left, p_j / (1 - p_0 - ... - p_{j-1}))
// and the last one what is left (so p's last entry is implied, as NumPy's).
Array Generator::multinomial(std::int64_t n, const Array& pvals, const Shape& size) {
  check_count(n, "n");
  if (pvals.ndim() != 1) {
    throw ValueError(fmt::format("multinomial: pvals must be 1-dimensional, not {}-d", pvals.ndim()));
  }
  const std::vector<double> p = pvals.astype(DType::Float64).to_host<double>();
  double head = 0, carry = 0;  // Kahan's sum of p[:-1]
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (!(p[j] >= 0) || !(p[j] <= 1)) throw ValueError("pvals < 0, pvals > 1 or pvals contains NaNs");
    if (j + 1 == p.size()) break;
    const double y = p[j] - carry, t = head + y;
    carry = (t - head) - y;
    head = t;
  }
  if (head > 1.0 + 1e-12) throw ValueError("sum(pvals[:-1]) > 1.0");
  common::check_shape(size, "multinomial");
  Shape out = size;
  out.push_back(static_cast<std::int64_t>(p.size()));
  const Array probs = asarray(p);
  return sampled("multinomial", kind_of(SamplerKind::Multinomial), out, size.numel(), static_cast<double>(n), 0, 0,
                 &probs);
}

// numpy.random.RandomState.random_integers: [low, high] (high none: [1, low]).
Array Generator::random_integers(std::int64_t low, std::optional<std::int64_t> high, const Shape& size) {
  if (!high) {
    high = low;
    low = 1;
  }
  if (low > *high) throw ValueError("low >= high");
  return integers(low, *high, size, DType::Int64, true);
}

Array binomial(std::int64_t n, double p, const Shape& size) { return default_generator().binomial(n, p, size); }
Array negative_binomial(double n, double p, const Shape& size) {
  return default_generator().negative_binomial(n, p, size);
}
Array geometric(double p, const Shape& size) { return default_generator().geometric(p, size); }
Array hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample, const Shape& size) {
  return default_generator().hypergeometric(ngood, nbad, nsample, size);
}
Array zipf(double a, const Shape& size) { return default_generator().zipf(a, size); }
Array multinomial(std::int64_t n, const Array& pvals, const Shape& size) {
  return default_generator().multinomial(n, pvals, size);
}
Array random_integers(std::int64_t low, std::optional<std::int64_t> high, const Shape& size) {
  return default_generator().random_integers(low, high, size);
}

}  // namespace loom::random
