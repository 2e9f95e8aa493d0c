// bench_host: where the host time of a cached eval() goes, piece by piece, for a 3-op
// expression on 1024 float32 elements (PERF.md: <= 2 us of loom's own time on top of the
// launch). Prints a table; writes JSON to argv[1] if given.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "codegen/kernel_plan.hpp"
#include "exec/kernel_cache.hpp"
#include "exec/fingerprint.hpp"
#include "exec/realize.hpp"
#include "runtime/device.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/module.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using loom::Array;

// us per call of f, over n calls (no synchronize inside).
double us_per(int n, const std::function<void()>& f) {
  for (int i = 0; i < n / 10; ++i) f();
  loom::synchronize();
  const auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) f();
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n;
  loom::synchronize();
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_host: no GPU\n");
    return 0;
  }
  const Array small = loom::arange(1024).astype(loom::float32).eval();
  const auto three = [&] { return (small * 2.0f + 1.0f) * small; };
  three().eval();
  const int n = 20000;
  std::vector<std::pair<std::string, double>> rows;
  const auto row = [&](const std::string& name, double us) {
    rows.emplace_back(name, us);
    std::printf("%-62s %8.3f us\n", name.c_str(), us);
  };
  row("build the graph (3 ops, 2 scalars)", us_per(n, [&] { (void)three(); }));
  const int dev = loom::current_device();
  row("build + fingerprint (the executable cache's key)", us_per(n, [&] {
        const Array a = three();
        const loom::detail::NodeRef r[] = {a.node()};
        (void)loom::exec::fingerprint(r, true, 256, dev);
      }));
  row("build + fingerprint + plan (an executable cache miss, before compiling)", us_per(n / 10, [&] {
        const Array a = three();
        const loom::detail::NodeRef r[] = {a.node()};
        (void)loom::exec::fingerprint(r, true, 256, dev);
        (void)loom::exec::prepare(r);
      }));
  cudaStream_t stream = loom::rt::current_stream(dev);
  row("pool alloc + free, 4 KiB", us_per(n, [&] {
        void* p = loom::rt::device_alloc(dev, 4096, stream);
        loom::rt::device_free(dev, p, stream);
      }));
  {
    // The kernel and its packed arguments, launched directly. (In a block: the array and plan
    // held here would otherwise be the very node the whole-eval rows below build again, which
    // hash-consing finds, evaluated, and they would time nothing.)
    const Array a = three();
    const loom::detail::NodeRef r[] = {a.node()};
    loom::exec::Prepared prep = loom::exec::prepare(r);
    const auto kernel = loom::exec::kernel_for(dev, prep.kernels[0]);
    void* out = loom::rt::device_alloc(dev, 4096, stream);
    std::vector<void*> outs{out};
    const auto data_of = [](const loom::detail::Node* nd) -> const void* {
      return loom::detail::buffer_storage(*nd)->data();
    };
    row("kernel lookup (memory cache)", us_per(n, [&] { (void)loom::exec::kernel_for(dev, prep.kernels[0]); }));
    row("pack arguments (all words)", us_per(n, [&] {
          (void)loom::codegen::pack_params(prep.kernels[0], kernel->params, data_of, outs);
        }));
    std::vector<const loom::detail::Node*> slots;
    const loom::codegen::StaticArgs fixed =
        loom::codegen::pack_static(prep.kernels[0], kernel->params, 1, [&](const loom::detail::Node* nd) {
          slots.push_back(nd);
          return static_cast<int>(slots.size()) - 1;
        });
    row("patch arguments (pointers and scalars: what a cached eval does)", us_per(n, [&] {
          std::vector<std::uint64_t> w = fixed.words;
          loom::codegen::apply_patches(w, fixed.patches, slots, data_of, outs, {});
        }));
    const std::vector<std::uint64_t> words = loom::codegen::pack_params(prep.kernels[0], kernel->params, data_of, outs);
    void* args[] = {const_cast<std::uint64_t*>(words.data())};
    row("cudaLaunchKernel of the kernel alone", us_per(n, [&] {
          loom::rt::launch(kernel->loaded, dim3(1), dim3(256), args, 0, stream);
        }));
    loom::rt::GraphLaunch graph(kernel->loaded, dim3(1), dim3(256));
    row("the same as a graph: set arguments + cudaGraphLaunch", us_per(n, [&] { graph.launch(args, stream); }));
    row("cudaLaunchKernel + synchronize", us_per(n / 4, [&] {
          loom::rt::launch(kernel->loaded, dim3(1), dim3(256), args, 0, stream);
          loom::synchronize();
        }));
    row("graph launch + synchronize", us_per(n / 4, [&] {
          graph.launch(args, stream);
          loom::synchronize();
        }));
    loom::rt::device_free(dev, out, stream);
  }
  row("whole eval() (build, plan, alloc, launch, free)", us_per(n, [&] { three().eval(); }));
  row("whole eval() + synchronize", us_per(n / 4, [&] {
        three().eval();
        loom::synchronize();
      }));
  if (argc > 1) {
    std::ofstream o(argv[1]);
    o << "{\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      o << fmt::format("  \"{}\": {:.4f}{}\n", rows[i].first, rows[i].second, i + 1 < rows.size() ? "," : "");
    }
    o << "}\n";
  }
  return 0;
}
