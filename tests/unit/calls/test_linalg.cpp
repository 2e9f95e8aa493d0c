// loom::linalg's cuSOLVER functions without a GPU: result shapes and dtypes of every function
// and mode (known when the call is built), NumPy's errors (type and message), the barrier in
// explain(), and the clear error that evaluating one raises without a GPU. Values are checked by
// identities in tests/gpu/test_linalg_gpu.cpp.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::test::WhatContains;
using Catch::Matchers::Contains;
namespace la = loom::linalg;

namespace {

Array mat(const Shape& s, DType t = DType::Float64) {
  return loom::arange(s.numel()).reshape(s).astype(t) + loom::eye(s[s.size() - 2], s[s.size() - 1], 0, t);
}

void check(const Array& a, const Shape& s, DType t) {
  INFO("shape " << loom::to_string(loom::zeros(a.shape())) << " dtype " << a.dtype());
  CHECK(a.shape() == s);
  CHECK(a.dtype() == t);
}

}  // namespace

TEST_CASE("linalg: solve's shapes, vector and matrix right-hand sides, broadcast batches", "[linalg]") {
  const Array a = mat({3, 3});
  check(la::solve(a, loom::ones({3})), {3}, DType::Float64);
  check(la::solve(a, loom::ones({3, 2})), {3, 2}, DType::Float64);
  check(la::solve(mat({4, 3, 3}), loom::ones({3})), {4, 3}, DType::Float64);       // b 1-D: a vector
  check(la::solve(mat({4, 3, 3}), loom::ones({4, 3, 1})), {4, 3, 1}, DType::Float64);
  check(la::solve(mat({2, 1, 3, 3}), loom::ones({5, 3, 2})), {2, 5, 3, 2}, DType::Float64);
  check(la::solve(a, loom::ones({6, 3, 2})), {6, 3, 2}, DType::Float64);
  // NumPy's common type: float32 only when both are; complex when either is; ints give float64.
  check(la::solve(mat({3, 3}, DType::Float32), loom::ones({3}, DType::Float32)), {3}, DType::Float32);
  check(la::solve(mat({3, 3}, DType::Float32), loom::ones({3}, DType::Float64)), {3}, DType::Float64);
  check(la::solve(mat({3, 3}, DType::Float32), loom::ones({3}, DType::Complex64)), {3}, DType::Complex64);
  check(la::solve(mat({3, 3}, DType::Int32), loom::ones({3}, DType::Int32)), {3}, DType::Float64);
  check(la::solve(mat({3, 3}, DType::Float32), loom::ones({3}, DType::Complex128)), {3}, DType::Complex128);
}

TEST_CASE("linalg: shapes and dtypes of inv, det, slogdet, cholesky, eigh", "[linalg]") {
  for (DType t : {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128}) {
    const DType rt = loom::is_complex(t) ? (t == DType::Complex64 ? DType::Float32 : DType::Float64) : t;
    const Array a = mat({2, 5, 4, 4}, t);
    check(la::inv(a), {2, 5, 4, 4}, t);
    check(la::det(a), {2, 5}, t);
    const auto [sign, logabs] = la::slogdet(a);
    check(sign, {2, 5}, t);
    check(logabs, {2, 5}, rt);
    check(la::cholesky(a), {2, 5, 4, 4}, t);
    check(la::cholesky(a, true), {2, 5, 4, 4}, t);
    const auto [w, v] = la::eigh(a);
    check(w, {2, 5, 4}, rt);
    check(v, {2, 5, 4, 4}, t);
    check(la::eigvalsh(a, "u"), {2, 5, 4}, rt);
    check(la::det(mat({4, 4}, t)), {}, t);
  }
  check(la::inv(mat({3, 3}, DType::Int64)), {3, 3}, DType::Float64);
  check(la::det(mat({3, 3}, DType::Bool)), {}, DType::Float64);
}

TEST_CASE("linalg: qr's modes, svd's full and reduced matrices", "[linalg]") {
  for (const Shape& s : {Shape{6, 4}, Shape{4, 6}, Shape{3, 5, 5}}) {
    const std::int64_t m = s[s.size() - 2], n = s[s.size() - 1], k = std::min(m, n);
    const Shape b(s.begin(), s.end() - 2);
    const auto with = [&](std::int64_t r, std::int64_t c) {
      Shape o = b;
      o.push_back(r);
      o.push_back(c);
      return o;
    };
    const Array a = mat(s, DType::Complex64);
    const auto [q, r] = la::qr(a);
    check(q, with(m, k), DType::Complex64);
    check(r, with(k, n), DType::Complex64);
    const auto [qc, rc] = la::qr(a, "complete");
    check(qc, with(m, m), DType::Complex64);
    check(rc, with(m, n), DType::Complex64);

    const Array f = mat(s, DType::Float32);
    const auto [u, sv, vh] = la::svd(f);
    check(u, with(m, m), DType::Float32);
    check(vh, with(n, n), DType::Float32);
    Shape sk = b;
    sk.push_back(k);
    check(sv, sk, DType::Float32);
    const auto [ur, sr, vhr] = la::svd(f, false);
    check(ur, with(m, k), DType::Float32);
    check(vhr, with(k, n), DType::Float32);
    const auto only = la::svd(mat(s, DType::Complex128), true, false);
    CHECK_FALSE(only.U.valid());
    CHECK_FALSE(only.Vh.valid());
    check(only.S, sk, DType::Float64);
    check(la::svdvals(f), sk, DType::Float32);
    check(la::pinv(f), with(n, m), DType::Float32);
    Shape rank_shape = b;
    check(la::matrix_rank(f), rank_shape, DType::Int64);
    check(la::cond(f), rank_shape, DType::Float32);
  }
}

