// bench_pool: the BFC pool's steady-state alloc+free cost and its fragmentation on a mixed-size
// churn, on a host-memory backing (always) and on the device (device pool vs cudaMalloc+cudaFree,
// when a GPU is present). Prints a table; writes JSON to argv[1] if given.
//
//   bench_pool [out.json]

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <loom/memory.hpp>

#include "runtime/device.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/pool.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using loom::rt::BfcPool;
using loom::rt::StreamId;

class HostBacking : public loom::rt::Backing {
 public:
  void* allocate(std::size_t bytes) override {
    ++num_allocs;
    return std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  }
  void release(void* p, std::size_t) override { std::free(p); }
  int num_allocs = 0;
};

// Sizes log-uniform in [lo, hi]: many small temporaries, some large arrays.
std::vector<std::size_t> mixed_sizes(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> e(std::log2(lo), std::log2(hi));
  std::vector<std::size_t> v(n);
  for (auto& s : v) s = static_cast<std::size_t>(std::exp2(e(rng)));
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Steady state: a working set of `live` blocks; each step frees a pseudo-random one and allocates
// a block of the next size in its place. Returns the median over `reps` of us per alloc+free;
// `backing_calls` (if given) counts the backing's allocations: in steady state they stay put,
// but for the rare step where the random working set reaches a new peak.
struct Timing {
  double us = 0;
  int backing_calls = 0;  // while timed
};
Timing time_churn(const std::function<void*(std::size_t)>& alloc,
                  const std::function<void(void*)>& release, const std::vector<std::size_t>& sizes,
                  std::size_t live, std::size_t steps, int reps,
                  const std::function<int()>& backing_calls = {}) {
  std::vector<void*> slots(live);
  std::size_t k = 0;
  for (auto& p : slots) p = alloc(sizes[k++ % sizes.size()]);
  std::uint64_t x = 88172645463325252ull;  // xorshift: cheap, no allocation
  auto run = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      void*& p = slots[x % live];
      release(p);
      p = alloc(sizes[k++ % sizes.size()]);
    }
  };
  run(steps);  // warm-up: the pool reaches its steady reserve
  const int calls_before = backing_calls ? backing_calls() : 0;
  std::vector<double> us;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    run(steps);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() /
                 static_cast<double>(steps));
  }
  const int calls = backing_calls ? backing_calls() - calls_before : 0;
  for (void* p : slots) release(p);
  return Timing{median(us), calls};
}

// A mixed-size churn whose working set drifts up and down: peak reserved / peak in use.
double fragmentation_ratio(BfcPool& pool, unsigned seed, double max_bytes) {
  std::mt19937_64 rng(seed);
  const std::vector<std::size_t> sizes = mixed_sizes(1 << 16, 1, max_bytes, seed);
  std::vector<void*> live;
  std::size_t k = 0;
  for (int phase = 0; phase < 8; ++phase) {
    const std::size_t target = 50 + rng() % 400;  // blocks live in this phase
    for (int i = 0; i < 4000; ++i) {
      const bool grow = live.size() < target ? rng() % 100 < 70 : rng() % 100 < 30;
      if (grow || live.empty()) {
        live.push_back(pool.allocate(sizes[k++ % sizes.size()], 0));
      } else {
        const std::size_t j = rng() % live.size();
        pool.free(live[j], 0);
        live[j] = live.back();
        live.pop_back();
      }
    }
  }
  for (void* p : live) pool.free(p, 0);
  const loom::MemoryStats s = pool.stats();
  return static_cast<double>(s.peak_reserved_bytes) / static_cast<double>(s.peak_in_use_bytes);
}

