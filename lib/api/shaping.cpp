// Tiling, repeating, rolling, diagonals and re-viewing (include/loom/manipulation.hpp; pad is
// in lib/index/manipulation_calls.cpp, where gathers are).
// tile and repeat are a broadcast read through a reshape (the kernel splits its loop so that both
// are affine: no copy, no division per element); roll and the pad modes concatenate views of the
// input (joining.cpp's placed pieces); triangles are a where over two aranges.

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"

namespace loom {

using detail::NodeRef;

namespace {

int axis_of(std::int64_t axis, int ndim) { return detail::normalize_axis(axis, ndim); }

void check_counts(std::int64_t n) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
}

// The C-order elements of `a` (of shape `from`, with 1s interleaved) broadcast and reshaped to
// `to`: a Reshape over a broadcast view, which the kernel reads with affine indices.
Array broadcast_reshape(const Array& a, const Shape& expanded, const Shape& broadcast, const Shape& to) {
  const Array b = detail::reshaped(a, expanded).broadcast_to(broadcast);
  return Array(detail::make_reshape(detail::leaf_of(b, "reshape"), to));
}

}  // namespace

Array tile(const Array& a, const std::vector<std::int64_t>& reps_in) {
  for (std::int64_t r : reps_in) check_counts(r);
  const int d = std::max<int>(static_cast<int>(reps_in.size()), a.ndim());
  std::vector<std::int64_t> reps(static_cast<std::size_t>(d) - reps_in.size(), 1);
  reps.insert(reps.end(), reps_in.begin(), reps_in.end());
  Shape src = Shape::filled(d - a.ndim(), 1);
  for (int k = 0; k < a.ndim(); ++k) src.push_back(a.shape()[k]);
  Shape expanded, broadcast, out;
  for (int k = 0; k < d; ++k) {
    const std::int64_t r = reps[static_cast<std::size_t>(k)];
    expanded.push_back(1);
    expanded.push_back(src[k]);
    broadcast.push_back(r);
    broadcast.push_back(src[k]);
    out.push_back(r * src[k]);
  }
  return broadcast_reshape(a, expanded, broadcast, out);
}

Array tile(const Array& a, std::int64_t reps) { return tile(a, std::vector<std::int64_t>{reps}); }

Array repeat(const Array& a_in, std::int64_t repeats, std::optional<std::int64_t> axis_in) {
  check_counts(repeats);
  const Array a = axis_in ? a_in : detail::reshaped(a_in, {a_in.size()});
  if (a.ndim() == 0) return repeat(detail::reshaped(a, {1}), repeats, 0);
  const int axis = axis_of(axis_in.value_or(0), a.ndim());
  Shape expanded, broadcast, out;
  for (int k = 0; k < a.ndim(); ++k) {
    expanded.push_back(a.shape()[k]);
    broadcast.push_back(a.shape()[k]);
    out.push_back(a.shape()[k] * (k == axis ? repeats : 1));
    if (k == axis) {
      expanded.push_back(1);
      broadcast.push_back(repeats);
    }
  }
  return broadcast_reshape(a, expanded, broadcast, out);
}


Array roll(const Array& a, const std::vector<std::int64_t>& shift, const std::vector<std::int64_t>& axis) {
  if (shift.size() != axis.size() && shift.size() != 1 && axis.size() != 1) {
    throw ValueError(fmt::format("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                 "between arg 0 with shape ({},) and arg 1 with shape ({},).",
                                 shift.size(), axis.size()));
  }
  const std::size_t m = std::max(shift.size(), axis.size());
  std::vector<std::int64_t> total(static_cast<std::size_t>(a.ndim()), 0);
  for (std::size_t i = 0; i < m; ++i) {
    const int ax = axis_of(axis[axis.size() == 1 ? 0 : i], a.ndim());
    total[static_cast<std::size_t>(ax)] += shift[shift.size() == 1 ? 0 : i];
  }
  Array r = a;
  for (int ax = 0; ax < a.ndim(); ++ax) {
    const std::int64_t n = a.shape()[ax];
    if (n == 0) continue;
    const std::int64_t s = ((total[static_cast<std::size_t>(ax)] % n) + n) % n;
    if (s != 0) r = concatenate({r.slice(ax, n - s, n), r.slice(ax, 0, n - s)}, ax);
  }
  return r;
}

