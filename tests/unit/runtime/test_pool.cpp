// The BFC pool algorithm on a host-memory backing (runs without a GPU): placement, splitting and
// coalescing, stats, limits and OutOfMemory, stream hooks, and returning regions. Last, the
// public memory API over the device pools: figures and limits without a GPU, real use with one.

#include <catch2/catch.hpp>

#include "support/test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <loom/device.hpp>
#include <loom/errors.hpp>
#include <loom/memory.hpp>

#include "runtime/device.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/pool.hpp"

using Catch::Matchers::Contains;
using loom::rt::BfcPool;
using loom::rt::StreamId;

namespace {

using loom::test::WhatContains;

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * 1024;

// Aligned host memory that counts calls and can be made to refuse past `capacity_bytes`.
class CountingBacking : public loom::rt::Backing {
 public:
  explicit CountingBacking(std::size_t capacity_bytes = 0) : capacity_bytes_(capacity_bytes) {}
  ~CountingBacking() override {
    for (auto& [p, n] : live_) std::free(p);
  }
  void* allocate(std::size_t bytes) override {
    ++num_allocs;
    if (capacity_bytes_ != 0 && live_bytes + bytes > capacity_bytes_) return nullptr;
    void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!p) return nullptr;
    live_[p] = bytes;
    live_bytes += bytes;
    sizes.push_back(bytes);
    return p;
  }
  void release(void* p, std::size_t bytes) override {
    ++num_releases;
    auto it = live_.find(p);
    if (it == live_.end() || it->second != bytes) {
      ++bad_releases;
      return;
    }
    live_bytes -= bytes;
    live_.erase(it);
    std::free(p);
  }
  int num_allocs = 0;  // attempts, refused ones included
  int num_releases = 0;
  int bad_releases = 0;
  std::size_t live_bytes = 0;
  std::vector<std::size_t> sizes;  // of the regions granted

 private:
  std::size_t capacity_bytes_;
  std::map<void*, std::size_t> live_;
};

struct HookLog {
  std::vector<std::pair<StreamId, StreamId>> calls;
  BfcPool::CrossStreamHook hook() {
    return [this](StreamId from, StreamId to) { calls.emplace_back(from, to); };
  }
};

BfcPool::Options options(std::size_t min_region = 1 * kMiB, std::size_t limit = 0) {
  BfcPool::Options o;
  o.alignment = 256;
  o.min_region_bytes = min_region;
  o.limit_bytes = limit;
  o.label = "test pool";
  return o;
}

std::size_t rounded(std::size_t n) { return (std::max<std::size_t>(n, 1) + 255) / 256 * 256; }

void check_all_coalesced(const BfcPool& pool, const CountingBacking& backing) {
  const loom::MemoryStats s = pool.stats();
  CHECK(s.in_use_bytes == 0);
  CHECK(s.requested_bytes == 0);
  CHECK(s.num_live_blocks == 0);
  CHECK(s.num_free_blocks == s.num_regions);  // each region is one free block again
  CHECK(s.cached_bytes == s.reserved_bytes);
  CHECK(s.reserved_bytes == backing.live_bytes);
}

}  // namespace

