#pragma once
// Host reference functions of the elementwise ops: one functor per row of lib/graph/ops.def, named
// as the enum (ref::Add, ref::Sqrt, ...), with NumPy 2's semantics, plus cast_value<To>(v). They
// are the oracle the generated kernels are tested against, so they are written from NumPy's rules
// and the C++ standard library, independently of the device prelude (codegen/prelude/*.cuh).
//
// Every functor takes bool, int8..uint64, float, double, std::complex<float|double> (and, for
// safety, loom::half / loom::bfloat16_t, computed in float and rounded once), and compiles for
// every one of them: a type the promotion rules never send to an op gets T{} (or false / a zero
// real), never a compile error. Results are T, except predicates, comparisons and logical ops
// (bool) and Abs / Real / Imag of a complex (its real type). No input has undefined behaviour.

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <loom/errors.hpp>
#include <loom/half.hpp>

namespace loom::ref {

namespace impl {

template <class T> inline constexpr bool is_complex_v = false;
template <class R> inline constexpr bool is_complex_v<std::complex<R>> = true;
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T> inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;
template <class T> inline constexpr bool is_float_v = std::is_floating_point_v<T>;

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<std::complex<R>> { using type = R; };
template <class T> using real_t = typename RealOf<T>::type;

// Unsigned arithmetic of at least int's width: i8 * i8 never promotes to a signed int overflow.
template <class T> using uarith_t = decltype(std::make_unsigned_t<T>{} + 0u);

// float16 / bfloat16: compute in float, round the result once (predicates stay bool).
template <class T, class F, class... A> auto via_float(const F& f, A... a) {
  const auto r = f(static_cast<float>(a)...);
  if constexpr (std::is_same_v<std::remove_const_t<decltype(r)>, float>) {
    return T(r);
  } else {
    return r;
  }
}

template <class T> bool truthy(T v) {
  if constexpr (is_complex_v<T>) {
    return v.real() != 0 || v.imag() != 0;
  } else {
    return v != T(0);
  }
}

// --- integers: two's complement wrap-around, computed in unsigned ---
template <class T> T wrap_add(T a, T b) {
  using U = uarith_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T> T wrap_sub(T a, T b) {
  using U = uarith_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T> T wrap_mul(T a, T b) {
  using U = uarith_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}
template <class T> T wrap_neg(T a) { return wrap_sub(T(0), a); }

// Python's // and %: the quotient rounds toward -inf, the remainder takes the divisor's sign.
// Division by zero gives 0 (NumPy warns); MIN // -1 wraps to MIN.
template <class T> T int_floor_div(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrap_neg(a);
    const T q = static_cast<T>(a / b);
    const bool inexact = static_cast<T>(a % b) != 0;
    return (inexact && ((a < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return static_cast<T>(a / b);
  }
}
template <class T> T int_remainder(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    const T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  } else {
    return static_cast<T>(a % b);
  }
}

// a ** b by squaring, wrapping. b < 0 (NumPy raises): 1 ** b = 1, (-1) ** b = +-1, else 0.
template <class T> T int_power(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b % 2 == 0) ? T(1) : T(-1);
      return 0;
    }
  }
  T result = 1, base = a;
  for (auto e = static_cast<std::make_unsigned_t<T>>(b); e != 0; e >>= 1) {
    if (e & 1u) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
  }
  return result;
}

template <class T> constexpr int bit_width_of = static_cast<int>(sizeof(T) * 8);
template <class T> bool shift_in_range(T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return false;
  }
  return static_cast<std::uint64_t>(b) < static_cast<std::uint64_t>(bit_width_of<T>);
}

// --- floats: NumPy's npy_divmod ---
template <class R> R float_floor_div(R a, R b) {
  if (b == 0) return a / b;
  const R mod = std::fmod(a, b);
  R div = (a - mod) / b;  // very nearly an integer
  if (mod != 0 && (std::isless(b, R(0)) != std::isless(mod, R(0)))) div -= 1;
  if (div == 0) return std::copysign(R(0), a / b);
  R floor_div = std::floor(div);
  if (div - floor_div > R(0.5)) floor_div += 1;
  return floor_div;
}
template <class R> R float_remainder(R a, R b) {
  R mod = std::fmod(a, b);
  if (b == 0) return mod;
  if (mod == 0) return std::copysign(R(0), b);
  if (std::isless(b, R(0)) != std::isless(mod, R(0))) mod += b;
  return mod;
}

// maximum / minimum let a NaN through from either side (NumPy's scalar loop: the first argument
// wins ties, so maximum(-0.0, 0.0) is -0.0); fmax / fmin ignore a NaN unless both are.
template <class R> R max_propagate(R a, R b) { return (a >= b || std::isnan(a)) ? a : b; }
template <class R> R min_propagate(R a, R b) { return (a <= b || std::isnan(a)) ? a : b; }
template <class R> R max_ignore(R a, R b) { return (a >= b || std::isnan(b)) ? a : b; }
template <class R> R min_ignore(R a, R b) { return (a <= b || std::isnan(b)) ? a : b; }

// --- complex: NumPy's loops, component by component ---
template <class R> using C = std::complex<R>;
template <class R> bool has_nan(C<R> z) { return std::isnan(z.real()) || std::isnan(z.imag()); }
// The lexicographic orders of NumPy's CGT / CGE / CLT / CLE: false whenever a NaN is involved.
template <class R> bool c_greater(C<R> a, C<R> b, bool or_equal) {
  if (a.real() > b.real()) return !std::isnan(a.imag()) && !std::isnan(b.imag());
  return a.real() == b.real() && (or_equal ? a.imag() >= b.imag() : a.imag() > b.imag());
}
template <class R> bool c_less(C<R> a, C<R> b, bool or_equal) { return c_greater(b, a, or_equal); }

// Plain products, as NumPy (std::complex's operator* recovers infinities differently).
template <class R> C<R> c_mul(C<R> a, C<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// NumPy's multiply loop on x86-64 with FMA: re = fma(ar, br, -(ai bi)), im = fma(ar, bi, ai br).
// (power and square keep plain products, as NumPy's do.)
template <class R> C<R> c_mul_fma(C<R> a, C<R> b) {
  return {std::fma(a.real(), b.real(), -(a.imag() * b.imag())),
          std::fma(a.real(), b.imag(), a.imag() * b.real())};
}
// NumPy's true_divide: Smith's algorithm, with its answers for NaN, inf and zero operands.
template <class R> C<R> c_div(C<R> a, C<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const bool ar_nan = std::isnan(ar), ai_nan = std::isnan(ai);
  const bool a_inf = (!ar_nan && std::isinf(ar)) || (!ai_nan && std::isinf(ai));
  if (!std::isnan(br) && !std::isnan(bi) && (ar_nan || ai_nan) &&
      ((a_inf && (br != 0 || bi != 0)) || (std::isinf(br) && std::isinf(bi)))) {
    const R n = ar_nan ? ar : ai;
    return {n, n};
  }
  if (std::isgreaterequal(std::fabs(br), std::fabs(bi))) {
    if (br == 0 && bi == 0) {
      if ((ar_nan && (ai == 0 || ai_nan)) || (ar == 0 && ai_nan)) {
        return {ar_nan ? ar : ai, ai_nan ? ai : ar};
      }
      return {ar / std::fabs(br), ai / std::fabs(bi)};
    }
    const R ratio = bi / br, scale = R(1) / (br + bi * ratio);
    return {(ar + ai * ratio) * scale, (ai - ar * ratio) * scale};
  }
  const R ratio = br / bi, scale = R(1) / (bi + br * ratio);
  return {(ar * ratio + ai) * scale, (ai * ratio - ar) * scale};
}
template <class R> C<R> c_reciprocal(C<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(y) <= std::fabs(x)) {
    const R r = y / x, d = x + y * r;
    return {R(1) / d, -r / d};
  }
  const R r = x / y, d = x * r + y;
  return {r / d, R(-1) / d};
}
// z / |z|; NumPy 2's answers for infinite parts; 0 -> 0.
template <class R> C<R> c_sign(C<R> z) {
  const R nan = std::numeric_limits<R>::quiet_NaN();
  const R m = std::hypot(z.real(), z.imag());
  if (std::isnan(m)) return {nan, nan};
  if (std::isinf(m)) {
    if (std::isinf(z.real())) return std::isinf(z.imag()) ? C<R>{nan, nan} : C<R>{z.real() > 0 ? R(1) : R(-1), R(0)};
    return {R(0), z.imag() > 0 ? R(1) : R(-1)};
  }
  if (m == 0) return {R(0), R(0)};
  return {z.real() / m, z.imag() / m};
}
// log(1 + z) without losing small z: log|1 + z| = log1p(2x + x^2 + y^2) / 2.
template <class R> C<R> c_log1p(C<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5)) {
    return {R(0.5) * std::log1p(x * (x + 2) + y * y), std::atan2(y, R(1) + x)};
  }
  return std::log(C<R>(R(1) + x, y));
}
// exp(z) - 1 = (expm1(x) cos y - 2 sin^2(y / 2), exp(x) sin y).
template <class R> C<R> c_expm1(C<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == 0) return {std::expm1(x), y};
  const R h = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y)};
}
// NumPy's npy_cpow: w == 0 -> 1; 0 ** w -> 0 if Re(w) > 0 else NaN; integer w with |w| < 100
// by repeated multiplication (a reciprocal for w < 0); else exp(w log z).
template <class R> C<R> c_power(C<R> a, C<R> b) {
  const R nan = std::numeric_limits<R>::quiet_NaN();
  if (b.real() == 0 && b.imag() == 0) return {R(1), R(0)};
  if (a.real() == 0 && a.imag() == 0) return b.real() > 0 ? C<R>{R(0), R(0)} : C<R>{nan, nan};
  const R br = b.real();
  if (b.imag() == 0 && br > -100 && br < 100 && br == std::trunc(br)) {
    const int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return c_mul(a, a);
    if (n == 3) return c_mul(a, c_mul(a, a));
    unsigned k = static_cast<unsigned>(n < 0 ? -n : n);
    C<R> result{R(1), R(0)}, p = a;
    while (true) {
      if (k & 1u) result = c_mul(result, p);
      k >>= 1;
      if (k == 0) break;
      p = c_mul(p, p);
    }
    return n < 0 ? c_div(C<R>{R(1), R(0)}, result) : result;
  }
  return std::exp(c_mul(b, std::log(a)));
}

