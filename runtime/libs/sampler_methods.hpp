#pragma once
// The sampling methods of runtime/libs/sampler.hpp, one function per distribution, compiled for
// both sides from sampler_math.hpp's operations. Each takes the element's substream and draws
// what it needs; sample_element writes element i of a call. The methods are the published ones
// NumPy's own generator uses or cites:
//   gamma          Marsaglia & Tsang (2000), shape < 1 boosted by U^(1/shape)
//   beta           Johnk's for a, b <= 1 (in logs where the powers underflow), else gammas
//   Poisson        multiplication of uniforms for lam < 10; PTRS (Hoermann 1993) past it
//   binomial       inversion for n min(p, 1-p) < 10; BTRS (Hoermann 1993) past it
//   hypergeometric inversion searching outwards from the mode (expected steps ~ its sd)
//   zipf           Devroye's rejection (Non-Uniform Random Variate Generation, X.6)
//   von Mises      Best & Fisher (1979)

#include "runtime/libs/sampler.hpp"
#include "runtime/libs/sampler_math.hpp"

namespace loom::rt::sampling {

LOOM_HD double gamma_mt(Substream& s, double a) {  // a >= 1
  const double d = a - 1.0 / 3, c = 1 / ::sqrt(9 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = normal(s);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = s.uniform(), x2 = x * x;
    if (u < 1 - 0.0331 * (x2 * x2)) return d * v;
    if (log(u) < 0.5 * x2 + d * (1 - v + log(v))) return d * v;
  }
}

LOOM_HD double standard_gamma(Substream& s, double a) {
  if (a != a) return a;
  if (a == 0) return 0;
  if (a == 1) return -log(s.open_uniform());
  if (a < 1) {
    const double g = gamma_mt(s, a + 1);
    return g * exp(log(s.open_uniform()) / a);
  }
  return gamma_mt(s, a);
}

// A count computed in double as int64 (saturating: a Poisson of a huge gamma can pass 2^63).
LOOM_HD std::int64_t count(double k) { return k >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(k); }

// lam is a gamma draw's multiple inside negative_binomial (the API takes no lam of its own): not
// NaN, and saturating where no int64 count could follow it (else the loop below never ends).
// log of a Gamma(a) draw: the boost's U^(1/a) as log(U)/a, so shapes near 0 (whose draws
// underflow to 0) keep their order of magnitude (dirichlet's normalisation needs it).
LOOM_HD double log_standard_gamma(Substream& s, double a) {
  if (a != a) return a;
  if (a == 0) return -kInf;
  if (a < 1) {
    const double g = gamma_mt(s, a + 1);
    return log(g) + log(s.open_uniform()) / a;
  }
  return log(a == 1 ? -log(s.open_uniform()) : gamma_mt(s, a));
}

LOOM_HD double beta(Substream& s, double a, double b) {
  if (a <= 1 && b <= 1) {
    for (;;) {
      const double u = s.uniform(), v = s.uniform();
      const double x = exp(log(u) / a), y = exp(log(v) / b), sum = x + y;
      if (sum <= 1 && sum > 0) return x / sum;
      if (sum <= 1 && u > 0 && v > 0) {  // both powers underflowed: the ratio from their logs
        double lx = log(u) / a, ly = log(v) / b;
        const double top = lx > ly ? lx : ly;
        lx -= top;
        ly -= top;
        return exp(lx - log(exp(lx) + exp(ly)));
      }
    }
  }
  const double x = standard_gamma(s, a), y = standard_gamma(s, b);
  return x / (x + y);
}

LOOM_HD std::int64_t poisson(Substream& s, double lam) {
  if (!(lam > 0)) return 0;
  if (lam >= 9.2e18) return INT64_MAX;
  if (lam < 10) {
    const double limit = exp(-lam);
    std::int64_t k = 0;
    for (double prod = s.uniform(); prod > limit; prod *= s.uniform()) ++k;
    return k;
  }
  const double slam = ::sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = s.uniform() - 0.5, v = s.uniform(), us = 0.5 - ::fabs(u);
    const double k = ::floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return count(k);
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lam + k * loglam - log_factorial(k)) {
      return count(k);
    }
  }
}

