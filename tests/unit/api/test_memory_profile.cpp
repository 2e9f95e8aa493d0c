// Memory hooks and line profiles without a GPU: the reference path's host buffers are reported
// as device -1, each allocation names the user's line that made the array's memory: the creation
// function that built it, or the eval, to_host or item that computed it.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include <loom/loom.hpp>
#include <loom/memory.hpp>

#include <fmt/format.h>

using loom::Array;
using loom::DType;
using loom::MemoryEvent;

namespace {

bool here(const MemoryEvent& e, unsigned line) {
  return e.where.line() == line && std::string(e.where.file_name()).ends_with("test_memory_profile.cpp");
}

}  // namespace

TEST_CASE("memory hooks see every allocation and free with the user's line", "[memory]") {
  std::vector<MemoryEvent> events;
  const unsigned made = __LINE__; const Array x = loom::asarray(std::vector<float>(1000, 1.0f));
  std::vector<MemoryEvent> created;
  {
    loom::MemoryHook hook([&](const MemoryEvent& e) { created.push_back(e); });
    const unsigned line = __LINE__; const Array w = loom::zeros({10, 10});
    const Array v = (w + 1).eval();  // w's node was built at `line`; the sum is computed here
    const Array u = w.eval();
    REQUIRE(created.size() == 2);
    CHECK(here(created[0], line + 1));
    CHECK(here(created[1], line));  // zeros' own node: the line that built it
    const unsigned again = __LINE__; const Array t = loom::asarray(std::vector<double>(7, 2.0));
    REQUIRE(created.size() == 3);
    CHECK(here(created[2], again));
    CHECK(created[2].requested_bytes == 56);
  }
  {
    loom::MemoryHook hook([&](const MemoryEvent& e) { events.push_back(e); });
    const unsigned built = __LINE__; Array y = loom::exp(x);
    y = y.eval();
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == MemoryEvent::Kind::Alloc);
    CHECK(events[0].requested_bytes == 4000);
    CHECK(events[0].rounded_bytes >= 4000);
    CHECK(events[0].ptr == y.data_ptr());
    CHECK(here(events[0], built + 1));  // computed arrays: the line that evaluated them
    const unsigned evaluated = __LINE__; const Array z = (y * 2.0f + 1.0f).eval();
    REQUIRE(events.size() == 2);
    CHECK(here(events[1], evaluated));
    const unsigned read = __LINE__; const float v = loom::sum(z - 1.0f).item<float>();
    (void)v;
    REQUIRE(events.size() == 4);  // the sum's buffer, freed with the temporary at the `;`
    CHECK(here(events[2], read));
    CHECK(events[3].kind == MemoryEvent::Kind::Free);
    CHECK(events[3].ptr == events[2].ptr);
    const std::size_t before = events.size();
    const void* p = y.data_ptr();
    y = Array();  // the last handle of exp's buffer
    REQUIRE(events.size() == before + 1);
    CHECK(events.back().kind == MemoryEvent::Kind::Free);
    CHECK(events.back().ptr == p);
    CHECK(events.back().requested_bytes == 4000);
  }
  const std::size_t after = events.size();
  (void)loom::exp(x).eval();
  CHECK(events.size() == after);  // the hook is gone
  (void)made;
}

TEST_CASE("memory hooks: a throwing callback is reported, not propagated", "[memory]") {
  int calls = 0;
  loom::MemoryHook bad([&](const MemoryEvent&) {
    ++calls;
    throw std::runtime_error("callback failed");
  });
  const Array a = loom::ones({4}).eval();
  CHECK(calls == 1);
  CHECK(a.to_host<double>() == std::vector<double>(4, 1.0));
}

TEST_CASE("memory hooks: a callback that allocates is not called for its own memory", "[memory]") {
  // The header says a callback may use loom: its allocations and frees are not reported again on
  // its thread (before, each one called the hook again, until the stack overflowed).
  std::vector<MemoryEvent::Kind> seen;
  std::vector<double> sums;
  loom::MemoryHook busy([&](const MemoryEvent& e) {
    seen.push_back(e.kind);
    sums.push_back(loom::ones({8}).eval().to_host<double>()[0]);  // allocates and frees
  });
  {
    const Array a = loom::zeros({4}).eval();
    CHECK(seen == std::vector<MemoryEvent::Kind>{MemoryEvent::Kind::Alloc});
  }
  CHECK(seen == std::vector<MemoryEvent::Kind>{MemoryEvent::Kind::Alloc, MemoryEvent::Kind::Free});
  CHECK(sums == std::vector<double>{1.0, 1.0});
  // A second hook sees the user's memory too, and not the first hook's.
  int others = 0;
  loom::MemoryHook counting([&](const MemoryEvent&) { ++others; });
  (void)loom::ones({4}).eval();
  CHECK(others == 2);
  CHECK(seen.size() == 4);
}

TEST_CASE("a memory profile attributes bytes to the lines that built the arrays", "[memory]") {
  loom::MemoryProfile profile;
  const unsigned big = __LINE__; const Array a = loom::zeros({1000, 100}, DType::Float64).eval();
  const unsigned small = __LINE__; const Array b = loom::arange(10).eval();
  Array c;
  for (int i = 0; i < 3; ++i) {
    const unsigned loop = __LINE__; c = loom::sqrt(a).eval();
    (void)loop;
  }
  profile.stop();
  (void)loom::ones({5}).eval();  // after stop: not counted
  const auto lines = profile.lines();
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].line == big + 4);  // the loop's line: three arrays of 800000 bytes
  CHECK(lines[0].used_bytes >= 3 * 800000);
  CHECK(lines[0].num_allocs == 3);
  CHECK(lines[1].line == big);
  CHECK(lines[1].used_bytes >= 800000);
  CHECK(lines[1].acquired_bytes == lines[1].used_bytes);  // host memory: all of it acquired
  CHECK(lines[2].line == small);
  CHECK(lines[2].num_allocs == 1);
  CHECK(std::string(lines[2].file).ends_with("test_memory_profile.cpp"));
  CHECK(lines[2].function.find("C_A_T_C_H") != std::string::npos);  // Catch's test function
  const std::string table = profile.to_string();
  CHECK_THAT(table, Catch::Matchers::Contains(fmt::format("test_memory_profile.cpp:{}", big)));
  CHECK_THAT(table, Catch::Matchers::Contains("total"));
  CHECK(table.find(fmt::format(":{}", big + 4)) < table.find(fmt::format(":{}", big)));  // largest first
}
