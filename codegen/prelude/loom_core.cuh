// loom_core.cuh: what every kernel loom generates can call (namespace loom).
//
// The prelude is three headers, given to NVRTC in memory by name:
//   loom_core.cuh     (always)  integer typedefs, Vec for 16-byte loads, NumPy's integer
//                               arithmetic without C++ undefined behaviour (wrapping + - *,
//                               floor division, shifts, power), the float and double math
//                               functions with NumPy's semantics, and cast<To>(x).
//   loom_complex.cuh  (complex) c64 / c128, their operators and math functions.
//   loom_half.cuh     (float16, bfloat16) the tags f16 / bf16 for cast<f16>(x): float16 and
//                               bfloat16 values are held in float registers, and rounded to
//                               their 16-bit precision after every operation.
// NumPy 2 is the reference; lib/reference/host_ops.hpp writes the same rules for the CPU, and the
// tests compare the two. Float math calls CUDA's own functions (sqrtf, expf, ...), never the
// fast-math intrinsics. Nothing here includes a CUDA header: a float kernel compiles fast.
#pragma once

namespace loom {

typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

// N values loaded or stored as one 16-byte access.
template <int N, class T> struct alignas(sizeof(T) * N) Vec { T v[N]; };

// ---------------------------------------------------------------------------------------------
// Integer traits. Wide<T> is the unsigned type integer arithmetic runs in: at least 32 bits, so
// that i8 / u16 operands never promote to a signed int that could overflow. It exists only for
// the eight integer types, which keeps the integer templates below away from bool and floats.
template <class T> struct IntTraits {};
#define LOOM_INT_TRAITS(T, W, BITS, SIGNED, MIN, MAX)                               \
  template <> struct IntTraits<T> {                                                 \
    typedef W Wide;                                                                 \
    static constexpr int bits = BITS;                                               \
    static constexpr bool is_signed = SIGNED;                                       \
    static constexpr T min = MIN, max = MAX;                                        \
  };
LOOM_INT_TRAITS(i8, u32, 8, true, -128, 127)
LOOM_INT_TRAITS(i16, u32, 16, true, -32768, 32767)
LOOM_INT_TRAITS(i32, u32, 32, true, -2147483647 - 1, 2147483647)
LOOM_INT_TRAITS(i64, u64, 64, true, -9223372036854775807LL - 1, 9223372036854775807LL)
LOOM_INT_TRAITS(u8, u32, 8, false, 0, 255)
LOOM_INT_TRAITS(u16, u32, 16, false, 0, 65535)
LOOM_INT_TRAITS(u32, u32, 32, false, 0, 4294967295u)
LOOM_INT_TRAITS(u64, u64, 64, false, 0, 18446744073709551615ull)
#undef LOOM_INT_TRAITS
template <class T> using Wide = typename IntTraits<T>::Wide;
// Bool<T> exists only for bool: the bool overloads below must not take a float by conversion.
template <class T> struct IsBool {};
template <> struct IsBool<bool> { typedef bool type; };
template <class T> using Bool = typename IsBool<T>::type;

#define LOOM_FN __device__ __forceinline__

// ---------------------------------------------------------------------------------------------
// Integer and bool arithmetic, as NumPy: two's complement wrap-around; bool add = or, mul = and.
template <class T, class W = Wide<T>> LOOM_FN T wadd(T a, T b) { return T(W(a) + W(b)); }

// Op::CheckIndex: i counted from the end when negative; out of [-n, n) the first such index of
// any kernel is recorded in err (flag, index, extent, axis: host memory the host reads at its
// next synchronization) and 0 stands in for it, so nothing reads out of bounds.
LOOM_FN i64 check_index(i64 i, i64 n, i64 axis, u64* err) {
  if (i >= -n && i < n) return i < 0 ? i + n : i;
  if (atomicCAS(err, 0ull, 1ull) == 0ull) {
    err[1] = (u64)i;
    err[2] = (u64)n;
    err[3] = (u64)axis;
    __threadfence_system();
  }
  return 0;
}
template <class T, class W = Wide<T>> LOOM_FN T wsub(T a, T b) { return T(W(a) - W(b)); }
template <class T, class W = Wide<T>> LOOM_FN T wmul(T a, T b) { return T(W(a) * W(b)); }
template <class T, class W = Wide<T>> LOOM_FN T wneg(T a) { return T(W(0) - W(a)); }
template <class B, class = Bool<B>> LOOM_FN bool wadd(B a, B b) { return a || b; }
template <class B, class = Bool<B>> LOOM_FN bool wsub(B a, B b) { return a != b; }
template <class B, class = Bool<B>> LOOM_FN bool wmul(B a, B b) { return a && b; }
template <class B, class = Bool<B>> LOOM_FN bool wneg(B a) { return a; }

// x < 0, without a "pointless comparison" warning for unsigned types.
template <class T, class W = Wide<T>> LOOM_FN bool is_negative(T a) {
  if constexpr (IntTraits<T>::is_signed) return a < T(0);
  else return false;
}

// abs(INT_MIN) == INT_MIN, as NumPy.
template <class T, class W = Wide<T>> LOOM_FN T abs(T a) { return is_negative(a) ? wneg(a) : a; }
template <class B, class = Bool<B>> LOOM_FN bool abs(B a) { return a; }
template <class T, class W = Wide<T>> LOOM_FN T sign(T a) { return T(int(a > T(0)) - int(is_negative(a))); }
// 1 / x truncated toward zero; x == 0 gives 0 (NumPy would warn).
template <class T, class W = Wide<T>> LOOM_FN T reciprocal(T a) {
  return a == T(1) ? T(1) : (IntTraits<T>::is_signed && a == T(-1)) ? a : T(0);
}
template <class T, class W = Wide<T>> LOOM_FN T invert(T a) { return T(~W(a)); }
template <class B, class = Bool<B>> LOOM_FN bool invert(B a) { return !a; }

// Python's floor division and modulo: the remainder has the divisor's sign. x // 0 == 0 and
// x % 0 == 0; INT_MIN // -1 wraps to INT_MIN.
template <class T, class W = Wide<T>> LOOM_FN T floor_divide(T a, T b) {
  if (b == T(0)) return T(0);
  if (!IntTraits<T>::is_signed) return T(a / b);
  if (b == T(-1)) return wneg(a);
  const T q = T(a / b);
  return (a % b != T(0) && (is_negative(a) != is_negative(b))) ? T(q - T(1)) : q;
}
template <class T, class W = Wide<T>> LOOM_FN T remainder(T a, T b) {
  if (b == T(0) || (IntTraits<T>::is_signed && b == T(-1))) return T(0);
  const T r = T(a % b);
  return (r != T(0) && (is_negative(r) != is_negative(b))) ? T(r + b) : r;
}

// C's fmod of integers: the dividend's sign; x fmod 0 == 0 and INT_MIN fmod -1 == 0.
template <class T, class W = Wide<T>> LOOM_FN T ifmod(T a, T b) {
  if (b == T(0) || (IntTraits<T>::is_signed && b == T(-1))) return T(0);
  return T(a % b);
}
// Euclid's algorithm on the magnitudes (in the unsigned wide type: |INT_MIN| fits); lcm is
// |a| / gcd * |b|, wrapping, and 0 when either is 0.
template <class T, class W = Wide<T>> LOOM_FN W magnitude(T a) { return is_negative(a) ? W(W(0) - W(a)) : W(a); }
template <class T, class W = Wide<T>> LOOM_FN T gcd(T a, T b) {
  W x = magnitude<T, W>(a), y = magnitude<T, W>(b);
  while (y != W(0)) {
    const W r = W(x % y);
    x = y;
    y = r;
  }
  return T(x);
}
template <class T, class W = Wide<T>> LOOM_FN T lcm(T a, T b) {
  const W g = W(gcd(a, b));
  if (g == W(0)) return T(0);
  return T(W(magnitude<T, W>(a) / g) * magnitude<T, W>(b));
}

// Exponentiation by squaring, wrapping. A negative exponent (NumPy raises; a kernel cannot):
// 1 ** n == 1, (-1) ** n == +-1, anything else 0.
template <class T, class W = Wide<T>> LOOM_FN T power(T a, T b) {
  if (is_negative(b)) {
    if (a == T(1)) return T(1);
    if (a == T(-1)) return (W(b) & 1u) ? a : T(1);
    return T(0);
  }
  W r = 1, base = W(a), e = W(b);
  while (e != 0) {
    if (e & 1u) r *= base;
    base *= base;
    e >>= 1;
  }
  return T(r);
}

// Shifts by a count outside [0, bits) give what shifting one bit at a time would: 0, or -1 for
// a negative value shifted right.
template <class T, class W = Wide<T>> LOOM_FN T left_shift(T a, T b) {
  return u64(b) < u64(IntTraits<T>::bits) ? T(W(a) << W(b)) : T(0);
}
template <class T, class W = Wide<T>> LOOM_FN T right_shift(T a, T b) {
  if (u64(b) < u64(IntTraits<T>::bits)) return T(a >> b);
  return is_negative(a) ? T(-1) : T(0);
}

template <class T, class W = Wide<T>> LOOM_FN T maximum(T a, T b) { return a > b ? a : b; }
template <class T, class W = Wide<T>> LOOM_FN T minimum(T a, T b) { return a < b ? a : b; }
template <class B, class = Bool<B>> LOOM_FN bool maximum(B a, B b) { return a || b; }
template <class B, class = Bool<B>> LOOM_FN bool minimum(B a, B b) { return a && b; }

// real / imag / conj of a real value; zero_like(x) is a zero of x's type.
// x * x for real floats (complex: loom_complex.cuh, plain products as NumPy's square).
template <class T> LOOM_FN T square(T x) { return x * x; }
template <class T> LOOM_FN T real(T x) { return x; }
template <class T> LOOM_FN T conj(T x) { return x; }
template <class T> LOOM_FN T zero_like(T) { return T(); }
template <class T> LOOM_FN T zero() { return T(); }  // what a guarded read gives where it is not made
template <class T> LOOM_FN T imag(T) { return T(); }

// ---------------------------------------------------------------------------------------------
// float and double. One overload pair per function, calling CUDA's libdevice math.
#define LOOM_MATH1(name, f32, f64)                          \
  LOOM_FN float name(float x) { return ::f32(x); }          \
  LOOM_FN double name(double x) { return ::f64(x); }
#define LOOM_MATH2(name, f32, f64)                                   \
  LOOM_FN float name(float x, float y) { return ::f32(x, y); }       \
  LOOM_FN double name(double x, double y) { return ::f64(x, y); }
LOOM_MATH1(abs, fabsf, fabs)
LOOM_MATH1(sqrt, sqrtf, sqrt)
LOOM_MATH1(cbrt, cbrtf, cbrt)
LOOM_MATH1(exp, expf, exp)
LOOM_MATH1(exp2, exp2f, exp2)
LOOM_MATH1(expm1, expm1f, expm1)
LOOM_MATH1(log, logf, log)
LOOM_MATH1(log2, log2f, log2)
LOOM_MATH1(log10, log10f, log10)
LOOM_MATH1(log1p, log1pf, log1p)
LOOM_MATH1(sin, sinf, sin)
LOOM_MATH1(cos, cosf, cos)
LOOM_MATH1(tan, tanf, tan)
LOOM_MATH1(asin, asinf, asin)
LOOM_MATH1(acos, acosf, acos)
LOOM_MATH1(atan, atanf, atan)
LOOM_MATH1(sinh, sinhf, sinh)
LOOM_MATH1(cosh, coshf, cosh)
LOOM_MATH1(tanh, tanhf, tanh)
LOOM_MATH1(asinh, asinhf, asinh)
LOOM_MATH1(acosh, acoshf, acosh)
LOOM_MATH1(atanh, atanhf, atanh)
LOOM_MATH1(floor, floorf, floor)
LOOM_MATH1(ceil, ceilf, ceil)
LOOM_MATH1(trunc, truncf, trunc)
LOOM_MATH1(rint, rintf, rint)  // round half to even
LOOM_MATH2(atan2, atan2f, atan2)
LOOM_MATH2(hypot, hypotf, hypot)
LOOM_MATH2(copysign, copysignf, copysign)
LOOM_MATH2(fmod, fmodf, fmod)
LOOM_MATH2(nextafter, nextafterf, nextafter)
#undef LOOM_MATH1
#undef LOOM_MATH2
LOOM_FN float power(float a, float b) { return ::powf(a, b); }
LOOM_FN double power(double a, double b) { return ::pow(a, b); }
LOOM_FN void sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }
LOOM_FN void sincos(double x, double* s, double* c) { ::sincos(x, s, c); }

