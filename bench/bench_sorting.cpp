// bench_sorting: CUB's device-wide algorithms behind loom's calls (PERF.md target: sort of 2^26
// float32 <= 1.9 ms on an H100): sort, argsort, cumsum and segmented sorts, with the copy
// bandwidth of the same run as the ceiling. GB/s counts one read of the input and one write of
// each output (what a perfect one-pass algorithm would move). Each row is a whole eval() of a
// new call, wall time with a synchronize, median of 20. JSON to argv[1], else $OUT/bench_sorting.json.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::DType;

Array random_f32(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1e3f, 1e3f);
  std::vector<float> h(static_cast<std::size_t>(n));
  for (float& v : h) v = u(rng);
  return loom::asarray(h).eval();
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_sorting: no GPU\n");
    return 0;
  }
  const std::int64_t n = std::int64_t{1} << 26;
  const Array x = random_f32(n, 1);
  const Array xi = x.astype(DType::Int32).eval();
  const double b4 = 4.0 * static_cast<double>(n);
  const double copy_ms = loom::bench::time_ms([&] { x.copy().eval(); });
  const double ceiling = 2 * b4 / copy_ms / 1e6;
  loom::bench::Report rep("bench_sorting", ceiling);
  const auto report = [&](const std::string& name, const std::function<Array()>& f, double bytes) {
    rep.bandwidth(name, loom::bench::time_ms([&] { f().eval(); }), bytes);
  };
  std::printf("%s; copy ceiling %.1f GB/s (2^26 float32 copy %.4f ms)\n", loom::device_info().name.c_str(), ceiling,
              copy_ms);

  report("sort float32 2^26", [&] { return loom::sort(x); }, 2 * b4);
  report("sort int32 2^26", [&] { return loom::sort(xi); }, 2 * b4);
  report("argsort float32 2^26 (int64 out)", [&] { return loom::argsort(x); }, b4 + 2 * b4);
  report("cumsum float32 2^26", [&] { return loom::cumsum(x); }, 2 * b4);
  report("cumsum int32 2^26 (int64 out)", [&] { return loom::cumsum(xi); }, b4 + 2 * b4);
  const Array rows = x.reshape({n / 1024, 1024});
  report("sort float32 65536 rows x 1024", [&] { return loom::sort(rows); }, 2 * b4);
  report("cumsum float32 65536 rows x 1024", [&] { return loom::cumsum(rows, 1); }, 2 * b4);
  report("argsort float32 65536 rows x 1024 (int64 out)", [&] { return loom::argsort(rows); }, b4 + 2 * b4);
  report("sort float32 2^20 rows x 64", [&] { return loom::sort(x.reshape({n / 64, 64})); }, 2 * b4);
  report("sort float32 16384 rows x 4096", [&] { return loom::sort(x.reshape({n / 4096, 4096})); }, 2 * b4);
  report("sort float32 8192 rows x 8192 (segmented)", [&] { return loom::sort(x.reshape({n / 8192, 8192})); },
         2 * b4);
  report("sort float32 2^26 axis 0 of (1024, 65536)", [&] { return loom::sort(x.reshape({1024, n / 1024}), 0); },
         2 * b4);

  rep.write(argc, argv);
  return 0;
}
