// The host reference functions (lib/reference/host_ops.hpp) against facts NumPy 2 gives.

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include <loom/dtype.hpp>

#include "reference/host_ops.hpp"

using namespace loom;
using cd = std::complex<double>;
using cf = std::complex<float>;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <class T> constexpr T lo = std::numeric_limits<T>::min();
template <class T> constexpr T hi = std::numeric_limits<T>::max();

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Every functor compiles for every dtype's host type (the evaluator's dtype switch needs it).
template <class F, int arity> void instantiate_for_all_dtypes() {
  for (int d = 0; d < kNumDTypes; ++d) {
    visit_dtype(static_cast<DType>(d), []<class T>() {
      const T x{};
      if constexpr (arity == 1) (void)F{}(x);
      else if constexpr (arity == 2) (void)F{}(x, x);
      else if constexpr (std::is_same_v<F, ref::CheckIndex> && std::is_integral_v<T> && !std::is_same_v<T, bool>)
        CHECK_THROWS_AS(F{}(x, x, x), IndexError);  // index 0 of an extent of 0
      else (void)F{}(x, x, x);
      return 0;
    });
  }
}

}  // namespace

TEST_CASE("every ops.def row has a functor that compiles for every dtype", "[host_ops]") {
#define LOOM_OP(e, name, arity, rule, cost, cuda, cuda_int) instantiate_for_all_dtypes<ref::e, arity>();
#include "graph/ops.def"
#undef LOOM_OP
  for (int to = 0; to < kNumDTypes; ++to) {
    visit_dtype(static_cast<DType>(to), []<class To>() {
      for (int from = 0; from < kNumDTypes; ++from) {
        visit_dtype(static_cast<DType>(from), []<class From>() { return (void)ref::cast_value<To>(From{}), 0; });
      }
      return 0;
    });
  }
  // Result types: predicates are bool, Abs / Real / Imag of a complex its real type.
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Abs{}(cd{})), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Real{}(cf{})), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Imag{}(cd{})), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Less{}(cd{}, cd{})), bool>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::IsNan{}(1.0f)), bool>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Add{}(std::int8_t{}, std::int8_t{})), std::int8_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(ref::Sqrt{}(half{})), half>);
  // A type the promotion rules never send to an op gets a zero, not an error.
  CHECK(ref::Sqrt{}(4) == 0);
  CHECK(ref::FloorDiv{}(cd(7, 1), cd(2, 0)) == cd(0, 0));
}

TEST_CASE("integer arithmetic wraps and bool adds as or", "[host_ops]") {
  CHECK(ref::Add{}(std::int8_t{127}, std::int8_t{1}) == -128);
  CHECK(ref::Add{}(std::uint8_t{255}, std::uint8_t{1}) == 0);
  CHECK(ref::Add{}(hi<std::int64_t>, std::int64_t{1}) == lo<std::int64_t>);
  CHECK(ref::Sub{}(lo<std::int32_t>, 1) == hi<std::int32_t>);
  CHECK(ref::Mul{}(std::uint16_t{65535}, std::uint16_t{65535}) == 1);
  CHECK(ref::Mul{}(hi<std::int64_t>, std::int64_t{2}) == -2);
  CHECK(ref::Neg{}(lo<std::int32_t>) == lo<std::int32_t>);
  CHECK(ref::Neg{}(std::uint8_t{1}) == 255);
  CHECK(ref::Square{}(std::int8_t{16}) == 0);
  CHECK(ref::Add{}(true, true) == true);
  CHECK(ref::Mul{}(true, false) == false);
  CHECK(ref::Abs{}(lo<std::int32_t>) == lo<std::int32_t>);
  CHECK(ref::Abs{}(std::int8_t{-128}) == -128);
  CHECK(ref::Abs{}(std::int16_t{-5}) == 5);
  CHECK(ref::Invert{}(std::int8_t{0}) == -1);
  CHECK(ref::Invert{}(std::uint8_t{1}) == 254);
  CHECK(ref::Invert{}(true) == false);
  CHECK(ref::Sign{}(std::int8_t{-5}) == -1);
  CHECK(ref::Sign{}(std::uint8_t{5}) == 1);
  CHECK(ref::Sign{}(0) == 0);
  CHECK(ref::Reciprocal{}(0) == 0);
  CHECK(ref::Reciprocal{}(2) == 0);
  CHECK(ref::Reciprocal{}(-1) == -1);
  CHECK(ref::Reciprocal{}(std::uint32_t{1}) == 1);
}