template <class To, class F> To float_to_int(F v) {
  if (std::isnan(v)) return 0;
  constexpr auto lo = static_cast<F>(std::numeric_limits<To>::min());
  constexpr auto hi = static_cast<F>(std::numeric_limits<To>::max());  // rounds up to 2^n: exact bound
  if (v <= lo) return std::numeric_limits<To>::min();
  if (v >= hi) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}

}  // namespace impl

// NumPy's casts, bit for bit as the device's loom::cast<To>(x):
//   to bool: != 0 (complex: either part).  integer -> integer: wrap.  float -> integer: NaN -> 0,
//   else truncate toward zero and saturate to To's range.  -> float / double: round to nearest.
//   -> float16 / bfloat16: through double, then rounded to nearest even once.  complex -> real:
//   the real part.  real -> complex: (value, 0).  float16 / bfloat16 sources are read as float.
template <class To, class From> To cast_value(From v) {
  using namespace impl;
  if constexpr (is_half_v<From>) {
    return cast_value<To>(static_cast<float>(v));
  } else if constexpr (is_bool_v<To>) {
    return truthy(v);
  } else if constexpr (is_complex_v<To>) {
    using R = real_t<To>;
    if constexpr (is_complex_v<From>) {
      return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    } else {
      return To(cast_value<R>(v), R(0));
    }
  } else if constexpr (is_complex_v<From>) {
    return cast_value<To>(v.real());
  } else if constexpr (is_half_v<To>) {
    return To::from_double(static_cast<double>(v));
  } else if constexpr (is_int_v<To> && is_float_v<From>) {
    return float_to_int<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Shorthands for the functor bodies below: T is the operand type.
#define LOOM_REF_HALF(...) \
  if constexpr (impl::is_half_v<T>) return impl::via_float<T>(*this, __VA_ARGS__)

// A unary function of floats and complex numbers (the FloatFunc rule): other types get T{}.
#define LOOM_REF_FLOAT_FUNC(Name, real_expr, complex_expr)         \
  struct Name {                                                    \
    template <class T> auto operator()(T a) const {                \
      LOOM_REF_HALF(a);                                            \
      else if constexpr (impl::is_float_v<T>) return T(real_expr); \
      else if constexpr (impl::is_complex_v<T>) {                  \
        using R = impl::real_t<T>;                                 \
        [[maybe_unused]] const R x = a.real(), y = a.imag();       \
        return T(complex_expr);                                    \
      } else return T{};                                           \
    }                                                              \
  };

// --- unary -----------------------------------------------------------------------------------

struct Neg {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_int_v<T>) return impl::wrap_neg(a);
    else if constexpr (impl::is_bool_v<T>) return a;  // NumPy rejects it
    else return T(-a);
  }
};
struct Pos {
  template <class T> T operator()(T a) const { return a; }
};
struct Copy {
  template <class T> T operator()(T a) const { return a; }
};
struct Abs {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_complex_v<T>) return std::hypot(a.real(), a.imag());
    else if constexpr (impl::is_float_v<T>) return std::fabs(a);
    else if constexpr (std::is_signed_v<T>) return a < 0 ? impl::wrap_neg(a) : a;  // MIN stays MIN
    else return a;
  }
};
struct Sign {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_complex_v<T>) return impl::c_sign(a);
    else if constexpr (impl::is_float_v<T>) return std::isnan(a) ? a : T(a > 0 ? 1 : a < 0 ? -1 : 0);
    else if constexpr (impl::is_bool_v<T>) return a;
    else return static_cast<T>(static_cast<int>(a > 0) - static_cast<int>(a < 0));
  }
};
LOOM_REF_FLOAT_FUNC(Sqrt, std::sqrt(a), std::sqrt(a))
struct Cbrt {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_float_v<T>) return T(std::cbrt(a));
    else return T{};
  }
};
struct Square {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_complex_v<T>) return impl::c_mul(a, a);
    else if constexpr (impl::is_int_v<T>) return impl::wrap_mul(a, a);
    else if constexpr (impl::is_bool_v<T>) return a;
    else return T(a * a);
  }
};
struct Reciprocal {
  template <class T> auto operator()(T a) const {
    LOOM_REF_HALF(a);
    else if constexpr (impl::is_complex_v<T>) return impl::c_reciprocal(a);
    else if constexpr (impl::is_float_v<T>) return T(1 / a);
    else if constexpr (impl::is_bool_v<T>) return a;
    else if constexpr (std::is_signed_v<T>) return (a == 1 || a == -1) ? a : T(0);  // 1/x truncated; 1/0 -> 0
    else return a == 1 ? T(1) : T(0);
  }
};
LOOM_REF_FLOAT_FUNC(Exp, std::exp(a), std::exp(a))
LOOM_REF_FLOAT_FUNC(Exp2, std::exp2(a), std::exp(a * R(0.69314718055994530942)))
LOOM_REF_FLOAT_FUNC(Expm1, std::expm1(a), impl::c_expm1(a))
LOOM_REF_FLOAT_FUNC(Log, std::log(a), std::log(a))
LOOM_REF_FLOAT_FUNC(Log2, std::log2(a), std::log(a) * R(1.44269504088896340736))
LOOM_REF_FLOAT_FUNC(Log10, std::log10(a), std::log(a) * R(0.43429448190325182765))
LOOM_REF_FLOAT_FUNC(Log1p, std::log1p(a), impl::c_log1p(a))
LOOM_REF_FLOAT_FUNC(Sin, std::sin(a), std::sin(a))
LOOM_REF_FLOAT_FUNC(Cos, std::cos(a), std::cos(a))
LOOM_REF_FLOAT_FUNC(Tan, std::tan(a), std::tan(a))
LOOM_REF_FLOAT_FUNC(Arcsin, std::asin(a), std::asin(a))
LOOM_REF_FLOAT_FUNC(Arccos, std::acos(a), std::acos(a))
LOOM_REF_FLOAT_FUNC(Arctan, std::atan(a), std::atan(a))
LOOM_REF_FLOAT_FUNC(Sinh, std::sinh(a), std::sinh(a))
LOOM_REF_FLOAT_FUNC(Cosh, std::cosh(a), std::cosh(a))
LOOM_REF_FLOAT_FUNC(Tanh, std::tanh(a), std::tanh(a))
LOOM_REF_FLOAT_FUNC(Arcsinh, std::asinh(a), std::asinh(a))
LOOM_REF_FLOAT_FUNC(Arccosh, std::acosh(a), std::acosh(a))
LOOM_REF_FLOAT_FUNC(Arctanh, std::atanh(a), std::atanh(a))
LOOM_REF_FLOAT_FUNC(Rint, std::nearbyint(a), T(std::nearbyint(x), std::nearbyint(y)))  // ties to even

