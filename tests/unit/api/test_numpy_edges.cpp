// loom against NumPy 2.5's own answers on edge cases (tests/unit/api/numpy_edges.txt, made by
// tools/probe_numpy_edges.py): out-of-range integers in comparisons, clip and full; arange
// lengths; slices with extreme steps; shapes too big to address; round of bools; complex
// zero powers and products; reductions of 0-d arrays. Runs on the host evaluator (the GPU
// versions of the value cases are in tests/gpu/test_hardening_gpu.cpp).

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

#include <loom/loom.hpp>

#include "support/numpy_edges.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::check_like_numpy;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

Array u8() { return loom::asarray(std::vector<std::uint8_t>{0, 1, 255}); }
Array i8() { return loom::asarray(std::vector<std::int8_t>{-128, 0, 127}); }

Array compare(const std::string& op, const Array& a, const Array& b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  return a >= b;
}

}  // namespace

TEST_CASE("comparisons with C++ integers outside the dtype are exact, as NumPy 2's", "[numpy_edges]") {
  for (const std::string op : {"==", "!=", "<", "<=", ">", ">="}) {
    for (const auto& [nm, arr] : {std::pair{std::string("u8"), u8()}, std::pair{std::string("i8"), i8()}}) {
      for (std::int64_t v : {300, -1, 1000, -1000}) {
        const std::string vs = std::to_string(v);
        check_like_numpy(nm + " " + op + " " + vs, [&] { return compare(op, arr, Array(v)); });
        check_like_numpy(vs + " " + op + " " + nm, [&] { return compare(op, Array(v), arr); });
      }
    }
    const Array u64 = loom::asarray(std::vector<std::uint64_t>{0, std::numeric_limits<std::uint64_t>::max()});
    check_like_numpy("u64 " + op + " -1", [&] { return compare(op, u64, Array(-1)); });
    const Array i64 = loom::asarray(std::vector<std::int64_t>{kMin, kMax});
    check_like_numpy("i64 " + op + " 2**63", [&] { return compare(op, i64, Array(std::uint64_t{1} << 63)); });
  }
  check_like_numpy("equal(u8, 300)", [] { return loom::equal(u8(), 300); });
  // Every other op still refuses an integer that does not fit.
  check_like_numpy("maximum(u8, 300)", [] { return loom::maximum(u8(), 300); });
}

TEST_CASE("clip of integers by out-of-range bounds, as NumPy 2", "[numpy_edges]") {
  check_like_numpy("clip(i8, -5, 500)", [] { return loom::clip(i8(), -5, 500); });
  check_like_numpy("clip(i8, -500, 5)", [] { return loom::clip(i8(), -500, 5); });
  check_like_numpy("clip(i8, 1000, 2000)", [] { return loom::clip(i8(), 1000, 2000); });
  check_like_numpy("clip(u8, -1, 300)", [] { return loom::clip(u8(), -1, 300); });
  check_like_numpy("clip(u8, -10, -5)", [] { return loom::clip(u8(), -10, -5); });
  check_like_numpy("clip(i8, 5, -5)", [] { return loom::clip(i8(), 5, -5); });
  check_like_numpy("clip(i8, 1.5, 100)", [] { return loom::clip(i8(), 1.5, 100); });
}

TEST_CASE("round of bools and integers, as NumPy 2", "[numpy_edges]") {
  const Array b = loom::asarray(std::vector<std::uint8_t>{1, 0}).astype(DType::Bool);
  for (int d : {0, 1, 2, -1}) {
    check_like_numpy("round(bool, " + std::to_string(d) + ")", [&] { return loom::round(b, d); });
  }
  check_like_numpy("round(i8, -1)",
                   [] { return loom::round(loom::asarray(std::vector<std::int8_t>{15, 25, -15, 125}), -1); });
}

