// loom::random's samplers beyond cuRAND's, on the host path (the counter-based samplers' host
// loop, the fused closed forms): shapes and dtypes, reproducibility (same seed, same bits; the
// call order decides the numbers, not the order of eval()), and statistics at 1e5 samples: mean
// and variance within 6 standard errors, the Kolmogorov-Smirnov distance to the exact CDF for
// the continuous samplers, Pearson's chi-square against the pmf for the discrete ones
// (tests/support/sampling_stats.hpp).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <numbers>

#include <loom/loom.hpp>

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

constexpr std::int64_t kN = 100000;
constexpr double kPi = std::numbers::pi;

std::vector<std::byte> bytes_of(const Array& a) {
  const auto v = a.astype(DType::Float64).ravel().to_host<double>();
  std::vector<std::byte> b(v.size() * sizeof(double));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

}  // namespace

TEST_CASE("samplers give the shapes and dtypes asked for", "[random][sampling]") {
  Generator g(3);
  CHECK(g.standard_gamma(2, {3, 4}).shape() == loom::Shape{3, 4});
  CHECK(g.standard_gamma(2, {5}, DType::Float32).dtype() == DType::Float32);
  CHECK(g.gamma(2, 1, {2}).dtype() == DType::Float64);
  CHECK(g.beta(2, 3, {4, 2}).shape() == loom::Shape{4, 2});
  CHECK(g.dirichlet(loom::array({1.0, 2.0, 3.0}), {4}).shape() == loom::Shape{4, 3});
  CHECK(g.dirichlet(loom::zeros({0}), {4}).shape() == loom::Shape{4, 0});
  CHECK(values_of(g.dirichlet(loom::array({0.0, 2.0}), {3})) == std::vector<double>{0, 1, 0, 1, 0, 1});
  CHECK(g.multinomial(10, loom::array({0.5, 0.5}), {7}).shape() == loom::Shape{7, 2});
  CHECK(g.multinomial(10, loom::array({0.5, 0.5})).shape() == loom::Shape{2});
  for (const Array& a : {g.binomial(5, 0.5, {3}), g.negative_binomial(2, 0.5, {3}), g.geometric(0.5, {3}),
                         g.hypergeometric(3, 4, 5, {3}), g.zipf(2, {3}), g.random_integers(4, 9, {3})}) {
    CHECK(a.dtype() == DType::Int64);
    CHECK(a.shape() == loom::Shape{3});
  }
  for (const Array& a : {g.chisquare(2, {3}), g.standard_t(2, {3}), g.laplace(0, 1, {3}), g.logistic(0, 1, {3}),
                         g.weibull(2, {3}), g.pareto(2, {3}), g.rayleigh(1, {3}), g.vonmises(0, 1, {3}),
                         g.triangular(0, 1, 2, {3})}) {
    CHECK(a.dtype() == DType::Float64);
    CHECK(a.shape() == loom::Shape{3});
  }
  CHECK(g.gamma(2).ndim() == 0);
  CHECK(g.binomial(4, 0.5, {0, 3}).size() == 0);
  CHECK(values_of(g.binomial(7, 1, {5})) == std::vector<double>(5, 7.0));
  CHECK(values_of(g.binomial(7, 0, {5})) == std::vector<double>(5, 0.0));
  CHECK(values_of(g.geometric(1, {4})) == std::vector<double>(4, 1.0));
  CHECK(values_of(g.weibull(0, {4})) == std::vector<double>(4, 0.0));
  // NaN parameters that NumPy lets through give NaN, not an endless rejection loop.
  for (double x : values_of(g.standard_gamma(NAN, {4}))) CHECK(std::isnan(x));
  for (double x : values_of(g.vonmises(0, NAN, {4}))) CHECK(std::isnan(x));
  // A gamma shape past every float gives an infinite mean: the counts saturate.
  for (double x : values_of(g.negative_binomial(1e300, 0.5, {2}))) CHECK(x > 9e18);
}