LOOM_FN bool isnan(float x) { return ::isnan(x); }
LOOM_FN bool isnan(double x) { return ::isnan(x); }
LOOM_FN bool isinf(float x) { return ::isinf(x); }
LOOM_FN bool isinf(double x) { return ::isinf(x); }
LOOM_FN bool isfinite(float x) { return ::isfinite(x); }
LOOM_FN bool isfinite(double x) { return ::isfinite(x); }
LOOM_FN bool signbit(float x) { return ::signbit(x); }
LOOM_FN bool signbit(double x) { return ::signbit(x); }

// -1, 0 or 1; sign(-0.0) is +0.0 and NaN stays NaN.
template <class R> LOOM_FN R sign_real(R x) { return x > R(0) ? R(1) : x < R(0) ? R(-1) : x == R(0) ? R(0) : x; }
LOOM_FN float sign(float x) { return sign_real(x); }
LOOM_FN double sign(double x) { return sign_real(x); }
LOOM_FN float reciprocal(float x) { return 1.0f / x; }
LOOM_FN double reciprocal(double x) { return 1.0 / x; }

// maximum / minimum propagate a NaN from either side; fmax / fmin ignore one NaN. These are
// NumPy's scalar loops, so maximum(-0.0, 0.0) is the first argument, on the host too.
template <class R> LOOM_FN R max_nan(R a, R b) { return (a >= b || a != a) ? a : b; }
template <class R> LOOM_FN R min_nan(R a, R b) { return (a <= b || a != a) ? a : b; }
template <class R> LOOM_FN R max_num(R a, R b) { return (a >= b || b != b) ? a : b; }
template <class R> LOOM_FN R min_num(R a, R b) { return (a <= b || b != b) ? a : b; }
LOOM_FN float maximum(float a, float b) { return max_nan(a, b); }
LOOM_FN double maximum(double a, double b) { return max_nan(a, b); }
LOOM_FN float minimum(float a, float b) { return min_nan(a, b); }
LOOM_FN double minimum(double a, double b) { return min_nan(a, b); }
LOOM_FN float fmax(float a, float b) { return max_num(a, b); }
LOOM_FN double fmax(double a, double b) { return max_num(a, b); }
LOOM_FN float fmin(float a, float b) { return min_num(a, b); }
LOOM_FN double fmin(double a, double b) { return min_num(a, b); }

