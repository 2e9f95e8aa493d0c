// loom::random's samplers on the GPU. Device against host: the counter-based samplers (gamma,
// beta, chisquare, binomial, negative_binomial, hypergeometric, zipf, multinomial, vonmises)
// run the same IEEE operations on both sides (runtime/libs/sampler_math.hpp), so they must match
// bit for bit (dirichlet: up to the fused exp after them), as must the random orders (a sort of integer keys); the closed forms go through
// the GPU's and the host's log/exp/pow and match to a few ulp. Statistics as in the unit tests
// (tests/support/sampling_stats.hpp) at 2^22 samples, and multivariate_normal's sample
// covariance for each factorization.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/sampling_stats.hpp"

using loom::Array;
using loom::DType;
using loom::random::Generator;
using loom::test::binomial_pmf;
using loom::test::check_chi_square;
using loom::test::check_ks;
using loom::test::check_moments;
using loom::test::values_of;

namespace {

constexpr std::int64_t kN = 1 << 22;

}  // namespace

TEST_CASE("counter-based samplers: the device's bits are the host's", "[gpu][sampling]") {
  Generator g(101);
  const std::int64_t n = 200000;
  for (double a : {0.2, 1.0, 3.5, 1000.0}) {
    INFO("gamma shape " << a);
    CHECK(loom::test::check_gpu(g.standard_gamma(a, {n}), 0, 0) == "");
  }
  CHECK(loom::test::check_gpu(g.gamma(2, 0.5, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.beta(0.5, 2, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.chisquare(7, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.beta(0.01, 0.5, {n}), 0, 0) == "");
  // dirichlet normalises exp of log-gammas in a fused kernel: exp differs in the last bit.
  CHECK(loom::test::check_gpu(g.dirichlet(loom::array({0.5, 2.0, 7.0}), {n / 3}), 1e-13, 1e-300) == "");
  CHECK(loom::test::check_gpu(g.binomial(30, 0.2, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.binomial(100000, 0.7, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.negative_binomial(4.5, 0.05, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.hypergeometric(400, 900, 500, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.zipf(1.7, {n}), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.multinomial(1000, loom::array({0.1, 0.2, 0.3, 0.4}), {n / 4}), 0, 0) == "");
  for (double kappa : {1e-6, 0.3, 4.0, 1e7}) {
    INFO("vonmises kappa " << kappa);
    CHECK(loom::test::check_gpu(g.vonmises(-1, kappa, {n}), 0, 0) == "");
  }
  CHECK(loom::test::check_gpu(g.permutation(n), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.choice(n, {n / 2}, false), 0, 0) == "");
  CHECK(loom::test::check_gpu(g.permuted(loom::arange(n).reshape({400, -1}), 1), 0, 0) == "");
}

TEST_CASE("closed forms: the device within a few ulp of the host", "[gpu][sampling]") {
  Generator g(102);
  const std::int64_t n = 200000;
  CHECK(loom::test::check_gpu(g.laplace(1, 2, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.logistic(1, 2, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.weibull(1.5, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.pareto(3, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.rayleigh(2, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.triangular(-1, 0, 4, {n}), 1e-13, 1e-14) == "");
  CHECK(loom::test::check_gpu(g.standard_t(4, {n}), 1e-11, 1e-12) == "");
  // A ceil may land on either side of an integer where log differs in its last bit: nearly all
  // counts agree, and none by more than one.
  const Array geo = g.geometric(0.3, {n});
  const auto want = loom::test::reference_of(geo);
  const auto got = values_of(geo);
  const auto* h = reinterpret_cast<const std::int64_t*>(want.data.data());
  std::int64_t equal = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    REQUIRE(std::abs(static_cast<double>(h[i]) - got[i]) <= 1);
    equal += static_cast<double>(h[i]) == got[i];
  }
  CHECK(equal >= n - 10);
}

TEST_CASE("samplers' statistics on the device", "[gpu][sampling][stats]") {
  Generator g(103);
  for (double a : {0.3, 2.5, 40.0}) {
    INFO("gamma shape " << a);
    const auto v = values_of(g.standard_gamma(a, {kN}));
    check_moments(v, a, a, 3 * a * a + 6 * a);
    check_ks(v, [a](double x) { return loom::test::gamma_p(a, x); });
  }
  const auto b = values_of(g.beta(2, 5, {kN}));
  check_ks(b, [](double x) { return loom::test::beta_cdf_int(2, 5, x); });
  const auto l = values_of(g.laplace(1, 2, {kN}));
  check_moments(l, 1, 8, 24 * 16);
  check_ks(l, [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2); });
  check_ks(values_of(g.standard_t(2, {kN})), [](double x) { return 0.5 + x / (2 * std::sqrt(2 + x * x)); });
  check_ks(values_of(g.rayleigh(2, {kN})), [](double x) { return x <= 0 ? 0 : 1 - std::exp(-x * x / 8); });
  const double pi = std::numbers::pi;
  check_ks(values_of(g.vonmises(0.5, 3, {kN})),
           loom::test::tabulated_cdf([](double x) { return std::exp(3 * (std::cos(x - 0.5) - 1)); }, -pi, pi));
  for (double p : {0.05, 0.5}) {
    const auto v = values_of(g.binomial(400, p, {kN}));
    check_moments(v, 400 * p, 400 * p * (1 - p), 0);
    check_chi_square(v, 0, 400, [&](std::int64_t k) { return binomial_pmf(400, p, k); });
  }
  const auto h = values_of(g.hypergeometric(60, 40, 30, {kN}));
  check_chi_square(h, 0, 30, [](std::int64_t k) {
    const double x = static_cast<double>(k);
    return std::exp(loom::test::log_choose(60, x) + loom::test::log_choose(40, 30 - x) - loom::test::log_choose(100, 30));
  });
  const auto geo = values_of(g.geometric(0.25, {kN}));
  check_moments(geo, 4, 12, 0);
  check_moments(values_of(g.negative_binomial(3, 0.25, {kN})), 9, 36, 0);
  const auto c = values_of(g.choice(5, {kN}, true, loom::array({0.1, 0.2, 0.3, 0.0, 0.4})));
  const double p5[] = {0.1, 0.2, 0.3, 0.0, 0.4};
  check_chi_square(c, 0, 4, [&](std::int64_t k) { return p5[k]; });
}

TEST_CASE("choice without replacement and permutations on the device", "[gpu][sampling]") {
  Generator g(104);
  const auto v = g.choice(std::int64_t{1} << 24, {1 << 20}, false).to_host<std::int64_t>();
  const std::set<std::int64_t> distinct(v.begin(), v.end());
  CHECK(distinct.size() == v.size());
  auto p = g.permutation(1 << 20).to_host<std::int64_t>();
  std::sort(p.begin(), p.end());
  for (std::size_t i = 0; i < p.size(); ++i) REQUIRE(p[i] == static_cast<std::int64_t>(i));
  Array x = loom::arange(1000);
  const Array old = x;
  g.shuffle(x);
  CHECK(old.to_host<std::int64_t>() == loom::arange(1000).to_host<std::int64_t>());
  auto s = x.to_host<std::int64_t>();
  std::sort(s.begin(), s.end());
  CHECK(s == old.to_host<std::int64_t>());
}

TEST_CASE("multivariate_normal's sample covariance on the device", "[gpu][sampling][stats]") {
  Generator g(105);
  const Array mean = loom::array({1.0, -2.0, 0.5});
  const Array cov = loom::array({{4.0, 1.2, -0.5}, {1.2, 2.0, 0.3}, {-0.5, 0.3, 1.0}});
  const std::vector<double> c = values_of(cov), m = values_of(mean);
  for (const char* method : {"svd", "eigh", "cholesky"}) {
    INFO(method);
    const auto v = values_of(g.multivariate_normal(mean, cov, {kN}, method));
    const double n = static_cast<double>(kN);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (std::size_t r = 0; r < static_cast<std::size_t>(kN); ++r) s += (v[r * 3 + i] - m[i]) * (v[r * 3 + j] - m[j]);
        const double cij = c[i * 3 + j];
        CHECK(std::abs(s / n - cij) < 6 * std::sqrt((c[i * 4] * c[j * 4] + cij * cij) / n));
      }
    }
  }
}
