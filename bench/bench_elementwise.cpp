// bench_elementwise: fused vs unfused elementwise pipelines against the copy ceiling measured in
// the same run, plus loom's host-side costs (cached eval, graph building, compile and caches).
// Prints a table; writes JSON to argv[1] if given. Run on the GPU machine:
//
//   bench_elementwise $OUT/elementwise.json
//
// Figures: wall time per call with a synchronize after each call, median of `reps` after
// warm-up (PERF.md's method); GB/s counts the fewest bytes a perfect fused kernel moves.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::bench::median;
using loom::bench::time_ms;
using Clock = std::chrono::steady_clock;
using loom::Array;
using loom::DType;


struct Row {
  std::string name;
  double ms;
  double bytes;
  std::string note;
};
std::vector<Row> rows;
double ceiling_gbs = 0;

void report(const std::string& name, double ms, double bytes, const std::string& note = "") {
  rows.push_back({name, ms, bytes, note});
  const double gbs = bytes > 0 ? bytes / ms / 1e6 : 0;
  std::printf("%-58s %10.4f ms %9.1f GB/s %6.1f%%  %s\n", name.c_str(), ms, gbs,
              bytes > 0 ? 100.0 * gbs / ceiling_gbs : 0.0, note.c_str());
  std::fflush(stdout);
}

double measure_copy_ceiling() {
  const std::size_t bytes = std::size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemset(a, 1, bytes);
  const double ms = time_ms([&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0); cudaDeviceSynchronize(); }, 20, 3);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / ms / 1e6;
}

Array softplus(const Array& x) {
  return loom::maximum(0.0f, x) + loom::log1p(loom::exp(-loom::abs(x)));
}

Array chain12(const Array& x) {
  Array y = x * 1.5f + 0.25f;                                        // 2
  y = loom::sin(y) * loom::cos(x) - loom::tanh(y);                   // 4
  y = loom::sqrt(loom::abs(y) + 1.0f) / (loom::exp(-y * y) + 2.0f);  // 5 (abs,add,sqrt,mul,neg..)
  return loom::maximum(y, 0.1f);                                     // 1
}

// Two input sets, used alternately, so repeated runs do not hit in L2.
template <class F> double fused_and_unfused(const std::string& name, F make, double bytes) {
  double fused = 0;
  for (bool on : {true, false}) {
    loom::set_fusion(on);
    int k = 0;
    const double ms = time_ms([&] { make(k++ % 2).eval(); });
    report(name + (on ? " fused" : " unfused"), ms, bytes);
    if (on) fused = ms;
  }
  loom::set_fusion(true);
  return fused;
}

}  // namespace

