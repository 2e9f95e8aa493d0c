// loom::linalg's cuSOLVER calls on the GPU, checked by identities (no host LAPACK): A x = b,
// inv(A) A = I, det of triangular matrices and of products, L L^H = A, Q R = A with Q^H Q = I,
// U diag(S) Vh = A with orthonormal U and V, A v = lambda v, the Moore-Penrose identities of
// pinv, and the errors for singular and non-positive-definite inputs; each for float32,
// float64, complex64 and complex128.
//
// Tolerances: the factorizations are backward stable, so a residual relative to the size of
// its terms (|A| |x|) is at most c * n * eps of the dtype; the random matrices are made well
// conditioned (entries in (-1, 1) plus n on the diagonal, condition number below ~3), so the
// same bound holds for forward errors. Products are computed on the host in double.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <type_traits>

#include <loom/loom.hpp>

#include "exec/realize.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::test::WhatContains;
namespace la = loom::linalg;

namespace {

using C = std::complex<double>;
const DType kTypes[] = {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

struct Mat {
  std::int64_t rows = 0, cols = 0;
  std::vector<C> v;
  C& operator()(std::int64_t i, std::int64_t j) { return v[static_cast<std::size_t>(i * cols + j)]; }
  C operator()(std::int64_t i, std::int64_t j) const { return v[static_cast<std::size_t>(i * cols + j)]; }
};

Mat zeros(std::int64_t r, std::int64_t c) { return {r, c, std::vector<C>(static_cast<std::size_t>(r * c))}; }
Mat identity(std::int64_t n) {
  Mat m = zeros(n, n);
  for (std::int64_t i = 0; i < n; ++i) m(i, i) = 1;
  return m;
}
Mat mul(const Mat& a, const Mat& b) {
  Mat c = zeros(a.rows, b.cols);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t k = 0; k < a.cols; ++k)
      for (std::int64_t j = 0; j < b.cols; ++j) c(i, j) += a(i, k) * b(k, j);
  return c;
}
Mat adj(const Mat& a) {
  Mat c = zeros(a.cols, a.rows);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j) c(j, i) = std::conj(a(i, j));
  return c;
}
double max_abs(const Mat& a) {
  double m = 0;
  for (const C& x : a.v) m = std::max(m, std::abs(x));
  return m;
}
// max |a - b| relative to `scale` (at least 1).
double err(const Mat& a, const Mat& b, double scale = 0) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  double m = 0;
  for (std::size_t i = 0; i < a.v.size(); ++i) m = std::max(m, std::abs(a.v[i] - b.v[i]));
  return m / std::max({1.0, scale, max_abs(b)});
}

// Every matrix of a stack (..., r, c); a 1-D or 0-d array is one column.
std::vector<Mat> host(const Array& a) {
  const std::vector<C> v = loom::astype(a, DType::Complex128).to_host<C>();
  const std::int64_t r = a.ndim() >= 2 ? a.shape()[a.ndim() - 2] : a.size();
  const std::int64_t c = a.ndim() >= 2 ? a.shape()[a.ndim() - 1] : 1;
  std::vector<Mat> out;
  for (std::int64_t b = 0; r * c > 0 && b < a.size() / (r * c); ++b) {
    out.push_back({r, c, std::vector<C>(v.begin() + b * r * c, v.begin() + (b + 1) * r * c)});
  }
  return out;
}

double eps(DType t) { return t == DType::Float32 || t == DType::Complex64 ? 1.19e-7 : 2.22e-16; }
double tol(DType t, std::int64_t n) { return 10.0 * static_cast<double>(std::max<std::int64_t>(n, 4)) * eps(t); }

// Host values as an array of dtype t (real dtypes keep the real parts).
Array upload(const std::vector<C>& v, const Shape& s, DType t) {
  if (loom::is_complex(t)) return loom::asarray(v, s).astype(t);
  std::vector<double> re(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) re[i] = v[i].real();
  return loom::asarray(re, s).astype(t);
}

