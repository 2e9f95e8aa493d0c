// The nan forms of prod, var, std, cumsum, cumprod, argmin and argmax (include/loom/statistics.hpp),
// as NumPy writes them (numpy/lib/_nanfunctions_impl.py): NaN replaced by the operation's identity
// (or +-inf for the arg-extrema) in the reduction's prologue, so each stays one fused reduction
// (nanvar: the count, the mean and the squared deviations, as np.nanvar computes them). Integer
// and bool arrays hold no NaN: each is then the plain function.

#include <cmath>
#include <limits>

#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>
#include <loom/statistics.hpp>

#include "graph/promotion.hpp"

namespace loom {

namespace {

bool has_nan(const Array& a) { return is_inexact(a.dtype()); }

// a with its NaNs replaced by `v` (NumPy's _replace_nan).
Array replace_nan(const Array& a, double v) { return where(isnan(a), Array(v), a); }

Array nan_arg(const Array& a, std::optional<int> axis, bool keepdims, bool max) {
  if (!has_nan(a)) return max ? argmax(a, axis, keepdims) : argmin(a, axis, keepdims);
  const double inf = std::numeric_limits<double>::infinity();
  if (a.size() > 0) {
    const Array nan = isnan(a);
    const Array all_nan = axis ? any(alltrue(nan, *axis)) : alltrue(nan);
    if (all_nan.item<bool>()) throw ValueError("All-NaN slice encountered");
  }
  const Array r = replace_nan(a, max ? -inf : inf);
  return max ? argmax(r, axis, keepdims) : argmin(r, axis, keepdims);
}

// np.nanvar: the mean of the values (their sum divided by their count, in the sum's dtype), the
// squared deviations of the values (NaNs as 0), their sum divided by count - ddof; NaN where
// count - ddof <= 0.
Array nan_variance(const Array& a, const Axes& axis, bool keepdims, std::int64_t ddof, std::optional<DType> dtype) {
  if (dtype && !is_inexact(*dtype)) throw DTypeError("If a is inexact, then dtype must be inexact");
  const Array nan = isnan(a);
  const Array arr = where(nan, Array(0), a);
  const Array cnt = sum(logical_not(nan), axis, true);
  const Array total = sum(arr, axis, true, dtype);
  const Array avg = (total / cnt.astype(detail::real_type_for(total.dtype()))).astype(total.dtype());
  // (NaN found as a != a here: a node of its own, so the deviations' reduction reads a and not a
  // materialized copy of isnan(a) shared with the count's kernel)
  const Array dev = where(a != a, Array(0), (a - avg).astype(a.dtype()));
  const Array sqr = is_complex(dev.dtype()) ? (dev * dev.conj()).real() : dev * dev;
  const Array v = sum(sqr, axis, keepdims, dtype);
  const Array dof = cnt.reshape(v.shape()) - ddof;
  const Array q = (v / dof.astype(detail::real_type_for(v.dtype()))).astype(v.dtype());
  return where(dof <= 0, Array(std::nan("")).astype(v.dtype()), q);
}

}  // namespace

Array nanprod(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  return prod(has_nan(a) ? replace_nan(a, 1) : a, axis, keepdims, dtype);
}

Array nanvar(const Array& a, const Axes& axis, bool keepdims, std::int64_t ddof, std::optional<DType> dtype) {
  if (!has_nan(a)) return var(a, axis, keepdims, ddof, dtype);
  return nan_variance(a, axis, keepdims, ddof, dtype);
}

Array nanstd(const Array& a, const Axes& axis, bool keepdims, std::int64_t ddof, std::optional<DType> dtype) {
  if (!has_nan(a)) return std(a, axis, keepdims, ddof, dtype);
  return sqrt(nan_variance(a, axis, keepdims, ddof, dtype));
}

Array nancumsum(const Array& a, std::optional<int> axis, std::optional<DType> dtype) {
  return cumsum(has_nan(a) ? replace_nan(a, 0) : a, axis, dtype);
}

Array nancumprod(const Array& a, std::optional<int> axis, std::optional<DType> dtype) {
  return cumprod(has_nan(a) ? replace_nan(a, 1) : a, axis, dtype);
}

Array nanargmin(const Array& a, std::optional<int> axis, bool keepdims) { return nan_arg(a, axis, keepdims, false); }
Array nanargmax(const Array& a, std::optional<int> axis, bool keepdims) { return nan_arg(a, axis, keepdims, true); }

}  // namespace loom
