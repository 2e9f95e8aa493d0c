// ndarray's methods on Array (include/loom/array.hpp): each is the function of the same name.

#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

namespace loom {

template <int>
Array Array::sum(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::sum(*this, axis, keepdims, dtype);
}
Array Array::sum(const ReduceOptions& o) const { return loom::sum(*this, o); }
template <int>
Array Array::prod(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::prod(*this, axis, keepdims, dtype);
}
Array Array::prod(const ReduceOptions& o) const { return loom::prod(*this, o); }
template <int>
Array Array::mean(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::mean(*this, axis, keepdims, dtype);
}
Array Array::mean(const ReduceOptions& o) const { return loom::mean(*this, o); }
template <int>
Array Array::var(const Axes& axis, bool keepdims, std::int64_t ddof) const {
  return loom::var(*this, axis, keepdims, ddof);
}
Array Array::var(const ReduceOptions& o) const { return loom::var(*this, o); }
template <int>
Array Array::std(const Axes& axis, bool keepdims, std::int64_t ddof) const {
  return loom::std(*this, axis, keepdims, ddof);
}
Array Array::std(const ReduceOptions& o) const { return loom::std(*this, o); }
template <int>
Array Array::min(const Axes& axis, bool keepdims) const { return loom::min(*this, axis, keepdims); }
Array Array::min(const ReduceOptions& o) const { return loom::min(*this, o); }
template <int>
Array Array::max(const Axes& axis, bool keepdims) const { return loom::max(*this, axis, keepdims); }
Array Array::max(const ReduceOptions& o) const { return loom::max(*this, o); }
Array Array::ptp(const Axes& axis, bool keepdims) const { return loom::ptp(*this, axis, keepdims); }
Array Array::any(const Axes& axis, bool keepdims) const { return loom::any(*this, axis, keepdims); }
Array Array::all(const Axes& axis, bool keepdims) const { return loom::alltrue(*this, axis, keepdims); }
Array Array::argmin(std::optional<int> axis, bool keepdims) const { return loom::argmin(*this, axis, keepdims); }
Array Array::argmax(std::optional<int> axis, bool keepdims) const { return loom::argmax(*this, axis, keepdims); }
Array Array::cumsum(std::optional<int> axis, std::optional<DType> dtype) const {
  return loom::cumsum(*this, axis, dtype);
}
Array Array::cumprod(std::optional<int> axis, std::optional<DType> dtype) const {
  return loom::cumprod(*this, axis, dtype);
}
Array Array::clip(const Array& lo, const Array& hi) const { return loom::clip(*this, lo, hi); }
Array Array::round(int decimals) const { return loom::round(*this, decimals); }
// NumPy's in-place sort and fill: writes, rebinding the handle (x) or writing into the array the
// reference was taken from (x[i].sort()).
void Array::sort(std::optional<int> axis) & { *this = loom::sort(*this, axis); }
void IndexRef::sort(std::optional<int> axis) && { std::move(*this) = loom::sort(*this, axis); }
namespace {
// NumPy packs one value into each element: a sequence is refused, not broadcast.
Array fill_value(const Array& value) {
  if (value.ndim() > 0 && value.size() != 1) throw ValueError("setting an array element with a sequence.");
  return value.reshape(Shape{});
}
}  // namespace
void Array::fill(const Array& value) & { (*this)[{ellipsis}] = fill_value(value); }
void IndexRef::fill(const Array& value) && { std::move(*this) = fill_value(value); }
Array Array::argsort(std::optional<int> axis) const { return loom::argsort(*this, axis); }
std::vector<Array> Array::nonzero() const { return loom::nonzero(*this); }
Array Array::repeat(std::int64_t repeats, std::optional<std::int64_t> axis) const {
  return loom::repeat(*this, repeats, axis);
}
Array Array::take(const Array& indices, std::optional<int> axis) const { return loom::take(*this, indices, axis); }
Array Array::diagonal(std::int64_t offset, std::int64_t axis1, std::int64_t axis2) const {
  return loom::diagonal(*this, offset, axis1, axis2);
}
Array Array::trace(std::int64_t offset, std::int64_t axis1, std::int64_t axis2) const {
  return loom::trace(*this, offset, axis1, axis2);
}

// The Axes forms are templates only to lose an overload tie to the ReduceOptions forms
// (reductions.hpp): their one instance.
template Array Array::sum<0>(const Axes&, bool, std::optional<DType>) const;
template Array Array::prod<0>(const Axes&, bool, std::optional<DType>) const;
template Array Array::mean<0>(const Axes&, bool, std::optional<DType>) const;
template Array Array::var<0>(const Axes&, bool, std::int64_t) const;
template Array Array::std<0>(const Axes&, bool, std::int64_t) const;
template Array Array::min<0>(const Axes&, bool) const;
template Array Array::max<0>(const Axes&, bool) const;

}  // namespace loom
