// Joining and splitting (include/loom/manipulation.hpp). A concatenation is a chain of Op::Place
// nodes: each input placed at its offset along the axis over the ones before, so the kernel that
// consumes it reads every input only where it lands (concatenate itself, which joins many
// evaluated arrays with a batched copy instead, is in lib/calls/joining_calls.cpp). Splits are
// views.

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "api/positions.hpp"

namespace loom {

using detail::NodeRef;

namespace detail {

Array reshaped(const Array& a, const Shape& shape) {
  if (a.shape() == shape) return a;
  const NodeRef n = leaf_of(a, "reshape");
  if (n->op == Op::Buffer) return a.reshape(shape);  // a strided view where NumPy has one
  return Array(make_reshape(n, shape));                // read in C order by the consumer's kernel
}

namespace {

// The box masks of placed pieces, by (shape, start, piece shape), made once per thread: a region
// write or a concatenation builds the same masks every call (a heat step: five), and building one
// is ~10 nodes through the public ops (~2 us a write on the host, bench_indexing). Masks read no
// memory (coordinates compared with constants), so keeping a few hundred alive costs nothing.
class MaskCache {
 public:
  NodeRef find(const std::vector<std::int64_t>& key) const {
    const auto it = masks_.find(key);
    return it == masks_.end() ? nullptr : it->second;
  }
  void add(std::vector<std::int64_t> key, NodeRef mask) {
    if (masks_.size() >= kMaxMasks) masks_.clear();
    masks_.emplace(std::move(key), std::move(mask));
  }

