// Reductions (include/loom/reductions.hpp) and linalg::norm: NumPy 2's shapes, dtypes, errors and
// values. Without a GPU, eval() runs the host reference evaluator (lib/reference/reduce_ref.cpp).

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>

#include <loom/loom.hpp>

#include "graph/node.hpp"
#include "reference/evaluator.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::Axes;
using loom::DType;
using loom::Shape;
using loom::test::WhatContains;
using Catch::Matchers::Equals;

namespace {

template <class T> std::vector<T> values(const Array& a) { return a.to_host<T>(); }
template <class T> Array arr(std::vector<T> v, const Shape& shape) { return loom::asarray(v, shape); }
template <class T> Array arr(std::vector<T> v) { return loom::asarray(v); }
Array zeros_of(DType t, const Shape& shape) { return loom::zeros(shape, t); }
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("reduction shapes: axis none, one, several, negative, keepdims", "[reductions]") {
  const Array x = loom::zeros({2, 3, 4});
  CHECK(loom::sum(x).shape() == Shape{});
  CHECK(loom::sum(x, loom::none).shape() == Shape{});
  CHECK(loom::sum(x, 0).shape() == Shape{3, 4});
  CHECK(loom::sum(x, -1).shape() == Shape{2, 3});
  CHECK(loom::sum(x, {0, 2}).shape() == Shape{3});
  CHECK(loom::sum(x, {-1, 0}).shape() == Shape{3});
  CHECK(loom::sum(x, std::vector<std::int64_t>{1, 2}).shape() == Shape{2});
  CHECK(loom::sum(x, {0, 2}, true).shape() == Shape{1, 3, 1});
  CHECK(loom::sum(x, Axes{}, true).shape() == Shape{1, 1, 1});
  CHECK(loom::mean(x, 1, true).shape() == Shape{2, 1, 4});
  CHECK(loom::var(x, {0, 1}).shape() == Shape{4});
  CHECK(loom::max(x, 2).shape() == Shape{2, 3});
  CHECK(loom::argmax(x).shape() == Shape{});
  CHECK(loom::argmax(x, loom::none, true).shape() == Shape{1, 1, 1});
  CHECK(loom::argmin(x, 1).shape() == Shape{2, 4});
  CHECK(loom::argmin(x, -1, true).shape() == Shape{2, 3, 1});
  CHECK(loom::any(x, 0).shape() == Shape{3, 4});
  CHECK(loom::logsumexp(x, 1).shape() == Shape{2, 4});
  CHECK(loom::softmax(x, 1).shape() == Shape{2, 3, 4});
  CHECK(loom::softmax(x).shape() == Shape{2, 3, 4});
  CHECK(loom::ptp(x, {1, 2}, true).shape() == Shape{2, 1, 1});
  CHECK(loom::count_nonzero(x, 0).shape() == Shape{3, 4});
  // 0-d arrays reduce to 0-d (keepdims too); empty arrays to NumPy's shapes.
  CHECK(loom::sum(Array(5)).shape() == Shape{});
  CHECK(loom::sum(Array(5), Axes{}, true).shape() == Shape{});
  CHECK(loom::sum(loom::zeros({0, 3}), 0).shape() == Shape{3});
  CHECK(loom::max(loom::zeros({0, 3}), 1).shape() == Shape{0});
  CHECK(loom::argmax(loom::zeros({0, 3}), 1).shape() == Shape{0});
}

TEST_CASE("reduction dtypes follow NumPy 2", "[reductions]") {
  const Shape s{2, 3};
  const auto sum_t = [&](DType t) { return loom::sum(zeros_of(t, s)).dtype(); };
  CHECK(sum_t(DType::Bool) == DType::Int64);
  CHECK(sum_t(DType::Int8) == DType::Int64);
  CHECK(sum_t(DType::Int32) == DType::Int64);
  CHECK(sum_t(DType::UInt8) == DType::UInt64);
  CHECK(sum_t(DType::UInt32) == DType::UInt64);
  CHECK(sum_t(DType::Float16) == DType::Float16);
  CHECK(sum_t(DType::BFloat16) == DType::BFloat16);
  CHECK(sum_t(DType::Float32) == DType::Float32);
  CHECK(sum_t(DType::Complex64) == DType::Complex64);
  CHECK(loom::prod(zeros_of(DType::Int16, s)).dtype() == DType::Int64);
  CHECK(loom::prod(zeros_of(DType::UInt16, s), 0).dtype() == DType::UInt64);
  CHECK(loom::nansum(zeros_of(DType::Int8, s)).dtype() == DType::Int64);
  CHECK(loom::nansum(zeros_of(DType::Float16, s)).dtype() == DType::Float16);
  CHECK(loom::sum(zeros_of(DType::Int32, s), Axes{}, false, DType::Float32).dtype() == DType::Float32);
  CHECK(loom::sum(zeros_of(DType::Float64, s), 0, false, DType::Float16).dtype() == DType::Float16);

  const auto mean_t = [&](DType t) { return loom::mean(zeros_of(t, s)).dtype(); };
  CHECK(mean_t(DType::Bool) == DType::Float64);
  CHECK(mean_t(DType::Int8) == DType::Float64);
  CHECK(mean_t(DType::UInt64) == DType::Float64);
  CHECK(mean_t(DType::Float16) == DType::Float16);
  CHECK(mean_t(DType::Float32) == DType::Float32);
  CHECK(mean_t(DType::Complex64) == DType::Complex64);
  CHECK(loom::mean(zeros_of(DType::Int32, s), 0, false, DType::Float32).dtype() == DType::Float32);
  CHECK(loom::nanmean(zeros_of(DType::Float32, s)).dtype() == DType::Float32);
  CHECK(loom::nanmean(zeros_of(DType::Int32, s)).dtype() == DType::Float64);
  CHECK(loom::average(zeros_of(DType::Int32, s)).dtype() == DType::Float64);
  CHECK(loom::average(zeros_of(DType::Float32, s), 1, zeros_of(DType::Float32, {3})).dtype() ==
        DType::Float32);
  CHECK(loom::average(zeros_of(DType::Int32, s), 1, zeros_of(DType::Float32, {3})).dtype() ==
        DType::Float64);

  const auto var_t = [&](DType t) { return loom::var(zeros_of(t, s)).dtype(); };
  CHECK(var_t(DType::Bool) == DType::Float64);
  CHECK(var_t(DType::Int8) == DType::Float64);
  CHECK(var_t(DType::Float16) == DType::Float16);
  CHECK(var_t(DType::Float32) == DType::Float32);
  CHECK(var_t(DType::Complex64) == DType::Float32);
  CHECK(var_t(DType::Complex128) == DType::Float64);
  CHECK(loom::std(zeros_of(DType::Complex64, s), 0).dtype() == DType::Float32);
  CHECK(loom::std(zeros_of(DType::Int64, s), 0, false, 1, DType::Float32).dtype() == DType::Float32);

  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    CHECK(loom::max(zeros_of(t, s)).dtype() == t);
    CHECK(loom::nanmin(zeros_of(t, s), 1).dtype() == t);
    CHECK(loom::argmax(zeros_of(t, s)).dtype() == DType::Int64);
    CHECK(loom::argmin(zeros_of(t, s), 0).dtype() == DType::Int64);
    CHECK(loom::any(zeros_of(t, s)).dtype() == DType::Bool);
    CHECK(loom::alltrue(zeros_of(t, s), 0).dtype() == DType::Bool);
    CHECK(loom::count_nonzero(zeros_of(t, s)).dtype() == DType::Int64);
    if (t != DType::Bool) CHECK(loom::ptp(zeros_of(t, s)).dtype() == t);
  }

