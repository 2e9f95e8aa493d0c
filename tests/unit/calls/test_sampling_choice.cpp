// loom::random's choice, permutation, shuffle, permuted, random_integers and
// multivariate_normal on the host path, and NumPy's argument errors (type and message) for every
// sampler: picks without replacement never repeat, a permutation is one, shuffle rebinds only the
// handle it was given, and the frequencies follow p (chi-square, tests/support/sampling_stats.hpp).

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <set>

#include <loom/loom.hpp>

#include "support/sampling_stats.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::random::Generator;
using loom::test::check_chi_square;
using loom::test::values_of;
using loom::test::WhatContains;

namespace {

std::vector<std::int64_t> ints(const Array& a) { return a.astype(DType::Int64).ravel().to_host<std::int64_t>(); }

bool is_permutation_of_range(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != static_cast<std::int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("choice: shapes, dtypes and the population's values", "[random][sampling]") {
  Generator g(1);
  const Array c = g.choice(10, {3, 4});
  CHECK(c.dtype() == DType::Int64);
  CHECK(c.shape() == loom::Shape{3, 4});
  for (std::int64_t x : ints(c)) CHECK((x >= 0 && x < 10));
  CHECK(g.choice(5).ndim() == 0);
  const Array a = loom::arange(12).reshape({3, 4}).astype(DType::Float32) * 10;
  const Array rows = g.choice(a, {5});
  CHECK(rows.shape() == loom::Shape{5, 4});
  CHECK(rows.dtype() == DType::Float32);
  const Array cols = g.choice(a, {2, 2}, false, std::nullopt, 1);
  CHECK(cols.shape() == loom::Shape{3, 2, 2});
  const auto v = values_of(cols);
  for (std::size_t i = 0; i < 4; ++i) CHECK(std::fmod(v[i], 10) == 0);
  CHECK(g.choice(loom::full({}, 7, DType::Int64), {3}).shape() == loom::Shape{3});
  CHECK(g.choice(0, {0}).size() == 0);
}

TEST_CASE("choice without replacement never repeats", "[random][sampling]") {
  Generator g(2);
  for (std::int64_t n : {1, 2, 7, 1000, 100000}) {
    const std::int64_t k = std::max<std::int64_t>(1, n / 3);
    const auto v = ints(g.choice(n, {k}, false));
    const std::set<std::int64_t> distinct(v.begin(), v.end());
    CHECK(static_cast<std::int64_t>(distinct.size()) == k);
    CHECK(*distinct.begin() >= 0);
    CHECK(*distinct.rbegin() < n);
  }
  CHECK(is_permutation_of_range(ints(g.choice(50, {50}, false))));
  const auto p = ints(g.choice(6, {6}, false, loom::array({0.1, 0.2, 0.3, 0.2, 0.1, 0.1})));
  CHECK(is_permutation_of_range(p));
}

TEST_CASE("choice frequencies follow p, with and without replacement", "[random][sampling][stats]") {
  Generator g(3);
  const std::vector<double> p = {0.05, 0.0, 0.4, 0.25, 0.3};
  const auto pmf = [&](std::int64_t k) { return p[static_cast<std::size_t>(k)]; };
  const auto v = values_of(g.choice(5, {100000}, true, loom::asarray(p)));
  check_chi_square(v, 0, 4, pmf);
  const auto u = values_of(g.choice(5, {100000}));
  check_chi_square(u, 0, 4, [](std::int64_t) { return 0.2; });
  // Without replacement, each draw's first pick follows p, and a zero-probability item is never
  // picked while others remain.
  std::vector<double> first;
  for (int rep = 0; rep < 3000; ++rep) {
    const auto d = ints(g.choice(5, {4}, false, loom::asarray(p)));
    first.push_back(static_cast<double>(d[0]));
    CHECK(std::find(d.begin(), d.end(), 1) == d.end());
  }
  check_chi_square(first, 0, 4, pmf);
}

TEST_CASE("permutation, shuffle and permuted", "[random][sampling]") {
  Generator g(4);
  CHECK(is_permutation_of_range(ints(g.permutation(1000))));
  CHECK(g.permutation(0).size() == 0);
  const Array x = loom::arange(24).reshape({4, 6});
  const Array px = g.permutation(x, 1);
  CHECK(px.shape() == x.shape());
  {  // every row is permuted by the same column order
    const auto v = ints(px);
    for (int r = 1; r < 4; ++r) {
      for (int c = 0; c < 6; ++c) CHECK(v[static_cast<std::size_t>(r * 6 + c)] == v[static_cast<std::size_t>(c)] + 6 * r);
    }
  }
  Array y = loom::arange(100);
  const Array before = y;
  g.shuffle(y);
  CHECK(ints(before) == ints(loom::arange(100)));  // the other handle keeps the old value
  CHECK(is_permutation_of_range(ints(y)));
  CHECK(ints(y) != ints(before));
  const Array each = g.permuted(x, 1);
  const auto v = ints(each);
  bool rows_differ = false;
  for (int r = 0; r < 4; ++r) {
    std::vector<std::int64_t> row(v.begin() + r * 6, v.begin() + r * 6 + 6), order(6);
    for (int c = 0; c < 6; ++c) order[static_cast<std::size_t>(c)] = row[static_cast<std::size_t>(c)] - 6 * r;
    CHECK(is_permutation_of_range(order));
    if (r > 0 && order[0] != v[0]) rows_differ = true;
  }
  CHECK(rows_differ);  // independent orders (all four rows alike: 1 in 6^3 for the first column)
  CHECK(is_permutation_of_range(ints(g.permuted(x))));
  // Each position of a permutation of 4 takes each value equally often.
  std::vector<double> first;
  const Array many = g.permuted(loom::arange(4).broadcast_to({40000, 4}), 1);
  for (std::int64_t f : ints(many[{loom::Slice(), 0}])) first.push_back(static_cast<double>(f));
  check_chi_square(first, 0, 3, [](std::int64_t) { return 0.25; });
}

TEST_CASE("random_integers and multivariate_normal", "[random][sampling]") {
  Generator g(5);
  const auto r = values_of(g.random_integers(3, 8, {60000}));
  check_chi_square(r, 3, 8, [](std::int64_t) { return 1.0 / 6; });
  for (std::int64_t x : ints(g.random_integers(4, std::nullopt, {1000}))) CHECK((x >= 1 && x <= 4));
  // The factorizations (cuSOLVER) have no host path: shapes here, statistics in the GPU tests.
  const Array mean = loom::array({1.0, -2.0, 0.5});
  const Array cov = loom::array({{4.0, 1.2, -0.5}, {1.2, 2.0, 0.3}, {-0.5, 0.3, 1.0}});
  for (const char* method : {"svd", "eigh", "cholesky"}) {
    const Array x = g.multivariate_normal(mean, cov, {10, 2}, method);
    CHECK(x.shape() == loom::Shape{10, 2, 3});
    CHECK(x.dtype() == DType::Float64);
  }
  CHECK(g.multivariate_normal(mean, cov).shape() == loom::Shape{3});
}

TEST_CASE("sampler errors: NumPy's types and messages", "[random][sampling][errors]") {
  Generator g(6);
  using loom::ValueError;
  CHECK_THROWS_MATCHES(g.choice(0, {3}), ValueError, WhatContains("a must be a positive integer unless no samples are taken"));
  CHECK_THROWS_MATCHES(g.choice(-2, {1}), ValueError, WhatContains("a must be a positive integer"));
  CHECK_THROWS_MATCHES(g.choice(loom::zeros({0}), {1}), ValueError, WhatContains("a cannot be empty unless no samples are taken"));
  CHECK_THROWS_MATCHES(g.choice(5, {6}, false), ValueError,
                       WhatContains("Cannot take a larger sample than population when replace is False"));
  CHECK_THROWS_MATCHES(g.choice(3, {2}, true, loom::array({0.5, 0.6, 0.1})), ValueError,
                       WhatContains("probabilities do not sum to 1"));
  CHECK_THROWS_MATCHES(g.choice(3, {2}, true, loom::array({-0.5, 1.0, 0.5})), ValueError,
                       WhatContains("probabilities are not non-negative"));
  CHECK_THROWS_MATCHES(g.choice(3, {2}, true, loom::array({0.5, 0.5})), ValueError,
                       WhatContains("a and p must have same size"));
  CHECK_THROWS_MATCHES(g.choice(2, {2}, true, loom::array({{0.5, 0.5}})), ValueError,
                       WhatContains("p must be 1-dimensional"));
  CHECK_THROWS_MATCHES(g.choice(2, {1}, true, loom::array({NAN, 0.5})), ValueError,
                       WhatContains("probabilities contain NaN"));
  CHECK_THROWS_MATCHES(g.choice(3, {2}, false, loom::array({1.0, 0.0, 0.0})), ValueError,
                       WhatContains("Fewer non-zero entries in p than size"));
  CHECK_THROWS_MATCHES(g.permutation(loom::full({}, 3.0)), loom::IndexError,
                       WhatContains("x must be an integer or at least 1-dimensional"));
  CHECK_THROWS_MATCHES(g.random_integers(5, 4), ValueError, WhatContains("low >= high"));
  CHECK_THROWS_MATCHES(g.multivariate_normal(loom::zeros({2}), loom::eye(2), {}, "qr"), ValueError,
                       WhatContains("method must be one of {'eigh', 'svd', 'cholesky'}"));
  CHECK_THROWS_MATCHES(g.multivariate_normal(loom::zeros({2, 1}), loom::eye(2)), ValueError,
                       WhatContains("mean must be 1 dimensional"));
  CHECK_THROWS_MATCHES(g.multivariate_normal(loom::zeros({2}), loom::zeros({2, 3})), ValueError,
                       WhatContains("cov must be 2 dimensional and square"));
  CHECK_THROWS_MATCHES(g.multivariate_normal(loom::zeros({3}), loom::eye(2)), ValueError,
                       WhatContains("mean and cov must have same length"));

  CHECK_THROWS_MATCHES(g.standard_gamma(-1), ValueError, WhatContains("shape < 0"));
  CHECK_THROWS_MATCHES(g.gamma(1, -2), ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.beta(0, 1), ValueError, WhatContains("a <= 0"));
  CHECK_THROWS_MATCHES(g.beta(1, -1), ValueError, WhatContains("b <= 0"));
  CHECK_THROWS_MATCHES(g.dirichlet(loom::array({1.0, -1.0})), ValueError, WhatContains("alpha < 0"));
  CHECK_THROWS_MATCHES(g.dirichlet(loom::array({1.0, NAN})), ValueError, WhatContains("alpha contains NaNs"));
  CHECK_THROWS_MATCHES(g.chisquare(0), ValueError, WhatContains("df <= 0"));
  CHECK_THROWS_MATCHES(g.standard_t(-3), ValueError, WhatContains("df <= 0"));
  CHECK_THROWS_MATCHES(g.laplace(0, -1), ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.logistic(0, -1), ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.weibull(-1), ValueError, WhatContains("a < 0"));
  CHECK_THROWS_MATCHES(g.pareto(0), ValueError, WhatContains("a <= 0"));
  CHECK_THROWS_MATCHES(g.rayleigh(-1), ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.vonmises(0, -1), ValueError, WhatContains("kappa < 0"));
  CHECK_THROWS_MATCHES(g.triangular(2, 1, 3), ValueError, WhatContains("left > mode"));
  CHECK_THROWS_MATCHES(g.triangular(0, 4, 3), ValueError, WhatContains("mode > right"));
  CHECK_THROWS_MATCHES(g.triangular(1, 1, 1), ValueError, WhatContains("left == right"));
  CHECK_THROWS_MATCHES(g.binomial(-1, 0.5), ValueError, WhatContains("n < 0"));
  CHECK_THROWS_MATCHES(g.binomial(5, 1.5), ValueError, WhatContains("p < 0, p > 1 or p is NaN"));
  CHECK_THROWS_MATCHES(g.binomial(5, NAN), ValueError, WhatContains("p < 0, p > 1 or p is NaN"));
  CHECK_THROWS_MATCHES(g.negative_binomial(0, 0.5), ValueError, WhatContains("n <= 0"));
  CHECK_THROWS_MATCHES(g.negative_binomial(NAN, 0.5), ValueError, WhatContains("n must not be NaN"));
  CHECK_THROWS_MATCHES(g.negative_binomial(2, 0), ValueError, WhatContains("p <= 0, p > 1 or p contains NaNs"));
  CHECK_THROWS_MATCHES(g.geometric(0), ValueError, WhatContains("p <= 0, p > 1 or p contains NaNs"));
  CHECK_THROWS_MATCHES(g.geometric(1.5), ValueError, WhatContains("p <= 0, p > 1 or p contains NaNs"));
  CHECK_THROWS_MATCHES(g.hypergeometric(-1, 5, 2), ValueError, WhatContains("ngood < 0"));
  CHECK_THROWS_MATCHES(g.hypergeometric(1, -5, 2), ValueError, WhatContains("nbad < 0"));
  CHECK_THROWS_MATCHES(g.hypergeometric(1, 5, -2), ValueError, WhatContains("nsample < 0"));
  CHECK_THROWS_MATCHES(g.hypergeometric(1, 5, 7), ValueError, WhatContains("ngood + nbad < nsample"));
  CHECK_THROWS_MATCHES(g.zipf(1), ValueError, WhatContains("a <= 1 or a is NaN"));
  CHECK_THROWS_MATCHES(g.multinomial(-1, loom::array({0.5, 0.5})), ValueError, WhatContains("n < 0"));
  CHECK_THROWS_MATCHES(g.multinomial(3, loom::array({0.5, 1.5})), ValueError,
                       WhatContains("pvals < 0, pvals > 1 or pvals contains NaNs"));
  CHECK_THROWS_MATCHES(g.multinomial(3, loom::array({0.7, 0.6, 0.1})), ValueError,
                       WhatContains("sum(pvals[:-1]) > 1.0"));
  CHECK_THROWS_MATCHES(g.standard_gamma(1, {2}, DType::Int32), loom::DTypeError,
                       WhatContains("Unsupported dtype int32 for standard_gamma"));
}
