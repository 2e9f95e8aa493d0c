// Reductions on the GPU against the host reference evaluator (which accumulates floats in
// double: it is the accurate answer). Tolerances: integers, max/min/arg and logical reductions
// are exact; a float sum of n terms carries at most ~n ulp of the largest term (tree order, so
// typically sqrt(n)), which the absolute tolerance scales with; 16-bit floats accumulate in
// float32 and round once at the end.

#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

struct Fn {
  const char* name;
  std::function<Array(const Array&, const loom::Axes&)> f;
  bool exact;       // same bits expected
  bool floats_only;
};

// argmax / argmin take one axis or none (NumPy's signature); several axes are skipped.
Array arg(const Array& a, const loom::Axes& x, bool is_max) {
  if (!x.is_all() && x.list().size() != 1) throw loom::DTypeError("argmax: one axis");
  const std::optional<int> ax = x.is_all() ? std::nullopt : std::optional<int>(static_cast<int>(x.list()[0]));
  return is_max ? loom::argmax(a, ax) : loom::argmin(a, ax);
}

std::vector<Fn> functions() {
  using A = const Array&;
  using X = const loom::Axes&;
  return {
      {"sum", [](A a, X x) { return loom::sum(a, x); }, false, false},
      {"prod", [](A a, X x) { return loom::prod(a, x); }, false, false},
      {"max", [](A a, X x) { return loom::max(a, x); }, true, false},
      {"min", [](A a, X x) { return loom::min(a, x); }, true, false},
      {"any", [](A a, X x) { return loom::any(a, x); }, true, false},
      {"all", [](A a, X x) { return loom::all(a, x); }, true, false},
      {"count_nonzero", [](A a, X x) { return loom::count_nonzero(a, x); }, true, false},
      {"mean", [](A a, X x) { return loom::mean(a, x); }, false, false},
      {"var", [](A a, X x) { return loom::var(a, x); }, false, false},
      {"std ddof=1", [](A a, X x) { return loom::std(a, x, false, 1); }, false, false},
      {"norm", [](A a, X x) { return loom::linalg::norm(a, {}, x); }, false, false},
      // The nan-functions on every dtype: integers have no NaN, and nanmax/nanmin of them
      // start from the type's extremes (they once started from a float NaN's bits).
      {"nansum", [](A a, X x) { return loom::nansum(a, x); }, false, false},
      {"nanmax", [](A a, X x) { return loom::nanmax(a, x); }, true, false},
      {"nanmin", [](A a, X x) { return loom::nanmin(a, x); }, true, false},
      {"nanmean", [](A a, X x) { return loom::nanmean(a, x); }, false, false},
      {"ptp", [](A a, X x) { return loom::ptp(a, x); }, true, false},
      {"argmax", [](A a, X x) { return arg(a, x, true); }, true, false},
      {"argmin", [](A a, X x) { return arg(a, x, false); }, true, false},
      {"average", [](A a, X x) { return loom::average(a, x); }, false, false},
      {"logsumexp", [](A a, X x) { return loom::logsumexp(a, x); }, false, true},
      {"softmax", [](A a, X x) { return loom::softmax(a, x); }, false, true},
      {"log_softmax", [](A a, X x) { return loom::log_softmax(a, x); }, false, true},
  };
}

// Tolerance of a reduction of `n` elements of magnitude up to `mag` for a result dtype.
std::pair<double, double> tolerance(const Fn& fn, DType in, DType out, std::int64_t n, double mag) {
  if (fn.exact || !loom::is_inexact(out)) return {0, 0};
  double eps = 1.2e-7;
  if (out == DType::Float64 || out == DType::Complex128) eps = 2.3e-16;
  if (loom::is_half(in) || loom::is_half(out)) eps = out == DType::BFloat16 ? 8e-3 : 1e-3;
  const std::string name = fn.name;
  if (name == "prod") return {64 * eps * static_cast<double>(n), 1e-30};
  if (name == "softmax") return {8 * eps * static_cast<double>(n), 1e-30};  // exp(x - max) / sum
  if (name == "log_softmax") return {8 * eps * static_cast<double>(n), 8 * eps * mag};
  const double atol = 4.0 * eps * static_cast<double>(n) * mag;
  return {16 * eps, std::max(atol, 1e-30)};
}

