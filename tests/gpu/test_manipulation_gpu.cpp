// Array manipulation on the GPU: NumPy's answers (manipulation_cases.txt, read from the
// repository root), and joins, tiles, rolls and pads of every dtype fused with the ops around
// them against the host reference evaluator on random inputs, outputs poisoned.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/manipulation_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("array manipulation gives NumPy's values on the GPU", "[gpu][manipulation]") {
  loom::exec::set_poison_outputs(true);
  int n = 0;
  for (const auto& c : loom::test::manipulation_cases("tests/unit/api/manipulation_cases.txt")) {
    if (!c.error_type.empty()) continue;
    INFO(c.line);
    const std::vector<Array> r = loom::test::run_manipulation(c);
    REQUIRE(r.size() == c.want.size());
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(loom::test::check_manip(r[k], c.want[k]) == "");
    ++n;
  }
  CHECK(n > 130);
}

TEST_CASE("joins, tiles, rolls and pads of every dtype fuse and match the reference", "[gpu][manipulation]") {
  std::mt19937_64 rng(151);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array a = loom::test::random_array(t, {37, 70}, rng).eval();
    const Array b = loom::test::random_array(t, {37, 9}, rng).eval();
    const Array c = loom::test::random_array(DType::Int8, {37, 3}, rng).eval();
    loom::reset_cache_stats();
    CHECK(loom::test::check_gpu(loom::concatenate({a, b.astype(t), a.flip(1), c}, 1)) == "");
    CHECK(loom::cache_stats().launches == 1);
    CHECK(loom::test::check_gpu(loom::concatenate({a, b}, std::nullopt)) == "");
    // Pieces that reshape a transposed array (no view: read in C order from a copy), first and
    // last: each read only in its own range.
    CHECK(loom::test::check_gpu(loom::concatenate({a.T().reshape({-1}), b.reshape({-1}), c.T().reshape({-1}).astype(t)})) == "");
    CHECK(loom::test::check_gpu(loom::stack({a, a.T().T(), a.flip(1)}, 1)) == "");
    CHECK(loom::test::check_gpu(loom::vstack({a.T(), b.T()})) == "");
    CHECK(loom::test::check_gpu(loom::tile(a[loom::Slice(0, 5)], {3, 2})) == "");
    CHECK(loom::test::check_gpu(loom::repeat(b, 3, 0)) == "");
    CHECK(loom::test::check_gpu(loom::roll(a, {5, -30}, {0, 1})) == "");
    for (const char* mode : {"constant", "edge", "reflect", "symmetric", "wrap"}) {
      INFO(mode);
      loom::PadOptions o;
      o.mode = mode;
      CHECK(loom::test::check_gpu(loom::pad(b, {{2, 40}, {11, 3}}, o)) == "");
    }
    for (const char* mode : {"mean", "median"}) {  // stat_length 0: NumPy's NaN, cast as NumPy casts it
      INFO(mode);
      loom::PadOptions o;
      o.mode = mode;
      o.stat_length = 0;
      CHECK(loom::test::check_gpu(loom::pad(b, {{2, 0}, {1, 3}}, o) * 1) == "");
    }
    CHECK(loom::test::check_gpu(loom::delete_(a, std::vector<std::int64_t>{0, 5, 6, 69}, 1)) == "");
    CHECK(loom::test::check_gpu(loom::insert(a, std::vector<std::int64_t>{3, 0, 70}, b[{loom::all, loom::Slice(0, 1)}], 1)) == "");
    CHECK(loom::test::check_gpu(loom::triu(a, 3)) == "");
    CHECK(loom::test::check_gpu(loom::diag(a[0], -2)) == "");
    if (!loom::is_bool(t)) {
      // Computed inputs: the producers fuse into the join; a reduction of it is computed after.
      CHECK(loom::test::check_gpu(loom::concatenate({a * a, loom::tile(b, {1, 2}) - b[{loom::all, loom::Slice(0, 1)}]}, 1), 1e-6, 1e-6) == "");
      CHECK(loom::test::check_gpu(loom::diagonal(a + a, 3), 1e-6, 1e-6) == "");
      CHECK(loom::test::check_gpu(loom::sum(loom::concatenate({a, b}, 1).astype(DType::Float64), 1), 1e-9, 1e-6) == "");
    }
  }
}