 private:
  static constexpr std::size_t kMaxMasks = 256;
  std::map<std::vector<std::int64_t>, NodeRef> masks_;
};

}  // namespace

Array place(const Array& piece, const Shape& start, const Shape& shape, const Array& base) {
  const int nd = shape.size();
  std::vector<std::int64_t> key;
  key.reserve(static_cast<std::size_t>(3 * nd));
  for (int d = 0; d < nd; ++d) key.insert(key.end(), {shape[d], start[d], piece.shape()[d]});
  thread_local MaskCache cache;
  if (const NodeRef m = cache.find(key)) {
    return Array(make_place(leaf_of(piece, "place"), m, base.valid() ? leaf_of(base, "place") : nullptr, start));
  }
  const DType cdt = shape.numel() < (std::int64_t{1} << 31) ? DType::Int32 : DType::Int64;
  Array mask;
  for (int d = 0; d < nd; ++d) {
    const std::int64_t lo = start[d], hi = start[d] + piece.shape()[d];
    if (lo == 0 && hi == shape[d]) continue;
    Shape s = Shape::filled(nd, 1);
    s[d] = shape[d];
    const Array c = reshaped(arange(Scalar::of(std::int64_t{0}, false), Scalar::of(shape[d], false),
                                    Scalar::of(std::int64_t{1}, false), cdt),
                             s);
    Array in;
    if (lo > 0) in = c >= Array(lo);
    if (hi < shape[d]) in = in.valid() ? (in & (c < Array(hi))) : (c < Array(hi));
    mask = mask.valid() ? (mask & in) : in;
  }
  if (!mask.valid()) return piece;
  const NodeRef m = leaf_of(mask.broadcast_to(shape), "place");
  cache.add(std::move(key), m);
  return Array(make_place(leaf_of(piece, "place"), m, base.valid() ? leaf_of(base, "place") : nullptr, start));
}

}  // namespace detail

namespace {
detail::JoinRows g_join_rows = nullptr;
}  // namespace

void detail::install_join_rows(JoinRows f) { g_join_rows = f; }

Array detail::join_rows(const std::vector<Array>& parts, int axis, const Shape& shape) {
  if (!g_join_rows) throw InternalError("internal: concatenate: no row-copy call installed");
  return g_join_rows(parts, axis, shape);
}

// parts (of one dtype, non-empty along axis) placed one after the other over the ones before.
Array detail::place_all(const std::vector<Array>& parts, int axis) {
  Shape shape = parts[0].shape();
  for (std::size_t i = 1; i < parts.size(); ++i) shape[axis] += parts[i].shape()[axis];
  Array out;
  Shape start = Shape::filled(shape.size(), 0);
  for (const Array& a : parts) {
    out = detail::place(a, start, shape, out);
    start[axis] += a.shape()[axis];
  }
  return out;
}

namespace {

int axis_of(std::int64_t axis, int ndim) { return detail::normalize_axis(axis, ndim); }

}  // namespace

namespace {

constexpr std::size_t kMaxPieces = 8;

DType common_dtype(const std::vector<Array>& arrays) {
  DType t = arrays[0].dtype();
  for (std::size_t i = 1; i < arrays.size(); ++i) t = promote_types(t, arrays[i].dtype());
  return t;
}

bool evaluated(const Array& a) { return a.node()->op == detail::Op::Buffer; }

}  // namespace

Array concatenate(const std::vector<Array>& arrays_in, std::optional<std::int64_t> axis_in) {
  if (arrays_in.empty()) throw ValueError("need at least one array to concatenate");
  std::vector<Array> arrays;
  for (const Array& a : arrays_in) {
    detail::leaf_of(a, "concatenate");  // a handle with no array is an error
    arrays.push_back(axis_in ? a : detail::reshaped(a, {a.size()}));
  }
  const int nd = arrays[0].ndim();
  if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    if (arrays[i].ndim() != nd) {
      throw ValueError(fmt::format("all the input arrays must have same number of dimensions, but the array at "
                                   "index 0 has {} dimension(s) and the array at index {} has {} dimension(s)",
                                   nd, i, arrays[i].ndim()));
    }
  }
  const int axis = detail::normalize_axis(axis_in.value_or(0), nd);
  Shape shape = arrays[0].shape();
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    for (int d = 0; d < nd; ++d) {
      if (d != axis && arrays[i].shape()[d] != shape[d]) {
        throw ValueError(fmt::format("all the input array dimensions except for the concatenation axis must match "
                                     "exactly, but along dimension {}, the array at index 0 has size {} and the "
                                     "array at index {} has size {}",
                                     d, shape[d], i, arrays[i].shape()[d]));
      }
    }
    shape[axis] += arrays[i].shape()[axis];
  }
  const DType t = common_dtype(arrays);
  std::vector<Array> parts;
  for (const Array& a : arrays) {
    if (a.shape()[axis] > 0) parts.push_back(a.dtype() == t ? a : astype(a, t));
  }
  if (parts.empty()) return zeros(shape, t);  // every input empty along the axis
  if (parts.size() > kMaxPieces && shape.numel() > 0 && std::all_of(parts.begin(), parts.end(), evaluated)) {
    return detail::join_rows(parts, axis, shape);
  }
  while (parts.size() > kMaxPieces) {
    std::vector<Array> groups;
    for (std::size_t i = 0; i < parts.size(); i += kMaxPieces) {
      const std::vector<Array> g(parts.begin() + static_cast<std::ptrdiff_t>(i),
                                 parts.begin() + static_cast<std::ptrdiff_t>(std::min(parts.size(), i + kMaxPieces)));
      const Array joined = detail::place_all(g, axis);
      groups.push_back(g.size() == 1 ? joined : Array(detail::make_copy(detail::leaf_of(joined, "concatenate"), true)));
    }
    parts = std::move(groups);
  }
  return detail::place_all(parts, axis);
}

Array stack(const std::vector<Array>& arrays, std::int64_t axis) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const Array& a : arrays) {
    detail::leaf_of(a, "stack");
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  }
  const int ax = detail::normalize_axis(axis, arrays[0].ndim() + 1);
  const DType t = common_dtype(arrays);
  const auto ready = [t](const Array& a) { return a.dtype() == t && evaluated(a); };
  if (arrays.size() > kMaxPieces && arrays[0].size() > 0 && std::all_of(arrays.begin(), arrays.end(), ready)) {
    Shape shape = arrays[0].shape();
    shape.insert(ax, static_cast<std::int64_t>(arrays.size()));
    return detail::join_rows(arrays, ax, shape);  // the inputs as they are: no view with the new axis
  }
  std::vector<Array> ex;
  for (const Array& a : arrays) ex.push_back(a.expand_dims(ax));
  return concatenate(ex, ax);
}

namespace {

std::vector<Array> each(const std::vector<Array>& arrays, Array (*f)(const Array&)) {
  std::vector<Array> out;
  for (const Array& a : arrays) out.push_back(f(a));
  return out;
}

}  // namespace

Array hstack(const std::vector<Array>& arrays) {
  const std::vector<Array> a = each(arrays, atleast_1d);
  return concatenate(a, !a.empty() && a[0].ndim() == 1 ? 0 : 1);
}
Array vstack(const std::vector<Array>& arrays) { return concatenate(each(arrays, atleast_2d), 0); }
Array row_stack(const std::vector<Array>& arrays) { return vstack(arrays); }
Array dstack(const std::vector<Array>& arrays) { return concatenate(each(arrays, atleast_3d), 2); }