// Binomial(n, p) for p <= 1/2.
LOOM_HD std::int64_t binomial_low(Substream& s, std::int64_t n, double p) {
  const double q = 1 - p, dn = static_cast<double>(n);
  if (dn * p < 10) {  // inversion: P(x + 1) = P(x) ((n + 1) p/q / (x + 1) - p/q)
    const double r = p / q, a = (dn + 1) * r, p0 = exp(dn * log1p(-p));  // q^n, q = 1 - p unrounded
    for (;;) {
      double u = s.uniform(), px = p0;
      std::int64_t x = 0;
      while (u > px && x <= n) {
        u -= px;
        ++x;
        px *= a / static_cast<double>(x) - r;
      }
      if (x <= n) return x;  // else the rounded probabilities ran out: draw again
    }
  }
  const double spq = ::sqrt(dn * p * q), b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p, c = dn * p + 0.5, vr = 0.92 - 4.2 / b;
  const double alpha = (2.83 + 5.1 / b) * spq, lpq = log(p / q);
  const double m = ::floor((dn + 1) * p), h = log_factorial(m) + log_factorial(dn - m);
  for (;;) {
    const double u = s.uniform() - 0.5, us = 0.5 - ::fabs(u);
    double v = s.uniform();
    const double k = ::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > dn) continue;
    if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
    v = log(v * alpha / (a / (us * us) + b));
    if (v <= h - log_factorial(k) - log_factorial(dn - k) + (k - m) * lpq) return static_cast<std::int64_t>(k);
  }
}

LOOM_HD std::int64_t binomial(Substream& s, std::int64_t n, double p) {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  return p <= 0.5 ? binomial_low(s, n, p) : n - binomial_low(s, n, 1 - p);
}

// Inversion from the mode outwards: P(mode) from log-factorials, then the neighbours by the
// ratios P(k+1)/P(k) = (g-k)(t-k) / ((k+1)(b-t+k+1)), alternately above and below.
LOOM_HD std::int64_t hypergeometric(Substream& s, std::int64_t good, std::int64_t bad, std::int64_t take) {
  const double g = static_cast<double>(good), b = static_cast<double>(bad), t = static_cast<double>(take);
  const double lo_end = t - b > 0 ? t - b : 0, hi_end = t < g ? t : g;
  double mode = ::floor((t + 1) * (g + 1) / (g + b + 2));
  mode = mode < lo_end ? lo_end : (mode > hi_end ? hi_end : mode);
  const double log_pmode = log_factorial(g) - log_factorial(mode) - log_factorial(g - mode) + log_factorial(b) -
                           log_factorial(t - mode) - log_factorial(b - t + mode) - log_factorial(g + b) +
                           log_factorial(t) + log_factorial(g + b - t);
  const double pmode = exp(log_pmode);
  for (;;) {
    double u = s.uniform() - pmode;
    if (u < 0) return static_cast<std::int64_t>(mode);
    double up = mode, down = mode, pup = pmode, pdown = pmode;
    while (up < hi_end || down > lo_end) {
      if (up < hi_end) {
        pup *= (g - up) * (t - up) / ((up + 1) * (b - t + up + 1));
        up += 1;
        u -= pup;
        if (u < 0) return static_cast<std::int64_t>(up);
      }
      if (down > lo_end) {
        pdown *= down * (b - t + down) / ((g - down + 1) * (t - down + 1));
        down -= 1;
        u -= pdown;
        if (u < 0) return static_cast<std::int64_t>(down);
      }
    }
  }
}

LOOM_HD std::int64_t zipf(Substream& s, double a) {
  if (a >= 1025) return 1;
  const double am1 = a - 1, b = exp(am1 * kLn2Hi + am1 * kLn2Lo);  // 2^(a-1)
  for (;;) {
    const double u = s.open_uniform(), v = s.uniform();
    const double x = ::floor(exp(-log(u) / am1));
    if (x > 9.2e18 || x < 1) continue;
    const double t = exp(am1 * log1p(1 / x));
    if (v * x * (t - 1) / (b - 1) <= t / b) return static_cast<std::int64_t>(x);
  }
}