void check_all(const Shape& shape, const std::vector<DType>& dtypes,
               const std::vector<loom::Axes>& axes, const std::function<Array(const Array&)>& layout,
               const char* layout_name, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (const Fn& fn : functions()) {
    for (DType t : dtypes) {
      if (fn.floats_only && !loom::is_floating(t)) continue;
      const std::string n = fn.name;
      // Integers small (sums and products wrap exactly either way, but a mean of full-range
      // int64 in float64 is off by more than the magnitude-10 tolerance below assumes).
      const loom::test::Range range = !loom::is_inexact(t) ? loom::test::Range::Small
                                      : n == "prod"        ? loom::test::Range::Unit
                                                           : loom::test::Range::Any;
      const Array x = layout(loom::test::random_array(t, shape, rng, range));
      for (const loom::Axes& ax : axes) {
        Array r;
        try {
          r = fn.f(x, ax);
        } catch (const loom::DTypeError&) {
          continue;  // NumPy refuses it too (e.g. logsumexp of complex)
        }
        // Elements per reduction (softmax's output has the input's shape: count its reduction).
        const std::int64_t count = x.size() / std::max<std::int64_t>(loom::sum(x, ax).size(), 1);
        const auto [rtol, atol] = tolerance(fn, t, r.dtype(), count, 10.0);
        INFO(fn.name << " of " << loom::name(t) << " " << layout_name << " axes "
                     << (ax.is_all() ? std::string("all") : loom::to_string(ax.list())));
        CHECK(loom::test::check_gpu(r, rtol, atol) == "");
        ++checked;
      }
    }
  }
  CHECK(checked > 10);
}

// A mean and a spread (var, std) of one input evaluated together: one kernel, both as the reference.
void check_together(const Array& mean, const Array& spread) {
  const auto rm = loom::test::reference_of(mean), rs = loom::test::reference_of(spread);
  loom::reset_cache_stats();
  loom::eval(mean, spread);
  CHECK(loom::cache_stats().launches == 1);
  CHECK(loom::test::compare(loom::test::device_of(mean), rm, 1e-5, 1e-4) == "");
  CHECK(loom::test::compare(loom::test::device_of(spread), rs, 1e-5, 1e-3) == "");
}

}  // namespace

TEST_CASE("every reduction on every dtype, inner, outer and all axes", "[gpu][reductions]") {
  check_all({37, 333}, loom::test::all_dtypes(), {1, 0, loom::Axes{}}, [](const Array& a) { return a; },
            "contiguous", 31);
}

// Every reduction on every dtype in each layout (one test case a layout, so the sharded suite
// spreads them).
TEST_CASE("reductions over middle and several axes of a 3-d input", "[gpu][reductions][layouts]") {
  check_all({5, 67, 41}, loom::test::all_dtypes(), {1, loom::Axes{0, 2}, -1}, [](const Array& a) { return a; },
            "3-d", 32);
}

TEST_CASE("reductions of a transposed input", "[gpu][reductions][layouts]") {
  check_all({67, 300}, loom::test::all_dtypes(), {1, 0}, [](const Array& a) { return a.T(); }, "transposed", 33);
}

TEST_CASE("reductions of a strided input", "[gpu][reductions][layouts]") {
  check_all({67, 300}, loom::test::all_dtypes(), {1, 0},
            [](const Array& a) { return a[{loom::Slice(1, loom::none, 2), loom::Slice(loom::none, loom::none, -3)}]; },
            "strided", 34);
}

TEST_CASE("reductions of a broadcast input", "[gpu][reductions][layouts]") {
  check_all({1, 300}, loom::test::all_dtypes(), {1, 0}, [](const Array& a) { return a.broadcast_to({45, 300}); },
            "broadcast", 35);
}