  CHECK(loom::logsumexp(zeros_of(DType::Int32, s)).dtype() == DType::Float64);
  CHECK(loom::logsumexp(zeros_of(DType::Float32, s)).dtype() == DType::Float32);
  CHECK(loom::logsumexp(zeros_of(DType::Float16, s)).dtype() == DType::Float16);
  CHECK(loom::softmax(zeros_of(DType::Bool, s)).dtype() == DType::Float64);
  CHECK(loom::log_softmax(zeros_of(DType::BFloat16, s), 1).dtype() == DType::BFloat16);

  CHECK(loom::linalg::norm(zeros_of(DType::Int32, {3})).dtype() == DType::Float64);
  CHECK(loom::linalg::norm(zeros_of(DType::Float32, {3})).dtype() == DType::Float32);
  CHECK(loom::linalg::norm(zeros_of(DType::Float16, {3}), loom::inf).dtype() == DType::Float16);
  CHECK(loom::linalg::norm(zeros_of(DType::Complex64, {3}), 1).dtype() == DType::Float32);
  CHECK(loom::linalg::norm(zeros_of(DType::Complex128, s), "fro").dtype() == DType::Float64);
}

TEST_CASE("reduction errors carry NumPy's type and wording", "[reductions]") {
  const Array x = loom::zeros({2, 2});
  REQUIRE_THROWS_MATCHES(loom::sum(x, 2), loom::IndexError,
                         WhatContains("axis 2 is out of bounds for array of dimension 2"));
  REQUIRE_THROWS_MATCHES(loom::mean(x, {0, -3}), loom::IndexError,
                         WhatContains("axis -3 is out of bounds for array of dimension 2"));
  REQUIRE_THROWS_MATCHES(loom::argmax(x, 2), loom::IndexError,
                         WhatContains("axis 2 is out of bounds for array of dimension 2"));
  // NumPy's ufunc reductions take axis 0 of a 0-d array; mean and var do not, nor does a list.
  REQUIRE_THROWS_MATCHES(loom::sum(Array(1.0), 1), loom::IndexError,
                         WhatContains("axis 1 is out of bounds for array of dimension 0"));
  REQUIRE_THROWS_MATCHES(loom::mean(Array(1.0), 0), loom::IndexError,
                         WhatContains("axis 0 is out of bounds for array of dimension 0"));
  REQUIRE_THROWS_MATCHES(loom::sum(Array(1.0), {0}), loom::IndexError,
                         WhatContains("axis 0 is out of bounds for array of dimension 0"));
  REQUIRE_THROWS_MATCHES(loom::sum(x, {0, 0}), loom::ValueError,
                         WhatContains("duplicate value in 'axis'"));
  REQUIRE_THROWS_MATCHES(loom::var(x, {1, -1}), loom::ValueError,
                         WhatContains("duplicate value in 'axis'"));

  const Array empty = loom::zeros({0});
  const auto no_identity = [](const std::string& ufunc) {
    return WhatContains("zero-size array to reduction operation " + ufunc + " which has no identity");
  };
  REQUIRE_THROWS_MATCHES(loom::max(empty), loom::ValueError,
                         no_identity("maximum"));
  REQUIRE_THROWS_MATCHES(loom::amin(empty), loom::ValueError,
                         no_identity("minimum"));
  REQUIRE_THROWS_MATCHES(loom::ptp(empty), loom::ValueError,
                         no_identity("maximum"));
  // NumPy's nanmax / nanmin reduce with fmax / fmin, which their message names.
  REQUIRE_THROWS_MATCHES(loom::nanmax(empty), loom::ValueError,
                         no_identity("fmax"));
  REQUIRE_THROWS_MATCHES(loom::nanmin(loom::zeros({3, 0}), 1), loom::ValueError,
                         no_identity("fmin"));
  REQUIRE_THROWS_MATCHES(loom::max(loom::zeros({0, 3}), 0), loom::ValueError,
                         no_identity("maximum"));
  REQUIRE_THROWS_MATCHES(loom::argmax(empty), loom::ValueError,
                         WhatContains("attempt to get argmax of an empty sequence"));
  REQUIRE_THROWS_MATCHES(loom::argmin(loom::zeros({3, 0}), 1), loom::ValueError,
                         WhatContains("attempt to get argmin of an empty sequence"));
  REQUIRE_THROWS_MATCHES(loom::linalg::norm(empty, loom::inf), loom::ValueError,
                         no_identity("maximum"));

  REQUIRE_THROWS_MATCHES(loom::ptp(zeros_of(DType::Bool, {3})), loom::DTypeError,
                         WhatContains("numpy boolean subtract, the `-` operator, is not supported"));
  REQUIRE_THROWS_MATCHES(loom::logsumexp(zeros_of(DType::Complex64, {3})), loom::DTypeError,
                         WhatContains("logsumexp: dtype complex64 is not supported"));
  REQUIRE_THROWS_MATCHES(loom::softmax(zeros_of(DType::Complex128, {3})), loom::DTypeError,
                         WhatContains("softmax: dtype complex128 is not supported"));
  REQUIRE_THROWS_MATCHES(loom::log_softmax(zeros_of(DType::Complex128, {3})), loom::DTypeError,
                         WhatContains("log_softmax: dtype complex128 is not supported"));
  REQUIRE_THROWS_MATCHES(loom::sum(Array()), loom::ValueError, WhatContains("empty Array handle"));

  const Array a = loom::zeros({2, 3});
  REQUIRE_THROWS_MATCHES(loom::average(a, Axes{}, loom::ones({3})), loom::ShapeError,
                         WhatContains("Axis must be specified when shapes of a and weights differ."));
  REQUIRE_THROWS_MATCHES(
      loom::average(a, 0, loom::ones({3})), loom::ValueError,
      WhatContains("Shape of weights must be consistent with shape of a along specified axis."));

  using loom::linalg::norm;
  REQUIRE_THROWS_MATCHES(norm(loom::ones({3}), "fro"), loom::ValueError,
                         WhatContains("Invalid norm order 'fro' for vectors"));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2, 2}), 2), loom::ValueError,
                         WhatContains("Improper number of dimensions to norm."));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2, 2}), loom::none, {0, 1, 2}), loom::ValueError,
                         WhatContains("Improper number of dimensions to norm."));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2}), loom::none, {1, -1}), loom::ValueError,
                         WhatContains("Duplicate axes given."));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2}), 3), loom::ValueError,
                         WhatContains("Invalid norm order for matrices."));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2}), "abc"), loom::ValueError,
                         WhatContains("Invalid norm order for matrices."));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({3}), "nuc"), loom::ValueError,
                         WhatContains("Invalid norm order 'nuc' for vectors"));
  REQUIRE_THROWS_MATCHES(norm(loom::ones({2, 2}), 1, 2), loom::IndexError,
                         WhatContains("axis 2 is out of bounds for array of dimension 2"));
}

