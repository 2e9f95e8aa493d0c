// Views of include/loom/array.hpp: each builds an IndexMap and composes it into the node it
// views (DESIGN.md decision 8). Reshape is a view when the layout allows, else it copies first.

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"

namespace loom {

using detail::IndexMap;
using detail::NodeRef;
using detail::Op;

namespace {

// A map that keeps each output dim on input dim `src[i]` with coefficient 1 (-1: a new axis).
IndexMap select_dims(const std::vector<int>& src, int in_ndim) {
  IndexMap m;
  m.out_ndim = static_cast<int>(src.size());
  m.in_ndim = in_ndim;
  for (int i = 0; i < m.out_ndim; ++i) {
    m.dim[i] = static_cast<std::int8_t>(src[static_cast<std::size_t>(i)]);
    m.coef[i] = src[static_cast<std::size_t>(i)] >= 0 ? 1 : 0;
  }
  return m;
}

Shape infer_shape(const Shape& requested, std::int64_t size) {
  Shape out = requested;
  int unknown = -1;
  std::int64_t known = 1;
  bool overflow = false;
  for (int i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = i;
    } else if (out[i] < 0) {
      throw ValueError(fmt::format("negative dimensions not allowed, got {}", out[i]));
    } else {
      overflow |= __builtin_mul_overflow(known, out[i], &known);
    }
  }
  const auto fail = [&] {
    return ValueError(fmt::format("cannot reshape array of size {} into shape {}", size,
                                  detail::compact(requested)));
  };
  // A product past int64 cannot be the size of an existing array (unless a 0 extent makes it 0).
  if (overflow && known != 0) throw fail();
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) throw fail();
    out[unknown] = size / known;
  }
  if (known * (unknown >= 0 ? out[unknown] : 1) != size) throw fail();
  return out;
}

struct SliceBounds {
  std::int64_t start, step, length;
};

// Python's slice.indices(n) and the resulting length, for any int64 start, stop and step
// (x[::INT64_MAX] is x[:1], x[::INT64_MIN] the last element): lengths are counted in unsigned
// arithmetic, which neither a step of INT64_MIN nor a distance near 2^63 overflows.
SliceBounds slice_bounds(const Slice& s, std::int64_t n) {
  const std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  std::int64_t start, stop;
  if (step > 0) {
    start = s.start.value_or(0);
    stop = s.stop.value_or(n);
    if (start < 0) start = std::max<std::int64_t>(start + n, 0);
    if (stop < 0) stop = std::max<std::int64_t>(stop + n, 0);
    start = std::min(start, n);
    stop = std::min(stop, n);
    if (stop <= start) return {start, step, 0};
    const auto span = static_cast<std::uint64_t>(stop - start);
    return {start, step, static_cast<std::int64_t>((span - 1) / static_cast<std::uint64_t>(step) + 1)};
  }
  start = s.start.has_value() ? *s.start : n - 1;
  stop = s.stop.has_value() ? *s.stop : -1;
  if (s.start.has_value() && start < 0) start = std::max<std::int64_t>(start + n, -1);
  if (s.stop.has_value() && stop < 0) stop = std::max<std::int64_t>(stop + n, -1);
  start = std::min(start, n - 1);
  stop = std::min(stop, n - 1);
  if (start <= stop) return {start, step, 0};
  const auto span = static_cast<std::uint64_t>(start - stop);
  const std::uint64_t mag = 0 - static_cast<std::uint64_t>(step);  // |step|, INT64_MIN too
  return {start, step, static_cast<std::int64_t>((span - 1) / mag + 1)};
}

}  // namespace