TEST_CASE("0 ** z of complex numbers, as NumPy 2", "[numpy_edges]") {
  using C = std::complex<double>;
  const double nan = std::nan(""), inf = HUGE_VAL;
  const std::vector<std::pair<std::string, C>> zs = {
      {"0", 0.0},        {"1", 1.0},           {"2", 2.0},           {"0.5", 0.5},
      {"-1", -1.0},      {"1j", C(0, 1)},      {"(-0-1j)", C(-0.0, -1)}, {"(1+1j)", C(1, 1)},
      {"(-1+1j)", C(-1, 1)}, {"(1-1j)", C(1, -1)}, {"0j", C(0, 0)},     {"(nan+0j)", C(nan, 0)},
      {"nanj", C(0, nan)}, {"(inf+0j)", C(inf, 0)}, {"(-0+0j)", C(-0.0, 0)}, {"(1e-30+0j)", C(1e-30, 0)}};
  for (const DType t : {DType::Complex64, DType::Complex128}) {
    const std::string dt(loom::name(t));
    for (const auto& [label, z] : zs) {
      check_like_numpy(dt + " 0**(" + label + ")", [&] {
        return loom::power(loom::zeros({1}, t), loom::asarray(std::vector<C>{z}).astype(t));
      });
    }
    check_like_numpy(dt + " 0**2 scalar", [&] { return loom::power(loom::zeros({1}, t), 2); });
    check_like_numpy(dt + " 0**0.5 scalar", [&] { return loom::power(loom::zeros({1}, t), 0.5); });
    check_like_numpy(dt + " 0**-1 scalar", [&] { return loom::power(loom::zeros({1}, t), -1); });
    check_like_numpy(dt + " 0**1j scalar", [&] { return loom::power(loom::zeros({1}, t), C(0, 1)); });
  }
}

TEST_CASE("complex products round as NumPy's multiply loop (FMA)", "[numpy_edges]") {
  const auto cases = loom::test::numpy_complex_products();
  REQUIRE(cases.size() >= 64);
  for (const auto& c : cases) {
    Array a, b;
    std::uint64_t re = 0, im = 0;
    if (c.dtype == DType::Complex64) {
      const auto f = [](std::uint64_t bits) {
        const auto u = static_cast<std::uint32_t>(bits);
        float v;
        std::memcpy(&v, &u, 4);
        return v;
      };
      a = loom::asarray(std::vector<std::complex<float>>{{f(c.ar), f(c.ai)}});
      b = loom::asarray(std::vector<std::complex<float>>{{f(c.br), f(c.bi)}});
      const auto p = (a * b).to_host<std::complex<float>>()[0];
      const float pr = p.real(), pi = p.imag();
      std::uint32_t ur, ui;
      std::memcpy(&ur, &pr, 4);
      std::memcpy(&ui, &pi, 4);
      re = ur;
      im = ui;
    } else {
      const auto d = [](std::uint64_t bits) {
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
      };
      a = loom::asarray(std::vector<std::complex<double>>{{d(c.ar), d(c.ai)}});
      b = loom::asarray(std::vector<std::complex<double>>{{d(c.br), d(c.bi)}});
      const auto p = (a * b).to_host<std::complex<double>>()[0];
      const double pr = p.real(), pi = p.imag();
      std::memcpy(&re, &pr, 8);
      std::memcpy(&im, &pi, 8);
    }
    INFO(loom::name(c.dtype) << " " << std::hex << c.ar << " " << c.ai << " * " << c.br << " " << c.bi);
    CHECK(re == c.re);
    CHECK(im == c.im);
  }
}

