#pragma once
// NumPy's unsafe casts of floating-point values into integers where C leaves the cast undefined
// (NaN, infinities, values outside the target's range), as NumPy's x86-64 builds compute them:
// a C cast that gcc compiles to cvttsd2si, whose answer out of range is the "integer
// indefinite" (the most negative value of its 32- or 64-bit destination), of which narrower
// targets keep the low bits. Measured with NumPy 2.5 on x86-64: NaN into int32 is -2147483648,
// into int64 -9223372036854775808; 300.0 into int8 is 44.
//
// loom's astype saturates instead (as the GPU's cvt.rzi does; NaN gives 0). These are for the
// few places whose NumPy answer is this cast itself: ufunc.at casting each result back into an
// integer array, and pad's statistics of no values. Shared by the nvcc kernels and the host.

#include <cstdint>

#include <loom/dtype.hpp>

#include "runtime/libs/host_device.hpp"

namespace loom::numpycast {

// cvttsd2si into 64 bits: truncation toward zero, INT64_MIN for NaN and out of range.
LOOM_HD std::int64_t trunc64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? static_cast<std::int64_t>(v) : INT64_MIN;
}

// cvttsd2si into 32 bits: INT32_MIN for NaN and out of range.
LOOM_HD std::int32_t trunc32(double v) {
  return (v > -2147483649.0 && v < 2147483648.0) ? static_cast<std::int32_t>(v) : INT32_MIN;
}

// (To)v for an integer dtype `to`, as gcc compiles it on x86-64: int64 and uint32 through the
// 64-bit conversion, int32 and the 8- and 16-bit types through the 32-bit one, uint64 with
// gcc's two-range sequence (v - 2^63 converted and the top bit flipped for v >= 2^63). The
// result is the target's value (uint64: its bits) as int64. Floats of other widths are read
// exactly as double first; to a non-integer dtype: 0 (not asked for).
LOOM_HD std::int64_t float_to_int(double v, DType to) {
  switch (to) {
    case DType::Int64: return trunc64(v);
    case DType::Int32: return trunc32(v);
    case DType::Int16: return static_cast<std::int16_t>(trunc32(v));
    case DType::Int8: return static_cast<std::int8_t>(trunc32(v));
    case DType::UInt64: {
      const bool high = v >= 9223372036854775808.0;  // false for NaN: the low range's conversion
      const auto bits = static_cast<std::uint64_t>(trunc64(high ? v - 9223372036854775808.0 : v));
      return static_cast<std::int64_t>(high ? bits ^ (std::uint64_t{1} << 63) : bits);
    }
    case DType::UInt32: return static_cast<std::uint32_t>(trunc64(v));
    case DType::UInt16: return static_cast<std::uint16_t>(trunc32(v));
    case DType::UInt8: return static_cast<std::uint8_t>(trunc32(v));
    case DType::Bool:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128: return 0;
  }
  return 0;
}

}  // namespace loom::numpycast