Array Array::reshape(const Shape& shape) const {
  const NodeRef n = detail::leaf_of(*this, "reshape");
  const Shape out = infer_shape(shape, n->numel());
  if (out == n->shape) return Array(n);
  switch (n->op) {
    case Op::Buffer: {
      if (auto st = detail::reshape_strides(n->shape, n->strides(), out)) {
        return Array(detail::make_buffer(n->storage(), n->dtype, out, *st, n->offset()));
      }
      // NumPy copies when the strides do not allow a view; so do we, as its own kernel.
      return Array(detail::make_reshape(detail::make_copy(n, true), out));
    }
    case Op::View: {
      if (auto m = detail::reshape_map(n->map(), n->shape, out)) {
        return Array(detail::make_view(n->inputs[0], *m, out));
      }
      return Array(detail::make_reshape(detail::make_copy(n, true), out));
    }
    case Op::Reshape: return Array(detail::make_reshape(n->inputs[0], out));
    case Op::Arange:
    case Op::Linspace:
    case Op::Constant:
    case Op::Eye:
    case Op::Call:
    case Op::Reduce:
case Op::Gather:
case Op::Place:
case Op::User:
#include "graph/elementwise_cases.inc"
      break;
  }
  // A generator or a computed array: its elements in C order, whatever kernel produces them.
  auto m = detail::reshape_map(IndexMap::identity(n->shape.size()), n->shape, out);
  if (m) return Array(detail::make_view(n, *m, out));  // splits and unit dims stay views
  return Array(detail::make_reshape(n, out));
}

Array Array::transpose(const Shape& axes) const {
  const NodeRef n = detail::leaf_of(*this, "transpose");
  const int nd = n->shape.size();
  if (axes.size() != nd) throw ValueError("axes don't match array");
  std::vector<int> src(static_cast<std::size_t>(nd));
  std::vector<bool> seen(static_cast<std::size_t>(nd), false);
  Shape out = n->shape;
  for (int i = 0; i < nd; ++i) {
    const int a = detail::normalize_axis(axes[i], nd);
    if (seen[static_cast<std::size_t>(a)]) throw ValueError("repeated axis in transpose");
    seen[static_cast<std::size_t>(a)] = true;
    src[static_cast<std::size_t>(i)] = a;
    out[i] = n->shape[a];
  }
  return Array(detail::view_node(n, select_dims(src, nd), out));
}

Array Array::transpose() const {
  Shape axes = Shape::filled(ndim(), 0);
  for (int i = 0; i < ndim(); ++i) axes[i] = ndim() - 1 - i;
  return transpose(axes);
}
Array Array::T() const { return transpose(); }

Array Array::swapaxes(int a, int b) const {
  const int nd = ndim();
  Shape axes = Shape::filled(nd, 0);
  std::iota(axes.begin(), axes.end(), 0);
  std::swap(axes[detail::normalize_axis(a, nd, "axis1")], axes[detail::normalize_axis(b, nd, "axis2")]);
  return transpose(axes);
}

Array Array::broadcast_to(const Shape& shape) const {
  for (std::int64_t d : shape) {
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  }
  return Array(detail::broadcast_node(detail::leaf_of(*this, "broadcast_to"), shape));
}

Array Array::expand_dims(int axis) const {
  const NodeRef n = detail::leaf_of(*this, "expand_dims");
  const int nd = n->shape.size();
  const int a = detail::normalize_axis(axis, nd + 1);
  std::vector<int> src;
  Shape out;
  for (int i = 0, k = 0; i <= nd; ++i) {
    if (i == a) {
      src.push_back(-1);
      out.push_back(1);
    } else {
      src.push_back(k);
      out.push_back(n->shape[k++]);
    }
  }
  return Array(detail::view_node(n, select_dims(src, nd), out));
}

namespace {
Array squeeze_where(const Array& arr, const std::vector<bool>& drop) {
  const NodeRef n = detail::leaf_of(arr, "squeeze");
  IndexMap m;
  m.in_ndim = n->shape.size();
  Shape out;
  std::vector<int> src;
  for (int k = 0; k < n->shape.size(); ++k) {
    if (!drop[static_cast<std::size_t>(k)]) {
      src.push_back(k);
      out.push_back(n->shape[k]);
    }
  }
  return Array(detail::view_node(n, select_dims(src, n->shape.size()), out));
}
}  // namespace

Array Array::squeeze() const {
  std::vector<bool> drop;
  for (std::int64_t d : shape()) drop.push_back(d == 1);
  return squeeze_where(*this, drop);
}

Array Array::squeeze(int axis) const {
  const int a = detail::normalize_axis(axis, ndim());
  if (shape()[a] != 1) {
    throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
  }
  std::vector<bool> drop(static_cast<std::size_t>(ndim()), false);
  drop[static_cast<std::size_t>(a)] = true;
  return squeeze_where(*this, drop);
}

Array Array::flip(int axis) const {
  const int a = detail::normalize_axis(axis, ndim());
  return slice(a, none, none, -1);
}

