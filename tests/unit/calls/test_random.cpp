// loom::random without a GPU: shapes and dtypes, NumPy's argument errors, the draw as a barrier
// with its distribution fused after it, reproducibility (same seed, same numbers, whatever the
// order of eval()), and statistics of each distribution on the host path (cuRAND's host
// generator). Statistical bounds are 6 standard errors of the estimate for the sample size:
// a correct generator fails one with probability ~2e-9.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>

#include <loom/loom.hpp>

#include "runtime/libs/curand.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::random::Generator;
using loom::test::WhatContains;
using Catch::Matchers::Contains;

namespace {

// Values as float64 on the host (evaluated on the GPU when there is one).
std::vector<double> values(const Array& a) { return a.astype(DType::Float64).ravel().to_host<double>(); }

struct Moments {
  double mean = 0, var = 0;
};

Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(v.size());
  return m;
}

// Sample mean and variance against the distribution's mean, variance and 4th central moment:
// the standard errors are sqrt(var / n) and sqrt((mu4 - var^2) / n).
void check_moments(const std::vector<double>& v, double mean, double var, double mu4) {
  const Moments m = moments(v);
  const double n = static_cast<double>(v.size());
  INFO("sample mean " << m.mean << " (want " << mean << "), variance " << m.var << " (want " << var << ")");
  CHECK(std::abs(m.mean - mean) < 6 * std::sqrt(var / n));
  if (mu4 > 0) CHECK(std::abs(m.var - var) < 6 * std::sqrt((mu4 - var * var) / n));
}

constexpr std::int64_t kN = 1 << 16;

}  // namespace

TEST_CASE("random arrays have the shapes and dtypes asked for", "[random]") {
  Generator g(1);
  CHECK(g.random({3, 4}).shape() == loom::Shape{3, 4});
  CHECK(g.random({3, 4}).dtype() == DType::Float64);
  CHECK(g.random({5}, DType::Float32).dtype() == DType::Float32);
  CHECK(g.random().shape() == loom::Shape{});
  CHECK(g.uniform(-1, 1, {7}, DType::Float16).dtype() == DType::Float16);
  CHECK(g.standard_normal({2, 3}, DType::BFloat16).dtype() == DType::BFloat16);
  CHECK(g.normal(2, 3, {9}, DType::Float32).dtype() == DType::Float32);
  CHECK(g.integers(0, 10, {4}).dtype() == DType::Int64);
  CHECK(g.integers(0, 10, {4}, DType::UInt8).dtype() == DType::UInt8);
  CHECK(g.integers(0, 2, {4}, DType::Bool).dtype() == DType::Bool);
  CHECK(g.poisson(3.0, {2, 2}).dtype() == DType::Int64);
  CHECK(g.lognormal(0, 1, {3}).dtype() == DType::Float64);
  CHECK(g.exponential(2.0, {3}, DType::Float32).dtype() == DType::Float32);
  CHECK(g.standard_normal({0, 3}).shape() == loom::Shape{0, 3});
  CHECK(g.standard_normal({0, 3}).to_host<double>().empty());
  CHECK(g.random({}).to_host<double>().size() == 1);
  CHECK(g.standard_normal({3}).to_host<double>().size() == 3);  // an odd count of normals
}