TEST_CASE("floor_divide and remainder follow Python", "[host_ops]") {
  CHECK(ref::FloorDiv{}(-7, 2) == -4);
  CHECK(ref::FloorDiv{}(7, -2) == -4);
  CHECK(ref::FloorDiv{}(7, 2) == 3);
  CHECK(ref::Remainder{}(-7, 2) == 1);
  CHECK(ref::Remainder{}(7, -2) == -1);
  CHECK(ref::Remainder{}(-7, -2) == -1);
  CHECK(ref::FloorDiv{}(std::int8_t{-128}, std::int8_t{-1}) == -128);
  CHECK(ref::Remainder{}(std::int8_t{-128}, std::int8_t{-1}) == 0);
  CHECK(ref::FloorDiv{}(lo<std::int64_t>, std::int64_t{-1}) == lo<std::int64_t>);
  CHECK(ref::FloorDiv{}(std::uint8_t{200}, std::uint8_t{7}) == 28);
  CHECK(ref::Remainder{}(std::uint8_t{200}, std::uint8_t{7}) == 4);
  // x // 0 == 0 and x % 0 == 0 for every integer type.
  CHECK(ref::FloorDiv{}(std::int8_t{5}, std::int8_t{0}) == 0);
  CHECK(ref::FloorDiv{}(std::int64_t{-5}, std::int64_t{0}) == 0);
  CHECK(ref::FloorDiv{}(std::uint16_t{5}, std::uint16_t{0}) == 0);
  CHECK(ref::Remainder{}(std::int32_t{5}, 0) == 0);
  CHECK(ref::Remainder{}(std::uint64_t{5}, std::uint64_t{0}) == 0);

  CHECK(ref::FloorDiv{}(-7.0, 2.0) == -4.0);
  CHECK(ref::Remainder{}(-7.5, 2.0) == 0.5);
  CHECK(ref::Remainder{}(7.5, -2.0) == -0.5);
  CHECK(ref::FloorDiv{}(1.0, 0.1) == 9.0);  // 0.1 is a little above 1/10
  CHECK(ref::Remainder{}(1.0, 0.1) == 0.09999999999999995);
  CHECK(ref::FloorDiv{}(1.0, 0.0) == kInf);
  CHECK(std::isnan(ref::FloorDiv{}(0.0, 0.0)));
  CHECK(std::isnan(ref::Remainder{}(1.0, 0.0)));
  CHECK(same_bits(ref::FloorDiv{}(0.0, -1.0), -0.0));
  CHECK(same_bits(ref::Remainder{}(4.0, -2.0), -0.0));
  CHECK(same_bits(ref::Remainder{}(-4.0, 2.0), 0.0));
  CHECK(ref::Remainder{}(-5.0, kInf) == kInf);
  CHECK(ref::Remainder{}(5.0, kInf) == 5.0);
  CHECK(ref::FloorDiv{}(-7.0f, 2.0f) == -4.0f);
  CHECK(float(ref::Remainder{}(half(-7.5f), half(2.0f))) == 0.5f);
}

