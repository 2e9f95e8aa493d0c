// Matrix products (loom/blas.hpp): NumPy's shapes, dtypes and error messages; the graph around
// the cuBLAS call (one barrier, operands read in place, transposed views as op flags, one fused
// kernel after); and the host implementation's values on small hand-computed cases.

#include <catch2/catch.hpp>

#include <complex>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::test::WhatContains;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using c64 = std::complex<float>;

namespace {

Array mat(std::vector<double> v, const Shape& shape, DType t = DType::Float32) {
  return loom::asarray(v, shape).astype(t).eval();
}

Array relu(const Array& x) { return loom::maximum(x, 0); }

bool host_only() { return !loom::gpu_available(); }

}  // namespace

TEST_CASE("matmul shapes follow NumPy's gufunc (n?,k),(k,m?)->(n?,m?)", "[blas]") {
  const auto shape_of = [](const Shape& a, const Shape& b) {
    return loom::matmul(loom::zeros(a, DType::Float32), loom::zeros(b, DType::Float32)).shape();
  };
  CHECK(shape_of({2, 3}, {3, 4}) == Shape{2, 4});
  CHECK(shape_of({3}, {3, 4}) == Shape{4});
  CHECK(shape_of({2, 3}, {3}) == Shape{2});
  CHECK(shape_of({3}, {3}) == Shape{});
  CHECK(shape_of({5, 1, 2, 3}, {4, 3, 6}) == Shape{5, 4, 2, 6});
  CHECK(shape_of({7, 2, 3}, {3}) == Shape{7, 2});
  CHECK(shape_of({3}, {7, 3, 2}) == Shape{7, 2});
  CHECK(shape_of({0, 3}, {3, 4}) == Shape{0, 4});
  CHECK(shape_of({2, 0}, {0, 4}) == Shape{2, 4});
  CHECK(loom::zeros({2, 3}).matmul(loom::zeros({3, 5})).shape() == Shape{2, 5});
}

TEST_CASE("matmul dtypes promote as NumPy's", "[blas]") {
  const auto dtype_of = [](DType a, DType b) { return loom::matmul(loom::zeros({2, 2}, a), loom::zeros({2, 2}, b)).dtype(); };
  CHECK(dtype_of(DType::Float32, DType::Float32) == DType::Float32);
  CHECK(dtype_of(DType::Float32, DType::Float64) == DType::Float64);
  CHECK(dtype_of(DType::Float16, DType::Float16) == DType::Float16);
  CHECK(dtype_of(DType::BFloat16, DType::BFloat16) == DType::BFloat16);
  CHECK(dtype_of(DType::Float16, DType::Float32) == DType::Float32);
  CHECK(dtype_of(DType::Int32, DType::Float32) == DType::Float64);
  CHECK(dtype_of(DType::Complex64, DType::Float32) == DType::Complex64);
  CHECK(dtype_of(DType::Complex64, DType::Float64) == DType::Complex128);
  CHECK(dtype_of(DType::Int32, DType::Int32) == DType::Int32);
  CHECK(dtype_of(DType::Int8, DType::UInt8) == DType::Int16);
  CHECK(dtype_of(DType::Bool, DType::Bool) == DType::Bool);
  CHECK(dtype_of(DType::Bool, DType::Int64) == DType::Int64);
}

TEST_CASE("dot, vdot, inner, outer and tensordot shapes", "[blas]") {
  const auto z = [](const Shape& s) { return loom::zeros(s, DType::Float64); };
  CHECK(loom::dot(z({2, 3}), z({4, 3, 5})).shape() == Shape{2, 4, 5});
  CHECK(loom::dot(z({3}), z({4, 3, 5})).shape() == Shape{4, 5});
  CHECK(loom::dot(z({2, 3}), z({3})).shape() == Shape{2});
  CHECK(loom::dot(z({3}), z({3})).shape() == Shape{});
  CHECK(loom::dot(z({2, 3}), z({})).shape() == Shape{2, 3});
  CHECK(z({2, 3}).dot(z({3, 4})).shape() == Shape{2, 4});
  CHECK(loom::vdot(z({2, 3}), z({3, 2})).shape() == Shape{});
  CHECK(loom::inner(z({2, 3}), z({4, 5, 3})).shape() == Shape{2, 4, 5});
  CHECK(loom::inner(z({2, 3}), z({3})).shape() == Shape{2});
  CHECK(loom::outer(z({2, 3}), z({4})).shape() == Shape{6, 4});
  CHECK(loom::tensordot(z({2, 3, 4}), z({4, 3, 5}), {{1, 2}, {1, 0}}).shape() == Shape{2, 5});
  CHECK(loom::tensordot(z({2, 3, 4}), z({3, 4, 5})).shape() == Shape{2, 5});
  CHECK(loom::tensordot(z({2, 3}), z({4}), 0).shape() == Shape{2, 3, 4});
  CHECK(loom::dot(loom::zeros({3}, DType::Int32), loom::zeros({3}, DType::Int32)).dtype() == DType::Int32);
}

