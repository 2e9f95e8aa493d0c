// bench_reductions: fused reductions against the copy ceiling measured in the same run (PERF.md
// targets: full and row reductions >= 90%, columns >= 85%, softmax / logsumexp / mean+var as one
// kernel >= 90%), each also unfused; a sweep of row lengths and of column aspect ratios.
// Prints a table; writes JSON to argv[1] if given.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;


double ceiling = 0;
std::vector<std::string> json;

// ms: wall time with a synchronize (the figure); gpu: the same calls back to back, event-timed
// (what the kernels take without launch and synchronize latency).
void report(const std::string& name, double ms, double gpu, double bytes, int kernels) {
  const double gbs = bytes / ms / 1e6, gpu_gbs = bytes / gpu / 1e6;
  std::printf("%-52s %9.4f ms %8.1f GB/s %6.1f%%  %d kernel(s) | gpu %8.4f ms %6.1f%%\n", name.c_str(), ms, gbs,
              100 * gbs / ceiling, kernels, gpu, 100 * gpu_gbs / ceiling);
  std::fflush(stdout);
  json.push_back(fmt::format("{{\"name\": \"{}\", \"ms\": {:.6f}, \"gbs\": {:.2f}, \"pct_ceiling\": {:.2f}, \"kernels\": {}, "
                             "\"gpu_ms\": {:.6f}, \"gpu_pct_ceiling\": {:.2f}}}",
                             name, ms, gbs, 100 * gbs / ceiling, kernels, gpu, 100 * gpu_gbs / ceiling));
}

void timed(const std::string& name, const std::function<void()>& f, double bytes, int kernels) {
  report(name, loom::bench::time_ms(f), loom::bench::gpu_ms(f, 50), bytes, kernels);
}

// Times f fused and unfused; bytes: one read of the input, one write of the output.
void both(const std::string& name, const std::function<Array(int)>& f, double bytes) {
  for (bool on : {true, false}) {
    loom::set_fusion(on);
    loom::reset_cache_stats();
    f(0).eval();
    loom::synchronize();
    const int kernels = static_cast<int>(loom::cache_stats().launches);
    int k = 0;
    timed(name + (on ? " fused" : " unfused"), [&] { f(k++ % 2).eval(); }, bytes, kernels);
  }
  loom::set_fusion(true);
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_reductions: no GPU\n");
    return 0;
  }
  ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n26 = std::int64_t{1} << 26, m = 8192;
  const Array v[2] = {(loom::arange(n26).astype(loom::float32) * 1e-7f - 3.0f).eval(),
                      (loom::arange(n26).astype(loom::float32) * -1e-7f + 3.0f).eval()};
  const Array x[2] = {v[0].reshape({m, m}), v[1].reshape({m, m})};
  const double in = 4.0 * n26;
  both("L2 norm of 2^26 f32", [&](int k) { return loom::linalg::norm(v[k]); }, in);
  both("L2 norm over axis 1, 8192x8192", [&](int k) { return loom::linalg::norm(x[k], {}, 1); }, in + 4.0 * m);
  both("sum over axis 0, 8192x8192", [&](int k) { return loom::sum(x[k], 0); }, in + 4.0 * m);
  both("sum over axis 1, 8192x8192", [&](int k) { return loom::sum(x[k], 1); }, in + 4.0 * m);
  both("logsumexp over axis 1, 8192x8192", [&](int k) { return loom::logsumexp(x[k], 1); }, in + 4.0 * m);
  both("softmax over axis 1, 8192x8192", [&](int k) { return loom::softmax(x[k], 1); }, 2 * in);
  both("mean + var over axis 1, 8192x8192 (one eval)", [&](int k) {
    const Array mu = loom::mean(x[k], 1), var = loom::var(x[k], 1);
    loom::eval(mu, var);
    return var;
  }, in + 8.0 * m);
  std::printf("\nrow reductions (sum over the last axis, 2^26 f32 in all)\n");
  for (std::int64_t row : {8LL, 64LL, 512LL, 4096LL, 32768LL, 1LL << 20}) {
    const Array a[2] = {v[0].reshape({-1, row}), v[1].reshape({-1, row})};
    const double bytes = in + 4.0 * (n26 / row);
    timed(fmt::format("rows of {}", row), [&, k = 0]() mutable { loom::sum(a[k++ % 2], 1).eval(); }, bytes, 1);
  }
  std::printf("\ncolumn reductions (sum over axis 0, 2^26 f32 in all)\n");
  for (std::int64_t cols : {32LL, 256LL, 2048LL, 16384LL, 131072LL, 1LL << 21}) {
    const Array a[2] = {v[0].reshape({-1, cols}), v[1].reshape({-1, cols})};
    const double bytes = in + 4.0 * cols;
    timed(fmt::format("{} rows x {} columns", n26 / cols, cols), [&, k = 0]() mutable { loom::sum(a[k++ % 2], 0).eval(); },
          bytes, 1);
  }
  if (argc > 1) {
    std::ofstream out(argv[1]);
    out << "{\"copy_ceiling_gbs\": " << ceiling << ", \"rows\": [\n  " << fmt::format("{}", fmt::join(json, ",\n  ")) << "\n]}\n";
  }
  return 0;
}
