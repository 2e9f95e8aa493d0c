// bench_math: the math, logic and difference functions of issue 30 that are memory-bound, each
// one fused kernel, against the copy ceiling measured in the same run (issue 30: allclose of two
// 2^26 arrays >= 90% of copy); CuPy and PyTorch on the same cases: bench/peers_math.py.
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

// ms: wall time with a synchronize; gpu: back to back, event-timed. bytes: each input read once,
// each output written once.
void timed(const std::string& name, const std::function<void()>& f, double bytes) {
  loom::reset_cache_stats();
  f();
  loom::synchronize();
  const auto kernels = loom::cache_stats().launches;
  const double ms = loom::bench::time_ms(f), gpu = loom::bench::gpu_ms(f, 50);
  const double gbs = bytes / ms / 1e6, gpu_gbs = bytes / gpu / 1e6;
  std::printf("%-52s %9.4f ms %8.1f GB/s %6.1f%%  %llu kernel(s) | gpu %8.4f ms %6.1f%%\n", name.c_str(), ms, gbs,
              100 * gbs / ceiling, static_cast<unsigned long long>(kernels), gpu, 100 * gpu_gbs / ceiling);
  std::fflush(stdout);
  json.push_back(fmt::format("{{\"name\": \"{}\", \"ms\": {:.6f}, \"gbs\": {:.2f}, \"pct_ceiling\": {:.2f}, "
                             "\"kernels\": {}, \"gpu_ms\": {:.6f}, \"gpu_pct_ceiling\": {:.2f}}}",
                             name, ms, gbs, 100 * gbs / ceiling, kernels, gpu, 100 * gpu_gbs / ceiling));
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_math: no GPU\n");
    return 0;
  }
  ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n = std::int64_t{1} << 26, m = 8192;
  // Two pairs, used in turn (inputs bigger than L2 are never read from it twice in a row).
  const Array a[2] = {(loom::arange(n).astype(loom::float32) * 1e-7f).eval(),
                      (loom::arange(n).astype(loom::float32) * 2e-7f).eval()};
  const Array b[2] = {(a[0] + 1e-9f).eval(), (a[1] + 1e-9f).eval()};
  int k = 0;
  const double f4 = 4.0 * static_cast<double>(n);
  timed("allclose(a, b), 2^26 f32", [&] { (void)loom::allclose(a[k % 2], b[k % 2]); ++k; }, 2 * f4);
  timed("isclose(a, b), 2^26 f32", [&] { (void)loom::isclose(a[k % 2], b[k % 2]).eval(); ++k; }, 2 * f4 + f4 / 4);
  timed("array_equal(a, b), 2^26 f32", [&] { (void)loom::array_equal(a[k % 2], b[k % 2]); ++k; }, 2 * f4);
  timed("logaddexp(a, b), 2^26 f32", [&] { (void)loom::logaddexp(a[k % 2], b[k % 2]).eval(); ++k; }, 3 * f4);
  timed("nan_to_num(a / b), 2^26 f32", [&] { (void)loom::nan_to_num(a[k % 2] / b[k % 2]).eval(); ++k; }, 3 * f4);
  timed("sinc(a), 2^26 f32", [&] { (void)loom::sinc(a[k % 2]).eval(); ++k; }, 2 * f4);
  const double row = 4.0 * static_cast<double>(m) * (m - 1);
  timed("diff(x, axis=1), 8192^2 f32", [&] { (void)loom::diff(a[k % 2].reshape({m, m})).eval(); ++k; }, f4 + row);
  timed("diff(x, axis=0), 8192^2 f32", [&] { (void)loom::diff(a[k % 2].reshape({m, m}), 1, 0).eval(); ++k; }, f4 + row);
  const std::int64_t nv = n / 3;
  timed("cross(u, v), 2^26/3 3-vectors f32", [&] {
    (void)loom::cross(a[k % 2][loom::Slice(0, 3 * nv, std::nullopt)].reshape({nv, 3}),
                      b[k % 2][loom::Slice(0, 3 * nv, std::nullopt)].reshape({nv, 3})).eval();
    ++k;
  }, 3 * 12.0 * static_cast<double>(nv));
  timed("trapezoid(x, axis=1), 8192^2 f32", [&] { (void)loom::trapezoid(a[k % 2].reshape({m, m})).eval(); ++k; },
        f4 + 4.0 * m);
  // histogram of 2^26 f32 into 256 equal bins over a given range (no read-back of min/max), and
  // with the range read from the data (one min/max reduction and a synchronization first).
  const Array u[2] = {(loom::sin(loom::arange(n).astype(loom::float32) * 0.001f)).eval(),
                      (loom::cos(loom::arange(n).astype(loom::float32) * 0.001f)).eval()};
  loom::HistogramOptions ranged;
  ranged.range = std::pair{-1.0, 1.0};
  timed("histogram(x, 256, range=(-1, 1)), 2^26 f32", [&] { (void)loom::histogram(u[k % 2], 256, ranged).first.eval(); ++k; },
        f4 + 256 * 8.0);
  timed("histogram(x, 256), 2^26 f32 (range from the data)", [&] { (void)loom::histogram(u[k % 2], 256).first.eval(); ++k; },
        f4 + 256 * 8.0);
  const Array edges = loom::linspace(-1.0, 1.0, 101).astype(loom::float32).eval();
  timed("digitize(x, 101 edges), 2^26 f32", [&] { (void)loom::digitize(u[k % 2], edges).eval(); ++k; }, f4 + 2 * f4);
  if (argc > 1) {
    std::ofstream out(argv[1]);
    out << "{\"ceiling_gbs\": " << ceiling << ", \"rows\": [\n";
    for (std::size_t i = 0; i < json.size(); ++i) out << "  " << json[i] << (i + 1 < json.size() ? ",\n" : "\n");
    out << "]}\n";
  }
  return 0;
}