Array column_stack(const std::vector<Array>& arrays) {
  std::vector<Array> cols;
  for (const Array& a : arrays) {
    cols.push_back(a.ndim() < 2 ? detail::reshaped(a, {a.size(), 1}) : a);
  }
  return concatenate(cols, 1);
}

Array append(const Array& arr, const Array& values, std::optional<std::int64_t> axis) {
  if (!axis) return concatenate({arr, values}, std::nullopt);
  return concatenate({arr, values}, axis);
}

// --- block ---

namespace {

// Where np.block's check found the first array (or empty list) of a nesting: its index, and
// whether it ends in an empty list (NumPy's None). Its depth is the index's length, plus one for
// the empty list.
struct BlockBottom {
  std::vector<std::int64_t> index;
  bool empty = false;
  int max_ndim = 0;  // the most dims of the arrays in the nesting
  std::size_t depth() const { return index.size() + (empty ? 1 : 0); }
};

std::string block_index(const std::vector<std::int64_t>& index) {
  std::string s = "arrays";
  for (std::int64_t i : index) s += fmt::format("[{}]", i);
  return s;
}

// NumPy's _block_check_depths_match: every array at one depth, read in order.
BlockBottom block_bottom(const BlockItem& x, const std::vector<std::int64_t>& at) {
  if (x.leaf) return {at, false, x.array.ndim()};
  if (x.items.empty()) return {at, true, 0};
  const auto item_at = [&](std::size_t k) {
    std::vector<std::int64_t> i = at;
    i.push_back(static_cast<std::int64_t>(k));
    return block_bottom(x.items[k], i);
  };
  BlockBottom first = item_at(0);
  int max_ndim = first.max_ndim;
  for (std::size_t k = 1; k < x.items.size(); ++k) {
    const BlockBottom b = item_at(k);
    max_ndim = std::max(max_ndim, b.max_ndim);
    if (b.depth() != first.depth()) {
      throw ValueError(fmt::format("List depths are mismatched. First element was at depth {}, but there is an element "
                                   "at depth {} ({})",
                                   first.depth(), b.depth(), block_index(b.index)));
    }
    if (b.empty) first = b;  // an empty list at the bottom is reported
  }
  first.max_ndim = max_ndim;
  return first;
}

// The nesting joined: the level at `depth` along axis -(list_depth - depth), each array first
// given `ndim` dims with leading 1s.
Array block_join(const BlockItem& x, int list_depth, int ndim, int depth) {
  if (depth == list_depth) {
    Shape s = Shape::filled(ndim - x.array.ndim(), 1);
    for (int d = 0; d < x.array.ndim(); ++d) s.push_back(x.array.shape()[d]);
    return s.size() == x.array.ndim() ? x.array : detail::reshaped(x.array, s);
  }
  std::vector<Array> parts;
  for (const BlockItem& item : x.items) parts.push_back(block_join(item, list_depth, ndim, depth + 1));
  return concatenate(parts, -(list_depth - depth));
}

}  // namespace

Array block(const BlockItem& arrays) {
  const BlockBottom b = block_bottom(arrays, {});
  if (b.empty) throw ValueError(fmt::format("List at {} cannot be empty", block_index(b.index)));
  const int list_depth = static_cast<int>(b.depth());
  return block_join(arrays, list_depth, std::max(list_depth, b.max_ndim), 0);
}

// --- splitting ---

namespace {

std::vector<Array> split_at(const Array& a, const std::vector<std::int64_t>& points, int axis) {
  const std::int64_t n = a.shape()[axis];
  std::vector<Array> out;
  std::int64_t prev = 0;
  const auto part = [&](std::int64_t lo, std::int64_t hi) {
    lo = std::clamp<std::int64_t>(lo, 0, n);
    hi = std::clamp<std::int64_t>(hi, lo, n);
    out.push_back(a.slice(axis, lo, hi));
  };
  for (std::int64_t p : points) {
    const std::int64_t q = p < 0 ? std::max<std::int64_t>(p + n, 0) : p;
    part(prev, q);
    prev = q;
  }
  part(prev, n);
  return out;
}

std::vector<std::int64_t> section_points(std::int64_t n, std::int64_t sections) {
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  const std::int64_t each = n / sections, extra = n % sections;
  std::vector<std::int64_t> pts;
  std::int64_t at = 0;
  for (std::int64_t i = 0; i + 1 < sections; ++i) {
    at += each + (i < extra ? 1 : 0);
    pts.push_back(at);
  }
  return pts;
}

}  // namespace