TEST_CASE("pool: randomized alloc/free keeps blocks disjoint, aligned and coalescing", "[pool]") {
  CountingBacking backing;
  HookLog log;
  BfcPool pool(backing, options(2 * kMiB), log.hook());
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> log_size(0.0, 23.0);  // 1 B .. 8 MiB, log-uniform
  struct Live {
    std::size_t bytes;
    std::uint64_t tag;
  };
  std::map<char*, Live> live;
  std::uint64_t next_tag = 1;
  std::size_t num_checked = 0;

  auto free_one = [&](std::size_t index) {
    auto it = std::next(live.begin(), static_cast<std::ptrdiff_t>(index));
    std::uint64_t head = 0, tail = 0;
    std::memcpy(&head, it->first, 8);
    std::memcpy(&tail, it->first + std::max<std::size_t>(it->second.bytes, 16) - 8, 8);
    REQUIRE(head == it->second.tag);  // nothing else wrote into this block
    REQUIRE(tail == it->second.tag);
    pool.free(it->first, 1 + (rng() & 1));
    live.erase(it);
  };

  for (int round = 0; round < 3; ++round) {
    for (int op = 0; op < 4000; ++op) {
      const bool do_alloc = live.empty() || (rng() % 100) < (live.size() < 60 ? 60u : 40u);
      if (do_alloc) {
        const auto bytes = static_cast<std::size_t>(std::exp2(log_size(rng)));
        const StreamId stream = 1 + (rng() & 1);
        auto* p = static_cast<char*>(pool.allocate(bytes, stream));
        REQUIRE(p != nullptr);
        REQUIRE(reinterpret_cast<std::uintptr_t>(p) % 256 == 0);
        // Disjoint from its neighbours in address order.
        auto after = live.lower_bound(p);
        if (after != live.end()) REQUIRE(p + rounded(bytes) <= after->first);
        if (after != live.begin()) {
          auto before = std::prev(after);
          REQUIRE(before->first + rounded(before->second.bytes) <= p);
        }
        const std::uint64_t tag = next_tag++;
        std::memcpy(p, &tag, 8);  // blocks are >= 256 bytes, so 8 bytes at each end fit
        std::memcpy(p + std::max<std::size_t>(bytes, 16) - 8, &tag, 8);
        live[p] = Live{bytes, tag};
      } else {
        free_one(static_cast<std::size_t>(rng() % live.size()));
      }
      if (op % 97 == 0) {
        const loom::MemoryStats s = pool.stats();
        std::size_t requested = 0, rounded_sum = 0;
        for (auto& [p, l] : live) {
          requested += l.bytes;
          rounded_sum += rounded(l.bytes);
        }
        REQUIRE(s.num_live_blocks == live.size());
        REQUIRE(s.requested_bytes == requested);
        // A near fit is handed out whole: at most 1/8 of the request (and < 1 MiB) more.
        REQUIRE(s.in_use_bytes >= rounded_sum);
        REQUIRE(s.in_use_bytes <= rounded_sum + rounded_sum / 8);
        REQUIRE(s.in_use_bytes + s.cached_bytes == s.reserved_bytes);
        REQUIRE(s.reserved_bytes == backing.live_bytes);
        REQUIRE(s.peak_in_use_bytes >= s.in_use_bytes);
        REQUIRE(s.num_regions ==
                backing.sizes.size() - static_cast<std::size_t>(backing.num_releases));
        ++num_checked;
      }
    }
    while (!live.empty()) free_one(static_cast<std::size_t>(rng() % live.size()));
    check_all_coalesced(pool, backing);
  }
  const loom::MemoryStats s = pool.stats();
  CHECK(num_checked > 100);
  CHECK(s.num_allocs == s.num_frees);
  CHECK(s.num_ooms == 0);
  CHECK(s.fragmentation() >= 0.0);
  CHECK(!log.calls.empty());  // two streams shared blocks, always through the hook
  for (auto& [from, to] : log.calls) CHECK(from != to);
  pool.free_all_cached();
  CHECK(pool.stats().reserved_bytes == 0);
  CHECK(backing.live_bytes == 0);
  CHECK(backing.bad_releases == 0);
}

TEST_CASE("pool: best fit takes the smallest free block that fits", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB));
  // Free blocks of 1, 4 and 2 KiB, kept apart by live separators so they cannot merge.
  void* a = pool.allocate(1 * kKiB, 0);
  void* s1 = pool.allocate(256, 0);
  void* c = pool.allocate(4 * kKiB, 0);
  void* s2 = pool.allocate(256, 0);
  void* e = pool.allocate(2 * kKiB, 0);
  void* s3 = pool.allocate(256, 0);
  pool.free(a, 0);
  pool.free(c, 0);
  pool.free(e, 0);
  CHECK(pool.stats().num_free_blocks == 4);  // the three, and the rest of the region
  CHECK(pool.allocate(2 * kKiB, 0) == e);    // exact
  CHECK(pool.allocate(3 * kKiB, 0) == c);    // 4 KiB is the smallest that fits 3 KiB
  CHECK(pool.allocate(1000, 0) == a);        // rounded to 1 KiB
  void* big = pool.allocate(64 * kKiB, 0);   // from the rest of the region, after s3
  CHECK(static_cast<char*>(big) > static_cast<char*>(s3));
  CHECK(pool.stats().num_regions == 1);
  for (void* p : {s1, s2, s3, a, c, e, big}) pool.free(p, 0);
  check_all_coalesced(pool, backing);
  CHECK(pool.stats().num_free_blocks == 1);
}