// The angle wrapped into [-pi, pi], its sign kept (NumPy's fmod arithmetic).
LOOM_HD double wrap_angle(double x) {
  const double m = ::fmod(::fabs(x) + kPi, 2 * kPi) - kPi;
  return x < 0 ? -m : m;
}

LOOM_HD double vonmises(Substream& s, double mu, double kappa) {
  if (kappa != kappa) return kappa;  // (the acceptance test below would never pass)
  if (kappa < 1e-8) return kPi * (2 * s.uniform() - 1);
  if (kappa > 1e6) {  // a wrapped normal to double precision
    double x = mu + ::sqrt(1 / kappa) * normal(s);
    if (x < -kPi) x += 2 * kPi;
    if (x > kPi) x -= 2 * kPi;
    return x;
  }
  double r_s = 0;
  if (kappa < 1e-5) {
    r_s = 1 / kappa + kappa;  // the second-order expansion about kappa = 0
  } else {
    const double r = 1 + ::sqrt(1 + 4 * kappa * kappa), rho = (r - ::sqrt(2 * r)) / (2 * kappa);
    r_s = (1 + rho * rho) / (2 * rho);
  }
  double w = 0;
  for (;;) {
    const double z = cos_pi(s.uniform());
    w = (1 + r_s * z) / (r_s + z);
    const double y = kappa * (r_s - w), v = s.uniform();
    if (y * (2 - y) - v >= 0 || log(y / v) + 1 - y >= 0) break;
  }
  const double angle = s.uniform() < 0.5 ? -acos(w) : acos(w);
  return wrap_angle(angle + mu);
}

// One row of a multinomial: conditional binomials, the last category taking what is left.
LOOM_HD void multinomial(Substream& s, std::int64_t n, const double* p, std::int64_t k, std::int64_t* out) {
  double remaining = 1;
  std::int64_t left = n;
  for (std::int64_t j = 0; j + 1 < k; ++j) {
    const double share = remaining > 0 ? p[j] / remaining : 1;
    out[j] = left > 0 ? binomial(s, left, share < 1 ? share : 1) : 0;
    left -= out[j];
    remaining -= p[j];
  }
  if (k > 0) out[k - 1] = left;
}

template <SamplerKind K> LOOM_HD void sample_element(const SamplerArgs& a, std::int64_t i) {
  Substream s(a.seed, a.block0 + static_cast<std::uint64_t>(i));
  auto* f = static_cast<double*>(a.out);
  auto* z = static_cast<std::int64_t*>(a.out);
  const auto n = static_cast<std::int64_t>(a.a);
  switch (K) {
    case SamplerKind::StandardGamma: f[i] = standard_gamma(s, a.vec ? a.vec[i % a.k] : a.a); return;
    case SamplerKind::LogGamma: f[i] = log_standard_gamma(s, a.vec ? a.vec[i % a.k] : a.a); return;
    case SamplerKind::Beta: f[i] = beta(s, a.a, a.b); return;
    case SamplerKind::Poisson: z[i] = poisson(s, a.a); return;
    case SamplerKind::Binomial: z[i] = binomial(s, n, a.b); return;
    case SamplerKind::NegativeBinomial: z[i] = poisson(s, standard_gamma(s, a.a) * ((1 - a.b) / a.b)); return;
    case SamplerKind::Hypergeometric:
      z[i] = hypergeometric(s, n, static_cast<std::int64_t>(a.b), static_cast<std::int64_t>(a.c));
      return;
    case SamplerKind::Zipf: z[i] = zipf(s, a.a); return;
    case SamplerKind::VonMises: f[i] = vonmises(s, a.a, a.b); return;
    case SamplerKind::Multinomial: multinomial(s, n, a.vec, a.k, z + i * a.k); return;
  }
}

}  // namespace loom::rt::sampling