// floor / ceil / trunc: integers pass through; complex is rejected by the type rule.
#define LOOM_REF_ROUNDING(Name, fn)                            \
  struct Name {                                                \
    template <class T> auto operator()(T a) const {            \
      LOOM_REF_HALF(a);                                        \
      else if constexpr (impl::is_float_v<T>) return T(fn(a)); \
      else if constexpr (impl::is_complex_v<T>) return T{};    \
      else return a;                                           \
    }                                                          \
  };
LOOM_REF_ROUNDING(Floor, std::floor)
LOOM_REF_ROUNDING(Ceil, std::ceil)
LOOM_REF_ROUNDING(Trunc, std::trunc)
#undef LOOM_REF_ROUNDING

struct IsNan {
  template <class T> bool operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return std::isnan(a.real()) || std::isnan(a.imag());
    else if constexpr (impl::is_float_v<T> || impl::is_half_v<T>) return std::isnan(static_cast<float>(a));
    else return false;
  }
};
struct IsInf {
  template <class T> bool operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return std::isinf(a.real()) || std::isinf(a.imag());
    else if constexpr (impl::is_float_v<T> || impl::is_half_v<T>) return std::isinf(static_cast<double>(a));
    else return false;
  }
};
struct IsFinite {
  template <class T> bool operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return std::isfinite(a.real()) && std::isfinite(a.imag());
    else if constexpr (impl::is_float_v<T> || impl::is_half_v<T>) return std::isfinite(static_cast<double>(a));
    else return true;
  }
};
struct LogicalNot {
  template <class T> bool operator()(T a) const { return !impl::truthy(a); }
};
struct Invert {
  template <class T> auto operator()(T a) const {
    if constexpr (impl::is_bool_v<T>) return !a;
    else if constexpr (impl::is_int_v<T>) return static_cast<T>(~a);
    else return T{};
  }
};
struct Real {
  template <class T> auto operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return a.real();
    else return a;
  }
};
struct Imag {
  template <class T> auto operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return a.imag();
    else return T{};
  }
};
struct Conj {
  template <class T> auto operator()(T a) const {
    if constexpr (impl::is_complex_v<T>) return std::conj(a);
    else return a;
  }
};