// Entries in (-1, 1) (complex: both parts) plus `diag` on each matrix's diagonal.
// (Every test starts here: outputs are poisoned from then on, so an unwritten element shows.)
Array random(DType t, const Shape& s, std::mt19937_64& rng, double diag = 0) {
  loom::exec::set_poison_outputs(true);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::int64_t r = s[s.size() - 2], c = s[s.size() - 1];
  std::vector<C> v(static_cast<std::size_t>(s.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto k = static_cast<std::int64_t>(i) % (r * c);
    v[i] = C(u(rng), loom::is_complex(t) ? u(rng) : 0.0) + (k / c == k % c ? diag : 0.0);
  }
  return upload(v, s, t);
}

// A Hermitian positive definite stack: B B^H / n + I.
Array hpd(DType t, const Shape& s, std::mt19937_64& rng) {
  const std::int64_t n = s[s.size() - 1];
  std::vector<C> v;
  for (const Mat& b : host(random(t, s, rng))) {
    Mat h = mul(b, adj(b));
    for (C& x : h.v) x /= static_cast<double>(n);
    for (std::int64_t i = 0; i < n; ++i) h(i, i) += 1;
    v.insert(v.end(), h.v.begin(), h.v.end());
  }
  return upload(v, s, t);
}

bool is_upper(const Mat& m) {
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (std::int64_t j = 0; j < std::min(i, m.cols); ++j)
      if (m(i, j) != C(0)) return false;
  return true;
}

}  // namespace

TEST_CASE("linalg gpu: solve gives A x = b for vector, matrix and broadcast right-hand sides", "[gpu][linalg]") {
  std::mt19937_64 rng(1);
  const std::int64_t n = 48;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    const Array a = random(t, {3, n, n}, rng, n);
    const auto as = host(a);
    {
      const Array b = random(t, {3, n, 5}, rng);
      const Array x = la::solve(a, b);
      REQUIRE(x.shape() == Shape{3, n, 5});
      const auto xs = host(x), bs = host(b);
      for (int i = 0; i < 3; ++i) CHECK(err(mul(as[i], xs[i]), bs[i], max_abs(as[i]) * max_abs(xs[i])) < tol(t, n));
    }
    {
      const Array b = random(t, {n, 1}, rng).reshape({n});  // one vector for all three
      const auto xs = host(la::solve(a, b));
      const Mat bm = host(b)[0];
      for (int i = 0; i < 3; ++i) {
        const Mat xi{n, 1, std::vector<C>(xs[0].v.begin() + i * n, xs[0].v.begin() + (i + 1) * n)};
        CHECK(err(mul(as[i], xi), bm, max_abs(as[i]) * max_abs(xi)) < tol(t, n));
      }
    }
    {
      // a (2, 1, n, n) against b (3, n, 2): x (2, 3, n, 2); one A against a batch of b too.
      const Array a2 = random(t, {2, 1, n, n}, rng, n);
      const Array b = random(t, {3, n, 2}, rng);
      const auto xs = host(la::solve(a2, b));
      const auto a2s = host(a2), bs = host(b);
      REQUIRE(xs.size() == 6);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) CHECK(err(mul(a2s[i], xs[i * 3 + j]), bs[j], max_abs(a2s[i]) * n) < tol(t, n));
      const auto ys = host(la::solve(a2[0][0], b));
      for (int j = 0; j < 3; ++j) CHECK(err(mul(a2s[0], ys[j]), bs[j], max_abs(a2s[0]) * n) < tol(t, n));
    }
  }
}

TEST_CASE("linalg gpu: inv(A) A = I, singular matrices raise", "[gpu][linalg]") {
  std::mt19937_64 rng(2);
  const std::int64_t n = 40;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    const Array a = random(t, {2, n, n}, rng, n);
    const auto as = host(a), is = host(la::inv(a));
    for (int i = 0; i < 2; ++i) CHECK(err(mul(is[i], as[i]), identity(n), max_abs(as[i]) * max_abs(is[i]) * n) < tol(t, n));
    const Array singular = loom::asarray(std::vector<double>{1, 2, 2, 4}, {2, 2}).astype(t);
    REQUIRE_THROWS_MATCHES(la::inv(singular).eval(), loom::LinAlgError, WhatContains("Singular matrix"));
    REQUIRE_THROWS_MATCHES(la::solve(singular, loom::ones({2})).eval(), loom::LinAlgError,
                           WhatContains("Singular matrix"));
    REQUIRE_THROWS_MATCHES(la::inv(loom::zeros({3, 4, 4}, t)).eval(), loom::LinAlgError, WhatContains("Singular matrix"));
  }
}