TEST_CASE("matmul errors carry NumPy's wording", "[blas][errors]") {
  const auto z = [](const Shape& s) { return loom::zeros(s, DType::Float32); };
  REQUIRE_THROWS_MATCHES(loom::matmul(z({2, 4}), z({3, 5})), loom::ShapeError,
                         WhatContains("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                      "signature (n?,k),(k,m?)->(n?,m?) (size 3 is different from 4)"));
  REQUIRE_THROWS_MATCHES(loom::matmul(z({3}), z({4})), loom::ShapeError, WhatContains("(size 4 is different from 3)"));
  REQUIRE_THROWS_MATCHES(loom::matmul(z({}), z({3})), loom::ShapeError,
                         WhatContains("matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core "
                                      "with signature (n?,k),(k,m?)->(n?,m?) requires 1)"));
  REQUIRE_THROWS_MATCHES(loom::matmul(z({3}), z({})), loom::ShapeError,
                         WhatContains("matmul: Input operand 1 does not have enough dimensions"));
  REQUIRE_THROWS_MATCHES(loom::matmul(z({2, 3, 4}), z({5, 4, 2})), loom::ShapeError,
                         WhatContains("operands could not be broadcast together with remapped shapes "
                                      "[original->remapped]: (2,3,4)->(2,newaxis,newaxis) "
                                      "(5,4,2)->(5,newaxis,newaxis)  and requested shape (3,2)"));
  REQUIRE_THROWS_MATCHES(loom::matmul(z({2, 3, 4, 5}), z({7, 5, 6})), loom::ShapeError,
                         WhatContains("(2,3,4,5)->(2,3,newaxis,newaxis) (7,5,6)->(7,newaxis,newaxis)  and "
                                      "requested shape (4,6)"));
  REQUIRE_THROWS_MATCHES(loom::dot(z({2, 3}), z({4, 5})), loom::ShapeError,
                         WhatContains("shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)"));
  REQUIRE_THROWS_MATCHES(loom::dot(z({2, 3}), z({2, 4, 5})), loom::ShapeError,
                         WhatContains("shapes (2,3) and (2,4,5) not aligned: 3 (dim 1) != 4 (dim 1)"));
  REQUIRE_THROWS_MATCHES(loom::dot(z({3}), z({4})), loom::ShapeError,
                         WhatContains("shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)"));
  REQUIRE_THROWS_MATCHES(loom::inner(z({2, 3}), z({4, 5})), loom::ShapeError,
                         WhatContains("shapes (2,3) and (5,4) not aligned: 3 (dim 1) != 5 (dim 0)"));
  REQUIRE_THROWS_MATCHES(loom::inner(z({2, 3}), z({6, 4, 5})), loom::ShapeError,
                         WhatContains("shapes (2,3) and (6,5,4) not aligned: 3 (dim 1) != 5 (dim 1)"));
  REQUIRE_THROWS_MATCHES(loom::vdot(z({3}), z({4})), loom::ShapeError,
                         WhatContains("cannot reshape array of size 4 into shape (3,)"));
  REQUIRE_THROWS_MATCHES(loom::tensordot(z({2, 3}), z({4, 5}), 1), loom::ShapeError,
                         WhatContains("shape-mismatch for sum"));
  REQUIRE_THROWS_MATCHES(loom::tensordot(z({2, 3}), z({3, 5}), {{1}, {0, 1}}), loom::ShapeError,
                         WhatContains("shape-mismatch for sum"));
  REQUIRE_THROWS_AS(loom::tensordot(z({2, 3}), z({3, 5}), {{3}, {0}}), loom::IndexError);
}

TEST_CASE("relu(A @ B + bias): one GEMM barrier, then one fused kernel", "[blas][explain]") {
  loom::set_tf32(false);
  const Array a = mat({1, 2, 3, 4, 5, 6}, {2, 3});
  const Array b = mat({1, 0, -1, 2, 1, 0, 0, 1, 3, -2, 1, 1}, {3, 4});
  const Array bias = mat({0.5, -100, 0, 1}, {4});
  const Array y = relu(loom::matmul(a, b) + bias);
  const std::string plan = loom::explain_string({y});
  CHECK_THAT(plan, Contains("barrier: library call matmul (cublasGemmStridedBatchedEx (B, A) f32 compute 32F, 1 "
                            "batch): float32(2, 3) float32(3, 4) -> float32(2, 4)"));
  CHECK_THAT(plan, !Contains("its inputs first"));  // both operands are read where they lie
  CHECK_THAT(plan, Contains("loom plan: 1 kernel(s)"));
  CHECK_THAT(plan, Contains("output 0 of the library call matmul (a barrier)"));
  if (!host_only()) return;
  // A @ B = [[12, -6, 2, 7], [27, -12, 2, 19]]
  CHECK_THAT(y.to_host<float>(), Equals(std::vector<float>{12.5f, 0, 2, 8, 27.5f, 0, 2, 20}));
}

TEST_CASE("transposed and conjugated views become cuBLAS op flags, not copies", "[blas][explain]") {
  const Array a = mat({1, 2, 3, 4, 5, 6}, {3, 2});  // a.T() is 2 x 3
  const Array b = mat({1, 0, -1, 2, 1, 0}, {3, 2});
  const Array y = loom::matmul(a.T(), b);
  const std::string plan = loom::explain_string({y});
  CHECK_THAT(plan, Contains("cublasGemmStridedBatchedEx (B, A^T) f32 compute 32F, 1 batch"));
  CHECK_THAT(plan, !Contains("its inputs first"));
  CHECK_THAT(loom::explain_string({loom::matmul(a, b.T())}), Contains("(B^T, A)"));

  // A lazy operand's transpose: its kernel writes it in its own order, the call reads it as A^T.
  const Array lazy = loom::arange(6).astype(DType::Float32).reshape({3, 2}) * 2;
  const std::string lazy_plan = loom::explain_string({loom::matmul(lazy.T(), b)});
  CHECK_THAT(lazy_plan, Contains("(B, A^T)"));
  CHECK_THAT(lazy_plan, Contains("its inputs first: 1 kernel(s)"));

  // A batch whose last two axes are swapped.
  const Array batch = loom::zeros({4, 3, 2}, DType::Float64).eval();
  CHECK_THAT(loom::explain_string({loom::matmul(batch.swapaxes(-1, -2), loom::zeros({4, 3, 5}, DType::Float64).eval())}),
             Contains("(B, A^T) f64 compute 64F, 4 batches"));

  // conj of a transposed complex matrix: op C, still no copy.
  const Array z = loom::asarray(std::vector<c64>{{1, 1}, {2, 0}, {0, -1}, {3, 2}}, {2, 2}).eval();
  const std::string zplan = loom::explain_string({loom::matmul(loom::conj(z.T()), z)});
  CHECK_THAT(zplan, Contains("(B, A^H) c64 compute 32F"));
  CHECK_THAT(zplan, !Contains("its inputs first"));
  CHECK_THAT(loom::explain_string({loom::matmul(z.T().conj(), z)}), Contains("(B, A^H)"));
  // conj of a row-major matrix has no cuBLAS flag: a kernel conjugates it first.
  const std::string rplan = loom::explain_string({loom::matmul(loom::conj(z), z)});
  CHECK_THAT(rplan, Contains("(B, A)"));
  CHECK_THAT(rplan, Contains("its inputs first: 1 kernel(s)"));
  // vdot conjugates a single row: op C on the flattened first operand.
  CHECK_THAT(loom::explain_string({loom::vdot(z, z)}), Contains("(B, A^H)"));

  if (!host_only()) return;
  // a.T() = [[1,3,5],[2,4,6]]; b = [[1,0],[-1,2],[1,0]]
  CHECK_THAT(y.to_host<float>(), Equals(std::vector<float>{3, 6, 4, 8}));
  // conj(z.T()) @ z, z = [[1+i, 2], [-i, 3+2i]]: the Gram matrix z^H z.
  const std::vector<c64> got = loom::matmul(loom::conj(z.T()), z).to_host<c64>();
  const c64 z00{1, 1}, z01{2, 0}, z10{0, -1}, z11{3, 2};
  const std::vector<c64> want = {std::conj(z00) * z00 + std::conj(z10) * z10, std::conj(z00) * z01 + std::conj(z10) * z11,
                                 std::conj(z01) * z00 + std::conj(z11) * z10, std::conj(z01) * z01 + std::conj(z11) * z11};
  CHECK(got == want);
}

TEST_CASE("operands cuBLAS cannot read in place, batch broadcasts, casts", "[blas][explain]") {
  const Array wide = loom::zeros({3, 8}, DType::Float32).eval();
  const Array b = loom::zeros({4, 5}, DType::Float32).eval();
  // Every other column: no unit stride, so the call copies it.
  CHECK_THAT(loom::explain_string({loom::matmul(wide.slice(1, 0, 8, 2), b)}), Contains("(B, copy of A)"));
  // One matrix for every batch entry: batch stride 0.
  const std::string bc = loom::explain_string({loom::matmul(loom::zeros({1, 2, 4}, DType::Float32).eval(),
                                                            loom::zeros({6, 4, 5}, DType::Float32).eval())});
  CHECK_THAT(bc, Contains("6 batches, A broadcast"));
  CHECK_THAT(bc, !Contains("its inputs first"));
  // Batch dims no single stride describes are broadcast by a view the call copies.
  CHECK_THAT(loom::explain_string({loom::matmul(loom::zeros({2, 1, 2, 4}, DType::Float32).eval(),
                                                loom::zeros({3, 4, 5}, DType::Float32).eval())}),
             Contains("(copy of B, copy of A) f32 compute 32F, 6 batches"));
  // Mixed dtypes: the cast is the operand's input kernel.
  const std::string mixed = loom::explain_string({loom::matmul(loom::zeros({2, 4}, DType::Float32).eval(),
                                                               loom::zeros({4, 5}, DType::Float64).eval())});
  CHECK_THAT(mixed, Contains("f64 compute 64F"));
  CHECK_THAT(mixed, Contains("its inputs first: 1 kernel(s)"));
  // 16-bit floats accumulate in float32.
  CHECK_THAT(loom::explain_string({loom::matmul(loom::zeros({2, 4}, DType::BFloat16).eval(),
                                                loom::zeros({4, 5}, DType::BFloat16).eval())}),
             Contains("bf16 compute 32F"));
  // TF32 is opt-in and named.
  loom::set_tf32(true);
  CHECK(loom::tf32_enabled());
  CHECK_THAT(loom::explain_string({loom::matmul(wide.T(), wide)}), Contains("f32 compute 32F_FAST_TF32"));
  loom::set_tf32(false);
  CHECK_FALSE(loom::tf32_enabled());
  // Integers never reach cuBLAS: a fused reduction.
  const std::string ints = loom::explain_string({loom::matmul(loom::zeros({2, 4}, DType::Int32).eval(),
                                                              loom::zeros({4, 5}, DType::Int32).eval())});
  CHECK_THAT(ints, !Contains("barrier"));
  CHECK_THAT(ints, Contains("loom plan: 1 kernel(s)"));
}

TEST_CASE("host values: 1-D, batches with broadcasting, 16-bit and complex", "[blas][values]") {
  if (!host_only()) return;
  const Array a = mat({1, 2, 3, 4}, {2, 2}, DType::Float64);
  const Array b = mat({5, 6, 7, 8}, {2, 2}, DType::Float64);
  CHECK_THAT(loom::matmul(a, b).to_host<double>(), Equals(std::vector<double>{19, 22, 43, 50}));
  const Array v = mat({1, -1}, {2}, DType::Float64);
  CHECK_THAT(loom::matmul(v, b).to_host<double>(), Equals(std::vector<double>{-2, -2}));
  CHECK_THAT(loom::matmul(a, v).to_host<double>(), Equals(std::vector<double>{-1, -1}));
  CHECK(loom::matmul(v, v).item<double>() == 2);
  // (2,1,2,2) @ (3,2,2) -> (2,3,2,2), checked against plain loops.
  const Array ba = loom::arange(8).astype(DType::Float64).reshape({2, 1, 2, 2});
  const Array bb = loom::arange(12).astype(DType::Float64).reshape({3, 2, 2}) - 5;
  const std::vector<double> got = loom::matmul(ba, bb).to_host<double>();
  REQUIRE(got.size() == 24);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int r = 0; r < 2; ++r) {
        for (int c = 0; c < 2; ++c) {
          double want = 0;
          for (int p = 0; p < 2; ++p) want += (i * 4 + r * 2 + p) * (j * 4 + p * 2 + c - 5.0);
          CHECK(got[static_cast<std::size_t>(((i * 3 + j) * 2 + r) * 2 + c)] == want);
        }
      }
    }
  }
  // float16 sums in float32: 2048 + 1 + 1 is 2050 (per-step float16 rounding would give 2048).
  const Array h = mat({2048, 1, 1}, {1, 3}, DType::Float16);
  const Array ones = mat({1, 1, 1}, {3, 1}, DType::Float16);
  CHECK(static_cast<float>(loom::matmul(h, ones).to_host<loom::half>()[0]) == 2050.0f);
  const Array hb = mat({1, 2, 3, 4}, {2, 2}, DType::BFloat16);
  const std::vector<loom::bfloat16_t> hbb = loom::matmul(hb, hb).to_host<loom::bfloat16_t>();
  CHECK(static_cast<float>(hbb[0]) == 7.0f);
  CHECK(static_cast<float>(hbb[3]) == 22.0f);
  // vdot conjugates its first operand: vdot([1+2i, 3], [2i, 1]) = 7+2i.
  const Array za = loom::asarray(std::vector<c64>{{1, 2}, {3, 0}});
  const Array zb = loom::asarray(std::vector<c64>{{0, 2}, {1, 0}});
  CHECK(loom::vdot(za, zb).item<c64>() == c64(7, 2));
  CHECK(loom::dot(za, zb).item<c64>() == c64(1, 2) * c64(0, 2) + c64(3, 0));
}