TEST_CASE("power: integers by squaring with wrap-around, complex as npy_cpow", "[host_ops]") {
  CHECK(ref::Power{}(2, 10) == 1024);
  CHECK(ref::Power{}(0, 0) == 1);
  CHECK(ref::Power{}(std::int8_t{2}, std::int8_t{7}) == -128);
  CHECK(ref::Power{}(std::int64_t{2}, std::int64_t{63}) == lo<std::int64_t>);
  CHECK(ref::Power{}(std::int64_t{2}, std::int64_t{64}) == 0);
  CHECK(ref::Power{}(std::uint8_t{3}, std::uint8_t{5}) == 243);
  CHECK(ref::Power{}(std::uint8_t{2}, std::uint8_t{8}) == 0);
  CHECK(ref::Power{}(3, 40) == static_cast<std::int32_t>(12157665459056928801ull & 0xffffffffu));
  CHECK(ref::Power{}(-3, 3) == -27);
  // Negative exponents (NumPy raises; a kernel cannot).
  CHECK(ref::Power{}(1, -5) == 1);
  CHECK(ref::Power{}(-1, -3) == -1);
  CHECK(ref::Power{}(-1, -4) == 1);
  CHECK(ref::Power{}(2, -1) == 0);
  CHECK(ref::Power{}(2.0, 0.5) == std::sqrt(2.0));

  CHECK(ref::Power{}(cd(1, 1), cd(2, 0)) == cd(0, 2));
  CHECK(ref::Power{}(cd(1, 1), cd(-1, 0)) == cd(0.5, -0.5));
  CHECK(ref::Power{}(cd(2, 3), cd(0, 0)) == cd(1, 0));
  CHECK(ref::Power{}(cd(0, 0), cd(2, 1)) == cd(0, 0));
  const cd nan_power = ref::Power{}(cd(0, 0), cd(-1, 0));
  CHECK((std::isnan(nan_power.real()) && std::isnan(nan_power.imag())));
  const cd r = ref::Power{}(cd(2, 0), cd(0.5, 0));
  CHECK(r.real() == Approx(std::sqrt(2.0)));
  CHECK(r.imag() == Approx(0.0).margin(1e-15));
  const cd p = ref::Power{}(cd(1.5, -0.5), cd(7, 0));
  const cd expected = std::pow(cd(1.5, -0.5), 7);
  CHECK(p.real() == Approx(expected.real()));
  CHECK(p.imag() == Approx(expected.imag()));
}

TEST_CASE("maximum propagates NaN, fmax ignores it", "[host_ops]") {
  CHECK(std::isnan(ref::Maximum{}(kNan, 1.0)));
  CHECK(std::isnan(ref::Maximum{}(1.0, kNan)));
  CHECK(std::isnan(ref::Minimum{}(1.0f, std::numeric_limits<float>::quiet_NaN())));
  CHECK(ref::Fmax{}(kNan, 1.0) == 1.0);
  CHECK(ref::Fmax{}(1.0, kNan) == 1.0);
  CHECK(ref::Fmin{}(kNan, -1.0) == -1.0);
  CHECK(std::isnan(ref::Fmax{}(kNan, kNan)));
  CHECK(ref::Maximum{}(std::int8_t{-3}, std::int8_t{2}) == 2);
  CHECK(ref::Minimum{}(std::uint64_t{3}, std::uint64_t{2}) == 2);
  CHECK(ref::Fmax{}(true, false) == true);
  // Complex: lexicographic, a NaN part counts as NaN.
  CHECK(ref::Maximum{}(cd(1, 5), cd(2, 0)) == cd(2, 0));
  CHECK(ref::Maximum{}(cd(1, 5), cd(1, 6)) == cd(1, 6));
  CHECK(std::isnan(ref::Maximum{}(cd(1, 0), cd(0, kNan)).imag()));
  CHECK(std::isnan(ref::Minimum{}(cd(kNan, 0), cd(0, 0)).real()));
  CHECK(ref::Fmax{}(cd(1, 0), cd(0, kNan)) == cd(1, 0));
  CHECK(ref::Fmin{}(cd(kNan, 0), cd(3, 0)) == cd(3, 0));
}