TEST_CASE("linalg: empty matrices need no call", "[linalg]") {
  CHECK(la::det(loom::zeros({2, 0, 0})).to_host<double>() == std::vector<double>{1, 1});
  check(la::inv(loom::zeros({2, 0, 0})), {2, 0, 0}, DType::Float64);
  const auto [u, s, vh] = la::svd(loom::zeros({3, 0}));
  CHECK(u.to_host<double>() == loom::eye(3).to_host<double>());
  check(s, {0}, DType::Float64);
  check(vh, {0, 0}, DType::Float64);
  check(la::solve(loom::zeros({0, 0}), loom::zeros({0})), {0}, DType::Float64);
  const auto [q, r] = la::qr(loom::zeros({3, 0}), "complete");
  CHECK(q.to_host<double>() == loom::eye(3).to_host<double>());
  check(r, {3, 0}, DType::Float64);
}

TEST_CASE("linalg: NumPy's errors, type and message", "[linalg][errors]") {
  const Array v = loom::ones({3});
  REQUIRE_THROWS_MATCHES(la::inv(v), loom::LinAlgError,
                         WhatContains("1-dimensional array given. Array must be at least two-dimensional"));
  REQUIRE_THROWS_MATCHES(la::svd(v), loom::LinAlgError,
                         WhatContains("1-dimensional array given. Array must be at least two-dimensional"));
  REQUIRE_THROWS_MATCHES(la::qr(loom::ones({})), loom::LinAlgError,
                         WhatContains("0-dimensional array given. Array must be at least two-dimensional"));
  for (const auto& f : std::vector<std::function<void()>>{
           [] { (void)la::inv(loom::ones({2, 3})); }, [] { (void)la::det(loom::ones({4, 2, 3})); },
           [] { (void)la::solve(loom::ones({2, 3}), loom::ones({2})); },
           [] { (void)la::cholesky(loom::ones({3, 2})); }, [] { (void)la::eigh(loom::ones({3, 2})); },
           [] { (void)la::slogdet(loom::ones({3, 2})); }, [] { (void)la::cond(loom::ones({3, 2}), "fro"); }}) {
    REQUIRE_THROWS_MATCHES(f(), loom::LinAlgError, WhatContains("Last 2 dimensions of the array must be square"));
  }
  REQUIRE_THROWS_MATCHES(la::inv(loom::ones({3, 3}, DType::Float16)), loom::DTypeError,
                         WhatContains("array type float16 is unsupported in linalg"));
  REQUIRE_THROWS_MATCHES(la::solve(loom::ones({3, 3}), loom::ones({3}, DType::BFloat16)), loom::DTypeError,
                         WhatContains("array type bfloat16 is unsupported in linalg"));
  REQUIRE_THROWS_MATCHES(la::norm(loom::ones({3, 3}, DType::Float16), 2), loom::DTypeError,
                         WhatContains("array type float16 is unsupported in linalg"));
  REQUIRE_THROWS_MATCHES(la::solve(loom::ones({3, 3}), loom::ones({2})), loom::ValueError,
                         WhatContains("solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                      "signature (m,m),(m)->(m) (size 2 is different from 3)"));
  REQUIRE_THROWS_MATCHES(la::solve(loom::ones({3, 3}), loom::ones({2, 4})), loom::ValueError,
                         WhatContains("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                      "signature (m,m),(m,n)->(m,n) (size 2 is different from 3)"));
  REQUIRE_THROWS_MATCHES(la::solve(loom::ones({2, 3, 3}), loom::ones({4, 3, 1})), loom::ShapeError,
                         WhatContains("could not be broadcast"));
  REQUIRE_THROWS_MATCHES(la::qr(loom::ones({3, 3}), "raw"), loom::ValueError, WhatContains("Unrecognized mode 'raw'"));
  REQUIRE_THROWS_MATCHES(la::eigh(loom::ones({3, 3}), "X"), loom::ValueError,
                         WhatContains("UPLO argument must be 'L' or 'U'"));
  REQUIRE_THROWS_MATCHES(la::lstsq(loom::ones({2, 3, 3}), loom::ones({3})), loom::LinAlgError,
                         WhatContains("3-dimensional array given. Array must be two-dimensional"));
  REQUIRE_THROWS_MATCHES(la::lstsq(loom::ones({4, 3}), loom::ones({3})), loom::LinAlgError,
                         WhatContains("Incompatible dimensions"));
  REQUIRE_THROWS_MATCHES(la::matrix_rank(loom::ones({3, 3}), 1.0, false, 1.0), loom::ValueError,
                         WhatContains("`tol` and `rtol` can't be both set."));
  REQUIRE_THROWS_MATCHES(la::cond(loom::ones({0, 3})), loom::LinAlgError,
                         WhatContains("cond is not defined on empty arrays"));
  REQUIRE_THROWS_MATCHES(la::norm(loom::ones({3, 3}), "nuc", {0, 0}), loom::ValueError,
                         WhatContains("Duplicate axes given."));
}

TEST_CASE("linalg: norm's SVD orders keep norm's shapes", "[linalg]") {
  const Array x = mat({2, 3, 4});
  check(la::norm(mat({3, 4}), 2), {}, DType::Float64);
  check(la::norm(x, "nuc", {0, 2}), {3}, DType::Float64);
  check(la::norm(x, -2, {2, 0}, true), {1, 3, 1}, DType::Float64);
  check(la::norm(mat({3, 4}, DType::Complex64), 2), {}, DType::Float32);
  check(la::norm(mat({3, 4}, DType::Int32), "nuc"), {}, DType::Float64);
  const std::string plan = loom::explain_string({la::norm(x, "nuc", {0, 2})});
  CHECK_THAT(plan, Contains("barrier: library call linalg.norm (cusolverDnXgesvd (job N), float64)"));
}

TEST_CASE("linalg: explain shows the cuSOLVER barrier and the fused work around it", "[linalg]") {
  const Array a = mat({4, 4}) * 2;  // fused into the call's input
  CHECK_THAT(loom::explain_string({la::solve(a, loom::ones({4})) + 1}),
             Contains("barrier: library call linalg.solve (cusolverDnXgetrf + cusolverDnXgetrs, float64)"));
  CHECK_THAT(loom::explain_string({la::det(a)}), Contains("library call linalg.det (cusolverDnXgetrf, float64)"));
  CHECK_THAT(loom::explain_string({la::cholesky(a)}), Contains("linalg.cholesky (cusolverDnXpotrf, float64)"));
  CHECK_THAT(loom::explain_string({la::qr(mat({4, 4}, DType::Complex64)).R}),
             Contains("linalg.qr (cusolverDnXgeqrf + cusolverDnungqr, complex64)"));
  CHECK_THAT(loom::explain_string({la::svd(a).U}), Contains("linalg.svd (cusolverDnXgesvd (job A), float64)"));
  CHECK_THAT(loom::explain_string({la::eigh(a).eigenvectors}), Contains("linalg.eigh (cusolverDnXsyevd, float64)"));
  CHECK_THAT(loom::explain_string({la::inv(a)}), Contains("linalg.inv (cusolverDnXgetrf + cusolverDnXgetrs"));
  // Many small matrices, one per right-hand side: cuBLAS's batched LU; broadcast A or n > 32: cuSOLVER.
  const Array stack = mat({100, 4, 4});
  CHECK_THAT(loom::explain_string({la::solve(stack, loom::ones({100, 4, 1}))}),
             Contains("linalg.solve (cublasXgetrfBatched + cublasXgetrsBatched, 100 systems of 4x4, float64)"));
  CHECK_THAT(loom::explain_string({la::inv(stack)}), Contains("linalg.inv (cublasXgetrfBatched"));
  CHECK_THAT(loom::explain_string({la::det(stack)}),
             Contains("linalg.det (cublasXgetrfBatched, 100 matrices of 4x4, float64)"));
  CHECK_THAT(loom::explain_string({la::solve(mat({2, 1, 4, 4}), loom::ones({3, 4, 2}))}),
             Contains("cusolverDnXgetrf + cusolverDnXgetrs"));
  CHECK_THAT(loom::explain_string({la::inv(mat({3, 33, 33}))}), Contains("cusolverDnXgetrf + cusolverDnXgetrs"));
}

TEST_CASE("linalg: without a GPU, evaluating a call names the function", "[linalg]") {
  if (loom::gpu_available()) return;
  const Array a = mat({3, 3});
  REQUIRE_THROWS_MATCHES(la::solve(a, loom::ones({3})).eval(), loom::Error, WhatContains("linalg.solve: needs a GPU"));
  REQUIRE_THROWS_MATCHES(la::det(a).eval(), loom::Error, WhatContains("linalg.det: needs a GPU"));
  REQUIRE_THROWS_MATCHES(la::norm(a, 2).eval(), loom::Error, WhatContains("linalg.norm: needs a GPU"));
  REQUIRE_THROWS_MATCHES(la::lstsq(a, loom::ones({3})), loom::Error, WhatContains("linalg.lstsq: needs a GPU"));
}