// --- binary ----------------------------------------------------------------------------------

struct Add {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_bool_v<T>) return a || b;
    else if constexpr (impl::is_int_v<T>) return impl::wrap_add(a, b);
    else return T(a + b);
  }
};
struct Sub {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_bool_v<T>) return a != b;  // NumPy rejects it
    else if constexpr (impl::is_int_v<T>) return impl::wrap_sub(a, b);
    else return T(a - b);
  }
};
struct Mul {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_bool_v<T>) return a && b;
    else if constexpr (impl::is_int_v<T>) return impl::wrap_mul(a, b);
    else if constexpr (impl::is_complex_v<T>) return impl::c_mul_fma(a, b);
    else return T(a * b);
  }
};
struct TrueDiv {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_complex_v<T>) return impl::c_div(a, b);
    else if constexpr (impl::is_float_v<T>) return T(a / b);
    else return T{};  // integers are divided as float64
  }
};
struct FloorDiv {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_float_v<T>) return impl::float_floor_div(a, b);
    else if constexpr (impl::is_int_v<T>) return impl::int_floor_div(a, b);
    else return T{};
  }
};
struct Remainder {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_float_v<T>) return impl::float_remainder(a, b);
    else if constexpr (impl::is_int_v<T>) return impl::int_remainder(a, b);
    else return T{};
  }
};
struct Fmod {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_float_v<T>) return T(std::fmod(a, b));
    else if constexpr (impl::is_int_v<T>) {
      if (b == T(0) || (std::is_signed_v<T> && b == T(-1))) return T(0);
      return T(a % b);
    } else return T{};
  }
};
struct Nextafter {
  template <class T> auto operator()(T a, T b) const {
    // (float16 and bfloat16 are composed in lib/api: this op never sees them)
    if constexpr (impl::is_float_v<T>) return T(std::nextafter(a, b));
    else return T{};
  }
};
// gcd and lcm of magnitudes in the unsigned type of T's width (|INT_MIN| fits), wrapping.
template <class T> auto magnitude(T a) {
  using U = std::make_unsigned_t<T>;
  return a < T(0) ? U(U(0) - U(a)) : U(a);
}
struct Gcd {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (impl::is_int_v<T>) {
      auto x = magnitude(a), y = magnitude(b);
      while (y != 0) {
        const auto r = decltype(x)(x % y);
        x = y;
        y = r;
      }
      return T(x);
    } else return T{};
  }
};
struct Lcm {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (impl::is_int_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U g = U(Gcd{}(a, b));
      if (g == 0) return T(0);
      return T(U(U(magnitude(a) / g) * magnitude(b)));
    } else return T{};
  }
};
struct Power {
  template <class T> auto operator()(T a, T b) const {
    LOOM_REF_HALF(a, b);
    else if constexpr (impl::is_complex_v<T>) return impl::c_power(a, b);
    else if constexpr (impl::is_float_v<T>) return T(std::pow(a, b));
    else if constexpr (impl::is_int_v<T>) return impl::int_power(a, b);
    else return T(a || !b);  // bool is computed as int8
  }
};

