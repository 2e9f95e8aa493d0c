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

std::vector<std::string> json;

void report(const std::string& name, double ms, double flops) {
  const double tflops = flops / ms / 1e9;
  std::printf("%-48s %9.3f ms %8.1f TFLOP/s\n", name.c_str(), ms, tflops);
  std::fflush(stdout);
  json.push_back(fmt::format("{{\"name\": \"{}\", \"ms\": {:.4f}, \"tflops\": {:.2f}}}", name, ms, tflops));
}

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

  const Array a = operand(n, DType::Float32, 0.0), b = operand(n, DType::Float32, 1.0);
  loom::set_tf32(false);
  report("matmul f32 (CUBLAS_COMPUTE_32F, no TF32)", time_ms([&] { loom::matmul(a, b).eval(); }, 10, 2), flops);
  report("matmul f32 with B transposed (op flag)", time_ms([&] { loom::matmul(a, b.T()).eval(); }, 10, 2), flops);
  loom::set_tf32(true);
  report("matmul f32, TF32 on (32F_FAST_TF32)", time_ms([&] { loom::matmul(a, b).eval(); }, 10, 2), flops);
  loom::set_tf32(false);
  {
    const Array ha = a.astype(DType::BFloat16).eval(), hb = b.astype(DType::BFloat16).eval();
    report("matmul bf16 (float32 accumulation)", time_ms([&] { loom::matmul(ha, hb).eval(); }, 10, 2), flops);
    const Array fa = a.astype(DType::Float16).eval(), fb = b.astype(DType::Float16).eval();
    report("matmul f16 (float32 accumulation)", time_ms([&] { loom::matmul(fa, fb).eval(); }, 10, 2), flops);
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
    report(fmt::format("relu(A @ B + bias) {} (GEMM + {} kernel(s))", fused ? "fused" : "unfused", kernels), ms, flops);
  }
  loom::set_fusion(true);

  std::string path = argc > 1 ? argv[1] : "";
  if (path.empty()) {
    if (const char* out = std::getenv("OUT")) path = std::string(out) + "/bench_blas.json";
  }
  if (!path.empty()) {
    std::ofstream out(path);
    out << "{\"n\": " << n << ", \"rows\": [\n  " << fmt::format("{}", fmt::join(json, ",\n  ")) << "\n]}\n";
  }
  return 0;
}
