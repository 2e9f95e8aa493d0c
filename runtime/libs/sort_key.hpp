#pragma once
// Radix keys in NumPy's sort order: an element's bits mapped to an unsigned integer of the same
// width whose unsigned order is np.sort's (signed ints with the sign bit flipped; floats
// sign-magnitude twiddled, every NaN one largest key so NaNs come last and compare equal).
// Shared by the CUB kernels (nvcc) and the host implementations, so both order alike.

#include <cstdint>

#include <loom/dtype.hpp>

#include "runtime/libs/host_device.hpp"

namespace loom::sortkey {

enum class KeyClass : std::uint8_t { Plain, Signed, Float };

struct Codec {
  KeyClass cls = KeyClass::Plain;
  std::uint64_t inf_bits = 0;   // Float: the bits of +inf; larger magnitudes are NaN
  bool canonical_zero = false;  // -0.0 takes +0.0's key (stable ties: argsort, unique, search)
};

// Bool and unsigned as they are; complex has no radix key (the caller refuses it).
inline Codec codec_of(DType t, bool canonical_zero) {
  switch (t) {
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64: return {KeyClass::Signed, 0, false};
    case DType::Float16: return {KeyClass::Float, 0x7C00u, canonical_zero};
    case DType::BFloat16: return {KeyClass::Float, 0x7F80u, canonical_zero};
    case DType::Float32: return {KeyClass::Float, 0x7F800000u, canonical_zero};
    case DType::Float64: return {KeyClass::Float, 0x7FF0000000000000ull, canonical_zero};
    case DType::Bool:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Complex64:
    case DType::Complex128: break;
  }
  return {KeyClass::Plain, 0, false};
}

template <class U> LOOM_HD U encode(U bits, Codec c) {
  constexpr U high = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  switch (c.cls) {
    case KeyClass::Plain: return bits;
    case KeyClass::Signed: return static_cast<U>(bits ^ high);
    case KeyClass::Float: {
      const U mag = static_cast<U>(bits & static_cast<U>(~high));
      if (mag > static_cast<U>(c.inf_bits)) return static_cast<U>(~U(0));  // NaN: last
      if (c.canonical_zero && mag == 0) return high;                        // -0.0 == +0.0
      return (bits & high) ? static_cast<U>(~bits) : static_cast<U>(bits | high);
    }
  }
  return bits;
}

// The inverse of encode (a NaN comes back as the all-ones-magnitude NaN).
template <class U> LOOM_HD U decode(U key, Codec c) {
  constexpr U high = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  switch (c.cls) {
    case KeyClass::Plain: return key;
    case KeyClass::Signed: return static_cast<U>(key ^ high);
    case KeyClass::Float: return (key & high) ? static_cast<U>(key ^ high) : static_cast<U>(~key);
  }
  return key;
}

}  // namespace loom::sortkey
