#pragma once
// Host types for the 16-bit floats: loom::half (IEEE binary16) and loom::bfloat16_t.
// Stored as bits; arithmetic goes through float, and every conversion from float rounds
// to nearest even, as the GPU's __float2half_rn / __float2bfloat16_rn do.

#include <bit>
#include <cstdint>
#include <cstring>

namespace loom {

namespace detail {

inline std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t mant = x & 0x7fffffu;
  if (exp == 0xffu) {  // inf or nan (keep nan quiet)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
  }
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (e <= 0) {                                                     // subnormal or zero
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    const int shift = 14 - e;  // 14..24
    std::uint32_t half_mant = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_mant & 1u))) ++half_mant;
    return static_cast<std::uint16_t>(sign | half_mant);
  }
  std::uint32_t h = sign | (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: correct
  return static_cast<std::uint16_t>(h);
}

inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalize
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      x = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(x);
}

inline std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) {
    return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet nan
  }
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

inline float bf16_bits_to_float(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

}  // namespace detail

struct half {
  std::uint16_t bits = 0;
  half() = default;
  half(float f) : bits(detail::float_to_half_bits(f)) {}  // NOLINT: implicit, as a float would be
  static half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  // Rounds to nearest even straight from the double, as CUDA's __double2half: going through
  // float first would round twice.
  static half from_double(double d) {
    const std::uint64_t x = std::bit_cast<std::uint64_t>(d);
    const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
    const int exp = static_cast<int>((x >> 52) & 0x7ffu);
    std::uint64_t mant = x & 0xfffffffffffffull;
    if (exp == 0x7ff) {  // inf or nan (keep nan quiet)
      return from_bits(static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 42) : 0u)));
    }
    const int e = exp - 1023 + 15;  // the biased binary16 exponent
    if (e >= 31) return from_bits(static_cast<std::uint16_t>(sign | 0x7c00u));
    std::uint64_t h = sign;
    int shift = 42;  // 52 - 10 mantissa bits
    if (e > 0) {
      h |= static_cast<std::uint64_t>(e) << 10;
    } else {  // subnormal result: the implicit bit joins the mantissa
      shift = 43 - e;
      if (exp == 0 || shift > 63) return from_bits(sign);
      mant |= 1ull << 52;
    }
    h |= mant >> shift;
    const std::uint64_t rem = mant & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;  // a carry into the exponent is right
    return from_bits(static_cast<std::uint16_t>(h));
  }
  operator float() const { return detail::half_bits_to_float(bits); }  // NOLINT
};

struct bfloat16_t {
  std::uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float f) : bits(detail::float_to_bf16_bits(f)) {}  // NOLINT
  static bfloat16_t from_bits(std::uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
  // Rounds to nearest even straight from the double, as CUDA's __double2bfloat16.
  static bfloat16_t from_double(double d) {
    const std::uint64_t x = std::bit_cast<std::uint64_t>(d);
    const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
    const int exp = static_cast<int>((x >> 52) & 0x7ffu);
    std::uint64_t mant = x & 0xfffffffffffffull;
    if (exp == 0x7ff) {  // inf or nan (keep nan quiet)
      return from_bits(static_cast<std::uint16_t>(sign | 0x7f80u | (mant ? 0x40u | (mant >> 45) : 0u)));
    }
    const int e = exp - 1023 + 127;  // the biased bfloat16 exponent
    if (e >= 255) return from_bits(static_cast<std::uint16_t>(sign | 0x7f80u));
    std::uint64_t b = sign;
    int shift = 45;  // 52 - 7 mantissa bits
    if (e > 0) {
      b |= static_cast<std::uint64_t>(e) << 7;
    } else {  // subnormal result
      shift = 46 - e;
      if (exp == 0 || shift > 63) return from_bits(sign);
      mant |= 1ull << 52;
    }
    b |= mant >> shift;
    const std::uint64_t rem = mant & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
    if (rem > halfway || (rem == halfway && (b & 1u))) ++b;
    return from_bits(static_cast<std::uint16_t>(b));
  }
  operator float() const { return detail::bf16_bits_to_float(bits); }  // NOLINT
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);

}  // namespace loom
