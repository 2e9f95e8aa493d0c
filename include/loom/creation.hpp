#pragma once
// Creating arrays. Generators (full, zeros, ones, arange, linspace, eye) are lazy nodes that
// fuse into their consumers and allocate nothing; asarray copies host data to the device.

#include <optional>
#include <span>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// Uninitialized memory (a device buffer at once; its contents are undefined).
Array empty(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
Array empty_like(const Array& a, LOOM_HERE);
Array empty_like(const Array& a, DType dtype, LOOM_HERE);

Array zeros(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
Array ones(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
// dtype defaults to the value's: float -> float32, double -> float64, integers -> int64,
// bool -> bool, std::complex<T> -> complex.
Array full(const Shape& shape, const Scalar& value, LOOM_HERE);
Array full(const Shape& shape, const Scalar& value, DType dtype, LOOM_HERE);
template <ScalarType T> Array full(const Shape& shape, T value, LOOM_HERE) {
  Scalar s = Scalar::of(value, false);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) s = s.cast(DType::Int64);
  return full(shape, s, caller);
}
template <ScalarType T> Array full(const Shape& shape, T value, DType dtype, LOOM_HERE) {
  return full(shape, Scalar::of(value, true), dtype, caller);
}
Array zeros_like(const Array& a, LOOM_HERE);
Array zeros_like(const Array& a, DType dtype, LOOM_HERE);
Array ones_like(const Array& a, LOOM_HERE);
Array ones_like(const Array& a, DType dtype, LOOM_HERE);
template <ScalarType T> Array full_like(const Array& a, T value, LOOM_HERE) {
  return full(a.shape(), Scalar::of(value, true), a.dtype(), caller);
}

// [0, stop), [start, stop) with step. Integer arguments give int64, floating ones float64. The
// length is NumPy's, ceil((stop - start) / step) in float64: a NaN length or one past int64 is
// a ValueError, as in NumPy. Complex dtypes hold the real values; bool allows at most 2 values.
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, DType dtype, LOOM_HERE);
template <class A, class B, class C = int>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>
Array arange(A start, B stop, C step = 1, LOOM_HERE) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<C>) {
    return arange(Scalar::of(static_cast<std::int64_t>(start), false),
                  Scalar::of(static_cast<std::int64_t>(stop), false),
                  Scalar::of(static_cast<std::int64_t>(step), false), DType::Int64, caller);
  } else {
    return arange(Scalar::of(static_cast<double>(start), false),
                  Scalar::of(static_cast<double>(stop), false),
                  Scalar::of(static_cast<double>(step), false), DType::Float64, caller);
  }
}
template <class A>
  requires std::is_arithmetic_v<A>
Array arange(A stop, LOOM_HERE) {
  return arange(A(0), stop, A(1), caller);
}
Array linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
               DType dtype = DType::Float64, LOOM_HERE);
// n x m (m: n when none), ones on diagonal k.
Array eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          DType dtype = DType::Float64, LOOM_HERE);
Array identity(std::int64_t n, DType dtype = DType::Float64, LOOM_HERE);

// Copies host data into a new array (1-D unless a shape is given).
template <class T> Array asarray(std::span<const T> data, const Shape& shape, LOOM_HERE);
template <class T> Array asarray(std::span<const T> data, LOOM_HERE) {
  return asarray<T>(data, Shape{static_cast<std::int64_t>(data.size())}, caller);
}
template <class T> Array asarray(const std::vector<T>& data, LOOM_HERE) {
  return asarray<T>(std::span<const T>(data.data(), data.size()), caller);
}
template <class T> Array asarray(const std::vector<T>& data, const Shape& shape, LOOM_HERE) {
  return asarray<T>(std::span<const T>(data.data(), data.size()), shape, caller);
}
// nbytes bytes from data, which must fill `shape` exactly (ValueError for a null data with nbytes > 0).
Array asarray_bytes(const void* data, std::size_t nbytes, DType dtype, const Shape& shape, LOOM_HERE);
template <class T> Array asarray(std::span<const T> data, const Shape& shape, std::source_location caller) {
  return asarray_bytes(data.data(), data.size() * sizeof(T), dtype_of<T>, shape, caller);
}
// std::vector<bool> is packed; give bools as a span of bool or uint8 with astype.
Array asarray(const std::vector<bool>& data, LOOM_HERE);

}  // namespace loom
