// ndarray's methods on Array (include/loom/array.hpp): each is the function of the same name.

#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

namespace loom {

Array Array::sum(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::sum(*this, axis, keepdims, dtype);
}
Array Array::sum(const ReduceOptions& o) const { return loom::sum(*this, o); }
Array Array::prod(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::prod(*this, axis, keepdims, dtype);
}
Array Array::prod(const ReduceOptions& o) const { return loom::prod(*this, o); }
Array Array::mean(const Axes& axis, bool keepdims, std::optional<DType> dtype) const {
  return loom::mean(*this, axis, keepdims, dtype);
}
Array Array::mean(const ReduceOptions& o) const { return loom::mean(*this, o); }
Array Array::var(const Axes& axis, bool keepdims, std::int64_t ddof) const {
  return loom::var(*this, axis, keepdims, ddof);
}
Array Array::var(const ReduceOptions& o) const { return loom::var(*this, o); }
Array Array::std(const Axes& axis, bool keepdims, std::int64_t ddof) const {
  return loom::std(*this, axis, keepdims, ddof);
}
Array Array::std(const ReduceOptions& o) const { return loom::std(*this, o); }
Array Array::min(const Axes& axis, bool keepdims) const { return loom::min(*this, axis, keepdims); }
Array Array::min(const ReduceOptions& o) const { return loom::min(*this, o); }
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
Array Array::sort(std::optional<int> axis) const { return loom::sort(*this, axis); }
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

}  // namespace loom
