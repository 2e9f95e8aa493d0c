// Advanced indexing and writes (include/loom/array.hpp, include/loom/indexing.hpp), built from
// one graph node, Op::Gather (a read at computed positions), and the elementwise ops:
//   x[int arrays]     the positions in x, an int64 expression of the index arrays and aranges,
//                     fused into the gather's kernel (NumPy's rules for where the dims go)
//   x[basic] = v      where(in the region, v read at the region position, x) over x's shape: a
//                     chain of writes is one kernel (nested wheres)
//   x[mask] = v       where(mask, v, x)
// Here, not in lib/api, because an index may hold bool arrays, which nonzero (a library call)
// turns into integer arrays.

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "index/write_helpers.hpp"
#include "exec/write_notes.hpp"
#include "graph/node.hpp"

namespace loom {

using detail::NodeRef;

namespace {

Array as_i64(const Array& a) { return a.dtype() == DType::Int64 ? a : astype(a, DType::Int64); }

// A 1-d arange along `axis` of an ndim-dimensional broadcast: shape (1, .., n, .., 1); int64, or
// int32 (cheaper index arithmetic in the kernel) where the caller knows no product of it with a
// stride is taken beyond 2^31.
Array coord(std::int64_t n, int axis, int ndim, DType dtype = DType::Int64) {
  Shape s;
  for (int d = 0; d < ndim; ++d) s.push_back(d == axis ? n : 1);
  return arange(Scalar::of(std::int64_t{0}, false), Scalar::of(n, false), Scalar::of(std::int64_t{1}, false), dtype)
      .reshape(s);
}

// Arrays of fewer elements than this index in int32 arithmetic.
constexpr std::int64_t kNarrowIndex = std::int64_t{1} << 31;

Array i64_scalar(std::int64_t v) { return astype(Array(v), DType::Int64); }

// idx counted from the end where negative, each checked against n by the kernel that computes
// it (Op::CheckIndex): an index out of bounds raises NumPy's IndexError at the next
// synchronization (on the host: when evaluated).
Array checked_index(const Array& idx, std::int64_t n, int axis) {
  const Array i = as_i64(idx);
  return Array(detail::make_elementwise(detail::Op::CheckIndex, DType::Int64, i.shape(), i.node(),
                                        detail::make_constant(Scalar::of(n, false), false),
                                        detail::make_constant(Scalar::of(std::int64_t{axis}, false), false)));
}

Array normalized(const Array& idx, std::int64_t n) { return where(idx < 0, idx + n, idx); }

// The integer arrays of an index (bool arrays become their nonzero() arrays, integers 0-d
// arrays when any array is present, as NumPy does).
std::vector<Index> expand_masks(std::span<const Index> idx) {
  std::vector<Index> out;
  for (const Index& e : idx) {
    if (const auto* a = std::get_if<IndexArray>(&e.value())) {
      const Array arr(a->node);
      if (arr.dtype() == DType::Bool) {
        for (const Array& nz : nonzero(arr)) out.emplace_back(nz);
        continue;
      }
      if (!is_integer(arr.dtype())) throw IndexError("arrays used as indices must be of integer (or boolean) type");
      out.push_back(e);
    } else if (const auto* i = std::get_if<std::int64_t>(&e.value())) {
      out.emplace_back(i64_scalar(*i));
    } else {
      out.push_back(e);
    }
  }
  return out;
}

// Coordinates over a view's input from coordinates over the view (map m): offset + coef * the
// view dim's coordinate. An invalid array stands for 0.
std::vector<Array> map_coords(const detail::IndexMap& m, const std::vector<Array>& coords) {
  std::vector<Array> in(static_cast<std::size_t>(m.in_ndim));
  for (int k = 0; k < m.in_ndim; ++k) {
    if (m.offset[k] != 0) in[static_cast<std::size_t>(k)] = Array(m.offset[k]);  // weak: keeps int32 coordinates
  }
  for (int i = 0; i < m.out_ndim; ++i) {
    const Array& c = coords[static_cast<std::size_t>(i)];
    if (m.dim[i] < 0 || !c.valid() || m.coef[i] == 0) continue;
    Array& t = in[static_cast<std::size_t>(m.dim[i])];
    const Array term = m.coef[i] == 1 ? c : c * m.coef[i];
    t = t.valid() ? t + term : term;
  }
  return in;
}

// The gather of node n at coordinates coords (one int64 array per dim of n, broadcasting to
// `shape`; invalid: 0). Views are read through their maps; an elementwise expression of modest
// size is rebuilt over the gathered reads of its inputs (the stencil in u[1:-1] = f(u[:-2], u[2:])
// reads u at the written positions, in the write's kernel); what is left (a leaf, or a computed
// array: materialized once) is the gather's source.
class GatherSink {
 public:
  explicit GatherSink(Shape shape) : shape_(std::move(shape)) {}
  void no_rebuild() { budget_ = 0; }