TEST_CASE("sums, products and counts give NumPy's values", "[reductions]") {
  const Array m = arr<std::int64_t>({1, 2, 3, 4}, {2, 2});
  CHECK_THAT(values<std::int64_t>(loom::sum(m, 0)), Equals(std::vector<std::int64_t>{4, 6}));
  CHECK_THAT(values<std::int64_t>(loom::sum(m, 1)), Equals(std::vector<std::int64_t>{3, 7}));
  CHECK_THAT(values<std::int64_t>(loom::sum(m, -1, true)), Equals(std::vector<std::int64_t>{3, 7}));
  CHECK(loom::sum(m).item<std::int64_t>() == 10);
  CHECK(loom::prod(m).item<std::int64_t>() == 24);
  CHECK_THAT(values<std::int64_t>(loom::prod(m, 0)), Equals(std::vector<std::int64_t>{3, 8}));
  // A transposed view reduces in its own (logical) order.
  CHECK_THAT(values<std::int64_t>(loom::sum(m.T(), 1)), Equals(std::vector<std::int64_t>{4, 6}));
  // Several axes: sum of arange(24).reshape(2, 3, 4) over (0, 2).
  CHECK_THAT(values<std::int64_t>(loom::sum(loom::arange(24).reshape({2, 3, 4}), {0, 2})),
             Equals(std::vector<std::int64_t>{60, 92, 124}));
  CHECK_THAT(values<std::int64_t>(loom::sum(loom::arange(24).reshape({2, 3, 4}), {2, 0})),
             Equals(std::vector<std::int64_t>{60, 92, 124}));
  // Widening and wrapping.
  CHECK(loom::sum(arr<std::uint8_t>({200, 100})).item<std::uint64_t>() == 300);
  CHECK(loom::sum(arr<std::int8_t>({100, 100}), Axes{}, false, DType::Int8).item<std::int8_t>() ==
        -56);
  CHECK(loom::sum(arr<std::int64_t>({INT64_MAX, 1})).item<std::int64_t>() == INT64_MIN);
  CHECK(loom::sum(loom::asarray(std::vector<bool>{true, true, false})).item<std::int64_t>() == 2);
  CHECK(loom::sum(Array(5)).item<std::int64_t>() == 5);
  // Empty reductions give the identity.
  CHECK(loom::sum(loom::zeros({0})).item<double>() == 0.0);
  CHECK(loom::prod(zeros_of(DType::Int8, {0})).item<std::int64_t>() == 1);
  CHECK_THAT(values<double>(loom::sum(loom::zeros({0, 3}), 0)), Equals(std::vector<double>{0, 0, 0}));
  CHECK(loom::any(loom::zeros({0})).item<bool>() == false);
  CHECK(loom::alltrue(loom::zeros({0})).item<bool>() == true);
  CHECK(std::isnan(loom::mean(loom::zeros({0})).item<double>()));
  CHECK(std::isnan(loom::mean(zeros_of(DType::Int32, {0})).item<double>()));

  const Array f = arr<double>({1, kNaN, 2, 0.5});
  CHECK(loom::nansum(f).item<double>() == 3.5);
  CHECK(std::isnan(loom::sum(f).item<double>()));
  CHECK(loom::nanmean(f).item<double>() == Approx(3.5 / 3));
  CHECK(std::isnan(loom::nanmean(arr<double>({kNaN, kNaN})).item<double>()));
  CHECK(loom::nanmean(arr<float>({1, NAN, 2})).item<float>() == 1.5f);
  CHECK_THAT(values<std::int64_t>(loom::count_nonzero(arr<double>({0, 1, kNaN, 0, 0, 2}, {2, 3}), 1)),
             Equals(std::vector<std::int64_t>{2, 1}));
  CHECK(loom::count_nonzero(arr<std::complex<double>>({{0, 0}, {0, 1}, {2, 0}})).item<std::int64_t>() == 2);

  const Array c = arr<std::complex<double>>({{1, 2}, {3, -1}});
  CHECK(loom::sum(c).item<std::complex<double>>() == std::complex<double>(4, 1));
  CHECK(loom::prod(c).item<std::complex<double>>() == std::complex<double>(5, 5));

  CHECK(loom::any(arr<std::int32_t>({0, 0, 3})).item<bool>());
  CHECK_FALSE(loom::alltrue(arr<std::int32_t>({0, 0, 3})).item<bool>());
  CHECK_THAT(values<bool>(loom::alltrue(arr<double>({1, 2, 0, kNaN}, {2, 2}), 1)),
             Equals(std::vector<bool>{true, false}));
}