int main(int argc, char** argv) {
  // A fresh disk cache so the compile figures are cold.
  const std::string cache = "/tmp/loom-bench-cache-" + std::to_string(::getpid());
  setenv("LOOM_CACHE_DIR", cache.c_str(), 1);
  if (!loom::gpu_available()) {
    std::printf("bench_elementwise: no GPU\n");
    return 0;
  }
  const loom::DeviceInfo dev = loom::device_info();
  ceiling_gbs = measure_copy_ceiling();
  std::printf("device %s, copy ceiling %.1f GB/s (1 GiB device-to-device, read + write)\n\n",
              dev.name.c_str(), ceiling_gbs);
  report("copy ceiling (cudaMemcpy D2D 1 GiB)", 2.0 * (1u << 30) / ceiling_gbs / 1e6, 2.0 * (1u << 30));

  // Seed pipeline: arange(n).reshape(1000, -1).T * 2, int64, writes 8n bytes.
  for (std::int64_t n : {10'000LL, 1'000'000LL, 10'000'000LL, 100'000'000LL}) {
    fused_and_unfused(fmt::format("seed arange({:.0e}).reshape(1000,-1).T*2", static_cast<double>(n)),
                      [&](int) { return loom::arange(n).reshape({1000, -1}).T() * 2; }, 8.0 * n);
  }

  const std::int64_t n26 = std::int64_t{1} << 26;
  const Array xs[2] = {(loom::arange(n26).astype(DType::Float32) * 1e-7f - 3.0f).eval(),
                       (loom::arange(n26).astype(DType::Float32) * -1e-7f + 3.0f).eval()};
  fused_and_unfused("softplus 2^26 f32", [&](int k) { return softplus(xs[k]); }, 8.0 * n26);
  fused_and_unfused("12-op chain 2^26 f32", [&](int k) { return chain12(xs[k]); }, 8.0 * n26);
  const Array hs[2] = {xs[0].astype(DType::Float16).eval(), xs[1].astype(DType::Float16).eval()};
  fused_and_unfused("softplus 2^26 f16", [&](int k) { return softplus(hs[k]); }, 4.0 * n26);
  fused_and_unfused("x * 2 + 1, 2^26 f32", [&](int k) { return xs[k] * 2.0f + 1.0f; }, 8.0 * n26);

  const std::int64_t m = 8192;
  const Array as[2] = {xs[0].reshape({m, m}), xs[1].reshape({m, m})};
  const Array row = (loom::arange(m).astype(DType::Float32)).eval();
  fused_and_unfused("add broadcast row 8192x8192 + 8192 f32", [&](int k) { return as[k] + row; }, 8.0 * m * m);
  fused_and_unfused("add transposed 8192x8192 a + b.T f32",
                    [&](int k) { return as[k] + as[1 - k].T(); }, 12.0 * m * m);

  // Host costs.
  const Array small = loom::arange(1024).astype(DType::Float32).eval();
  const auto three = [&] { return (small * 2.0f + 1.0f) * small; };
  three().eval();
  const double wall_us = 1e3 * time_ms([&] { three().eval(); }, 200, 20);
  report("3-op expr on 1024 f32: cached eval wall incl. sync", wall_us / 1e3, 0, fmt::format("{:.2f} us", wall_us));
  {
    const int reps = 2000;
    loom::synchronize();
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) three().eval();
    const double host_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
    loom::synchronize();
    report("3-op expr on 1024 f32: host time per eval (no sync)", host_us / 1e3, 0, fmt::format("{:.2f} us", host_us));
  }
  {
    const int reps = 200000;
    Array a = small;
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) a = a + 1.0f;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
    // Each a = a + 1.0f adds two nodes that stay (the float32 constant and the add).
    report("graph building: a = a + 1.0f in a loop, per node", us / 2e3, 0,
           fmt::format("{:.3f} us/node ({:.3f} us per a = a + 1)", us / 2, us));
  }
  loom::reset_cache_stats();
  // Compile and caches: a new structure each time (k multiply-adds then exp, k = 1..9: a
  // typical small elementwise kernel).
  {
    std::vector<double> cold, disk, mem;
    for (int k = 1; k <= 9; ++k) {
      const auto make = [&] {
        Array y = small;
        for (int i = 0; i < k; ++i) y = y * 1.01f + static_cast<float>(i);
        return loom::exp(y);
      };
      auto t0 = Clock::now();
      make().eval();
      loom::synchronize();
      cold.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      loom::clear_memory_cache();
      t0 = Clock::now();
      make().eval();
      loom::synchronize();
      disk.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      t0 = Clock::now();
      make().eval();
      loom::synchronize();
      mem.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    report("cold compile + run (new elementwise kernel), median", median(cold), 0);
    const loom::CacheStats cs = loom::cache_stats();
    const double misses = static_cast<double>(cs.compiles + cs.disk_hits);
    std::printf("  per miss: source+key %.3f ms, disk read %.3f ms, NVRTC %.2f ms (per compile), module load %.3f ms\n",
                cs.source_ms / misses, cs.disk_load_ms / misses,
                cs.compile_ms / std::max<double>(1, static_cast<double>(cs.compiles)), cs.module_load_ms / misses);
    report("disk-cache hit + run (memory cache cleared), median", median(disk), 0);
    report("memory-cache hit + run, median", median(mem), 0);
  }

  std::system(("rm -rf " + cache).c_str());

  if (argc > 1) {
    std::ofstream out(argv[1]);
    out << "{\n  \"device\": \"" << dev.name << "\",\n  \"copy_ceiling_gbs\": " << ceiling_gbs
        << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      out << fmt::format("    {{\"name\": \"{}\", \"ms\": {:.6f}, \"gbs\": {:.2f}, \"pct_ceiling\": {:.2f}}}{}\n",
                         r.name, r.ms, r.bytes > 0 ? r.bytes / r.ms / 1e6 : 0,
                         r.bytes > 0 ? 100.0 * (r.bytes / r.ms / 1e6) / ceiling_gbs : 0,
                         i + 1 < rows.size() ? "," : "");
    }
    out << "  ]\n}\n";
  }
  return 0;
}
