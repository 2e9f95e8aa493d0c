// Indexing on the GPU: NumPy's answers (indexing_cases.txt, read from the repository root), and
// gathers and writes of every dtype and layout against the host reference evaluator on random
// inputs, outputs poisoned; a chain of writes is one kernel.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/indexing_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("indexing reads and writes give NumPy's values on the GPU", "[gpu][indexing]") {
  loom::exec::set_poison_outputs(true);
  int n = 0;
  for (const auto& c : loom::test::indexing_cases("tests/unit/api/indexing_cases.txt")) {
    if (c.kind == "error") continue;
    INFO(c.line);
    const Array x = loom::test::arange_of(c.shape).eval();
    const Array r = c.kind == "read" ? x.index(c.index) : loom::test::apply_write(c, x);
    CHECK(r.to_host<std::int64_t>() == c.want);
    ++n;
  }
  CHECK(n > 900);
}

TEST_CASE("gathers of every dtype and layout match the reference", "[gpu][indexing]") {
  std::mt19937_64 rng(141);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::test::random_array(t, {300, 70}, rng).eval();
    const Array i = loom::test::random_array(DType::Int64, {5000}, rng, loom::test::Range::Any);
    const Array rows = (loom::abs(i) % 300).eval();       // in range
    const Array cols = (i % 70).eval();                   // negative ones too
    CHECK(loom::test::check_gpu(x[rows]) == "");
    CHECK(loom::test::check_gpu(x[{rows, cols}]) == "");
    CHECK(loom::test::check_gpu(x[{loom::Slice(1, 200, 3), cols.reshape({50, 100})}]) == "");
    CHECK(loom::test::check_gpu(x.T()[{cols, loom::Slice(loom::none, loom::none, -7)}]) == "");  // strided source
    CHECK(loom::test::check_gpu(loom::take(x, i, std::nullopt, loom::TakeMode::Wrap)) == "");
    CHECK(loom::test::check_gpu(loom::take(x, i, 1, loom::TakeMode::Clip)) == "");
    const Array along = (loom::abs(loom::test::random_array(DType::Int64, {300, 9}, rng)) % 70).eval();
    CHECK(loom::test::check_gpu(loom::take_along_axis(x, along, 1)) == "");
    if (!loom::is_bool(t)) {
      CHECK(loom::test::check_gpu(loom::sum(x[rows.reshape({50, 100})], 1)) == "");  // in a reduction
    }
  }
}

TEST_CASE("writes of every dtype match the reference, a chain of them in one kernel", "[gpu][indexing]") {
  std::mt19937_64 rng(142);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    Array x = loom::test::random_array(t, {64, 130}, rng).eval();
    const Array v = loom::test::random_array(t, {62, 128}, rng).eval();
    const Array row = loom::test::random_array(t, {130}, rng).eval();
    x[{loom::Slice(1, -1), loom::Slice(1, -1)}] = v;
    x[{0}] = row;
    x[{loom::all, loom::Slice(0, 130, 7)}] = x[{loom::all, loom::Slice(0, 130, 7)}];  // a no-op write
    x[{-1, loom::Slice(loom::none, loom::none, -1)}] = row;
    if (!loom::is_bool(t)) x[{loom::Slice(10, 20), 5}] += row[loom::Slice(0, 10)];
    x = x.at({x == x[{3, 3}]}).set(v[{0, 0}]);  // a mask write, lazy (x[mask] = v reads x[mask] first)
    loom::reset_cache_stats();
    CHECK(loom::test::check_gpu(x) == "");
    CHECK(loom::cache_stats().launches <= 2);  // the mask's compare reads x[3,3]; the writes are one kernel
  }
}
