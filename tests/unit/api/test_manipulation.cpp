// Array manipulation (include/loom/manipulation.hpp) against NumPy's answers
// (manipulation_cases.txt, tools/gen_manipulation_cases.py): values, dtypes, shapes and errors
// with NumPy's wording; and the fusion each is built for: a concatenation of fused producers,
// tile, repeat, roll and pad feeding an op are one kernel.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/manipulation_cases.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;

namespace {

const std::string kCases = std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/manipulation_cases.txt";

std::size_t kernels_of(const Array& a) {
  const std::vector<loom::detail::NodeRef> nodes{a.node()};
  return loom::exec::prepare(nodes).kernels.size();
}

}  // namespace

TEST_CASE("array manipulation gives NumPy's values, dtypes and errors", "[manipulation]") {
  const auto [values, errors] = loom::test::check_numpy_table(kCases);
  CHECK(values > 130);
  CHECK(errors > 20);
}

TEST_CASE("the indexing functions give NumPy's values, dtypes and errors", "[indexing]") {
  const auto [values, errors] =
      loom::test::check_numpy_table(std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/indexing_function_cases.txt");
  CHECK(values > 50);
  CHECK(errors > 20);
}

TEST_CASE("pad's empty mode writes zeros and, as constant, extends empty axes", "[manipulation]") {
  // NumPy leaves the padded values undefined: only the shape, dtype and the copied values are
  // NumPy's; loom's zeros are one such undefined value.
  const Array a = loom::arange(6).reshape({2, 3}).astype(DType::Int16);
  const Array p = loom::pad(a, {{1, 0}, {2, 1}}, {.mode = "empty"});
  CHECK(p.shape() == loom::Shape{3, 6});
  CHECK(p.dtype() == DType::Int16);
  CHECK(p.astype(DType::Int64).to_host<std::int64_t>() == std::vector<std::int64_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 4, 5, 0});
  CHECK(loom::pad(loom::zeros({0}, DType::Float32), 2, {.mode = "empty"}).shape() == loom::Shape{4});
  CHECK_THROWS_WITH(loom::pad(loom::zeros({0}, DType::Float32), 2, {.mode = "edge"}),
                    "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
}

TEST_CASE("pad's statistics of stat_length 0 and widths past int64, as NumPy 2.5", "[manipulation][errors]") {
  using loom::test::WhatContains;
  // mean and median of no values: NaN (NumPy's RuntimeWarning), as NumPy gives them.
  const Array f = loom::arange(5).astype(DType::Float64);
  for (const char* mode : {"median", "mean"}) {
    INFO(mode);
    const std::vector<double> got = loom::pad(f, 2, {.mode = mode, .stat_length = 0}).to_host<double>();
    REQUIRE(got.size() == 9);
    for (std::size_t i : {0, 1, 7, 8}) CHECK(std::isnan(got[i]));
    CHECK(std::vector<double>(got.begin() + 2, got.begin() + 7) == std::vector<double>{0, 1, 2, 3, 4});
    // Into integers NaN is cast as NumPy's x86-64 builds cast it: int64 and int32 minimum, 0 for
    // the narrower types (NumPy 2.5 measured for int64; the others are the same instruction's answer).
    constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
    CHECK(loom::pad(loom::arange(5), 2, {.mode = mode, .stat_length = 0}).to_host<std::int64_t>() ==
          std::vector<std::int64_t>{kMin64, kMin64, 0, 1, 2, 3, 4, kMin64, kMin64});
    constexpr std::int32_t kMin32 = std::numeric_limits<std::int32_t>::min();
    CHECK(loom::pad(loom::arange(3).astype(DType::Int32), 1, {.mode = mode, .stat_length = 0}).to_host<std::int32_t>() ==
          std::vector<std::int32_t>{kMin32, 0, 1, 2, kMin32});
    CHECK(loom::pad(loom::arange(3).astype(DType::Int8), 1, {.mode = mode, .stat_length = 0}).to_host<std::int8_t>() ==
          std::vector<std::int8_t>{0, 0, 1, 2, 0});
    const std::vector<float> f32 = loom::pad(loom::ones({2, 2}, DType::Float32), {{0, 0}, {1, 0}},
                                             {.mode = mode, .stat_length = 0}).to_host<float>();
    CHECK((std::isnan(f32[0]) && std::isnan(f32[3]) && f32[1] == 1.0f));
  }
  for (const char* mode : {"maximum", "minimum"}) {
    CHECK_THROWS_MATCHES(loom::pad(f, 2, {.mode = mode, .stat_length = 0}), loom::ValueError,
                         WhatContains("stat_length of 0 yields no value for padding"));
  }
  // Widths whose padded extent passes int64: a ValueError, no signed overflow (NumPy: "negative
  // dimensions are not allowed" after its own wrap, or "array is too big").
  const Array x = loom::arange(3);
  const std::int64_t big = std::int64_t{1} << 62;
  for (const char* mode : {"constant", "edge", "reflect", "mean", "linear_ramp"}) {
    INFO(mode);
    CHECK_THROWS_MATCHES(loom::pad(x, big, {.mode = mode}), loom::ValueError,
                         WhatContains("pad: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                                      "possible size. (axis 0 of 3 padded by 4611686018427387904 and 4611686018427387904)"));
    CHECK_THROWS_MATCHES(loom::pad(x, {{0, big}}, {.mode = mode}), loom::ValueError,
                         WhatContains("pad: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                                      "possible size. (shape (4611686018427387907,), dtype int64)"));
  }
  CHECK_THROWS_MATCHES(loom::pad(x, std::numeric_limits<std::int64_t>::max()), loom::ValueError,
                       WhatContains("pad: array is too big"));
  CHECK_THROWS_MATCHES(loom::pad(loom::zeros({2, 2}), std::int64_t{1} << 31), loom::ValueError,
                       WhatContains("pad: array is too big"));
}

TEST_CASE("joins, tiles, rolls and pads fuse into the kernel that consumes them", "[manipulation]") {
  const Array a = loom::empty({1000}, DType::Float32), b = loom::empty({500}, DType::Float32);
  const Array c = loom::empty({250}, DType::Float64);
  // One kernel: each input read where it lands.
  CHECK(kernels_of(loom::concatenate({a * 2, b + 1, loom::exp(c)})) == 1);
  CHECK(kernels_of(loom::concatenate({a, b, a}) * 3) == 1);
  const Array m = loom::empty({64, 100}, DType::Float32);
  CHECK(kernels_of(loom::stack({m, m * 2, m + 1}, 1)) == 1);
  CHECK(kernels_of(loom::tile(m, {3, 2}) + 1) == 1);
  CHECK(kernels_of(loom::repeat(m, 3, 1) * 2) == 1);
  CHECK(kernels_of(loom::roll(m, 7, 1) - m) == 1);
  const Array p = loom::pad(m, 1, {.mode = "reflect"});
  const loom::Slice in(1, -1), lo(0, -2), hi(2, loom::none);
  CHECK(kernels_of(p[{lo, in}] + p[{hi, in}] + p[{in, lo}] + p[{in, hi}] - 4 * p[{in, in}]) == 1);
  CHECK(kernels_of(loom::pad(m, {{2, 3}, {1, 0}}, {.mode = "constant", .constant_value = 5})) == 1);
  // reflect_type "odd": NumPy's chunks, mirrored about the edges, joined: still one kernel.
  CHECK(kernels_of(loom::pad(m, {{2, 3}, {150, 1}}, {.mode = "symmetric", .reflect_type = "odd"}) * 2) == 1);
  CHECK_THROWS_MATCHES(loom::pad(m, 1, {.mode = "reflect", .reflect_type = "bad"}), loom::ValueError,
                       Catch::Matchers::Message("pad: reflect_type must be 'even' or 'odd', not 'bad'"));
  CHECK(kernels_of(loom::triu(m, 1) + loom::tril(m)) == 1);
  // A tile of a computed array reads it at the tiled positions: no copy first.
  CHECK(kernels_of(loom::tile(m * 2, {2, 2})) == 1);
  // explain shows the pieces read only where they land.
  CHECK_THAT(loom::explain_string({loom::concatenate({a * 2, b})}),
             Catch::Matchers::Contains("read only where it is placed"));
}

TEST_CASE("a concatenation of more than 8 evaluated arrays is one batched row copy", "[manipulation]") {
  const Array z = loom::arange(40 * 31).reshape({40, 31}).eval();
  std::vector<Array> cols;
  for (int k = 0; k < 20; ++k) cols.push_back(z[{loom::all, loom::Slice(k, k + 1 + k % 3)}]);
  const Array r = loom::concatenate(cols, 1);
  CHECK_THAT(loom::explain_string({r}), Catch::Matchers::Contains("loom copy rows (20 inputs, 40 row(s)), int64"));
  std::vector<std::int64_t> want;
  for (int i = 0; i < 40; ++i) {
    for (int k = 0; k < 20; ++k) {
      for (int j = k; j < k + 1 + k % 3; ++j) want.push_back(i * 31 + j);
    }
  }
  CHECK(r.to_host<std::int64_t>() == want);
  CHECK(r.shape() == loom::Shape{40, static_cast<std::int64_t>(want.size() / 40)});
  // One computed input: groups of 8 joined by kernels, no copy call.
  cols[3] = cols[3] * 2;
  CHECK_THAT(loom::explain_string({loom::concatenate(cols, 1)}), !Catch::Matchers::Contains("copy rows"));
  // Promotion first: the int32 inputs become int64 expressions (the kernels' path).
  std::vector<Array> mixed(9, z);
  mixed[0] = z.astype(DType::Int32).eval();
  const Array m = loom::concatenate(mixed);
  CHECK(m.dtype() == DType::Int64);
  CHECK(m.to_host<std::int64_t>() == loom::tile(z, {9, 1}).to_host<std::int64_t>());
  // stack copies the inputs as they are, on any axis.
  std::vector<Array> same(10, z);
  same[4] = z + 0;
  for (int ax : {0, 1, 2, -1}) {
    same[4] = same[4].eval();
    const Array s = loom::stack(same, ax);
    CHECK_THAT(loom::explain_string({s}), Catch::Matchers::Contains("loom copy rows (10 inputs"));
    same[4] = z + 0;  // a computed input: concatenation's placed pieces
    CHECK(s.to_host<std::int64_t>() == loom::stack(same, ax).to_host<std::int64_t>());
  }
  CHECK(loom::stack(same, 1).shape() == loom::Shape{40, 10, 31});
}

TEST_CASE("splits and re-views are views of the input", "[manipulation]") {
  const Array x = loom::arange(24).reshape({4, 6}).eval();
  for (const Array& part : loom::split(x, 3, 1)) CHECK(part.node()->op == loom::detail::Op::Buffer);
  CHECK(loom::diagonal(x).node()->op == loom::detail::Op::Buffer);  // a strided view of x's buffer
  CHECK(loom::diagonal(x).to_host<std::int64_t>() == std::vector<std::int64_t>{0, 7, 14, 21});
  CHECK(loom::moveaxis(x, 0, 1).node()->op == loom::detail::Op::Buffer);
  // The diagonal of a computed array is read from its C order.
  CHECK(loom::diagonal(x * 2, 1).to_host<std::int64_t>() == std::vector<std::int64_t>{2, 16, 30, 44});
  CHECK(loom::trace(x * 2).item<std::int64_t>() == 2 * (0 + 7 + 14 + 21));
  // Windows: a strided view of a buffer; of a computed array, a gather at the window positions.
  const Array w = loom::sliding_window_view(x, {2, 3});
  CHECK(w.node()->op == loom::detail::Op::Buffer);
  CHECK(w.shape() == loom::Shape{3, 4, 2, 3});
  const Array wc = loom::sliding_window_view(x * 1, {2, 3});
  CHECK(wc.node()->op != loom::detail::Op::Buffer);
  CHECK(wc.to_host<std::int64_t>() == w.to_host<std::int64_t>());
  CHECK(kernels_of(loom::sum(loom::sliding_window_view(x * 2, {3}, std::vector<std::int64_t>{1}), -1)) <= 2);
}

TEST_CASE("manipulation kernels compile for every dtype", "[manipulation][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const auto add = [&](const Array& a) {
    const std::vector<loom::detail::NodeRef> nodes{a.node()};
    for (const auto& kp : loom::exec::prepare(nodes).kernels) {
      batch.add(loom::codegen::emit_kernel(kp));
    }
  };
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array a = loom::empty({30, 70}, t), b = loom::empty({30, 5}, t);
    add(loom::concatenate({a, b, a.T().T()}, 1));
    add(loom::concatenate({a, b}, std::nullopt));
    add(loom::tile(a, {2, 3}));
    add(loom::repeat(b, 3, 1));
    add(loom::roll(a, 3, 1));
    add(loom::pad(a, 2, {.mode = "reflect"}));
    add(loom::triu(a));
    add(loom::diagonal(loom::concatenate({a, a})));
    add(loom::sliding_window_view(loom::concatenate({a, a}), {2, 3}));
  }
  INFO(batch.size() << " kernels");
  CHECK(batch.size() >= 100);
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}