// NumPy's npy_divmod: floor division and a remainder with the divisor's sign, such that
// a == b * floor_divide(a, b) + remainder(a, b) as closely as rounding allows.
template <class R> LOOM_FN R floor_divide_real(R a, R b) {
  if (b == R(0)) return a / b;
  const R mod = loom::fmod(a, b);
  R div = (a - mod) / b;
  if (mod != R(0) && ((b < R(0)) != (mod < R(0)))) div -= R(1);
  if (div == R(0)) return loom::copysign(R(0), a / b);
  R fl = loom::floor(div);
  if (div - fl > R(0.5)) fl += R(1);  // snap to the nearest integer
  return fl;
}
template <class R> LOOM_FN R remainder_real(R a, R b) {
  R mod = loom::fmod(a, b);
  if (b == R(0)) return mod;
  if (mod != R(0)) {
    if ((b < R(0)) != (mod < R(0))) mod += b;
  } else {
    mod = loom::copysign(R(0), b);
  }
  return mod;
}
LOOM_FN float floor_divide(float a, float b) { return floor_divide_real(a, b); }
LOOM_FN double floor_divide(double a, double b) { return floor_divide_real(a, b); }
LOOM_FN float remainder(float a, float b) { return remainder_real(a, b); }
LOOM_FN double remainder(double a, double b) { return remainder_real(a, b); }

