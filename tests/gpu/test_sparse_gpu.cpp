// loom::sparse on the GPU: random sparse matrices (several shapes and densities, the four value
// dtypes) built from host arrays; SpMV and SpMM of every format against a dense product computed
// here on the host from the GPU's to_dense values, and against the reference evaluator (the host
// implementations of the calls); conversions round-trip exactly; dense -> sparse on the device
// matches the host-built arrays. Values lie in (-1, 1), so a product of k terms is within about
// k ulp of the exact sum (the host accumulates in double).

#include <catch2/catch.hpp>

#include <algorithm>
#include <complex>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::ref::HostArray;
namespace sp = loom::sparse;

namespace {

const std::vector<DType> kValueTypes = {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

double eps_of(DType t) { return t == DType::Float32 || t == DType::Complex64 ? 1.2e-7 : 2.3e-16; }

// A random rows x cols matrix with about `density` of its entries nonzero, dense and as CSR.
struct HostCsr {
  std::vector<std::byte> dense, data;
  std::vector<std::int32_t> indices, indptr;
};

HostCsr random_csr(DType t, std::int64_t rows, std::int64_t cols, double density, std::mt19937_64& rng) {
  HostCsr m;
  m.dense = loom::test::random_bytes(t, rows * cols, rng, loom::test::Range::Unit);
  const std::size_t item = loom::itemsize(t);
  std::bernoulli_distribution keep(density);
  m.indptr.push_back(0);
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) {
      std::byte* e = m.dense.data() + static_cast<std::size_t>(i * cols + j) * item;
      if (!keep(rng)) {
        std::memset(e, 0, item);
        continue;
      }
      m.data.insert(m.data.end(), e, e + item);
      m.indices.push_back(static_cast<std::int32_t>(j));
    }
    m.indptr.push_back(static_cast<std::int32_t>(m.indices.size()));
  }
  return m;
}

sp::csr_matrix to_matrix(const HostCsr& m, DType t, std::int64_t rows, std::int64_t cols) {
  const Array data =
      loom::asarray_bytes(m.data.data(), m.data.size(), t, {static_cast<std::int64_t>(m.indices.size())});
  return sp::csr_matrix(data, loom::asarray(m.indices), loom::asarray(m.indptr), {rows, cols});
}

// dense (rows, cols) @ x (cols,) or (cols, n), accumulated in double.
HostArray host_matmul(const HostArray& a, const HostArray& x) {
  const std::int64_t rows = a.shape[0], cols = a.shape[1], n = x.shape.size() == 1 ? 1 : x.shape[1];
  HostArray out{a.dtype, x.shape.size() == 1 ? Shape{rows} : Shape{rows, n},
                std::vector<std::byte>(static_cast<std::size_t>(rows * n) * loom::itemsize(a.dtype))};
  loom::visit_dtype(a.dtype, [&]<class T>() {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>) {
      using W = std::conditional_t<std::is_floating_point_v<T>, double, std::complex<double>>;
      const T* pa = reinterpret_cast<const T*>(a.data.data());
      const T* px = reinterpret_cast<const T*>(x.data.data());
      T* po = reinterpret_cast<T*>(out.data.data());
      for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t c = 0; c < n; ++c) {
          W s(0);
          for (std::int64_t j = 0; j < cols; ++j) s += W(pa[i * cols + j]) * W(px[j * n + c]);
          po[i * n + c] = static_cast<T>(s);
        }
      }
    }
  });
  return out;
}

std::string exact(const Array& got, const HostArray& want) {
  return loom::test::compare(loom::test::device_of(got), want, 0, 0);
}

template <class T> HostArray host_of(const std::vector<T>& v) {
  HostArray h{loom::dtype_of<T>, Shape{static_cast<std::int64_t>(v.size())},
              std::vector<std::byte>(v.size() * sizeof(T))};
  if (!v.empty()) std::memcpy(h.data.data(), v.data(), h.data.size());
  return h;
}

