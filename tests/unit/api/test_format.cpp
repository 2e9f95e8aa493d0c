// Printing arrays: each expected string is NumPy 2's repr/str of the same array (noted where
// it is NumPy >= 2.2 or >= 2.3 only), plus round-trip properties of the float digits.

#include <bit>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_support.hpp"

#include <loom/errors.hpp>

#include "api/format.hpp"

using loom::Shape;
using loom::detail::format_array_repr;
using loom::detail::format_array_str;
using loom::detail::PrintOptions;

namespace {

template <class T>
std::string repr(const std::vector<T>& v, const Shape& shape, const PrintOptions& o = {}) {
  return format_array_repr(v.data(), loom::dtype_of<T>, shape, o);
}

template <class T>
std::string str(const std::vector<T>& v, const Shape& shape, const PrintOptions& o = {}) {
  return format_array_str(v.data(), loom::dtype_of<T>, shape, o);
}

template <class T> std::vector<T> arange(std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(i);
  return v;
}

using i64 = std::int64_t;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
using loom::bfloat16_t;
using loom::half;

PrintOptions numpy_minor(int minor) {
  PrintOptions o;
  o.numpy_minor = minor;
  return o;
}

using loom::test::WhatContains;

// Significant digits of a printed number: no sign, point, exponent, leading or trailing zeros.
std::string significant(const std::string& s) {
  std::string d;
  for (char c : s.substr(0, s.find('e'))) {
    if (c >= '0' && c <= '9') d += c;
  }
  d.erase(0, std::min(d.find_first_not_of('0'), d.size()));
  while (!d.empty() && d.back() == '0') d.pop_back();
  return d;
}

}  // namespace

TEST_CASE("int64 arrays print without dtype", "[format]") {
  REQUIRE(repr(std::vector<i64>{1, 2, 3}, {3}) == "array([1, 2, 3])");
  REQUIRE(str(std::vector<i64>{1, 2, 3}, {3}) == "[1 2 3]");
  REQUIRE(repr(std::vector<i64>{-1, 10}, {2}) == "array([-1, 10])");
  REQUIRE(repr(std::vector<i64>{-10, 5}, {2}) == "array([-10,   5])");
}

TEST_CASE("int64 2-d: rows on their own lines, aligned under the first bracket", "[format]") {
  REQUIRE(repr(arange<i64>(6), {2, 3}) == "array([[0, 1, 2],\n       [3, 4, 5]])");
  REQUIRE(str(arange<i64>(6), {2, 3}) == "[[0 1 2]\n [3 4 5]]");
}

TEST_CASE("other integer dtypes show dtype=", "[format]") {
  REQUIRE(repr(std::vector<std::int32_t>{1, 2, 3}, {3}) == "array([1, 2, 3], dtype=int32)");
  REQUIRE(repr(std::vector<std::int8_t>{-128, 127}, {2}) == "array([-128,  127], dtype=int8)");
  REQUIRE(repr(std::vector<std::uint8_t>{1, 255}, {2}) == "array([  1, 255], dtype=uint8)");
  REQUIRE(repr(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max()}, {1}) ==
          "array([18446744073709551615], dtype=uint64)");
}

TEST_CASE("dtype= moves to its own line when the last line is full", "[format]") {
  // np.arange(17, dtype=np.int32)
  REQUIRE(repr(arange<std::int32_t>(17), {17}) ==
          "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16],\n"
          "      dtype=int32)");
}

TEST_CASE("float64 with fractions pads the fraction with spaces", "[format]") {
  REQUIRE(repr(std::vector<double>{0.5, 1.25, -3.0}, {3}) == "array([ 0.5 ,  1.25, -3.  ])");
  REQUIRE(str(std::vector<double>{0.5, 1.25, -3.0}, {3}) == "[ 0.5   1.25 -3.  ]");
  REQUIRE(repr(std::vector<double>{0.1, 1.0 / 3}, {2}) == "array([0.1       , 0.33333333])");
  REQUIRE(repr(std::vector<double>{std::numbers::pi}, {1}) == "array([3.14159265])");
  REQUIRE(repr(std::vector<double>{1.123456789}, {1}) == "array([1.12345679])");
  REQUIRE(repr(std::vector<double>{1.0, 2.5, 1000.0}, {3}) == "array([   1. ,    2.5, 1000. ])");
}

