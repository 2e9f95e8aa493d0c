// bench_random: 2^26 float32 uniforms and normals (PERF.md: library calls at parity with CuPy),
// each as eval() of the user's expression: the cuRAND call plus the fused kernel after it
// (uniforms: one kernel scaling the 32-bit words; standard normals: the call alone). GB/s
// counts the bytes of the result only (4 per value), as CuPy's figures do; the copy ceiling of
// the same run is printed for scale. Writes JSON to argv[1] (or $OUT/bench_random.json).

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::bench::time_ms;

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_random: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  loom::bench::Report rep("bench_random", ceiling);
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n = std::int64_t{1} << 26;
  const double out = 4.0 * static_cast<double>(n);
  loom::random::Generator g(1234);
  rep.bandwidth("random 2^26 float32 [0,1)", time_ms([&] { g.random({n}, loom::float32).eval(); }), out);
  rep.bandwidth("uniform(-1, 1) 2^26 float32", time_ms([&] { g.uniform(-1, 1, {n}, loom::float32).eval(); }), out);
  rep.bandwidth("standard_normal 2^26 float32", time_ms([&] { g.standard_normal({n}, loom::float32).eval(); }), out);
  rep.bandwidth("normal(2, 3) 2^26 float32", time_ms([&] { g.normal(2, 3, {n}, loom::float32).eval(); }), out);
  rep.bandwidth("random 2^26 float64 [0,1)", time_ms([&] { g.random({n}).eval(); }), 2 * out);
  rep.bandwidth("standard_normal 2^26 float64", time_ms([&] { g.standard_normal({n}).eval(); }), 2 * out);
  rep.bandwidth("integers(0, 1000) 2^26 int32", time_ms([&] { g.integers(0, 1000, {n}, loom::int32).eval(); }), out);
  rep.bandwidth("poisson(4) 2^26 (int64)", time_ms([&] { g.poisson(4.0, {n}).eval(); }), 2 * out);
  rep.write(argc, argv);
  return 0;
}