// maximum / minimum / fmax / fmin: for integers and bool fmax is maximum.
#define LOOM_REF_EXTREMUM(Name, real_fn, complex_pick, bool_op, int_cmp)       \
  struct Name {                                                                \
    template <class T> auto operator()(T a, T b) const {                       \
      LOOM_REF_HALF(a, b);                                                     \
      else if constexpr (impl::is_complex_v<T>) return (complex_pick) ? a : b; \
      else if constexpr (impl::is_float_v<T>) return impl::real_fn(a, b);      \
      else if constexpr (impl::is_bool_v<T>) return a bool_op b;               \
      else return (a int_cmp b) ? a : b;                                       \
    }                                                                          \
  };
LOOM_REF_EXTREMUM(Maximum, max_propagate, impl::has_nan(a) || impl::c_greater(a, b, true), ||, >)
LOOM_REF_EXTREMUM(Minimum, min_propagate, impl::has_nan(a) || impl::c_less(a, b, true), &&, <)
LOOM_REF_EXTREMUM(Fmax, max_ignore, impl::has_nan(b) || impl::c_greater(a, b, true), ||, >)
LOOM_REF_EXTREMUM(Fmin, min_ignore, impl::has_nan(b) || impl::c_less(a, b, true), &&, <)
#undef LOOM_REF_EXTREMUM