TEST_CASE("pool: a fitting block deep in a crowded size class is found before growing", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(2 * kMiB));
  // Sizes 64 KiB and 65.75 KiB share a size class (~3% wide). The fitting block goes in first,
  // so 20 smaller ones sit ahead of it in the class's list; nothing larger is free.
  void* fit = pool.allocate(263 * 256, 0);
  std::vector<void*> keep{pool.allocate(256, 0)};
  std::vector<void*> small;
  for (int i = 0; i < 20; ++i) {
    small.push_back(pool.allocate(256 * 256, 0));
    keep.push_back(pool.allocate(256, 0));
  }
  keep.push_back(pool.allocate(2 * kMiB - (264 + 20 * 257) * 256, 0));  // the region's rest
  CHECK(pool.stats().num_free_blocks == 0);
  pool.free(fit, 0);
  for (void* p : small) pool.free(p, 0);
  CHECK(pool.allocate(262 * 256, 0) == fit);
  CHECK(pool.stats().num_regions == 1);
  CHECK(backing.num_allocs == 1);
  pool.free(fit, 0);
  for (void* p : keep) pool.free(p, 0);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: split keeps a worthwhile remainder, hands a near fit out whole", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB));
  void* a = pool.allocate(64 * kKiB, 0);
  void* sep = pool.allocate(256, 0);
  pool.free(a, 0);
  // 60 KiB from the 64 KiB block: the 4 KiB left is < 1/8 of 60 KiB, so no split.
  void* b = pool.allocate(60 * kKiB, 0);
  CHECK(b == a);
  CHECK(pool.stats().in_use_bytes == 64 * kKiB + 256);
  CHECK(pool.stats().requested_bytes == 60 * kKiB + 256);
  pool.free(b, 0);
  // 32 KiB from it: 32 KiB left is worth keeping.
  void* c = pool.allocate(32 * kKiB, 0);
  CHECK(c == a);
  CHECK(pool.stats().in_use_bytes == 32 * kKiB + 256);
  void* d = pool.allocate(32 * kKiB, 0);
  CHECK(d == static_cast<char*>(a) + 32 * kKiB);
  for (void* p : {c, d, sep}) pool.free(p, 0);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: zero bytes gives distinct blocks, nullptr free is ignored", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options());
  void* a = pool.allocate(0, 0);
  void* b = pool.allocate(0, 0);
  CHECK(a != nullptr);
  CHECK(a != b);
  CHECK(pool.stats().in_use_bytes == 512);
  CHECK(pool.stats().requested_bytes == 0);
  pool.free(nullptr, 0);
  pool.free(a, 0);
  pool.free(b, 0);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: regions grow, and a large request gets a region of its own", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB));
  std::vector<void*> blocks;
  for (int i = 0; i < 64; ++i) blocks.push_back(pool.allocate(256 * kKiB, 0));
  const loom::MemoryStats s = pool.stats();
  CHECK(s.in_use_bytes == 16 * kMiB);
  CHECK(s.reserved_bytes <= 16 * kMiB + 16 * kMiB / 4 + 1 * kMiB);  // growth overshoots <= 25%
  CHECK(s.num_regions < 20);
  for (std::size_t i = 1; i < backing.sizes.size(); ++i)
    CHECK(backing.sizes[i] >= backing.sizes[0]);
  void* big = pool.allocate(100 * kMiB + 1, 0);
  CHECK(backing.sizes.back() == 101 * kMiB);  // exact, rounded to the region granularity
  pool.free(big, 0);
  for (void* p : blocks) pool.free(p, 0);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: the limit raises OutOfMemory with the pool's figures, and the pool goes on",
          "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB, 8 * kMiB));
  CHECK(pool.limit() == 8 * kMiB);
  void* a = pool.allocate(6 * kMiB, 0);
  REQUIRE_THROWS_MATCHES(
      pool.allocate(4 * kMiB, 0), loom::OutOfMemory,
      WhatContains(
          "out of memory allocating 4.00 MiB on test pool: pool in use 6.00 MiB, cached 0 B, "
          "limit 8.00 MiB, largest free block 0 B; the limit leaves room for 2.00 MiB more"));
  try {
    pool.allocate(4 * kMiB + 1, 0);
  } catch (const loom::OutOfMemory& e) {
    CHECK(e.requested_bytes() == 4 * kMiB + 1);
  }
  CHECK(pool.stats().num_ooms == 2);
  void* b = pool.allocate(2 * kMiB, 0);  // what the limit leaves still works
  pool.free(a, 0);
  void* c = pool.allocate(4 * kMiB, 0);
  CHECK(c == a);
  pool.free(b, 0);
  pool.free(c, 0);
  CHECK(pool.stats().reserved_bytes <= 8 * kMiB);
  CHECK(pool.stats().peak_reserved_bytes <= 8 * kMiB);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: at the limit, cached regions are returned and the request retried", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB, 8 * kMiB));
  void* a = pool.allocate(3 * kMiB, 0);  // a region of its own
  pool.free(a, 0);
  CHECK(pool.stats().cached_bytes == 3 * kMiB);
  void* b = pool.allocate(6 * kMiB, 0);  // 3 + 6 > 8: release the cached 3 MiB, then fits
  const loom::MemoryStats s = pool.stats();
  CHECK(s.num_ooms == 0);
  CHECK(s.num_backing_frees == 1);
  CHECK(s.reserved_bytes == 6 * kMiB);
  pool.free(b, 0);
}