TEST_CASE("sign, rint, rounding and predicates", "[host_ops]") {
  const double s = ref::Sign{}(-0.0);
  CHECK(s == 0.0);
  CHECK_FALSE(std::signbit(s));
  CHECK(ref::Sign{}(-3.5) == -1.0);
  CHECK(ref::Sign{}(2.0f) == 1.0f);
  CHECK(std::isnan(ref::Sign{}(kNan)));
  CHECK(ref::Sign{}(cd(3, 4)) == cd(0.6, 0.8));
  CHECK(ref::Sign{}(cd(0, 0)) == cd(0, 0));
  CHECK(ref::Sign{}(cd(-kInf, 1)) == cd(-1, 0));
  CHECK(ref::Sign{}(cd(2, kInf)) == cd(0, 1));

  CHECK(ref::Rint{}(2.5) == 2.0);
  CHECK(ref::Rint{}(3.5) == 4.0);
  CHECK(ref::Rint{}(-2.5) == -2.0);
  CHECK(ref::Rint{}(0.5f) == 0.0f);
  CHECK(ref::Rint{}(cd(2.5, 3.5)) == cd(2, 4));
  CHECK(ref::Floor{}(-1.5) == -2.0);
  CHECK(ref::Ceil{}(-1.5) == -1.0);
  CHECK(ref::Trunc{}(-1.5) == -1.0);
  CHECK(ref::Floor{}(std::int16_t{-7}) == -7);

  CHECK(ref::IsNan{}(cd(0, kNan)));
  CHECK(ref::IsInf{}(cd(-kInf, kNan)));
  CHECK_FALSE(ref::IsFinite{}(cd(1, kInf)));
  CHECK(ref::IsFinite{}(cd(1, 2)));
  CHECK_FALSE(ref::IsNan{}(7));
  CHECK(ref::IsFinite{}(std::uint8_t{7}));
  CHECK(ref::IsInf{}(half::from_bits(0x7c00)));
}

TEST_CASE("shifts out of range give 0 or -1", "[host_ops]") {
  CHECK(ref::LeftShift{}(std::int64_t{1}, std::int64_t{70}) == 0);
  CHECK(ref::LeftShift{}(std::int64_t{1}, std::int64_t{63}) == lo<std::int64_t>);
  CHECK(ref::LeftShift{}(std::int8_t{1}, std::int8_t{7}) == -128);
  CHECK(ref::LeftShift{}(std::int8_t{1}, std::int8_t{8}) == 0);
  CHECK(ref::LeftShift{}(std::int32_t{1}, std::int32_t{-1}) == 0);
  CHECK(ref::LeftShift{}(std::uint16_t{0xffff}, std::uint16_t{4}) == 0xfff0);
  CHECK(ref::RightShift{}(std::int8_t{-8}, std::int8_t{10}) == -1);
  CHECK(ref::RightShift{}(std::int8_t{-8}, std::int8_t{2}) == -2);
  CHECK(ref::RightShift{}(std::int8_t{8}, std::int8_t{10}) == 0);
  CHECK(ref::RightShift{}(std::int32_t{8}, std::int32_t{-1}) == 0);
  CHECK(ref::RightShift{}(std::uint8_t{200}, std::uint8_t{9}) == 0);
  CHECK(ref::RightShift{}(std::uint64_t{1} << 63, std::uint64_t{63}) == 1);
}