TEST_CASE("fused prologue and epilogue give the reference's values", "[gpu][reductions][fusion]") {
  std::mt19937_64 rng(36);
  const Array x = loom::test::random_array(DType::Float32, {300, 1000}, rng);
  CHECK(loom::test::check_gpu(loom::sqrt(loom::sum(x * x, 1)) + 1.0f, 1e-5, 1e-3) == "");
  CHECK(loom::test::check_gpu(loom::max(x, 1) + loom::log(loom::sum(loom::exp(x - loom::max(x, 1, true)), 1)), 1e-5, 1e-4) == "");
  CHECK(loom::test::check_gpu(loom::ptp(x.T(), 1), 0, 0) == "");
  CHECK(loom::test::check_gpu(loom::average(x, 1, loom::abs(x[0])), 1e-5, 1e-5) == "");
  // mean and var in one plan: one kernel, both right.
  check_together(loom::mean(x, 1), loom::var(x, 1));
}

TEST_CASE("NaN propagates through max and argmax, nan-functions skip it", "[gpu][reductions]") {
  std::vector<float> h(1000, 1.0f);
  h[10] = 5.0f;
  h[500] = std::nanf("");
  h[700] = std::nanf("");
  const Array x = loom::asarray(h).reshape({2, 500});
  CHECK(std::isnan(loom::max(x).item<float>()));
  CHECK(loom::argmax(x).item<std::int64_t>() == 500);
  CHECK(loom::nanmax(x).item<float>() == 5.0f);
  CHECK(loom::argmax(x, 1).to_host<std::int64_t>() == std::vector<std::int64_t>{10, 0});
  CHECK(loom::argmin(loom::zeros({1000}, DType::Float32)).item<std::int64_t>() == 0);  // ties: first
}

TEST_CASE("empty reductions give the identity", "[gpu][reductions]") {
  const Array e = loom::zeros({0, 5}, DType::Float32);
  CHECK(loom::sum(e, 0).to_host<float>() == std::vector<float>(5, 0.0f));
  CHECK(loom::prod(e, 0).to_host<float>() == std::vector<float>(5, 1.0f));
  CHECK(std::isnan(loom::mean(e, 0).to_host<float>()[0]));
  CHECK(loom::any(e).item<bool>() == false);
  CHECK(loom::sum(e, 1).to_host<float>().empty());
}

TEST_CASE("reductions are deterministic: the same bits every run", "[gpu][reductions]") {
  std::mt19937_64 rng(37);
  const Array x = loom::test::random_array(DType::Float32, {1 << 22}, rng);
  const Array y = loom::test::random_array(DType::Float32, {64, 1 << 16}, rng);
  const float first = loom::sum(x).item<float>();
  const std::vector<float> rows = loom::sum(y, 1).to_host<float>();
  const std::vector<float> cols = loom::var(y, 0).to_host<float>();
  for (int i = 0; i < 10; ++i) {
    CHECK(loom::sum(x).item<float>() == first);
    CHECK(loom::sum(y, 1).to_host<float>() == rows);
    CHECK(loom::var(y, 0).to_host<float>() == cols);
  }
}

