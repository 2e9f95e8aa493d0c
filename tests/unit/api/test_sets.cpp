// The set functions (include/loom/sets.hpp) against NumPy's answers (sets_cases.txt,
// tools/gen_sets_cases.py): values, dtypes, shapes and errors with NumPy's words; isin's laziness
// and fusion (two barrier calls and one kernel, nothing run before a read); the options' spellings.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include <loom/loom.hpp>

#include "support/sets_cases.hpp"

using loom::Array;
using loom::DType;
using Catch::Matchers::Contains;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<std::int64_t> ints(const Array& a) { return a.astype(DType::Int64).to_host<std::int64_t>(); }

}  // namespace

TEST_CASE("set functions give NumPy's values, dtypes and errors", "[sets]") {
  const auto [values, errors] = loom::test::check_numpy_table(
      std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/sets_cases.txt", loom::test::run_sets);
  CHECK(values > 280);
  CHECK(errors >= 7);
}

TEST_CASE("isin of integers over a small range: NumPy's table, no sort, one lookup per element", "[sets][fusion]") {
  const Array x = loom::asarray(std::vector<std::int32_t>{5, 1, 9, 1, 4}).eval();
  const Array t = loom::asarray(std::vector<std::int32_t>{9, 4, 2}).eval();
  const Array r = loom::isin(x * 2 + 1, t);
  CHECK_FALSE(r.is_evaluated());
  const std::string plan = loom::explain_string({r});
  CHECK(plan.find("library call sort") == std::string::npos);
  // (the table itself is a scatter of the 3 tests: its own small calls)
  CHECK(ints(r) == std::vector<std::int64_t>{0, 0, 0, 0, 1});
  CHECK(ints(loom::isin(x, t, false, true)) == std::vector<std::int64_t>{1, 1, 0, 1, 0});
  // A range wider than 6x the sizes: the sort (NumPy's choice too).
  const Array wide = loom::asarray(std::vector<std::int32_t>{9, 4, 1000000});
  CHECK(ints(loom::isin(x, wide)) == std::vector<std::int64_t>{0, 0, 1, 0, 1});
  CHECK_THAT(loom::explain_string({loom::isin(x, wide)}), Contains("barrier: library call sort"));
}

TEST_CASE("isin is lazy: a sort and a search (barriers), then one fused kernel", "[sets][fusion]") {
  const Array x = loom::asarray(std::vector<std::int32_t>{5, 1, 9, 1, 4}).eval();
  const Array t = loom::asarray(std::vector<std::int32_t>{9, 4, 2}).eval();
  const Array r = loom::isin(x * 2 + 1, t, false, false, "sort");
  CHECK(r.dtype() == DType::Bool);
  CHECK(r.shape() == loom::Shape{5});
  CHECK_FALSE(r.is_evaluated());
  const std::string plan = loom::explain_string({r});
  CHECK_THAT(plan, Contains("barrier: library call sort"));
  CHECK_THAT(plan, Contains("barrier: library call searchsorted"));
  CHECK(count_of(plan, "barrier: library call") == 2);
  CHECK_THAT(plan, Contains("loom plan: 1 kernel(s)"));
  // The kernel after the barriers: the clipped search position, the gather, the comparison.
  const std::string src = r.source();
  CHECK(count_of(src, "__global__") == 1);
  CHECK_THAT(src, Contains("// gather int32"));
  CHECK_THAT(src, Contains("// equal"));
  CHECK_FALSE(r.is_evaluated());
  // The gather of the sorted tests and the comparison fuse with what reads the result.
  const Array both = loom::logical_and(r, x > 2) | loom::isin(x, t, false, true, "sort");
  CHECK_THAT(loom::explain_string({both}), Contains("loom plan: 1 kernel(s)"));
  CHECK(ints(r) == std::vector<std::int64_t>{0, 0, 0, 0, 1});
  CHECK(ints(both) == std::vector<std::int64_t>{1, 1, 0, 1, 1});
}

TEST_CASE("isin keeps element's shape, meets test_elements in the promoted dtype", "[sets]") {
  const Array m = loom::arange(6).reshape({2, 3});
  const Array r = loom::isin(m, loom::asarray(std::vector<double>{1.0, 4.5, 5.0}).reshape({3, 1}));
  CHECK(r.shape() == loom::Shape{2, 3});
  CHECK(ints(r) == std::vector<std::int64_t>{0, 1, 0, 0, 0, 1});
  CHECK(loom::isin(Array(7), loom::arange(10)).shape() == loom::Shape{});
  CHECK(loom::isin(Array(7), loom::arange(10)).item<bool>());
  // An empty test set answers without a sort.
  const Array none = loom::isin(m, loom::zeros({0}, DType::Int8), false, true);
  CHECK(loom::explain_string({none}).find("barrier") == std::string::npos);
  CHECK(ints(none) == std::vector<std::int64_t>(6, 1));
  CHECK_THROWS_MATCHES(loom::isin(m, m, false, false, "hash"), loom::ValueError,
                       Catch::Matchers::Message("Invalid kind: 'hash'. Please use None, 'sort' or 'table'."));
}

TEST_CASE("unique's options by name and by position agree, and the old signatures stay", "[sets]") {
  const Array x = loom::asarray(std::vector<double>{2.0, std::nan(""), 1.0, std::nan(""), 2.0});
  const loom::UniqueResult a = loom::unique(x, {.return_counts = true, .equal_nan = false});
  const loom::UniqueResult b = loom::unique(x, false, false, true, std::nullopt, false);
  CHECK(ints(a.counts) == std::vector<std::int64_t>{1, 2, 1, 1});
  CHECK(ints(b.counts) == ints(a.counts));
  CHECK_FALSE(a.index.valid());
  CHECK(loom::unique(x).size() == 3);
  CHECK(loom::unique(x, true, true, true).values.size() == 3);
  const loom::UniqueInverseResult inv = loom::unique_inverse(x.reshape({5, 1}));
  CHECK(inv.inverse_indices.shape() == loom::Shape{5, 1});
  CHECK(ints(inv.inverse_indices) == std::vector<std::int64_t>{1, 2, 0, 3, 1});
  // Rows: lexicographic, first column first.
  const Array rows = loom::asarray(std::vector<std::int64_t>{3, 1, 1, 2, 3, 1, 1, 0}).reshape({4, 2});
  const loom::UniqueResult u = loom::unique(rows, {.return_index = true, .return_inverse = true, .axis = 0});
  CHECK(u.values.shape() == loom::Shape{3, 2});
  CHECK(ints(u.values) == std::vector<std::int64_t>{1, 0, 1, 2, 3, 1});
  CHECK(ints(u.index) == std::vector<std::int64_t>{3, 1, 0});
  CHECK(ints(u.inverse) == std::vector<std::int64_t>{2, 1, 2, 0});
  CHECK_THROWS_MATCHES(loom::unique(rows, {.axis = 2}), loom::IndexError,
                       Catch::Matchers::Message("axis 2 is out of bounds for array of dimension 2"));
}

TEST_CASE("intersect1d, union1d, setdiff1d, setxor1d are evaluated, NumPy's dtypes", "[sets]") {
  const Array a = loom::asarray(std::vector<std::int32_t>{5, 1, 3, 5, 9});
  const Array b = loom::asarray(std::vector<float>{3.0f, 7.0f, 1.0f});
  const loom::Intersect1dResult r = loom::intersect1d(a, b, false, true);
  CHECK(r.values.is_evaluated());
  CHECK(r.values.dtype() == DType::Float64);
  CHECK(ints(r.values) == std::vector<std::int64_t>{1, 3});
  CHECK(ints(r.ar1_indices) == std::vector<std::int64_t>{1, 2});
  CHECK(ints(r.ar2_indices) == std::vector<std::int64_t>{2, 0});
  CHECK(loom::union1d(a, b).dtype() == DType::Float64);
  CHECK(ints(loom::union1d(a, b)) == std::vector<std::int64_t>{1, 3, 5, 7, 9});
  CHECK(loom::setdiff1d(a, b).dtype() == DType::Int32);
  CHECK(ints(loom::setdiff1d(a, b)) == std::vector<std::int64_t>{5, 9});
  CHECK(ints(loom::setxor1d(a, b)) == std::vector<std::int64_t>{5, 7, 9});
}

TEST_CASE("set functions take views and lazy expressions as inputs", "[sets]") {
  const Array m = loom::asarray(std::vector<std::int64_t>{3, 1, 1, 2, 3, 1, 1, 0}).reshape({4, 2});
  const loom::UniqueResult byrow = loom::unique(m, {.return_counts = true, .axis = 0});
  const loom::UniqueResult bycol = loom::unique(m.T() * 1, {.return_counts = true, .axis = 1});
  CHECK(bycol.values.shape() == loom::Shape{2, 3});
  CHECK(ints(bycol.values.T()) == ints(byrow.values));
  CHECK(ints(bycol.counts) == std::vector<std::int64_t>{1, 1, 2});
  const Array x = loom::arange(10).astype(DType::Float32);
  CHECK(ints(loom::setdiff1d(x[loom::Slice(std::nullopt, std::nullopt, -3)] * 2, x, true)) ==
        std::vector<std::int64_t>{18, 12});
  CHECK(ints(loom::intersect1d(x * 3, x.reshape({2, 5}), true, true).ar2_indices) ==
        std::vector<std::int64_t>{0, 3, 6, 9});
  CHECK(ints(loom::setxor1d(x % 4, x + 2)) == std::vector<std::int64_t>{0, 1, 4, 5, 6, 7, 8, 9, 10, 11});
}