  NodeRef at(NodeRef n, std::vector<Array> coords) {
    // Through views, evaluated ones too: a gather from their base needs no unravelling of a
    // strided layout (a division per dim and element) when the base is contiguous.
    while (n->op == detail::Op::View) {
      coords = map_coords(n->map(), coords);
      n = n->inputs[0];
    }
    if (n->op == detail::Op::Constant && n->shape.empty()) return n;
    // A strided buffer (a view of an evaluated array): read its storage as one 1-d buffer at
    // offset + sum(coordinate * stride), with no unravelling of the layout in the kernel; views
    // of one array share that buffer (one kernel argument for the stencil's five reads).
    if (n->op == detail::Op::Buffer && n->storage() &&
        !(n->offset() == 0 && is_c_contiguous(n->shape, n->strides()))) {
      const std::int64_t elems = static_cast<std::int64_t>(n->storage()->nbytes() / itemsize(n->dtype));
      const bool narrow = elems < kNarrowIndex;
      Array lin = narrow ? Array(n->offset()) : i64_scalar(n->offset());
      for (int d = 0; d < n->shape.size(); ++d) {
        const Array& c = coords[static_cast<std::size_t>(d)];
        if (!c.valid() || n->strides()[d] == 0 || n->shape[d] == 1) continue;
        lin = lin + (narrow ? c : as_i64(c)) * n->strides()[d];
      }
      const NodeRef base = detail::make_buffer(n->storage(), n->dtype, Shape{elems}, Shape{1}, 0);
      return detail::make_gather(base, detail::leaf_of(as_i64(lin).broadcast_to(shape_), "gather"));
    }
    if (!n->realized() && budget_ > 0 && (detail::is_elementwise(n->op) && n->op != detail::Op::Gather &&
                                                      n->op != detail::Op::Place)) {
      --budget_;
      std::array<NodeRef, 3> in;
      for (int i = 0; i < n->num_inputs; ++i) in[static_cast<std::size_t>(i)] = at(n->inputs[static_cast<std::size_t>(i)], coords);
      const auto fit = [&](const NodeRef& x) { return x ? detail::operand_node(x, shape_) : nullptr; };
      if (n->op == detail::Op::Cast) return detail::make_cast(fit(in[0]), n->dtype);
      return detail::make_elementwise(n->op, n->dtype, shape_, fit(in[0]), fit(in[1]), fit(in[2]));
    }
    const Shape cs = contiguous_strides(n->shape);
    const bool narrow = n->shape.numel() < kNarrowIndex;  // positions fit int32: int32 coordinates stay so
    Array lin;
    for (int d = 0; d < n->shape.size(); ++d) {
      const Array& c0 = coords[static_cast<std::size_t>(d)];
      if (!c0.valid() || cs[d] == 0 || n->shape[d] == 1) continue;
      const Array c = narrow ? c0 : as_i64(c0);
      const Array term = cs[d] == 1 ? c : c * cs[d];
      lin = lin.valid() ? lin + term : term;
    }
    if (!lin.valid()) lin = i64_scalar(0);
    // A generator (arange, linspace, eye) has no buffer to read: materialized first.
    const bool generator = !n->realized() && (n->op == detail::Op::Arange || n->op == detail::Op::Linspace ||
                                              n->op == detail::Op::Eye);
    const NodeRef src = generator ? detail::make_copy(n, true) : detail::as_leaf(n);
    return detail::make_gather(src, detail::leaf_of(as_i64(lin).broadcast_to(shape_), "gather"));
  }

