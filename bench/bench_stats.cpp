// bench_stats: the order statistics and moments of issue 30 (median over axis 1 of 8192^2 f32,
// percentile(x, {5, 50, 95}) of 2^26 f32, ahead of CuPy and torch.median / torch.quantile), each
// a sort plus one fused kernel, against the copy ceiling measured in the same run; CuPy and PyTorch
// on the same cases: bench/peers_stats.py. Bytes: the input read once, the result written once
// (a sort reads and writes its keys more than once: the percentage says how far from one pass).
// Prints a table; writes JSON to argv[1] if given.

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;

double ceiling = 0;
std::vector<std::string> json;

void timed(const std::string& name, const std::function<void()>& f, double bytes) {
  loom::reset_cache_stats();
  f();
  loom::synchronize();
  const auto kernels = loom::cache_stats().launches;
  const double ms = loom::bench::time_ms(f), gpu = loom::bench::gpu_ms(f, 20);
  const double gbs = bytes / ms / 1e6;
  std::printf("%-56s %9.4f ms %8.1f GB/s %6.1f%%  %llu launch(es) | gpu %8.4f ms\n", name.c_str(), ms, gbs,
              100 * gbs / ceiling, static_cast<unsigned long long>(kernels), gpu);
  std::fflush(stdout);
  json.push_back(fmt::format("{{\"name\": \"{}\", \"ms\": {:.6f}, \"gbs\": {:.2f}, \"pct_ceiling\": {:.2f}, "
                             "\"kernels\": {}, \"gpu_ms\": {:.6f}}}",
                             name, ms, gbs, 100 * gbs / ceiling, kernels, gpu));
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_stats: no GPU\n");
    return 0;
  }
  ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n = std::int64_t{1} << 26, m = 8192;
  loom::random::Generator g(5);
  const Array a[2] = {g.standard_normal({n}, loom::float32).eval(), g.standard_normal({n}, loom::float32).eval()};
  int k = 0;
  const double f4 = 4.0 * static_cast<double>(n);
  timed("median(x, axis=1), 8192^2 f32", [&] { (void)loom::median(a[k % 2].reshape({m, m}), 1).eval(); ++k; },
        f4 + 4.0 * m);
  timed("nanmedian(x, axis=1), 8192^2 f32", [&] { (void)loom::nanmedian(a[k % 2].reshape({m, m}), 1).eval(); ++k; },
        f4 + 4.0 * m);
  timed("quantile(x, {.05, .5, .95}, axis=1), 8192^2 f32",
        [&] { (void)loom::quantile(a[k % 2].reshape({m, m}), {0.05, 0.5, 0.95}, 1).eval(); ++k; }, f4 + 3 * 8.0 * m);
  timed("percentile(x, {5, 50, 95}), 2^26 f32", [&] { (void)loom::percentile(a[k % 2], {5.0, 50.0, 95.0}).eval(); ++k; },
        f4 + 24.0);
  timed("median(x), 2^26 f32", [&] { (void)loom::median(a[k % 2]).eval(); ++k; }, f4 + 4.0);
  timed("nanvar(x, axis=1), 8192^2 f32", [&] { (void)loom::nanvar(a[k % 2].reshape({m, m}), 1).eval(); ++k; },
        f4 + 4.0 * m);
  const std::int64_t rows = n / 16;
  timed("cov(x.T), 2^22 x 16 f32 observations (f64 result)",
        [&] { (void)loom::cov(a[k % 2].reshape({rows, 16}), {.rowvar = false}).eval(); ++k; }, f4 + 16 * 16 * 8.0);
  loom::HistogramOptions ranged;
  ranged.range = std::pair{-4.0, 4.0};
  timed("histogram(x, 256, range=(-4, 4)), 2^26 f32", [&] { (void)loom::histogram(a[k % 2], 256, ranged).first.eval(); ++k; },
        f4 + 256 * 8.0);
  if (argc > 1) {
    std::ofstream out(argv[1]);
    out << "{\"ceiling_gbs\": " << ceiling << ", \"rows\": [\n";
    for (std::size_t i = 0; i < json.size(); ++i) out << "  " << json[i] << (i + 1 < json.size() ? ",\n" : "\n");
    out << "]}\n";
  }
  return 0;
}
