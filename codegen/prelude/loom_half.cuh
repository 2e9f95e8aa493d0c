// loom_half.cuh: float16 and bfloat16 for generated kernels (included when either appears).
// Their values live in float registers, always exactly representable in the 16-bit type: the
// generated code rounds each result with cast<f16>(x) / cast<bf16>(x), which return a float.
// Rounding is to nearest even, straight from the source value (a double is not rounded to float
// first), as ref::cast_value does on the host. Storage types convert too: cast<__half>(x) and
// cast<__nv_bfloat16>(x) for stores, cast<float>(h) for loads.
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "loom_core.cuh"

namespace loom {

struct f16 {};
struct bf16 {};

template <> struct Register<__half> {
  static LOOM_FN float get(__half x) { return __half2float(x); }
};
template <> struct Register<__nv_bfloat16> {
  static LOOM_FN float get(__nv_bfloat16 x) { return __bfloat162float(x); }
};

// The 16-bit value nearest to x (ties to even). Complex sources give their real part; bool and
// integers go through double, which holds them exactly up to 2^53.
template <class From> LOOM_FN __half to_half(From x) {
  if constexpr (IsComplex<From>::value) return to_half(x.re);
  else if constexpr (sizeof(From) == sizeof(float) && IsFloat<From>::value) return __float2half_rn(x);
  else return __double2half(static_cast<double>(x));
}
template <class From> LOOM_FN __nv_bfloat16 to_bfloat16(From x) {
  if constexpr (IsComplex<From>::value) return to_bfloat16(x.re);
  else if constexpr (sizeof(From) == sizeof(float) && IsFloat<From>::value) return __float2bfloat16_rn(x);
  else return __double2bfloat16(static_cast<double>(x));
}

// A float rounded to float16 / bfloat16 precision, kept in a float. Every op on a 16-bit value
// ends with this, so it must be cheap: where the result is a normal 16-bit number, round to
// nearest even with integer ops on the bits (conversions run at a quarter of the integer rate on
// sm_90); zeros, subnormals, overflow and NaN go through the conversion. Same results.
LOOM_FN float round_to_f16(float x) {
  const unsigned u = __float_as_uint(x);
  const unsigned a = u & 0x7fffffffu;
  if (a >= 0x38800000u && a < 0x477ff000u) {  // 2^-14 <= |x| < 65520
    return __uint_as_float((u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u);
  }
  return __half2float(__float2half_rn(x));
}
LOOM_FN float round_to_bf16(float x) {
  const unsigned u = __float_as_uint(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return __bfloat162float(__float2bfloat16_rn(x));
  return __uint_as_float((u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u);
}

template <> struct Convert<f16> {
  template <class From> static LOOM_FN float from(From x) {
    if constexpr (IsFloat<From>::value && sizeof(From) == sizeof(float)) {
      return round_to_f16(x);
    } else {
      return __half2float(to_half(x));
    }
  }
};
template <> struct Convert<bf16> {
  template <class From> static LOOM_FN float from(From x) {
    if constexpr (IsFloat<From>::value && sizeof(From) == sizeof(float)) {
      return round_to_bf16(x);
    } else {
      return __bfloat162float(to_bfloat16(x));
    }
  }
};
template <> struct Convert<__half> {
  template <class From> static LOOM_FN __half from(From x) { return to_half(x); }
};
template <> struct Convert<__nv_bfloat16> {
  template <class From> static LOOM_FN __nv_bfloat16 from(From x) { return to_bfloat16(x); }
};

}  // namespace loom
