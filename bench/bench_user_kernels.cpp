// bench_user_kernels: the issue's user-kernel figures on one GPU, with the copy ceiling of the
// same run: CuPy's seed examples written as loom user kernels. squared_diff (an ElementwiseKernel)
// on 2^26 float32; the l2norm ReductionKernel over axis 1 of 8192^2 float32;
// sum(squared_diff(x, y) * w, 1) on 8192^2 (one kernel in loom: the user's code in the
// reduction's prologue); bincount of 2^26 int32 values into 1024 bins through a RawKernel with
// atomicAdd. bench/peers_user_kernels.py times CuPy on the same cases. Bytes are the least each
// case must move. Writes JSON to argv[1] (else $OUT/bench_user_kernels.json).

#include <cstdio>
#include <functional>

#include <loom/loom.hpp>

#include "bench_util.hpp"

using loom::Array;
using loom::DType;

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_user_kernels: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  loom::bench::Report rep("bench_user_kernels", ceiling);
  const auto kernels = [](const std::function<void()>& f) {
    loom::reset_cache_stats();
    f();
    loom::synchronize();
    return static_cast<unsigned long long>(loom::cache_stats().launches);
  };
  const loom::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  const std::int64_t n = std::int64_t{1} << 26;
  const Array x = loom::random::uniform(-1.0, 1.0, {n}, DType::Float32).eval();
  const Array y = loom::random::uniform(-1.0, 1.0, {n}, DType::Float32).eval();
  const auto sd = [&] { Array(squared_diff(x, y)).eval(); };
  std::printf("squared_diff: %llu kernel(s)\n", kernels(sd));
  rep.bandwidth("squared_diff (ElementwiseKernel), 2^26 f32", loom::bench::time_ms(sd), 12.0 * n);
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(sd), 12.0 * n);
  // The same body run as a launch of its own (NVRTC options keep it out of fusion).
  const loom::ElementwiseKernel sd_own("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_own",
                                       {.options = {"-DLOOM_BENCH"}});
  const auto own = [&] { Array(sd_own(x, y)).eval(); };
  rep.bandwidth("  as its own launch (the generated barrier kernel)", loom::bench::time_ms(own), 12.0 * n);

  const loom::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const std::int64_t h = 8192;
  const Array m = loom::random::uniform(-1.0, 1.0, {h, h}, DType::Float32).eval();
  const Array w = loom::random::uniform(-1.0, 1.0, {h, h}, DType::Float32).eval();
  const Array m2 = loom::random::uniform(-1.0, 1.0, {h, h}, DType::Float32).eval();
  const auto l2 = [&] { Array(l2norm({m}, 1)).eval(); };
  std::printf("l2norm: %llu kernel(s)\n", kernels(l2));
  rep.bandwidth("l2norm ReductionKernel, axis 1 of 8192^2 f32", loom::bench::time_ms(l2), 4.0 * h * h);
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(l2), 4.0 * h * h);
  rep.time("  host time per call, launches not awaited (host_ms)", loom::bench::host_ms(l2));
  const auto l2_builtin = [&] { loom::sqrt(loom::sum(m * m, 1)).eval(); };
  rep.bandwidth("  the same in built-in ops: sqrt(sum(x * x, 1))", loom::bench::time_ms(l2_builtin), 4.0 * h * h);
  const auto fused = [&] { loom::sum(Array(squared_diff(m, m2)) * w, 1).eval(); };
  std::printf("sum(squared_diff(x, y) * w, 1): %llu kernel(s)\n", kernels(fused));
  rep.bandwidth("sum(squared_diff(x, y) * w, 1), 8192^2 f32", loom::bench::time_ms(fused), 12.0 * h * h);
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(fused), 12.0 * h * h);
  const auto builtin = [&] {
    const Array d = m - m2;
    loom::sum(d * d * w, 1).eval();
  };
  rep.bandwidth("  the same in built-in ops: sum((x - y) * (x - y) * w, 1)", loom::bench::time_ms(builtin), 12.0 * h * h);

  const loom::RawKernel count(R"(extern "C" __global__ void count(const int* x, long long n, int* bins) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    atomicAdd(&bins[x[i]], 1);
})",
                              "count");
  const Array v = loom::random::integers(0, 1024, {n}, DType::Int32).eval();
  const Array zeros = loom::zeros({1024}, DType::Int32).eval();
  const int blocks = 132 * 8;
  const auto bc = [&] { count({static_cast<unsigned>(blocks)}, {256}, {v, n, loom::InOut{zeros}})[0].eval(); };
  rep.bandwidth("bincount of 2^26 int32 into 1024 bins (RawKernel, atomicAdd)", loom::bench::time_ms(bc), 4.0 * n);
  const auto lb = [&] { loom::bincount(v, std::nullopt, 1024).eval(); };
  rep.bandwidth("  loom::bincount, the same", loom::bench::time_ms(lb), 4.0 * n);
  rep.write(argc, argv);
  return 0;
}
