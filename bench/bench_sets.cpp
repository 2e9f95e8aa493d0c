// bench_sets: isin of 2^26 elements (int32, float32) against 2^16 test values, against the copy
// ceiling measured in the same run (a 1 GiB cudaMemcpy). isin is a sort of the tests, a binary
// search per element (int64 positions) and one fused gather-and-compare kernel; GB/s counts what
// a perfect one-pass isin moves: each element read once, one bool written (the tests' 256 KiB
// aside). Also the eager functions on 2^24 elements (ms only). CuPy and PyTorch on the same
// cases: bench/peers_sets.py. Each row is a whole eval() with a synchronize, median of 20 (ms),
// and the GPU time alone (events around calls issued back to back). JSON to argv[1], else
// $OUT/bench_sets.json.

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::DType;

// n values in [0, range) of dtype t, from a fixed seed.
Array random_values(std::int64_t n, std::int64_t range, DType t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> u(0, static_cast<std::int32_t>(range - 1));
  std::vector<std::int32_t> h(static_cast<std::size_t>(n));
  for (std::int32_t& v : h) v = u(rng);
  return loom::asarray(h).astype(t).eval();
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_sets: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  loom::bench::Report rep("bench_sets", ceiling);
  std::printf("%s; copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n = std::int64_t{1} << 26, m = std::int64_t{1} << 16;
  for (DType t : {DType::Int32, DType::Float32}) {
    // Elements in [0, 2^20), tests in [0, 2^20): about 6% of the elements are found. Two inputs
    // used in turn, so neither is read from L2 twice in a row.
    const Array x[2] = {random_values(n, 1 << 20, t, 1), random_values(n, 1 << 20, t, 2)};
    const Array tests = random_values(m, 1 << 20, t, 3);
    int k = 0;
    const auto isin = [&] { (void)loom::isin(x[k++ % 2], tests).eval(); };
    const double bytes = 5.0 * static_cast<double>(n);
    const std::string what = fmt::format("isin(x, tests), 2^26 {} x 2^16", loom::name(t));
    rep.bandwidth(what, loom::bench::time_ms(isin), bytes);
    rep.bandwidth(what + " (gpu time)", loom::bench::gpu_ms(isin), bytes);
  }
  const std::int64_t e = std::int64_t{1} << 24;
  const Array a = random_values(e, 1 << 22, DType::Int32, 4), b = random_values(e, 1 << 22, DType::Int32, 5);
  rep.time("unique(a), 2^24 int32", loom::bench::time_ms([&] { (void)loom::unique(a); }));
  rep.time("unique_all(a), 2^24 int32", loom::bench::time_ms([&] { (void)loom::unique_all(a); }));
  rep.time("intersect1d(a, b), 2^24 int32 each", loom::bench::time_ms([&] { (void)loom::intersect1d(a, b); }));
  rep.time("union1d(a, b), 2^24 int32 each", loom::bench::time_ms([&] { (void)loom::union1d(a, b); }));
  rep.time("setdiff1d(a, b), 2^24 int32 each", loom::bench::time_ms([&] { (void)loom::setdiff1d(a, b); }));
  rep.time("setxor1d(a, b), 2^24 int32 each", loom::bench::time_ms([&] { (void)loom::setxor1d(a, b); }));
  const Array rows = (a % 16).reshape({e / 4, 4});
  rep.time("unique(rows, axis=0), 2^22 rows x 4 int32", loom::bench::time_ms([&] {
             (void)loom::unique(rows, {.axis = 0});
           }));
  rep.write(argc, argv);
  return 0;
}