TEST_CASE("linalg gpu: many small systems (cuBLAS batched LU) solve and invert, one singular raises", "[gpu][linalg]") {
  std::mt19937_64 rng(21);
  for (DType t : kTypes) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{8}, std::int64_t{32}}) {
      INFO(loom::name(t) << " n=" << n);
      const std::int64_t count = n == 32 ? 64 : 1000;
      const Array a = random(t, {count, n, n}, rng, static_cast<double>(n));
      const Array b = random(t, {count, n, 3}, rng);
      const auto as = host(a), bs = host(b), xs = host(la::solve(a, b)), is = host(la::inv(a));
      bool ok = true;
      for (std::int64_t i = 0; i < count && ok; ++i) {
        const auto u = static_cast<std::size_t>(i);
        ok = err(mul(as[u], xs[u]), bs[u], max_abs(as[u]) * max_abs(xs[u])) < tol(t, n) &&
             err(mul(is[u], as[u]), identity(n), max_abs(as[u]) * max_abs(is[u]) * n) < tol(t, n);
        if (!ok) FAIL_CHECK("matrix " << i);
      }
      // One vector right-hand side for every matrix: x is (count, n).
      const Array bv = random(t, {n, 1}, rng).reshape({n});
      const Mat bm = host(bv)[0];
      const Mat xv = host(la::solve(a, bv))[0];
      for (std::int64_t i = 0; i < count && ok; ++i) {
        const Mat xi{n, 1, std::vector<C>(xv.v.begin() + i * n, xv.v.begin() + (i + 1) * n)};
        ok = err(mul(as[static_cast<std::size_t>(i)], xi), bm, max_abs(as[static_cast<std::size_t>(i)]) * max_abs(xi)) <
             tol(t, n);
        if (!ok) FAIL_CHECK("vector system " << i);
      }
    }
    // One singular matrix among many small ones.
    std::vector<C> v(static_cast<std::size_t>(100 * 4 * 4), C(0));
    for (std::int64_t m = 0; m < 100; ++m)
      for (std::int64_t d = 0; d < 4; ++d) v[static_cast<std::size_t>(m * 16 + d * 5)] = m == 57 ? C(0) : C(2);
    const Array stack = upload(v, {100, 4, 4}, t);
    REQUIRE_THROWS_MATCHES(la::solve(stack, loom::ones({100, 4, 1}, t)).eval(), loom::LinAlgError,
                           WhatContains("Singular matrix"));
    REQUIRE_THROWS_MATCHES(la::inv(stack).eval(), loom::LinAlgError, WhatContains("Singular matrix"));
  }
}

