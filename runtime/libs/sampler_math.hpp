#pragma once
// What the counter-based samplers (runtime/libs/sampler.hpp) are built from, compiled for both
// sides: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), a
// per-element substream of it, and log/exp/lgamma/cos/acos written with IEEE operations only
// (+ - * /, sqrt, floor, frexp, ldexp, fmod: correctly rounded on the GPU and the host alike),
// since the CUDA and the host math libraries may differ in the last bit, and a last bit can flip
// an accept/reject decision and with it every later value of an element. The functions are
// accurate to a few ulp, which is plenty for sampling. What must hold: nothing here is compiled
// with contracted multiply-adds (nvcc -fmad=false, g++ -ffp-contract=off), or the two sides
// round differently.

#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/libs/host_device.hpp"

// Loops over series terms are unrolled on the device, so each coefficient (1.0 / k) is a constant.
#if defined(__CUDA_ARCH__)
#define LOOM_UNROLL _Pragma("unroll")
#else
#define LOOM_UNROLL
#endif

namespace loom::rt::sampling {

// ---- Philox4x32-10 -------------------------------------------------------------------------

inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;
// The counter's last word for loom's substreams: cuRAND's Philox numbers its blocks in the first
// two words (the third and fourth are its subsequence), so the tag keeps the substreams of a seed
// apart from the plain draws of the same seed.
inline constexpr std::uint32_t kSubstreamTag = 0x4c4f4f4du;  // "LOOM"

LOOM_HD void philox4x32_10(std::uint32_t c[4], std::uint32_t k0, std::uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = static_cast<std::uint64_t>(kPhiloxM0) * c[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kPhiloxM1) * c[2];
    const std::uint32_t hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const std::uint32_t hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    c[0] = hi1 ^ c[1] ^ k0;
    c[1] = lo1;
    c[2] = hi0 ^ c[3] ^ k1;
    c[3] = lo0;
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
}

// Element i of a draw owns the Philox blocks (block0 + i, j, tag) for j = 0, 1, ... (2^32 blocks
// of 4 words): as many uniforms as its method asks for, independent of every other element and of
// the order in which elements run.
class Substream {
 public:
  LOOM_HD Substream(std::uint64_t seed, std::uint64_t block)
      : k0_(static_cast<std::uint32_t>(seed)), k1_(static_cast<std::uint32_t>(seed >> 32)),
        b0_(static_cast<std::uint32_t>(block)), b1_(static_cast<std::uint32_t>(block >> 32)) {}

  LOOM_HD std::uint32_t next32() {
    if (used_ == 4) {
      buf_[0] = b0_;
      buf_[1] = b1_;
      buf_[2] = j_++;
      buf_[3] = kSubstreamTag;
      philox4x32_10(buf_, k0_, k1_);
      used_ = 0;
    }
    return buf_[used_++];
  }
  // [0, 1) in multiples of 2^-53 (NumPy's next_double from a 64-bit word).
  LOOM_HD double uniform() {
    const std::uint64_t hi = next32();
    const std::uint64_t w = (hi << 32) | next32();
    return static_cast<double>(w >> 11) * 0x1p-53;
  }
  LOOM_HD double open_uniform() { return 1.0 - uniform(); }  // (0, 1]

