// Pipelines on the GPU: fused equals unfused bit for bit, multi-output kernels, long chains,
// the kernel caches (no recompile; the disk cache warm in a second process), the pool under a
// small limit, streams and devices.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::check_gpu;
using loom::test::device_of;

namespace loom::test {
void exec_poison_on();
}

namespace {

Array softplus(const Array& x) {
  return loom::maximum(0.0f, x) + loom::log1p(loom::exp(-loom::abs(x)));
}

Array chain12(const Array& x) {
  Array y = x * 1.5f + 0.25f;
  y = loom::sin(y) * loom::cos(x) - loom::tanh(y);
  y = loom::sqrt(loom::abs(y) + 1.0f) / (loom::exp(-y * y) + 2.0f);
  return loom::maximum(y, 0.1f);
}

// The same expression evaluated with fusion on and off: identical bits (no FMA contraction,
// float16 rounded after every op in both).
void check_fused_equals_unfused(const std::function<Array()>& make) {
  loom::test::exec_poison_on();
  const loom::ref::HostArray fused = device_of(make());
  loom::set_fusion(false);
  const loom::ref::HostArray unfused = device_of(make());
  loom::set_fusion(true);
  CHECK(loom::test::compare(fused, unfused, 0, 0) == "");
}

}  // namespace

namespace loom::test {
void exec_poison_on() { exec::set_poison_outputs(true); }
}  // namespace loom::test

TEST_CASE("fused equals unfused, bit for bit", "[gpu][fusion]") {
  std::mt19937_64 rng(5);
  for (DType t : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64}) {
    INFO(loom::name(t));
    const Array x = loom::test::random_array(t, {33, 1000}, rng);
    check_fused_equals_unfused([&] { return softplus(x); });
    check_fused_equals_unfused([&] { return chain12(x); });
    check_fused_equals_unfused([&] { return (x.T() * 3 + x.T().flip(0)).reshape({-1}); });
    CHECK(check_gpu(softplus(x)) == "");
    CHECK(check_gpu(chain12(x), t == DType::Float64 ? 1e-13 : 2e-5 * (loom::is_half(t) ? 300 : 1)) == "");
  }
  const Array i = loom::test::random_array(DType::Int32, {1000}, rng);
  check_fused_equals_unfused([&] { return (i * 7 + 3) % 11 - (i >> 2); });
}

TEST_CASE("several outputs in one plan: shared work computed once, values right", "[gpu][fusion]") {
  std::mt19937_64 rng(6);
  const Array x = loom::test::random_array(DType::Float32, {300, 70}, rng);
  loom::test::exec_poison_on();
  const Array e = loom::exp(x);
  const Array a = e + 1, b = e * x, c = (e.T() - 1).reshape({-1});
  const auto ra = loom::test::reference_of(a), rb = loom::test::reference_of(b),
             rc = loom::test::reference_of(c);
  loom::reset_cache_stats();
  loom::eval(a, b, c);
  CHECK(loom::cache_stats().launches == 3);  // e (shared by two shapes), {a, b}, c
  CHECK(loom::test::compare(device_of(a), ra) == "");
  CHECK(loom::test::compare(device_of(b), rb) == "");
  CHECK(loom::test::compare(device_of(c), rc) == "");
}

TEST_CASE("a loop of x = x + 1 without eval is cut and stays right", "[gpu][fusion]") {
  Array x = loom::zeros({1000}, DType::Float32);
  for (int i = 0; i < 2000; ++i) x = x + 1.0f;
  const std::vector<float> v = x.to_host<float>();
  CHECK(v.front() == 2000.0f);
  CHECK(v.back() == 2000.0f);
}

TEST_CASE("a repeated eval compiles nothing, other scalars and sizes reuse the kernel", "[gpu][cache]") {
  std::mt19937_64 rng(8);
  const Array x = loom::test::random_array(DType::Float32, {4096}, rng);
  const Array y = loom::test::random_array(DType::Float32, {777}, rng);
  (x * 0.5f + 2.0f).eval();
  loom::reset_cache_stats();
  (x * 0.25f + 7.0f).eval();
  (y * 3.0f - 1.0f).eval();  // not the same: subtract
  (y * 3.0f + 1.0f).eval();
  const loom::CacheStats s = loom::cache_stats();
  CHECK(s.compiles + s.disk_hits == 1);  // only the subtract version was new
  CHECK(s.memory_hits == 2);
  CHECK(check_gpu(y * 3.0f + 1.0f) == "");
}