std::vector<Array> array_split(const Array& a, std::int64_t sections, std::int64_t axis) {
  const int ax = axis_of(axis, a.ndim());
  return split_at(a, section_points(a.shape()[ax], sections), ax);
}
std::vector<Array> array_split(const Array& a, const std::vector<std::int64_t>& indices, std::int64_t axis) {
  return split_at(a, indices, axis_of(axis, a.ndim()));
}
std::vector<Array> split(const Array& a, std::int64_t sections, std::int64_t axis) {
  // NumPy reads the axis's length straight from the shape tuple first.
  if (axis < -a.ndim() || axis >= a.ndim()) throw IndexError("tuple index out of range");
  const int ax = axis_of(axis, a.ndim());
  if (sections > 0 && a.shape()[ax] % sections != 0) throw ValueError("array split does not result in an equal division");
  return array_split(a, sections, ax);
}
std::vector<Array> split(const Array& a, const std::vector<std::int64_t>& indices, std::int64_t axis) {
  return array_split(a, indices, axis);
}
// A braced list: NumPy's list of split points (without these, split(a, {2}) would take 2 sections).
std::vector<Array> split(const Array& a, std::initializer_list<std::int64_t> indices, std::int64_t axis) {
  return split(a, std::vector<std::int64_t>(indices), axis);
}
std::vector<Array> array_split(const Array& a, std::initializer_list<std::int64_t> indices, std::int64_t axis) {
  return array_split(a, std::vector<std::int64_t>(indices), axis);
}

namespace {

template <class S> std::vector<Array> split_dim(const Array& a, const S& s, int min_ndim, const char* name, int axis) {
  if (a.ndim() < min_ndim) {
    throw ValueError(fmt::format("{} only works on arrays of {} or more dimensions", name, min_ndim));
  }
  return split(a, s, axis);
}

}  // namespace

std::vector<Array> hsplit(const Array& a, std::int64_t s) { return split_dim(a, s, 1, "hsplit", a.ndim() > 1 ? 1 : 0); }
std::vector<Array> hsplit(const Array& a, const std::vector<std::int64_t>& s) {
  return split_dim(a, s, 1, "hsplit", a.ndim() > 1 ? 1 : 0);
}
std::vector<Array> vsplit(const Array& a, std::int64_t s) { return split_dim(a, s, 2, "vsplit", 0); }
std::vector<Array> vsplit(const Array& a, const std::vector<std::int64_t>& s) { return split_dim(a, s, 2, "vsplit", 0); }
std::vector<Array> dsplit(const Array& a, std::int64_t s) { return split_dim(a, s, 3, "dsplit", 2); }
std::vector<Array> dsplit(const Array& a, const std::vector<std::int64_t>& s) { return split_dim(a, s, 3, "dsplit", 2); }
std::vector<Array> hsplit(const Array& a, std::initializer_list<std::int64_t> s) {
  return hsplit(a, std::vector<std::int64_t>(s));
}
std::vector<Array> vsplit(const Array& a, std::initializer_list<std::int64_t> s) {
  return vsplit(a, std::vector<std::int64_t>(s));
}
std::vector<Array> dsplit(const Array& a, std::initializer_list<std::int64_t> s) {
  return dsplit(a, std::vector<std::int64_t>(s));
}

std::vector<Array> unstack(const Array& a, std::int64_t axis) {
  if (a.ndim() == 0) throw ValueError("Input array must be at least 1-d.");
  const int ax = detail::normalize_axis(axis, a.ndim(), "source");  // (NumPy moves the axis first)
  std::vector<Array> out;
  for (std::int64_t i = 0; i < a.shape()[ax]; ++i) {
    std::vector<Index> idx(static_cast<std::size_t>(ax), Index(all));
    idx.emplace_back(i);
    out.push_back(detail::basic_view(a, idx));
  }
  return out;
}

// --- delete and insert ---