TEST_CASE("samplers depend on the seed and the call order only", "[random][sampling]") {
  Generator a(11), b(11), c(12);
  const auto draws = [](Generator& g) {
    return std::vector<Array>{g.gamma(0.7, 2, {1000}),   g.binomial(50, 0.3, {1000}), g.vonmises(1, 3, {1000}),
                              g.hypergeometric(40, 60, 30, {1000}), g.zipf(2.2, {1000}),
                              g.negative_binomial(2.5, 0.3, {1000}), g.laplace(0, 1, {1000}),
                              g.choice(100, {50}, false), g.permutation(64)};
  };
  const auto da = draws(a), db = draws(b), dc = draws(c);
  for (std::size_t i = 0; i < da.size(); ++i) {
    INFO("draw " << i);
    // b's draws evaluated last first: the values were fixed when the draws were built.
    CHECK(bytes_of(db[da.size() - 1 - i]) == bytes_of(da[da.size() - 1 - i]));
    CHECK(bytes_of(dc[i]) != bytes_of(da[i]));
  }
  // The order of the calls decides which numbers each gets.
  Generator x(5), y(5);
  const Array gx = x.gamma(3, 1, {500});
  const Array by = y.binomial(30, 0.5, {500});
  const Array gy = y.gamma(3, 1, {500});
  CHECK(bytes_of(gx) != bytes_of(gy));
  (void)by;
  // A copy continues from the same position.
  Generator z(9);
  (void)z.gamma(2, 1, {10});
  Generator w = z;
  CHECK(bytes_of(z.binomial(100, 0.2, {300})) == bytes_of(w.binomial(100, 0.2, {300})));
}

TEST_CASE("gamma family: moments and the exact CDF", "[random][sampling][stats]") {
  Generator g(21);
  for (double a : {0.3, 1.0, 2.5, 30.0}) {
    INFO("shape " << a);
    const auto v = values_of(g.standard_gamma(a, {kN}));
    check_moments(v, a, a, 3 * a * a + 6 * a);
    check_ks(v, [a](double x) { return loom::test::gamma_p(a, x); });
  }
  const auto v = values_of(g.gamma(2, 3, {kN}));
  check_moments(v, 6, 18, 81 * (3 * 4 + 12));
  check_ks(v, [](double x) { return loom::test::gamma_p(2, x / 3); });
  const auto f = values_of(g.standard_gamma(4, {kN}, DType::Float32));
  check_moments(f, 4, 4, 3 * 16 + 24);
  const auto c = values_of(g.chisquare(3, {kN}));
  check_moments(c, 3, 6, 12 * 3 + 3 * 9);
  check_ks(c, [](double x) { return loom::test::gamma_p(1.5, x / 2); });
}

TEST_CASE("beta and dirichlet: moments and the exact CDF", "[random][sampling][stats]") {
  Generator g(22);
  const auto b = values_of(g.beta(2, 5, {kN}));
  const double var = 10.0 / (49 * 8);
  check_moments(b, 2.0 / 7, var, 0);
  check_ks(b, [](double x) { return loom::test::beta_cdf_int(2, 5, x); });
  const auto arcsine = values_of(g.beta(0.5, 0.5, {kN}));
  check_ks(arcsine, [](double x) { return x <= 0 ? 0 : x >= 1 ? 1 : 2 / kPi * std::asin(std::sqrt(x)); });
  const Array d = g.dirichlet(loom::array({2.0, 3.0, 4.0}), {kN});
  const auto rows = values_of(loom::sum(d, -1));
  for (double s : rows) REQUIRE(std::abs(s - 1) < 1e-12);
  const auto first = values_of(d[{loom::Slice(), 0}]);
  check_ks(first, [](double x) { return loom::test::beta_cdf_int(2, 7, x); });
  // Tiny parameters: the gammas underflow to 0, the ratios do not (Johnk's method in logs for
  // beta, the log-gammas' softmax for dirichlet).
  const auto tiny = values_of(g.beta(0.01, 0.01, {kN}));
  for (double x : tiny) REQUIRE((x >= 0 && x <= 1));
  check_moments(tiny, 0.5, 1e-4 / (4e-4 * 1.02), 0);
  check_moments(values_of(g.beta(0.5, 3, {kN})), 0.5 / 3.5, 1.5 / (3.5 * 3.5 * 4.5), 0);
  const Array dt = g.dirichlet(loom::array({0.01, 0.02, 0.03}), {kN});
  for (double s : values_of(loom::sum(dt, -1))) REQUIRE(std::abs(s - 1) < 1e-12);
  check_moments(values_of(dt[{loom::Slice(), 0}]), 1.0 / 6, 0.01 * 0.05 / (0.0036 * 1.06), 0);
}