TEST_CASE("extrema and their indices give NumPy's values", "[reductions]") {
  CHECK(loom::argmax(arr<std::int64_t>({1, 3, 3, 2})).item<std::int64_t>() == 1);
  CHECK(loom::argmin(arr<std::int64_t>({2, 1, 1})).item<std::int64_t>() == 1);
  CHECK(loom::argmax(arr<double>({1, kNaN, 3, kNaN})).item<std::int64_t>() == 1);
  CHECK(loom::argmin(arr<double>({1, 0, kNaN})).item<std::int64_t>() == 2);
  const Array m = arr<std::int64_t>({1, 5, 2, 7, 0, 7}, {2, 3});
  CHECK_THAT(values<std::int64_t>(loom::argmax(m, 1)), Equals(std::vector<std::int64_t>{1, 0}));
  CHECK_THAT(values<std::int64_t>(loom::argmax(m, 0)), Equals(std::vector<std::int64_t>{1, 0, 1}));
  CHECK(loom::argmax(m).item<std::int64_t>() == 3);              // of the flattened array
  CHECK(loom::argmax(m.T()).item<std::int64_t>() == 1);          // flattened in C order of the view
  CHECK(loom::argmin(m, loom::none, true).item<std::int64_t>() == 4);
  CHECK(loom::argmax(Array(3.0)).item<std::int64_t>() == 0);
  CHECK(loom::argmax(loom::asarray(std::vector<bool>{false, true, true})).item<std::int64_t>() == 1);

  const Array f = arr<double>({1, kNaN, 3});
  CHECK(std::isnan(loom::max(f).item<double>()));
  CHECK(std::isnan(loom::min(f).item<double>()));
  CHECK(loom::nanmax(f).item<double>() == 3);
  CHECK(loom::nanmin(f).item<double>() == 1);
  CHECK(std::isnan(loom::nanmax(arr<double>({kNaN, kNaN})).item<double>()));
  CHECK_THAT(values<std::int64_t>(loom::max(m, 1)), Equals(std::vector<std::int64_t>{5, 7}));
  CHECK_THAT(values<std::int64_t>(loom::amin(m, 0)), Equals(std::vector<std::int64_t>{1, 0, 2}));
  CHECK(loom::max(arr<std::uint64_t>({1, UINT64_MAX, 2})).item<std::uint64_t>() == UINT64_MAX);
  CHECK(loom::min(arr<std::int8_t>({1, -128, 2})).item<std::int8_t>() == -128);
  CHECK(loom::max(arr<float>({-INFINITY, -INFINITY})).item<float>() == -INFINITY);
  CHECK(loom::max(loom::asarray(std::vector<bool>{false, true})).item<bool>());
  CHECK_FALSE(loom::min(loom::asarray(std::vector<bool>{false, true})).item<bool>());
  CHECK(loom::max(arr<float>({1.5f, 2.5f}).astype(DType::Float16)).item<float>() == 2.5f);
  // Complex numbers order lexicographically; a NaN propagates (max) or is skipped (nanmax).
  CHECK(loom::max(arr<std::complex<double>>({{1, 1}, {1, 2}, {0, 5}})).item<std::complex<double>>() ==
        std::complex<double>(1, 2));
  CHECK(loom::argmax(arr<std::complex<double>>({{1, 1}, {1, 2}, {1, 2}})).item<std::int64_t>() == 1);
  CHECK(std::isnan(loom::max(arr<std::complex<double>>({{1, 1}, {kNaN, 0}, {3, 0}}))
                       .item<std::complex<double>>().real()));
  CHECK(loom::nanmax(arr<std::complex<double>>({{1, 1}, {kNaN, 0}, {3, 0}})).item<std::complex<double>>() ==
        std::complex<double>(3, 0));

  CHECK_THAT(values<std::int64_t>(loom::ptp(arr<std::int64_t>({1, 5, 3, 2}, {2, 2}), 0)),
             Equals(std::vector<std::int64_t>{2, 3}));
  CHECK(loom::ptp(arr<std::uint8_t>({5, 250})).item<std::uint8_t>() == 245);
}