TEST_CASE("pool: a backing that refuses gives OutOfMemory after a retry", "[pool]") {
  CountingBacking backing(16 * kMiB);
  BfcPool pool(backing, options(1 * kMiB));
  void* a = pool.allocate(12 * kMiB, 0);
  void* small = pool.allocate(kKiB, 0);  // keeps a second region alive
  REQUIRE_THROWS_MATCHES(
      pool.allocate(8 * kMiB, 0), loom::OutOfMemory,
      WhatContains("out of memory allocating 8.00 MiB on test pool: pool in use") &&
          WhatContains("limit none") && WhatContains("the backing could not provide 8.00 MiB"));
  pool.free(a, 0);
  void* b = pool.allocate(8 * kMiB, 0);  // reuses the 12 MiB region
  CHECK(b == a);
  pool.free(b, 0);
  pool.free(small, 0);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: set_limit below what is reserved returns the cached regions", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB));
  void* a = pool.allocate(4 * kMiB, 0);
  void* b = pool.allocate(4 * kMiB, 0);
  pool.free(a, 0);
  pool.set_limit(5 * kMiB);
  CHECK(pool.limit() == 5 * kMiB);
  CHECK(pool.stats().reserved_bytes == 4 * kMiB);
  CHECK(pool.stats().limit_bytes == 5 * kMiB);
  REQUIRE_THROWS_AS(pool.allocate(2 * kMiB, 0), loom::OutOfMemory);
  pool.set_limit(0);
  pool.free(pool.allocate(2 * kMiB, 0), 0);
  pool.free(b, 0);
}

TEST_CASE("pool: freeing a pointer it does not own is a ValueError", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options());
  int local = 0;
  REQUIRE_THROWS_MATCHES(pool.free(&local, 0), loom::ValueError,
                         WhatContains("is not a live allocation of test pool"));
  void* a = pool.allocate(1000, 0);
  REQUIRE_THROWS_AS(pool.free(static_cast<char*>(a) + 256, 0), loom::ValueError);  // interior
  pool.free(a, 0);
  REQUIRE_THROWS_MATCHES(pool.free(a, 0), loom::ValueError, WhatContains("freed twice"));
  check_all_coalesced(pool, backing);  // the failed frees changed nothing
}