TEST_CASE("casts: saturating float to int, real part of complex, direct rounding to 16 bits", "[host_ops]") {
  CHECK(ref::cast_value<std::int32_t>(kNan) == 0);
  CHECK(ref::cast_value<std::uint8_t>(std::numeric_limits<float>::quiet_NaN()) == 0);
  CHECK(ref::cast_value<std::int32_t>(1e10) == hi<std::int32_t>);
  CHECK(ref::cast_value<std::int32_t>(-1e10) == lo<std::int32_t>);
  CHECK(ref::cast_value<std::int32_t>(2147483648.0f) == hi<std::int32_t>);
  CHECK(ref::cast_value<std::int64_t>(1e300) == hi<std::int64_t>);
  CHECK(ref::cast_value<std::int64_t>(-kInf) == lo<std::int64_t>);
  CHECK(ref::cast_value<std::uint64_t>(18446744073709551616.0) == hi<std::uint64_t>);
  CHECK(ref::cast_value<std::uint8_t>(-1.5) == 0);
  CHECK(ref::cast_value<std::uint8_t>(300.0) == 255);
  CHECK(ref::cast_value<std::int8_t>(-200.0f) == -128);
  CHECK(ref::cast_value<std::int32_t>(3.7) == 3);
  CHECK(ref::cast_value<std::int32_t>(-3.7) == -3);
  CHECK(ref::cast_value<std::int16_t>(half(-2.5f)) == -2);
  // Integers wrap; bool is != 0.
  CHECK(ref::cast_value<std::uint8_t>(300) == 44);
  CHECK(ref::cast_value<std::uint32_t>(-1) == 4294967295u);
  CHECK(ref::cast_value<std::int8_t>(std::uint64_t{255}) == -1);
  CHECK(ref::cast_value<bool>(kNan) == true);
  CHECK(ref::cast_value<bool>(-0.0) == false);
  CHECK(ref::cast_value<bool>(cd(0, 1)) == true);
  CHECK(ref::cast_value<bool>(cd(0, 0)) == false);
  CHECK(ref::cast_value<std::int32_t>(true) == 1);
  // Complex to real takes the real part; real to complex has a zero imaginary part.
  CHECK(ref::cast_value<double>(cd(2.5, -1)) == 2.5);
  CHECK(ref::cast_value<float>(cf(-1.5f, 7.0f)) == -1.5f);
  CHECK(ref::cast_value<std::uint8_t>(cd(-3.0, 9.0)) == 0);
  CHECK(ref::cast_value<std::int32_t>(cf(7.9f, 1.0f)) == 7);
  CHECK(ref::cast_value<cd>(3) == cd(3, 0));
  CHECK(ref::cast_value<cf>(cd(1.0 / 3, 2)) == cf(1.0f / 3, 2));
  CHECK(ref::cast_value<cf>(half(1.5f)) == cf(1.5f, 0));
  CHECK(ref::cast_value<float>(std::int64_t{16777217}) == 16777216.0f);
  CHECK(ref::cast_value<float>(hi<std::uint64_t>) == 18446744073709551616.0f);

  // To float16: straight from double. 1 + 2^-11 is the tie between 1 and 1 + 2^-10 (even: 1);
  // a hair above it rounds up, though through float it would have been the tie again.
  const double tie = 1.0 + std::ldexp(1.0, -11);
  const double above = tie + std::ldexp(1.0, -40);
  CHECK(float(ref::cast_value<half>(tie)) == 1.0f);
  CHECK(float(ref::cast_value<half>(above)) == 1.0f + std::ldexp(1.0f, -10));
  CHECK(float(half(static_cast<float>(above))) == 1.0f);  // the double rounding avoided
  CHECK(float(ref::cast_value<half>(65519.0)) == 65504.0f);
  CHECK(std::isinf(float(ref::cast_value<half>(65520.0))));  // the tie with 2^16 rounds to even: inf
  CHECK(std::isinf(float(ref::cast_value<half>(hi<std::uint64_t>))));
  CHECK(float(ref::cast_value<half>(std::ldexp(1.0, -25))) == 0.0f);  // the tie with 2^-24: even
  CHECK(float(ref::cast_value<half>(std::ldexp(1.0, -25) * 1.000001)) == std::ldexp(1.0f, -24));
  CHECK(ref::cast_value<half>(-0.0).bits == 0x8000);
  CHECK(ref::cast_value<half>(kNan).bits == 0x7e00);
  CHECK(float(ref::cast_value<half>(cd(2.0, 5.0))) == 2.0f);
  CHECK(float(ref::cast_value<half>(std::int32_t{2049})) == 2048.0f);
  const double bf_tie = 1.0 + std::ldexp(1.0, -8);
  CHECK(float(ref::cast_value<bfloat16_t>(bf_tie)) == 1.0f);
  CHECK(float(ref::cast_value<bfloat16_t>(bf_tie + std::ldexp(1.0, -30))) == 1.0f + std::ldexp(1.0f, -7));
  CHECK(std::isinf(float(ref::cast_value<bfloat16_t>(1e39))));
  CHECK(float(ref::cast_value<bfloat16_t>(std::ldexp(1.0, -133))) == std::ldexp(1.0f, -133));
  CHECK(float(ref::cast_value<bfloat16_t>(std::ldexp(1.0, -134))) == 0.0f);
}