TEST_CASE("reductions of a 0-d array take axis 0 and -1 where NumPy's do", "[numpy_edges]") {
  const Array z = Array(3.5).astype(DType::Float64);
  using F = std::function<Array(const Array&, int)>;
  const std::vector<std::pair<std::string, F>> fns = {
      {"sum", [](const Array& a, int ax) { return loom::sum(a, ax); }},
      {"prod", [](const Array& a, int ax) { return loom::prod(a, ax); }},
      {"max", [](const Array& a, int ax) { return loom::max(a, ax); }},
      {"min", [](const Array& a, int ax) { return loom::min(a, ax); }},
      {"mean", [](const Array& a, int ax) { return loom::mean(a, ax); }},
      {"var", [](const Array& a, int ax) { return loom::var(a, ax); }},
      {"std", [](const Array& a, int ax) { return loom::std(a, ax); }},
      {"any", [](const Array& a, int ax) { return loom::any(a, ax); }},
      {"all", [](const Array& a, int ax) { return loom::all(a, ax); }},
      {"argmax", [](const Array& a, int ax) { return loom::argmax(a, ax); }},
      {"argmin", [](const Array& a, int ax) { return loom::argmin(a, ax); }},
      {"nanmax", [](const Array& a, int ax) { return loom::nanmax(a, ax); }},
      {"nansum", [](const Array& a, int ax) { return loom::nansum(a, ax); }},
      {"nanmean", [](const Array& a, int ax) { return loom::nanmean(a, ax); }},
      {"ptp", [](const Array& a, int ax) { return loom::ptp(a, ax); }},
      {"count_nonzero", [](const Array& a, int ax) { return loom::count_nonzero(a, ax); }},
      {"cumsum", [](const Array& a, int ax) { return loom::cumsum(a, ax); }},
  };
  for (const auto& [name, f] : fns) {
    for (int ax : {0, -1, 1, -2}) {
      check_like_numpy(name + "(0-d, axis=" + std::to_string(ax) + ")", [&] { return f(z, ax); });
    }
  }
  // A list of one axis is not an integer axis: NumPy's AxisError.
  check_like_numpy("sum(0-d, axis=(0,))", [&] { return loom::sum(z, loom::Axes{0}); });
  check_like_numpy("max(0-d, axis=(0,))", [&] { return loom::max(z, loom::Axes{0}); });
}

TEST_CASE("arange lengths, dtypes and errors, as NumPy 2", "[numpy_edges]") {
  const double inf = HUGE_VAL, nan = std::nan("");
  check_like_numpy("arange(0, 5, dtype=complex128)", [] {
    return loom::arange(loom::Scalar::of(0, true), loom::Scalar::of(5, true), loom::Scalar::of(1, true),
                        DType::Complex128);
  });
  check_like_numpy("arange(0.5, 3, 0.5, dtype=complex64)", [] {
    return loom::arange(loom::Scalar::of(0.5, true), loom::Scalar::of(3, true), loom::Scalar::of(0.5, true),
                        DType::Complex64);
  });
  check_like_numpy("arange(1, 2, 0.1, dtype=complex64)", [] {
    return loom::arange(loom::Scalar::of(1, true), loom::Scalar::of(2, true), loom::Scalar::of(0.1, true),
                        DType::Complex64);
  });
  check_like_numpy("arange(0.0, inf)", [&] { return loom::arange(0.0, inf); });
  check_like_numpy("arange(0.0, -inf, -1)", [&] { return loom::arange(0.0, -inf, -1.0); });
  check_like_numpy("arange(0.0, nan)", [&] { return loom::arange(0.0, nan); });
  check_like_numpy("arange(nan, 1.0)", [&] { return loom::arange(nan, 1.0); });
  check_like_numpy("arange(0.0, 1.0, nan)", [&] { return loom::arange(0.0, 1.0, nan); });
  check_like_numpy("arange(0.0, 1e300, 1e-300)", [] { return loom::arange(0.0, 1e300, 1e-300); });
  check_like_numpy("arange(0, 1e19)", [] { return loom::arange(0, 1e19); });
  check_like_numpy("arange(I64_MIN, I64_MAX)", [] { return loom::arange(kMin, kMax); });
  check_like_numpy("arange(0, I64_MAX, I64_MAX//2)", [] { return loom::arange(std::int64_t{0}, kMax, kMax / 2); });
  check_like_numpy("arange(I64_MAX, 0, -(I64_MAX//2))", [] { return loom::arange(kMax, std::int64_t{0}, -(kMax / 2)); });
  check_like_numpy("arange(I64_MIN, I64_MAX, 2**62)",
                   [] { return loom::arange(kMin, kMax, std::int64_t{1} << 62); });
  check_like_numpy("arange(0, 2**62)", [] { return loom::arange(std::int64_t{0}, std::int64_t{1} << 62); });
  check_like_numpy("arange(5, dtype=bool)", [] {
    return loom::arange(loom::Scalar::of(0, true), loom::Scalar::of(5, true), loom::Scalar::of(1, true), DType::Bool);
  });
  check_like_numpy("arange(2, dtype=bool)", [] {
    return loom::arange(loom::Scalar::of(0, true), loom::Scalar::of(2, true), loom::Scalar::of(1, true), DType::Bool);
  });
  check_like_numpy("arange(1.0, 0.0)", [] { return loom::arange(1.0, 0.0); });
}