TEST_CASE("linalg gpu: det and slogdet", "[gpu][linalg]") {
  std::mt19937_64 rng(3);
  const std::int64_t n = 12;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    // A triangular matrix: the product of its diagonal.
    Mat tri = host(random(t, {n, n}, rng, 2.0))[0];
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < i; ++j) tri(i, j) = 0;
    C want = 1;
    for (std::int64_t i = 0; i < n; ++i) want *= tri(i, i);
    const Array ta = upload(tri.v, {n, n}, t);
    for (const Array& m : {ta, ta.T()}) {
      const C got = host(la::det(m))[0](0, 0);
      CHECK(std::abs(got - want) < tol(t, n) * std::abs(want));
    }
    // det(A B) = det(A) det(B); slogdet agrees with det.
    const Array a = random(t, {n, n}, rng, n), b = random(t, {n, n}, rng, n);  // well conditioned
    const Mat ab = mul(host(a)[0], host(b)[0]);
    const Array abd = upload(ab.v, {n, n}, t);
    const C da = host(la::det(a))[0](0, 0), db = host(la::det(b))[0](0, 0), dab = host(la::det(abd))[0](0, 0);
    CHECK(std::abs(dab - da * db) < 10 * tol(t, n) * std::abs(dab));
    const auto [sign, logabs] = la::slogdet(a);
    const C s = host(sign)[0](0, 0);
    const double l = host(logabs)[0](0, 0).real();
    CHECK(std::abs(std::abs(s) - 1) < tol(t, n));
    CHECK(std::abs(s * std::exp(l) - da) < 10 * tol(t, n) * std::abs(da));  // exp of a sum of logs
    // Singular: det 0, slogdet (0, -inf), no error.
    const Array singular = loom::asarray(std::vector<double>{1, 2, 2, 4}, {1, 2, 2}).astype(t);
    CHECK(host(la::det(singular))[0](0, 0) == C(0));
    const auto [s0, l0] = la::slogdet(singular);
    CHECK(host(s0)[0](0, 0) == C(0));
    CHECK(host(l0)[0](0, 0).real() == -loom::inf);
    // A row swap flips the sign.
    const Array swap = loom::asarray(std::vector<double>{0, 1, 1, 0}, {2, 2}).astype(t);
    CHECK(host(la::det(swap))[0](0, 0) == C(-1));
  }
}

TEST_CASE("linalg gpu: det and slogdet of many small matrices (cuBLAS batched LU)", "[gpu][linalg]") {
  std::mt19937_64 rng(22);
  const std::int64_t n = 6, count = 200;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    std::vector<C> v = loom::astype(random(t, {count, n, n}, rng, 2.0), DType::Complex128).to_host<C>();
    for (std::int64_t j = 0; j < n; ++j) v[static_cast<std::size_t>(7 * n * n + j)] = 0;  // matrix 7: singular
    const Array a = upload(v, {count, n, n}, t);
    const auto dets = loom::astype(la::det(a), DType::Complex128).to_host<C>();
    const auto [sign, logabs] = la::slogdet(a);
    const auto signs = loom::astype(sign, DType::Complex128).to_host<C>();
    const auto logs = loom::astype(logabs, DType::Float64).to_host<double>();
    REQUIRE(dets.size() == static_cast<std::size_t>(count));
    CHECK(dets[7] == C(0));
    CHECK(logs[7] == -loom::inf);
    for (std::int64_t i : {std::int64_t{0}, std::int64_t{1}, std::int64_t{99}, std::int64_t{199}}) {
      const auto u = static_cast<std::size_t>(i);
      const C one = host(la::det(a[i]))[0](0, 0);  // one matrix: the cuSOLVER path
      CHECK(std::abs(dets[u] - one) < 10 * tol(t, n) * std::max(1.0, std::abs(one)));
      CHECK(std::abs(signs[u] * std::exp(logs[u]) - one) < 10 * tol(t, n) * std::max(1.0, std::abs(one)));
    }
    // Permutation matrices: det is the permutation's sign.
    std::vector<C> p(static_cast<std::size_t>(count * n * n), C(0));
    std::vector<double> want(static_cast<std::size_t>(count));
    for (std::int64_t m = 0; m < count; ++m) {
      std::vector<int> perm(static_cast<std::size_t>(n));
      for (int j = 0; j < n; ++j) perm[static_cast<std::size_t>(j)] = j;
      std::shuffle(perm.begin(), perm.end(), rng);
      int inversions = 0;
      for (int x = 0; x < n; ++x)
        for (int y = x + 1; y < n; ++y) inversions += perm[static_cast<std::size_t>(x)] > perm[static_cast<std::size_t>(y)];
      want[static_cast<std::size_t>(m)] = inversions % 2 ? -1.0 : 1.0;
      for (int j = 0; j < n; ++j) p[static_cast<std::size_t>(m * n * n + j * n + perm[static_cast<std::size_t>(j)])] = 1;
    }
    const auto pd = loom::astype(la::det(upload(p, {count, n, n}, t)), DType::Complex128).to_host<C>();
    bool ok = true;
    for (std::size_t m = 0; m < pd.size() && ok; ++m) ok = pd[m] == C(want[m]);
    CHECK(ok);
  }
}

