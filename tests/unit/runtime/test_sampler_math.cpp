// The counter-based samplers' building blocks (runtime/libs/sampler_math.hpp): Philox4x32-10
// against the known-answer vectors of its authors' Random123 distribution, and loom's own
// log / log1p / exp / lgamma / cos(pi u) / acos against the C library to a few ulp (the samplers
// use them instead of the math libraries so the GPU and the host round alike).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "runtime/libs/sampler_math.hpp"

namespace sm = loom::rt::sampling;

namespace {

// |got - want| in units of the last place of want.
double ulps(double got, double want) {
  if (got == want) return 0;
  const double ulp = std::nextafter(std::abs(want), INFINITY) - std::abs(want);
  return std::abs(got - want) / ulp;
}

}  // namespace

TEST_CASE("Philox4x32-10 gives Random123's known answers", "[random][sampling]") {
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    std::uint32_t c[4] = {k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]};
    sm::philox4x32_10(c, k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) CHECK(c[i] == k.out[i]);
  }
}

TEST_CASE("the samplers' elementary functions are within a few ulp", "[random][sampling]") {
  double worst_log = 0, worst_exp = 0, worst_log1p = 0, worst_lgamma = 0, worst_cos = 0, worst_acos = 0;
  for (int i = 0; i < 200000; ++i) {
    const double t = (i + 0.5) / 200000;  // (0, 1)
    const double x = std::ldexp(1 + t, (i % 2000) - 1000);
    worst_log = std::max(worst_log, ulps(sm::log(x), std::log(x)));
    worst_log = std::max(worst_log, ulps(sm::log(t), std::log(t)));
    const double y = (t - 0.5) * 1400;
    worst_exp = std::max(worst_exp, ulps(sm::exp(y), std::exp(y)));
    const double z = std::ldexp(t - 0.5, -(i % 60));
    worst_log1p = std::max(worst_log1p, ulps(sm::log1p(z), std::log1p(z)));
    // lgamma below 10 is raised past it and the log of the product taken off again: an absolute
    // error of a few ulp of lgamma(x + n), not a relative one where lgamma(x) is near 0.
    const double g = std::ldexp(1 + t, (i % 40) - 10);
    const double lg = static_cast<double>(std::lgamma(static_cast<long double>(g)));
    worst_lgamma = std::max(worst_lgamma, std::abs(sm::lgamma(g) - lg) / (std::max(std::abs(lg), 16.0) * 0x1p-52));
    const auto c = static_cast<double>(std::cos(3.141592653589793238462643383279502884L * t));
    if (std::abs(c) > 1e-3) worst_cos = std::max(worst_cos, ulps(sm::cos_pi(t), c));
    const double w = 2 * t - 1;
    worst_acos = std::max(worst_acos, ulps(sm::acos(w), std::acos(w)));
  }
  INFO("worst ulp: log " << worst_log << ", exp " << worst_exp << ", log1p " << worst_log1p << ", lgamma "
                         << worst_lgamma << ", cos(pi u) " << worst_cos << ", acos " << worst_acos);
  CHECK(worst_log <= 2);
  CHECK(worst_exp <= 2);
  CHECK(worst_log1p <= 3);
  CHECK(worst_lgamma <= 4);  // in ulp of max(|lgamma|, 16)
  CHECK(worst_cos <= 4);
  CHECK(worst_acos <= 4);
  CHECK(sm::log(0.0) == -INFINITY);
  CHECK(std::isnan(sm::log(-1.0)));
  CHECK(sm::exp(-800) == 0);
  CHECK(sm::exp(710) == INFINITY);
  CHECK(sm::acos(-1) == sm::kPi);
  CHECK(sm::acos(1) == 0);
  CHECK(sm::log(std::ldexp(1.0, -1070)) == Approx(-1070 * std::log(2.0)).epsilon(1e-15));
}
