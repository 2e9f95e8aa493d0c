// Sorting, searching, scans and selections (include/loom/sorting.hpp): dtype and shape rules,
// axis handling, NumPy's errors (type and message), the barrier in explain(), and host values
// against hand-computed NumPy results (without a GPU these run the host implementations).

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::WhatContains;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Array f64(const std::vector<double>& v) { return loom::asarray(v); }
Array i64(const std::vector<std::int64_t>& v) { return loom::asarray(v); }
std::vector<std::int64_t> ints(const Array& a) { return a.to_host<std::int64_t>(); }

// Values with NaN compared as equal to NaN.
void check_doubles(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    if (std::isnan(want[i])) {
      CHECK(std::isnan(got[i]));
    } else {
      CHECK(got[i] == want[i]);
      CHECK(std::signbit(got[i]) == std::signbit(want[i]));
    }
  }
}

}  // namespace

TEST_CASE("sort: shapes and dtypes as NumPy, the call is a barrier", "[sorting]") {
  const Array x = loom::arange(12).reshape({3, 4}).astype(loom::float32);
  CHECK(loom::sort(x).shape() == loom::Shape{3, 4});
  CHECK(loom::sort(x).dtype() == DType::Float32);
  CHECK(loom::sort(x, loom::none).shape() == loom::Shape{12});
  CHECK(loom::argsort(x, 0).dtype() == DType::Int64);
  CHECK(loom::argsort(x, 0).shape() == loom::Shape{3, 4});
  const std::string plan = loom::explain_string({loom::sort(x * 2) + 1});
  CHECK_THAT(plan, Contains("barrier: library call sort (cub::BlockRadixSort, a row per block (32 threads x 4 items, "
                            "32-bit radix keys), float32)"));
  CHECK_THAT(plan, Contains("its inputs first: 1 kernel(s)"));
  CHECK_THAT(loom::explain_string({loom::argsort(loom::arange(5))}),
             Contains("cub::BlockRadixSort, a row per block (32 threads x 4 items, 64-bit radix keys, int32 indices), "
                      "int64"));
  // Rows longer than a block holds: segmented when many, one CUB sort per row when one.
  const Array wide = loom::zeros(loom::Shape{3, 5000}, DType::Float32);
  CHECK_THAT(loom::explain_string({loom::sort(wide)}),
             Contains("cub::DeviceSegmentedRadixSort::SortKeys (32-bit radix keys), float32"));
  CHECK_THAT(loom::explain_string({loom::argsort(wide.astype(DType::Int64), loom::none)}),
             Contains("cub::DeviceRadixSort::SortPairs (64-bit radix keys), int64"));
  // One long row of a dtype CUB sorts on its own keys; float16 goes through radix keys.
  CHECK_THAT(loom::explain_string({loom::sort(wide, loom::none)}),
             Contains("cub::DeviceRadixSort::SortKeys on float32 keys (NaNs moved last)"));
  CHECK_THAT(loom::explain_string({loom::sort(wide.astype(DType::Float16), loom::none)}),
             Contains("cub::DeviceRadixSort::SortKeys (16-bit radix keys), float16"));
  // Complex: a lexsort of (imag, real, NaN class), then a gather.
  const std::string cplan = loom::explain_string({loom::sort(x.astype(DType::Complex64), loom::none)});
  CHECK_THAT(cplan, Contains("library call lexsort (3 keys"));
  CHECK_THAT(cplan, Contains("library call take (a gather"));
}

TEST_CASE("sort: rows of up to 4096 elements sort a row per block, the block sized by the row", "[sorting]") {
  const auto plan_of = [](std::int64_t rows, std::int64_t length, bool indices) {
    const Array x = loom::zeros(loom::Shape{rows, length}, DType::Float64);
    return loom::explain_string({indices ? loom::argsort(x) : loom::sort(x)});
  };
  const std::pair<std::int64_t, const char*> shapes[] = {
      {1, "32 threads x 4 items"},     {128, "32 threads x 4 items"},   {129, "128 threads x 4 items"},
      {512, "128 threads x 4 items"},  {513, "256 threads x 8 items"},
      {2048, "256 threads x 8 items"}, {2049, "512 threads x 8 items"}, {4096, "512 threads x 8 items"}};
  for (const auto& [length, shape] : shapes) {
    INFO("length " << length);
    CHECK_THAT(plan_of(1000, length, false), Contains(fmt::format("cub::BlockRadixSort, a row per block ({}, 64-bit "
                                                                  "radix keys), float64",
                                                                  shape)));
    CHECK_THAT(plan_of(3, length, true), Contains(fmt::format("({}, 64-bit radix keys, int32 indices), float64", shape)));
  }
  CHECK_THAT(plan_of(1000, 4097, false), Contains("cub::DeviceSegmentedRadixSort::SortKeys (64-bit radix keys)"));
  CHECK_THAT(plan_of(1000, 4097, true), Contains("cub::DeviceSegmentedRadixSort::SortPairs (64-bit radix keys)"));
  // Along axis 0: the rows are the columns, as long as the first axis.
  const Array tall = loom::zeros(loom::Shape{1024, 8}, DType::BFloat16);
  CHECK_THAT(loom::explain_string({loom::sort(tall, 0)}),
             Contains("(256 threads x 8 items, 16-bit radix keys), bfloat16"));
}