// `m` with `junk` written over its strict upper (above) or lower triangle.
Array with_junk(const Mat& m, DType t, bool above) {
  Mat j = m;
  for (std::int64_t r = 0; r < m.rows; ++r)
    for (std::int64_t c = 0; c < m.cols; ++c)
      if (above ? c > r : c < r) j(r, c) = C(7.0 + static_cast<double>(r), loom::is_complex(t) ? -3.0 : 0.0);
  return upload(j.v, {m.rows, m.cols}, t);
}

TEST_CASE("linalg gpu: cholesky gives L L^H = A (and U^H U), not positive definite raises", "[gpu][linalg]") {
  std::mt19937_64 rng(4);
  const std::int64_t n = 32;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    const Array a = hpd(t, {2, n, n}, rng);
    const auto as = host(a), ls = host(la::cholesky(a)), us = host(la::cholesky(a, true));
    for (int i = 0; i < 2; ++i) {
      CHECK(err(mul(ls[i], adj(ls[i])), as[i]) < tol(t, n));
      CHECK(is_upper(adj(ls[i])));
      CHECK(err(mul(adj(us[i]), us[i]), as[i]) < tol(t, n));
      CHECK(is_upper(us[i]));
      for (std::int64_t j = 0; j < n; ++j) CHECK(ls[i](j, j).real() > 0);
    }
    // Only the lower (upper) triangle is read: junk in the other changes nothing.
    CHECK(err(host(la::cholesky(with_junk(as[0], t, true)))[0], ls[0]) < tol(t, n));
    CHECK(err(host(la::cholesky(with_junk(as[0], t, false), true))[0], us[0]) < tol(t, n));
    REQUIRE_THROWS_MATCHES(la::cholesky(-loom::eye(4, loom::none, 0, t)).eval(), loom::LinAlgError,
                           WhatContains("Matrix is not positive definite"));
  }
}

TEST_CASE("linalg gpu: qr gives Q R = A, Q^H Q = I, R upper triangular", "[gpu][linalg]") {
  std::mt19937_64 rng(5);
  for (DType t : kTypes) {
    for (const Shape& s : {Shape{30, 12}, Shape{12, 30}, Shape{2, 16, 16}}) {
      for (const char* mode : {"reduced", "complete"}) {
        INFO(loom::name(t) << " " << loom::to_string(s) << " " << mode);
        const Array a = random(t, s, rng);
        const auto [q, r] = la::qr(a, mode);
        const auto as = host(a), qs = host(q), rs = host(r);
        const std::int64_t m = s[s.size() - 2];
        for (std::size_t i = 0; i < as.size(); ++i) {
          CHECK(err(mul(qs[i], rs[i]), as[i], m) < tol(t, m));
          CHECK(err(mul(adj(qs[i]), qs[i]), identity(qs[i].cols)) < tol(t, m));
          CHECK(is_upper(rs[i]));
        }
      }
    }
  }
}

TEST_CASE("linalg gpu: svd gives U diag(S) Vh = A with orthonormal U, V and S descending", "[gpu][linalg]") {
  std::mt19937_64 rng(6);
  for (DType t : kTypes) {
    for (const Shape& s : {Shape{24, 10}, Shape{10, 24}, Shape{2, 16, 16}}) {
      for (bool full : {true, false}) {
        INFO(loom::name(t) << " " << loom::to_string(s) << " full " << full);
        const Array a = random(t, s, rng);
        const auto [u, sv, vh] = la::svd(a, full);
        const auto as = host(a), us = host(u), vs = host(vh);
        const auto ss = host(sv.reshape({-1, sv.shape()[sv.ndim() - 1]}));
        const std::int64_t m = s[s.size() - 2], n = s[s.size() - 1], k = std::min(m, n);
        for (std::size_t i = 0; i < as.size(); ++i) {
          Mat usv = zeros(m, n);
          for (std::int64_t r = 0; r < m; ++r)
            for (std::int64_t c = 0; c < n; ++c)
              for (std::int64_t j = 0; j < k; ++j) usv(r, c) += us[i](r, j) * ss[0].v[i * k + j] * vs[i](j, c);
          CHECK(err(usv, as[i], std::max(m, n)) < tol(t, std::max(m, n)));
          CHECK(err(mul(adj(us[i]), us[i]), identity(us[i].cols)) < tol(t, m));
          CHECK(err(mul(vs[i], adj(vs[i])), identity(vs[i].rows)) < tol(t, n));
          for (std::int64_t j = 0; j < k; ++j) {
            CHECK(ss[0].v[i * k + j].real() >= 0);
            if (j > 0) CHECK(ss[0].v[i * k + j].real() <= ss[0].v[i * k + j - 1].real());
          }
        }
        CHECK(err(host(la::svdvals(a))[0], host(sv)[0]) < tol(t, k));
      }
    }
  }
}

