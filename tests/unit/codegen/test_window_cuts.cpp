// Issue 28, item 2 (DESIGN.md decision 14): fusion stops where recomputation costs more than a
// write. A subtree read through several windows that itself reads memory through several (a
// stencil of a stencil: a NumPy time loop written without eval) is materialized once; a kernel
// past its size bound cuts a node it computes more than once. Planning a 100-step literal loop is
// linear in the steps, each step one kernel, and explain says where it cut.

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include <loom/loom.hpp>

#include "exec/realize.hpp"
#include "support/test_support.hpp"

using loom::all;
using loom::Array;
using loom::DType;
using loom::none;
using loom::Slice;

namespace {

loom::exec::Prepared prepared(const Array& a) {
  const std::vector<loom::detail::NodeRef> nodes{a.node()};
  return loom::exec::prepare(nodes);
}

std::size_t max_values(const loom::exec::Prepared& p) {
  std::size_t m = 0;
  for (const auto& k : p.kernels) m = std::max(m, k.values.size());
  return m;
}

// One step of the heat loop as a NumPy user writes it (issue 28).
Array heat_step(const Array& u, bool hot) {
  const Slice in(1, -1);
  Array un = u.copy();
  Array u_ = u;
  un[{in, in}] = u_[{in, in}] + 0.2 * (u_[{Slice(2, none), in}] + u_[{Slice(none, -2), in}] + u_[{in, Slice(2, none)}] +
                                       u_[{in, Slice(none, -2)}] - 4 * u_[{in, in}]);
  un[{0, all}] = 100.0;
  un[{-1, all}] = 0.0;
  un[{all, 0}] = 0.0;
  un[{all, -1}] = 0.0;
  if (hot) un[{Slice(5, 9), Slice(5, 9)}] = 50.0;
  return un;
}

Array heat_start(std::int64_t n) {
  Array u = loom::zeros({n, n}, DType::Float32);
  u[{0, all}] = 100.0;
  return u;
}

}  // namespace

TEST_CASE("a literal time loop is cut once per step, planned in time linear in the steps", "[codegen][fusion]") {
  for (const bool hot : {false, true}) {
    for (const bool from_buffer : {false, true}) {
      CAPTURE(hot, from_buffer);
      Array u = heat_start(16);
      if (from_buffer) u = u.eval();
      const auto t0 = std::chrono::steady_clock::now();
      for (int step = 0; step < 100; ++step) u = heat_step(u, hot);
      const loom::exec::Prepared p = prepared(u);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // One kernel per step (the first step's start, built from generators, fuses into it).
      CHECK(p.kernels.size() == 100);
      CHECK(max_values(p) < 200);
      CHECK(s < 5.0);  // (exponential before: 6x the source per step)
      const std::string text = loom::explain_string({u});
      CHECK_THAT(text, Catch::Matchers::Contains("a stencil of a stencil"));
    }
  }
}

TEST_CASE("a literal time loop computes what the loop evaluated per step computes", "[codegen][fusion]") {
  Array lit = heat_start(12), per = heat_start(12);
  for (int step = 0; step < 20; ++step) {
    lit = heat_step(lit, true);
    per = heat_step(per, true).eval();
  }
  CHECK(lit.to_host<float>() == per.to_host<float>());
}

TEST_CASE("a stencil of a stencil is materialized, a stencil of elementwise work or of a pad is not",
          "[codegen][fusion]") {
  const Array x = loom::empty({4096}, DType::Float32);
  const auto taps = [](const Array& a, int k) {
    Array s = a[{Slice(0, a.size() - k + 1)}];
    for (int j = 1; j < k; ++j) s = s + a[{Slice(j, a.size() - k + 1 + j)}];
    return s;
  };
  // 5 taps of 5 taps: 25 reads an element if fused; cut.
  const Array z = taps(taps(x, 5), 5);
  CHECK(prepared(z).kernels.size() == 2);
  CHECK_THAT(loom::explain_string({z}), Catch::Matchers::Contains("a stencil of a stencil"));
  // 3 taps of 3 taps (a separable blur): 9 reads, one kernel; the third level is cut.
  CHECK(prepared(taps(taps(x, 3), 3)).kernels.size() == 1);
  // (Four levels: cut after the second, and possibly after the third too: a level's windows are
  // counted before the one below it is cut.)
  const std::size_t four = prepared(taps(taps(taps(taps(x, 3), 3), 3), 3)).kernels.size();
  CHECK((four == 2 || four == 3));
  const Array e = loom::exp(x);
  CHECK(prepared(e[{Slice(1, none)}] + e[{Slice(none, -1)}]).kernels.size() == 1);
  // A stencil over a pad: the pad's pieces read x under exclusive guards, one read per element.
  const Array m = loom::empty({64, 100}, DType::Float32);
  const Array p = loom::pad(m, 1, {.mode = "reflect"});
  const Slice in(1, -1), lo(0, -2), hi(2, none);
  CHECK(prepared(p[{lo, in}] + p[{hi, in}] + p[{in, lo}] + p[{in, hi}] - 4 * p[{in, in}]).kernels.size() == 1);
  // A single heat step of an evaluated grid stays one kernel.
  CHECK(prepared(heat_step(heat_start(32).eval(), true)).kernels.size() == 1);
}

TEST_CASE("nested piecewise reads past the kernel size bound are cut, not expanded", "[codegen][fusion]") {
  // A roll written as a concatenation of two slices, 24 times: each level reads the one below
  // under two exclusive guards (no stencil), doubling the kernel: 2^24 values uncut.
  Array x = loom::arange(1000).astype(DType::Float32).eval();
  Array r = x;
  for (int k = 0; k < 24; ++k) r = loom::concatenate({r[{Slice(3, none)}], r[{Slice(none, 3)}]});
  const auto t0 = std::chrono::steady_clock::now();
  const loom::exec::Prepared p = prepared(r);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 20.0);
  CHECK(p.kernels.size() >= 2);
  CHECK(max_values(p) <= 8192 + 64);
  CHECK_THAT(loom::explain_string({r}), Catch::Matchers::Contains("past its size bound"));
  std::vector<float> want(1000);
  for (int i = 0; i < 1000; ++i) want[static_cast<std::size_t>(i)] = static_cast<float>((i + 72) % 1000);
  CHECK(r.to_host<float>() == want);
}
