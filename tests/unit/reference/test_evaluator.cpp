// The host reference evaluator through the public API (this machine has no GPU, so eval() runs
// here): values NumPy gives for generators, views, casts and fused expressions.

#include <catch2/catch.hpp>

#include <cmath>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using Catch::Matchers::Equals;

namespace {
template <class T> std::vector<T> values(const Array& a) { return a.to_host<T>(); }
}  // namespace

TEST_CASE("generators give NumPy's values", "[reference]") {
  if (loom::gpu_available()) SUCCEED("runs on the host path only");
  CHECK_THAT(values<std::int64_t>(loom::arange(5)), Equals(std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  CHECK_THAT(values<std::int64_t>(loom::arange(10, 0, -3)), Equals(std::vector<std::int64_t>{10, 7, 4, 1}));
  CHECK_THAT(values<double>(loom::linspace(0, 1, 5)), Equals(std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  CHECK_THAT(values<double>(loom::linspace(0, 1, 4, false)), Equals(std::vector<double>{0, 0.25, 0.5, 0.75}));
  // NumPy 2 floors linspace for integer dtypes.
  CHECK_THAT(values<std::int32_t>(loom::linspace(-1, 1, 5, true, DType::Int32)),
             Equals(std::vector<std::int32_t>{-1, -1, 0, 0, 1}));
  CHECK_THAT(values<double>(loom::eye(2, 3, 1)), Equals(std::vector<double>{0, 1, 0, 0, 0, 1}));
  CHECK_THAT(values<float>(loom::full({3}, 2.5f)), Equals(std::vector<float>{2.5f, 2.5f, 2.5f}));
  // arange over floats: NumPy fills start + i * (second - first) in the dtype.
  const std::vector<double> ar = values<double>(loom::arange(0.0, 1.0, 0.1));
  REQUIRE(ar.size() == 10);
  CHECK(ar[3] == 0.30000000000000004);
  CHECK(ar[7] == 0.7000000000000001);
}

TEST_CASE("views and fused expressions evaluate as NumPy", "[reference]") {
  const Array a = loom::arange(12).reshape({3, 4});
  CHECK_THAT(values<std::int64_t>(a.T()), Equals(std::vector<std::int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  CHECK_THAT(values<std::int64_t>(a[{loom::Slice(loom::none, loom::none, -1), loom::Slice(1, loom::none, 2)}]),
             Equals(std::vector<std::int64_t>{9, 11, 5, 7, 1, 3}));
  CHECK_THAT(values<std::int64_t>((a.T() + 100).reshape({-1})[loom::Slice(0, 4)]),
             Equals(std::vector<std::int64_t>{100, 104, 108, 101}));
  CHECK_THAT(values<std::int64_t>(a + loom::arange(4)), Equals(std::vector<std::int64_t>{0, 2, 4, 6, 4, 6, 8, 10, 8, 10, 12, 14}));
  CHECK_THAT(values<bool>(a > 5), Equals(std::vector<bool>{false, false, false, false, false, false, true, true, true, true, true, true}));
  CHECK(values<double>(a / 8)[3] == 0.375);
  CHECK_THAT(values<std::int64_t>(loom::floor_divide(a - 6, 4)), Equals(std::vector<std::int64_t>{-2, -2, -1, -1, -1, -1, 0, 0, 0, 0, 1, 1}));
  CHECK_THAT(values<std::int64_t>((a - 6) % 4), Equals(std::vector<std::int64_t>{2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1}));
  CHECK_THAT(values<std::int64_t>(loom::clip(a, 2, 9)), Equals(std::vector<std::int64_t>{2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9}));
  CHECK_THAT(values<std::int64_t>(loom::where(a % 2 == 0, a, -a)), Equals(std::vector<std::int64_t>{0, -1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11}));
}

TEST_CASE("casts, rounding and item()", "[reference]") {
  const Array f = loom::asarray(std::vector<double>{-1.5, -0.5, 0.5, 1.5, 2.5, 1e10, std::nan("")});
  const std::vector<double> r = values<double>(loom::rint(f));
  CHECK_THAT(std::vector<double>(r.begin(), r.begin() + 6), Equals(std::vector<double>{-2, -0.0, 0, 2, 2, 1e10}));
  CHECK(std::isnan(r[6]));
  CHECK_THAT(values<std::int32_t>(f.astype(DType::Int32)),
             Equals(std::vector<std::int32_t>{-1, 0, 0, 1, 2, 2147483647, 0}));
  CHECK_THAT(values<std::uint8_t>(f.astype(DType::UInt8)), Equals(std::vector<std::uint8_t>{0, 0, 0, 1, 2, 255, 0}));
  CHECK(loom::round(loom::asarray(std::vector<double>{1.2345}), 2).item<double>() == 1.23);
  CHECK(loom::round(loom::asarray(std::vector<std::int64_t>{1250, 1350}), -2).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{1200, 1400});
}

TEST_CASE("scalars, printing and float16", "[reference]") {
  CHECK(loom::Array(2.5).item<double>() == 2.5);
  CHECK((loom::arange(6).reshape({2, 3})[{1, 2}]).item<std::int64_t>() == 5);
  CHECK(loom::to_string(loom::arange(4)) == "array([0, 1, 2, 3])");
  CHECK(loom::to_string(loom::arange(4).astype(DType::Float32) / 2) == "array([0. , 0.5, 1. , 1.5], dtype=float32)");
  CHECK(loom::to_string(loom::eye(2, 2, 0, DType::Bool)) == "array([[ True, False],\n       [False,  True]])");
  // float16 rounds after every op, as NumPy does: 2049 is not a float16.
  const Array h = loom::full({1}, 2048.0f, DType::Float16);
  CHECK((h + 1.0f).item<float>() == 2048.0f);
  CHECK(((h + 1.0f) + 1.0f).item<float>() == 2048.0f);
  CHECK((h + 2.0f).item<float>() == 2050.0f);
  const Array c = loom::asarray(std::vector<std::complex<float>>{{3, 4}});
  CHECK(loom::abs(c).item<float>() == 5.0f);
  CHECK(loom::abs(c).dtype() == DType::Float32);
  CHECK(c.conj().item<std::complex<float>>() == std::complex<float>(3, -4));
}