TEST_CASE("linalg gpu: eigh gives A v = lambda v, orthonormal v, ascending lambda", "[gpu][linalg]") {
  std::mt19937_64 rng(7);
  const std::int64_t n = 24;
  for (DType t : kTypes) {
    INFO(loom::name(t));
    const Array a = hpd(t, {2, n, n}, rng) - 1.5;  // indefinite too
    const auto [w, v] = la::eigh(a);
    const auto as = host(a), vs = host(v), ws = host(w.reshape({2, n, 1}));
    for (int i = 0; i < 2; ++i) {
      Mat vl = vs[i];
      for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t c = 0; c < n; ++c) vl(r, c) *= ws[i](c, 0);
      CHECK(err(mul(as[i], vs[i]), vl, max_abs(as[i])) < tol(t, n));
      CHECK(err(mul(adj(vs[i]), vs[i]), identity(n)) < tol(t, n));
      for (std::int64_t j = 1; j < n; ++j) CHECK(ws[i](j, 0).real() >= ws[i](j - 1, 0).real());
    }
    CHECK(err(host(la::eigvalsh(a).reshape({2, n, 1}))[0], ws[0]) < tol(t, n));
    // UPLO: only that triangle is read.
    CHECK(err(host(la::eigvalsh(with_junk(as[0], t, true), "L")).at(0), ws[0]) < tol(t, n));
    CHECK(err(host(la::eigvalsh(with_junk(as[0], t, false), "U")).at(0), ws[0]) < tol(t, n));
  }
}

TEST_CASE("linalg gpu: lstsq's answer for eye(3), its rank int32, as NumPy 2.5", "[gpu][linalg]") {
  // np.linalg.lstsq(np.eye(3), np.ones(3), rcond=None): ([1, 1, 1], [] float64, np.int32(3), [1, 1, 1]);
  // float32 too (rank int32 whatever the dtype).
  static_assert(std::is_same_v<decltype(la::LstsqResult::rank), std::int32_t>);
  for (DType t : {DType::Float64, DType::Float32}) {
    INFO(loom::name(t));
    const la::LstsqResult r = la::lstsq(loom::eye(3, loom::none, 0, t), loom::ones({3}, t));
    CHECK(r.rank == 3);
    CHECK(r.x.dtype() == t);
    CHECK(r.residuals.shape() == Shape{0});
    CHECK(r.residuals.dtype() == t);
    const double eps = t == DType::Float32 ? 1e-6 : 1e-14;
    for (const Array& ones : {r.x, r.s}) {
      CHECK(ones.size() == 3);
      for (double v : ones.astype(DType::Float64).to_host<double>()) CHECK(std::abs(v - 1) < eps);
    }
  }
}

