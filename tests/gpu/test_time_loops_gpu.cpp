// Issue 28, items 1 and 2, on the GPU: the heat-diffusion loop written as in NumPy (evaluated per
// step, with explain at step 1 and a sum every 10 steps; its variants; and literally, `u = un`
// with no eval) runs 100 steps at 1024^2 and gives the values a plain float32 loop gives. And
// items 3 and 5 where they meet the GPU: refused integer writes leave the buffer untouched (the
// in-place path too), and an out-of-bounds index in a dropped write raises at the next
// synchronization.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::all;
using loom::Array;
using loom::DType;
using loom::none;
using loom::Slice;
using loom::test::WhatContains;

namespace {

struct Variant {
  bool literal = false;  // u = un (no eval)
  bool show_plan = false;  // explain(u) at step 1
  bool hot = false;      // a fifth region write
  bool sums = true;      // u.sum().item() every 10 steps
};

// The loop; returns the grid after `steps` steps.
Array heat_loop(std::int64_t n, int steps, const Variant& v, std::vector<double>* energies) {
  auto u = loom::zeros({n, n}, DType::Float32);
  u[{0, all}] = 100.0;
  const Slice in(1, -1);
  for (int step = 1; step <= steps; ++step) {
    auto un = u.copy();
    un[{in, in}] = u[{in, in}] + 0.2 * (u[{Slice(2, none), in}] + u[{Slice(none, -2), in}] + u[{in, Slice(2, none)}] +
                                        u[{in, Slice(none, -2)}] - 4 * u[{in, in}]);
    un[{0, all}] = 100.0;
    un[{-1, all}] = 0.0;
    un[{all, 0}] = 0.0;
    un[{all, -1}] = 0.0;
    if (v.hot && n > 524) un[{Slice(500, 524), Slice(500, 524)}] = 50.0;
    u = v.literal ? Array(un) : un.eval();
    if (v.sums && step % 10 == 0 && energies) energies->push_back(u.sum().item<double>());
    if (step == 1 && v.show_plan) (void)loom::explain_string({u});
  }
  return u;
}

// The same in plain C++ float32, in NumPy's order of operations (alpha a weak scalar: float32).
std::vector<float> heat_host(std::int64_t n, int steps, bool hot) {
  const auto at = [n](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * n + j); };
  std::vector<float> u(static_cast<std::size_t>(n * n), 0.0f), un;
  for (std::int64_t j = 0; j < n; ++j) u[at(0, j)] = 100.0f;
  for (int step = 0; step < steps; ++step) {
    un = u;
    for (std::int64_t i = 1; i < n - 1; ++i) {
      for (std::int64_t j = 1; j < n - 1; ++j) {
        const float s = u[at(i + 1, j)] + u[at(i - 1, j)] + u[at(i, j + 1)] + u[at(i, j - 1)];
        un[at(i, j)] = u[at(i, j)] + 0.2f * (s - 4.0f * u[at(i, j)]);
      }
    }
    // The four writes in the loop's order (the corners take the last).
    for (std::int64_t k = 0; k < n; ++k) un[at(0, k)] = 100.0f;
    for (std::int64_t k = 0; k < n; ++k) un[at(n - 1, k)] = 0.0f;
    for (std::int64_t k = 0; k < n; ++k) un[at(k, 0)] = 0.0f;
    for (std::int64_t k = 0; k < n; ++k) un[at(k, n - 1)] = 0.0f;
    if (hot && n > 524) {
      for (std::int64_t i = 500; i < 524; ++i) {
        for (std::int64_t j = 500; j < 524; ++j) un[at(i, j)] = 50.0f;
      }
    }
    u.swap(un);
  }
  return u;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("the NumPy heat loop runs 100 steps at 1024^2 in each variant, with the host's values",
          "[gpu][hardening][loops]") {
  const std::int64_t n = 1024;
  const std::vector<float> want_cold = heat_host(n, 100, false), want_hot = heat_host(n, 100, true);
  const std::vector<Variant> variants = {
      {false, true, false, true},  {false, false, false, true}, {false, true, true, true},
      {false, false, true, false}, {true, false, false, true},  {true, true, true, true},
  };
  for (const Variant& v : variants) {
    CAPTURE(v.literal, v.show_plan, v.hot, v.sums);
    std::vector<double> energies;
    const auto t0 = std::chrono::steady_clock::now();
    const Array u = heat_loop(n, 100, v, &energies);
    const std::vector<float> got = u.to_host<float>();
    const double s = seconds_since(t0);
    std::printf("heat loop literal=%d explain=%d hot=%d sums=%d: 100 steps at 1024^2 in %.3f s\n", v.literal,
                v.show_plan, v.hot, v.sums, s);
    CHECK(s < 30.0);  // a hang guard (the loop did not finish 5 steps in 20 s); speed: bench
    const std::vector<float>& want = v.hot ? want_hot : want_cold;
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (std::abs(got[i] - want[i]) <= 1e-4f * (1.0f + std::abs(want[i]))) continue;
      if (bad++ < 5) {
        std::printf("  element (%zu, %zu): got %.9g, want %.9g\n", i / static_cast<std::size_t>(n),
                    i % static_cast<std::size_t>(n), got[i], want[i]);
      }
    }
    CHECK(bad == 0);
    if (v.sums) CHECK(energies.size() == 10);
  }
}