TEST_CASE("standard_t, laplace, logistic: moments and the exact CDF", "[random][sampling][stats]") {
  Generator g(23);
  check_ks(values_of(g.standard_t(2, {kN})), [](double x) { return 0.5 + x / (2 * std::sqrt(2 + x * x)); });
  check_moments(values_of(g.standard_t(5, {kN})), 0, 5.0 / 3, 0);
  const auto l = values_of(g.laplace(1, 2, {kN}));
  check_moments(l, 1, 8, 24 * 16);
  check_ks(l, [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2); });
  const auto s = values_of(g.logistic(1, 2, {kN}));
  const double var = 4 * kPi * kPi / 3;
  check_moments(s, 1, var, 4.2 * var * var);
  check_ks(s, [](double x) { return 1 / (1 + std::exp(-(x - 1) / 2)); });
}

TEST_CASE("weibull, pareto, rayleigh, triangular: moments and the exact CDF", "[random][sampling][stats]") {
  Generator g(24);
  const auto w = values_of(g.weibull(1.5, {kN}));
  const double m1 = std::tgamma(1 + 1 / 1.5), m2 = std::tgamma(1 + 2 / 1.5);
  check_moments(w, m1, m2 - m1 * m1, 0);
  check_ks(w, [](double x) { return x <= 0 ? 0 : 1 - std::exp(-std::pow(x, 1.5)); });
  const auto p = values_of(g.pareto(3, {kN}));
  check_moments(p, 0.5, 0.75, 0);
  check_ks(p, [](double x) { return x <= 0 ? 0 : 1 - std::pow(1 + x, -3.0); });
  const auto r = values_of(g.rayleigh(2, {kN}));
  check_moments(r, 2 * std::sqrt(kPi / 2), (4 - kPi) / 2 * 4, 0);
  check_ks(r, [](double x) { return x <= 0 ? 0 : 1 - std::exp(-x * x / 8); });
  const auto t = values_of(g.triangular(-1, 0.5, 3, {kN}));
  const double a = -1, c = 0.5, b = 3;
  check_moments(t, (a + b + c) / 3, (a * a + b * b + c * c - a * b - a * c - b * c) / 18, 0);
  check_ks(t, [=](double x) {
    if (x <= a) return 0.0;
    if (x >= b) return 1.0;
    return x <= c ? (x - a) * (x - a) / ((b - a) * (c - a)) : 1 - (b - x) * (b - x) / ((b - a) * (b - c));
  });
}

TEST_CASE("vonmises: the CDF of its density, and its limits", "[random][sampling][stats]") {
  Generator g(25);
  for (double kappa : {3e-6, 0.5, 2.0, 50.0}) {
    INFO("kappa " << kappa);
    const double mu = 2.5;
    const auto v = values_of(g.vonmises(mu, kappa, {kN}));
    for (double x : v) REQUIRE(std::abs(x) <= kPi);
    check_ks(v, loom::test::tabulated_cdf([=](double x) { return std::exp(kappa * (std::cos(x - mu) - 1)); }, -kPi, kPi));
  }
  check_ks(values_of(g.vonmises(1, 1e-9, {kN})), [](double x) { return (x + kPi) / (2 * kPi); });
  const auto tight = values_of(g.vonmises(0.25, 4e6, {kN}));
  check_moments(tight, 0.25, 1 / 4e6, 3 / (4e6 * 4e6));
}

