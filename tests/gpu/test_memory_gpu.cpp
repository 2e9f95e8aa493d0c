// Memory hooks and line profiles on the GPU: the events a hook sees add up to the pool's own
// figures (allocations, frees, bytes in use, bytes taken from CUDA), and a profile names the
// test's lines.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <loom/loom.hpp>
#include <loom/memory.hpp>

#include <fmt/format.h>

using loom::Array;
using loom::DType;
using loom::MemoryEvent;

TEST_CASE("memory hook events add up to the pool's figures", "[gpu][memory]") {
  // Whatever ran before in this process may have left a cached region big enough for the 256 MiB
  // below (then nothing new is taken from CUDA); one is left here on purpose and given back, so
  // the test holds in any order.
  (void)loom::zeros({std::int64_t{1} << 27}, DType::Float32).eval();
  loom::synchronize();
  loom::free_all_cached();
  const loom::MemoryStats s0 = loom::memory_stats();
  std::uint64_t allocs = 0, frees = 0;
  std::int64_t in_use = 0, requested = 0;
  std::size_t acquired = 0;
  bool devices_right = true;
  {
    loom::MemoryHook hook([&](const MemoryEvent& e) {
      devices_right &= e.device == 0 && e.ptr != nullptr && e.rounded_bytes >= e.requested_bytes;
      const auto sign = e.kind == MemoryEvent::Kind::Alloc ? 1 : -1;
      (e.kind == MemoryEvent::Kind::Alloc ? allocs : frees) += 1;
      in_use += sign * static_cast<std::int64_t>(e.rounded_bytes);
      requested += sign * static_cast<std::int64_t>(e.requested_bytes);
      acquired += e.acquired_bytes;
    });
    std::vector<Array> keep;
    for (int i = 1; i <= 20; ++i) keep.push_back((loom::arange(100000 * i).astype(DType::Float32) * 2).eval());
    const Array big = loom::zeros({std::int64_t{1} << 26}, DType::Float32).eval();  // 256 MiB: a new region
    const Array s = loom::sum(big + keep[3].sum(), 0).eval();                       // reductions' workspaces too
    keep.erase(keep.begin(), keep.begin() + 10);
    loom::synchronize();
    const loom::MemoryStats s1 = loom::memory_stats();
    CHECK(allocs >= 22);
    CHECK(frees >= 10);
    CHECK(s1.num_allocs - s0.num_allocs == allocs);
    CHECK(s1.num_frees - s0.num_frees == frees);
    CHECK(static_cast<std::int64_t>(s1.in_use_bytes) - static_cast<std::int64_t>(s0.in_use_bytes) == in_use);
    CHECK(static_cast<std::int64_t>(s1.requested_bytes) - static_cast<std::int64_t>(s0.requested_bytes) == requested);
    CHECK(acquired >= (std::size_t{1} << 28));
    CHECK(s1.num_backing_frees == s0.num_backing_frees);  // nothing returned: reserved grew by what was acquired
    CHECK(s1.reserved_bytes - s0.reserved_bytes == acquired);
    CHECK(devices_right);
  }
}

TEST_CASE("a memory hook that allocates on the GPU is not called for its own memory", "[gpu][memory]") {
  std::vector<MemoryEvent> events;
  int inner = 0;
  {
    loom::MemoryHook busy([&](const MemoryEvent& e) {
      events.push_back(e);
      inner += loom::full({1000}, 1.0f).eval().to_host<float>()[999] == 1.0f;  // device memory, and freed
    });
    const Array a = (loom::arange(4096).astype(DType::Float32) * 2).eval();
    bool seen = false;
    for (const MemoryEvent& e : events) seen |= e.kind == MemoryEvent::Kind::Alloc && e.ptr == a.data_ptr();
    CHECK(seen);
    CHECK(events.size() < 8);  // the user's allocations only, not one per allocation of the hook
  }
  CHECK(inner == static_cast<int>(events.size()));
}

TEST_CASE("a memory profile on the GPU names the lines that built the arrays", "[gpu][memory]") {
  loom::MemoryProfile profile;
  const Array x = loom::arange(1 << 20).astype(DType::Float32).eval();
  const unsigned line = __LINE__; const Array y = loom::tanh(x * 0.5f).eval();
  const unsigned line2 = __LINE__; const Array z = (y * y).eval();
  profile.stop();
  bool found = false, found2 = false;
  for (const auto& l : profile.lines()) {
    if (std::string(l.file).ends_with("test_memory_gpu.cpp") && l.line == line) {
      found = true;
      CHECK(l.used_bytes >= 4u << 20);
      CHECK(l.num_allocs == 1);
    }
    found2 |= l.line == line2 && l.used_bytes >= 4u << 20;
  }
  CHECK(found);
  CHECK(found2);
  CHECK_THAT(profile.to_string(), Catch::Matchers::Contains(fmt::format("test_memory_gpu.cpp:{}", line)));
}