struct Case {
  std::int64_t rows, cols;
  double density;
};
const std::vector<Case> kCases = {{1, 1, 1.0},      {7, 13, 0.3},   {100, 50, 0.0},  {100, 50, 0.05},
                                  {64, 257, 0.5},   {300, 1000, 0.01}, {1000, 300, 0.1}, {33, 33, 1.0},
                                  {0, 5, 0.5},      {4, 0, 0.5}};

// body(t, c, h, a, rng) for a random matrix of every value dtype and case.
using Body = std::function<void(DType, const Case&, const HostCsr&, const sp::csr_matrix&, std::mt19937_64&)>;
void for_each_sample(std::uint64_t seed, const Body& body) {
  std::mt19937_64 rng(seed);
  for (DType t : kValueTypes) {
    for (const Case& c : kCases) {
      const HostCsr h = random_csr(t, c.rows, c.cols, c.density, rng);
      const sp::csr_matrix a = to_matrix(h, t, c.rows, c.cols);
      INFO(loom::name(t) << " " << c.rows << "x" << c.cols << " density " << c.density << " nnz " << a.nnz());
      body(t, c, h, a, rng);
    }
  }
}

}  // namespace

TEST_CASE("SpMV and SpMM of every format against a host dense product", "[gpu][sparse]") {
  for_each_sample(71, [](DType t, const Case& c, const HostCsr& h, const sp::csr_matrix& a, std::mt19937_64& rng) {
    const HostArray dense = loom::test::device_of(a.todense());
    CHECK(loom::test::compare(dense, HostArray{t, Shape{c.rows, c.cols}, h.dense}, 0, 0) == "");

    const Array x = loom::test::random_array(t, {c.cols}, rng, loom::test::Range::Unit);
    const Array xm = loom::test::random_array(t, {c.cols, 5}, rng, loom::test::Range::Unit);
    const double atol = 4 * eps_of(t) * static_cast<double>(c.cols), rtol = 4 * eps_of(t);
    const HostArray want = host_matmul(dense, loom::test::reference_of(x));
    const HostArray want_m = host_matmul(dense, loom::test::reference_of(xm));
    const sp::csc_matrix ac = a.tocsc();
    const sp::coo_matrix ao = a.tocoo();
    for (const sp::spmatrix* m : {static_cast<const sp::spmatrix*>(&a), static_cast<const sp::spmatrix*>(&ac),
                                  static_cast<const sp::spmatrix*>(&ao)}) {
      INFO("format " << static_cast<int>(m->format()));
      CHECK(loom::test::compare(loom::test::device_of(m->matmul(x)), want, rtol, atol) == "");
      CHECK(loom::test::compare(loom::test::device_of(m->matmul(xm)), want_m, rtol, atol) == "");
      CHECK(loom::test::check_gpu(m->matmul(x), rtol, atol) == "");
      CHECK(loom::test::check_gpu(m->matmul(xm.T().copy().T()) + 1, rtol, atol + 4 * eps_of(t)) == "");
      CHECK(loom::test::check_gpu(m->todense(), 0, 0) == "");
    }
  });
}