TEST_CASE("sort: NaN last, -0.0 equals 0.0, every axis", "[sorting]") {
  check_doubles(loom::sort(f64({3, kNaN, -1, 2, -kInf, kInf, 0, kNaN})).to_host<double>(),
                {-kInf, -1, 0, 2, 3, kInf, kNaN, kNaN});
  const Array m = i64({5, 1, 4, 2, 8, 0}).reshape({2, 3});
  CHECK_THAT(ints(loom::sort(m)), Equals(std::vector<std::int64_t>{1, 4, 5, 0, 2, 8}));
  CHECK_THAT(ints(loom::sort(m, 0)), Equals(std::vector<std::int64_t>{2, 1, 0, 5, 8, 4}));
  CHECK_THAT(ints(loom::sort(m, -2)), Equals(std::vector<std::int64_t>{2, 1, 0, 5, 8, 4}));
  CHECK_THAT(ints(loom::sort(m, loom::none)), Equals(std::vector<std::int64_t>{0, 1, 2, 4, 5, 8}));
  CHECK_THAT(ints(loom::argsort(m, 0)), Equals(std::vector<std::int64_t>{1, 0, 1, 0, 1, 0}));
  // A transposed (non-contiguous) input.
  CHECK_THAT(ints(loom::sort(m.T())), Equals(std::vector<std::int64_t>{2, 5, 1, 8, 0, 4}));
}

TEST_CASE("argsort is stable: ties keep their order, -0.0 ties with 0.0, NaNs tie", "[sorting]") {
  CHECK_THAT(ints(loom::argsort(i64({2, 1, 2, 1, 0}))), Equals(std::vector<std::int64_t>{4, 1, 3, 0, 2}));
  CHECK_THAT(ints(loom::argsort(f64({0.0, -0.0, 0.0, -1}))), Equals(std::vector<std::int64_t>{3, 0, 1, 2}));
  CHECK_THAT(ints(loom::argsort(f64({kNaN, 1, kNaN, -kNaN, 0}))), Equals(std::vector<std::int64_t>{4, 1, 0, 2, 3}));
}

TEST_CASE("sort orders every real dtype", "[sorting]") {
  for (DType t : loom::test::all_dtypes()) {
    if (loom::is_complex(t)) continue;
    INFO(loom::name(t));
    const Array x = (t == DType::Bool ? i64({1, 0, 1, 0}) : i64({3, -2, 7, 0})).astype(t);
    const Array got = loom::sort(x).astype(DType::Float64);
    std::vector<double> want;
    if (t == DType::Bool) {
      want = {0, 0, 1, 1};
    } else if (loom::is_unsigned_int(t)) {  // -2 wraps to the largest value
      want = {0, 3, 7, loom::Scalar::of(std::int64_t{-2}, false).cast(t).cast(DType::Float64).f};
    } else {
      want = {-2, 0, 3, 7};
    }
    check_doubles(got.to_host<double>(), want);
    const std::vector<std::int64_t> order = loom::is_unsigned_int(t) ? std::vector<std::int64_t>{3, 0, 2, 1}
                                                                      : std::vector<std::int64_t>{1, 3, 0, 2};
    CHECK_THAT(ints(loom::argsort(x)), Equals(order));
  }
  check_doubles(loom::sort(f64({2, kNaN, -1}).astype(DType::Float16)).astype(DType::Float64).to_host<double>(),
                {-1, 2, kNaN});
  check_doubles(loom::sort(f64({2, kNaN, -1}).astype(DType::BFloat16)).astype(DType::Float64).to_host<double>(),
                {-1, 2, kNaN});
}

