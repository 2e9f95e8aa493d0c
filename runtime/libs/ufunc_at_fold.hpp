#pragma once
// One application of NumPy's ufunc.at where the loop's result does not survive the cast back
// into the array (float or complex values into an integer or bool array, integers into bool):
// NumPy applies the ufunc to one value at a time, in index order, in the loop's dtype R, and casts
// each result back into the array's dtype unsafely before the next value reads it. So duplicates
// are a sequential fold per position, not a reduction: np.add.at(int32 zeros, [0, 0], 1.5) is
// int(int(0 + 1.5) + 1.5) = 2, not 3. Shared by the nvcc kernel (runtime/libs/cub/cub_scatter_fold.cu:
// a thread per position folds its values in index order) and the host (lib/index/scatter_fold.cpp).
//
// The array's values are held as int64 between steps: the target's value (uint64: its bits).

#include <math.h>

#include <cstdint>
#include <type_traits>

#include <loom/dtype.hpp>

#include "runtime/libs/host_device.hpp"
#include "runtime/libs/numpy_cast.hpp"

namespace loom::foldat {

enum class FoldOp : std::uint8_t { Add, Subtract, Multiply, Divide, Minimum, Maximum };

// float16 and bfloat16 loops compute in float and round each result to their precision (NumPy's
// half loops; loom's bfloat16 as its float16): R is float, and every value is rounded after each
// operation.
enum class Rounding : std::uint8_t { None, Half, BFloat16 };

// Complex values as both sides lay them out (std::complex's layout).
template <class R> struct Cx {
  R re, im;
};
template <class R> struct IsCx : std::false_type {};
template <class R> struct IsCx<Cx<R>> : std::true_type {};

// v rounded to nearest even in a binary format of `digits` significand bits (the leading one
// included), smallest normal exponent `emin` and largest finite value `max_finite`: overflow to
// infinity, subnormals kept. Exact arithmetic: v / ulp and the product are powers of two apart.
// (The C library's double functions, which nvcc declares for the device too.)
LOOM_HD double round_to_format(double v, int digits, int emin, double max_finite) {
  if (v - v != 0 || v == 0) return v;  // NaN, infinities and zeros as they are
  int e = 0;
  (void)::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
  const int lead = e - 1 > emin ? e - 1 : emin;
  const double ulp = ::ldexp(1.0, lead - (digits - 1));
  const double r = ::rint(v / ulp) * ulp;
  return ::fabs(r) > max_finite ? ::copysign(HUGE_VAL, v) : r;
}

LOOM_HD float fused(float a, float b, float c) { return ::fmaf(a, b, c); }
LOOM_HD double fused(double a, double b, double c) { return ::fma(a, b, c); }

LOOM_HD float round_as(float v, Rounding r) {
  switch (r) {
    case Rounding::None: return v;
    case Rounding::Half: return static_cast<float>(round_to_format(v, 11, -14, 65504.0));
    case Rounding::BFloat16: return static_cast<float>(round_to_format(v, 8, -126, 3.3895313892515355e38));
  }
  return v;
}

template <class T> LOOM_HD bool nan_of(T v) { return v != v; }  // NOLINT(misc-redundant-expression)

// NumPy's ufunc of two values of the loop's dtype R (integers wrap around; maximum and minimum
// let a NaN of either side through, the first winning ties; complex products with NumPy's FMA
// loop). Complex values only add, subtract and multiply here (the caller refuses the others).
template <class R> LOOM_HD R apply(FoldOp op, R a, R b, Rounding rounding) {
  if constexpr (IsCx<R>::value) {
    if (op == FoldOp::Add) return R{a.re + b.re, a.im + b.im};
    if (op == FoldOp::Subtract) return R{a.re - b.re, a.im - b.im};
    return R{fused(a.re, b.re, -(a.im * b.im)), fused(a.re, b.im, a.im * b.re)};
  } else if constexpr (std::is_integral_v<R>) {
    using U = std::make_unsigned_t<R>;  // wrapped in 64 bits (narrow unsigned types promote to int)
    const std::uint64_t x = static_cast<U>(a), y = static_cast<U>(b);
    switch (op) {
      case FoldOp::Add: return static_cast<R>(static_cast<U>(x + y));
      case FoldOp::Subtract: return static_cast<R>(static_cast<U>(x - y));
      case FoldOp::Multiply: return static_cast<R>(static_cast<U>(x * y));
      case FoldOp::Divide: return a;  // true_divide's loop is never an integer one
      case FoldOp::Minimum: return a <= b ? a : b;
      case FoldOp::Maximum: return a >= b ? a : b;
    }
    return a;
  } else {
    R r = a;
    switch (op) {
      case FoldOp::Add: r = a + b; break;
      case FoldOp::Subtract: r = a - b; break;
      case FoldOp::Multiply: r = a * b; break;
      case FoldOp::Divide: r = a / b; break;
      case FoldOp::Minimum: r = (a <= b || nan_of(a)) ? a : b; break;
      case FoldOp::Maximum: r = (a >= b || nan_of(a)) ? a : b; break;
    }
    if constexpr (std::is_same_v<R, float>) r = round_as(r, rounding);
    return r;
  }
}

// The array's value as the loop reads it: the target's value (held as int64) cast to R.
template <class R> LOOM_HD R read_held(std::int64_t h, DType target, Rounding rounding) {
  if constexpr (IsCx<R>::value) {
    using E = decltype(R{}.re);
    return R{read_held<E>(h, target, rounding), E(0)};
  } else if constexpr (std::is_integral_v<R>) {
    return target == DType::Bool ? static_cast<R>(h != 0) : static_cast<R>(h);
  } else {
    const R v = target == DType::UInt64 ? static_cast<R>(static_cast<std::uint64_t>(h)) : static_cast<R>(h);
    if constexpr (std::is_same_v<R, float>) return round_as(v, rounding);
    return v;
  }
}

// A result cast back into the target (bool or an integer dtype), held as int64: != 0 for bool
// (a NaN is true; complex: either part), NumPy's x86-64 cast for floats into integers (complex:
// the real part).
template <class R> LOOM_HD std::int64_t hold(R r, DType target) {
  if constexpr (IsCx<R>::value) {
    if (target == DType::Bool) return (r.re != 0 || r.im != 0) ? 1 : 0;
    return numpycast::float_to_int(static_cast<double>(r.re), target);
  } else if constexpr (std::is_integral_v<R>) {
    return r != 0 ? 1 : 0;  // an integer loop's result is cast back only into bool
  } else {
    if (target == DType::Bool) return r != 0 ? 1 : 0;
    return numpycast::float_to_int(static_cast<double>(r), target);
  }
}

// h after one value v: read, applied, cast back.
template <class R> LOOM_HD std::int64_t step(FoldOp op, std::int64_t h, R v, DType target, Rounding rounding) {
  return hold(apply(op, read_held<R>(h, target, rounding), v, rounding), target);
}

}  // namespace loom::foldat