// arctan2 / hypot / copysign: real floats only.
#define LOOM_REF_REAL_FUNC2(Name, fn)                             \
  struct Name {                                                   \
    template <class T> auto operator()(T a, T b) const {          \
      LOOM_REF_HALF(a, b);                                        \
      else if constexpr (impl::is_float_v<T>) return T(fn(a, b)); \
      else return T{};                                            \
    }                                                             \
  };
LOOM_REF_REAL_FUNC2(Arctan2, std::atan2)
LOOM_REF_REAL_FUNC2(Hypot, std::hypot)
LOOM_REF_REAL_FUNC2(Copysign, std::copysign)
#undef LOOM_REF_REAL_FUNC2

// Comparisons. Complex numbers compare lexicographically (NumPy), false when a NaN is involved.
#define LOOM_REF_COMPARE(Name, op, complex_expr)                          \
  struct Name {                                                           \
    template <class T> bool operator()(T a, T b) const {                  \
      if constexpr (impl::is_complex_v<T>) return complex_expr;           \
      else if constexpr (impl::is_half_v<T>) return float(a) op float(b); \
      else return a op b;                                                 \
    }                                                                     \
  };
LOOM_REF_COMPARE(Equal, ==, a.real() == b.real() && a.imag() == b.imag())
LOOM_REF_COMPARE(NotEqual, !=, a.real() != b.real() || a.imag() != b.imag())
LOOM_REF_COMPARE(Less, <, impl::c_less(a, b, false))
LOOM_REF_COMPARE(LessEqual, <=, impl::c_less(a, b, true))
LOOM_REF_COMPARE(Greater, >, impl::c_greater(a, b, false))
LOOM_REF_COMPARE(GreaterEqual, >=, impl::c_greater(a, b, true))
#undef LOOM_REF_COMPARE