TEST_CASE("long reductions split across blocks, and past 2^31 elements", "[gpu][reductions][large]") {
  // sum of 0..n-1 is n(n-1)/2 exactly in int64; n > 2^31 needs 64-bit indexing.
  const std::int64_t n = (std::int64_t{1} << 31) + 1000;
  CHECK(loom::sum(loom::arange(n)).item<std::int64_t>() == n * (n - 1) / 2);
  CHECK(loom::max(loom::arange(n) % 1000003).item<std::int64_t>() == 1000002);
  const std::int64_t m = (std::int64_t{1} << 26) + 17;
  CHECK(loom::sum(loom::ones({m}, DType::Int32)).item<std::int64_t>() == m);
  CHECK(loom::sum(loom::arange(m).reshape({-1, 1})[{loom::all, 0}] * 0 + 1).item<std::int64_t>() == m);
  // Rows with more tiles than a wave's share: up to 256 blocks a row of two tiles or more (8 rows
  // of 2^21 floats: 128 blocks a row), two reductions in one kernel (their partials at two
  // offsets of the stream's scratch), float64 (other tiles), and the same bits again.
  std::mt19937_64 rng(41);
  const Array y = loom::test::random_array(DType::Float32, {8, std::int64_t{1} << 21}, rng);
  CHECK(loom::test::check_gpu(loom::sum(y, 1), 1e-5, 4 * 1.2e-7 * 10 * (1 << 21)) == "");
  CHECK(loom::test::check_gpu(loom::argmax(y, 1), 0, 0) == "");
  check_together(loom::mean(y, 1), loom::std(y, 1));
  const Array z = loom::test::random_array(DType::Float64, {3, std::int64_t{1} << 21}, rng);
  CHECK(loom::test::check_gpu(loom::max(z, 1), 0, 0) == "");
  CHECK(loom::test::check_gpu(loom::sum(z * z, 1), 1e-12, 1e-6) == "");
  const std::vector<float> first = loom::sum(y, 1).to_host<float>();
  for (int i = 0; i < 3; ++i) CHECK(loom::sum(y, 1).to_host<float>() == first);
}

TEST_CASE("softmax and friends run as one row-resident kernel", "[gpu][reductions][fusion]") {
  std::mt19937_64 rng(38);
  // Threads per row grow with the row (32 .. 512), 1 .. 16 elements each.
  for (std::int64_t row : {1, 31, 33, 256, 513, 1000, 2048, 4097, 6000, 8192}) {
    INFO("row length " << row);
    const Array x = loom::test::random_array(DType::Float32, {77, row}, rng);
    const double n = static_cast<double>(row);
    for (const Array& y : {loom::softmax(x, 1), loom::log_softmax(x, 1),
                           (x - loom::mean(x, 1, true)) / loom::std(x, 1, true)}) {
      const auto want = loom::test::reference_of(y);
      loom::reset_cache_stats();
      const auto got = loom::test::device_of(y);
      CHECK(loom::cache_stats().launches == 1);
      CHECK(loom::test::compare(got, want, 8 * 1.2e-7 * n + 1e-6, 1e-5) == "");
    }
  }
  const Array h = loom::test::random_array(DType::Float16, {40, 300}, rng);
  CHECK(loom::test::check_gpu(loom::softmax(h, 1), 2e-3, 1e-4) == "");
  const Array d = loom::test::random_array(DType::Float64, {30, 8192}, rng);
  CHECK(loom::test::check_gpu(loom::softmax(d, 1), 1e-11, 1e-14) == "");
  CHECK(loom::test::check_gpu(loom::log_softmax(d, 1), 1e-11, 1e-12) == "");
  // More rows than the grid's 65535 blocks (blocks loop over rows).
  const Array many = loom::test::random_array(DType::Float32, {70000, 40}, rng);
  CHECK(loom::test::check_gpu(loom::softmax(many, 1), 1e-5, 1e-6) == "");
}

