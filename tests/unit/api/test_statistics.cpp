// Order statistics, nan reductions, covariance and partitions (statistics.hpp, sorting.hpp)
// against NumPy's answers (stats_cases.txt, tools/gen_stats_cases.py): values, dtypes, shapes and
// errors with NumPy's wording; the kernels each is built from; and a loop of many steps.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <loom/loom.hpp>

#include "support/kernel_count.hpp"
#include "support/stats_cases.hpp"

using loom::Array;
using loom::DType;

using loom::test::kernels_of;

TEST_CASE("order statistics, nan reductions and covariance give NumPy's values, dtypes and errors", "[stats]") {
  // (polyfit solves by SVD, which has no host implementation: its lines run in the GPU tests)
  const auto needs_gpu = [](const loom::test::ManipCase& c) { return c.fn == "polyfit" && !loom::gpu_available(); };
  const auto [values, errors] = loom::test::check_numpy_table(
      std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/stats_cases.txt", loom::test::run_stats, needs_gpu);
  CHECK(values > 380);
  CHECK(errors > 30);
}

TEST_CASE("a quantile is a sort and one kernel, the nan forms the count's reduction too", "[stats][fusion]") {
  const Array x = loom::empty({64, 100}, DType::Float32);
  CHECK(kernels_of(loom::quantile(x, {0.05, 0.5, 0.95}, 1)) == 1);
  CHECK(kernels_of(loom::median(x, 1) * 2.0f) == 1);
  CHECK(kernels_of(loom::percentile(x.T(), 5.0, 0, true, "nearest")) == 1);
  CHECK(kernels_of(loom::nanquantile(x, {0.25, 0.75}, 1)) == 2);
  // (the count of a row, read back with its middle: one reduction with the gathers after it)
  CHECK(kernels_of(loom::nanmedian(x, 1)) == 1);
  CHECK(kernels_of(loom::nanvar(x, 0)) == 2);  // the count and the sum, the squared deviations
  CHECK(kernels_of(loom::nanprod(x * 2.0f, 1)) == 1);
  // (the explain text names the sort barrier the interpolation kernel reads)
  CHECK(loom::explain_string({loom::quantile(x, 0.5, 1)}).find("sort") != std::string::npos);
}

TEST_CASE("a statistics loop: quantiles and covariance of a drifting sample, many steps", "[stats]") {
  // Each step moves the sample and asks for its median, quartiles and covariance; every answer
  // is checked against the same computed on the host from the values.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> nd;
  std::vector<double> v(3 * 50);
  for (double& e : v) e = nd(rng);
  Array s = loom::asarray(v, {3, 50});
  for (int step = 0; step < 25; ++step) {
    s = (s * 0.9 + loom::sin(s) * 0.2 + static_cast<double>(step) * 0.01).eval();
    const Array med = loom::median(s, 1), q = loom::quantile(s, {0.25, 0.75}, 1), c = loom::cov(s);
    const std::vector<double> h = s.to_host<double>();
    const std::vector<double> m = med.to_host<double>(), qq = q.to_host<double>(), cc = c.to_host<double>();
    for (int r = 0; r < 3; ++r) {
      std::vector<double> row(h.begin() + r * 50, h.begin() + (r + 1) * 50);
      std::sort(row.begin(), row.end());
      CHECK(m[static_cast<std::size_t>(r)] == Approx((row[24] + row[25]) / 2));
      const double v25 = 0.25 * 49, v75 = 0.75 * 49;
      const auto lerp = [&](double vi) {
        const auto lo = static_cast<std::size_t>(std::floor(vi));
        return row[lo] + (row[lo + 1] - row[lo]) * (vi - std::floor(vi));
      };
      CHECK(qq[static_cast<std::size_t>(r)] == Approx(lerp(v25)));
      CHECK(qq[static_cast<std::size_t>(3 + r)] == Approx(lerp(v75)));
    }
    double mean0 = 0, mean1 = 0, c01 = 0;
    for (int k = 0; k < 50; ++k) mean0 += h[static_cast<std::size_t>(k)] / 50, mean1 += h[static_cast<std::size_t>(50 + k)] / 50;
    for (int k = 0; k < 50; ++k) c01 += (h[static_cast<std::size_t>(k)] - mean0) * (h[static_cast<std::size_t>(50 + k)] - mean1) / 49;
    CHECK(cc[1] == Approx(c01));
  }
}

TEST_CASE("partition's kth elements sit in their sorted places, the rest on their sides", "[stats]") {
  const Array a = loom::asarray(std::vector<double>{5, 1, 4, 8, 2, 9, -1, 3, 7, 6});
  const std::vector<double> p = loom::partition(a, 4).to_host<double>();
  CHECK(p[4] == 4.0);
  for (int k = 0; k < 4; ++k) CHECK(p[static_cast<std::size_t>(k)] <= 4.0);
  for (int k = 5; k < 10; ++k) CHECK(p[static_cast<std::size_t>(k)] >= 4.0);
  const std::vector<std::int64_t> i = loom::argpartition(a, -1).to_host<std::int64_t>();
  CHECK(i[9] == 5);
  CHECK_THROWS_WITH(loom::partition(a, 10), "kth(=10) out of bounds (10)");
  CHECK_THROWS_AS(loom::partition(a, 10), loom::ValueError);
}