Array roll(const Array& a, std::int64_t shift, std::optional<std::int64_t> axis) {
  if (axis) return roll(a, std::vector<std::int64_t>{shift}, std::vector<std::int64_t>{*axis});
  const Array flat = detail::reshaped(a, {a.size()});
  return detail::reshaped(roll(flat, std::vector<std::int64_t>{shift}, std::vector<std::int64_t>{0}), a.shape());
}

Array resize(const Array& a, const Shape& new_shape) {
  for (std::int64_t d : new_shape) {
    if (d < 0) throw ValueError("all elements of `new_shape` must be non-negative");
  }
  const std::int64_t n = new_shape.numel();
  if (a.size() == 0 || n == 0) return zeros(new_shape, a.dtype());
  const std::int64_t reps = (n + a.size() - 1) / a.size();
  const Array flat = tile(detail::reshaped(a, {a.size()}), {reps});
  return detail::reshaped(flat.slice(0, 0, n), new_shape);
}

// --- diagonals and triangles ---

Array diagonal(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
  const int nd = a.ndim();
  if (nd < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int a1 = detail::normalize_axis(axis1, nd, "axis1"), a2 = detail::normalize_axis(axis2, nd, "axis2");
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  const std::int64_t n1 = a.shape()[a1], n2 = a.shape()[a2];
  const std::int64_t len = std::max<std::int64_t>(0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
  const std::int64_t first = len == 0 ? 0 : (offset >= 0 ? offset : -offset * n2);  // in (n1, n2)'s C order
  Shape perm, out;
  for (int d = 0; d < nd; ++d) {
    if (d != a1 && d != a2) {
      perm.push_back(d);
      out.push_back(a.shape()[d]);
    }
  }
  out.push_back(len);
  const NodeRef n = detail::leaf_of(a, "diagonal");
  if (n->op == detail::Op::Buffer) {  // evaluated: a strided view of its buffer, as NumPy's
    Shape strides;
    for (int d : perm) strides.push_back(n->strides()[static_cast<int>(d)]);
    const std::int64_t s1 = n->strides()[a1], s2 = n->strides()[a2];
    strides.push_back(s1 + s2);
    const std::int64_t off = n->offset() + (len == 0 ? 0 : (offset >= 0 ? offset * s2 : -offset * s1));
    return Array(detail::make_buffer(n->storage(), n->dtype, out, strides, off));
  }
  // Computed: the (n1, n2) plane in C order, read from `first` with step n2 + 1.
  perm.push_back(a1);
  perm.push_back(a2);
  Shape flat_shape;
  for (int d = 0; d + 1 < out.size(); ++d) flat_shape.push_back(out[d]);
  flat_shape.push_back(n1 * n2);
  const Array plane = detail::reshaped(a.transpose(perm), flat_shape);
  if (len == 0) return plane.slice(plane.ndim() - 1, 0, 0);
  return plane.slice(plane.ndim() - 1, first, first + (len - 1) * (n2 + 1) + 1, n2 + 1);
}

Array diag(const Array& v, std::int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k);
  if (v.ndim() != 1) throw ValueError("Input must be 1- or 2-d.");
  const std::int64_t n = v.size(), big = n + (k < 0 ? -k : k);
  const Array vals = n == big ? v : concatenate({v, zeros({big - n}, v.dtype())});
  const Array r = arange(big).reshape({big, 1}), c = arange(big).reshape({1, big});
  const Array on = (c - r) == Array(k);
  // Row i holds v[i] when k >= 0 (at column i + k); column j holds v[j] when k < 0.
  const Array src = k >= 0 ? vals.reshape({big, 1}) : vals.reshape({1, big});
  return where(on, src, zeros({}, v.dtype()));
}

Array diagflat(const Array& v, std::int64_t k) { return diag(detail::reshaped(v, {v.size()}), k); }

Array trace(const Array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2, std::optional<DType> dtype) {
  return sum(diagonal(a, offset, axis1, axis2), -1, false, dtype);
}

Array tri(std::int64_t n, std::optional<std::int64_t> m_in, std::int64_t k, DType dtype) {
  const std::int64_t m = m_in.value_or(n);
  check_counts(n);
  check_counts(m);
  const Array on = (arange(m).reshape({1, m}) - arange(n).reshape({n, 1})) <= Array(k);
  return on.astype(dtype);
}

namespace {

Array triangle(const Array& a, std::int64_t k, bool lower) {
  if (a.ndim() == 0) throw ValueError("input array must be at least 1-d");
  const std::int64_t rows = a.ndim() >= 2 ? a.shape()[a.ndim() - 2] : a.shape()[0];
  const std::int64_t cols = a.shape()[a.ndim() - 1];
  const Array keep = lower ? tri(rows, cols, k, DType::Bool) : logical_not(tri(rows, cols, k - 1, DType::Bool));
  return where(keep, a, zeros({}, a.dtype()));
}

}  // namespace

Array tril(const Array& a, std::int64_t k) { return triangle(a, k, true); }
Array triu(const Array& a, std::int64_t k) { return triangle(a, k, false); }

// --- re-viewing ---

Array flipud(const Array& a) {
  if (a.ndim() < 1) throw ValueError("Input must be >= 1-d.");
  return a.flip(0);
}

Array fliplr(const Array& a) {
  if (a.ndim() < 2) throw ValueError("Input must be >= 2-d.");
  return a.flip(1);
}

Array rot90(const Array& a, std::int64_t k, std::pair<std::int64_t, std::int64_t> axes) {
  const int nd = a.ndim();
  const std::int64_t x = axes.first, y = axes.second;
  if (x == y || std::abs(x - y) == nd) throw ValueError("Axes must be different.");
  if (x >= nd || x < -nd || y >= nd || y < -nd) {
    throw ValueError(fmt::format("Axes=({}, {}) out of range for array of ndim={}.", x, y, nd));
  }
  const int a0 = axis_of(x, nd), a1 = axis_of(y, nd);
  k = ((k % 4) + 4) % 4;
  if (k == 0) return a;
  if (k == 2) return a.flip(a0).flip(a1);
  Shape perm;
  for (int d = 0; d < nd; ++d) perm.push_back(d);
  std::swap(perm[a0], perm[a1]);
  return k == 1 ? a.flip(a1).transpose(perm) : a.transpose(perm).flip(a1);
}

Array moveaxis(const Array& a, const std::vector<std::int64_t>& source, const std::vector<std::int64_t>& destination) {
  const int nd = a.ndim();
  if (source.size() != destination.size()) {
    throw ValueError("`source` and `destination` arguments must have the same number of elements");
  }
  std::vector<int> src, dst;
  for (std::int64_t s : source) src.push_back(detail::normalize_axis(s, nd, "source"));
  for (std::int64_t d : destination) dst.push_back(detail::normalize_axis(d, nd, "destination"));
  for (std::size_t i = 0; i < src.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (src[i] == src[j]) throw ValueError("repeated axis in `source` argument");
      if (dst[i] == dst[j]) throw ValueError("repeated axis in `destination` argument");
    }
  }
  std::vector<int> order;
  for (int d = 0; d < nd; ++d) {
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  }
  std::vector<std::pair<int, int>> moves;
  for (std::size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [d, s] : moves) order.insert(order.begin() + d, s);
  Shape perm;
  for (int d : order) perm.push_back(d);
  return a.transpose(perm);
}