TEST_CASE("linalg gpu: lstsq, pinv, matrix_rank, cond and the SVD norms", "[gpu][linalg]") {
  std::mt19937_64 rng(8);
  for (DType t : kTypes) {
    INFO(loom::name(t));
    // Overdetermined: the residual is orthogonal to A's columns (normal equations).
    const Array a = random(t, {40, 8}, rng), b = random(t, {40, 3}, rng);
    const la::LstsqResult r = la::lstsq(a, b);
    CHECK(r.rank == 8);
    REQUIRE(r.x.shape() == Shape{8, 3});
    REQUIRE(r.residuals.shape() == Shape{3});
    const Mat am = host(a)[0], bm = host(b)[0], xm = host(r.x)[0];
    Mat res = mul(am, xm);
    for (std::size_t i = 0; i < res.v.size(); ++i) res.v[i] -= bm.v[i];
    CHECK(max_abs(mul(adj(am), res)) < tol(t, 40) * 40);
    for (std::int64_t c = 0; c < 3; ++c) {
      double sq = 0;
      for (std::int64_t i = 0; i < 40; ++i) sq += std::norm(res(i, c));
      CHECK(std::abs(host(r.residuals)[0](c, 0).real() - sq) < tol(t, 40) * sq * 10);
    }
    // Underdetermined, vector b: A x = b exactly; no residuals.
    const Array wide = random(t, {6, 20}, rng), bv = random(t, {6, 1}, rng).reshape({6});
    const la::LstsqResult u = la::lstsq(wide, bv);
    REQUIRE(u.x.shape() == Shape{20});
    CHECK(u.residuals.shape() == Shape{0});
    CHECK(err(mul(host(wide)[0], host(u.x)[0]), host(bv)[0], 20) < tol(t, 20));

    // pinv: A A+ A = A and A+ A A+ = A+.
    const Array p = la::pinv(a);
    const Mat pm = host(p)[0];
    CHECK(err(mul(mul(am, pm), am), am, 10) < tol(t, 40) * 10);
    CHECK(err(mul(mul(pm, am), pm), pm, 10) < tol(t, 40) * 10);

    // matrix_rank of a rank-3 product (in double: rounded to single precision, its zero singular
    // values come within a few ulp of the default threshold); cond of diagonal and singular ones.
    const Mat low = mul(host(random(t, {9, 3}, rng))[0], host(random(t, {3, 7}, rng))[0]);
    CHECK(la::matrix_rank(upload(low.v, {9, 7}, loom::is_complex(t) ? DType::Complex128 : DType::Float64))
              .item<std::int64_t>() == 3);
    CHECK(la::matrix_rank(loom::eye(5, loom::none, 0, t)).item<std::int64_t>() == 5);
    std::vector<double> d(16, 0.0);
    for (int i = 0; i < 4; ++i) d[static_cast<std::size_t>(i * 5)] = i + 1.0;  // diag(1, 2, 3, 4)
    const Array dm = loom::asarray(d, {4, 4}).astype(t);
    CHECK(std::abs(la::cond(dm).astype(DType::Float64).item<double>() - 4) < tol(t, 4) * 4);
    CHECK(std::abs(la::cond(dm, -2).astype(DType::Float64).item<double>() - 0.25) < tol(t, 4));
    CHECK(std::abs(loom::real(la::cond(dm, 1)).astype(DType::Float64).item<double>() - 4) < tol(t, 4) * 4);
    CHECK(std::abs(loom::real(la::cond(dm, "fro")).astype(DType::Float64).item<double>() -
                   std::sqrt(30.0) * std::sqrt(1 + 0.25 + 1.0 / 9 + 1.0 / 16)) < tol(t, 4) * 30);
    CHECK(la::cond(loom::zeros({3, 3}, t)).astype(DType::Float64).item<double>() == loom::inf);
    CHECK(loom::real(la::cond(loom::zeros({3, 3}, t), loom::inf)).astype(DType::Float64).item<double>() == loom::inf);

    // SVD norms of diag(1, 2, 3, 4): 2 -> 4, -2 -> 1, nuc -> 10.
    CHECK(std::abs(la::norm(dm, 2).astype(DType::Float64).item<double>() - 4) < tol(t, 4) * 4);
    CHECK(std::abs(la::norm(dm, -2).astype(DType::Float64).item<double>() - 1) < tol(t, 4));
    CHECK(std::abs(la::norm(dm, "nuc").astype(DType::Float64).item<double>() - 10) < tol(t, 4) * 10);
    const Array stacked = dm.reshape({4, 1, 4}).broadcast_to({4, 3, 4});  // axes 0 and 2
    const auto norms = host(la::norm(stacked, 2, {2, 0}, true));
    for (const C& x : norms[0].v) CHECK(std::abs(x.real() - 4) < tol(t, 4) * 4);
  }
}