TEST_CASE("complex numbers sort, search and unique in NumPy's order", "[sorting]") {
  using C = std::complex<double>;
  const std::vector<C> z{{2, 1},    {kNaN, 0}, {1, kNaN}, {1, 2},  {1, 1},
                         {kNaN, kNaN}, {1, -1}, {2, 1},    {0, kNaN}, {kNaN, -1}};
  // np.argsort(z, kind="stable"): [R + Rj, R + nanj, nan + Rj, nan + nanj].
  const std::vector<std::int64_t> order{6, 4, 3, 0, 7, 8, 2, 9, 1, 5};
  for (DType t : {DType::Complex64, DType::Complex128}) {
    INFO(loom::name(t));
    const Array x = loom::asarray(z).astype(t);
    CHECK_THAT(ints(loom::argsort(x)), Equals(order));
    const std::vector<C> sorted = loom::sort(x).astype(DType::Complex128).to_host<C>();
    REQUIRE(sorted.size() == z.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
      const C want = z[static_cast<std::size_t>(order[i])];
      INFO("element " << i);
      CHECK((sorted[i].real() == want.real() || (std::isnan(sorted[i].real()) && std::isnan(want.real()))));
      CHECK((sorted[i].imag() == want.imag() || (std::isnan(sorted[i].imag()) && std::isnan(want.imag()))));
    }
    const Array s = loom::sort(x);
    const Array v = loom::asarray(std::vector<C>{{1, 1}, {kNaN, kNaN}, {1, kNaN}}).astype(t);
    CHECK_THAT(ints(loom::searchsorted(s, v)), Equals(std::vector<std::int64_t>{1, 9, 6}));
    CHECK_THAT(ints(loom::searchsorted(s, v, "right")), Equals(std::vector<std::int64_t>{2, 10, 7}));
    // equal_nan: every value with a NaN part is one value (the first in sorted order).
    const loom::UniqueResult u = loom::unique(x, true, true, true);
    CHECK(u.values.size() == 5);
    CHECK_THAT(ints(u.index), Equals(std::vector<std::int64_t>{6, 4, 3, 0, 8}));
    CHECK_THAT(ints(u.counts), Equals(std::vector<std::int64_t>{1, 1, 1, 2, 5}));
    CHECK_THAT(ints(u.inverse), Equals(std::vector<std::int64_t>{3, 4, 4, 2, 1, 4, 0, 3, 4, 4}));
  }
  // Along an axis, and as a lexsort key.
  const Array m = loom::asarray(std::vector<C>{{3, 0}, {1, 0}, {0, 1}, {0, -1}}, {2, 2});
  CHECK_THAT(ints(loom::argsort(m, 0)), Equals(std::vector<std::int64_t>{1, 1, 0, 0}));
  CHECK_THAT(ints(loom::argsort(m, -1)), Equals(std::vector<std::int64_t>{1, 0, 1, 0}));
  CHECK(loom::sort(m, 0).to_host<C>() == std::vector<C>{{0, 1}, {0, -1}, {3, 0}, {1, 0}});
  CHECK(loom::sort(m, std::nullopt).to_host<C>() == std::vector<C>{{0, -1}, {0, 1}, {1, 0}, {3, 0}});
  const Array key = loom::asarray(std::vector<C>{{1, 0}, {0, 0}, {1, 0}});
  CHECK_THAT(ints(loom::lexsort({loom::asarray(std::vector<std::int64_t>{5, 1, 2}), key})),
             Equals(std::vector<std::int64_t>{1, 2, 0}));
}

TEST_CASE("sorting errors name the op, with NumPy's wording", "[sorting][errors]") {
  const Array m = loom::zeros({2, 3});
  REQUIRE_THROWS_MATCHES(loom::sort(m, 2), loom::IndexError,
                         WhatContains("axis 2 is out of bounds for array of dimension 2"));
  REQUIRE_THROWS_MATCHES(loom::argsort(loom::zeros({}), -1), loom::IndexError,
                         WhatContains("axis -1 is out of bounds for array of dimension 0"));
  REQUIRE_THROWS_MATCHES(loom::cumsum(m, -3), loom::IndexError,
                         WhatContains("axis -3 is out of bounds for array of dimension 2"));
  REQUIRE_THROWS_MATCHES(loom::searchsorted(loom::arange(3), 1, "up"), loom::ValueError,
                         WhatContains("side must be 'left' or 'right' (got 'up')"));
  REQUIRE_THROWS_MATCHES(loom::searchsorted(m, 1), loom::ValueError, WhatContains("a must be 1-D (got shape (2,3))"));
  REQUIRE_THROWS_MATCHES(loom::lexsort({}), loom::ValueError, WhatContains("need sequence of keys with len > 0"));
  REQUIRE_THROWS_MATCHES(loom::lexsort({loom::arange(3), loom::arange(4)}), loom::ShapeError,
                         WhatContains("all keys need to be the same shape"));
  REQUIRE_THROWS_MATCHES(loom::nonzero(Array(1.0)), loom::ValueError,
                         WhatContains("Calling nonzero on 0d arrays is not allowed"));
  REQUIRE_THROWS_MATCHES(m[loom::zeros({3}, DType::Bool)], loom::IndexError,
                         WhatContains("boolean index did not match indexed array along axis 0; size of axis is 2 "
                                      "but size of corresponding boolean axis is 3"));
  REQUIRE_THROWS_MATCHES(m[loom::zeros({2, 3, 1}, DType::Bool)], loom::IndexError,
                         WhatContains("too many indices for array: array is 2-dimensional, but 3 were indexed"));
  REQUIRE_THROWS_MATCHES(m[loom::zeros({2}, DType::Float32)], loom::IndexError,
                         WhatContains("arrays used as indices must be of integer (or boolean) type"));
}