Array moveaxis(const Array& a, std::int64_t source, std::int64_t destination) {
  return moveaxis(a, std::vector<std::int64_t>{source}, std::vector<std::int64_t>{destination});
}

Array rollaxis(const Array& a, std::int64_t axis, std::int64_t start) {
  const int nd = a.ndim();
  const int ax = axis_of(axis, nd);
  if (start < 0) start += nd;
  if (start < 0 || start > nd) {
    throw IndexError(fmt::format("'start' arg requires {} <= start < {}, but {} was passed in", -nd, nd + 1,
                                 start < 0 ? start - nd : start));
  }
  if (ax < start) --start;
  if (ax == start) return a;
  std::vector<int> order;
  for (int d = 0; d < nd; ++d) {
    if (d != ax) order.push_back(d);
  }
  order.insert(order.begin() + start, ax);
  Shape perm;
  for (int d : order) perm.push_back(d);
  return a.transpose(perm);
}

Array atleast_1d(const Array& a) { return a.ndim() == 0 ? detail::reshaped(a, {1}) : a; }
Array atleast_2d(const Array& a) {
  if (a.ndim() == 0) return detail::reshaped(a, {1, 1});
  return a.ndim() == 1 ? detail::reshaped(a, {1, a.size()}) : a;
}
Array atleast_3d(const Array& a) {
  if (a.ndim() == 0) return detail::reshaped(a, {1, 1, 1});
  if (a.ndim() == 1) return detail::reshaped(a, {1, a.size(), 1});
  return a.ndim() == 2 ? detail::reshaped(a, {a.shape()[0], a.shape()[1], 1}) : a;
}