TEST_CASE("statistics give NumPy's values", "[reductions]") {
  const Array v = arr<std::int64_t>({1, 2, 3, 4});
  CHECK(loom::mean(v).dtype() == DType::Float64);
  CHECK(loom::mean(v).item<double>() == 2.5);
  CHECK(loom::mean(v, Axes{}, false, DType::Int64).item<std::int64_t>() == 2);  // truncated
  // dtype= converts each element first, as NumPy: (1 + 2) / 2, truncated.
  CHECK(loom::mean(arr<double>({1.5, 2.7}), Axes{}, false, DType::Int64).item<std::int64_t>() == 1);
  CHECK(loom::sum(arr<double>({1.5, 2.7}), Axes{}, false, DType::Int32).item<std::int32_t>() == 3);
  CHECK(loom::var(v).item<double>() == 1.25);
  CHECK(loom::var(v, Axes{}, false, 1).item<double>() == Approx(1.6666666666666667));
  CHECK(loom::std(v).item<double>() == Approx(std::sqrt(1.25)));
  CHECK(loom::var(arr<double>({1, 2}), Axes{}, false, 2).item<double>() == kInf);  // n - ddof <= 0
  CHECK(std::isnan(loom::var(loom::zeros({0})).item<double>()));
  CHECK(loom::var(Array(3.0)).item<double>() == 0.0);
  const Array m = arr<double>({1, 2, 3, 5, 7, 9}, {2, 3});
  CHECK_THAT(values<double>(loom::mean(m, 1)), Equals(std::vector<double>{2, 7}));
  CHECK_THAT(values<double>(loom::mean(m, 0, true)), Equals(std::vector<double>{3, 4.5, 6}));
  CHECK_THAT(values<double>(loom::var(m, 0)), Equals(std::vector<double>{4, 6.25, 9}));
  CHECK_THAT(values<double>(loom::std(m, 1, false, 1)), Equals(std::vector<double>{1, 2}));
  // float16: summed in float32, returned as float16 (1.5 is exact).
  CHECK(loom::mean(arr<float>({1, 2}).astype(DType::Float16)).item<float>() == 1.5f);
  CHECK(loom::var(arr<float>({1, 2}).astype(DType::Float16)).item<float>() == 0.25f);
  // Complex: var = var(real) + var(imag).
  const Array c = arr<std::complex<double>>({{1, 1}, {2, 0}, {3, -1}});
  CHECK(loom::var(c).item<double>() == Approx(1.3333333333333333));
  CHECK(loom::std(c).item<double>() == Approx(1.1547005383792515));
  CHECK(loom::mean(c).item<std::complex<double>>() == std::complex<double>(2, 0));

  const Array x = loom::arange(6).reshape({2, 3});
  const std::vector<double> avg = values<double>(loom::average(x, 1, arr<double>({1, 2, 3})));
  REQUIRE(avg.size() == 2);
  CHECK(avg[0] == Approx(1.3333333333333333));
  CHECK(avg[1] == Approx(4.333333333333333));
  CHECK(loom::average(arr<double>({1, 2, 3}), Axes{}, arr<double>({3, 2, 1})).item<double>() ==
        Approx(1.6666666666666667));
  CHECK(loom::average(x).item<double>() == 2.5);
  CHECK_THAT(values<double>(loom::average(x, 0, arr<double>({1, 3}), true)),
             Equals(std::vector<double>{2.25, 3.25, 4.25}));
  // Weights along several axes, given in the order of `axis`: w[j, i] weighs x[i, j].
  CHECK(loom::average(x, {1, 0}, arr<double>({1, 0, 0, 0, 0, 0}, {3, 2})).item<double>() == 0.0);
  CHECK(loom::average(x, {1, 0}, arr<double>({0, 1, 0, 0, 0, 0}, {3, 2})).item<double>() == 3.0);
}