TEST_CASE("argument errors use NumPy's wording", "[random][errors]") {
  Generator g(1);
  CHECK_THROWS_MATCHES(g.integers(5, 5), loom::ValueError, WhatContains("low >= high"));
  CHECK_THROWS_MATCHES(g.integers(5, 4, {}, DType::Int64, true), loom::ValueError, WhatContains("low > high"));
  CHECK_NOTHROW(g.integers(5, 5, {}, DType::Int64, true));
  CHECK_THROWS_MATCHES(g.integers(0, 257, {}, DType::UInt8), loom::ValueError,
                       WhatContains("high is out of bounds for uint8"));
  CHECK_NOTHROW(g.integers(0, 256, {}, DType::UInt8));
  CHECK_THROWS_MATCHES(g.integers(0, 256, {}, DType::UInt8, true), loom::ValueError,
                       WhatContains("high is out of bounds for uint8"));
  CHECK_THROWS_MATCHES(g.integers(-1, 5, {}, DType::UInt8), loom::ValueError, WhatContains("low is out of bounds for uint8"));
  CHECK_THROWS_MATCHES(g.integers(-129, 5, {}, DType::Int8), loom::ValueError, WhatContains("low is out of bounds for int8"));
  CHECK_THROWS_MATCHES(g.integers(0, 3, {}, DType::Bool), loom::ValueError, WhatContains("high is out of bounds for bool"));
  CHECK_THROWS_MATCHES(g.integers(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min()),
                       loom::ValueError, WhatContains("low >= high"));
  CHECK_THROWS_MATCHES(g.integers(0, 5, {}, DType::Float32), loom::DTypeError,
                       WhatContains("Unsupported dtype float32 for integers"));
  CHECK_THROWS_MATCHES(g.normal(0, -1), loom::ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.normal(0, -0.0), loom::ValueError, WhatContains("scale < 0"));  // NumPy checks the sign bit
  CHECK_THROWS_MATCHES(g.exponential(-2), loom::ValueError, WhatContains("scale < 0"));
  CHECK_THROWS_MATCHES(g.lognormal(0, -1), loom::ValueError, WhatContains("sigma < 0"));
  CHECK_THROWS_MATCHES(g.poisson(-1), loom::ValueError, WhatContains("lam < 0 or lam is NaN"));
  CHECK_THROWS_MATCHES(g.poisson(std::nan("")), loom::ValueError, WhatContains("lam < 0 or lam is NaN"));
  CHECK_THROWS_MATCHES(g.poisson(1e6), loom::ValueError, WhatContains("lam value too large"));
  CHECK_THROWS_MATCHES(g.random({}, DType::Int32), loom::DTypeError, WhatContains("Unsupported dtype int32 for random"));
  CHECK_THROWS_MATCHES(g.standard_normal({}, DType::Complex64), loom::DTypeError,
                       WhatContains("Unsupported dtype complex64 for standard_normal"));
  CHECK_THROWS_MATCHES(g.uniform(0, INFINITY), loom::ValueError, WhatContains("Range exceeds valid bounds"));
  CHECK_THROWS_MATCHES(g.random({2, -1}), loom::ValueError, WhatContains("random: negative dimensions are not allowed"));
  CHECK_THROWS_MATCHES(g.uniform(0, 1, {-1}), loom::ValueError, WhatContains("uniform: negative dimensions are not allowed"));
  CHECK_THROWS_MATCHES(Generator(0, "mt19937"), loom::ValueError, WhatContains("unknown bit generator 'mt19937'"));
  CHECK(g.position() == 8);  // the two scalar draws that succeeded (4 words each); refusals reserve nothing
}

TEST_CASE("a draw is a barrier, the distribution fuses into its consumer", "[random][calls]") {
  Generator g(42);
  const Array y = g.normal(2, 3, {1000}, DType::Float32) + 1.0f;
  const std::string plan = loom::explain_string({y});
  CHECK_THAT(plan, Contains("barrier: library call random.normal (curandGenerateNormal philox, seed 42, offset 0)"));
  CHECK_THAT(plan, Contains("loom plan: 1 kernel(s)"));
  const Array e = g.exponential(1.0, {10});
  CHECK_THAT(loom::explain_string({e}), Contains("random.exponential (curandGenerate philox, seed 42, offset 1000)"));
}

TEST_CASE("the position advances when a draw is built, by whole 4-word blocks", "[random]") {
  Generator g(3);
  (void)g.random({10});  // float64: 2 words each
  CHECK(g.position() == 20);
  (void)g.standard_normal({3}, DType::Float32);  // drawn as 4
  CHECK(g.position() == 24);
  (void)g.random({5}, DType::Float32);
  CHECK(g.position() == 32);
  (void)g.standard_normal({1}, DType::Float64);  // 2 doubles, 4 words
  CHECK(g.position() == 36);
  (void)g.random({0});
  CHECK(g.position() == 36);  // nothing drawn for an empty array
  Generator copy = g;
  CHECK(copy.position() == 36);
  CHECK(values(copy.random({4})) == values(g.random({4})));  // a copy continues the same stream
}

