#pragma once
// The statistics room's one shared step: a reduction over any set of axes seen as rows, as
// NumPy's _ureduce does for the functions that reduce one axis (the reduced axes moved last and
// merged into one; the kept ones first, in order).

#include <loom/array.hpp>
#include <loom/axes.hpp>

namespace loom::stats {

struct Rows {
  Array rows;        // (kept..., n)
  Shape kept;        // the kept extents
  Shape keep_shape;  // a's shape with the reduced extents 1 (the keepdims result)
  std::int64_t n = 0;
};

// a as rows along `axis` (every axis: one row of every element). NumPy's errors for an axis out of
// range (IndexError) or repeated (ValueError "repeated axis").
Rows to_rows(const Array& a, const Axes& axis);

// A result of shape (lead dims..., kept...) given keepdims' shape: (lead dims..., keep_shape).
Array finish_rows(const Array& r, const Rows& rows, bool keepdims, int lead);

}  // namespace loom::stats