TEST_CASE("logsumexp, softmax and log_softmax", "[reductions]") {
  CHECK(loom::logsumexp(arr<double>({0, 0})).item<double>() == Approx(std::log(2.0)));
  CHECK(loom::logsumexp(arr<double>({1000, 1000})).item<double>() == Approx(1000 + std::log(2.0)));
  CHECK(loom::logsumexp(arr<double>({-kInf, -kInf})).item<double>() == -kInf);
  CHECK(loom::logsumexp(arr<double>({1, kInf})).item<double>() == kInf);
  CHECK(std::isnan(loom::logsumexp(arr<double>({1, kNaN})).item<double>()));
  CHECK(loom::logsumexp(loom::zeros({0})).item<double>() == -kInf);
  CHECK(loom::logsumexp(arr<std::int32_t>({0, 0, 0, 0})).item<double>() == Approx(std::log(4.0)));
  CHECK(loom::logsumexp(arr<float>({0, 0})).item<float>() == Approx(std::log(2.0f)));

  const Array x = arr<double>({1, 2, 3, -1, 0, 1000}, {2, 3});
  const std::vector<double> sm = values<double>(loom::softmax(x, 1));
  REQUIRE(sm.size() == 6);
  CHECK(sm[0] + sm[1] + sm[2] == Approx(1.0));
  CHECK(sm[3] + sm[4] + sm[5] == Approx(1.0));
  CHECK(sm[2] == Approx(std::exp(3.0) / (std::exp(1.0) + std::exp(2.0) + std::exp(3.0))));
  CHECK(sm[5] == 1.0);
  const std::vector<double> all = values<double>(loom::softmax(arr<double>({1, 2, 3, 4}, {2, 2})));
  CHECK(all[0] + all[1] + all[2] + all[3] == Approx(1.0));
  const std::vector<double> ls = values<double>(loom::log_softmax(x, -1));
  CHECK(std::exp(ls[0]) + std::exp(ls[1]) + std::exp(ls[2]) == Approx(1.0));
  CHECK(ls[5] == 0.0);
  CHECK(loom::softmax(Array(2.0)).item<double>() == 1.0);
  const std::vector<float> sm32 = values<float>(loom::softmax(arr<float>({0, 0, 0, 0}), 0));
  for (float p : sm32) CHECK(p == Approx(0.25f));
}