 private:
  Shape shape_;
  int budget_ = 64;  // elementwise nodes rebuilt at most (then the rest is materialized)
};

// Whether the expression n is worth rebuilding at gathered positions: elementwise ops and views
// over leaves, at most 32 ops, no gather (a chain of writes is read from memory instead).
bool sinkable(const detail::Node* root) {
  std::vector<const detail::Node*> stack{root}, seen{root};
  int ops = 0;
  while (!stack.empty()) {
    const detail::Node* n = stack.back();
    stack.pop_back();
    if (detail::acts_as_leaf(*n)) continue;
    if (n->op == detail::Op::Gather || n->op == detail::Op::Place || !(detail::is_elementwise(n->op) || n->op == detail::Op::View)) return false;
    if (++ops > 32) return false;
    for (int i = 0; i < n->num_inputs; ++i) {
      const detail::Node* in = n->inputs[static_cast<std::size_t>(i)].get();
      if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
      seen.push_back(in);
      stack.push_back(in);
    }
  }
  return true;
}

Array gather_at(const Array& src, std::vector<Array> coords, const Shape& shape) {
  const NodeRef n = detail::leaf_of(src, "gather");
  GatherSink sink(shape);
  if (!sinkable(n.get())) sink.no_rebuild();
  const Array r(sink.at(n, std::move(coords)));
  return r.shape() == shape ? r : r.broadcast_to(shape);  // a constant source stays one value
}

// src read at C-order positions lin of its elements (take without an axis).
Array gather_flat(const Array& src, const Array& lin) {
  return Array(detail::make_gather(detail::leaf_of(src, "take"), detail::leaf_of(as_i64(lin), "take")));
}

}  // namespace

namespace calls {
Array gather_positions(const Array& src, std::vector<Array> coords, const Shape& shape) {
  return gather_at(src, std::move(coords), shape);
}
Array gather_flat_positions(const Array& src, const Array& lin) { return gather_flat(src, lin); }
Array checked_positions(const Array& idx, std::int64_t n, int axis) { return checked_index(idx, n, axis); }
}  // namespace calls

namespace detail {

Array advanced_index(const Array& x, std::span<const Index> idx_in, bool check, Array* positions) {
  const std::vector<Index> idx = expand_masks(idx_in);
  const BasicIndex b = basic_index(x.shape(), idx);
  // The advanced entries: their arrays, view dims (each keeps its whole axis in the view).
  std::vector<Array> arrays;
  std::vector<int> vdims;
  for (std::size_t e = 0; e < idx.size(); ++e) {
    if (const auto* a = std::get_if<IndexArray>(&idx[e].value())) {
      const int vd = b.entry_dim[e];
      const std::int64_t n = b.shape[vd];
      Array arr = as_i64(Array(a->node));
      arrays.push_back(check ? checked_index(arr, n, b.entry_axis[e]) : normalized(arr, n));
      vdims.push_back(vd);
    }
  }
  Shape bshape;
  for (const Array& a : arrays) {
    try {
      bshape = detail::broadcast_shapes(bshape, a.shape());
    } catch (const ShapeError&) {
      std::string shapes;
      for (const Array& q : arrays) shapes += compact(q.shape()) + " ";
      throw IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
    }
  }
  // NumPy: advanced dims replace the first advanced entry's dims when the entries are next to
  // each other, else they go first.
  const bool adjacent = vdims.back() - vdims.front() == static_cast<int>(vdims.size()) - 1;
  const int at = adjacent ? vdims.front() : 0;
  Shape rshape;
  std::vector<int> rpos(static_cast<std::size_t>(b.shape.size()), -1);  // view dim -> result dim
  const auto is_adv = [&](int i) { return std::find(vdims.begin(), vdims.end(), i) != vdims.end(); };
  for (int i = 0; i < b.shape.size(); ++i) {
    if (i == at && adjacent) {
      for (int d = 0; d < bshape.size(); ++d) rshape.push_back(bshape[d]);
    }
    if (i == 0 && !adjacent) {
      for (int d = 0; d < bshape.size(); ++d) rshape.push_back(bshape[d]);
    }
    if (is_adv(i)) continue;
    rpos[static_cast<std::size_t>(i)] = rshape.size();
    rshape.push_back(b.shape[i]);
  }
  const int bfirst = adjacent ? [&] {
    int c = 0;
    for (int i = 0; i < at; ++i) c += is_adv(i) ? 0 : 1;
    return c;
  }() : 0;
  std::vector<Array> coords(static_cast<std::size_t>(b.shape.size()));
  for (std::size_t j = 0; j < arrays.size(); ++j) {
    // The broadcast index, its dims at bfirst.. of the result.
    Shape s;
    for (int d = 0; d < rshape.size(); ++d) {
      const int bd = d - bfirst - (bshape.size() - arrays[j].ndim());
      s.push_back(d >= bfirst && d < bfirst + bshape.size() && bd >= 0 ? arrays[j].shape()[bd] : 1);
    }
    coords[static_cast<std::size_t>(vdims[j])] = arrays[j].reshape(s);
  }
  for (int i = 0; i < b.shape.size(); ++i) {
    if (!is_adv(i) && b.shape[i] > 1) coords[static_cast<std::size_t>(i)] = coord(b.shape[i], rpos[static_cast<std::size_t>(i)], rshape.size());
  }
  if (positions) {  // x's C-order positions of the result's elements (a scatter's targets)
    const std::vector<Array> xc = map_coords(b.map, coords);
    const Shape cs = contiguous_strides(x.shape());
    Array lin = i64_scalar(0);
    for (int d = 0; d < x.ndim(); ++d) {
      if (xc[static_cast<std::size_t>(d)].valid() && x.shape()[d] > 1) lin = lin + xc[static_cast<std::size_t>(d)] * cs[d];
    }
    *positions = as_i64(lin).broadcast_to(rshape);
  }
  return gather_at(x, map_coords(b.map, coords), rshape);
}

}  // namespace detail

Array take(const Array& a, const Array& indices, std::optional<int> axis, TakeMode mode) {
  if (!is_integer(indices.dtype())) {  // (NumPy casts the indices to intp, same_kind)
    throw DTypeError(fmt::format("Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'same_kind'",
                                 name(indices.dtype())));
  }
  const int ax = axis ? detail::normalize_axis(*axis, a.ndim()) : 0;
  const std::int64_t n = axis ? a.shape()[ax] : a.size();
  Array idx = as_i64(indices);
  if (mode != TakeMode::Raise && idx.size() > 0 && n == 0) {
    throw IndexError("cannot do a non-empty take from an empty axes.");
  }
  switch (mode) {
    case TakeMode::Raise: idx = checked_index(idx, n, ax); break;
    case TakeMode::Wrap: idx = remainder(idx, n); break;
    case TakeMode::Clip: idx = clip(idx, 0, n - 1); break;
  }
  if (!axis) return gather_flat(a, idx);  // positions in a.flat
  std::vector<Index> e(static_cast<std::size_t>(ax), Index(Slice()));
  e.emplace_back(idx);
  return detail::advanced_index(a, e, false);  // in range now
}

namespace {

// take_along_axis's and put_along_axis's positions: the coordinates of arr read or written at
// each element of the broadcast result (`shape`), the indices checked and normalized on `axis`.
struct AlongAxis {
  std::vector<Array> coords;
  Shape shape;
};
AlongAxis along_axis(const Array& arr, const Array& indices, int axis, const char* op) {
  if (!is_integer(indices.dtype())) throw IndexError(fmt::format("{}: `indices` must be an integer array", op));
  if (indices.ndim() != arr.ndim()) {
    throw ValueError("`indices` and `arr` must have the same number of dimensions");
  }
  const int ax = detail::normalize_axis(axis, arr.ndim());
  const std::int64_t n = arr.shape()[ax];
  Array idx = as_i64(indices);
  idx = checked_index(idx, n, ax);
  Shape lhs = arr.shape();
  lhs[ax] = 1;
  Shape rhs = idx.shape();
  rhs[ax] = 1;
  AlongAxis r;
  r.shape = detail::broadcast_shapes(lhs, rhs);
  r.shape[ax] = idx.shape()[ax];
  r.coords.resize(static_cast<std::size_t>(arr.ndim()));
  for (int d = 0; d < arr.ndim(); ++d) {
    if (d == ax) {
      r.coords[static_cast<std::size_t>(d)] = idx;
    } else if (arr.shape()[d] > 1) {
      r.coords[static_cast<std::size_t>(d)] = coord(arr.shape()[d], d, arr.ndim());
    }
  }
  return r;
}

}  // namespace

Array take_along_axis(const Array& a, const Array& indices, std::optional<int> axis) {
  if (!axis) {  // NumPy's axis=None: a flattened, read along its one axis
    if (indices.ndim() != 1) throw ValueError("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(a.reshape({a.size()}), indices, 0);
  }
  const AlongAxis p = along_axis(a, indices, *axis, "take_along_axis");
  return gather_at(a, p.coords, p.shape);
}

void put_along_axis(Array& arr, const Array& indices, const Array& values, int axis) {
  const AlongAxis p = along_axis(arr, indices, axis, "put_along_axis");
  const Shape cs = contiguous_strides(arr.shape());
  Array lin = i64_scalar(0);
  for (int d = 0; d < arr.ndim(); ++d) {
    if (p.coords[static_cast<std::size_t>(d)].valid()) lin = lin + p.coords[static_cast<std::size_t>(d)] * cs[d];
  }
  arr = detail::scatter_set(arr, as_i64(lin).broadcast_to(p.shape), calls::fit_value(values, p.shape).broadcast_to(p.shape));
}

// --- writes (NumPy's ufuncs and casting for them: write_helpers.cpp) ---

namespace {

using calls::combine;
using calls::fit_value;
using calls::ufunc_name;

// The write as a piece placed over x (Op::Place) when the region is a box (unit steps): the
// piece reads x's region and v in the box's shape, and the kernel reads each of x and the piece
// only where it lands (a chain of writes is one kernel that reads x once).
std::optional<Array> write_box(const Array& x, const detail::BasicIndex& b, const Array& v, WriteOp op) {
  const int nd = x.ndim();
  detail::IndexMap to_box = detail::IndexMap::identity(nd);
  Shape start = Shape::filled(nd, 0), ext = Shape::filled(nd, 1);
  for (int d = 0; d < nd; ++d) start[d] = to_box.offset[d] = b.map.offset[d];
  for (int i = 0; i < b.map.out_ndim; ++i) {
    if (b.map.dim[i] < 0) continue;  // a new axis
    if (b.map.coef[i] != 1) return std::nullopt;
    ext[b.map.dim[i]] = b.shape[i];
  }
  // v over the region (the index's dims), then in the box's (x's dims): unit dims dropped and
  // added, a view.
  const Array vbox = v.broadcast_to(b.shape).reshape(ext);
  const Array xbox(detail::view_node(detail::leaf_of(x, "write"), to_box, ext));
  const Array updated = combine(op, xbox, vbox);
  const Array piece = (updated.dtype() == x.dtype() ? updated : astype(updated, x.dtype())).broadcast_to(ext);
  return detail::place(piece, start, x.shape(), x);
}

// x with its elements in the region of a basic index combined with v.
Array write_basic(const Array& x, std::span<const Index> idx, const Array& v_in, WriteOp op) {
  const detail::BasicIndex b = detail::basic_index(x.shape(), idx);
  const Array v = fit_value(v_in, b.shape);
  if (b.shape.numel() == 0) return x;
  if (auto placed = write_box(x, b, v, op)) return *placed;
  const int nd = x.ndim();
  // For each axis of x: the view dim that runs along it (-1: fixed by an integer index).
  std::vector<int> along(static_cast<std::size_t>(nd), -1);
  for (int i = 0; i < b.map.out_ndim; ++i) {
    if (b.map.dim[i] >= 0) along[static_cast<std::size_t>(b.map.dim[i])] = i;
  }
  Array mask;
  std::vector<Array> rcoord(static_cast<std::size_t>(b.shape.size()));  // region coordinates on x's axes
  // Coordinates compare with offsets and extents of x and index v (no larger than the region):
  // int32 arithmetic where x is small enough.
  const DType cdt = x.size() < kNarrowIndex ? DType::Int32 : DType::Int64;
  for (int d = 0; d < nd; ++d) {
    const std::int64_t n = x.shape()[d], o = b.map.offset[d];
    const int i = along[static_cast<std::size_t>(d)];
    const Array xd = coord(n, d, nd, cdt);
    Array in;
    if (i < 0) {
      in = xd == o;
    } else {
      const std::int64_t c = b.map.coef[i], len = b.shape[i];
      if (len == n && c == 1) continue;  // the whole axis
      const Array rel = xd - o;
      Array r = c == 1 ? rel : floor_divide(rel, c);
      in = c == 1 ? (rel >= 0) & (rel < len)
                  : (remainder(rel, c) == 0) & (r >= 0) & (r < len);
      if (len > 1) rcoord[static_cast<std::size_t>(i)] = clip(r, 0, len - 1);
    }
    mask = mask.valid() ? (mask & in) : in;
  }
  for (int d = 0; d < nd; ++d) {  // whole axes: their coordinate is x's own
    const int i = along[static_cast<std::size_t>(d)];
    if (i >= 0 && !rcoord[static_cast<std::size_t>(i)].valid() && b.shape[i] > 1) rcoord[static_cast<std::size_t>(i)] = coord(x.shape()[d], d, nd, cdt);
  }
  // The value at each position of x: v at the region position (v's dims align with the last
  // region dims; a dim of 1 is read at 0).
  Array vals = v;
  if (v.size() > 1) {
    std::vector<Array> vc(static_cast<std::size_t>(v.ndim()));
    const int lead = b.shape.size() - v.ndim();
    for (int j = 0; j < v.ndim(); ++j) {
      if (v.shape()[j] > 1) vc[static_cast<std::size_t>(j)] = rcoord[static_cast<std::size_t>(j + lead)];
    }
    vals = gather_at(v, vc, x.shape());
  } else if (v.ndim() > 0) {
    vals = v.reshape({});
  }
  const Array updated = combine(op, x, vals);
  const Array cast = updated.dtype() == x.dtype() ? updated : astype(updated, x.dtype());
  return mask.valid() ? where(mask, cast, x) : cast.broadcast_to(x.shape());
}

// The values of a packed mask assignment, at every position of x: the k-th True of the mask (C
// order) takes v[k] (v of shape (count,) + the dims the mask leaves, or broadcasting to it). The
// count is read to check v against it (one synchronization, as NumPy's check); the positions
// come from a scan of the mask (cumsum, a barrier), the values by a gather.
Array packed_values(const Array& x, const Array& mask, const Array& v, const Shape& trailing) {
  const std::int64_t count = count_nonzero(mask).item<std::int64_t>();
  Shape want{count};
  for (int d = 0; d < trailing.size(); ++d) want.push_back(trailing[d]);
  Array vv = v;
  if (v.ndim() < want.size()) {  // leading dims of 1, as broadcasting adds them
    Shape s;
    for (int d = v.ndim(); d < want.size(); ++d) s.push_back(1);
    for (int d = 0; d < v.ndim(); ++d) s.push_back(v.shape()[d]);
    vv = v.reshape(s);
  }
  bool ok = vv.ndim() == want.size();
  for (int d = 0; ok && d < want.size(); ++d) ok = vv.shape()[d] == want[d] || vv.shape()[d] == 1;
  if (!ok) {
    if (trailing.size() == 0) {
      throw ValueError(fmt::format("NumPy boolean array indexing assignment cannot assign {} input values to the {} "
                                   "output values where the mask is true",
                                   v.size(), count));
    }
    calls::broadcast_error(v.shape(), want);
  }
  if (count == 0) return x;  // nothing is written
  const int lead = mask.ndim();
  // k for each position of the mask's dims (valid where the mask is True).
  const Array k = (cumsum(mask.ravel(), std::nullopt, DType::Int64) - 1).reshape(mask.shape());
  Shape kshape = mask.shape();
  for (int d = 0; d < trailing.size(); ++d) kshape.push_back(1);
  std::vector<Array> coords(static_cast<std::size_t>(vv.ndim()));
  if (vv.shape()[0] > 1) coords[0] = clip(k, 0, count - 1).reshape(kshape);
  for (int d = 0; d < trailing.size(); ++d) {
    if (vv.shape()[d + 1] > 1) coords[static_cast<std::size_t>(d + 1)] = coord(trailing[d], lead + d, x.ndim());
  }
  return gather_at(vv, coords, x.shape());
}

// x with the elements a bool mask selects combined with v (a value for all of them: a 0-d or
// size-1 array, or one row of the dims the mask leaves).
Array write_mask(const Array& x, const Array& mask, const Array& v, WriteOp op) {
  const auto [trailing, mshape] = calls::mask_dims(x, mask);
  Array val = v;
  if (v.size() != 1) {
    // One value for all (broadcast to the dims the mask leaves), or NumPy's packed form: v holds
    // the values of the selected elements (or sub-arrays) in C order, one per True.
    Shape vt = v.shape();
    bool row = vt.size() <= trailing.size();
    for (int d = 0; row && d < vt.size(); ++d) {
      const std::int64_t want = trailing[trailing.size() - vt.size() + d];
      row = vt[d] == 1 || vt[d] == want;
    }
    if (!row) val = packed_values(x, mask, v, trailing);
  } else if (v.ndim() > 0) {
    val = v.reshape({});
  }
  const Array updated = combine(op, x, val);
  const Array cast = updated.dtype() == x.dtype() ? updated : astype(updated, x.dtype());
  return where(mask.reshape(mshape), cast, x);
}

}  // namespace

namespace detail {

Array write(const Array& x, std::span<const Index> idx, const Array& v, WriteOp op) {
  bool arrays = false;
  for (const Index& e : idx) arrays = arrays || std::holds_alternative<IndexArray>(e.value());
  if (!arrays) return write_basic(x, idx, v, op);
  if (idx.size() == 1) {
    const Array m(std::get<IndexArray>(idx[0].value()).node);
    if (m.dtype() == DType::Bool) return write_mask(x, m, v, op);
  }
  // Integer arrays: NumPy's x[idx] op= v is x[idx] = x[idx] op v, each position written once,
  // the last of duplicates winning (C order of the index).
  Array pos;
  const Array cur = advanced_index(x, idx, true, &pos);
  Array vb;
  try {
    vb = fit_value(v, cur.shape()).broadcast_to(cur.shape());
  } catch (const ValueError&) {
    throw ValueError(fmt::format("shape mismatch: value array of shape {} could not be broadcast to indexing result of shape {}",
                                 compact(v.shape()), compact(cur.shape())));
  }
  Array ran;
  Array r = scatter_set(x, pos, combine(op, cur, vb), &ran);
  calls::defer_index_check(ran, pos);
  return r;
}

// x with x.flat[pos[k]] = val[k] (pos in range; of duplicates the last in C order wins): a
// stable sort of the positions (a barrier), then for each element of x a binary search for the
// last write to it (a barrier), and a gather of its value. Deterministic.
Array scatter_set(const Array& x, const Array& pos, const Array& val, Array* ran) {
  const std::int64_t m = pos.size();
  if (m == 0 || x.size() == 0) return x;
  const Array pf = pos.reshape({m});
  const Array vf = val.broadcast_to(pos.shape()).reshape({m});
  const Array order = argsort(pf);
  if (ran) *ran = order;
  const Array sorted = take(pf, order, std::nullopt, TakeMode::Clip);
  const Array here = arange(Scalar::of(std::int64_t{0}, false), Scalar::of(x.size(), false),
                            Scalar::of(std::int64_t{1}, false), DType::Int64);
  const Array j = searchsorted(sorted, here, "right") - 1;
  const Array jc = clip(j, 0, m - 1);
  const Array written = (j >= 0) & (take(sorted, jc, std::nullopt, TakeMode::Clip) == here);
  const Array k = take(order, jc, std::nullopt, TakeMode::Clip);
  const Array got = take(vf, k, std::nullopt, TakeMode::Clip);
  const Array cast = got.dtype() == x.dtype() ? got : astype(got, x.dtype());
  return where(written.reshape(x.shape()), cast.reshape(x.shape()), x);
}

}  // namespace detail

// --- the handles ---

Array AtRef::get() const { return base_.index(index_); }
Array AtRef::apply(WriteOp op, const Array& v, Accumulate how) const {
  // JAX's x.at[idx].add(v) combines every duplicate (np.add.at); NumPy's x[idx] += v keeps the
  // last one's result.
  calls::check_write(op, base_.dtype(), v);
  if (op == WriteOp::Set) return detail::write(base_, index_, v, op);
  return detail::accumulate(base_, index_, v, op, how);
}
Array AtRef::set(const Array& v) const { return apply(WriteOp::Set, v); }
Array AtRef::add(const Array& v, Accumulate how) const { return apply(WriteOp::Add, v, how); }
Array AtRef::subtract(const Array& v, Accumulate how) const { return apply(WriteOp::Subtract, v, how); }
Array AtRef::multiply(const Array& v, Accumulate how) const { return apply(WriteOp::Multiply, v, how); }
Array AtRef::divide(const Array& v, Accumulate how) const { return apply(WriteOp::Divide, v, how); }
Array AtRef::power(const Array& v) const { return apply(WriteOp::Power, v); }
Array AtRef::min(const Array& v, Accumulate how) const { return apply(WriteOp::Min, v, how); }
Array AtRef::max(const Array& v, Accumulate how) const { return apply(WriteOp::Max, v, how); }

AtRef Array::at(const Index& index) const { return AtRef(*this, std::vector<Index>{index}); }
AtRef Array::at(std::initializer_list<Index> index) const { return AtRef(*this, std::vector<Index>(index)); }
AtRef Array::at(std::span<const Index> index) const { return AtRef(*this, std::vector<Index>(index.begin(), index.end())); }

namespace {

// x[mask] as IndexRef defers it: x's value when the index was taken, and the read once made.
struct MaskRead final : detail::PendingRead {
  MaskRead(Array x_, Array mask_) : x(std::move(x_)), mask(std::move(mask_)) {}
  NodePtr read() const override { return static_cast<const Array&>(x)[mask].node(); }
  Array x, mask;
};

}  // namespace

IndexRef::IndexRef(Array& target, std::vector<Index> index) : target_(&target), index_(std::move(index)) {
  // One boolean mask of one or more dims: checked now (errors at the user's line), read when
  // the reference is first used as an array.
  const auto* arr = index_.size() == 1 ? std::get_if<IndexArray>(&index_[0].value()) : nullptr;
  if (arr && arr->node && arr->node->dtype == DType::Bool && arr->node->shape.size() > 0) {
    const Array mask(arr->node);
    calls::mask_dims(Array(detail::leaf_of(target, "boolean index")), mask);
    pending_ = std::make_shared<MaskRead>(target, mask);
    return;
  }
  static_cast<Array&>(*this) = static_cast<const Array&>(target).index(index_);
}

// x[index] = v and x[index] op= v: into x's buffer when nothing else holds it (the region's
// bytes move, not the array's), else a new lazy value.
void IndexRef::write(WriteOp op, const Array& v) {
  if (!target_) throw ValueError("this reference was assigned an array of its own: it no longer writes into one");
  // A deferred read nothing else shares is never needed: dropped, it holds x no longer.
  // (One a copy of this reference shares holds x's old value: not in place, and not built here.)
  if (pending_.use_count() == 1) pending_.reset();
  calls::check_write(op, target_->dtype(), v);  // NumPy's checks of the value, before anything is built
  const std::string why_not = detail::write_in_place(*target_, index_, v, op, pending_ ? nullptr : this);
  if (why_not.empty()) return;
  *target_ = detail::write(*target_, index_, v, op);
  exec::note_write(target_->node(), "a write: a new array, not in place (" + why_not + ")");
}
// A named reference (auto y = x[i]) assigned a value becomes that value, as NumPy rebinds y.
IndexRef& IndexRef::operator=(const Array& v) & {
  static_cast<Array&>(*this) = v;
  target_ = nullptr;
  index_.clear();
  return *this;
}
IndexRef& IndexRef::operator=(const IndexRef& v) & { return *this = static_cast<const Array&>(v); }
void IndexRef::operator=(const Array& v) && { write(WriteOp::Set, v); }
void IndexRef::operator=(const IndexRef& v) && { write(WriteOp::Set, static_cast<const Array&>(v)); }
void IndexRef::operator+=(const Array& v) && { write(WriteOp::Add, v); }
void IndexRef::operator-=(const Array& v) && { write(WriteOp::Subtract, v); }
void IndexRef::operator*=(const Array& v) && { write(WriteOp::Multiply, v); }
void IndexRef::operator/=(const Array& v) && { write(WriteOp::Divide, v); }
void IndexRef::operator%=(const Array& v) && { write(WriteOp::Remainder, v); }
void IndexRef::operator&=(const Array& v) && { write(WriteOp::BitAnd, v); }
void IndexRef::operator|=(const Array& v) && { write(WriteOp::BitOr, v); }
void IndexRef::operator^=(const Array& v) && { write(WriteOp::BitXor, v); }
void IndexRef::operator<<=(const Array& v) && { write(WriteOp::LeftShift, v); }
void IndexRef::operator>>=(const Array& v) && { write(WriteOp::RightShift, v); }

namespace {

// x op= v on the whole array: NumPy's in-place ufunc (out=x, casting="same_kind").
Array& update(Array& x, WriteOp op, const Array& v) {
  const Array y = combine(op, x, v);
  if (y.shape() != x.shape()) {
    throw ValueError(fmt::format("non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
                                 detail::compact(x.shape()), detail::compact(y.shape())));
  }
  calls::check_same_kind(op, y.dtype(), x.dtype());
  x = y.dtype() == x.dtype() ? y : astype(y, x.dtype());
  return x;
}

}  // namespace

Array& Array::operator+=(const Array& v) & { return update(*this, WriteOp::Add, v); }
Array& Array::operator-=(const Array& v) & { return update(*this, WriteOp::Subtract, v); }
Array& Array::operator*=(const Array& v) & { return update(*this, WriteOp::Multiply, v); }
Array& Array::operator/=(const Array& v) & { return update(*this, WriteOp::Divide, v); }
Array& Array::operator%=(const Array& v) & { return update(*this, WriteOp::Remainder, v); }
Array& Array::operator&=(const Array& v) & { return update(*this, WriteOp::BitAnd, v); }
Array& Array::operator|=(const Array& v) & { return update(*this, WriteOp::BitOr, v); }
Array& Array::operator^=(const Array& v) & { return update(*this, WriteOp::BitXor, v); }
Array& Array::operator<<=(const Array& v) & { return update(*this, WriteOp::LeftShift, v); }
Array& Array::operator>>=(const Array& v) & { return update(*this, WriteOp::RightShift, v); }

}  // namespace loom
