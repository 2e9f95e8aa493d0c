#pragma once
// The 15 element types of loom, their properties, NumPy 2 promotion, and C++ type mapping.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>

#include <loom/half.hpp>

namespace loom {

enum class DType : std::uint8_t {
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) e,
#include <loom/dtypes.def>
#undef LOOM_DTYPE
};
inline constexpr int kNumDTypes = 0
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) +1
#include <loom/dtypes.def>
#undef LOOM_DTYPE
    ;

// Shorthands, as NumPy's names: loom::float32, loom::int64, ...
inline constexpr DType bool_ = DType::Bool;
inline constexpr DType int8 = DType::Int8;
inline constexpr DType int16 = DType::Int16;
inline constexpr DType int32 = DType::Int32;
inline constexpr DType int64 = DType::Int64;
inline constexpr DType uint8 = DType::UInt8;
inline constexpr DType uint16 = DType::UInt16;
inline constexpr DType uint32 = DType::UInt32;
inline constexpr DType uint64 = DType::UInt64;
inline constexpr DType float16 = DType::Float16;
inline constexpr DType bfloat16 = DType::BFloat16;
inline constexpr DType float32 = DType::Float32;
inline constexpr DType float64 = DType::Float64;
inline constexpr DType complex64 = DType::Complex64;
inline constexpr DType complex128 = DType::Complex128;

enum class DKind : std::uint8_t { Bool, Signed, Unsigned, Float, Complex };

// A row of dtypes.def, as data.
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view short_name;
  DKind kind;
  std::size_t itemsize;
};
inline constexpr DTypeInfo kDTypeInfo[] = {
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) {DType::e, name, short_name, DKind::kind, size},
#include <loom/dtypes.def>
#undef LOOM_DTYPE
};
constexpr bool dtype_rows_in_order() {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (static_cast<int>(kDTypeInfo[i].dtype) != i) return false;
  }
  return true;
}
static_assert(sizeof kDTypeInfo / sizeof kDTypeInfo[0] == kNumDTypes && dtype_rows_in_order(),
              "kDTypeInfo has one row per DType, in the enum's order");

// The row of t (a value outside the enum, DType(99), gets a row named "?": check_dtype reports it).
inline constexpr DTypeInfo kUnknownDType{DType::Bool, "?", "?", DKind::Bool, 0};
constexpr const DTypeInfo& dtype_info(DType t) {
  return static_cast<int>(t) < kNumDTypes ? kDTypeInfo[static_cast<int>(t)] : kUnknownDType;
}
constexpr DKind kind(DType t) { return dtype_info(t).kind; }
constexpr std::size_t itemsize(DType t) { return dtype_info(t).itemsize; }

constexpr bool is_bool(DType t) { return kind(t) == DKind::Bool; }
constexpr bool is_signed_int(DType t) { return kind(t) == DKind::Signed; }
constexpr bool is_unsigned_int(DType t) { return kind(t) == DKind::Unsigned; }
constexpr bool is_integer(DType t) { return is_signed_int(t) || is_unsigned_int(t); }
constexpr bool is_floating(DType t) { return kind(t) == DKind::Float; }
constexpr bool is_complex(DType t) { return kind(t) == DKind::Complex; }
constexpr bool is_inexact(DType t) { return is_floating(t) || is_complex(t); }
// float16 and bfloat16 are stored in 2 bytes and computed in float32.
constexpr bool is_half(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

// "float32", "int64", "bool", ... as NumPy spells them (inline: every layer names dtypes, the
// runtime's library wrappers too).
constexpr std::string_view name(DType t) { return dtype_info(t).name; }
std::ostream& operator<<(std::ostream& os, DType t);

// NumPy 2 (NEP 50) promotion of two array dtypes: np.promote_types. bfloat16 ranks with
// float16 (bfloat16 with float16 -> float32; with int8/uint8/bool -> bfloat16).
DType promote_types(DType a, DType b);
// np.can_cast(from, to, casting="safe").
bool can_cast_safe(DType from, DType to);

// The C++ type that holds one element of each dtype on the host.
template <class T> struct dtype_traits;
template <> struct dtype_traits<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_traits<std::int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_traits<std::int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_traits<std::int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_traits<std::int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_traits<long long> { static constexpr DType value = DType::Int64; };
template <> struct dtype_traits<std::uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_traits<std::uint16_t> { static constexpr DType value = DType::UInt16; };
template <> struct dtype_traits<std::uint32_t> { static constexpr DType value = DType::UInt32; };
template <> struct dtype_traits<std::uint64_t> { static constexpr DType value = DType::UInt64; };
template <> struct dtype_traits<unsigned long long> { static constexpr DType value = DType::UInt64; };
template <> struct dtype_traits<half> { static constexpr DType value = DType::Float16; };
template <> struct dtype_traits<bfloat16_t> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_traits<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_traits<double> { static constexpr DType value = DType::Float64; };
template <> struct dtype_traits<std::complex<float>> { static constexpr DType value = DType::Complex64; };
template <> struct dtype_traits<std::complex<double>> { static constexpr DType value = DType::Complex128; };

template <class T> inline constexpr DType dtype_of = dtype_traits<T>::value;

// Calls f.template operator()<T>() with T the host type of dtype t.
template <class F> decltype(auto) visit_dtype(DType t, F&& f) {
  switch (t) {
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) \
  case DType::e: return f.template operator()<host>();
#include <loom/dtypes.def>
#undef LOOM_DTYPE
  }
  return f.template operator()<bool>();
}

}  // namespace loom