TEST_CASE("pool: a block moves to another stream only through the hook", "[pool]") {
  CountingBacking backing;
  HookLog log;
  BfcPool pool(backing, options(1 * kMiB), log.hook());
  const StreamId s1 = 0x100, s2 = 0x200, s3 = 0x300, s4 = 0x400;

  void* a = pool.allocate(64 * kKiB, s1);
  void* sep = pool.allocate(256, s1);
  pool.free(a, s1);
  CHECK(pool.allocate(64 * kKiB, s1) == a);  // same stream: at once, no hook
  CHECK(log.calls.empty());
  pool.free(a, s1);
  CHECK(pool.allocate(64 * kKiB, s2) == a);  // freed on s1, wanted on s2
  REQUIRE(log.calls.size() == 1);
  CHECK(log.calls[0] == std::make_pair(s1, s2));
  pool.free(a, s2);
  log.calls.clear();
  CHECK(pool.allocate(64 * kKiB, s2) == a);  // now freed on s2: no hook
  CHECK(log.calls.empty());
  pool.free(a, s2);
  pool.free(sep, s1);
  check_all_coalesced(pool, backing);

  // A stream prefers its own free block, even when another stream's fits better.
  void* x = pool.allocate(64 * kKiB, s1);
  void* sep_a = pool.allocate(256, s1);
  void* y = pool.allocate(128 * kKiB, s1);
  void* sep_b = pool.allocate(256, s1);
  pool.free(x, s1);
  pool.free(y, s3);
  log.calls.clear();
  CHECK(pool.allocate(64 * kKiB, s3) == y);
  CHECK(log.calls.empty());
  pool.free(y, s3);

  // Neighbours freed on three streams merge; reusing the merged block waits for all three.
  pool.free(sep_a, s2);                      // x (s1) + sep_a (s2) + y (s3)
  CHECK(pool.stats().num_free_blocks == 2);  // the merged block and the region's tail
  log.calls.clear();
  void* m = pool.allocate(192 * kKiB + 256, s4);  // exactly the merged block
  CHECK(m == x);
  REQUIRE(log.calls.size() == 3);
  CHECK(std::count(log.calls.begin(), log.calls.end(), std::make_pair(s2, s4)) == 1);
  CHECK(std::count(log.calls.begin(), log.calls.end(), std::make_pair(s1, s4)) == 1);
  CHECK(std::count(log.calls.begin(), log.calls.end(), std::make_pair(s3, s4)) == 1);
  pool.free(m, s4);
  log.calls.clear();
  CHECK(pool.allocate(192 * kKiB + 256, s4) == x);  // freed on s4 alone now
  CHECK(log.calls.empty());
  pool.free(x, s4);
  pool.free(sep_b, s1);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: a merge past three other streams orders the freeing stream at once", "[pool]") {
  CountingBacking backing;
  HookLog log;
  BfcPool pool(backing, options(1 * kMiB), log.hook());
  std::vector<void*> b;
  for (int i = 0; i < 6; ++i) b.push_back(pool.allocate(4 * kKiB, 1));
  pool.free(b[0], 1);
  pool.free(b[2], 3);
  pool.free(b[4], 5);
  pool.free(b[1], 2);  // b0..b2: home 2, also 1 and 3
  CHECK(log.calls.empty());
  pool.free(b[3], 4);  // b0..b4: home 4, also 2, 1, 3 and 5: one too many
  REQUIRE(log.calls.size() == 1);
  CHECK(log.calls[0] == std::make_pair(StreamId{5}, StreamId{4}));
  log.calls.clear();
  CHECK(pool.allocate(20 * kKiB, 6) == b[0]);
  CHECK(log.calls.size() == 4);  // 4 (home), 2, 1, 3: 5 was folded into 4
  pool.free(b[0], 6);
  pool.free(b[5], 1);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: without a hook, streams are one", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options());
  void* a = pool.allocate(4096, 1);
  pool.free(a, 1);
  CHECK(pool.allocate(4096, 2) == a);
  pool.free(a, 3);
  check_all_coalesced(pool, backing);
}

