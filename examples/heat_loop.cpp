// 2-D heat diffusion written as a NumPy user writes it: copy the grid, write the stencil into its
// interior, write the boundaries, next step. Each step is either evaluated (`u = un.eval()`) or
// left lazy (`u = un`, the literal NumPy loop: loom decides where to cut).
//
// NumPy:
//   u = np.zeros((n, n), np.float32); u[0, :] = 100
//   for step in range(1, steps + 1):
//       un = u.copy()
//       un[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
//                                                 + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
//       un[0, :] = 100; un[-1, :] = 0; un[:, 0] = 0; un[:, -1] = 0
//       u = un
//
// Usage: heat_loop [n] [steps] [eval|literal] [explain] [hot]
//   explain: print the plan of step 1; hot: also write a hot square (n > 524)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <loom/loom.hpp>

using namespace loom;

int main(int argc, char** argv) {
  const bool gpu = gpu_available();
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : (gpu ? 1024 : 64);
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  const bool literal = argc > 3 && std::strcmp(argv[3], "literal") == 0;
  bool show_plan = false, hot = n > 524;
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "explain") == 0) show_plan = true;
    if (std::strcmp(argv[i], "hot") == 0) hot = true;
  }
  const double alpha = 0.2;

  const auto t0 = std::chrono::steady_clock::now();
  auto u = zeros({n, n}, float32);
  u[{0, all}] = 100.0;
  const Slice in(1, -1);
  double energy = 0;
  for (int step = 1; step <= steps; ++step) {
    auto un = u.copy();
    un[{in, in}] = u[{in, in}] + alpha * (u[{Slice(2, none), in}] + u[{Slice(none, -2), in}] +
                                          u[{in, Slice(2, none)}] + u[{in, Slice(none, -2)}] - 4 * u[{in, in}]);
    un[{0, all}] = 100.0;
    un[{-1, all}] = 0.0;
    un[{all, 0}] = 0.0;
    un[{all, -1}] = 0.0;
    if (hot && n > 524) un[{Slice(500, 524), Slice(500, 524)}] = 50.0;
    u = literal ? Array(un) : un.eval();
    if (step % 10 == 0 || step == steps) {
      energy = u.sum().item<double>();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("step %3d energy %.8g  (%.3f s)\n", step, energy, s);
      std::fflush(stdout);
    }
    if (step == 1 && show_plan) explain(u);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("heat %lldx%lld, %d steps (%s): energy %.8g, %.3f s%s\n", static_cast<long long>(n),
              static_cast<long long>(n), steps, literal ? "literal" : "eval per step", energy, s,
              gpu ? "" : " (host reference evaluator)");
  return 0;
}
