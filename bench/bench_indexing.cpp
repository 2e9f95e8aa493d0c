// bench_indexing: the indexing figures on one GPU, with the copy ceiling of the same run:
// a gather x[idx] (2^26 float32, 2^26 random int64 indices), a region write (4096^2 into 8192^2
// float32), masked writes on 2^26 float32, and a heat step (5-point stencil + 4 boundary writes)
// on 4096^2, and the accumulating scatters (add_at, bincount) of 2^26 values into 1024 and 2^20
// positions, deterministic (the default) and with atomics. bench/peers_indexing.py times CuPy and PyTorch on the same cases. Bytes are the
// least each case must move. Writes JSON to argv[1] (else $OUT/bench_indexing.json).

#include <cstdio>
#include <functional>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

using loom::Array;
using loom::DType;

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_indexing: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  loom::bench::Report rep("bench_indexing", ceiling);
  const std::int64_t n = std::int64_t{1} << 26;
  const Array x = loom::random::uniform(-1.0, 1.0, {n}, DType::Float32).eval();
  const Array idx = loom::random::integers(0, n, {n}).eval();
  loom::reset_cache_stats();
  const auto kernels = [](const std::function<void()>& f) {
    loom::reset_cache_stats();
    f();
    loom::synchronize();
    return loom::cache_stats().launches;
  };
  // Gather: reads the indices (8 B) and a float each, writes a float.
  const double gather_bytes = 16.0 * n;
  rep.bandwidth("gather x[idx] (bounds checked by the gather kernel)", loom::bench::time_ms([&] { x[idx].eval(); }),
                gather_bytes);
  rep.bandwidth("gather take(x, idx, clip) (no check)",
                loom::bench::time_ms([&] { loom::take(x, idx, std::nullopt, loom::TakeMode::Clip).eval(); }), gather_bytes);
  // Region write: 4096^2 of an 8192^2 array; the least is the region's read + write.
  const std::int64_t m = 8192, r = 4096;
  const Array big = loom::zeros({m, m}, DType::Float32).eval();
  const Array region = loom::random::uniform(0.0, 1.0, {r, r}, DType::Float32).eval();
  // In place: `own` is held by nothing else, so the write goes into its buffer (a 2-d copy of
  // the region). Lazy: another handle holds `big`, so the write makes a new array (one kernel
  // over the whole of it).
  Array own = big.copy().eval();
  const auto region_in_place = [&] {
    own[{loom::Slice(1024, 1024 + r), loom::Slice(2048, 2048 + r)}] = region;
    own.eval();
  };
  const auto region_write = [&] {
    Array y = big;
    y[{loom::Slice(1024, 1024 + r), loom::Slice(2048, 2048 + r)}] = region;
    y.eval();
  };
  std::printf("region write in place: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(region_in_place)));
  rep.bandwidth("region write 4096^2 into 8192^2 f32, in place (region bytes)", loom::bench::time_ms(region_in_place),
                8.0 * r * r);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(region_in_place), 8.0 * r * r);
  // The same on the GPU alone (events around back-to-back calls): without the launch and
  // synchronize latency (PERF.md: 8.6 us), which time_ms counts and a 45-us copy cannot hide.
  rep.bandwidth("  the same, GPU time (gpu_ms: no launch + sync latency)", loom::bench::gpu_ms(region_in_place),
                8.0 * r * r);
  rep.time("  the same, host time per call (no sync)", loom::bench::host_ms(region_in_place));
  // The floor of any implementation timed the same way: the region's rows copied by the CUDA
  // runtime alone (cudaMemcpy2DAsync between the same buffers, on loom's stream), synchronized.
  {
    auto* dst = static_cast<float*>(own.data_ptr()) + 1024 * m + 2048;
    const auto* src = static_cast<const float*>(region.data_ptr());
    auto stream = static_cast<cudaStream_t>(loom::Stream::current().handle());
    const auto raw = [&] {
      cudaMemcpy2DAsync(dst, m * sizeof(float), src, r * sizeof(float), r * sizeof(float), r,
                        cudaMemcpyDeviceToDevice, stream);
    };
    rep.bandwidth("  reference: cudaMemcpy2DAsync of the region + synchronize", loom::bench::time_ms(raw), 8.0 * r * r);
  }
  std::printf("region write: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(region_write)));
  rep.bandwidth("region write 4096^2 into 8192^2 f32, shared buffer: a new array (region bytes)",
                loom::bench::time_ms(region_write), 8.0 * r * r);
  // Masked writes: read x, write the result.
  const auto masked_at = [&] { x.at({x < 0}).set(0).eval(); };
  const auto masked_where = [&] { loom::where(x < 0, 0.0f, x).eval(); };
  std::printf("masked write: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(masked_at)));
  rep.bandwidth("masked write x.at(x < 0).set(0), 2^26 f32", loom::bench::time_ms(masked_at), 8.0 * n);
  const auto masked_named = [&] {
    Array y = x;
    y[y < 0] = 0;
    y.eval();
  };
  rep.bandwidth("masked write y[y < 0] = 0 on a named array", loom::bench::time_ms(masked_named), 8.0 * n);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(masked_named), 8.0 * n);
  rep.bandwidth("the same as where(x < 0, 0, x)", loom::bench::time_ms(masked_where), 8.0 * n);
  // Heat step: interior update from the four neighbours, then the four boundaries set to 0.
  const std::int64_t h = 4096;
  const Array u = loom::random::uniform(0.0, 1.0, {h, h}, DType::Float32).eval();
  const loom::Slice in(1, -1), lo(0, -2), hi(2, loom::none);
  const auto heat = [&] {
    Array v = u;
    v[{in, in}] = u[{in, in}] + 0.1f * (u[{lo, in}] + u[{hi, in}] + u[{in, lo}] + u[{in, hi}] - 4.0f * u[{in, in}]);
    v[{0}] = 0;
    v[{-1}] = 0;
    v[{loom::all, 0}] = 0;
    v[{loom::all, -1}] = 0;
    v.eval();
  };
  std::printf("heat step: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(heat)));
  rep.bandwidth("heat step 4096^2 f32 (5-point stencil + 4 boundary writes)", loom::bench::time_ms(heat), 8.0 * h * h);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(heat), 8.0 * h * h);
  rep.bandwidth("  the same, GPU time (gpu_ms: no launch + sync latency)", loom::bench::gpu_ms(heat), 8.0 * h * h);
  rep.time("  the same, host time per call (build, plan, launch; no sync)", loom::bench::host_ms(heat));
  // The stencil alone as a new (4094^2) array: what the fused write chain compares with.
  rep.bandwidth("5-point stencil alone, 4094^2 output (no writes)", loom::bench::time_ms([&] {
                  (u[{in, in}] + 0.1f * (u[{lo, in}] + u[{hi, in}] + u[{in, lo}] + u[{in, hi}] - 4.0f * u[{in, in}])).eval();
                }), 8.0 * (h - 2) * (h - 2));
  // Accumulating scatters: 2^26 float32 values at random positions (int64); the least is a read
  // of each position and value (12 B; counts: 8 B).
  const Array w = loom::random::uniform(-1.0, 1.0, {n}, DType::Float32).eval();
  for (std::int64_t bins : {std::int64_t{1024}, std::int64_t{1} << 20}) {
    const Array pos = loom::random::integers(0, bins, {n}).eval();
    const Array zero = loom::zeros({bins}, DType::Float32).eval();
    const std::string at = fmt::format(" of 2^26 into {} bins", bins);
    for (auto how : {loom::Accumulate::Deterministic, loom::Accumulate::Atomic}) {
      const char* tag = how == loom::Accumulate::Atomic ? "atomic" : "deterministic";
      rep.bandwidth(fmt::format("add_at f32{} ({})", at, tag), loom::bench::time_ms([&] {
                      Array y = zero;
                      loom::add_at(y, pos, w, how);
                      y.eval();
                    }), 12.0 * n);
      rep.bandwidth(fmt::format("bincount with f32 weights{} ({})", at, tag), loom::bench::time_ms([&] {
                      loom::bincount(pos, w, 0, how).eval();
                    }), 12.0 * n);
    }
    rep.bandwidth(fmt::format("bincount counts{} (exact atomics)", at),
                  loom::bench::time_ms([&] { loom::bincount(pos).eval(); }), 8.0 * n);
  }
  rep.write(argc, argv);
  return 0;
}
