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

template <> struct Convert<f16> {
  template <class From> static LOOM_FN float from(From x) { return __half2float(to_half(x)); }
};
template <> struct Convert<bf16> {
  template <class From> static LOOM_FN float from(From x) { return __bfloat162float(to_bfloat16(x)); }
};
template <> struct Convert<__half> {
  template <class From> static LOOM_FN __half from(From x) { return to_half(x); }
};
template <> struct Convert<__nv_bfloat16> {
  template <class From> static LOOM_FN __nv_bfloat16 from(From x) { return to_bfloat16(x); }
};

}  // namespace loom
