// Matrix products on the GPU (cuBLAS GEMM calls) against the host reference evaluator, outputs
// poisoned. Tolerances: a dot product of length k computed in precision u is within
// gamma_k * sum|a_p b_p| ~ k u sum|a_p b_p| of the exact value (Higham, 3.1); inputs lie in (-1, 1),
// so sum|a_p b_p| < k, and the two computations (cuBLAS's order, with FMA, and the reference's
// sequential loop) differ by at most 2 k^2 u. 16-bit floats accumulate in float32 on both
// sides, then round once; a float16 spacing is at most 2^-10 of the value (bfloat16: 2^-7), and
// two nearby float32 sums round at most one spacing apart: rtol is two spacings. Complex products carry a few more
// roundings per term (4 k^2 u). Integers are exact.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "exec/calls.hpp"
#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

struct Tol {
  double rtol, atol;
};

Tol tolerance(DType t, std::int64_t k) {
  const double kk = static_cast<double>(std::max<std::int64_t>(k, 1));
  switch (t) {
    case DType::Float16: return {2 * 9.8e-4, 2 * kk * kk * 6e-8 + 1e-6};
    case DType::BFloat16: return {2 * 7.8e-3, 2 * kk * kk * 6e-8 + 1e-6};
    case DType::Float32: return {0, 2 * kk * kk * 6e-8};
    case DType::Complex64: return {0, 4 * kk * kk * 6e-8};
    case DType::Float64: return {0, 2 * kk * kk * 1.2e-16};
    case DType::Complex128: return {0, 4 * kk * kk * 1.2e-16};
    default: return {0, 0};
  }
}

const std::vector<DType>& dtypes() {
  static const std::vector<DType> v = {DType::Float16,   DType::BFloat16,   DType::Float32, DType::Float64,
                                       DType::Complex64, DType::Complex128, DType::Int32};
  return v;
}

Array random(DType t, const Shape& s, std::mt19937_64& rng) {
  return loom::test::random_array(t, s, rng, loom::is_inexact(t) ? loom::test::Range::Unit : loom::test::Range::Small)
      .eval();
}

// (a shape, b shape): non-square, 1-D, batched, broadcast batches, an empty sum.
const std::vector<std::pair<Shape, Shape>>& shape_cases() {
  static const std::vector<std::pair<Shape, Shape>> v = {
      {{7, 13}, {13, 5}},       {{1, 33}, {33, 1}},     {{64, 37}, {37, 70}},      {{13}, {13, 9}},
      {{9, 13}, {13}},          {{31}, {31}},           {{4, 6, 11}, {4, 11, 3}},  {{1, 6, 11}, {5, 11, 3}},
      {{2, 1, 5, 7}, {3, 7, 2}}, {{6, 11}, {3, 11, 4}}, {{3, 5, 0}, {3, 0, 4}},    {{5}, {2, 5, 3}},
  };
  return v;
}

}  // namespace

TEST_CASE("matmul matches the reference on every dtype, shape and batch broadcast", "[gpu][blas]") {
  loom::set_tf32(false);
  std::mt19937_64 rng(41);
  for (DType t : dtypes()) {
    for (const auto& [sa, sb] : shape_cases()) {
      const Array a = random(t, sa, rng), b = random(t, sb, rng);
      const std::int64_t k = sa.back();
      const Tol tol = tolerance(t, k);
      INFO(loom::name(t) << " " << loom::to_string(sa) << " @ " << loom::to_string(sb));
      CHECK(loom::test::check_gpu(loom::matmul(a, b), tol.rtol, tol.atol) == "");
    }
  }
}