struct LogicalAnd {
  template <class T> bool operator()(T a, T b) const { return impl::truthy(a) && impl::truthy(b); }
};
struct LogicalOr {
  template <class T> bool operator()(T a, T b) const { return impl::truthy(a) || impl::truthy(b); }
};
struct LogicalXor {
  template <class T> bool operator()(T a, T b) const { return impl::truthy(a) != impl::truthy(b); }
};

#define LOOM_REF_BITWISE(Name, op)                                                          \
  struct Name {                                                                             \
    template <class T> auto operator()(T a, T b) const {                                    \
      if constexpr (impl::is_bool_v<T> || impl::is_int_v<T>) return static_cast<T>(a op b); \
      else return T{};                                                                      \
    }                                                                                       \
  };
LOOM_REF_BITWISE(BitAnd, &)
LOOM_REF_BITWISE(BitOr, |)
LOOM_REF_BITWISE(BitXor, ^)
#undef LOOM_REF_BITWISE

// Shifting by a count outside [0, bits) gives what shifting one bit at a time would: 0, or -1
// for a negative value shifted right.
struct LeftShift {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (impl::is_int_v<T>) {
      if (!impl::shift_in_range(b)) return T(0);
      using U = impl::uarith_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<int>(b)));
    } else {
      return T{};
    }
  }
};
struct RightShift {
  template <class T> auto operator()(T a, T b) const {
    if constexpr (impl::is_int_v<T>) {
      if (!impl::shift_in_range(b)) return (std::is_signed_v<T> && a < 0) ? T(-1) : T(0);
      return static_cast<T>(a >> static_cast<int>(b));  // arithmetic for signed (C++20)
    } else {
      return T{};
    }
  }
};

// --- ternary ---------------------------------------------------------------------------------

struct Where {
  template <class T> T operator()(T cond, T a, T b) const {
    return impl::truthy(static_cast<std::conditional_t<impl::is_half_v<T>, float, T>>(cond)) ? a : b;
  }
};

// Op::CheckIndex on the host: the error is raised at once (the evaluation is synchronous). Only
// int64 reaches it (lib/index/indexing.cpp); other types pass through (the dtype switch needs them).
struct CheckIndex {
  template <class T> T operator()(T i, T n, T axis) const {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (i < -n || i >= n) {
        throw IndexError(index_error_message(static_cast<std::int64_t>(i), static_cast<std::int64_t>(n),
                                             static_cast<std::int64_t>(axis)));
      }
      return i < 0 ? T(i + n) : i;
    } else {
      (void)n;
      (void)axis;
      return i;
    }
  }
};

#undef LOOM_REF_HALF
#undef LOOM_REF_FLOAT_FUNC

}  // namespace loom::ref