TEST_CASE("full, eye and broadcast_to refuse what NumPy refuses", "[numpy_edges]") {
  check_like_numpy("full(2, 300, int8)", [] { return loom::full({2}, 300, DType::Int8); });
  check_like_numpy("full(2, -1, uint8)", [] { return loom::full({2}, -1, DType::UInt8); });
  check_like_numpy("full(2, 1.5, int8)", [] { return loom::full({2}, 1.5, DType::Int8); });
  check_like_numpy("full(2, 300, bool)", [] { return loom::full({2}, 300, DType::Bool); });
  check_like_numpy("full(2, 300, float16)", [] { return loom::full({2}, 300, DType::Float16); });
  REQUIRE_THROWS_MATCHES(loom::full_like(i8(), 300), loom::ValueError,
                         loom::test::WhatContains("Python integer 300 out of bounds for int8"));
  check_like_numpy("eye(3, -2)", [] { return loom::eye(3, -2); });
  check_like_numpy("eye(-1)", [] { return loom::eye(-1); });
  check_like_numpy("eye(3, 3, -5)", [] { return loom::eye(3, 3, -5); });
  check_like_numpy("broadcast_to((-3,))", [] { return loom::ones({1}).broadcast_to({-3}); });
  check_like_numpy("broadcast_to((2,-1))", [] { return loom::ones({1}).broadcast_to({2, -1}); });
}

TEST_CASE("shapes whose size or bytes pass int64 are refused, as NumPy does", "[numpy_edges]") {
  const std::int64_t big = std::int64_t{1} << 32;
  check_like_numpy("empty((2**32, 2**32))", [&] { return loom::empty({big, big}); });
  check_like_numpy("empty((2**62, 4))", [] { return loom::empty({std::int64_t{1} << 62, 4}); });
  check_like_numpy("zeros((3037000500, 3037000500))",
                   [] { return loom::zeros({3037000500, 3037000500}); });
  check_like_numpy("empty((0, 2**62, 2**62))",
                   [] { return loom::empty({0, std::int64_t{1} << 62, std::int64_t{1} << 62}); });
  check_like_numpy("ones(2**32).reshape(...)", [&] { return loom::ones({1}).reshape({big, big}); });
  // Every other way to a shape goes through the same check: host data, broadcasting, generators.
  const std::vector<float> none;
  REQUIRE_THROWS_MATCHES(loom::asarray(none, {big, big, 0}), loom::ValueError,
                         loom::test::WhatContains("array is too big"));
  REQUIRE_THROWS_MATCHES(loom::asarray(none, {big, big}), loom::ValueError,
                         loom::test::WhatContains("array is too big"));
  REQUIRE_THROWS_MATCHES(loom::zeros({big, 1}) + loom::zeros({1, big}), loom::ValueError,
                         loom::test::WhatContains("array is too big"));
  REQUIRE_THROWS_MATCHES(loom::ones({big}, DType::Float32).broadcast_to({big, big}), loom::ValueError,
                         loom::test::WhatContains("array is too big"));
  REQUIRE_THROWS_MATCHES(loom::eye(big * 4, big * 4), loom::ValueError, loom::test::WhatContains("array is too big"));
  REQUIRE_THROWS_MATCHES(loom::random::random({big, big}), loom::ValueError,
                         loom::test::WhatContains("array is too big"));
  // The largest sizes that fit are fine as lazy arrays (nothing is allocated until eval).
  const Array ok = loom::zeros({std::int64_t{1} << 40, std::int64_t{1} << 20}, DType::Int8);
  CHECK(ok.size() == std::int64_t{1} << 60);
  CHECK(loom::empty({0, big, big / 4}, DType::Int8).size() == 0);  // NumPy skips 0 extents too
}