TEST_CASE("a concatenation of fused producers reads each input once, in one kernel", "[gpu][manipulation]") {
  const std::int64_t n = (1 << 20) + 3;  // not a multiple of the vector width
  std::mt19937_64 rng(152);
  const Array x = loom::test::random_array(DType::Float32, {n}, rng).eval();
  const Array y = loom::test::random_array(DType::Float32, {n - 5}, rng).eval();
  loom::reset_cache_stats();
  const Array r = loom::concatenate({x * 2, y + 1, loom::exp(x), y[loom::Slice(0, 17)]});
  CHECK(loom::test::check_gpu(r, 1e-6, 1e-6) == "");
  CHECK(loom::cache_stats().launches == 1);
  const Array p = loom::pad(x.reshape({1, n}), {{3, 2}, {5, 4}}, {.mode = "symmetric"}) * 3;
  CHECK(loom::test::check_gpu(p, 1e-6, 1e-6) == "");
  // 64 inputs: a balanced tree of placed pieces, each element computes one branch per level.
  std::vector<Array> many;
  for (int k = 0; k < 64; ++k) many.push_back(k % 3 == 0 ? x[loom::Slice(k, k + 1000)] * float(k) : y[loom::Slice(0, 777 + k)]);
  loom::reset_cache_stats();
  CHECK(loom::test::check_gpu(loom::concatenate(many), 1e-6, 1e-6) == "");
  CHECK(loom::cache_stats().launches == 9);  // groups of 8 joined first, then the 8 groups
  std::vector<Array> same;
  for (int k = 0; k < 64; ++k) same.push_back(x[loom::Slice(k, k + 1000)] + float(k));
  CHECK(loom::test::check_gpu(loom::stack(same, 1), 1e-6, 1e-6) == "");
  CHECK(loom::test::check_gpu(loom::sum(loom::stack(same, 0), 0), 1e-5, 1e-4) == "");
  // Evaluated inputs past 8: one batched row copy. Strided column views (copied contiguous
  // first), pieces of odd byte widths and offsets (narrower words), 70 inputs (two launches).
  for (DType t : {DType::Bool, DType::Int8, DType::Float16, DType::Int32, DType::Float64, DType::Complex64}) {
    const Array z = loom::test::random_array(t, {40, 301}, rng).eval();
    std::vector<Array> cols, rows;
    for (int k = 0; k < 70; ++k) cols.push_back(z[{loom::all, loom::Slice(k, k + 1 + k % 5)}]);
    for (int k = 0; k < 12; ++k) rows.push_back(z[{loom::Slice(k, k + 3), loom::Slice(k % 4, 297 + k % 4)}]);
    for (int k = 0; k < 12; ++k) rows.push_back(z[{loom::Slice(k, k + 3), loom::Slice(0, 297)}]);
    CHECK(loom::test::check_gpu(loom::concatenate(cols, 1)) == "");
    CHECK(loom::test::check_gpu(loom::concatenate(rows, 0)) == "");
    CHECK(loom::test::check_gpu(loom::stack(rows, 1)) == "");
    CHECK(loom::test::check_gpu(loom::concatenate(rows, std::nullopt)) == "");
  }
}

TEST_CASE("placed pieces on vector boundaries load 16 bytes, and lanes that disagree read alone", "[gpu][manipulation][place]") {
  std::mt19937_64 rng(153);
  const loom::Slice all = loom::all;
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array a = loom::test::random_array(t, {64, 256}, rng).eval();
    const Array b = loom::test::random_array(t, {64, 128}, rng).eval();
    // Every box on a vector boundary: whole vectors inside or outside each piece.
    const Array joined = loom::concatenate({a, b, a.flip(0)}, 1);
    const std::string joined_src = joined.source();
    CHECK(loom::test::check_gpu(joined) == "");
    CHECK(loom::test::check_gpu(loom::concatenate({a.reshape({-1}), b.reshape({-1}), a[{loom::Slice(0, 8)}].reshape({-1})})) == "");
    CHECK(loom::test::check_gpu(loom::roll(a, 8, 1)) == "");
    // Boxes through vectors: the lanes of a vector disagree there, and read one by one.
    Array y = a;
    y[{all, loom::Slice(1, 3)}] = 1;
    y[{loom::Slice(5, 9), 7}] = 0;
    y[{loom::Slice(10, 20), loom::Slice(8, 136)}] = b[{loom::Slice(0, 10)}];
    const std::string y_src = y.source();
    CHECK(loom::test::check_gpu(y) == "");
    if (t == DType::Float32) {
      CHECK_THAT(joined_src, Catch::Matchers::Contains("guards("));
      CHECK_THAT(y_src, Catch::Matchers::Contains("if (agree)"));
      const Array f = loom::concatenate({a * 2, b + 1, loom::exp(a)}, 1);
      CHECK_THAT(f.source(), Catch::Matchers::Contains("guards("));
      CHECK(loom::test::check_gpu(f, 1e-6, 1e-6) == "");
    }
  }
  // An operand of 16 MiB broadcast along outer dims (tile): its copies' rows are visited
  // together, in a row order other than C order.
  const Array x = loom::test::random_array(DType::Float32, {2, 1024, 2048}, rng).eval();
  const Array t = loom::tile(x, {2, 1, 2}) + 1;
  CHECK_THAT(t.source(), Catch::Matchers::Contains("fastest"));
  CHECK(loom::test::check_gpu(t, 1e-6, 1e-6) == "");
}