TEST_CASE("lexsort: the last key is primary, ties broken by the earlier keys", "[sorting]") {
  // NumPy's docstring example: np.lexsort((b, a)).
  const Array a = i64({1, 5, 1, 4, 3, 4, 4}), b = i64({9, 4, 0, 4, 0, 2, 1});
  CHECK_THAT(ints(loom::lexsort({b, a})), Equals(std::vector<std::int64_t>{2, 0, 4, 6, 5, 3, 1}));
  CHECK_THAT(ints(loom::lexsort({b.astype(DType::Float32), a.astype(DType::Int8)})),
             Equals(std::vector<std::int64_t>{2, 0, 4, 6, 5, 3, 1}));
  CHECK_THAT(ints(loom::lexsort({a})), Equals(ints(loom::argsort(a))));
}

TEST_CASE("searchsorted: left and right sides, NaN last, v's shape", "[sorting]") {
  const Array a = i64({1, 2, 3, 4, 5});
  CHECK(loom::searchsorted(a, 3).item<std::int64_t>() == 2);
  CHECK(loom::searchsorted(a, 3, "right").item<std::int64_t>() == 3);
  CHECK(loom::searchsorted(a, 3).ndim() == 0);
  const Array v = i64({-10, 10, 2, 3}).reshape({2, 2});
  CHECK(loom::searchsorted(a, v).shape() == loom::Shape{2, 2});
  CHECK_THAT(ints(loom::searchsorted(a, v)), Equals(std::vector<std::int64_t>{0, 5, 1, 2}));
  const Array s = f64({-0.0, 1, kNaN});
  CHECK_THAT(ints(loom::searchsorted(s, f64({kNaN, 0.0, 0.5}))), Equals(std::vector<std::int64_t>{2, 0, 1}));
  CHECK_THAT(ints(loom::searchsorted(s, f64({kNaN, 0.0, 0.5}), "right")), Equals(std::vector<std::int64_t>{3, 1, 1}));
  CHECK(loom::searchsorted(a.astype(DType::Float32), 2.5).item<std::int64_t>() == 2);  // weak scalar: float32
}