Array Array::flip() const {
  Array r = *this;
  for (int i = 0; i < ndim(); ++i) r = r.flip(i);
  return r;
}

Array Array::ravel() const { return reshape({-1}); }

Array Array::slice(int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                   std::optional<std::int64_t> step) const {
  std::vector<Index> idx;
  const int a = detail::normalize_axis(axis, ndim());
  for (int i = 0; i < a; ++i) idx.emplace_back(loom::all);
  idx.emplace_back(Slice(start, stop, step));
  return detail::basic_view(*this, idx);
}

namespace detail {

BasicIndex basic_index(const Shape& shape, std::span<const Index> idx) {
  const int nd = shape.size();
  int consumed = 0;
  int ellipses = 0;
  for (const Index& e : idx) {
    if (std::holds_alternative<std::int64_t>(e.value()) || std::holds_alternative<Slice>(e.value()) ||
        std::holds_alternative<IndexArray>(e.value())) {
      ++consumed;
    } else if (std::holds_alternative<Ellipsis>(e.value())) {
      ++ellipses;
    }
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > nd) {
    throw IndexError(fmt::format(
        "too many indices for array: array is {}-dimensional, but {} were indexed", nd, consumed));
  }
  BasicIndex r;
  IndexMap& m = r.map;
  m.in_ndim = nd;
  Shape& out = r.shape;
  int k = 0;  // next input dim
  const auto add_out = [&](int src, std::int64_t coef, std::int64_t extent) {
    const int i = out.size();
    out.push_back(extent);
    m.dim[i] = static_cast<std::int8_t>(src);
    m.coef[i] = coef;
  };
  const auto full_dim = [&] {
    add_out(k, 1, shape[k]);
    ++k;
  };
  for (const Index& e : idx) {
    const auto& v = e.value();
    r.entry_dim.push_back(-1);
    r.entry_axis.push_back(k);
    if (const auto* i = std::get_if<std::int64_t>(&v)) {
      const std::int64_t ext = shape[k];
      if (*i < -ext || *i >= ext) {
        throw IndexError(fmt::format("index {} is out of bounds for axis {} with size {}", *i, k,
                                     ext));
      }
      m.offset[k] = *i < 0 ? *i + ext : *i;
      ++k;
    } else if (std::holds_alternative<IndexArray>(v)) {  // the caller's: the whole dim here
      r.entry_dim.back() = out.size();
      full_dim();
    } else if (const auto* s = std::get_if<Slice>(&v)) {
      const SliceBounds b = slice_bounds(*s, shape[k]);
      m.offset[k] = b.length > 0 ? b.start : 0;
      // The step of a dim of at most one element is never applied: 1 keeps a huge step out of
      // the stride products composed later.
      r.entry_dim.back() = out.size();
      add_out(k, b.length > 1 ? b.step : 1, b.length);
      ++k;
    } else if (std::holds_alternative<NewAxis>(v)) {
      r.entry_dim.back() = out.size();
      add_out(-1, 0, 1);
    } else {  // ellipsis: the dims no other entry consumes
      for (int q = nd - consumed; q > 0; --q) full_dim();
    }
  }
  while (k < nd) full_dim();
  m.out_ndim = out.size();
  return r;
}

Array basic_view(const Array& x, std::span<const Index> idx) {
  const NodeRef n = leaf_of(x, "index");
  const BasicIndex b = basic_index(n->shape, idx);
  return Array(view_node(n, b.map, b.shape));
}

}  // namespace detail

// An integer or a slice is a basic index: a view, whatever layer asks (x[{...}] may hold index
// arrays: lib/index/array_index.cpp).
Array Array::operator[](std::int64_t i) const& { return detail::basic_view(*this, std::vector<Index>{Index(i)}); }
Array Array::operator[](Slice s) const& { return detail::basic_view(*this, std::vector<Index>{Index(s)}); }

Array Array::astype(DType dtype) const { return loom::astype(*this, dtype); }
Array Array::copy() const {
  return Array(detail::make_copy(detail::leaf_of(*this, "copy"), false));
}
Array Array::real() const { return loom::real(*this); }
Array Array::imag() const { return loom::imag(*this); }
Array Array::conj() const { return loom::conj(*this); }

}  // namespace loom