TEST_CASE("row-resident kernels with 16-byte loads and stores", "[gpu][reductions][fusion]") {
  std::mt19937_64 rng(39);
  // Rows a multiple of the width (vectors) and not (scalar), float32/16, bfloat16, float64.
  struct Case {
    DType t;
    std::int64_t row;
    double rtol, atol;
  };
  for (const Case c : {Case{DType::Float32, 8192, 1e-5, 1e-6}, Case{DType::Float32, 8188, 1e-5, 1e-6},
                       Case{DType::Float32, 8190, 1e-5, 1e-6}, Case{DType::Float32, 100, 1e-5, 1e-6},
                       Case{DType::Float16, 4096, 2e-3, 1e-4}, Case{DType::Float16, 4094, 2e-3, 1e-4},
                       Case{DType::BFloat16, 8192, 1.6e-2, 1e-3}, Case{DType::BFloat16, 1000, 1.6e-2, 1e-3},
                       Case{DType::Float64, 8192, 1e-11, 1e-14}, Case{DType::Float64, 8191, 1e-11, 1e-14}}) {
    INFO(loom::name(c.t) << " row " << c.row);
    const Array x = loom::test::random_array(c.t, {33, c.row}, rng);
    CHECK(loom::test::check_gpu(loom::softmax(x, 1), c.rtol, c.atol) == "");
    CHECK(loom::test::check_gpu(loom::log_softmax(x, 1), c.rtol, c.atol + 1e-5 * static_cast<double>(c.row)) == "");
    // A view one element into wider rows: planned with vectors, dropped at launch (misaligned);
    // and one four elements in (aligned: vectors kept).
    const Array wide = loom::test::random_array(c.t, {33, c.row + 8}, rng);
    CHECK(loom::test::check_gpu(loom::softmax(wide[{loom::all, loom::Slice(1, c.row + 1)}], 1), c.rtol, c.atol) == "");
    CHECK(loom::test::check_gpu(loom::softmax(wide[{loom::all, loom::Slice(4, c.row + 4)}], 1), c.rtol, c.atol) == "");
  }
  // Standardization (two reductions) and an epilogue reading another buffer per element.
  const Array x = loom::test::random_array(DType::Float32, {50, 4096}, rng);
  const Array w = loom::test::random_array(DType::Float32, {4096}, rng);
  CHECK(loom::test::check_gpu((x - loom::mean(x, 1, true)) / loom::std(x, 1, true), 1e-4, 1e-4) == "");
  CHECK(loom::test::check_gpu(loom::softmax(x, 1) * w, 1e-5, 1e-6) == "");
  CHECK(loom::test::check_gpu(loom::softmax(x, 1).astype(DType::Float64), 1e-5, 1e-6) == "");
}

TEST_CASE("rows of 17..2047 elements: a warp's lanes per row, every kind and dtype", "[gpu][reductions][warp_rows]") {
  const Array probe = loom::empty({300, 64}, DType::Float32);
  REQUIRE_THAT(loom::explain_string({loom::sum(probe, 1)}), Catch::Matchers::Contains("warp-rows"));
  // Rows of 64, 100, 512, 1000 take 16-byte loads (float32), 17, 33, 2047 one element per load.
  const std::vector<DType> some = {DType::Float32, DType::Int32, DType::Float16, DType::Complex64,
                                   DType::Bool, DType::Float64, DType::BFloat16, DType::UInt8};
  std::uint64_t seed = 40;
  for (std::int64_t row : {17, 64, 1000}) {
    check_all({300, row}, loom::test::all_dtypes(), {1}, [](const Array& a) { return a; }, "warp rows", ++seed);
  }
  for (std::int64_t row : {33, 100, 512, 2047}) {
    check_all({150, row}, some, {1}, [](const Array& a) { return a; }, "warp rows", ++seed);
  }
  // Rows of 64 at a stride of 68 starting one element in: planned with 16-byte loads, which the
  // launch finds misaligned and drops (vector_aligned).
  check_all({200, 68}, some, {1}, [](const Array& a) { return a[{loom::all, loom::Slice(1, 65)}]; },
            "warp rows, misaligned", ++seed);
  // Reduced axis contiguous but not last (a transposed view), and several reduced axes.
  check_all({100, 300}, some, {0}, [](const Array& a) { return a.T(); }, "warp rows, transposed", ++seed);
  check_all({40, 6, 50}, some, {loom::Axes{1, 2}}, [](const Array& a) { return a.transpose({0, 2, 1}); },
            "warp rows, 2 axes that do not collapse", ++seed);
}