TEST_CASE("a literal heat loop gives the bits of the loop evaluated per step", "[gpu][hardening][loops]") {
  for (const bool hot : {false, true}) {
    for (const bool sums : {false, true}) {
      for (const int steps : {1, 2, 9, 10, 11, 20, 37}) {
        CAPTURE(hot, sums, steps);
        Variant per, lit;
        per.hot = lit.hot = hot;
        per.sums = lit.sums = sums;
        lit.literal = true;
        std::vector<double> ea, eb;
        const std::vector<float> a = heat_loop(600, steps, per, &ea).to_host<float>();
        const std::vector<float> b = heat_loop(600, steps, lit, &eb).to_host<float>();
        std::size_t bad = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
          if (a[i] == b[i]) continue;
          if (bad++ < 3) std::printf("  hot=%d sums=%d steps=%d (%zu, %zu): per-step %.9g, literal %.9g\n", hot, sums,
                                     steps, i / 600, i % 600, a[i], b[i]);
        }
        CHECK(bad == 0);
        CHECK(ea == eb);
      }
    }
  }
}

TEST_CASE("refused integer writes leave the GPU buffer as it was, in place or not", "[gpu][hardening][writes]") {
  Array x = loom::arange(8).astype(DType::Int8).eval();  // evaluated and unshared: writes go in place
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] = 300), loom::ValueError, WhatContains("Python integer 300 out of bounds for int8"));
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] += 1.5), loom::DTypeError, WhatContains("casting rule 'same_kind'"));
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] = 1e10), loom::ValueError, WhatContains("out of bounds for int8"));
  x[{Slice(1, 3)}] = 100.7;  // truncated, as Python's int()
  CHECK(x.to_host<std::int8_t>() == std::vector<std::int8_t>{0, 100, 100, 3, 4, 5, 6, 7});
  Array y = loom::zeros({4}, DType::Int64).eval();
  REQUIRE_THROWS_MATCHES((y[{0}] = std::nan("")), loom::ValueError, WhatContains("cannot convert float NaN to integer"));
  CHECK(y.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 0, 0, 0});
}

TEST_CASE("an out-of-bounds index in a write nothing evaluates raises at the next synchronization",
          "[gpu][hardening][writes]") {
  const Array bad = loom::asarray(std::vector<std::int64_t>{1, 5});
  const auto dropped = [&](const std::function<void(Array&)>& write, const std::function<void()>& sync) {
    Array z = loom::zeros({2});
    write(z);
    z = loom::zeros({2});
    sync();
  };
  const auto oob = WhatContains("index 5 is out of bounds for axis 0 with size 2");
  const std::function<void()> syncs[] = {[] { loom::synchronize(); },
                                         [] { (void)loom::ones({3}).to_host<double>(); },
                                         [] { (void)loom::arange(4).sum().item<std::int64_t>(); }};
  for (const auto& sync : syncs) {
    REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { z[{loom::Index(bad)}] = 1.0; }, sync), loom::IndexError, oob);
    REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { loom::add_at(z, loom::Index(bad), 1.0); }, sync), loom::IndexError, oob);
    REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { loom::put(z, bad, 2.0); }, sync), loom::IndexError,
                           WhatContains("out of bounds"));
    // Reported once: the next synchronization is clean.
    loom::synchronize();
  }
  // An evaluated write reports through its own kernel, once.
  Array z = loom::zeros({2});
  z[{loom::Index(bad)}] = 1.0;
  z = z.eval();
  REQUIRE_THROWS_MATCHES(loom::synchronize(), loom::IndexError, oob);
  loom::synchronize();
  // In-bounds dropped writes raise nothing.
  Array w = loom::zeros({2});
  w[{loom::Index(loom::asarray(std::vector<std::int64_t>{1, -2}))}] = 1.0;
  w = loom::zeros({2});
  loom::synchronize();
  CHECK(loom::ones({2}).to_host<double>() == std::vector<double>{1.0, 1.0});
}