TEST_CASE("linalg::norm gives NumPy's values", "[reductions]") {
  using loom::linalg::norm;
  const Array v = arr<double>({3, 4});
  CHECK(norm(v).item<double>() == 5.0);
  CHECK(norm(v, loom::inf).item<double>() == 4.0);
  CHECK(norm(arr<double>({3, -4}), -loom::inf).item<double>() == 3.0);
  CHECK(norm(v, 1).item<double>() == 7.0);
  CHECK(norm(arr<double>({3, 0}), 0).item<double>() == 1.0);
  CHECK(norm(v, 0).item<double>() == 2.0);
  CHECK(norm(v, 3).item<double>() == Approx(4.497941445275415));
  CHECK(norm(v, 2).item<double>() == 5.0);
  CHECK(norm(arr<std::int32_t>({3, 4})).item<double>() == 5.0);
  CHECK(norm(arr<std::complex<double>>({{3, 4}, {0, 0}})).item<double>() == 5.0);
  CHECK(norm(arr<std::complex<float>>({{3, 4}}), 1).item<float>() == 5.0f);
  CHECK(norm(loom::zeros({0})).item<double>() == 0.0);

  const Array m = arr<double>({1, 2, 3, 4}, {2, 2});
  CHECK(norm(m).item<double>() == Approx(std::sqrt(30.0)));
  CHECK(norm(m, "fro").item<double>() == Approx(5.477225575051661));
  const Array n = arr<double>({1, -2, 3, 4}, {2, 2});
  CHECK(norm(n, 1).item<double>() == 6.0);
  CHECK(norm(n, loom::inf).item<double>() == 7.0);
  CHECK(norm(n, -1).item<double>() == 4.0);
  CHECK(norm(n, -loom::inf).item<double>() == 3.0);
  CHECK_THAT(values<double>(norm(n, loom::none, 1)), Equals(std::vector<double>{std::sqrt(5.0), 5.0}));
  CHECK_THAT(values<double>(norm(n, 1, 0)), Equals(std::vector<double>{4, 6}));
  CHECK(norm(n, loom::none, Axes{}, true).shape() == Shape{1, 1});
  CHECK(norm(n, 1, {0, 1}, true).shape() == Shape{1, 1});

  const Array t = loom::arange(8).reshape({2, 2, 2});
  CHECK(norm(t).item<double>() == Approx(11.832159566199232));
  CHECK(norm(t, loom::none, {1, 2}, true).shape() == Shape{2, 1, 1});
  CHECK(norm(t, loom::none, {1, 2}).shape() == Shape{2});
  CHECK(norm(t, loom::none, -1).shape() == Shape{2, 2});
}

