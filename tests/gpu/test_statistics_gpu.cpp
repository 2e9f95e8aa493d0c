// Order statistics, nan reductions and covariance on the GPU: NumPy's answers (stats_cases.txt,
// read from the repository root) with outputs poisoned, every function on random inputs of every
// float dtype (NaNs among them) against the host reference evaluator, and a loop of many steps.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/stats_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("order statistics, nan reductions and covariance give NumPy's values on the GPU", "[gpu][stats]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] = loom::test::check_numpy_table("tests/unit/api/stats_cases.txt", loom::test::run_stats);
  CHECK(values > 380);
  CHECK(errors > 30);
}

TEST_CASE("statistics of random rows with NaNs match the reference in every float dtype", "[gpu][stats]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(401);
  for (DType t : {DType::Float16, DType::Float32, DType::Float64}) {
    INFO(loom::name(t));
    // Rows long enough for the device-wide sort (5000) and short ones sorted in blocks (37).
    for (std::int64_t n : {37, 5000}) {
      INFO(n);
      const Array x = loom::test::random_array(t, {6, n}, rng).eval();
      const Array holes = loom::test::random_array(DType::Float32, {6, n}, rng) > 0.8f;
      const Array xn = loom::where(holes, Array(std::nan("")).astype(t), x).eval();
      for (const Array& r : {loom::median(x, 1), loom::nanmedian(xn, 1), loom::quantile(x, {0.1, 0.5, 0.99}, 1),
                             loom::percentile(x, 37.0, 1, true, "hazen"), loom::quantile(x.T(), 0.3, 0, false, "lower"),
                             loom::nanquantile(xn, {0.2, 0.8}, 1, false, "weibull"), loom::quantile(xn, 0.5, 1),
                             loom::nanvar(xn, 1), loom::nanstd(xn, 0, true, 1), loom::nanprod(xn * 0.01, 1),
                             // (float16's cumulative sum rounds at every step: a parallel scan's
                             // order differs from the host's over thousands of steps)
                             loom::nancumsum(t == DType::Float16 ? xn.astype(DType::Float32) : xn, 1),
                             loom::nanargmax(xn, 1), loom::cov(x.astype(DType::Float64)),
                             loom::corrcoef(x.astype(DType::Float64))}) {
        // (float16: the GPU's order of additions differs from the host's by an ulp or two)
        const double tol = t == DType::Float16 ? 2e-2 : 1e-3;
        CHECK(loom::test::check_gpu(r, tol, tol) == "");
      }
    }
  }
}

TEST_CASE("a statistics loop on the GPU: quantiles, nan moments and covariance over 40 steps", "[gpu][stats]") {
  std::mt19937_64 rng(402);
  Array s = loom::test::random_array(DType::Float32, {8, 3000}, rng).eval();
  for (int step = 0; step < 40; ++step) {
    s = (s * 0.95f + loom::cos(s) * 0.1f).eval();
    const Array q = loom::quantile(s, {0.05, 0.5, 0.95}, 1), m = loom::nanmedian(s, 1), c = loom::cov(s);
    const Array v = loom::nanvar(loom::where(s > 0.9f, Array(std::nanf("")), s), 1);
    for (const Array& r : {q, m, c, v}) CHECK(loom::test::check_gpu(r, 1e-4, 1e-4) == "");
  }
}