Shape detail::broadcast_all(const std::vector<Shape>& shapes) {
  Shape s;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& si = shapes[i];
    try {
      s = detail::broadcast_shapes(s, si);
    } catch (const ShapeError&) {
      // NumPy's words, naming the earlier argument that set the extent arg i does not fit.
      const auto tuple = [](const Shape& t) {
        std::string r = "(";
        for (int d = 0; d < t.size(); ++d) r += fmt::format("{}{}", d ? ", " : "", t[d]);
        return r + (t.size() == 1 ? ",)" : ")");
      };
      std::size_t j = 0;
      for (std::size_t k = 0; k < i; ++k) {
        const Shape& sk = shapes[k];
        bool clash = false;
        for (int d = 1; d <= std::min(sk.size(), si.size()); ++d) {
          const std::int64_t x = sk[sk.size() - d], y = si[si.size() - d];
          clash = clash || (x != y && x != 1 && y != 1);
        }
        if (clash) {
          j = k;
          break;
        }
      }
      throw ValueError(fmt::format("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                   "between arg {} with shape {} and arg {} with shape {}.",
                                   j, tuple(shapes[j]), i, tuple(si)));
    }
  }
  return s;
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (const Array& a : arrays) shapes.push_back(a.shape());
  const Shape s = detail::broadcast_all(shapes);
  std::vector<Array> out;
  for (const Array& a : arrays) out.push_back(a.broadcast_to(s));
  return out;
}

std::vector<Array> meshgrid(const std::vector<Array>& xi, const std::string& indexing, bool sparse) {
  if (indexing != "xy" && indexing != "ij") throw ValueError("Valid values for `indexing` are 'xy' and 'ij'.");
  const int nd = static_cast<int>(xi.size());
  std::vector<Array> out;
  for (int i = 0; i < nd; ++i) {
    const Array& x = xi[static_cast<std::size_t>(i)];
    Shape s = Shape::filled(nd, 1);
    int at = i;
    if (indexing == "xy" && nd > 1 && i < 2) at = 1 - i;
    s[at] = x.size();
    out.push_back(detail::reshaped(x, s));
  }
  return sparse ? out : broadcast_arrays(out);
}

std::vector<Array> indices_sparse(const Shape& dims, DType dtype) {
  std::vector<Array> out;
  for (int i = 0; i < dims.size(); ++i) {
    Shape s = Shape::filled(dims.size(), 1);
    s[i] = dims[i];
    out.push_back(arange(dims[i]).astype(dtype).reshape(s));
  }
  return out;
}

Array indices(const Shape& dims, DType dtype) {
  if (dims.size() == 0) return zeros({0}, dtype);
  std::vector<Array> parts = indices_sparse(dims, dtype);
  for (Array& p : parts) p = p.broadcast_to(dims);
  return stack(parts, 0);
}

Array fromfunction(const std::function<Array(const std::vector<Array>&)>& f, const Shape& shape, DType dtype) {
  std::vector<Array> idx = indices_sparse(shape, dtype);
  for (Array& i : idx) i = i.broadcast_to(shape);
  return f(idx);
}

Array logspace(double start, double stop, std::int64_t num, bool endpoint, double base, DType dtype) {
  const Array y = linspace(start, stop, num, endpoint);
  return power(full({}, Scalar::of(base, false), DType::Float64), y).astype(dtype);
}

Array geomspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
  if (start == 0 || stop == 0) throw ValueError("Geometric sequence cannot include zero");
  const double sign = start < 0 ? -1.0 : 1.0;
  Array r = logspace(std::log10(start / sign), std::log10(stop / sign), num, endpoint, 10.0);
  // The ends exactly, as NumPy (r[0] = start, r[-1] = stop): one element placed over r.
  const auto end_at = [&r](std::int64_t k, double v) {
    const Shape one{1};
    return detail::place(full(one, Scalar::of(v, false), r.dtype()), Shape{k}, r.shape(), r);
  };
  if (num > 0) r = end_at(0, start / sign);
  if (num > 1 && endpoint) r = end_at(num - 1, stop / sign);
  return (sign < 0 ? r * Array(-1.0) : r).astype(dtype);
}

}  // namespace loom
