// bench_time_loop: issue 28's heat loop as a NumPy user writes it (copy, stencil into the interior,
// four boundary writes, a hot square), 100 steps at 1024^2 and 4096^2 float32: evaluated every step
// (`u = un.eval()`) and literally (`u = un`, loom cuts it into kernels), warm (the second run of the
// loop; its kernels compiled by the first), and the first run of each in a fresh process's
// memory cache (disk cache warm). Per step: ms, and GB/s for one read + one write of the grid
// (the least a step moves) against the copy ceiling of the same run. Writes JSON to argv[1]
// (else $OUT/bench_time_loop.json).

#include <chrono>
#include <cstdio>

#include <loom/loom.hpp>

#include "bench_util.hpp"

using namespace loom;

namespace {

// The loop's steps built (and, per step, evaluated); the result not yet evaluated.
Array heat_steps(std::int64_t n, int steps, bool literal) {
  auto u = zeros({n, n}, float32);
  u[{0, all}] = 100.0;
  const Slice in(1, -1);
  for (int step = 1; step <= steps; ++step) {
    auto un = u.copy();
    un[{in, in}] = u[{in, in}] + 0.2 * (u[{Slice(2, none), in}] + u[{Slice(none, -2), in}] + u[{in, Slice(2, none)}] +
                                        u[{in, Slice(none, -2)}] - 4 * u[{in, in}]);
    un[{0, all}] = 100.0;
    un[{-1, all}] = 0.0;
    un[{all, 0}] = 0.0;
    un[{all, -1}] = 0.0;
    un[{Slice(n / 2 - 12, n / 2 + 12), Slice(n / 2 - 12, n / 2 + 12)}] = 50.0;
    u = literal ? Array(un) : un.eval();
  }
  return u;
}

Array heat_loop(std::int64_t n, int steps, bool literal) { return heat_steps(n, steps, literal).eval(); }

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (!gpu_available()) {
    std::printf("bench_time_loop: no GPU\n");
    return 0;
  }
  const double ceiling = bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", device_info().name.c_str(), ceiling);
  bench::Report rep("bench_time_loop", ceiling);
  const int steps = 100;
  for (const std::int64_t n : {1024, 4096}) {
    for (const bool literal : {false, true}) {
      const char* how = literal ? "literal (u = un)" : "eval per step";
      const double first = seconds([&] { (void)heat_loop(n, steps, literal); });
      std::printf("heat %lld^2, %s: first run %.3f s for %d steps\n", static_cast<long long>(n), how, first, steps);
      const double ms = bench::time_ms([&] { (void)heat_loop(n, steps, literal); }, 5, 1) / steps;
      rep.bandwidth(fmt::format("heat {}^2 f32, {}, per step (warm)", n, how), ms, 8.0 * static_cast<double>(n * n));
      if (literal) {  // where the literal loop's time goes: building its graph (host), the rest
        rep.time("  building the literal graph, per step (host)",
                 bench::host_ms([&] { (void)heat_steps(n, steps, true); }, 5, 1) / steps);
      }
    }
  }
  rep.write(argc, argv);
  return 0;
}