TEST_CASE("integer-valued floats print as '1.'", "[format]") {
  REQUIRE(repr(arange<double>(3), {3}) == "array([0., 1., 2.])");
  REQUIRE(str(arange<double>(3), {3}) == "[0. 1. 2.]");
  REQUIRE(repr(arange<float>(3), {3}) == "array([0., 1., 2.], dtype=float32)");
  REQUIRE(repr(arange<float>(4), {2, 2}) == "array([[0., 1.],\n       [2., 3.]], dtype=float32)");
  REQUIRE(str(std::vector<double>{1, 2, 3, 4}, {2, 2}) == "[[1. 2.]\n [3. 4.]]");
}

TEST_CASE("float32 and float16 print the shortest digits of their own precision", "[format]") {
  REQUIRE(repr(std::vector<float>{0.1f}, {1}) == "array([0.1], dtype=float32)");
  REQUIRE(repr(std::vector<half>{half(0.1f)}, {1}) == "array([0.1], dtype=float16)");
  REQUIRE(repr(std::vector<float>{1.0f / 3}, {1}) == "array([0.33333334], dtype=float32)");
  REQUIRE(repr(std::vector<half>{half(1.0f / 3)}, {1}) == "array([0.3333], dtype=float16)");
  REQUIRE(repr(std::vector<half>{half(0.1f), half(0.2f), half(0.3f)}, {3}) ==
          "array([0.1, 0.2, 0.3], dtype=float16)");
}

TEST_CASE("nan and inf widen the columns as NumPy does", "[format]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  REQUIRE(repr(std::vector<double>{nan, 1.0, inf}, {3}) == "array([nan,  1., inf])");
  REQUIRE(repr(std::vector<double>{-inf, 0.5}, {2}) == "array([-inf,  0.5])");
  REQUIRE(repr(std::vector<double>{nan}, {1}) == "array([nan])");
  REQUIRE(repr(std::vector<double>{nan, -inf}, {2}) == "array([ nan, -inf])");
}

TEST_CASE("negative zero keeps its sign", "[format]") {
  REQUIRE(repr(std::vector<double>{-0.0}, {1}) == "array([-0.])");
  REQUIRE(repr(std::vector<double>{-0.0, 1.0}, {2}) == "array([-0.,  1.])");
}

TEST_CASE("scientific notation: small, large, or widely spread values", "[format]") {
  REQUIRE(repr(std::vector<double>{1e-5, 1.0}, {2}) == "array([1.e-05, 1.e+00])");
  REQUIRE(repr(std::vector<double>{1.5e-5, 1.0}, {2}) == "array([1.5e-05, 1.0e+00])");
  REQUIRE(repr(std::vector<double>{-1e-5, 1.0}, {2}) == "array([-1.e-05,  1.e+00])");
  REQUIRE(repr(std::vector<double>{1e10}, {1}) == "array([1.e+10])");
  REQUIRE(repr(std::vector<double>{1e100, 1.0}, {2}) == "array([1.e+100, 1.e+000])");
  REQUIRE(repr(std::vector<double>{1.0, 1001.0}, {2}) == "array([1.000e+00, 1.001e+03])");
  REQUIRE(str(std::vector<double>{1e-5, 1.0}, {2}) == "[1.e-05 1.e+00]");
}

TEST_CASE("the thresholds compare in the array's dtype (NEP 50)", "[format]") {
  // float32(1e-4) < 0.0001 is False in NumPy 2: the Python float becomes float32 first.
  REQUIRE(repr(std::vector<float>{1e-4f, 1e-3f}, {2}) == "array([0.0001, 0.001 ], dtype=float32)");
}

TEST_CASE("NumPy 2.3 starts scientific notation by the dtype's precision", "[format]") {
  REQUIRE(repr(std::vector<half>{half(1000.f)}, {1}) == "array([1.e+03], dtype=float16)");
  REQUIRE(repr(std::vector<half>{half(1000.f)}, {1}, numpy_minor(2)) ==
          "array([1000.], dtype=float16)");
  REQUIRE(repr(std::vector<float>{1e6f}, {1}) == "array([1.e+06], dtype=float32)");
  REQUIRE(repr(std::vector<float>{1e6f}, {1}, numpy_minor(2)) ==
          "array([1000000.], dtype=float32)");
  // The largest float16: NumPy <= 2.2 arrays print every digit up to the units (min_digits=0),
  // scalars only the shortest ones.
  REQUIRE(repr(std::vector<half>{half(65504.f)}, {1}) == "array([6.55e+04], dtype=float16)");
  REQUIRE(repr(std::vector<half>{half(65504.f)}, {1}, numpy_minor(2)) ==
          "array([65504.], dtype=float16)");
  REQUIRE(str(std::vector<half>{half(65504.f)}, {}) == "6.55e+04");
  REQUIRE(str(std::vector<half>{half(65504.f)}, {}, numpy_minor(2)) == "65500.0");
}

