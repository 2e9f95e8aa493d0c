// Region writes as Op::Place: a box-shaped write places its new values over the array; the kernel
// reads the piece only inside the box and the array only outside it (guarded reads, at pointers
// the loop passes), so a chain of writes (the heat step: a stencil and four boundaries) is one
// kernel that reads each element once. Places are never part of a reduction's kernel. Every
// kernel compiles with NVRTC (sm_90) with no warning.

#include <algorithm>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Slice;

namespace {

std::vector<loom::codegen::KernelPlan> plans(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes).kernels;
}

int guarded_leaves(const loom::codegen::KernelPlan& kp) {
  int n = 0;
  for (const auto& l : kp.leaves) n += l.guard >= 0;
  return n;
}

}  // namespace

TEST_CASE("a chain of region writes is one kernel that reads each piece only inside its box", "[codegen][place]") {
  const std::int64_t n = 7, m = 9;
  const Array u = (loom::arange(n * m).reshape({n, m}).astype(DType::Float64) * 0.5).eval();
  const Array v = loom::test::heat_step(u);
  const auto one = plans({v});
  REQUIRE(one.size() == 1);
  CHECK(guarded_leaves(one[0]) == 6);  // five stencil reads in the interior, u outside the writes
  // Each read's guard is its own box (or the box's outside for u), not a chain of the later
  // writes' masks: two guard values for the six reads.
  std::vector<int> guards;
  for (const auto& l : one[0].leaves) {
    if (l.guard >= 0 && std::find(guards.begin(), guards.end(), l.guard) == guards.end()) guards.push_back(l.guard);
  }
  CHECK(guards.size() == 2);
  CHECK(one[0].vec == 1);
  const std::string src = loom::codegen::emit_kernel(one[0]).text;
  CHECK_THAT(src, Catch::Matchers::Contains("? *in"));
  CHECK_THAT(src, Catch::Matchers::Contains("loom::zero<float>()") || Catch::Matchers::Contains("loom::zero<double>()"));
  CHECK_THAT(loom::explain_string({v}), Catch::Matchers::Contains("read only where it is placed"));
  // The values: the stencil inside, zeros on the boundary.
  const auto uh = u.to_host<double>();
  const auto vh = v.to_host<double>();
  const auto at = [&](std::int64_t i, std::int64_t j) { return uh[static_cast<std::size_t>(i * m + j)]; };
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) {
      const bool edge = i == 0 || j == 0 || i == n - 1 || j == m - 1;
      const double want = edge ? 0.0
                               : at(i, j) + 0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4 * at(i, j));
      CHECK(vh[static_cast<std::size_t>(i * m + j)] == Approx(want));
    }
  }
  // u keeps its values (arrays are values).
  CHECK(u.to_host<double>() == uh);
}

namespace {

// The kernel's source against tests/unit/codegen/golden/<name>.cu (LOOM_UPDATE_GOLDEN=1 rewrites it).
void check_golden(const std::vector<Array>& arrays, const std::string& name) {
  const auto kp = plans(arrays);
  REQUIRE(kp.size() == 1);
  const std::string got = loom::codegen::emit_kernel(kp[0]).text;
  const std::string path = std::string(LOOM_SOURCE_DIR) + "/tests/unit/codegen/golden/" + name + ".cu";
  if (std::getenv("LOOM_UPDATE_GOLDEN")) std::ofstream(path) << got;
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream want;
  want << in.rdbuf();
  CHECK(got == want.str());
}

}  // namespace

TEST_CASE("a piece read through a reshape in C order is read only inside its box", "[codegen][place]") {
  // The transposed b cannot be reshaped as a view: the reshape reads a copy of it in C order.
  // Its six elements fill the first piece of ten; elements 6..9 of a linear read would lie past
  // the copy's end.
  const Array b = loom::arange(6).astype(DType::Float32).reshape({2, 3}).eval();
  const Array x = (loom::arange(4).astype(DType::Float32) + 10).eval();
  const Array c = loom::concatenate({b.T().reshape({6}) * 2, x});
  const auto kp = plans({c});
  REQUIRE(kp.size() == 2);  // the copy, then the concatenation
  CHECK(guarded_leaves(kp[1]) == 2);
  for (const auto& l : kp[1].leaves) {
    if (l.kind == loom::codegen::LeafKind::Buffer) CHECK(l.guard >= 0);
  }
  CHECK(c.to_host<float>() == std::vector<float>{0, 6, 2, 8, 4, 10, 10, 11, 12, 13});
}

TEST_CASE("a region write's source matches the golden file", "[golden][place]") {
  Array x = loom::empty({64, 100}, DType::Float32);
  const Array keep = x;  // another handle: the write makes a new array
  x[{Slice(1, -1), Slice(2, 50)}] = keep[{Slice(0, -2), Slice(1, 49)}] * 2;
  check_golden({x}, "place_region_f32");
}

TEST_CASE("a concatenation's and a tile's sources match their golden files", "[golden][place]") {
  const Array a = loom::empty({8, 32}, DType::Float32), b = loom::empty({8, 16}, DType::Float32);
  // Three fused producers placed along axis 1: each read only in its columns.
  const Array c = loom::concatenate({a * 2, b + 1, loom::exp(a)}, 1);
  check_golden({c}, "concat_three_f32");
  // tile's index map: the output's dims split in (repeat, source extent), the source read with a
  // stride of 0 over the repeat (no division or modulo per element); roll: two placed views.
  check_golden({loom::tile(b, {3, 2}) + 1}, "tile_f32");
  check_golden({loom::roll(a, 5, 1) * 2}, "roll_f32");
}

