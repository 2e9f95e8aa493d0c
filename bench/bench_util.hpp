#pragma once
// Timing shared by the benchmarks: wall time per call with a synchronize after each call,
// median of `reps` after warm-up (PERF.md's peer tables); batches of calls with one synchronize
// (PERF.md's targets); the copy ceiling; and Report, which prints
// each row as it is measured and writes them all as JSON at the end.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

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

// ms per call of f with a synchronize around `batch` calls issued back to back, median of `reps`
// batches after warm-up: PERF.md's "a synchronize around many repeats". The host's work for one
// call overlaps the GPU's for the one before, and the launch + synchronize latency (PERF.md:
// 8.6 us) is paid once a batch, as in the 1-GiB copy that sets the ceiling; a host slower than
// the GPU still shows. The figure the targets are judged by; time_ms, a synchronize after every
// call, is the one compared with the peers' scripts, which time that way.
inline double batch_ms(const std::function<void()>& f, int batch = 20, int reps = 7, int warm = 3) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warm; ++i) f();
  loom::synchronize();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i) f();
    loom::synchronize();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / batch);
  }
  return median(t);
}

// ms per call of f on the GPU alone: events on loom's stream around `reps` calls issued back to
// back, so host work overlaps the kernels (launch and synchronize latency excluded). A diagnostic
// beside time_ms, which is the figure compared with the peers.
inline double gpu_ms(const std::function<void()>& f, int reps = 20, int warm = 3) {
  for (int i = 0; i < warm; ++i) f();
  auto stream = static_cast<cudaStream_t>(loom::Stream::current().handle());
  cudaEvent_t a = nullptr, b = nullptr;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, stream);
  for (int i = 0; i < reps; ++i) f();
  cudaEventRecord(b, stream);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return static_cast<double>(ms) / reps;
}

// ms per call of f on the host alone: calls issued back to back with no synchronize (the graph
// built, planned and launched; the GPU catches up later). A diagnostic: when it is near gpu_ms,
// the host, not the GPU, sets the pace.
inline double host_ms(const std::function<void()>& f, int reps = 20, int warm = 3) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warm; ++i) f();
  loom::synchronize();
  const auto t0 = Clock::now();
  for (int i = 0; i < reps; ++i) f();
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / reps;
  loom::synchronize();
  return ms;
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

// Rows of one benchmark: printed as measured; write() puts them in
// {"device", "copy_ceiling_gbs", "rows": [{"name", "ms", ...}]} at argv[1], else $OUT/<bench>.json.
class Report {
 public:
  Report(std::string bench, double ceiling_gbs) : bench_(std::move(bench)), ceiling_(ceiling_gbs) {}

  // ms, GB/s for `bytes` moved, and % of the copy ceiling.
  void bandwidth(const std::string& name, double ms, double bytes) {
    const double gbs = bytes / ms / 1e6, pct = ceiling_ > 0 ? 100 * gbs / ceiling_ : 0;
    std::printf("%-56s %9.4f ms %8.1f GB/s %6.1f%% of copy\n", name.c_str(), ms, gbs, pct);
    add(fmt::format("{{\"name\": \"{}\", \"ms\": {:.6f}, \"gbs\": {:.2f}, \"pct_ceiling\": {:.2f}}}", name, ms, gbs, pct));
  }
  // ms alone.
  void time(const std::string& name, double ms) {
    std::printf("%-56s %9.4f ms\n", name.c_str(), ms);
    add(fmt::format("{{\"name\": \"{}\", \"ms\": {:.6f}}}", name, ms));
  }
  // ms and the rate of `flops` floating-point operations (TFLOP/s when tera, else GFLOP/s).
  void flops(const std::string& name, double ms, double flops, bool tera) {
    const double rate = flops / ms / (tera ? 1e9 : 1e6);
    const char* unit = tera ? "tflops" : "gflops";
    std::printf("%-56s %9.3f ms %9.1f %s\n", name.c_str(), ms, rate, tera ? "TFLOP/s" : "GFLOP/s");
    add(fmt::format("{{\"name\": \"{}\", \"ms\": {:.4f}, \"{}\": {:.2f}}}", name, ms, unit, rate));
  }

  void write(int argc, char** argv) const {
    std::string path = argc > 1 ? argv[1] : "";
    if (const char* out = std::getenv("OUT"); path.empty() && out) path = std::string(out) + "/" + bench_ + ".json";
    if (path.empty()) return;
    std::ofstream f(path);
    f << "{\"device\": \"" << device_info().name << "\", \"copy_ceiling_gbs\": " << ceiling_ << ", \"rows\": [\n  "
      << fmt::format("{}", fmt::join(rows_, ",\n  ")) << "\n]}\n";
  }

 private:
  void add(std::string row) {
    std::fflush(stdout);
    rows_.push_back(std::move(row));
  }
  std::string bench_;
  double ceiling_;
  std::vector<std::string> rows_;
};

}  // namespace loom::bench