TEST_CASE("pool: free_all_cached and the destructor return regions to the backing", "[pool]") {
  CountingBacking backing;
  {
    BfcPool pool(backing, options(1 * kMiB));
    void* a = pool.allocate(3 * kMiB, 0);
    void* b = pool.allocate(5 * kMiB, 0);
    void* c = pool.allocate(kKiB, 0);
    CHECK(backing.num_allocs == 3);
    CHECK(pool.stats().num_backing_allocs == 3);
    pool.free(a, 0);
    pool.free(b, 0);
    pool.free_all_cached();  // the regions of a and b; c's region has a live block
    CHECK(backing.num_releases == 2);
    const loom::MemoryStats s = pool.stats();
    CHECK(s.num_backing_frees == 2);
    CHECK(s.num_regions == 1);
    CHECK(s.reserved_bytes == backing.live_bytes);
    CHECK(s.in_use_bytes == 256 * 4);  // 1 KiB in 256-byte units
    pool.free(c, 0);
    void* d = pool.allocate(kKiB, 0);  // the surviving region serves it
    CHECK(backing.num_allocs == 3);
    pool.free(d, 0);
  }
  CHECK(backing.num_releases == 3);
  CHECK(backing.live_bytes == 0);
  CHECK(backing.bad_releases == 0);
}

TEST_CASE("pool: peaks, reset_peak, fragmentation and to_string", "[pool]") {
  CountingBacking backing;
  BfcPool pool(backing, options(1 * kMiB));
  void* a = pool.allocate(512 * kKiB, 0);
  void* b = pool.allocate(256 * kKiB, 0);
  void* c = pool.allocate(128 * kKiB, 0);
  pool.free(b, 0);
  loom::MemoryStats s = pool.stats();
  CHECK(s.peak_in_use_bytes == 896 * kKiB);
  CHECK(s.in_use_bytes == 640 * kKiB);
  CHECK(s.num_free_blocks == 2);  // b's hole and the region's tail
  CHECK(s.largest_free_block_bytes == 256 * kKiB);
  CHECK(s.cached_bytes == 384 * kKiB);
  CHECK(s.fragmentation() == Approx(1.0 - 256.0 / 384.0));
  CHECK_THAT(s.to_string(), Contains("in use 640.00 KiB") && Contains("cached 384.00 KiB") &&
                                Contains("largest free block 256.00 KiB") &&
                                Contains("limit none") && Contains("3 allocs, 1 frees"));
  pool.reset_peak();
  CHECK(pool.stats().peak_in_use_bytes == 640 * kKiB);
  pool.free(a, 0);
  pool.free(c, 0);
  CHECK(pool.stats().fragmentation() == 0.0);  // one free block
  CHECK(loom::MemoryStats{}.fragmentation() == 0.0);
  CHECK(loom::rt::format_bytes(0) == "0 B");
  CHECK(loom::rt::format_bytes(1023) == "1023 B");
  CHECK(loom::rt::format_bytes(1536) == "1.50 KiB");
  CHECK(loom::rt::format_bytes(std::size_t{4} << 30) == "4.00 GiB");
}

TEST_CASE("pool: concurrent threads keep the figures consistent", "[pool]") {
  CountingBacking backing;
  HookLog log;  // guarded by the pool's mutex: the hook runs under it
  BfcPool pool(backing, options(1 * kMiB), log.hook());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      std::vector<void*> mine;
      for (int i = 0; i < 3000; ++i) {
        if (mine.empty() || rng() % 2) {
          mine.push_back(pool.allocate(1 + rng() % (256 * kKiB), static_cast<StreamId>(t + 1)));
        } else {
          const std::size_t k = rng() % mine.size();
          pool.free(mine[k], static_cast<StreamId>(t + 1));
          mine.erase(mine.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      for (void* p : mine) pool.free(p, static_cast<StreamId>(t + 1));
    });
  }
  for (auto& th : threads) th.join();
  check_all_coalesced(pool, backing);
  CHECK(pool.stats().num_allocs == pool.stats().num_frees);
}