TEST_CASE("same seed, same numbers, different seeds differ", "[random]") {
  for (const char* bitgen : {"philox", "xorwow", "mrg32k3a"}) {
    INFO(bitgen);
    Generator a(123, bitgen), b(123, bitgen), c(124, bitgen);
    CHECK(a.bit_generator() == bitgen);
    const auto x = values(a.random({257}));
    CHECK(x == values(b.random({257})));
    CHECK(x != values(c.random({257})));
    const auto z = values(a.normal(1, 2, {101}, DType::Float32));
    CHECK(z == values(b.normal(1, 2, {101}, DType::Float32)));
    CHECK(z != values(c.normal(1, 2, {101}, DType::Float32)));
    CHECK(values(a.poisson(5.0, {64})) == values(b.poisson(5.0, {64})));
    CHECK(values(a.integers(-5, 5, {64})) == values(b.integers(-5, 5, {64})));
    // Successive draws continue the stream: not a repeat of the first.
    CHECK(values(a.random({257})) != x);
  }
}

TEST_CASE("numbers depend on the order draws are built, not the order they are evaluated", "[random]") {
  Generator g1(9), g2(9);
  const Array x1 = g1.random({100}), y1 = g1.standard_normal({100}), k1 = g1.integers(0, 1000, {100});
  const Array x2 = g2.random({100}), y2 = g2.standard_normal({100}), k2 = g2.integers(0, 1000, {100});
  const auto k = values(k2), y = values(y2), x = values(x2);  // evaluated in reverse order
  CHECK(values(x1) == x);
  CHECK(values(y1) == y);
  CHECK(values(k1) == k);
  CHECK(x != values(g1.random({100})));
}

TEST_CASE("the default generator behind the free functions", "[random]") {
  loom::random::seed(2024);
  const auto a = values(loom::random::random({50}));
  const auto b = values(loom::random::normal(0, 1, {50}));
  loom::random::seed(2024);
  CHECK(values(loom::random::random({50})) == a);
  CHECK(values(loom::random::normal(0, 1, {50})) == b);
  CHECK(loom::random::default_generator().seed() == 2024);
  CHECK(values(loom::random::integers(0, 3, {20})).size() == 20);
}

TEST_CASE("uniforms are cuRAND's 32-bit words, scaled exactly", "[random]") {
  if (loom::gpu_available()) return;  // compares with the host generator directly
  std::vector<std::uint32_t> w(16);
  {
    loom::rt::Draw d{loom::rt::RngType::Philox, loom::rt::DrawKind::Bits, 77, 0, w.size(), 0};
    loom::rt::generate_host(d, w.data());
  }
  Generator g(77);
  const auto f32 = g.random({8}, DType::Float32).to_host<float>();
  for (int i = 0; i < 8; ++i) CHECK(f32[static_cast<std::size_t>(i)] == static_cast<float>(w[static_cast<std::size_t>(i)] >> 8) * 0x1p-24f);
  const auto f64 = g.random({4}).to_host<double>();  // the words after the first 8
  for (std::size_t i = 0; i < 4; ++i) {
    const std::uint64_t u = (static_cast<std::uint64_t>(w[8 + 2 * i]) << 32) | w[8 + 2 * i + 1];
    CHECK(f64[i] == static_cast<double>(u >> 11) * 0x1p-53);
  }
}

TEST_CASE("uniform floats lie in 0 <= u < 1, also in 16 bits", "[random][stats]") {
  Generator g(5);
  for (DType t : {DType::Float64, DType::Float32, DType::Float16, DType::BFloat16}) {
    INFO(loom::name(t));
    const auto v = values(g.random({kN}, t));
    CHECK(*std::min_element(v.begin(), v.end()) >= 0.0);
    CHECK(*std::max_element(v.begin(), v.end()) < 1.0);
    if (t == DType::Float64 || t == DType::Float32) check_moments(v, 0.5, 1.0 / 12, 1.0 / 80);
  }
  const auto u = values(g.uniform(-2, 6, {kN}));
  CHECK(*std::min_element(u.begin(), u.end()) >= -2.0);
  CHECK(*std::max_element(u.begin(), u.end()) < 6.0);
  check_moments(u, 2.0, 64.0 / 12, 4096.0 / 80);
}

