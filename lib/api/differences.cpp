// Differences, cross products and the trapezoid rule (include/loom/reductions.hpp), and the Array
// API's concat / permute_dims / matrix_transpose (manipulation.hpp): views and ops of the table,
// so diff(x) is one kernel reading x once through two shifted views, cross(a, b) one kernel
// writing its three components, trapezoid one fused reduction. NumPy's arithmetic order and
// error words (numpy/lib/_function_base_impl.py, numpy/_core/numeric.py).

#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"

namespace loom {

namespace {

// a[..., start:stop, ...] along `axis`.
Array along(const Array& a, int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop) {
  std::vector<Index> idx(static_cast<std::size_t>(a.ndim()), Index(Slice()));
  idx[static_cast<std::size_t>(axis)] = Slice(start, stop, std::nullopt);
  return detail::basic_view(a, idx);
}

// A C++ number as NumPy's asanyarray makes it: a 0-d array of its own dtype (not weak).
Array strong(const Array& v) {
  const detail::NodeRef n = detail::leaf_of(v, "diff");
  return n->weak ? astype(Array(detail::make_constant(n->value, false)), n->dtype) : v;
}

// NumPy's same_kind casting: safe, or toward a later kind of bool < unsigned < signed < float <
// complex (float64 -> float32, int64 -> int8, uint8 -> int8; not float -> int, int -> uint).
bool same_kind(DType from, DType to) {
  if (can_cast_safe(from, to)) return true;
  const auto rank = [](DType t) {
    return is_bool(t) ? 0 : kind(t) == DKind::Unsigned ? 1 : kind(t) == DKind::Signed ? 2 : is_complex(t) ? 4 : 3;
  };
  return rank(from) <= rank(to);
}

}  // namespace

Array diff(const Array& a, int n, int axis, const std::optional<Array>& prepend, const std::optional<Array>& append) {
  if (n == 0) return a;
  if (n < 0) throw ValueError(fmt::format("order must be non-negative but got {}", n));
  const int nd = a.ndim();
  if (nd == 0) throw ValueError("diff requires input that is at least one dimensional");
  const int ax = detail::normalize_axis(axis, nd);
  // prepend and append are joined first; a 0-d one is broadcast to one slice along the axis.
  std::vector<Array> parts;
  const auto side = [&](const Array& v) {
    Array s = strong(v);
    if (s.ndim() == 0) {
      Shape shape = a.shape();
      shape[ax] = 1;
      s = s.broadcast_to(shape);
    }
    parts.push_back(s);
  };
  if (prepend) side(*prepend);
  parts.push_back(a);
  if (append) side(*append);
  Array x = parts.size() > 1 ? concatenate(parts, ax) : a;
  for (int k = 0; k < n; ++k) {
    const Array hi = along(x, ax, 1, std::nullopt), lo = along(x, ax, std::nullopt, -1);
    x = x.dtype() == DType::Bool ? not_equal(hi, lo) : subtract(hi, lo);
  }
  return x;
}

Array ediff1d(const Array& a, const std::optional<Array>& to_end, const std::optional<Array>& to_begin) {
  const Array x = a.reshape({-1});
  const Array d = subtract(along(x, 0, 1, std::nullopt), along(x, 0, std::nullopt, -1));
  if (!to_begin && !to_end) return d;
  const DType t = x.dtype();
  const auto piece = [&](const Array& v, const char* which) {
    const Array s = strong(v);
    if (!same_kind(s.dtype(), t)) {
      throw DTypeError(
          fmt::format("dtype of `{}` must be compatible with input `ary` under the `same_kind` rule.", which));
    }
    return astype(s.reshape({-1}), t);
  };
  std::vector<Array> parts;
  if (to_begin) parts.push_back(piece(*to_begin, "to_begin"));
  parts.push_back(astype(d, t));
  if (to_end) parts.push_back(piece(*to_end, "to_end"));
  return concatenate(parts, 0);
}

Array cross(const Array& a, const Array& b, int axisa, int axisb, int axisc) {
  if (a.ndim() < 1 || b.ndim() < 1) throw ValueError("At least one array has zero dimension");
  const int aa = detail::normalize_axis(axisa, a.ndim(), "axisa");
  const int ab = detail::normalize_axis(axisb, b.ndim(), "axisb");
  const Array va = moveaxis(a, aa, -1), vb = moveaxis(b, ab, -1);
  const std::int64_t na = va.shape()[va.ndim() - 1], nb = vb.shape()[vb.ndim() - 1];
  if (na != 3 || nb != 3) {
    throw ValueError(fmt::format(
        "Both input arrays must be (arrays of) 3-dimensional vectors, but they are {} and {} dimensional instead.",
        na, nb));
  }
  const auto part = [](const Array& v, std::int64_t k) {
    const Index idx[] = {Index(Ellipsis{}), Index(k)};
    return detail::basic_view(v, idx);
  };
  const int nc = detail::broadcast_shapes(part(va, 0).shape(), part(vb, 0).shape()).size() + 1;
  const int ac = detail::normalize_axis(axisc, nc, "axisc");
  const DType t = promote_types(a.dtype(), b.dtype());
  const Array x = astype(va, t), y = astype(vb, t);
  const Array x0 = part(x, 0), x1 = part(x, 1), x2 = part(x, 2);
  const Array y0 = part(y, 0), y1 = part(y, 1), y2 = part(y, 2);
  // NumPy's order: cp0 = a1 * b2 - a2 * b1, cp1 = a2 * b0 - a0 * b2, cp2 = a0 * b1 - a1 * b0.
  const Array c = stack({x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0}, -1);
  return moveaxis(c, -1, ac);
}

Array trapezoid(const Array& y, const std::optional<Array>& x, double dx, int axis) {
  const int nd = y.ndim();
  const int ax = detail::normalize_axis(axis, nd);
  Array d = Array(dx);
  if (x && x->ndim() == 1) {
    d = diff(*x);
    Shape shape = Shape::filled(nd, 1);
    shape[ax] = d.shape()[0];
    d = d.reshape(shape);
  } else if (x) {
    d = diff(*x, 1, axis);
  }
  const Array mid = d * (along(y, ax, 1, std::nullopt) + along(y, ax, std::nullopt, -1)) / Array(2.0);
  return sum(mid, Axes{ax});
}

Array concat(const std::vector<Array>& arrays, std::optional<std::int64_t> axis) { return concatenate(arrays, axis); }

Array permute_dims(const Array& a, const Shape& axes) { return a.transpose(axes); }

Array matrix_transpose(const Array& a) {
  if (a.ndim() < 2) {
    throw ValueError(fmt::format("Input array must be at least 2-dimensional, but it is {}", a.ndim()));
  }
  return a.swapaxes(-1, -2);
}

}  // namespace loom