TEST_CASE("from_double agrees with the float conversion on every float", "[host_ops]") {
  // Exhaustive over the 16-bit values and their neighbourhoods, random elsewhere.
  auto check = [](float f) {
    const half h = half::from_double(f);
    const bfloat16_t b = bfloat16_t::from_double(f);
    if (std::isnan(f)) {
      CHECK(std::isnan(float(h)));
      CHECK(std::isnan(float(b)));
    } else {
      if (h.bits != half(f).bits) FAIL_CHECK("half " << f);
      if (b.bits != bfloat16_t(f).bits) FAIL_CHECK("bfloat16 " << f);
    }
  };
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const float h = float(half::from_bits(static_cast<std::uint16_t>(bits)));
    const float b = float(bfloat16_t::from_bits(static_cast<std::uint16_t>(bits)));
    for (float f : {h, b}) {
      check(f);
      check(std::nextafter(f, kInf));
      check(std::nextafter(f, -kInf));
    }
    // Ties between neighbouring 16-bit values.
    check(std::bit_cast<float>((bits << 16) | 0x8000u));
    check(std::bit_cast<float>(std::bit_cast<std::uint32_t>(float(half::from_bits(static_cast<std::uint16_t>(bits)))) + 0x1000u));
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) check(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
}

TEST_CASE("complex functions and comparisons", "[host_ops]") {
  CHECK(ref::Sqrt{}(cd(-4, 0)) == cd(0, 2));
  CHECK(ref::Sqrt{}(cd(-4, -0.0)) == cd(0, -2));
  CHECK(ref::Sqrt{}(cd(3, 4)) == cd(2, 1));
  const cd l = ref::Log{}(cd(-1, 0));
  CHECK(l.real() == 0.0);
  CHECK(l.imag() == Approx(M_PI));
  const cd e = ref::Exp{}(cd(0, M_PI));
  CHECK(e.real() == Approx(-1.0));
  CHECK(e.imag() == Approx(0.0).margin(1e-15));
  CHECK(ref::Exp{}(cd(1, 0)) == cd(std::exp(1.0), 0));
  CHECK(ref::Log2{}(cd(8, 0)).real() == Approx(3.0));
  CHECK(ref::Log10{}(cd(0, 100)).real() == Approx(2.0));
  CHECK(ref::Log10{}(cd(0, 100)).imag() == Approx(M_PI / 2 / std::log(10.0)));
  CHECK(ref::Exp2{}(cd(3, 0)).real() == Approx(8.0));
  CHECK(ref::Arcsin{}(cd(2, 0)).imag() == Approx(std::acosh(2.0)));   // upper side of the cut
  CHECK(ref::Arcsin{}(cd(2, -0.0)).imag() == Approx(-std::acosh(2.0)));
  CHECK(ref::Arctanh{}(cd(2, 0)).imag() == Approx(M_PI / 2));
  CHECK(ref::Arccosh{}(cd(-2, 0)).imag() == Approx(M_PI));
  // log1p and expm1 keep small arguments: no 1 + z rounding.
  CHECK(ref::Log1p{}(cd(1e-10, 0)).real() == Approx(std::log1p(1e-10)).epsilon(1e-14));
  CHECK(ref::Log1p{}(cd(0, 1e-8)).real() == Approx(5e-17).epsilon(1e-6));
  CHECK(ref::Expm1{}(cd(1e-10, 0)).real() == Approx(std::expm1(1e-10)).epsilon(1e-14));
  CHECK(ref::Expm1{}(cd(0, 1e-8)).real() == Approx(-5e-17).epsilon(1e-6));
  CHECK(ref::Abs{}(cd(3, 4)) == 5.0);
  CHECK(ref::Abs{}(cd(1e300, 1e300)) == Approx(std::sqrt(2.0) * 1e300));
  CHECK(ref::Conj{}(cd(1, 2)) == cd(1, -2));
  CHECK(ref::Real{}(cd(1, 2)) == 1.0);
  CHECK(ref::Imag{}(cf(1, 2)) == 2.0f);
  CHECK(ref::Imag{}(3.5) == 0.0);
  CHECK(ref::Reciprocal{}(cd(0, 2)) == cd(0, -0.5));
  CHECK(ref::TrueDiv{}(cd(1, 1), cd(1, -1)) == cd(0, 1));
  CHECK(ref::TrueDiv{}(cd(1, 1), cd(0, 0)) == cd(kInf, kInf));
  CHECK(ref::Mul{}(cd(1, 2), cd(3, 4)) == cd(-5, 10));

  CHECK(ref::Less{}(cd(1, 2), cd(1, 3)));
  CHECK(ref::Less{}(cd(1, 2), cd(2, 0)));
  CHECK_FALSE(ref::Less{}(cd(2, 0), cd(1, 5)));
  CHECK(ref::LessEqual{}(cd(1, 2), cd(1, 2)));
  CHECK(ref::Greater{}(cd(1, 3), cd(1, 2)));
  CHECK(ref::GreaterEqual{}(cd(2, -9), cd(1, 9)));
  CHECK_FALSE(ref::Less{}(cd(kNan, 0), cd(1, 0)));
  CHECK_FALSE(ref::Less{}(cd(1, kNan), cd(2, 0)));
  CHECK_FALSE(ref::Greater{}(cd(3, 0), cd(2, kNan)));
  CHECK(ref::Equal{}(cd(1, 2), cd(1, 2)));
  CHECK(ref::NotEqual{}(cd(1, 2), cd(1, -2)));
  CHECK(ref::NotEqual{}(cd(kNan, 0), cd(kNan, 0)));
}

