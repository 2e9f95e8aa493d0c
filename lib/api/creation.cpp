// Creation functions of include/loom/creation.hpp. Generators are leaves that fuse; full/zeros/
// ones are broadcast views of one 0-d constant, so they allocate nothing either.

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "graph/site.hpp"
#include "storage/storage.hpp"

namespace loom {

using detail::NodeRef;

namespace {

// NumPy's errors for a negative extent and for a size past int64, before anything is allocated.
void check_shape(const Shape& shape, DType dtype, const char* op) { detail::checked_nbytes(shape, dtype, op); }

Array fresh_buffer(const Shape& shape, DType dtype, std::shared_ptr<detail::Storage> storage) {
  return Array(detail::make_buffer(std::move(storage), dtype, shape, contiguous_strides(shape), 0));
}

}  // namespace

Array empty(const Shape& shape, DType dtype, std::source_location caller) {
  const detail::SiteScope site(caller);
  check_shape(shape, dtype, "empty");
  const auto nbytes = static_cast<std::size_t>(shape.numel()) * itemsize(dtype);
  return fresh_buffer(shape, dtype, detail::allocate_storage(nbytes));
}
Array empty_like(const Array& a, std::source_location caller) {
  return empty(a.shape(), a.dtype(), caller);
}
Array empty_like(const Array& a, DType dtype, std::source_location caller) {
  return empty(a.shape(), dtype, caller);
}

Array full(const Shape& shape, const Scalar& value, DType dtype, std::source_location caller) {
  const detail::SiteScope site(caller);
  check_shape(shape, dtype, "full");
  // NEP 50: a C++ integer must fit an integer dtype (NumPy's OverflowError "Python integer 300
  // out of bounds for int8"); floats convert as astype does.
  if (value.weak) detail::check_weak_int_fits(value, dtype);
  const NodeRef c = detail::make_constant(value.cast(dtype), false);
  return Array(detail::broadcast_node(c, shape));
}
Array full(const Shape& shape, const Scalar& value, std::source_location caller) {
  return full(shape, value, value.dtype, caller);
}

Array zeros(const Shape& shape, DType dtype, std::source_location caller) {
  return full(shape, Scalar::of(0, true), dtype, caller);
}
Array ones(const Shape& shape, DType dtype, std::source_location caller) {
  return full(shape, Scalar::of(1, true), dtype, caller);
}
Array zeros_like(const Array& a, std::source_location caller) {
  return zeros(a.shape(), a.dtype(), caller);
}
Array zeros_like(const Array& a, DType dtype, std::source_location caller) {
  return zeros(a.shape(), dtype, caller);
}
Array ones_like(const Array& a, std::source_location caller) {
  return ones(a.shape(), a.dtype(), caller);
}
Array ones_like(const Array& a, DType dtype, std::source_location caller) {
  return ones(a.shape(), dtype, caller);
}

namespace {

// NumPy's arange length: ceil((stop - start) / step) computed in float64 (Python's true
// division is correctly rounded: arange(0, 2**63 - 1, 2**62 - 1) has 2 elements, not 3),
// "cannot compute length" when it is NaN, "Maximum allowed size exceeded" past int64.
std::int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step) {
  double q = 0;
  if (!is_inexact(start.dtype) && !is_inexact(stop.dtype) && !is_inexact(step.dtype)) {
    // Exact integers (a difference of two int64/uint64 values needs 65 bits), divided in long
    // double (64-bit mantissa) and rounded once more to double.
    const auto wide = [](const Scalar& v) -> __int128 {
      return kind(v.dtype) == DKind::Unsigned ? static_cast<__int128>(v.u)
                                              : static_cast<__int128>(v.i);
    };
    const __int128 diff = wide(stop) - wide(start), st = wide(step);
    if (st == 0) throw ValueError("arange: step must not be zero (division by zero)");
    q = static_cast<double>(static_cast<long double>(diff) / static_cast<long double>(st));
  } else {
    const double s0 = start.cast(DType::Float64).f;
    const double s1 = stop.cast(DType::Float64).f;
    const double st = step.cast(DType::Float64).f;
    if (st == 0) throw ValueError("arange: step must not be zero (division by zero)");
    q = (s1 - s0) / st;
  }
  const double len = std::ceil(q);
  if (std::isnan(len)) throw ValueError("arange: cannot compute length");
  if (!(len < 9223372036854775808.0)) throw ValueError("arange: Maximum allowed size exceeded");
  return len > 0 ? static_cast<std::int64_t>(len) : 0;
}

// NumPy's integer arange: start and start + step stored in the dtype (C++ integers, NumPy's
// Python ones, must fit; floats truncate), then element i is first + i * (second - first) in
// the dtype's arithmetic, which wraps. Returns the first value and that difference.
std::pair<Scalar, Scalar> integer_fill(const Scalar& start, const Scalar& step, std::int64_t n, DType dtype) {
  Scalar next = start;
  if (is_inexact(start.dtype) || is_inexact(step.dtype)) {
    next = Scalar::of(start.cast(DType::Float64).f + step.cast(DType::Float64).f, false);
  } else {
    next.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(start.i) + static_cast<std::uint64_t>(step.i));
    next.u = start.u + step.u;
  }
  if (n >= 1 && start.weak) detail::check_weak_int_fits(start, dtype);
  if (n >= 2 && start.weak) detail::check_weak_int_fits(next, dtype);
  Scalar first = start.cast(dtype), second = next.cast(dtype), delta = first;
  first.weak = delta.weak = false;
  delta.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(second.i) - static_cast<std::uint64_t>(first.i));
  delta.u = second.u - first.u;
  return {first, delta};
}

}  // namespace

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, DType dtype, std::source_location caller) {
  const detail::SiteScope site(caller);
  detail::check_dtype(dtype, "arange");
  const std::int64_t n = arange_length(start, stop, step);
  if (is_bool(dtype) && n > 2) {
    throw DTypeError(
        "arange() is only supported for booleans when the result has at most length 2.");
  }
  if (is_complex(dtype)) {
    // NumPy fills complex aranges in the real dtype of their precision (imaginary parts 0).
    const DType real = dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
    return astype(arange(start, stop, step, real), dtype);
  }
  if (!is_inexact(dtype)) {
    if (is_bool(dtype)) {  // at most [start, start + step]: the second value computed first
      return astype(arange(start, stop, step, DType::Int64), dtype);
    }
    const auto [first, delta] = integer_fill(start, step, n, dtype);
    // Integers are exact: value3 (the float fill's second element) is unused; left default.
    return Array(detail::make_arange(first, delta, n, dtype, Scalar{}));
  }
  // NumPy's fill: the first two values in the dtype, then start + i * (second - first), in
  // float for float32 and narrower, in double for float64.
  const double s0 = start.cast(DType::Float64).f;
  const double st = step.cast(DType::Float64).f;
  Scalar first = start.cast(dtype);
  first.weak = false;  // a C++ integer argument is a value here, not an operand
  const Scalar second = Scalar::of(s0 + st, false).cast(dtype);
  Scalar delta = first;
  delta.f = dtype == DType::Float64
                ? second.f - first.f
                : static_cast<double>(static_cast<float>(second.f) - static_cast<float>(first.f));
  return Array(detail::make_arange(first, delta, n, dtype, second));
}

