// The quickstart of the README: lazy arrays, one fused kernel, its source, and the plan.
#include <cstdio>
#include <iostream>
#include <vector>

#include <loom/loom.hpp>

int main() {
  const bool gpu = loom::gpu_available();
  // Without a GPU the host reference evaluator computes everything: keep it small there.
  const std::int64_t n = gpu ? 100'000'000 : 1'000'000;

  auto a = loom::arange(n).reshape({1000, -1}).T() * 2;  // lazy: nothing runs yet
  std::cout << "--- the one kernel a.eval() runs ---\n" << a.source() << "\n";
  auto b = a.eval();
  std::vector<std::int64_t> h = b.to_host<std::int64_t>();
  std::printf("a[1][0] = %lld, a[0][1] = %lld (shape (%lld, %lld))\n",
              static_cast<long long>(h[1 * 1000]), static_cast<long long>(h[1]),
              static_cast<long long>(b.shape()[0]), static_cast<long long>(b.shape()[1]));

  std::vector<float> host_floats(1 << 16);
  for (std::size_t i = 0; i < host_floats.size(); ++i) {
    host_floats[i] = static_cast<float>(i % 17) - 8.0f;
  }
  auto x = loom::asarray(host_floats).reshape({4096, -1});
  auto y = loom::maximum(0.0f, x) + loom::log1p(loom::exp(-loom::abs(x)));  // softplus: one kernel
  loom::explain(y);  // before anything runs: one kernel, what it reads, whether it is cached
  std::cout << "softplus: " << y << "\n";
  std::cout << (gpu ? "computed on " + loom::device_info().name
                    : std::string("no GPU: these numbers came from the host reference evaluator"))
            << "\n";
  return 0;
}