TEST_CASE("logical ops, where and half results", "[host_ops]") {
  CHECK(ref::LogicalAnd{}(cd(0, 1), cd(2, 0)));
  CHECK_FALSE(ref::LogicalOr{}(0.0, -0.0));
  CHECK(ref::LogicalXor{}(3, 0));
  CHECK(ref::LogicalNot{}(cf(0, 0)));
  CHECK(ref::BitXor{}(std::uint8_t{0xf0}, std::uint8_t{0xff}) == 0x0f);
  CHECK(ref::BitAnd{}(true, false) == false);
  CHECK(ref::Where{}(cd(0, 1), cd(1, 0), cd(2, 0)) == cd(1, 0));
  CHECK(ref::Where{}(0, 5, 6) == 6);
  // float16: computed in float, rounded once.
  CHECK(float(ref::Add{}(half(1.0f), half(std::ldexp(1.0f, -11)))) == 1.0f);
  CHECK(float(ref::Add{}(half(1.0f), half(std::ldexp(1.0f, -10)))) == 1.0f + std::ldexp(1.0f, -10));
  CHECK(float(ref::Sqrt{}(bfloat16_t(2.0f))) == float(bfloat16_t(std::sqrt(2.0f))));
  CHECK(ref::Less{}(half(1.0f), half(2.0f)));
  CHECK(float(ref::Where{}(half(0.0f), half(1.0f), half(2.0f))) == 2.0f);
}
