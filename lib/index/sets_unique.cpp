// np.unique with an axis and equal_nan, and the Array API's unique_all / unique_counts /
// unique_inverse / unique_values (include/loom/sets.hpp), built from loom's pieces: the flat
// unique of selection.cpp, lexsort of the slices, a gather, a flag kernel, one flatnonzero (the
// only count read back) and a scatter of the inverse. Every step runs on the GPU when there is
// one, on the host otherwise.

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sets.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"

namespace loom {

namespace {

Array int64s(std::int64_t n, std::int64_t value) { return full(Shape{n}, value, DType::Int64); }

// The results asked for, evaluated in one plan.
UniqueResult evaluated(UniqueResult r) {
  std::vector<Array> out;
  for (const Array* a : {&r.values, &r.index, &r.inverse, &r.counts}) {
    if (a->valid()) out.push_back(*a);
  }
  eval(out);
  return r;
}

// equal_nan=False on the flattened array: the flat unique counts every NaN as one value, sorted
// last; that value becomes one per NaN, in the order of the input (NumPy's stable sort puts them
// so), each counted once. `flat` is the raveled input, `shape` the input's.
UniqueResult split_nans(const Array& flat, const Shape& shape, UniqueResult r, const UniqueOptions& o) {
  if (!is_inexact(flat.dtype())) return r;
  const Array is_nan = isnan(flat);
  const Array at = flatnonzero(is_nan);  // (a count read back)
  const std::int64_t nans = at.size();
  if (nans <= 1) return r;
  const std::int64_t k = r.values.size() - 1;  // the values before the NaN
  // The NaNs in np.sort's order: the order of the input for floats (stable), NumPy's complex
  // order ([R + nanj, nan + Rj, nan + nanj]) for complex values.
  const Array nan_values = take(flat, at).eval();
  const Array order = argsort(nan_values).eval();
  r.values = concatenate({r.values.slice(0, 0, k), take(nan_values, order)});
  if (o.return_index) r.index = concatenate({r.index.slice(0, 0, k), take(at, order)});
  if (o.return_counts) r.counts = concatenate({r.counts.slice(0, 0, k), int64s(nans, 1)});
  if (o.return_inverse) {
    // The j-th NaN of the input is value k + (its place in that order).
    const Array place = zeros(Shape{nans}, DType::Int64).at(order).set(arange(nans).astype(DType::Int64)).eval();
    const Array nan_rank = take(place, cumsum(is_nan) - 1, std::nullopt, TakeMode::Clip);
    r.inverse = where(is_nan, nan_rank + k, r.inverse.reshape({-1})).reshape(shape);
  }
  return evaluated(r);
}

// The lexicographic order of the rows of `rows` (n x m, m > 0): lexsort's last key is the
// primary one, so the columns go last to first. The columns are made contiguous once.
Array row_order(const Array& rows) {
  const std::int64_t m = rows.shape()[1];
  const Array cols = rows.T().copy().eval();
  std::vector<Array> keys;
  for (std::int64_t j = m - 1; j >= 0; --j) keys.push_back(cols[j]);
  return lexsort(keys);
}

// unique along an axis of an ndim >= 2 array: the slices along `axis` as the rows of an n x m
// matrix, sorted lexicographically; a row starts a new value where it differs from the one
// before in any element (NaN differs from everything, -0.0 equals 0.0: NumPy compares the
// slices field by field).
UniqueResult unique_along(const Array& a, int axis, const UniqueOptions& o) {
  const Array x = moveaxis(a, axis, 0);
  const std::int64_t n = x.shape()[0];
  const Shape rest(x.shape().begin() + 1, x.shape().end());
  const std::int64_t m = rest.numel();
  UniqueResult r;
  if (n == 0) {
    const Array none = zeros(Shape{0}, DType::Int64);
    r.values = a.copy();
    if (o.return_index) r.index = none;
    if (o.return_inverse) r.inverse = none;
    if (o.return_counts) r.counts = none;
    return evaluated(r);
  }
  const Array rows = x.reshape({n, m}).eval();  // (read by the sort and the gather)
  const Array perm = m == 0 ? arange(n).astype(DType::Int64) : row_order(rows);
  const Array sorted_rows = take(rows, perm, 0).eval();
  // first[i]: row i of the sorted rows starts a new value (an empty row equals every other).
  const Array differs = any(not_equal(sorted_rows.slice(0, 1, std::nullopt), sorted_rows.slice(0, 0, n - 1)), 1);
  const Array first = concatenate({ones(Shape{1}, DType::Bool), differs}).eval();
  const Array starts = flatnonzero(first);  // (the count read back)
  const std::int64_t k = starts.size();
  Shape shape{k};
  for (std::int64_t e : rest) shape.push_back(e);
  r.values = moveaxis(take(sorted_rows, starts, 0).reshape(shape), 0, axis);
  if (o.return_index) r.index = take(perm, starts);
  if (o.return_inverse) r.inverse = zeros(Shape{n}, DType::Int64).at(perm).set(cumsum(first) - 1);
  if (o.return_counts) r.counts = diff(concatenate({starts, int64s(1, n)}));
  return evaluated(r);
}

}  // namespace

UniqueResult unique(const Array& a, const UniqueOptions& o) {
  if (o.axis) {
    const int axis = detail::normalize_axis(*o.axis, a.ndim());
    if (a.ndim() != 1) return unique_along(a, axis, o);
  }
  UniqueResult r = unique(a, o.return_index, o.return_inverse, o.return_counts);
  if (o.equal_nan) return r;
  return split_nans(a.ravel(), a.shape(), std::move(r), o);
}

UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                    std::optional<int> axis, bool equal_nan, bool sorted) {
  return unique(a, {.return_index = return_index,
                   .return_inverse = return_inverse,
                   .return_counts = return_counts,
                   .axis = axis,
                   .equal_nan = equal_nan,
                   .sorted = sorted});
}

UniqueAllResult unique_all(const Array& x) {
  const UniqueResult r =
      unique(x, {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
  return {r.values, r.index, r.inverse, r.counts};
}

UniqueCountsResult unique_counts(const Array& x) {
  const UniqueResult r = unique(x, {.return_counts = true, .equal_nan = false});
  return {r.values, r.counts};
}

UniqueInverseResult unique_inverse(const Array& x) {
  const UniqueResult r = unique(x, {.return_inverse = true, .equal_nan = false});
  return {r.values, r.inverse};
}

Array unique_values(const Array& x) { return unique(x, {.equal_nan = false}).values; }

}  // namespace loom