TEST_CASE("warp rows: fused groups, and more rows than the grid covers in one step", "[gpu][reductions][warp_rows]") {
  std::mt19937_64 rng(50);
  const Array x = loom::test::random_array(DType::Float32, {5000, 100}, rng);
  check_together(loom::mean(x, 1), loom::var(x, 1));
  CHECK(loom::test::check_gpu(loom::sqrt(loom::sum(x * x, 1)) + 1.0f, 1e-5, 1e-3) == "");
  // 2.2M rows of 17: 4 lanes a row, 64 rows a block step; the grid (<= 32 x 8 x SMs blocks)
  // strides over them several times.
  const Array y = loom::test::random_array(DType::Float32, {2200000, 17}, rng);
  CHECK(loom::test::check_gpu(loom::sum(y, 1), 1e-5, 1e-4) == "");
  CHECK(loom::test::check_gpu(loom::argmax(y, 1), 0, 0) == "");
  // Deterministic: the same bits every run.
  const std::vector<float> first = loom::sum(y, 1).to_host<float>();
  for (int i = 0; i < 3; ++i) CHECK(loom::sum(y, 1).to_host<float>() == first);
}

TEST_CASE("skinny column reductions: tiles of columns x row slots, every kind and dtype", "[gpu][reductions][column_tiles]") {
  const Array probe = loom::empty({4097, 32}, DType::Float32);
  REQUIRE_THAT(loom::explain_string({loom::sum(probe, 0)}), Catch::Matchers::Contains("column-tiles"));
  const std::vector<DType> some = {DType::Float32, DType::Int64, DType::Float16, DType::Complex128,
                                   DType::Bool, DType::Float64};
  std::uint64_t seed = 60;
  check_all({4097, 32}, loom::test::all_dtypes(), {0}, [](const Array& a) { return a; }, "column tiles", ++seed);
  check_all({100000, 3}, some, {0}, [](const Array& a) { return a; }, "column tiles, 3 columns", ++seed);
  check_all({1000, 2048}, some, {0}, [](const Array& a) { return a; }, "column tiles, 2048 columns", ++seed);
  check_all({std::int64_t{1} << 16, 256}, {DType::Float32, DType::Int32, DType::Float16}, {0},
            [](const Array& a) { return a; }, "column tiles, 2^16 x 256", ++seed);
  // Kept dims around a reduced middle one, and a transposed input.
  check_all({7, 3000, 5}, some, {1}, [](const Array& a) { return a; }, "column tiles, middle axis", ++seed);
  check_all({40, 5000}, some, {1}, [](const Array& a) { return a.T(); }, "column tiles, transposed", ++seed);
  // 16-byte loads of adjacent columns (float32 4, 8-byte types 2 per load): columns a multiple
  // of 4 and not, and a view one column in (planned with vectors, dropped at launch).
  check_all({3001, 64}, some, {0}, [](const Array& a) { return a; }, "column tiles, 64 columns", ++seed);
  check_all({3001, 30}, some, {0}, [](const Array& a) { return a; }, "column tiles, 30 columns", ++seed);
  check_all({2000, 36}, some, {0}, [](const Array& a) { return a[{loom::all, loom::Slice(1, 33)}]; },
            "column tiles, misaligned", ++seed);
  check_all({2000, 36}, some, {0}, [](const Array& a) { return a[{loom::all, loom::Slice(4, 36)}]; },
            "column tiles, aligned view", ++seed);
  check_all({500, 8192}, {DType::Float32}, {0}, [](const Array& a) { return a; }, "column tiles, 8192 columns", ++seed);
}

TEST_CASE("column tiles split long columns across blocks deterministically", "[gpu][reductions][column_tiles]") {
  std::mt19937_64 rng(70);
  // 2^20 x 32: one tile of 32 columns, its rows split over 4 blocks per SM.
  const Array y = loom::test::random_array(DType::Float32, {std::int64_t{1} << 20, 32}, rng);
  CHECK(loom::test::check_gpu(loom::sum(y, 0), 1e-5, 4 * 1.2e-7 * 10 * (1 << 20)) == "");
  CHECK(loom::test::check_gpu(loom::argmin(y, 0), 0, 0) == "");
  CHECK(loom::test::check_gpu(loom::var(y, 0), 1e-5, 1e-3) == "");
  check_together(loom::mean(y, 0), loom::std(y, 0));
  const std::vector<float> first = loom::sum(y, 0).to_host<float>();
  const std::vector<float> vfirst = loom::var(y, 0).to_host<float>();
  for (int i = 0; i < 5; ++i) {
    CHECK(loom::sum(y, 0).to_host<float>() == first);
    CHECK(loom::var(y, 0).to_host<float>() == vfirst);
  }
}