 private:
  std::uint32_t k0_, k1_, b0_, b1_;
  std::uint32_t j_ = 0;
  std::uint32_t buf_[4] = {0, 0, 0, 0};
  int used_ = 4;
};

// ---- elementary functions from IEEE operations ----------------------------------------------

inline constexpr double kPi = 3.141592653589793;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// ln 2 split so that e * kLn2Hi is exact for |e| < 2^32 (kLn2Hi has 21 significant bits).
inline constexpr double kLn2Hi = 0.6931467056274414, kLn2Lo = 4.7493250390316726e-07;
inline constexpr double kInvLn2 = 1.4426950408889634;
inline constexpr double kSqrtHalf = 0.7071067811865476;
inline constexpr double kHalfLog2Pi = 0.9189385332046727;  // log(2 pi) / 2

// log x: x = 2^e m with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s) for s = (m - 1)/(m + 1),
// |s| < 0.172, whose odd series reaches 2^-56 by s^23.
LOOM_HD double log(double x) {
  if (!(x > 0)) return x == 0 ? -kInf : kNaN;
  if (x == kInf) return kInf;
  int e = 0;
  double m = ::frexp(x, &e);
  if (m < kSqrtHalf) {
    m *= 2;
    --e;
  }
  const double f = m - 1, s = f / (2 + f), z = s * s;
  double p = 1.0 / 23;
  LOOM_UNROLL
  for (int k = 21; k >= 3; k -= 2) p = 1.0 / k + z * p;
  // 2s (1 + z p) = f - s (f - 2 z p), since 2s = f - s f.
  const double log_m = f - s * (f - 2 * z * p);
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (log_m + de * kLn2Lo);
}

// log(1 + y), accurate for small y: log(u) scaled by y / (u - 1) for u = 1 + y rounded.
LOOM_HD double log1p(double y) {
  const double u = 1 + y;
  if (u == 1) return y;
  if (u == kInf) return kInf;
  return log(u) * (y / (u - 1));
}

// exp x = 2^k e^r, k = round(x / ln 2), |r| <= ln 2 / 2: Taylor to r^13 (2^-56), in Horner's form.
LOOM_HD double exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return kInf;
  if (x < -745.1332191019412) return 0;
  const double kf = ::floor(x * kInvLn2 + 0.5);
  const double r = (x - kf * kLn2Hi) - kf * kLn2Lo;
  // 1/n! for n = 13 down to 2, correctly rounded.
  constexpr double kInvFactorial[] = {1.6059043836821613e-10, 2.08767569878681e-09, 2.505210838544172e-08,
                                      2.755731922398589e-07,  2.7557319223985893e-06, 2.48015873015873e-05,
                                      0.0001984126984126984,  0.001388888888888889,  0.008333333333333333,
                                      0.041666666666666664,   0.16666666666666666,   0.5};
  double p = kInvFactorial[0];
  LOOM_UNROLL
  for (int n = 1; n < 12; ++n) p = kInvFactorial[n] + r * p;
  p = 1 + r * (1 + r * p);
  return ::ldexp(p, static_cast<int>(kf));
}

// log Gamma(x) for x > 0: raised past 10 by Gamma(x + 1) = x Gamma(x), then Stirling's series
// to its 8th term (under 1e-17 relative at x = 10).
LOOM_HD double lgamma(double x) {
  double shifted = 0;
  if (x < 10) {
    double prod = 1;
    while (x < 10) {
      prod *= x;
      x += 1;
    }
    shifted = log(prod);
  }
  const double w = 1 / x, w2 = w * w;
  const double series =
      w * (1.0 / 12 +
           w2 * (-1.0 / 360 +
                 w2 * (1.0 / 1260 +
                       w2 * (-1.0 / 1680 + w2 * (1.0 / 1188 + w2 * (-691.0 / 360360 + w2 * (1.0 / 156 + w2 * (-3617.0 / 122400))))))));
  return (x - 0.5) * log(x) - x + kHalfLog2Pi + series - shifted;
}

// log k! for integer k >= 0 (as a double).
LOOM_HD double log_factorial(double k) { return lgamma(k + 1); }

// cos(pi u) for u in [0, 1]: -sin(pi (u - 1/2)), a sine on [-pi/2, pi/2] by Taylor to t^23.
LOOM_HD double cos_pi(double u) {
  const double t = kPi * (u - 0.5), z = t * t;
  double p = 1;
  LOOM_UNROLL
  for (int n = 23; n >= 3; n -= 2) p = 1 - z * p * (1.0 / (n * (n - 1)));
  return -t * p;
}

// atan t for t in [0, 1]: past tan(pi/8), atan t = pi/4 + atan((t - 1)/(t + 1)); the series on
// |y| <= tan(pi/8) reaches 2^-56 by y^45.
LOOM_HD double atan_unit(double t) {
  double base = 0;
  if (t > 0.41421356237309515) {
    t = (t - 1) / (t + 1);
    base = kPi / 4;
  }
  const double z = t * t;
  double p = 1.0 / 45;
  LOOM_UNROLL
  for (int k = 43; k >= 1; k -= 2) p = 1.0 / k - z * p;
  return base + t * p;
}

// acos w for w in [-1, 1]: 2 atan(sqrt((1 - w) / (1 + w))).
LOOM_HD double acos(double w) {
  if (w <= -1) return kPi;
  const double t = ::sqrt((1 - w) / (1 + w));
  return 2 * (t <= 1 ? atan_unit(t) : kPi / 2 - atan_unit(1 / t));
}

// A standard normal by Marsaglia's polar method (the pair's second value is not kept).
LOOM_HD double normal(Substream& s) {
  for (;;) {
    const double x1 = 2 * s.uniform() - 1, x2 = 2 * s.uniform() - 1;
    const double r2 = x1 * x1 + x2 * x2;
    if (r2 < 1 && r2 != 0) return x2 * ::sqrt(-2 * log(r2) / r2);
  }
}

}  // namespace loom::rt::sampling
