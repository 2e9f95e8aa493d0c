#pragma once
// Timing shared by the benchmarks: wall time per call with a synchronize after each call,
// median of `reps` after warm-up (PERF.md's method).

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

#include <loom/device.hpp>

namespace loom::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// ms per call of f, each followed by a synchronize.
inline double time_ms(const std::function<void()>& f, int reps = 20, int warm = 3) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warm; ++i) f();
  loom::synchronize();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    loom::synchronize();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(t);
}

// The copy ceiling in GB/s: a 1 GiB device-to-device cudaMemcpy, read + write bytes.
inline double copy_ceiling_gbs() {
  const std::size_t bytes = std::size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMemset(a, 1, bytes);
  const double ms = time_ms([&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0); cudaDeviceSynchronize(); });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * static_cast<double>(bytes) / ms / 1e6;
}

}  // namespace loom::bench