TEST_CASE("the reference reduces every dtype with every kind", "[reductions]") {
  // Reduce nodes built directly (lib/api never sends bool, float16 or bfloat16 to most kinds,
  // but the oracle must take them): [[1, 2], [3, 4]] reduced over axis 1.
  using loom::detail::ReduceKind;
  const loom::detail::NodeRef base = loom::arange(1, 5).reshape({2, 2}).node();
  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0));
  const double lse1 = std::log(std::exp(3.0) + std::exp(4.0));
  const auto no_read = [](const loom::detail::Storage&, std::size_t, std::size_t, void*) {
    FAIL("no storage to read");
  };
  for (DType t : loom::test::all_dtypes()) {
    for (int k = 0; k <= static_cast<int>(ReduceKind::LogSumExp); ++k) {
      const auto kind = static_cast<ReduceKind>(k);
      INFO(loom::name(t) << " " << loom::detail::reduce_name(kind));
      const loom::detail::NodeRef r =
          loom::detail::make_reduce(loom::detail::make_cast(base, t), kind, 0b10, 0);
      const std::vector<loom::detail::NodeRef> roots{r};
      const loom::ref::HostArray out = loom::ref::evaluate(roots, no_read)[0];
      const bool arg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
      REQUIRE(out.dtype == (arg ? DType::Int64 : t));
      REQUIRE(out.shape == Shape{2, 1});
      std::vector<double> got;
      loom::visit_dtype(out.dtype, [&]<class T>() {
        const T* p = reinterpret_cast<const T*>(out.data.data());
        for (int i = 0; i < 2; ++i) {
          if constexpr (requires { p[i].real(); }) got.push_back(static_cast<double>(p[i].real()));
          else got.push_back(static_cast<double>(static_cast<float>(p[i])));
        }
      });
      std::vector<double> want;
      switch (kind) {
        case ReduceKind::Sum: want = {3, 7}; break;
        case ReduceKind::Prod: want = {2, 12}; break;
        case ReduceKind::Max:
        case ReduceKind::NanMax: want = {2, 4}; break;
        case ReduceKind::Min:
        case ReduceKind::NanMin: want = {1, 3}; break;
        case ReduceKind::ArgMax: want = {1, 1}; break;
        case ReduceKind::ArgMin: want = {0, 0}; break;
        case ReduceKind::Any:
        case ReduceKind::All: want = {1, 1}; break;
        case ReduceKind::Variance: want = {0.25, 0.25}; break;
        case ReduceKind::LogSumExp: want = {lse0, lse1}; break;
      }
      if (t == DType::Bool) {  // every element is True
        for (double& w : want) w = arg ? 0 : (kind == ReduceKind::Variance ? 0 : 1);
      } else if (!loom::is_inexact(t)) {
        for (double& w : want) w = std::trunc(w);
      }
      for (int i = 0; i < 2; ++i) {
        CHECK(got[static_cast<std::size_t>(i)] ==
              Approx(want[static_cast<std::size_t>(i)]).epsilon(1e-2));
      }
    }
  }
}

TEST_CASE("loom::all is np.all and the full slice", "[reductions]") {
  const loom::Array b = loom::asarray(std::vector<std::int32_t>{1, 2, 0, 4}).reshape({2, 2});
  CHECK_FALSE(loom::all(b).item<bool>());
  CHECK(loom::all(b, 0).to_host<bool>() == std::vector<bool>{false, true});
  CHECK(b[{loom::all, 1}].to_host<std::int32_t>() == std::vector<std::int32_t>{2, 4});
}
