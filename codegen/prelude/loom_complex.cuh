// loom_complex.cuh: complex64 / complex128 for generated kernels (included when a complex dtype
// appears). c64 and c128 are plain {re, im} aggregates; the operators and functions follow NumPy
// 2 (its loops for arithmetic, comparisons, maximum/minimum, sign, reciprocal, power) and the
// principal branches of C99 for the elementary functions. The inverse functions use Kahan's
// formulas ("Branch Cuts for Complex Elementary Functions", 1987), which keep the sign of zero on
// the branch cuts and stay accurate near the branch points.
#pragma once
#include "loom_core.cuh"

namespace loom {

template <class R> struct alignas(2 * sizeof(R)) Complex { R re, im; };
typedef Complex<float> c64;
typedef Complex<double> c128;
template <class R> struct IsComplex<Complex<R>> { static constexpr bool value = true; };

template <class R> struct ComplexConsts;
template <> struct ComplexConsts<float> {
  static constexpr float max = 3.40282347e38f;
  static constexpr float min_normal = 1.17549435e-38f;
  static constexpr float two_mant = 16777216.0f;  // 2^24: lifts a subnormal to a normal
  static constexpr int mant_bits = 24;
  static constexpr float big = 4096.0f;     // 1/sqrt(eps): past it, 1/|z|^2 is below rounding
  static constexpr float exp_max = 88.0f;   // expf overflows a little above this
  static constexpr float tanh_big = 9.0f;   // tanh(x) rounds to +-1 past this
  static LOOM_FN float inf() { return __int_as_float(0x7f800000); }
  static LOOM_FN float nan() { return __int_as_float(0x7fc00000); }
};
template <> struct ComplexConsts<double> {
  static constexpr double max = 1.7976931348623157e308;
  static constexpr double min_normal = 2.2250738585072014e-308;
  static constexpr double two_mant = 9007199254740992.0;  // 2^53
  static constexpr int mant_bits = 53;
  static constexpr double big = 67108864.0;
  static constexpr double exp_max = 709.0;
  static constexpr double tanh_big = 22.0;
  static LOOM_FN double inf() { return __longlong_as_double(0x7ff0000000000000LL); }
  static LOOM_FN double nan() { return __longlong_as_double(0x7ff8000000000000LL); }
};
#define LOOM_PI 3.14159265358979323846
#define LOOM_LN2 0.69314718055994530942
#define LOOM_LOG2E 1.44269504088896340736
#define LOOM_LOG10E 0.43429448190325182765

// Products that are never fused into an FMA: NumPy's (inf + 1e30j)**2 is nan - infj, as here.
LOOM_FN float mul_rn(float a, float b) { return __fmul_rn(a, b); }
LOOM_FN double mul_rn(double a, double b) { return __dmul_rn(a, b); }

// --- arithmetic (NumPy's loops: plain products, Smith's division) ---
template <class R> LOOM_FN Complex<R> operator+(Complex<R> a, Complex<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R> LOOM_FN Complex<R> operator-(Complex<R> a, Complex<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R> LOOM_FN Complex<R> operator-(Complex<R> a) { return {-a.re, -a.im}; }
LOOM_FN float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
LOOM_FN double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
// NumPy's multiply loop (x86-64 with FMA: every CPU NumPy 2 dispatches to AVX2 or AVX-512): re =
// fma(ar, br, -(ai bi)), im = fma(ar, bi, ai br); one rounding fewer than plain products, which
// shows where the parts cancel (an imaginary part of 3.8e-40 rather than 0). Bit-identical to
// NumPy 2.5 on 20000 random complex64 and complex128 products (tests/unit/api/numpy_edges.txt).
template <class R> LOOM_FN Complex<R> operator*(Complex<R> a, Complex<R> b) {
  return {fma_rn(a.re, b.re, -mul_rn(a.im, b.im)), fma_rn(a.re, b.im, mul_rn(a.im, b.re))};
}
// Plain products, as NumPy's npy_cpow and square compute (no FMA in their baseline build).
template <class R> LOOM_FN Complex<R> mul_plain(Complex<R> a, Complex<R> b) {
  return {mul_rn(a.re, b.re) - mul_rn(a.im, b.im), mul_rn(a.re, b.im) + mul_rn(a.im, b.re)};
}
template <class R> LOOM_FN Complex<R> square(Complex<R> a) { return mul_plain(a, a); }
template <class R> LOOM_FN Complex<R> operator/(Complex<R> a, Complex<R> b) {
  const R abr = loom::abs(b.re), abi = loom::abs(b.im);
  const bool nan_ar = loom::isnan(a.re), nan_ai = loom::isnan(a.im);
  if (!loom::isnan(b.re) && !loom::isnan(b.im) && (nan_ar || nan_ai) &&
      ((((!nan_ar && loom::isinf(a.re)) || (!nan_ai && loom::isinf(a.im))) &&
        (b.re != R(0) || b.im != R(0))) ||
       (loom::isinf(b.re) && loom::isinf(b.im)))) {
    const R n = nan_ar ? a.re : a.im;  // inf and nan in the numerator: nan, not inf
    return {n, n};
  }
  if (abr >= abi) {
    if (abr == R(0) && abi == R(0)) {  // x / 0: inf or nan per component
      if ((nan_ar && (a.im == R(0) || nan_ai)) || (a.re == R(0) && nan_ai)) {
        return {nan_ar ? a.re : a.im, nan_ai ? a.im : a.re};
      }
      return {a.re / abr, a.im / abi};
    }
    const R rat = b.im / b.re, scl = R(1) / (b.re + b.im * rat);
    return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
  }
  const R rat = b.re / b.im, scl = R(1) / (b.im + b.re * rat);
  return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}

// --- comparisons: lexicographic, and false whenever a NaN is involved ---
template <class R> LOOM_FN bool operator==(Complex<R> a, Complex<R> b) { return a.re == b.re && a.im == b.im; }
template <class R> LOOM_FN bool operator!=(Complex<R> a, Complex<R> b) { return a.re != b.re || a.im != b.im; }
template <class R> LOOM_FN bool no_nan_im(Complex<R> a, Complex<R> b) { return a.im == a.im && b.im == b.im; }
template <class R> LOOM_FN bool operator<(Complex<R> a, Complex<R> b) {
  return (a.re < b.re && no_nan_im(a, b)) || (a.re == b.re && a.im < b.im);
}
template <class R> LOOM_FN bool operator<=(Complex<R> a, Complex<R> b) {
  return (a.re < b.re && no_nan_im(a, b)) || (a.re == b.re && a.im <= b.im);
}
template <class R> LOOM_FN bool operator>(Complex<R> a, Complex<R> b) {
  return (a.re > b.re && no_nan_im(a, b)) || (a.re == b.re && a.im > b.im);
}
template <class R> LOOM_FN bool operator>=(Complex<R> a, Complex<R> b) {
  return (a.re > b.re && no_nan_im(a, b)) || (a.re == b.re && a.im >= b.im);
}

// --- parts and predicates ---
template <class R> LOOM_FN R real(Complex<R> z) { return z.re; }
template <class R> LOOM_FN R imag(Complex<R> z) { return z.im; }
template <class R> LOOM_FN Complex<R> conj(Complex<R> z) { return {z.re, -z.im}; }
template <class R> LOOM_FN R abs(Complex<R> z) { return loom::hypot(z.re, z.im); }
template <class R> LOOM_FN bool isnan(Complex<R> z) { return loom::isnan(z.re) || loom::isnan(z.im); }
template <class R> LOOM_FN bool isinf(Complex<R> z) { return loom::isinf(z.re) || loom::isinf(z.im); }
template <class R> LOOM_FN bool isfinite(Complex<R> z) { return loom::isfinite(z.re) && loom::isfinite(z.im); }
template <class R> LOOM_FN Complex<R> rint(Complex<R> z) { return {loom::rint(z.re), loom::rint(z.im)}; }

// z / |z|, with NumPy's answers for infinite and zero z.
template <class R> LOOM_FN Complex<R> sign(Complex<R> z) {
  const R a = loom::hypot(z.re, z.im);
  if (loom::isnan(a)) return {ComplexConsts<R>::nan(), ComplexConsts<R>::nan()};
  if (loom::isinf(a)) {
    if (loom::isinf(z.re)) {
      if (loom::isinf(z.im)) return {ComplexConsts<R>::nan(), ComplexConsts<R>::nan()};
      return {z.re > R(0) ? R(1) : R(-1), R(0)};
    }
    return {R(0), z.im > R(0) ? R(1) : R(-1)};
  }
  if (a == R(0)) return {R(0), R(0)};
  return {z.re / a, z.im / a};
}

template <class R> LOOM_FN Complex<R> reciprocal(Complex<R> z) {
  if (loom::abs(z.im) <= loom::abs(z.re)) {
    const R r = z.im / z.re, d = z.re + z.im * r;
    return {R(1) / d, -r / d};
  }
  const R r = z.re / z.im, d = z.re * r + z.im;
  return {r / d, R(-1) / d};
}

// NumPy: a NaN anywhere in the first argument wins for maximum / minimum; fmax / fmin take the
// first argument when the second holds a NaN.
template <class R> LOOM_FN Complex<R> maximum(Complex<R> a, Complex<R> b) { return (isnan(a) || a >= b) ? a : b; }
template <class R> LOOM_FN Complex<R> minimum(Complex<R> a, Complex<R> b) { return (isnan(a) || a <= b) ? a : b; }
template <class R> LOOM_FN Complex<R> fmax(Complex<R> a, Complex<R> b) { return (isnan(b) || a >= b) ? a : b; }
template <class R> LOOM_FN Complex<R> fmin(Complex<R> a, Complex<R> b) { return (isnan(b) || a <= b) ? a : b; }

// --- exponentials and logarithms ---
template <class R> LOOM_FN Complex<R> sqrt(Complex<R> z) {
  const R a = z.re, b = z.im;
  if (a == R(0) && b == R(0)) return {R(0), b};
  if (loom::isinf(b)) return {ComplexConsts<R>::inf(), b};
  if (loom::isnan(a)) return {a, a};
  if (loom::isinf(a)) {  // b is finite or NaN here
    if (a < R(0)) return {loom::abs(b - b), loom::copysign(-a, b)};
    return {a, loom::copysign(b - b, b)};
  }
  // a + |z| would overflow near the top of the range: work on z / 4 and double the root. Subnormal
  // parts would lose bits in hypot: work on z * 4^m and divide the root by 2^m.
  R s = R(1), k = R(1);
  if (loom::abs(a) >= ComplexConsts<R>::max / R(4) || loom::abs(b) >= ComplexConsts<R>::max / R(4)) {
    s = R(0.25);
    k = R(2);
  } else if (loom::abs(a) < ComplexConsts<R>::min_normal && loom::abs(b) < ComplexConsts<R>::min_normal) {
    s = ComplexConsts<R>::two_mant * ComplexConsts<R>::two_mant;
    k = R(1) / ComplexConsts<R>::two_mant;
  }
  const R as = a * s, bs = b * s;
  const R t = loom::sqrt((loom::abs(as) + loom::hypot(as, bs)) * R(0.5));
  if (as >= R(0)) return {k * t, k * (bs / (R(2) * t))};
  return {k * (loom::abs(bs) / (R(2) * t)), k * loom::copysign(t, bs)};
}

template <class R> LOOM_FN Complex<R> exp(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (y == R(0)) return {loom::exp(x), y};
  if (loom::isinf(x) && !loom::isfinite(y)) {
    if (x < R(0)) return {R(0), R(0)};
    return {x, y - y};
  }
  R s, c;
  loom::sincos(y, &s, &c);
  if (x > ComplexConsts<R>::exp_max) {  // exp(x) overflows where exp(x) * cos(y) may not
    const R h = loom::exp(x * R(0.5));
    return {(h * c) * h, (h * s) * h};
  }
  const R e = loom::exp(x);
  return {e * c, e * s};
}

// log|z|, accurate near |z| == 1 (through log1p), for subnormal z, and without overflow for huge z.
template <class R> LOOM_FN R log_abs(Complex<R> z) {
  R a = loom::abs(z.re), b = loom::abs(z.im);
  if (loom::isinf(a) || loom::isinf(b)) return ComplexConsts<R>::inf();
  if (a < b) {
    const R t = a;
    a = b;
    b = t;
  }
  if (a > R(0.5) && a < R(2)) return R(0.5) * loom::log1p((a - R(1)) * (a + R(1)) + b * b);
  if (a > ComplexConsts<R>::max / R(2)) return loom::log(loom::hypot(a * R(0.5), b * R(0.5))) + R(LOOM_LN2);
  if (a < ComplexConsts<R>::min_normal && a > R(0)) {
    const R k = ComplexConsts<R>::two_mant;
    return loom::log(loom::hypot(a * k, b * k)) - R(ComplexConsts<R>::mant_bits) * R(LOOM_LN2);
  }
  return loom::log(loom::hypot(a, b));
}
template <class R> LOOM_FN Complex<R> log(Complex<R> z) { return {log_abs(z), loom::atan2(z.im, z.re)}; }
template <class R> LOOM_FN Complex<R> log2(Complex<R> z) {
  const Complex<R> l = log(z);
  return {l.re * R(LOOM_LOG2E), l.im * R(LOOM_LOG2E)};
}
template <class R> LOOM_FN Complex<R> log10(Complex<R> z) {
  const Complex<R> l = log(z);
  return {l.re * R(LOOM_LOG10E), l.im * R(LOOM_LOG10E)};
}
// log(1 + z), accurate for small z: |1 + z|^2 = 1 + (2x + x^2 + y^2).
template <class R> LOOM_FN Complex<R> log1p(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (loom::abs(x) < R(0.5) && loom::abs(y) < R(0.5)) {
    return {R(0.5) * loom::log1p(x * (x + R(2)) + y * y), loom::atan2(y, R(1) + x)};
  }
  return log(Complex<R>{R(1) + x, y});
}
template <class R> LOOM_FN Complex<R> exp2(Complex<R> z) {
  return exp(Complex<R>{z.re * R(LOOM_LN2), z.im * R(LOOM_LN2)});
}
// exp(z) - 1 = (expm1(x) cos(y) - 2 sin^2(y/2), exp(x) sin(y)): no cancellation for small z.
template <class R> LOOM_FN Complex<R> expm1(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (y == R(0)) return {loom::expm1(x), y};
  R s, c;
  loom::sincos(y, &s, &c);
  const R h = loom::sin(y * R(0.5));
  return {loom::expm1(x) * c - R(2) * h * h, loom::exp(x) * s};
}

// z ** w, as NumPy's npy_cpow: z ** 0 == 1; 0 ** w is 0 when Re(w) > 0, else NaN; an integer w
// with |w| < 100 multiplies (and divides for w < 0); anything else is exp(w log z).
template <class R> LOOM_FN Complex<R> power(Complex<R> a, Complex<R> b) {
  if (b.re == R(0) && b.im == R(0)) return {R(1), R(0)};
  if (a.re == R(0) && a.im == R(0)) {
    if (b.re > R(0)) return {R(0), R(0)};
    return {ComplexConsts<R>::nan(), ComplexConsts<R>::nan()};
  }
  if (b.im == R(0) && loom::abs(b.re) < R(100) && b.re == loom::trunc(b.re)) {
    int n = int(b.re);
    if (n == 1) return a;
    if (n == 2) return mul_plain(a, a);
    if (n == 3) return mul_plain(a, mul_plain(a, a));
    if (n < 0) n = -n;
    Complex<R> r = {R(1), R(0)}, p = a;
    for (int mask = 1;; mask <<= 1) {
      if (n & mask) r = mul_plain(r, p);
      if (n < (mask << 1)) break;
      p = mul_plain(p, p);
    }
    return b.re < R(0) ? Complex<R>{R(1), R(0)} / r : r;
  }
  return exp(mul_plain(b, log(a)));
}

// --- trigonometric and hyperbolic ---
// sinh(z) = (sinh(x) cos(y), cosh(x) sin(y)). Past exp_max, sinh(x) ~ cosh(x) ~ exp(|x|) / 2 is
// applied in two halves, so that a finite result does not overflow on the way.
template <class R> LOOM_FN Complex<R> sinh(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (y == R(0)) return {loom::sinh(x), y};
  if (x == R(0)) return {x, loom::sin(y)};
  if (loom::isinf(x) && !loom::isfinite(y)) return {x, y - y};
  R s, c;
  loom::sincos(y, &s, &c);
  if (loom::abs(x) > ComplexConsts<R>::exp_max) {
    const R h = loom::exp(loom::abs(x) * R(0.5));
    return {loom::copysign(R(0.5), x) * c * h * h, R(0.5) * s * h * h};
  }
  return {loom::sinh(x) * c, loom::cosh(x) * s};
}
// cosh(z) = (cosh(x) cos(y), sinh(x) sin(y)).
template <class R> LOOM_FN Complex<R> cosh(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (y == R(0)) return {loom::cosh(x), loom::copysign(R(0), x) * y};
  if (x == R(0)) return {loom::cos(y), loom::isfinite(y) ? x * loom::sin(y) : x};
  if (loom::isinf(x) && !loom::isfinite(y)) return {loom::abs(x), y - y};
  R s, c;
  loom::sincos(y, &s, &c);
  if (loom::abs(x) > ComplexConsts<R>::exp_max) {
    const R h = loom::exp(loom::abs(x) * R(0.5));
    return {R(0.5) * c * h * h, loom::copysign(R(0.5), x) * s * h * h};
  }
  return {loom::cosh(x) * c, loom::sinh(x) * s};
}
// Kahan's tanh: t = tan(y), s = sinh(x): (s sqrt(1 + s^2) (1 + t^2), t) / (1 + (1 + t^2) s^2).
template <class R> LOOM_FN Complex<R> tanh(Complex<R> z) {
  const R x = z.re, y = z.im;
  if (!loom::isfinite(x)) {
    if (loom::isnan(x)) return {x, y == R(0) ? y : x};
    return {loom::copysign(R(1), x), loom::copysign(R(0), loom::isinf(y) ? y : loom::sin(y) * loom::cos(y))};
  }
  if (!loom::isfinite(y)) return {x == R(0) ? x : y - y, y - y};
  if (loom::abs(x) >= ComplexConsts<R>::tanh_big) {
    const R e = loom::exp(-loom::abs(x));
    R s, c;
    loom::sincos(y, &s, &c);
    return {loom::copysign(R(1), x), R(4) * s * c * e * e};
  }
  const R t = loom::tan(y), beta = R(1) + t * t;
  const R s = loom::sinh(x), rho = loom::sqrt(R(1) + s * s);
  const R denom = R(1) + beta * s * s;
  return {beta * rho * s / denom, t / denom};
}
// sin(z) = -i sinh(iz), cos(z) = cosh(iz), tan(z) = -i tanh(iz); iz = (-y, x).
template <class R> LOOM_FN Complex<R> sin(Complex<R> z) {
  const Complex<R> w = sinh(Complex<R>{-z.im, z.re});
  return {w.im, -w.re};
}
template <class R> LOOM_FN Complex<R> cos(Complex<R> z) { return cosh(Complex<R>{-z.im, z.re}); }
template <class R> LOOM_FN Complex<R> tan(Complex<R> z) {
  const Complex<R> w = tanh(Complex<R>{-z.im, z.re});
  return {w.im, -w.re};
}

// --- inverse functions (Kahan). 1 - z is formed as (1 - x, -y) so that the sign of a zero
// imaginary part, which picks the side of a branch cut, survives. Past |z| > big, where the
// square roots' corrections are below rounding, asinh(z) = log(2z) and acosh(z) = log(2z).
template <class R> LOOM_FN bool is_big(Complex<R> z) {
  return loom::fmax(loom::abs(z.re), loom::abs(z.im)) > ComplexConsts<R>::big;
}
template <class R> LOOM_FN Complex<R> log_2z(Complex<R> z) {
  const Complex<R> l = log(z);
  return {l.re + R(LOOM_LN2), l.im};
}
template <class R> LOOM_FN Complex<R> asin_kahan(Complex<R> z) {
  const Complex<R> s1 = sqrt(Complex<R>{R(1) - z.re, -z.im});  // sqrt(1 - z)
  const Complex<R> s2 = sqrt(Complex<R>{R(1) + z.re, z.im});   // sqrt(1 + z)
  return {loom::atan2(z.re, s1.re * s2.re - s1.im * s2.im), loom::asinh(s1.re * s2.im - s1.im * s2.re)};
}
template <class R> LOOM_FN Complex<R> asinh(Complex<R> z) {
  if (is_big(z)) {  // odd: work in the right half-plane. An infinite part with a NaN lands here.
    const bool flip = loom::signbit(z.re);
    const Complex<R> w = log_2z(flip ? -z : z);
    return flip ? -w : w;
  }
  if (isnan(z)) return {z.re + z.im, z.im == R(0) ? z.im : z.re + z.im};  // C99: asinh(NaN + 0i) = NaN + 0i
  const Complex<R> w = asin_kahan(Complex<R>{-z.im, z.re});  // asinh(z) = -i asin(iz)
  return {w.im, -w.re};
}
template <class R> LOOM_FN Complex<R> asin(Complex<R> z) {
  if (!is_big(z) && !isnan(z)) return asin_kahan(z);
  const Complex<R> w = asinh(Complex<R>{-z.im, z.re});  // asin(z) = -i asinh(iz)
  return {w.im, -w.re};
}
template <class R> LOOM_FN Complex<R> acosh(Complex<R> z) {
  if (is_big(z)) return log_2z(z);
  if (z.re == R(0) && loom::isnan(z.im)) return {z.im, R(LOOM_PI / 2)};
  const Complex<R> s1 = sqrt(Complex<R>{z.re - R(1), z.im});  // sqrt(z - 1)
  const Complex<R> s2 = sqrt(Complex<R>{z.re + R(1), z.im});  // sqrt(z + 1)
  return {loom::asinh(s1.re * s2.re + s1.im * s2.im), R(2) * loom::atan2(s1.im, s2.re)};
}
template <class R> LOOM_FN Complex<R> acos(Complex<R> z) {
  if (is_big(z)) {  // acos(z) = -i acosh(z) in the upper half-plane; conjugate symmetric
    const Complex<R> w = acosh(z);
    return loom::signbit(z.im) ? Complex<R>{-w.im, w.re} : Complex<R>{w.im, -w.re};
  }
  if (z.re == R(0) && loom::isnan(z.im)) return {R(LOOM_PI / 2), z.im};
  const Complex<R> s1 = sqrt(Complex<R>{R(1) - z.re, -z.im});  // sqrt(1 - z)
  const Complex<R> s2 = sqrt(Complex<R>{R(1) + z.re, z.im});   // sqrt(1 + z)
  return {R(2) * loom::atan2(s1.re, s2.re), loom::asinh(s2.re * s1.im - s2.im * s1.re)};
}
// atanh(z) = (log(|1 + z| / |1 - z|) / 2, atan2(2y, (1 - x)(1 + x) - y^2) / 2), for x >= 0 (atanh is
// odd). The real part is log1p(4x / |1 - z|^2) / 4 while that ratio is small (accurate for small
// x), a difference of logs otherwise (|1 - z|^2 may underflow near z = 1).
template <class R> LOOM_FN Complex<R> atanh(Complex<R> z) {
  const bool flip = loom::signbit(z.re);
  const R x = flip ? -z.re : z.re, y = flip ? -z.im : z.im;
  Complex<R> w;
  if (is_big(z)) {  // atanh(z) = 1/z +- i pi/2 + O(1/z^3)
    const R h = loom::hypot(x, y);
    if (loom::isinf(x) || loom::isinf(y)) {
      w = {R(0), loom::isnan(y) ? y : loom::copysign(R(LOOM_PI / 2), y)};
    } else {
      w = {(x / h) / h, loom::copysign(R(LOOM_PI / 2), y) - (y / h) / h};
    }
  } else if (x == R(0) && loom::isnan(y)) {
    w = {x, y};
  } else {
    const R q = R(4) * x / ((R(1) - x) * (R(1) - x) + y * y);
    const R re = q < R(2) ? R(0.25) * loom::log1p(q)
                          : R(0.5) * (loom::log(loom::hypot(R(1) + x, y)) - loom::log(loom::hypot(R(1) - x, y)));
    w = {re, R(0.5) * loom::atan2(R(2) * y, (R(1) - x) * (R(1) + x) - y * y)};
  }
  return flip ? -w : w;
}
template <class R> LOOM_FN Complex<R> atan(Complex<R> z) {
  const Complex<R> w = atanh(Complex<R>{-z.im, z.re});  // atan(z) = -i atanh(iz)
  return {w.im, -w.re};
}

// --- casts to complex: a real value becomes (value, 0); complex converts per component ---
template <class R> struct Convert<Complex<R>> {
  template <class From> static LOOM_FN Complex<R> from(From x) {
    if constexpr (IsComplex<From>::value) return {static_cast<R>(x.re), static_cast<R>(x.im)};
    else return {Convert<R>::from(x), R(0)};
  }
};

}  // namespace loom
