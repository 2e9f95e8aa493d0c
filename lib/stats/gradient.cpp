// np.gradient (include/loom/signal.hpp), as NumPy computes it (numpy/lib/_function_base_impl.py):
// for each axis, central differences inside and one-sided ones at the two ends, joined along the
// axis (one fused kernel per axis: the three pieces are views of f). Coordinates given per axis
// are checked for constant spacing (one read, as NumPy's): constant spacing takes the uniform
// formulas with that spacing.

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/signal.hpp>

#include "api/builders.hpp"

namespace loom {

namespace {

// The spacing along one axis: a number (weak, NumPy's Python float, or a 0-d array) or the
// differences of the coordinates.
struct Spacing {
  Array dx;
  bool uniform = true;
};

Spacing spacing_of(const Array& given, std::int64_t extent) {
  if (given.ndim() == 0) return {given, true};
  if (given.ndim() != 1) throw ValueError("distances must be either scalars or 1d");
  if (given.shape()[0] != extent) {
    throw ValueError("when 1d, distances must match the length of the corresponding dimension");
  }
  const Array d = diff(is_inexact(given.dtype()) ? given : given.astype(DType::Float64));
  if (d.size() > 0 && alltrue(d == d[0]).item<bool>()) return {d[0], true};
  return {d, false};
}

// f[..., i, ...] along axis (a view keeping the axis when `keep`).
Array at(const Array& f, int axis, std::int64_t start, std::int64_t stop) { return f.slice(axis, start, stop); }

Array along(const Array& c, int axis, int nd) {
  Shape s = Shape::filled(nd, 1);
  s[axis] = -1;
  return c.reshape(s);
}

Array gradient_along(const Array& f, int axis, const Spacing& s, int edge_order, DType otype) {
  const std::int64_t n = f.shape()[axis];
  const int nd = f.ndim();
  Array inner, first, last;
  const Array f0 = at(f, axis, 0, 1), f1 = at(f, axis, 1, 2), f2 = at(f, axis, 2, 3);
  const Array fl = at(f, axis, n - 1, n), fl1 = at(f, axis, n - 2, n - 1), fl2 = at(f, axis, n - 3, n - 2);
  if (s.uniform) {
    inner = (at(f, axis, 2, n) - at(f, axis, 0, n - 2)) / (2. * s.dx);
  } else {
    const Array dx1 = s.dx[Slice(0, -1, std::nullopt)], dx2 = s.dx[Slice(1, std::nullopt, std::nullopt)];
    const Array a = along(-(dx2) / (dx1 * (dx1 + dx2)), axis, nd), b = along((dx2 - dx1) / (dx1 * dx2), axis, nd);
    const Array c = along(dx1 / (dx2 * (dx1 + dx2)), axis, nd);
    inner = a * at(f, axis, 0, n - 2) + b * at(f, axis, 1, n - 1) + c * at(f, axis, 2, n);
  }
  if (edge_order == 1) {
    const Array d0 = s.uniform ? s.dx : s.dx[0], dn = s.uniform ? s.dx : s.dx[-1];
    first = (f1 - f0) / d0;
    last = (fl - fl1) / dn;
  } else {
    Array a, b, c, a2, b2, c2;
    if (s.uniform) {
      a = -1.5 / s.dx, b = 2. / s.dx, c = -0.5 / s.dx;
      a2 = 0.5 / s.dx, b2 = -2. / s.dx, c2 = 1.5 / s.dx;
    } else {
      const Array d1 = s.dx[0], d2 = s.dx[1];
      a = -(2. * d1 + d2) / (d1 * (d1 + d2)), b = (d1 + d2) / (d1 * d2), c = -d1 / (d2 * (d1 + d2));
      const Array e1 = s.dx[-2], e2 = s.dx[-1];
      a2 = (e2) / (e1 * (e1 + e2)), b2 = -(e2 + e1) / (e1 * e2), c2 = (2. * e2 + e1) / (e2 * (e1 + e2));
    }
    first = a * f0 + b * f1 + c * f2;
    last = a2 * fl2 + b2 * fl1 + c2 * fl;
  }
  return concatenate({first.astype(otype), inner.astype(otype), last.astype(otype)}, axis);
}

}  // namespace

std::vector<Array> gradient(const Array& f_in, const std::vector<Array>& spacing, const Axes& axis, int edge_order) {
  const int nd = f_in.ndim();
  std::vector<int> axes;
  if (axis.is_all()) {
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  } else {
    for (std::int64_t a : axis.list()) {
      const int k = detail::normalize_axis(a, nd);
      if (std::find(axes.begin(), axes.end(), k) != axes.end()) throw ValueError("repeated axis");
      axes.push_back(k);
    }
  }
  std::vector<Array> dx;
  if (spacing.empty()) {
    dx.assign(axes.size(), Array(1.0));
  } else if (spacing.size() == 1 && spacing[0].ndim() == 0) {
    dx.assign(axes.size(), spacing[0]);
  } else if (spacing.size() == axes.size()) {
    dx = spacing;
  } else {
    throw DTypeError("invalid number of arguments");
  }
  if (edge_order > 2) throw ValueError("'edge_order' greater than 2 not supported");
  const DType otype = is_inexact(f_in.dtype()) ? f_in.dtype() : DType::Float64;
  const Array f = is_inexact(f_in.dtype()) || f_in.dtype() == DType::Bool ? f_in : f_in.astype(DType::Float64);
  std::vector<Array> out;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int ax = axes[i];
    const Spacing s = spacing_of(dx[i], f.shape()[ax]);
    if (f.shape()[ax] < edge_order + 1) {
      throw ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                       "elements are required.");
    }
    out.push_back(gradient_along(f, ax, s, edge_order, otype));
  }
  return out;
}

}  // namespace loom