TEST_CASE("host values: integer and bool products, dot family", "[blas][values]") {
  if (!host_only()) return;
  const Array ia = loom::asarray(std::vector<std::int32_t>{1, 2, 3, 4}, {2, 2});
  const Array ib = loom::asarray(std::vector<std::int32_t>{5, 6, 7, 8}, {2, 2});
  const Array ip = loom::matmul(ia, ib);
  CHECK(ip.dtype() == DType::Int32);
  CHECK_THAT(ip.to_host<std::int32_t>(), Equals(std::vector<std::int32_t>{19, 22, 43, 50}));
  const Array ta = loom::asarray(std::vector<bool>{true, false, false, false}).reshape({2, 2});
  const Array tb = loom::asarray(std::vector<bool>{false, true, true, false}).reshape({2, 2});
  CHECK_THAT(loom::matmul(ta, tb).to_host<bool>(), Equals(std::vector<bool>{false, true, false, false}));
  const Array x = mat({1, 2, 3}, {3}, DType::Float64);
  const Array y = mat({4, 5, 6}, {3}, DType::Float64);
  CHECK(loom::inner(x, y).item<double>() == 32);
  CHECK(loom::dot(x, y).item<double>() == 32);
  CHECK_THAT(loom::outer(x, y).to_host<double>(), Equals(std::vector<double>{4, 5, 6, 8, 10, 12, 12, 15, 18}));
  // tensordot over a's first axis and b's last: a.T @ b.T.
  const Array a = mat({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64);   // [[1,2,3],[4,5,6]]
  const Array b = mat({1, 0, 0, 1, 1, 1}, {3, 2}, DType::Float64);   // [[1,0],[0,1],[1,1]]
  // sum_i a[i, j] * b[k, i]: j=0: [1*1+4*0, 1*0+4*1, 1*1+4*1] = [1, 4, 5] ...
  CHECK_THAT(loom::tensordot(a, b, {{0}, {1}}).to_host<double>(),
             Equals(std::vector<double>{1, 4, 5, 2, 5, 7, 3, 6, 9}));
  // dot of an N-D a with an N-D b: (2,3) . (2,3,2) -> (2,2,2)
  const Array b3 = loom::arange(12).astype(DType::Float64).reshape({2, 3, 2});
  const std::vector<double> d3 = loom::dot(a, b3).to_host<double>();
  REQUIRE(d3.size() == 8);
  // d3[i, j, k] = sum_p a[i, p] * b3[j, p, k]
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 2; ++k) {
        double want = 0;
        for (int p = 0; p < 3; ++p) want += (i * 3 + p + 1) * (j * 6 + p * 2 + k);
        CHECK(d3[static_cast<std::size_t>((i * 2 + j) * 2 + k)] == want);
      }
    }
  }
  CHECK(loom::vdot(a, a).item<double>() == 91);
}
