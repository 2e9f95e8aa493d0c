#pragma once
// Statistics for the sampling tests (tests/unit/calls/test_sampling*.cpp, tests/gpu/
// test_sampling_gpu.cpp): sample moments against the distribution's, the Kolmogorov-Smirnov
// distance to an exact CDF, and Pearson's chi-square against a pmf. Every bound is set so a correct
// sampler fails it with probability below ~1e-6: means and variances within 6 standard errors,
// KS below sqrt(log(2 / 1e-6) / (2 n)), chi-square below the Wilson-Hilferty 1 - 3e-7 quantile.
// Also the CDFs that need code: the regularized incomplete gamma function, the incomplete beta
// for integer parameters, and a CDF tabulated from a density.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <loom/loom.hpp>

namespace loom::test {

inline std::vector<double> values_of(const Array& a) { return a.astype(DType::Float64).ravel().to_host<double>(); }

// Sample mean and variance against mean, var and the 4th central moment mu4 (0: skip the variance).
inline void check_moments(const std::vector<double>& v, double mean, double var, double mu4) {
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  for (double x : v) s += (x - m) * (x - m);
  s /= static_cast<double>(v.size());
  const double n = static_cast<double>(v.size());
  INFO("sample mean " << m << " (want " << mean << "), variance " << s << " (want " << var << ")");
  CHECK(std::abs(m - mean) <= 6 * std::sqrt(var / n));
  if (mu4 > 0) CHECK(std::abs(s - var) <= 6 * std::sqrt((mu4 - var * var) / n));
}

// sup |F_n - F| over the sample, against the 1e-6 critical value.
inline void check_ks(std::vector<double> v, const std::function<double(double)>& cdf) {
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, std::abs(f - static_cast<double>(i) / n), std::abs(static_cast<double>(i + 1) / n - f)});
  }
  const double bound = std::sqrt(std::log(2 / 1e-6) / (2 * n));
  INFO("KS distance " << d << " (bound " << bound << ")");
  CHECK(d < bound);
}

// Pearson's chi-square of integer samples against pmf(k) for k in [lo, hi]; cells with fewer
// than 20 expected counts are pooled (the tails into the cells next to them).
inline void check_chi_square(const std::vector<double>& v, std::int64_t lo, std::int64_t hi,
                             const std::function<double(std::int64_t)>& pmf) {
  const double n = static_cast<double>(v.size());
  std::vector<double> observed(static_cast<std::size_t>(hi - lo + 1), 0), expected(observed.size(), 0);
  for (double x : v) {
    REQUIRE(x >= static_cast<double>(lo));
    REQUIRE(x <= static_cast<double>(hi));
    observed[static_cast<std::size_t>(static_cast<std::int64_t>(x) - lo)] += 1;
  }
  for (std::int64_t k = lo; k <= hi; ++k) expected[static_cast<std::size_t>(k - lo)] = n * pmf(k);
  double chi2 = 0, obs = 0, exp = 0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    obs += observed[i];
    exp += expected[i];
    if (exp >= 20) {
      chi2 += (obs - exp) * (obs - exp) / exp;
      ++cells;
      obs = exp = 0;
    }
  }
  if (exp > 0 || obs > 0) {
    chi2 += exp > 0 ? (obs - exp) * (obs - exp) / exp : obs;
    ++cells;
  }
  const double df = std::max(cells - 1, 1), z = 5.0;
  const double t = 1 - 2 / (9 * df) + z * std::sqrt(2 / (9 * df));
  INFO("chi-square " << chi2 << " over " << cells << " cells (bound " << df * t * t * t << ")");
  CHECK(chi2 < df * t * t * t);
}

// The regularized lower incomplete gamma P(a, x): its series below a + 1, else 1 - the continued
// fraction for Q (modified Lentz).
inline double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double lead = std::exp(a * std::log(x) - x - std::lgamma(a));
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int k = 1; k < 10000 && std::abs(term) > 1e-17 * std::abs(sum); ++k) {
      term *= x / (a + k);
      sum += term;
    }
    return lead * sum;
  }
  double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
  for (int k = 1; k < 10000; ++k) {
    const double an = -k * (k - a);
    b += 2;
    d = an * d + b;
    d = std::abs(d) < 1e-300 ? 1e-300 : d;
    c = b + an / c;
    c = std::abs(c) < 1e-300 ? 1e-300 : c;
    d = 1 / d;
    h *= d * c;
    if (std::abs(d * c - 1) < 1e-16) break;
  }
  return 1 - lead * h;
}

// I_x(a, b) for integers a, b >= 1: P(Binomial(a + b - 1, x) >= a).
inline double beta_cdf_int(int a, int b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const int n = a + b - 1;
  double s = 0;
  for (int j = a; j <= n; ++j) {
    s += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * std::log(x) +
                  (n - j) * std::log1p(-x));
  }
  return s;
}

// A CDF on [lo, hi] from a density by Simpson's rule on `steps` cells, normalised.
inline std::function<double(double)> tabulated_cdf(const std::function<double(double)>& pdf, double lo, double hi,
                                                   int steps = 200000) {
  std::vector<double> cum(static_cast<std::size_t>(steps) + 1, 0);
  const double h = (hi - lo) / steps;
  for (int i = 0; i < steps; ++i) {
    const double a = lo + i * h;
    cum[static_cast<std::size_t>(i) + 1] = cum[static_cast<std::size_t>(i)] + h / 6 * (pdf(a) + 4 * pdf(a + h / 2) + pdf(a + h));
  }
  const double total = cum.back();
  return [cum, lo, h, steps, total](double x) {
    const double t = (x - lo) / h;
    if (t <= 0) return 0.0;
    if (t >= steps) return 1.0;
    const auto i = static_cast<std::size_t>(t);
    return (cum[i] + (t - static_cast<double>(i)) * (cum[i + 1] - cum[i])) / total;
  };
}

// log of the binomial coefficient.
inline double log_choose(double n, double k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

inline double binomial_pmf(double n, double p, std::int64_t k) {
  return std::exp(log_choose(n, static_cast<double>(k)) + k * std::log(p) + (n - k) * std::log1p(-p));
}

}  // namespace loom::test
