// loom::random on the GPU. Reproducibility: the same seed gives the same bits. Device against
// host: the uniform family (random, uniform, integers, exponential) is integer work on cuRAND's
// 32-bit words, which the host generator reproduces (cuRAND's documented promise), so it must
// match bit for bit (exponential up to log1p's last bits); normals are cuRAND's Box-Muller on
// each side, whose logf/sincospi differ by a few ulp between the GPU and the host library, so
// they are compared with a tolerance; Poisson counts are checked statistically only (cuRAND
// builds its tables separately on each side; the share of equal counts is reported). Every
// distribution's mean and variance lie within 6 standard errors for n = 2^22.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/sampling_stats.hpp"

using loom::Array;
using loom::DType;
using loom::random::Generator;

namespace {

constexpr std::int64_t kN = 1 << 22;

using loom::test::check_moments;
constexpr auto values = loom::test::values_of;

bool same_bytes(const loom::ref::HostArray& a, const loom::ref::HostArray& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data == b.data;
}

}  // namespace

TEST_CASE("same seed, same bits on the device", "[gpu][random]") {
  for (const char* bitgen : {"philox", "xorwow", "mrg32k3a"}) {
    INFO(bitgen);
    Generator a(31, bitgen), b(31, bitgen);
    CHECK(same_bytes(loom::test::device_of(a.random({100001})), loom::test::device_of(b.random({100001}))));
    CHECK(same_bytes(loom::test::device_of(a.normal(1, 2, {100001}, DType::Float32)),
                     loom::test::device_of(b.normal(1, 2, {100001}, DType::Float32))));
    CHECK(same_bytes(loom::test::device_of(a.standard_normal({4097})), loom::test::device_of(b.standard_normal({4097}))));
    CHECK(same_bytes(loom::test::device_of(a.poisson(7.5, {4096})), loom::test::device_of(b.poisson(7.5, {4096}))));
    CHECK(same_bytes(loom::test::device_of(a.integers(-9, 1000, {4096}, DType::Int16)),
                     loom::test::device_of(b.integers(-9, 1000, {4096}, DType::Int16))));
  }
}

TEST_CASE("the device draws the host generator's sequence", "[gpu][random]") {
  for (const char* bitgen : {"philox", "xorwow", "mrg32k3a"}) {
    INFO(bitgen);
    Generator g(77, bitgen);
    for (DType t : {DType::Float64, DType::Float32, DType::Float16, DType::BFloat16}) {
      INFO(loom::name(t));
      CHECK(loom::test::check_gpu(g.random({3, 33333}, t), 0, 0) == "");
      CHECK(loom::test::check_gpu(g.uniform(-5, 5, {1001}, t), 0, 0) == "");
    }
    CHECK(loom::test::check_gpu(g.integers(-1000, 1000, {100000}), 0, 0) == "");
    CHECK(loom::test::check_gpu(g.integers(0, 255, {100000}, DType::UInt8, true), 0, 0) == "");
    CHECK(loom::test::check_gpu(g.integers(0, std::int64_t{1} << 50, {100000}), 0, 0) == "");
    CHECK(loom::test::check_gpu(g.exponential(2, {100000}, DType::Float32), 1e-6, 1e-7) == "");
    CHECK(loom::test::check_gpu(g.exponential(2, {100000}), 1e-14, 1e-15) == "");
    // Box-Muller on both sides: a few ulp apart (larger in the far tails, where log(u) is flat).
    CHECK(loom::test::check_gpu(g.standard_normal({100001}, DType::Float32), 1e-5, 1e-5) == "");
    CHECK(loom::test::check_gpu(g.normal(3, 2, {100001}), 1e-12, 1e-12) == "");
  }
}

TEST_CASE("Poisson counts: statistics on the device, and how often they equal the host's", "[gpu][random][stats]") {
  Generator g(5);
  for (double lam : {0.5, 4.0, 200.0, 5000.0}) {
    INFO("lam " << lam);
    const Array p = g.poisson(lam, {kN});
    const auto want = loom::test::reference_of(p);
    const auto v = values(p);
    check_moments(v, lam, lam, lam + 3 * lam * lam);
    const auto* h = reinterpret_cast<const std::int64_t*>(want.data.data());
    std::int64_t equal = 0;
    for (std::size_t i = 0; i < v.size(); ++i) equal += static_cast<double>(h[i]) == v[i];
    WARN("poisson lam " << lam << ": " << equal << " of " << v.size() << " counts equal the host generator's");
  }
}

TEST_CASE("every distribution's moments on the device", "[gpu][random][stats]") {
  Generator g(17);
  for (DType t : {DType::Float64, DType::Float32}) {
    INFO(loom::name(t));
    const auto u = values(g.random({kN}, t));
    CHECK(*std::min_element(u.begin(), u.end()) >= 0.0);
    CHECK(*std::max_element(u.begin(), u.end()) < 1.0);
    check_moments(u, 0.5, 1.0 / 12, 1.0 / 80);
    check_moments(values(g.uniform(-2, 6, {kN}, t)), 2.0, 64.0 / 12, 4096.0 / 80);
    check_moments(values(g.standard_normal({kN}, t)), 0, 1, 3);
    check_moments(values(g.normal(2, 3, {kN}, t)), 2, 9, 3 * 81);
    check_moments(values(g.exponential(2, {kN}, t)), 2, 4, 9 * 16);
    const double s2 = 0.25;
    check_moments(values(g.lognormal(0, 0.5, {kN}, t)), std::exp(s2 / 2), (std::exp(s2) - 1) * std::exp(s2), 0);
  }
  for (DType t : {DType::Float16, DType::BFloat16}) {
    const auto u = values(g.random({kN}, t));
    CHECK(*std::max_element(u.begin(), u.end()) < 1.0);
    check_moments(values(g.standard_normal({kN}, t)), 0, 1, 0);
  }
}

TEST_CASE("integers within range and evenly spread on the device", "[gpu][random][stats]") {
  Generator g(19);
  for (DType t : {DType::Int64, DType::Int32, DType::UInt8, DType::Int8}) {
    INFO(loom::name(t));
    const auto v = values(g.integers(3, 103, {kN}, t));
    std::vector<std::int64_t> count(100, 0);
    for (double x : v) {
      REQUIRE(x >= 3);
      REQUIRE(x < 103);
      ++count[static_cast<std::size_t>(x - 3)];
    }
    const double p = 0.01, sd = std::sqrt(static_cast<double>(kN) * p * (1 - p));
    for (std::int64_t c : count) CHECK(std::abs(static_cast<double>(c) - static_cast<double>(kN) * p) < 6 * sd);
  }
  const auto w = loom::test::device_of(g.integers(-(std::int64_t{1} << 40), std::int64_t{1} << 40, {kN}));
  const auto* x = reinterpret_cast<const std::int64_t*>(w.data.data());
  const auto [lo, hi] = std::minmax_element(x, x + kN);
  CHECK(*lo >= -(std::int64_t{1} << 40));
  CHECK(*hi < (std::int64_t{1} << 40));
  CHECK(*lo < -(std::int64_t{1} << 39));
  CHECK(*hi > (std::int64_t{1} << 39));
}
