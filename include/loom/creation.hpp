#pragma once
// Creating arrays. Generators (full, zeros, ones, arange, linspace, eye) are lazy nodes that
// fuse into their consumers and allocate nothing; asarray copies host data to the device.

#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// Uninitialized memory (a device buffer at once; its contents are undefined).
[[nodiscard]] Array empty(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
[[nodiscard]] Array empty_like(const Array& a, LOOM_HERE);
[[nodiscard]] Array empty_like(const Array& a, DType dtype, LOOM_HERE);

[[nodiscard]] Array zeros(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
[[nodiscard]] Array ones(const Shape& shape, DType dtype = DType::Float64, LOOM_HERE);
// dtype defaults to the value's: float -> float32, double -> float64, integers -> int64,
// bool -> bool, std::complex<T> -> complex.
[[nodiscard]] Array full(const Shape& shape, const Scalar& value, LOOM_HERE);
[[nodiscard]] Array full(const Shape& shape, const Scalar& value, DType dtype, LOOM_HERE);
template <ScalarType T> [[nodiscard]] Array full(const Shape& shape, T value, LOOM_HERE) {
  Scalar s = Scalar::of(value, false);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) s = s.cast(DType::Int64);
  return full(shape, s, caller);
}
template <ScalarType T> [[nodiscard]] Array full(const Shape& shape, T value, DType dtype, LOOM_HERE) {
  return full(shape, Scalar::of(value, true), dtype, caller);
}
[[nodiscard]] Array zeros_like(const Array& a, LOOM_HERE);
[[nodiscard]] Array zeros_like(const Array& a, DType dtype, LOOM_HERE);
[[nodiscard]] Array ones_like(const Array& a, LOOM_HERE);
[[nodiscard]] Array ones_like(const Array& a, DType dtype, LOOM_HERE);
template <ScalarType T> [[nodiscard]] Array full_like(const Array& a, T value, LOOM_HERE) {
  return full(a.shape(), Scalar::of(value, true), a.dtype(), caller);
}

// [0, stop), [start, stop) with step. Integer arguments give int64, floating ones float64. The
// length is NumPy's, ceil((stop - start) / step) in float64: a NaN length or one past int64 is
// a ValueError, as in NumPy. Complex dtypes hold the real values; bool allows at most 2 values.
// With a dtype (NumPy's arange(..., dtype=)): start and start + step are stored in it (an
// integer argument that does not fit raises, as NumPy's Python integers do; floats truncate),
// and element i is start + i * (second - first) in the dtype (integers wrap: arange(300, int8)
// counts to 127, then from -128, as NumPy's).
[[nodiscard]] Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, DType dtype, LOOM_HERE);
namespace detail {
// arange's arguments as NumPy reads Python numbers: integers when all three are (weak: checked
// against a dtype given), else float64.
template <class A, class B, class C> std::array<Scalar, 3> arange_args(A start, B stop, C step) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<C>) {
    return {Scalar::of(start, true), Scalar::of(stop, true), Scalar::of(step, true)};
  } else {
    return {Scalar::of(static_cast<double>(start), false), Scalar::of(static_cast<double>(stop), false),
            Scalar::of(static_cast<double>(step), false)};
  }
}
}  // namespace detail
template <class A, class B, class C = int>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>
[[nodiscard]] Array arange(A start, B stop, C step = 1, LOOM_HERE) {
  const auto s = detail::arange_args(start, stop, step);
  const bool ints = std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<C>;
  return arange(s[0], s[1], s[2], ints ? DType::Int64 : DType::Float64, caller);
}
template <class A>
  requires std::is_arithmetic_v<A>
[[nodiscard]] Array arange(A stop, LOOM_HERE) {
  return arange(A(0), stop, A(1), caller);
}
template <class A, class B, class C>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>
[[nodiscard]] Array arange(A start, B stop, C step, DType dtype, LOOM_HERE) {
  const auto s = detail::arange_args(start, stop, step);
  return arange(s[0], s[1], s[2], dtype, caller);
}
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
[[nodiscard]] Array arange(A start, B stop, DType dtype, LOOM_HERE) {
  return arange(start, stop, 1, dtype, caller);
}
template <class A>
  requires std::is_arithmetic_v<A>