TEST_CASE("writes into written regions, op= and broadcast values place pieces over pieces", "[codegen][place]") {
  const Array x = loom::arange(40).reshape({5, 8}).eval();
  Array y = x;
  y[{Slice(1, 4), Slice(2, 7)}] = loom::arange(5) * 100;        // a row broadcast over the box
  y[{Slice(2, 3), Slice(3, 5)}] += 1;                           // inside the first box
  y[{4, Slice(0, 8)}] -= x[{0}];                                // an integer index: a box of one row
  y[{loom::newaxis, 0, Slice(6, 8)}] = loom::full({1, 2}, -1);  // a new axis in the index
  REQUIRE(plans({y}).size() == 1);
  std::vector<std::int64_t> want(40);
  for (int k = 0; k < 40; ++k) want[static_cast<std::size_t>(k)] = k;
  for (int i = 1; i < 4; ++i) {
    for (int j = 2; j < 7; ++j) want[static_cast<std::size_t>(i * 8 + j)] = (j - 2) * 100;
  }
  want[2 * 8 + 3] += 1;
  want[2 * 8 + 4] += 1;
  for (int j = 0; j < 8; ++j) want[static_cast<std::size_t>(32 + j)] -= j;
  want[6] = want[7] = -1;
  CHECK(y.astype(DType::Int64).to_host<std::int64_t>() == want);
  // A step other than 1 is not a box: the write reads v at computed positions, still one kernel.
  Array z = x;
  z[{loom::all, Slice(0, 8, 3)}] = loom::arange(3).eval();
  const auto steps = plans({z});
  REQUIRE(steps.size() == 1);
  CHECK(guarded_leaves(steps[0]) == 0);
}

TEST_CASE("a region write is computed before a reduction reads it, and beside one", "[codegen][place]") {
  const Array x = loom::arange(24).reshape({4, 6}).astype(DType::Float64).eval();
  Array y = x;
  y[{Slice(1, 3), Slice(1, 5)}] = 0;
  // sum of the written array: the write is its own kernel, the reduction reads it.
  const Array s = loom::sum(y, 1);
  CHECK(plans({s}).size() == 2);
  CHECK(s.to_host<double>() == std::vector<double>{15, 6 + 11, 12 + 17, 18 + 19 + 20 + 21 + 22 + 23});
  // A write beside a reduction in one expression, and a reduction inside the written value.
  const Array t = y - loom::mean(x, 1, true);
  const auto tp = plans({t});
  CHECK(tp.size() == 2);
  for (const auto& kp : tp) {
    if (kp.reduce) CHECK(guarded_leaves(*kp.reduce->prologue) + guarded_leaves(kp) == 0);
  }
  Array w = x;
  w[{0}] = loom::sum(x, 0);
  CHECK(w.to_host<double>()[5] == 5 + 11 + 17 + 23);
  CHECK(t.to_host<double>()[0] == 0 - 2.5);
}

TEST_CASE("region write kernels compile for every dtype", "[codegen][place][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const auto add = [&](const Array& a) {
    for (const auto& kp : plans({a})) batch.add(loom::codegen::emit_kernel(kp));
  };
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::empty({40, 70}, t);
    Array y = x;
    y[{Slice(1, -1), Slice(2, 60)}] = x[{Slice(0, -2), Slice(1, 59)}];
    y[{3}] = loom::empty({70}, t);
    add(y);
    Array z = x.T();  // a strided base and piece
    z[{Slice(5, 9)}] = x.T()[{Slice(0, 4)}];
    add(z);
    if (!loom::is_bool(t)) {
      Array w = x;
      w[{Slice(0, 10), Slice(0, 10)}] += x[{Slice(10, 20), Slice(10, 20)}];
      add(w);
    }
  }
  INFO(batch.size() << " kernels");
  CHECK(batch.size() >= 30);
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}

TEST_CASE("placed pieces take vectors when their guards need no guarded read, broadcast rows run together", "[codegen][place]") {
  // Boxes along the inner dim: each vector's lanes compute their guards, then load or not.
  const Array a = loom::empty({8, 64}, DType::Float32), b = loom::empty({8, 32}, DType::Float32);
  auto kp = plans({loom::concatenate({a * 2, b, loom::exp(a)}, 1)});
  REQUIRE(kp.size() == 1);
  CHECK(kp[0].vec == 4);
  CHECK(loom::codegen::vector_guards(kp[0]));
  const std::string src = loom::codegen::emit_kernel(kp[0]).text;
  CHECK_THAT(src, Catch::Matchers::Contains("void guards(const Args& a, long long p0, bool& g0, bool& g1, bool& g2)"));
  CHECK_THAT(src, Catch::Matchers::Contains("if (g[0][0]) x"));
  // tile of a 16 MiB operand: its broadcast dims are visited fastest.
  const Array x = loom::empty({2048, 2048}, DType::Float32);
  kp = plans({loom::tile(x, {2, 2}) + 1});
  REQUIRE(kp.size() == 1);
  CHECK(kp[0].fast_rows != 0);
  const std::string tile_src = loom::codegen::emit_kernel(kp[0]).text;
  CHECK_THAT(tile_src, Catch::Matchers::Contains("const int orow = "));
  // A small operand stays in C order (L2 keeps it); so does a repeat along the inner dim.
  kp = plans({loom::tile(loom::empty({64, 512}, DType::Float32), {2, 2}) + 1});
  CHECK(kp[0].fast_rows == 0);
}