TEST_CASE("slices with steps and bounds at the int64 limits, as Python's", "[numpy_edges]") {
  const Array x = loom::arange(5);
  using loom::none;
  using loom::Slice;
  check_like_numpy("x[::I64_MAX]", [&] { return x[Slice(none, none, kMax)]; });
  check_like_numpy("x[::I64_MIN]", [&] { return x[Slice(none, none, kMin)]; });
  check_like_numpy("x[I64_MIN:I64_MAX:I64_MAX]", [&] { return x[Slice(kMin, kMax, kMax)]; });
  check_like_numpy("x[I64_MAX:I64_MIN:I64_MIN]", [&] { return x[Slice(kMax, kMin, kMin)]; });
  check_like_numpy("x[1::I64_MAX]", [&] { return x[Slice(1, none, kMax)]; });
  check_like_numpy("x[-1::I64_MIN]", [&] { return x[Slice(-1, none, kMin)]; });
  check_like_numpy("x[I64_MIN::]", [&] { return x[Slice(kMin, none)]; });
  check_like_numpy("x[:I64_MIN:-1]", [&] { return x[Slice(none, kMin, -1)]; });
  check_like_numpy("x[I64_MAX::-1]", [&] { return x[Slice(kMax, none, -1)]; });
  check_like_numpy("x[::-I64_MAX]", [&] { return x[Slice(none, none, -kMax)]; });
  // The same views composed further (a huge step must not reach the strides).
  CHECK((x[Slice(none, none, kMin)] + 1).to_host<std::int64_t>() == std::vector<std::int64_t>{5});
  CHECK(x.reshape({5, 1})[{Slice(none, none, kMax), Slice(none, none, kMin)}].to_host<std::int64_t>() ==
        std::vector<std::int64_t>{0});
}

TEST_CASE("lstsq gives its rank as int32, as NumPy", "[numpy_edges]") {
  static_assert(std::is_same_v<decltype(loom::linalg::LstsqResult::rank), std::int32_t>);
  CHECK(loom::test::numpy_says("lstsq rank dtype") == "str 'int32'");
}

TEST_CASE("power by an exponent known when built is NumPy's fast path: 0.5 is sqrt", "[numpy_edges]") {
  for (const auto& [label, make] : loom::test::power_cases()) check_like_numpy(label, make, true);
  // The same for the exponent as a C++ integer on float32 (float32's loop with 2.0: x * x), and as
  // a one-element array made by full (a constant NumPy's loop also sees as one value).
  const Array f32 = loom::asarray(std::vector<float>{-HUGE_VALF, -0.0f, 3.0f});
  CHECK(loom::power(f32, 2).dtype() == DType::Float32);
  CHECK(loom::power(f32, 2).to_host<float>() == std::vector<float>{HUGE_VALF, 0.0f, 9.0f});
  const std::vector<float> root = loom::power(f32, loom::full({1}, 0.5f)).to_host<float>();
  CHECK(std::isnan(root[0]));
  CHECK(std::signbit(root[1]));
  // float16's loop is powf on every element (NumPy's generate_umath.py: TD('e', f='pow')): no fast
  // path, pow(-inf, 0.5) is inf and pow(-0.0, 0.5) is 0.0.
  const std::vector<float> half = loom::power(f32.astype(DType::Float16), 0.5).astype(DType::Float32).to_host<float>();
  CHECK(half[0] == HUGE_VALF);
  CHECK((half[1] == 0.0f && !std::signbit(half[1])));
  // Complex arrays are pow too: NumPy's (-4+0j) ** 0.5 is (1.2246467991473532e-16+2j), not 2j.
  const auto z = loom::power(loom::asarray(std::vector<std::complex<double>>{{-4.0, 0.0}}), 0.5).to_host<std::complex<double>>();
  CHECK(std::abs(z[0].real() - 1.2246467991473532e-16) < 1e-20);
  CHECK(std::abs(z[0].imag() - 2.0) < 1e-15);
  // Lowered to the op itself, which fuses as power did: one kernel, no pow in it.
  const Array x = loom::arange(10).astype(DType::Float32);
  const std::string src = (loom::power(x * 2.0f, 0.5) + 1.0f).source();
  CHECK_THAT(src, Catch::Matchers::Contains("sqrt"));
  CHECK_THAT(src, !Catch::Matchers::Contains("power"));
  CHECK_THAT(loom::power(x, -1.0).source(), Catch::Matchers::Contains("reciprocal"));
  CHECK_THAT(loom::power(x, 1.5).source(), Catch::Matchers::Contains("power"));
}