// logsumexp keeps (max, sum of exp(x - max)) with one exp per element; var adds shifted sums (no
// division per element). Their edge cases on every strategy: a block per row (2100), warp rows
// (70), column tiles (axis 0), the whole array.
TEST_CASE("logsumexp of -inf, +inf and NaN rows, variance of constant and offset rows", "[gpu][reductions]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::mt19937_64 rng(41);
  std::normal_distribution<float> noise(0.0f, 0.1f);
  for (std::int64_t cols : {70, 2100}) {
    INFO(cols << " columns");
    const std::int64_t rows = 8;
    std::vector<float> h(static_cast<std::size_t>(rows * cols));
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto at = [&](std::int64_t r) -> float& { return h[static_cast<std::size_t>(r * cols + c)]; };
      at(0) = -inf;                                 // all -inf: -inf
      at(1) = c % 7 == 3 ? inf : float(c % 5);      // some +inf: +inf
      at(2) = c == cols / 2 ? nan : float(c % 5);   // one NaN: NaN
      at(3) = c == 1 ? nan : -inf;                  // NaN among -inf: NaN
      at(4) = c % 2 ? inf : -inf;                   // +inf and -inf: +inf
      at(5) = 2.5f;                                 // ties: 2.5 + log(n); var exactly 0
      at(6) = 1e6f + noise(rng);                    // a huge offset: var ~0.01
      at(7) = float(c);                             // a trend
    }
    const Array x = loom::asarray(h).reshape({rows, cols});
    for (int ax : {1, 0}) {
      INFO("axis " << ax);
      CHECK(loom::test::check_gpu(loom::logsumexp(x, ax), 1e-5, 1e-5) == "");
      CHECK(loom::test::check_gpu(loom::softmax(x, ax), 1e-5, 1e-30) == "");
    }
    const Array finite = x[{loom::Slice(5, 8)}];
    CHECK(loom::test::check_gpu(loom::var(finite, 1), 1e-4, 0) == "");
    CHECK(loom::test::check_gpu(loom::var(finite.T(), 0), 1e-4, 0) == "");
    CHECK(loom::var(finite, 1).to_host<float>()[0] == 0.0f);
    CHECK(loom::var(finite.T(), 0).to_host<float>()[0] == 0.0f);
    CHECK(loom::test::check_gpu(loom::logsumexp(x), 0, 0) == "");  // NaN somewhere: NaN
  }
  // Constant and offset columns of a tall array (split column tiles and a split block per output).
  const std::int64_t n = std::int64_t{1} << 18;
  std::vector<float> t(static_cast<std::size_t>(n * 4));
  for (std::int64_t r = 0; r < n; ++r) {
    t[static_cast<std::size_t>(r * 4)] = 3.7f;
    t[static_cast<std::size_t>(r * 4 + 1)] = 1e6f + noise(rng);
    t[static_cast<std::size_t>(r * 4 + 2)] = float(r % 1000);
    t[static_cast<std::size_t>(r * 4 + 3)] = -1e6f + noise(rng);
  }
  const Array y = loom::asarray(t).reshape({n, 4});
  CHECK(loom::test::check_gpu(loom::var(y, 0), 1e-4, 0) == "");
  CHECK(loom::test::check_gpu(loom::var(y.T(), 1), 1e-4, 0) == "");
  CHECK(loom::var(y, 0).to_host<float>()[0] == 0.0f);
  CHECK(loom::var(y.T(), 1).to_host<float>()[0] == 0.0f);
}