std::string json_number(double v) { return std::isnan(v) ? "null" : fmt::format("{:.4f}", v); }

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::size_t> sizes = mixed_sizes(4096, 256, 4 << 20, 7);
  const std::vector<std::size_t> one_size(1, 1 << 20);
  constexpr std::size_t kLive = 256, kSteps = 200000;

  HostBacking host;
  BfcPool pool(host, BfcPool::Options{});
  const auto palloc = [&](std::size_t n) { return pool.allocate(n, 0); };
  const auto pfree = [&](void* p) { pool.free(p, 0); };
  const auto host_calls = [&] { return host.num_allocs; };
  const Timing host_mixed = time_churn(palloc, pfree, sizes, kLive, kSteps, 7, host_calls);
  const Timing host_one = time_churn(palloc, pfree, one_size, kLive, kSteps, 7, host_calls);
  int timed_backing_calls = host_mixed.backing_calls + host_one.backing_calls;
  std::size_t timed_ops = 2 * 7 * kSteps;
  const double host_us = host_mixed.us, host_same = host_one.us;

  // Worst of 5 seeds. Sizes up to 8 MiB is the figure PERF.md's target reads; small sizes only
  // (a working set of ~30 MiB in regions of >= 2 MiB) fragment worse, and are shown beside it.
  double ratio = 0, ratio_small = 0;
  for (unsigned seed = 1; seed <= 5; ++seed) {
    HostBacking b, c;
    BfcPool p(b, BfcPool::Options{}), q(c, BfcPool::Options{});
    ratio = std::max(ratio, fragmentation_ratio(p, seed, 8 << 20));
    ratio_small = std::max(ratio_small, fragmentation_ratio(q, seed, 1 << 20));
  }

  double device_us = NAN, cuda_us = NAN;
  if (loom::rt::device_count() > 0) {
    const int d = loom::rt::current_device();
    cudaStream_t s = loom::rt::current_stream(d);
    const Timing t =
        time_churn([&](std::size_t n) { return loom::rt::device_alloc(d, n, s); },
                   [&](void* p) { loom::rt::device_free(d, p, s); }, sizes, kLive, kSteps, 7,
                   [d] { return static_cast<int>(loom::memory_stats(d).num_backing_allocs); });
    device_us = t.us;
    timed_backing_calls += t.backing_calls;
    timed_ops += 7 * kSteps;
    cuda_us = time_churn(
                  [](std::size_t n) {
                    void* p = nullptr;
                    if (cudaMalloc(&p, n) != cudaSuccess) std::abort();
                    return p;
                  },
                  [](void* p) { cudaFree(p); }, sizes, 64, 500, 3)
                  .us;
  }

  std::printf("%-52s %12s\n", "case", "us / op");
  std::printf("%-52s %12.3f\n", "host pool, alloc+free, mixed 256 B..4 MiB", host_us);
  std::printf("%-52s %12.3f\n", "host pool, alloc+free, 1 MiB", host_same);
  if (!std::isnan(device_us)) {
    std::printf("%-52s %12.3f\n", "device pool, alloc+free, mixed 256 B..4 MiB", device_us);
    std::printf("%-52s %12.3f\n", "cudaMalloc+cudaFree, mixed 256 B..4 MiB", cuda_us);
  } else {
    std::printf("%-52s %12s\n", "device pool / cudaMalloc+cudaFree", "no GPU");
  }
  std::printf("backing allocations while timed: %d in %zu alloc+free (new peaks of the churn)\n",
              timed_backing_calls, timed_ops);
  std::printf(
      "fragmentation, peak reserved / peak in use, worst of 5 churns: %.3f (sizes 1 B..8 MiB), "
      "%.3f (1 B..1 MiB)\n",
      ratio, ratio_small);
  std::printf("host pool after the runs: %s\n", pool.stats().to_string().c_str());

  if (argc > 1) {
    const double pool_us = std::isnan(device_us) ? host_us : device_us;
    const std::string json = fmt::format(
        "{{\"pool_alloc_free_us\": {}, \"cuda_malloc_free_us\": {}, "
        "\"host_pool_alloc_free_us\": {}, \"host_pool_same_size_us\": {}, "
        "\"device_pool_alloc_free_us\": {}, \"fragmentation_peak_reserved_over_in_use\": {}, "
        "\"fragmentation_small_sizes\": {}, "
        "\"backing_allocs_while_timed\": {}}}\n",
        json_number(pool_us), json_number(cuda_us), json_number(host_us), json_number(host_same),
        json_number(device_us), json_number(ratio), json_number(ratio_small), timed_backing_calls);
    std::FILE* f = std::fopen(argv[1], "w");
    if (!f) {
      std::fprintf(stderr, "bench_pool: cannot write %s\n", argv[1]);
      return 1;
    }
    std::fputs(json.c_str(), f);
    std::fclose(f);
  }
  return 0;
}