// From the second eval of a structure on, its kernels launch as one-node CUDA graphs whose
// arguments are set on each call (runtime/module.hpp): each call's inputs, scalars, outputs and
// reduction scratch must reach the kernel, on the default stream and on another.
TEST_CASE("repeated evals replay a graph with each call's inputs, scalars and outputs", "[gpu][cache]") {
  using loom::test::compare;
  using loom::test::reference_of;
  std::mt19937_64 rng(9);
  std::vector<Array> xs;
  for (int i = 0; i < 6; ++i) xs.push_back(loom::test::random_array(DType::Float32, {1 << 20}, rng));
  const auto scaled = [&](int i) { return xs[i] * static_cast<float>(i + 1) + 0.5f; };
  const auto total = [&](int i) { return loom::sum(xs[i]); };  // split: tickets and partials
  const auto row_max = [&](int i) { return loom::max(xs[i].reshape({64, -1}), 1); };
  const loom::Stream other = loom::Stream::create();
  std::vector<Array> a, b, c;
  loom::reset_cache_stats();
  for (int i = 0; i < 6; ++i) {
    std::optional<loom::StreamGuard> on_other;
    if (i >= 4) on_other.emplace(other);
    a.push_back(scaled(i).eval());  // every result kept: each call writes a new buffer
    b.push_back(total(i).eval());
    c.push_back(row_max(i).eval());
  }
  CHECK(loom::cache_stats().memory_hits >= 15);  // calls 2..6 of each
  for (int i = 0; i < 6; ++i) {
    INFO("call " << i);
    CHECK(compare(device_of(a[i]), reference_of(scaled(i))) == "");
    CHECK(compare(device_of(b[i]), reference_of(total(i)), 1e-5, 4 * 1.2e-7 * 10 * (1 << 20)) == "");
    CHECK(compare(device_of(c[i]), reference_of(row_max(i)), 0, 0) == "");
  }
}

TEST_CASE("the disk cache is warm in a second process", "[gpu][cache]") {
  const char* self = std::getenv("LOOM_GPU_TESTS_SELF");
  REQUIRE(self != nullptr);  // set by gpu_main
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("loom-cache-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string cmd = "LOOM_CACHE_DIR=" + dir.string() + " LOOM_GPU_TEST_CHILD=disk " + self;
  const int first = std::system(cmd.c_str());
  const int second = std::system(cmd.c_str());
  std::filesystem::remove_all(dir);
  // The child exits 10 + (compiles > 0) * 1 + (disk_hits > 0) * 2 after a fixed workload.
  CHECK(WEXITSTATUS(first) == 11);   // compiled, nothing on disk yet
  CHECK(WEXITSTATUS(second) == 12);  // loaded from disk, compiled nothing
}

TEST_CASE("out of memory under a small pool limit throws, and the pool works afterwards", "[gpu][pool]") {
  const std::size_t old = loom::memory_limit();
  loom::free_all_cached();
  loom::set_memory_limit(64u << 20);
  REQUIRE_THROWS_MATCHES(loom::zeros({1 << 28}, DType::Float32).eval(), loom::OutOfMemory,
                         loom::test::WhatContains("out of memory"));
  const Array small = (loom::arange(1000).astype(DType::Float32) * 2).eval();
  CHECK(small.to_host<float>()[999] == 1998.0f);
  loom::set_memory_limit(old);
  const loom::MemoryStats st = loom::memory_stats();
  CHECK(st.num_ooms >= 1);
  CHECK(st.in_use_bytes >= 4000);
}

TEST_CASE("work on another stream, and a device guard", "[gpu][streams]") {
  loom::Device guard(0);
  const loom::Stream s = loom::Stream::create();
  {
    loom::StreamGuard sg(s);
    const Array a = (loom::arange(100000) * 3).eval();
    CHECK(loom::Stream::current() == s);
    CHECK(a.to_host<std::int64_t>()[99999] == 299997);
  }
  CHECK_FALSE(loom::Stream::current() == s);
  loom::Event e0, e1;
  e0.record();
  (loom::arange(1 << 20).astype(DType::Float32) + 1.0f).eval();
  e1.record();
  e1.synchronize();
  CHECK(e0.elapsed_ms(e1) >= 0.0f);
}

TEST_CASE("printing and reading values from the GPU", "[gpu][io]") {
  CHECK(loom::to_string(loom::arange(4) * 2) == "array([0, 2, 4, 6])");
  CHECK((loom::arange(10).reshape({2, 5})[{1, 3}]).item<std::int64_t>() == 8);
  CHECK((loom::arange(6).reshape({2, 3}).T()).to_host<std::int64_t>() == std::vector<std::int64_t>{0, 3, 1, 4, 2, 5});
  CHECK(loom::arange(3).eval().device().kind == loom::DeviceKind::GPU);
  const Array empty = loom::zeros({0, 3}, DType::Float32) + 1;
  CHECK(empty.to_host<float>().empty());
}
