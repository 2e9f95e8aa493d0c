#pragma once
// loom::Scalar: a NumPy scalar value with its dtype, as operations take them (x * 2.5) and as the
// graph stores them. Below Array: the graph sees scalars, not arrays.

#include <complex>
#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

#include <loom/dtype.hpp>

namespace loom {

// C++ numbers that may stand for an operand; they are "weak" scalars (NEP 50): x_f32 * 2.5 stays
// float32, x_i32 * 2.5 becomes float64.
template <class T>
concept ScalarType = std::is_arithmetic_v<T> || std::same_as<T, std::complex<float>> ||
                     std::same_as<T, std::complex<double>> || std::same_as<T, half> ||
                     std::same_as<T, bfloat16_t>;

// A Python-like scalar value with a dtype; `weak` when it came from a C++ number.
struct Scalar {
  DType dtype = DType::Float64;
  bool weak = false;
  // The value in the widest type of its kind: bool and signed ints in i, unsigned in u, floats in
  // f, complex in c. Exactly one is meaningful, chosen by kind(dtype).
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0.0;
  std::complex<double> c{};

  template <ScalarType T> static Scalar of(T v, bool weak);
  // The value converted to another dtype with NumPy's cast rules (C++ semantics for floats to
  // ints, saturating like the GPU; wrapping between integers).
  Scalar cast(DType to) const;
  std::string to_string() const;
  friend bool operator==(const Scalar& a, const Scalar& b);
};

template <ScalarType T> Scalar Scalar::of(T v, bool weak) {
  Scalar s;
  s.weak = weak;
  if constexpr (std::same_as<T, bool>) {
    s.dtype = DType::Bool;
    s.i = v ? 1 : 0;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    s.dtype = weak ? DType::Int64 : dtype_of<T>;
    s.i = static_cast<std::int64_t>(v);
  } else if constexpr (std::is_integral_v<T>) {
    s.dtype = weak ? DType::Int64 : dtype_of<T>;
    s.u = static_cast<std::uint64_t>(v);
    s.i = static_cast<std::int64_t>(v);
    if (weak && static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX)) {
      s.dtype = DType::UInt64;
    }
  } else if constexpr (std::same_as<T, half> || std::same_as<T, bfloat16_t>) {
    s.dtype = weak ? DType::Float64 : dtype_of<T>;
    s.f = static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    s.dtype = weak ? DType::Float64 : (sizeof(T) == 4 ? DType::Float32 : DType::Float64);
    s.f = static_cast<double>(v);
  } else {
    s.dtype = weak ? DType::Complex128 : dtype_of<T>;
    s.c = std::complex<double>(v.real(), v.imag());
  }
  return s;
}

}  // namespace loom