// ---------------------------------------------------------------------------------------------
// cast<To>(x): NumPy's casts, bit for bit as the host's ref::cast_value.
//   to bool: x != 0 (complex: either part).  int -> int: wrap.  float -> int: NaN -> 0, else
//   truncate toward zero and saturate to To's range.  -> float / double: round to nearest.
//   complex -> real: the real part.  loom_complex.cuh and loom_half.cuh add the other targets.
template <class T> struct IsComplex { static constexpr bool value = false; };
template <class T> struct IsFloat { static constexpr bool value = false; };
template <> struct IsFloat<float> { static constexpr bool value = true; };
template <> struct IsFloat<double> { static constexpr bool value = true; };
// The register type a stored value is computed in (loom_half.cuh: __half -> float).
template <class T> struct Register {
  static LOOM_FN T get(T x) { return x; }
};

template <class I, class F> LOOM_FN I float_to_int(F x) {
  if (x != x) return I(0);
  if (x <= F(IntTraits<I>::min)) return IntTraits<I>::min;
  if (x >= F(IntTraits<I>::max)) return IntTraits<I>::max;  // F(max) rounds up: exact bound
  return static_cast<I>(x);
}

template <class To> struct Convert {  // To: an integer type
  template <class From> static LOOM_FN To from(From x) {
    if constexpr (IsComplex<From>::value) return from(x.re);
    else if constexpr (IsFloat<From>::value) return float_to_int<To>(x);
    else return static_cast<To>(x);
  }
};
template <> struct Convert<bool> {
  template <class From> static LOOM_FN bool from(From x) {
    if constexpr (IsComplex<From>::value) return x.re != 0 || x.im != 0;
    else return x != From(0);
  }
};
template <> struct Convert<float> {
  template <class From> static LOOM_FN float from(From x) {
    if constexpr (IsComplex<From>::value) return static_cast<float>(x.re);
    else return static_cast<float>(x);
  }
};
template <> struct Convert<double> {
  template <class From> static LOOM_FN double from(From x) {
    if constexpr (IsComplex<From>::value) return static_cast<double>(x.re);
    else return static_cast<double>(x);
  }
};

// cast<f16>(x) and cast<bf16>(x) return a float (loom_half.cuh); every other To returns a To.
template <class To, class From> LOOM_FN auto cast(From x) {
  return Convert<To>::from(Register<From>::get(x));
}

}  // namespace loom