namespace {

// The positions obj names along an axis of extent n, each in [0, n) (insert: [0, n]).
std::vector<std::int64_t> positions(const detail::HostPositions& obj, std::int64_t n, int axis, bool insert) {
  std::vector<std::int64_t> out;
  if (const auto* s = std::get_if<Slice>(&obj)) {
    const std::vector<Index> one{Index(*s)};
    const detail::BasicIndex b = detail::basic_index(Shape{n}, one);
    for (std::int64_t i = 0; i < b.shape[0]; ++i) out.push_back(b.map.offset[0] + b.map.coef[0] * i);
    return out;
  }
  const std::vector<std::int64_t> raw = std::holds_alternative<std::int64_t>(obj)
                                            ? std::vector<std::int64_t>{std::get<std::int64_t>(obj)}
                                            : std::get<std::vector<std::int64_t>>(obj);
  const std::int64_t hi = insert ? n : n - 1;
  for (std::int64_t p : raw) {
    if (p < -n || p > hi) {
      throw IndexError(fmt::format("index {} is out of bounds for axis {} with size {}", p, axis, n));
    }
    out.push_back(p < 0 ? p + n : p);
  }
  return out;
}

}  // namespace

namespace detail {

Array delete_at(const Array& arr_in, const HostPositions& obj, std::optional<std::int64_t> axis_in) {
  const Array arr = axis_in ? arr_in : detail::reshaped(arr_in, {arr_in.size()});
  const int axis = axis_of(axis_in.value_or(0), arr.ndim());
  const std::int64_t n = arr.shape()[axis];
  std::vector<bool> gone(static_cast<std::size_t>(n), false);
  for (std::int64_t p : positions(obj, n, axis, false)) gone[static_cast<std::size_t>(p)] = true;
  std::vector<Array> keep;
  for (std::int64_t i = 0; i < n;) {
    if (gone[static_cast<std::size_t>(i)]) {
      ++i;
      continue;
    }
    std::int64_t j = i;
    while (j < n && !gone[static_cast<std::size_t>(j)]) ++j;
    keep.push_back(arr.slice(axis, i, j));
    i = j;
  }
  if (keep.empty()) return arr.slice(axis, 0, 0);
  return concatenate(keep, axis);
}

Array insert_at(const Array& arr_in, const HostPositions& obj, const Array& values, std::optional<std::int64_t> axis_in) {
  const Array arr = axis_in ? arr_in : detail::reshaped(arr_in, {arr_in.size()});
  const int axis = axis_of(axis_in.value_or(0), arr.ndim());
  const std::int64_t n = arr.shape()[axis];
  detail::check_written_scalar(values, arr.dtype());
  const Array v = values.dtype() == arr.dtype() ? values : astype(values, arr.dtype());
  std::vector<Array> parts;
  const bool scalar = std::holds_alternative<std::int64_t>(obj);
  const std::vector<std::int64_t> pos = positions(obj, n, axis, true);
  if (scalar || pos.size() == 1) {
    // One position: values (with arr's dims, leading 1s added) is a block along axis; for an
    // integer position its first axis is moved to `axis` first (NumPy: `a[:, 0] = ...` against
    // `a[:, [0]] = ...`), so insert(a, 1, v, 1) puts v in one column and insert(a, {1}, v, 1)
    // puts one column per element of v's last axis.
    const std::int64_t at = pos[0];
    Shape s = Shape::filled(std::max(arr.ndim() - v.ndim(), 0), 1);
    for (int d = 0; d < v.ndim(); ++d) s.push_back(v.shape()[d]);
    Array blk = detail::reshaped(v, s);
    if (scalar) blk = moveaxis(blk, 0, axis);
    Shape want = arr.shape();
    want[axis] = blk.shape()[axis];
    blk = blk.broadcast_to(want);
    parts = {arr.slice(axis, 0, at), blk, arr.slice(axis, at, n)};
  } else {
    // Several: one slice each, before the position (stable for equal positions).
    const auto m = static_cast<std::int64_t>(pos.size());
    Shape slab = arr.shape();
    slab[axis] = m;
    const Array vals = v.broadcast_to(slab);  // slice k goes before position k
    std::vector<std::int64_t> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return pos[static_cast<std::size_t>(a)] < pos[static_cast<std::size_t>(b)];
    });
    std::int64_t prev = 0;
    for (std::int64_t k : order) {
      const std::int64_t p = pos[static_cast<std::size_t>(k)];
      if (p > prev) parts.push_back(arr.slice(axis, prev, p));
      parts.push_back(vals.slice(axis, k, k + 1));
      prev = p;
    }
    if (prev < n) parts.push_back(arr.slice(axis, prev, n));
  }
  return concatenate(parts, axis);
}

}  // namespace detail

}  // namespace loom