TEST_CASE("binomial, negative_binomial, geometric: the pmf by chi-square", "[random][sampling][stats]") {
  Generator g(26);
  struct Case {
    std::int64_t n;
    double p;
  };
  for (Case c : {Case{20, 0.3}, Case{30, 0.9}, Case{1000, 0.4}, Case{100, 0.9}, Case{5000, 0.001}, Case{1, 0.5}}) {
    INFO("n " << c.n << ", p " << c.p);
    const auto v = values_of(g.binomial(c.n, c.p, {kN}));
    const double n = static_cast<double>(c.n);
    check_moments(v, n * c.p, n * c.p * (1 - c.p), 0);
    check_chi_square(v, 0, c.n, [&](std::int64_t k) { return binomial_pmf(n, c.p, k); });
  }
  // q^n for p near the rounding of 1 - p: from log1p(-p), not log(1 - p).
  check_moments(values_of(g.binomial(std::int64_t{1} << 50, 3.0 / (1LL << 50) * 1.1, {kN})), 3.3, 3.3, 0);
  {
    const double n = 3.5, p = 0.4;
    const auto v = values_of(g.negative_binomial(n, p, {kN}));
    check_moments(v, n * (1 - p) / p, n * (1 - p) / (p * p), 0);
    check_chi_square(v, 0, *std::max_element(v.begin(), v.end()), [&](std::int64_t k) {
      return std::exp(std::lgamma(k + n) - std::lgamma(n) - std::lgamma(k + 1.0) + n * std::log(p) +
                      k * std::log1p(-p));
    });
    // A large mean takes the Poisson's transformed rejection.
    check_moments(values_of(g.negative_binomial(50, 0.1, {kN})), 450, 4500, 0);
  }
  for (double p : {0.2, 0.9, 1e-3}) {
    INFO("geometric p " << p);
    const auto v = values_of(g.geometric(p, {kN}));
    check_moments(v, 1 / p, (1 - p) / (p * p), 0);
    check_chi_square(v, 1, *std::max_element(v.begin(), v.end()),
                     [&](std::int64_t k) { return std::pow(1 - p, static_cast<double>(k - 1)) * p; });
  }
}

TEST_CASE("hypergeometric, zipf, multinomial: the pmf by chi-square", "[random][sampling][stats]") {
  Generator g(27);
  struct Case {
    std::int64_t good, bad, take;
  };
  for (Case c : {Case{15, 25, 12}, Case{500, 700, 300}, Case{3, 1000, 900}, Case{10, 0, 4}}) {
    INFO(c.good << " good, " << c.bad << " bad, " << c.take << " taken");
    const auto v = values_of(g.hypergeometric(c.good, c.bad, c.take, {kN}));
    const double G = static_cast<double>(c.good), B = static_cast<double>(c.bad), T = static_cast<double>(c.take);
    const double mean = T * G / (G + B), var = T * G * B * (G + B - T) / ((G + B) * (G + B) * (G + B - 1));
    check_moments(v, mean, var, 0);
    check_chi_square(v, std::max<std::int64_t>(0, c.take - c.bad), std::min(c.take, c.good), [&](std::int64_t k) {
      const double x = static_cast<double>(k);
      return std::exp(loom::test::log_choose(G, x) + loom::test::log_choose(B, T - x) - loom::test::log_choose(G + B, T));
    });
  }
  {
    const double a = 2.5, zeta = 1.341487257250917;
    auto v = values_of(g.zipf(a, {kN}));
    constexpr std::int64_t kTail = 60;
    for (double& x : v) {
      REQUIRE(x >= 1);
      x = std::min<double>(x, kTail);
    }
    double head = 0;
    for (std::int64_t k = 1; k < kTail; ++k) head += std::pow(static_cast<double>(k), -a) / zeta;
    check_chi_square(v, 1, kTail,
                     [&](std::int64_t k) { return k < kTail ? std::pow(static_cast<double>(k), -a) / zeta : 1 - head; });
  }
  const Array m = g.multinomial(20, loom::array({0.2, 0.3, 0.5}), {kN});
  for (double s : values_of(loom::sum(m, -1))) REQUIRE(s == 20);
  for (int j : {0, 1}) {
    const double p = j == 0 ? 0.2 : 0.3;
    check_chi_square(values_of(m[{loom::Slice(), j}]), 0, 20, [&](std::int64_t k) { return binomial_pmf(20, p, k); });
  }
}