TEST_CASE("pool: a bad alignment is a ValueError", "[pool]") {
  CountingBacking backing;
  BfcPool::Options o = options();
  o.alignment = 384;
  REQUIRE_THROWS_MATCHES(BfcPool(backing, o), loom::ValueError,
                         WhatContains("pool alignment must be a power of two, got 384"));
}

// The device pools behind include/loom/memory.hpp. Without a GPU: zero figures, limits stored.
TEST_CASE("pool: the public memory API, with or without a GPU", "[pool]") {
  struct RestoreLimit {  // the limit is process-wide: leave it as found, whatever fails
    std::size_t bytes = loom::memory_limit();
    ~RestoreLimit() { loom::set_memory_limit(bytes); }
  } restore;
  if (loom::rt::device_count() == 0) {
    loom::set_memory_limit(64 * kMiB);
    CHECK(loom::memory_limit() == 64 * kMiB);
    CHECK(loom::memory_limit(0) == 64 * kMiB);
    const loom::MemoryStats s = loom::memory_stats();
    CHECK(s.limit_bytes == 64 * kMiB);
    CHECK(s.reserved_bytes == 0);
    CHECK(s.num_allocs == 0);
    loom::reset_peak_memory_stats();
    loom::free_all_cached();
    REQUIRE_THROWS_MATCHES(loom::rt::device_alloc(0, 1024, nullptr), loom::CudaError,
                           WhatContains("no GPU is present"));
    loom::rt::device_free(0, nullptr, nullptr);  // harmless
    REQUIRE_THROWS_MATCHES(loom::memory_stats(3), loom::IndexError,
                           WhatContains("device 3 is out of range: no GPU is present"));
    return;
  }
  const int d = loom::rt::current_device();
  cudaStream_t s1 = loom::rt::current_stream(d);
  // Blocks freed on a stream need it later (to order their reuse): loom owns this one until exit.
  auto s2 = static_cast<cudaStream_t>(loom::Stream::create().handle());
  const loom::MemoryStats s0 = loom::memory_stats();
  void* a = loom::rt::device_alloc(d, 3 * kMiB, s1);
  REQUIRE(cudaMemsetAsync(a, 1, 3 * kMiB, s1) == cudaSuccess);
  CHECK(loom::memory_stats().in_use_bytes == s0.in_use_bytes + 3 * kMiB);
  loom::rt::device_free(d, a, s1);
  void* b = loom::rt::device_alloc(d, 3 * kMiB, s2);  // on a's memory, s2 waits for the memset
  REQUIRE(cudaMemsetAsync(b, 2, 3 * kMiB, s2) == cudaSuccess);
  unsigned char last = 0;
  REQUIRE(cudaMemcpyAsync(&last, static_cast<char*>(b) + 3 * kMiB - 1, 1, cudaMemcpyDeviceToHost,
                          s2) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(s2) == cudaSuccess);
  CHECK(last == 2);

  loom::free_all_cached();
  const loom::MemoryStats s3 = loom::memory_stats();
  const std::size_t limit = s3.reserved_bytes + 64 * kMiB;
  loom::set_memory_limit(limit);
  CHECK(loom::memory_limit() == limit);
  CHECK(loom::memory_stats(d).limit_bytes == limit);
  REQUIRE_THROWS_MATCHES(
      loom::rt::device_alloc(d, 128 * kMiB + s3.largest_free_block_bytes, s2), loom::OutOfMemory,
      WhatContains(fmt::format("on device {}: pool in use", d)) &&
          WhatContains(fmt::format("limit {}", loom::rt::format_bytes(limit))) &&
          WhatContains("the limit leaves room for") && WhatContains("the device has"));
  CHECK(loom::memory_stats().num_ooms == s0.num_ooms + 1);
  loom::rt::device_free(d, b, s2);
  CHECK(loom::memory_stats().in_use_bytes == s0.in_use_bytes);
  loom::reset_peak_memory_stats();
  CHECK(loom::memory_stats().peak_in_use_bytes == s0.in_use_bytes);
  REQUIRE_THROWS_AS(loom::memory_stats(loom::rt::device_count()), loom::IndexError);
}