TEST_CASE("normal, lognormal, exponential and Poisson moments", "[random][stats]") {
  Generator g(11);
  for (DType t : {DType::Float64, DType::Float32}) {
    INFO(loom::name(t));
    check_moments(values(g.standard_normal({kN}, t)), 0, 1, 3);
    check_moments(values(g.normal(2, 3, {kN}, t)), 2, 9, 3 * 81);
    check_moments(values(g.exponential(2, {kN}, t)), 2, 4, 9 * 16);
    check_moments(values(g.standard_exponential({kN}, t)), 1, 1, 9);
    const double s2 = 0.25;  // sigma 0.5: mean exp(s2 / 2), variance (exp(s2) - 1) exp(s2)
    check_moments(values(g.lognormal(0, 0.5, {kN}, t)), std::exp(s2 / 2), (std::exp(s2) - 1) * std::exp(s2), 0);
  }
  for (double lam : {0.5, 4.0, 200.0}) {
    INFO("lam " << lam);
    check_moments(values(g.poisson(lam, {kN})), lam, lam, lam + 3 * lam * lam);
  }
  CHECK(values(g.poisson(0.0, {5})) == std::vector<double>(5, 0.0));
  const auto e = values(g.exponential(1, {kN}, DType::Float32));
  CHECK(*std::min_element(e.begin(), e.end()) >= 0.0);
  CHECK(std::isfinite(*std::max_element(e.begin(), e.end())));
}

TEST_CASE("integers cover their range evenly", "[random][stats]") {
  Generator g(13);
  const auto v = values(g.integers(-3, 7, {kN}));
  std::vector<std::int64_t> count(10, 0);
  for (double x : v) {
    REQUIRE(x >= -3);
    REQUIRE(x < 7);
    ++count[static_cast<std::size_t>(x + 3)];
  }
  // Each count is binomial(n, 1/10): within 6 of its standard deviations.
  const double p = 0.1, sd = std::sqrt(kN * p * (1 - p));
  for (std::int64_t c : count) CHECK(std::abs(static_cast<double>(c) - kN * p) < 6 * sd);
  check_moments(v, 1.5, 99.0 / 12, 0);

  const auto i8 = values(g.integers(-128, 127, {kN}, DType::Int8, true));
  CHECK(*std::min_element(i8.begin(), i8.end()) == -128);
  CHECK(*std::max_element(i8.begin(), i8.end()) == 127);
  const auto b = values(g.integers(0, 1, {1000}, DType::Bool, true));
  CHECK(std::set<double>(b.begin(), b.end()) == std::set<double>{0, 1});
  CHECK(values(g.integers(7, 8, {10})) == std::vector<double>(10, 7.0));

  // Ranges past 2^32 and the full 64-bit range.
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min(), kMax = std::numeric_limits<std::int64_t>::max();
  const auto big = g.integers(0, std::int64_t{1} << 40, {kN}).to_host<std::int64_t>();
  CHECK(*std::max_element(big.begin(), big.end()) < (std::int64_t{1} << 40));
  CHECK(*std::max_element(big.begin(), big.end()) > (std::int64_t{1} << 39));
  const auto full = g.integers(kMin, kMax, {kN}, DType::Int64, true).to_host<std::int64_t>();
  const auto negative = std::count_if(full.begin(), full.end(), [](std::int64_t x) { return x < 0; });
  CHECK(std::abs(static_cast<double>(negative) - kN / 2.0) < 6 * std::sqrt(kN / 4.0));
  const auto u64 = g.integers(0, kMax, {1000}, DType::UInt64).to_host<std::uint64_t>();
  CHECK(*std::max_element(u64.begin(), u64.end()) < static_cast<std::uint64_t>(kMax));
}