TEST_CASE("transposed, conjugated, strided and lazy operands", "[gpu][blas][layouts]") {
  std::mt19937_64 rng(42);
  for (DType t : dtypes()) {
    INFO(loom::name(t));
    const Tol tol = tolerance(t, 23);
    const Array a = random(t, {23, 17}, rng);  // a.T(): 17 x 23
    const Array b = random(t, {19, 23}, rng);  // b.T(): 23 x 19
    const Array c = random(t, {23, 19}, rng);
    CHECK(loom::test::check_gpu(loom::matmul(a.T(), c), tol.rtol, tol.atol) == "");
    CHECK(loom::test::check_gpu(loom::matmul(a.T(), b.T()), tol.rtol, tol.atol) == "");
    CHECK(loom::test::check_gpu(loom::matmul(b, a), tol.rtol, tol.atol) == "");
    // A lazy operand's transpose (computed by its own kernel, read as A^T).
    CHECK(loom::test::check_gpu(loom::matmul((a + a).T(), c), tol.rtol, tol.atol) == "");
    // Every other row and column: no unit stride, copied by the call.
    const Array wide = random(t, {46, 38}, rng);
    const Array strided = wide[{loom::Slice(loom::none, loom::none, 2), loom::Slice(1, loom::none, 2)}];
    CHECK(loom::test::check_gpu(loom::matmul(strided.T(), c), tol.rtol, tol.atol) == "");
    // A batch with its last two axes swapped.
    const Array batch = random(t, {3, 23, 17}, rng);
    CHECK(loom::test::check_gpu(loom::matmul(batch.swapaxes(-1, -2), c), tol.rtol, tol.atol) == "");
    if (loom::is_complex(t)) {
      CHECK(loom::test::check_gpu(loom::matmul(loom::conj(a.T()), c), tol.rtol, tol.atol) == "");
      CHECK(loom::test::check_gpu(loom::matmul(b, loom::conj(b.T())), tol.rtol, tol.atol) == "");
      CHECK(loom::test::check_gpu(loom::matmul(loom::conj(b), c), tol.rtol, tol.atol) == "");
    }
    const Tol vt = tolerance(t, 23 * 17);
    CHECK(loom::test::check_gpu(loom::vdot(a, a), vt.rtol, vt.atol) == "");
  }
}

TEST_CASE("dot, inner and tensordot on the GPU", "[gpu][blas]") {
  std::mt19937_64 rng(43);
  const DType t = DType::Float64;
  const Tol tol = tolerance(t, 64);
  const Array a = random(t, {4, 5, 6}, rng), b = random(t, {6, 5, 3}, rng);
  CHECK(loom::test::check_gpu(loom::dot(a, b.swapaxes(0, 1)), tol.rtol, tol.atol) == "");
  CHECK(loom::test::check_gpu(loom::tensordot(a, b, {{1, 2}, {1, 0}}), tol.rtol, tol.atol) == "");
  CHECK(loom::test::check_gpu(loom::inner(a, random(t, {7, 6}, rng)), tol.rtol, tol.atol) == "");
  CHECK(loom::test::check_gpu(loom::outer(a, b), 0, 0) == "");
}

TEST_CASE("relu(A @ B + bias): the GEMM and one fused kernel, right values", "[gpu][blas][fusion]") {
  std::mt19937_64 rng(44);
  const Array a = random(DType::Float32, {96, 80}, rng), b = random(DType::Float32, {80, 72}, rng);
  const Array bias = random(DType::Float32, {72}, rng);
  const Array y = loom::maximum(loom::matmul(a, b) + bias, 0.0f);
  const auto want = loom::test::reference_of(y);
  loom::exec::set_poison_outputs(true);
  loom::reset_cache_stats();
  const std::uint64_t calls = loom::exec::calls_run();
  const auto got = loom::test::device_of(y);
  CHECK(loom::exec::calls_run() == calls + 1);
  CHECK(loom::cache_stats().launches == 1);  // the epilogue; the operands were read in place
  const Tol tol = tolerance(DType::Float32, 80);
  CHECK(loom::test::compare(got, want, tol.rtol, tol.atol) == "");
}

TEST_CASE("TF32 on: float32 products within TF32's precision", "[gpu][blas][tf32]") {
  std::mt19937_64 rng(45);
  const std::int64_t k = 256;
  const Array a = random(DType::Float32, {128, k}, rng), b = random(DType::Float32, {k, 96}, rng);
  loom::set_tf32(true);
  const Array y = loom::matmul(a, b);
  loom::set_tf32(false);
  // Inputs rounded to 10 mantissa bits (u = 2^-11): each product off by 2u relative, so the sum
  // by at most 2u * sum|a_p b_p| < 2 u k.
  CHECK(loom::test::check_gpu(y, 0, 2 * 4.9e-4 * static_cast<double>(k)) == "");
}

TEST_CASE("a large GEMM and a large batch", "[gpu][blas][large]") {
  std::mt19937_64 rng(46);
  const Array a = random(DType::Float32, {1000, 700}, rng), b = random(DType::Float32, {700, 900}, rng);
  const Tol tol = tolerance(DType::Float32, 700);
  CHECK(loom::test::check_gpu(loom::matmul(a, b), tol.rtol, tol.atol) == "");
  const Array x = random(DType::BFloat16, {512, 8, 16}, rng), w = random(DType::BFloat16, {16, 8}, rng);
  const Tol bt = tolerance(DType::BFloat16, 16);
  CHECK(loom::test::check_gpu(loom::matmul(x, w), bt.rtol, bt.atol) == "");
}
