// bench_blas: cuBLAS GEMM through loom::matmul at 8192^3 — float32 (exact, no TF32), float32
// with TF32, bfloat16 (float32 accumulation) — in ms and TFLOP/s; and relu(A @ B + bias) with
// fusion on (the GEMM, then one epilogue kernel) and off (one kernel per op). Each call is
// timed with a synchronize after it (bench_util.hpp). Writes JSON to argv[1], or to
// $OUT/bench_blas.json when OUT is set.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::bench::time_ms;

// Values in about [-1, 1): no overflow in bfloat16, no denormals.
Array operand(std::int64_t n, DType t, double phase) {
  return loom::sin(loom::arange(n * n).astype(DType::Float32) * 0.001f + static_cast<float>(phase))
      .reshape({n, n})
      .astype(t)
      .eval();
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_blas: no GPU\n");
    return 0;
  }
  const std::int64_t n = 8192;
  const double flops = 2.0 * n * n * n;
  std::printf("device %s, GEMM %lldx%lldx%lld\n\n", loom::device_info().name.c_str(), static_cast<long long>(n),
              static_cast<long long>(n), static_cast<long long>(n));
  loom::bench::Report rep("bench_blas", 0);

  const Array a = operand(n, DType::Float32, 0.0), b = operand(n, DType::Float32, 1.0);
  loom::set_tf32(false);
  rep.flops("matmul f32 (CUBLAS_COMPUTE_32F, no TF32)", time_ms([&] { loom::matmul(a, b).eval(); }, 10, 2), flops, true);
  rep.flops("matmul f32 with B transposed (op flag)", time_ms([&] { loom::matmul(a, b.T()).eval(); }, 10, 2), flops, true);
  loom::set_tf32(true);
  rep.flops("matmul f32, TF32 on (32F_FAST_TF32)", time_ms([&] { loom::matmul(a, b).eval(); }, 10, 2), flops, true);
  loom::set_tf32(false);
  {
    const Array ha = a.astype(DType::BFloat16).eval(), hb = b.astype(DType::BFloat16).eval();
    rep.flops("matmul bf16 (float32 accumulation)", time_ms([&] { loom::matmul(ha, hb).eval(); }, 10, 2), flops, true);
    const Array fa = a.astype(DType::Float16).eval(), fb = b.astype(DType::Float16).eval();
    rep.flops("matmul f16 (float32 accumulation)", time_ms([&] { loom::matmul(fa, fb).eval(); }, 10, 2), flops, true);
  }

  std::printf("\nrelu(A @ B + bias), f32 %lld^3\n", static_cast<long long>(n));
  const Array bias = (loom::arange(n).astype(DType::Float32) * 1e-4f - 0.4f).eval();
  for (bool fused : {true, false}) {
    loom::set_fusion(fused);
    loom::reset_cache_stats();
    loom::maximum(loom::matmul(a, b) + bias, 0.0f).eval();
    loom::synchronize();
    const int kernels = static_cast<int>(loom::cache_stats().launches);
    const double ms = time_ms([&] { loom::maximum(loom::matmul(a, b) + bias, 0.0f).eval(); }, 10, 2);
    rep.flops(fmt::format("relu(A @ B + bias) {} (GEMM + {} kernel(s))", fused ? "fused" : "unfused", kernels), ms, flops, true);
  }
  loom::set_fusion(true);

  rep.write(argc, argv);
  return 0;
}