TEST_CASE("conversions round-trip exactly", "[gpu][sparse]") {
  for_each_sample(72, [](DType t, const Case& c, const HostCsr& h, const sp::csr_matrix& a, std::mt19937_64& rng) {
    const std::int64_t nnz = a.nnz();
    const HostArray data{t, Shape{nnz}, h.data};
    const HostArray indices = host_of(h.indices), indptr = host_of(h.indptr);

    const sp::csc_matrix ac = a.tocsc();
    CHECK(loom::test::check_gpu(ac.indptr(), 0, 0) == "");
    CHECK(loom::test::check_gpu(ac.indices(), 0, 0) == "");
    CHECK(loom::test::check_gpu(ac.data(), 0, 0) == "");
    const sp::csr_matrix back = ac.tocsr();
    CHECK(exact(back.indptr(), indptr) == "");
    CHECK(exact(back.indices(), indices) == "");
    CHECK(exact(back.data(), data) == "");

    const sp::coo_matrix ao = a.tocoo();
    CHECK(loom::test::check_gpu(ao.row(), 0, 0) == "");
    const sp::csr_matrix from_coo = ao.tocsr();  // already sorted by row: the same arrays
    CHECK(exact(from_coo.indptr(), indptr) == "");
    CHECK(exact(from_coo.indices(), indices) == "");
    CHECK(exact(from_coo.data(), data) == "");
    CHECK(exact(ao.tocsc().tocsr().indices(), indices) == "");

    // Dense -> sparse on the device (cusparseDenseToSparse) gives the host-built arrays.
    const Array dense = loom::asarray_bytes(h.dense.data(), h.dense.size(), t, {c.rows, c.cols});
    // cuSPARSE does not promise sorted columns within a row (seen unsorted for complex128): the
    // row pointers match exactly, the entries after a CSC round trip (which sorts them).
    const sp::csr_matrix d(dense);
    REQUIRE(d.nnz() == nnz);
    CHECK(exact(d.indptr(), indptr) == "");
    CHECK(loom::test::check_gpu(d.todense(), 0, 0) == "");
    const sp::csr_matrix sorted = d.tocsc().tocsr();
    CHECK(exact(sorted.indices(), indices) == "");
    CHECK(exact(sorted.data(), data) == "");
    const sp::csc_matrix dc(dense);
    CHECK(loom::test::check_gpu(dc.todense(), 0, 0) == "");
    CHECK(exact(dc.tocsr().indices(), indices) == "");

    // COO entries in a random order: CSR sorts them by row (compared through the dense form).
    std::vector<std::int32_t> perm(static_cast<std::size_t>(nnz));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const std::vector<std::int32_t> rows = ao.row().to_host<std::int32_t>();
    std::vector<std::int32_t> r(perm.size()), col(perm.size());
    for (std::size_t k = 0; k < perm.size(); ++k) {
      r[k] = rows[static_cast<std::size_t>(perm[k])];
      col[k] = h.indices[static_cast<std::size_t>(perm[k])];
    }
    std::vector<std::byte> shuffled(h.data.size());
    const std::size_t item = loom::itemsize(t);
    for (std::size_t k = 0; k < perm.size(); ++k) {
      std::memcpy(shuffled.data() + k * item, h.data.data() + static_cast<std::size_t>(perm[k]) * item, item);
    }
    const sp::coo_matrix u(loom::asarray_bytes(shuffled.data(), shuffled.size(), t, {nnz}),
                           {loom::asarray(r), loom::asarray(col)}, {c.rows, c.cols});
    const sp::csr_matrix ur = u.tocsr();
    CHECK(exact(ur.indptr(), indptr) == "");
    CHECK(loom::test::compare(loom::test::device_of(ur.todense()), HostArray{t, Shape{c.rows, c.cols}, h.dense}, 0,
                              0) == "");
    CHECK(loom::test::compare(loom::test::device_of(u.tocsc().todense()), HostArray{t, Shape{c.rows, c.cols}, h.dense},
                              0, 0) == "");
  });
}

TEST_CASE("relu(A @ x + b) on the GPU: one call and one fused kernel", "[gpu][sparse]") {
  std::mt19937_64 rng(73);
  const HostCsr h = random_csr(DType::Float32, 500, 700, 0.02, rng);
  const sp::csr_matrix a = to_matrix(h, DType::Float32, 500, 700);
  const Array x = loom::test::random_array(DType::Float32, {700}, rng, loom::test::Range::Unit);
  const Array b = loom::test::random_array(DType::Float32, {500}, rng, loom::test::Range::Unit);
  const Array y = loom::maximum(a.matmul(x) + b, 0.0f);
  CHECK(loom::test::check_gpu(y, 1e-5, 1e-4) == "");
  loom::reset_cache_stats();
  loom::maximum(a.matmul(x) * 2.0f + b, 0.0f).eval();
  loom::synchronize();
  CHECK(loom::cache_stats().launches == 1);  // the fused epilogue (the call is not a loom kernel)
}