TEST_CASE("precision cuts the fraction, rounding half to even", "[format]") {
  PrintOptions o;
  o.precision = 4;
  REQUIRE(str(std::vector<double>{1.123456789}, {1}, o) == "[1.1235]");  // NumPy's docs
  o.precision = 2;
  REQUIRE(repr(std::vector<double>{0.125}, {1}, o) == "array([0.12])");
  REQUIRE(repr(std::vector<double>{0.375}, {1}, o) == "array([0.38])");
}

TEST_CASE("bool arrays align True with False", "[format]") {
  const bool b[] = {true, false};
  REQUIRE(format_array_repr(b, loom::bool_, {2}) == "array([ True, False])");
  REQUIRE(format_array_str(b, loom::bool_, {2}) == "[ True False]");
  REQUIRE(format_array_repr(b, loom::bool_, {}) == "array(True)");
  REQUIRE(format_array_str(b + 1, loom::bool_, {}) == "False");
}

TEST_CASE("complex: real and imaginary parts each formatted as floats", "[format]") {
  // np.fft.fft([0, 1, 2, 3]), as in NumPy's docs.
  REQUIRE(repr(std::vector<c128>{{6, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, {4}) ==
          "array([ 6.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])");
  REQUIRE(repr(std::vector<c64>{{1, 2}}, {1}) == "array([1.+2.j], dtype=complex64)");
  REQUIRE(repr(std::vector<c128>{{0.5, 1}, {1, -0.25}}, {2}) == "array([0.5+1.j  , 1. -0.25j])");
  REQUIRE(str(std::vector<c128>{{1, 2}}, {1}) == "[1.+2.j]");
}

TEST_CASE("3-d arrays leave one blank line between blocks", "[format]") {
  REQUIRE(repr(arange<i64>(8), {2, 2, 2}) ==
          "array([[[0, 1],\n        [2, 3]],\n\n       [[4, 5],\n        [6, 7]]])");
  REQUIRE(str(arange<i64>(8), {2, 2, 2}) == "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
}

TEST_CASE("long 1-d arrays wrap at 75 columns", "[format]") {
  REQUIRE(repr(arange<i64>(30), {30}) ==
          "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
          "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])");
  REQUIRE(str(arange<i64>(30), {30}) ==
          "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
          " 24 25 26 27 28 29]");
}

TEST_CASE("arrays past the threshold are summarized", "[format]") {
  // NumPy >= 2.2 appends the shape; 2.0 and 2.1 do not.
  REQUIRE(repr(arange<i64>(2000), {2000}) ==
          "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))");
  REQUIRE(repr(arange<i64>(2000), {2000}, numpy_minor(1)) ==
          "array([   0,    1,    2, ..., 1997, 1998, 1999])");
  REQUIRE(str(arange<i64>(2000), {2000}) == "[   0    1    2 ... 1997 1998 1999]");
  PrintOptions o;
  o.threshold = 5;  // NumPy's set_printoptions docs
  REQUIRE(repr(arange<i64>(10), {10}, o) == "array([0, 1, 2, ..., 7, 8, 9], shape=(10,))");
}

TEST_CASE("summarized 2-d arrays put '...,' on a line of its own", "[format]") {
  REQUIRE(repr(arange<i64>(2000), {1000, 2}) ==
          "array([[   0,    1],\n"
          "       [   2,    3],\n"
          "       [   4,    5],\n"
          "       ...,\n"
          "       [1994, 1995],\n"
          "       [1996, 1997],\n"
          "       [1998, 1999]], shape=(1000, 2))");
  REQUIRE(str(arange<i64>(2000), {1000, 2}) ==
          "[[   0    1]\n [   2    3]\n [   4    5]\n ...\n [1994 1995]\n [1996 1997]\n [1998 1999]]");
  REQUIRE(repr(arange<i64>(10000), {100, 100}, numpy_minor(1)) ==
          "array([[   0,    1,    2, ...,   97,   98,   99],\n"
          "       [ 100,  101,  102, ...,  197,  198,  199],\n"
          "       [ 200,  201,  202, ...,  297,  298,  299],\n"
          "       ...,\n"
          "       [9700, 9701, 9702, ..., 9797, 9798, 9799],\n"
          "       [9800, 9801, 9802, ..., 9897, 9898, 9899],\n"
          "       [9900, 9901, 9902, ..., 9997, 9998, 9999]])");
}

TEST_CASE("summarized floats take their widths from the shown elements", "[format]") {
  // np.arange(2000.): 1999 / 1 > 1e3 switches to scientific notation.
  REQUIRE(repr(arange<double>(2000), {2000}, numpy_minor(1)) ==
          "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
          "       1.999e+03])");
}

TEST_CASE("0-d arrays", "[format]") {
  REQUIRE(repr(std::vector<i64>{5}, {}) == "array(5)");
  REQUIRE(str(std::vector<i64>{5}, {}) == "5");
  REQUIRE(repr(std::vector<std::int32_t>{5}, {}) == "array(5, dtype=int32)");
  REQUIRE(repr(std::vector<float>{1.5f}, {}) == "array(1.5, dtype=float32)");
  REQUIRE(str(std::vector<float>{1.5f}, {}) == "1.5");
  REQUIRE(repr(std::vector<double>{1.0}, {}) == "array(1.)");
  REQUIRE(str(std::vector<double>{1.0}, {}) == "1.0");
  REQUIRE(str(std::vector<double>{1e16}, {}) == "1e+16");
  REQUIRE(str(std::vector<double>{1e15}, {}) == "1000000000000000.0");
  REQUIRE(str(std::vector<double>{1e-5}, {}) == "1e-05");
  REQUIRE(repr(std::vector<c128>{{1, 2}}, {}) == "array(1.+2.j)");
  REQUIRE(str(std::vector<c128>{{1, 2}}, {}) == "(1+2j)");
  REQUIRE(str(std::vector<c128>{{0, 2}}, {}) == "2j");
  REQUIRE(str(std::vector<c128>{{1.5, -0.5}}, {}) == "(1.5-0.5j)");
}

TEST_CASE("empty arrays show dtype, and shape unless 1-d", "[format]") {
  REQUIRE(repr(std::vector<float>{}, {0}) == "array([], dtype=float32)");
  REQUIRE(repr(std::vector<double>{}, {0}) == "array([], dtype=float64)");
  REQUIRE(repr(std::vector<i64>{}, {0}) == "array([], dtype=int64)");
  REQUIRE(repr(std::vector<double>{}, {0, 3}) == "array([], shape=(0, 3), dtype=float64)");
  REQUIRE(str(std::vector<double>{}, {0, 3}) == "[]");
}

TEST_CASE("bfloat16 prints as a float of its own precision (loom's convention)", "[format]") {
  REQUIRE(repr(std::vector<bfloat16_t>{bfloat16_t(0.1f), bfloat16_t(1.0f / 3)}, {2}) ==
          "array([0.1  , 0.334], dtype=bfloat16)");
  REQUIRE(repr(std::vector<bfloat16_t>{bfloat16_t(0.f), bfloat16_t(1.f)}, {2}) ==
          "array([0., 1.], dtype=bfloat16)");
}

TEST_CASE("null data for a non-empty array is an error", "[format]") {
  REQUIRE_THROWS_MATCHES(format_array_repr(nullptr, loom::float32, {2}), loom::ValueError,
                         WhatContains("null data"));
  REQUIRE(format_array_repr(nullptr, loom::float32, {0}) == "array([], dtype=float32)");
}

TEST_CASE("float64 and float32 digits are the shortest that read back", "[format]") {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    const double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d)) continue;
    const std::string s = str(std::vector<double>{d}, {});
    REQUIRE(std::strtod(s.c_str(), nullptr) == d);
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    REQUIRE(significant(s) == significant(std::string(buf, r.ptr)));

    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (!std::isfinite(f)) continue;
    const std::string sf = str(std::vector<float>{f}, {});
    REQUIRE(std::strtof(sf.c_str(), nullptr) == f);
    const auto rf = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
    REQUIRE(significant(sf) == significant(std::string(buf, rf.ptr)));
  }
}

TEST_CASE("every finite float16 and bfloat16 reads back from its digits", "[format]") {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const half h = half::from_bits(static_cast<std::uint16_t>(bits));
    if (std::isfinite(static_cast<float>(h))) {
      const std::string s = str(std::vector<half>{h}, {});
      REQUIRE(half(std::strtof(s.c_str(), nullptr)).bits == h.bits);
    }
    const bfloat16_t b = bfloat16_t::from_bits(static_cast<std::uint16_t>(bits));
    if (std::isfinite(static_cast<float>(b))) {
      const std::string s = str(std::vector<bfloat16_t>{b}, {});
      REQUIRE(bfloat16_t(std::strtof(s.c_str(), nullptr)).bits == b.bits);
    }
  }
}