namespace {

// np.array of Python numbers: their promoted dtype (float64 for none), or the one given, into
// which each is stored as NumPy's setitem stores a Python number.
Array array_of(const std::vector<Scalar>& items, const Shape& shape, std::optional<DType> dtype,
               std::source_location caller) {
  DType t = items.empty() ? DType::Float64 : items[0].dtype;
  for (const Scalar& v : items) t = promote_types(t, v.dtype);
  if (dtype) t = *dtype;
  detail::check_dtype(t, "array");
  std::vector<std::byte> bytes(items.size() * itemsize(t));
  visit_dtype(t, [&]<class T>() {
    for (std::size_t k = 0; k < items.size(); ++k) {
      detail::check_weak_int_fits(items[k], t);
      const T v = scalar_as<T>(items[k].cast(t));
      std::memcpy(bytes.data() + k * sizeof(T), &v, sizeof(T));
    }
  });
  return asarray_bytes(bytes.data(), bytes.size(), t, shape, caller);
}

}  // namespace

Array detail::array_1d(std::initializer_list<ArrayItem> values, std::optional<DType> dtype,
                       std::source_location caller) {
  std::vector<Scalar> items;
  for (const ArrayItem& v : values) items.push_back(v.value);
  return array_of(items, Shape{static_cast<std::int64_t>(items.size())}, dtype, caller);
}

Array array(std::initializer_list<std::initializer_list<ArrayItem>> rows, std::optional<DType> dtype,
            std::source_location caller) {
  std::vector<Scalar> items;
  const std::size_t width = rows.size() > 0 ? rows.begin()->size() : 0;
  for (const auto& row : rows) {
    if (row.size() != width) {
      throw ValueError(fmt::format(
          "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 "
          "dimensions. The detected shape was ({},) + inhomogeneous part.",
          rows.size()));
    }
    for (const ArrayItem& v : row) items.push_back(v.value);
  }
  return array_of(items, Shape{static_cast<std::int64_t>(rows.size()), static_cast<std::int64_t>(width)}, dtype,
                  caller);
}

Array linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype, std::source_location caller) {
  const detail::SiteScope site(caller);
  detail::check_dtype(dtype, "linspace");
  if (num < 0) {
    throw ValueError(fmt::format("Number of samples, {}, must be non-negative.", num));
  }
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : (stop - start);
  // Values are computed in float64 and converted (NumPy floors for integer dtypes).
  return Array(detail::make_linspace(Scalar::of(start, false), Scalar::of(step, false),
                                     Scalar::of(stop, false), num, endpoint && num > 1, dtype));
}

Array eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, std::source_location caller) {
  const detail::SiteScope site(caller);
  const std::int64_t cols = m.value_or(n);
  detail::checked_nbytes(Shape{n, cols}, dtype, "eye");  // negative or too big: NumPy's errors
  return Array(detail::make_eye(n, cols, k, dtype));
}
Array identity(std::int64_t n, DType dtype, std::source_location caller) {
  return eye(n, n, 0, dtype, caller);
}

Array asarray_bytes(const void* data, std::size_t nbytes, DType dtype, const Shape& shape, std::source_location caller) {
  const detail::SiteScope site(caller);
  check_shape(shape, dtype, "asarray");
  if (data == nullptr && nbytes > 0) throw ValueError(fmt::format("asarray_bytes: a null pointer for {} bytes", nbytes));
  const std::size_t want = static_cast<std::size_t>(shape.numel()) * itemsize(dtype);
  if (want != nbytes) {
    throw ShapeError(fmt::format("asarray: {} values of {} do not fill shape {} ({} values)",
                                 nbytes / itemsize(dtype), name(dtype), detail::compact(shape),
                                 shape.numel()));
  }
  return fresh_buffer(shape, dtype, detail::upload_storage(data, nbytes));
}

Array asarray(const std::vector<bool>& data, std::source_location caller) {
  const detail::SiteScope site(caller);
  std::vector<std::uint8_t> bytes(data.begin(), data.end());
  return asarray_bytes(bytes.data(), bytes.size(), DType::Bool,
                       Shape{static_cast<std::int64_t>(bytes.size())});
}

}  // namespace loom