[[nodiscard]] Array arange(A stop, DType dtype, LOOM_HERE) {
  return arange(A(0), stop, A(1), dtype, caller);
}
[[nodiscard]] Array linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                             DType dtype = DType::Float64, LOOM_HERE);
// n x m (m: n when none), ones on diagonal k.
[[nodiscard]] Array eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
                        DType dtype = DType::Float64, LOOM_HERE);
[[nodiscard]] Array identity(std::int64_t n, DType dtype = DType::Float64, LOOM_HERE);

// NumPy's np.array of a literal list: loom::array({0, 3, 5}) is int64, {1, 2.5} float64,
// {{1, 2}, {3, 4}} a 2-D array. Each element counts as the Python number it spells (integers:
// int64, or uint64 past its range; float and double: float64; bool; complex: complex128) and
// the dtype is their promotion, unless one is given (then an integer that does not fit raises
// ValueError, as NumPy's OverflowError; floats are cast). Rows of different lengths raise
// NumPy's ValueError. Copies the values to the device as asarray does.
struct ArrayItem {
  Scalar value;
  template <ScalarType T> ArrayItem(T v) : value(Scalar::of(v, true)) {}  // NOLINT
};
[[nodiscard]] Array array(std::initializer_list<std::initializer_list<ArrayItem>> rows,
                          std::optional<DType> dtype = std::nullopt, LOOM_HERE);
namespace detail {
Array array_1d(std::initializer_list<ArrayItem> values, std::optional<DType> dtype, std::source_location caller);
}
// (A template only to lose the tie for rows of one element, {{1}, {2}}, which convert to either
// form equally well: a non-template wins, so they are the 2-D array NumPy makes.)
template <class = void>
[[nodiscard]] Array array(std::initializer_list<ArrayItem> values, std::optional<DType> dtype = std::nullopt,
                          LOOM_HERE) {
  return detail::array_1d(values, dtype, caller);
}

// Copies host data into a new array (1-D unless a shape is given).
template <class T> [[nodiscard]] Array asarray(std::span<const T> data, const Shape& shape, LOOM_HERE);
template <class T> [[nodiscard]] Array asarray(std::span<const T> data, LOOM_HERE) {
  return asarray<T>(data, Shape{static_cast<std::int64_t>(data.size())}, caller);
}
template <class T> [[nodiscard]] Array asarray(const std::vector<T>& data, LOOM_HERE) {
  return asarray<T>(std::span<const T>(data.data(), data.size()), caller);
}
template <class T> [[nodiscard]] Array asarray(const std::vector<T>& data, const Shape& shape, LOOM_HERE) {
  return asarray<T>(std::span<const T>(data.data(), data.size()), shape, caller);
}
// nbytes bytes from data, which must fill `shape` exactly (ValueError for a null data with nbytes > 0).
[[nodiscard]] Array asarray_bytes(const void* data, std::size_t nbytes, DType dtype, const Shape& shape, LOOM_HERE);
template <class T>
[[nodiscard]] Array asarray(std::span<const T> data, const Shape& shape, std::source_location caller) {
  return asarray_bytes(data.data(), data.size() * sizeof(T), dtype_of<T>, shape, caller);
}
// std::vector<bool> is packed; give bools as a span of bool or uint8 with astype.
[[nodiscard]] Array asarray(const std::vector<bool>& data, LOOM_HERE);

// np.asanyarray: asarray (loom has no array subclasses); an Array is returned as it is.
[[nodiscard]] inline Array asanyarray(const Array& a) { return a; }
template <class T> [[nodiscard]] Array asanyarray(std::span<const T> data, LOOM_HERE) { return asarray<T>(data, caller); }
template <class T> [[nodiscard]] Array asanyarray(const std::vector<T>& data, LOOM_HERE) { return asarray<T>(data, caller); }
template <class T> [[nodiscard]] Array asanyarray(const std::vector<T>& data, const Shape& shape, LOOM_HERE) {
  return asarray<T>(data, shape, caller);
}
[[nodiscard]] inline Array asanyarray(const std::vector<bool>& data, LOOM_HERE) { return asarray(data, caller); }

}  // namespace loom