TEST_CASE("cumsum and cumprod: NumPy's accumulation dtypes and axes", "[sorting][scan]") {
  const Array m = i64({1, 2, 3, 4, 5, 6}).reshape({2, 3});
  CHECK_THAT(ints(loom::cumsum(m)), Equals(std::vector<std::int64_t>{1, 3, 6, 10, 15, 21}));
  CHECK(loom::cumsum(m).shape() == loom::Shape{6});
  CHECK(loom::cumsum(m, 0).shape() == loom::Shape{2, 3});
  CHECK_THAT(ints(loom::cumsum(m, 0)), Equals(std::vector<std::int64_t>{1, 2, 3, 5, 7, 9}));
  CHECK_THAT(ints(loom::cumsum(m, 1)), Equals(std::vector<std::int64_t>{1, 3, 6, 4, 9, 15}));
  CHECK_THAT(ints(loom::cumprod(m, -1)), Equals(std::vector<std::int64_t>{1, 2, 6, 4, 20, 120}));
  CHECK_THAT(ints(loom::cumprod(m)), Equals(std::vector<std::int64_t>{1, 2, 6, 24, 120, 720}));
  CHECK(loom::cumsum(Array(3)).shape() == loom::Shape{1});

  CHECK(loom::cumsum(m.astype(DType::Bool)).dtype() == DType::Int64);
  CHECK(loom::cumsum(m.astype(DType::Int8)).dtype() == DType::Int64);
  CHECK(loom::cumsum(m.astype(DType::Int32)).dtype() == DType::Int64);
  CHECK(loom::cumsum(m.astype(DType::UInt8)).dtype() == DType::UInt64);
  CHECK(loom::cumprod(m.astype(DType::UInt32)).dtype() == DType::UInt64);
  CHECK(loom::cumsum(m.astype(DType::Float16)).dtype() == DType::Float16);
  CHECK(loom::cumsum(m.astype(DType::Float32)).dtype() == DType::Float32);
  CHECK(loom::cumsum(m.astype(DType::Complex64)).dtype() == DType::Complex64);
  CHECK(loom::cumsum(m, 0, DType::Int8).dtype() == DType::Int8);

  // int8 wraps when asked for; float16 rounds after every step (2048 + 1 == 2048).
  CHECK_THAT(loom::cumsum(i64({100, 100, 100}), loom::none, DType::Int8).to_host<std::int8_t>(),
             Equals(std::vector<std::int8_t>{100, -56, 44}));
  CHECK(loom::cumsum(loom::ones({3000}, DType::Float16)).astype(DType::Float64).to_host<double>().back() == 2048);
  const auto c = loom::cumprod(loom::asarray(std::vector<std::complex<double>>{{1, 1}, {1, 1}, {0, 2}}))
                     .to_host<std::complex<double>>();
  CHECK(c[1] == std::complex<double>(0, 2));
  CHECK(c[2] == std::complex<double>(-4, 0));
  CHECK_THAT(loom::explain_string({loom::cumsum(m, 0)}), Contains("cub::DeviceScan::InclusiveScanByKey (sum), int64"));
}

TEST_CASE("unique: sorted values, first index, inverse, counts, NaNs collapse", "[sorting][eager]") {
  const Array x = f64({3, 1, 2, 3, 1, kNaN, kNaN});
  const loom::UniqueResult u = loom::unique(x, true, true, true);
  CHECK(u.values.is_evaluated());
  check_doubles(u.values.to_host<double>(), {1, 2, 3, kNaN});
  CHECK_THAT(ints(u.index), Equals(std::vector<std::int64_t>{1, 2, 0, 5}));
  CHECK_THAT(ints(u.inverse), Equals(std::vector<std::int64_t>{2, 0, 1, 2, 0, 3, 3}));
  CHECK_THAT(ints(u.counts), Equals(std::vector<std::int64_t>{2, 1, 2, 2}));
  CHECK_FALSE(loom::unique(x, false).index.valid());
  const Array m = i64({4, 4, 1, 4}).reshape({2, 2});
  CHECK_THAT(ints(loom::unique(m)), Equals(std::vector<std::int64_t>{1, 4}));
  CHECK(loom::unique(m, false, true).inverse.shape() == loom::Shape{2, 2});
  CHECK(loom::unique(loom::zeros({0})).shape() == loom::Shape{0});
  // -0.0 and 0.0 are one value: the first occurrence's bits are kept.
  const auto z = loom::unique(f64({-0.0, 0.0})).to_host<double>();
  REQUIRE(z.size() == 1);
  CHECK(std::signbit(z[0]));
}

TEST_CASE("nonzero, flatnonzero and boolean masks", "[sorting][eager]") {
  const Array m = f64({0, 1, 0, 2, 0, kNaN}).reshape({2, 3});
  const std::vector<Array> nz = loom::nonzero(m);
  REQUIRE(nz.size() == 2);
  CHECK_THAT(ints(nz[0]), Equals(std::vector<std::int64_t>{0, 1, 1}));
  CHECK_THAT(ints(nz[1]), Equals(std::vector<std::int64_t>{1, 0, 2}));
  CHECK_THAT(ints(loom::flatnonzero(m)), Equals(std::vector<std::int64_t>{1, 3, 5}));
  CHECK(loom::nonzero(loom::zeros({3})).at(0).shape() == loom::Shape{0});

  const Array x = loom::arange(6).reshape({2, 3});
  CHECK_THAT(ints(x[x % 2 == 0]), Equals(std::vector<std::int64_t>{0, 2, 4}));
  CHECK(x[x > 10].shape() == loom::Shape{0});
  const Array rows = x[loom::asarray(std::vector<bool>{false, true})];
  CHECK(rows.shape() == loom::Shape{1, 3});
  CHECK_THAT(ints(rows), Equals(std::vector<std::int64_t>{3, 4, 5}));
  CHECK(x[Array(true)].shape() == loom::Shape{1, 2, 3});
  // Existing indexing is unchanged.
  CHECK(x[1].shape() == loom::Shape{3});
  CHECK(x[{loom::all, 1}].shape() == loom::Shape{2});
}
