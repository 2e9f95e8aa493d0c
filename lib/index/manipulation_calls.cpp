// The manipulation functions built on calls and gathers (include/loom/manipulation.hpp):
//   pad      constant: the input placed over a full array (one Op::Place); edge, reflect,
//            symmetric, wrap: the input read at computed positions (a gather whose index is a
//            few integer ops per padded dim, fused into the consumer: a pad feeding a stencil
//            is one kernel); maximum, minimum, mean: the axis' statistic joined on each side.
//   repeat   with a count per element: a gather at each output's source position (host counts:
//            positions built on the host; device counts: a searchsorted over their running total).
//   delete_, insert with an array obj: its positions read back, then lib/api/joining.cpp's.
//   ix_      bool arrays become their positions (nonzero: eager, as NumPy's).
//   sliding_window_view: a strided view of a buffer, else a gather at the window positions.

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"
#include "api/positions.hpp"
#include "index/write_helpers.hpp"
#include "graph/node.hpp"
#include "runtime/libs/numpy_cast.hpp"

namespace loom {

namespace {

using Widths = std::vector<std::pair<std::int64_t, std::int64_t>>;
using Ends = std::vector<std::pair<double, double>>;

// Positions p (the padded axis' index minus `before`, int32 or int64) mapped into [0, n): one
// reflection (or wrap) with abs/min/max when the pad is no wider than that allows, else the
// periodic formula with a remainder.
Array source_index(const Array& p, std::int64_t n, std::int64_t before, std::int64_t after, const std::string& mode) {
  const DType t = p.dtype();
  const auto c = [&](std::int64_t v) { return full({}, Scalar::of(v, false), t); };
  if (mode == "edge") return clip(p, c(0), c(n - 1));
  if (mode == "wrap") {
    if (before <= n && after <= n) return where(p < c(0), p + c(n), where(p >= c(n), p - c(n), p));
    return remainder(p, c(n));
  }
  if (mode == "symmetric") {
    if (before <= n && after <= n) {
      const Array q = maximum(p, c(-1) - p);
      return minimum(q, c(2 * n - 1) - q);
    }
    const Array m = remainder(p, c(2 * n));
    return where(m < c(n), m, c(2 * n - 1) - m);
  }
  // reflect
  if (n == 1) return zeros_like(p);
  if (before <= n - 1 && after <= n - 1) return c(n - 1) - abs(c(n - 1) - abs(p));
  const Array m = remainder(p, c(2 * (n - 1)));
  return where(m < c(n), m, c(2 * (n - 1)) - m);
}

// np.median along `axis`, kept: the middle of the sorted values, or the mean of the middle two
// (float64 for integers and bool, as NumPy's); NaN where the values hold one.
Array median_kept(const Array& part, int axis) {
  const std::int64_t k = part.shape()[axis];
  const DType t = is_floating(part.dtype()) ? part.dtype() : DType::Float64;
  const Array s = sort(part.astype(t), axis);
  Array m = k % 2 ? s.slice(axis, k / 2, k / 2 + 1)
                  : (s.slice(axis, k / 2 - 1, k / 2) + s.slice(axis, k / 2, k / 2 + 1)) / full({}, Scalar::of(2.0, false), t);
  if (is_floating(t)) m = where(any(isnan(part), axis, true), full({}, Scalar::of(NAN, false), t), m);
  return m;
}

// NumPy's mean or median of no values (stat_length=0), kept along `axis`: NaN (with a
// RuntimeWarning), cast into a's dtype as NumPy's x86-64 builds cast NaN (the int32 or int64
// minimum, 0 for narrower integers: runtime/libs/numpy_cast.hpp; True for bool).
Array empty_stat(const Array& a, int axis) {
  Shape s = a.shape();
  s[axis] = 1;
  const DType t = a.dtype();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Scalar v = Scalar::of(std::complex<double>(nan, nan), false);
  if (is_integer(t)) v = Scalar::of(numpycast::float_to_int(nan, t), false);
  if (is_bool(t)) v = Scalar::of(true, false);
  return full(s, v.cast(t), t);
}

// maximum, minimum, mean, median: the statistic of the first (last) `length` values of the axis
// (all when empty) on each side.
Array pad_stat(const Array& a, int axis, std::int64_t before, std::int64_t after, const std::string& mode,
               std::optional<std::int64_t> length) {
  const std::int64_t n = a.shape()[axis];
  const std::int64_t k = std::min(length.value_or(n), n);
  if (k == 0 && (mode == "maximum" || mode == "minimum")) throw ValueError("stat_length of 0 yields no value for padding");
  const auto stat = [&](const Array& part) {
    if (k == 0) return empty_stat(a, axis);
    Array st = mode == "maximum"   ? max(part, axis, true)
               : mode == "minimum" ? min(part, axis, true)
               : mode == "median"  ? median_kept(part, axis)
                                   : mean(part, axis, true);
    if (st.dtype() != a.dtype()) st = astype(is_integer(a.dtype()) ? round(st) : st, a.dtype());
    return st;
  };
  const Array head = stat(a.slice(axis, 0, k));
  const Array tail = k == n ? head : stat(a.slice(axis, n - k, n));
  std::vector<Array> parts;
  const auto slab = [&](const Array& st, std::int64_t w) {
    Shape s = a.shape();
    s[axis] = w;
    parts.push_back(st.broadcast_to(s));
  };
  if (before > 0) slab(head, before);
  parts.push_back(a);
  if (after > 0) slab(tail, after);
  return concatenate(parts, axis);
}

// linear_ramp along one axis: np.linspace(end, edge, width, endpoint=False) before the array and
// the same reversed after it, computed in the array's dtype (float64 for integers and bool, then
// floored for integers) and cast back.
Array pad_ramp(const Array& a, int axis, std::int64_t before, std::int64_t after, std::pair<double, double> ends) {
  const std::int64_t n = a.shape()[axis];
  const DType t = a.dtype();
  const DType ct = is_floating(t) || is_complex(t) ? t : DType::Float64;
  const auto ramp = [&](std::int64_t w, double end, std::int64_t edge_at, bool reversed) {
    Shape s = Shape::filled(a.ndim(), 1);
    s[axis] = w;
    Array i = arange(Scalar::of(std::int64_t{0}, false), Scalar::of(w, false), Scalar::of(std::int64_t{1}, false), ct);
    if (reversed) i = full({}, Scalar::of(static_cast<double>(w - 1), false), ct) - i;
    const Array e = full({}, Scalar::of(end, false), ct);
    const Array step = (a.slice(axis, edge_at, edge_at + 1).astype(ct) - e) / full({}, Scalar::of(static_cast<double>(w), false), ct);
    Array y = detail::reshaped(i, s) * step + e;
    if (is_integer(t)) y = floor(y);
    return y.astype(t);
  };
  std::vector<Array> parts;
  if (before > 0) parts.push_back(ramp(before, ends.first, 0, false));
  parts.push_back(a);
  if (after > 0) parts.push_back(ramp(after, ends.second, n - 1, true));
  return concatenate(parts, axis);
}

// reflect or symmetric with reflect_type "odd" along one axis, as NumPy builds it: chunks of the
// values so far, mirrored and taken from twice the edge, joined on both sides until the widths
// are filled (a chunk is at most the part of the array so far whose length is a whole number of
// the original's periods).
Array pad_odd(const Array& a, int axis, std::int64_t left, std::int64_t right, bool symmetric) {
  const std::int64_t n0 = a.shape()[axis];
  const DType t = a.dtype();
  if (n0 == 1) return pad_stat(a, axis, left, right, "maximum", std::nullopt);  // a singleton axis: its edge
  const std::int64_t e = symmetric ? 1 : 0;  // the edge itself mirrored (symmetric) or not (reflect)
  const auto mirror_about = [&](const Array& chunk, const Array& edge) {
    const Array m = edge * 2 - chunk;
    return m.dtype() == t ? m : m.astype(t);
  };
  Array cur = a;
  while (left > 0 || right > 0) {
    const std::int64_t m = cur.shape()[axis];
    const std::int64_t period = symmetric ? m / n0 * n0 : (m - 1) / (n0 - 1) * (n0 - 1);
    std::vector<Array> parts;
    if (left > 0) {
      const std::int64_t k = std::min(period, left);
      parts.push_back(mirror_about(cur.slice(axis, 1 - e, k - e + 1).flip(axis), cur.slice(axis, 0, 1)));
      left -= k;
    }
    parts.push_back(cur);
    if (right > 0) {
      const std::int64_t k = std::min(period, right);
      parts.push_back(mirror_about(cur.slice(axis, m - 1 + e - k, m - 1 + e).flip(axis), cur.slice(axis, m - 1, m)));
      right -= k;
    }
    cur = concatenate(parts, axis);
  }
  return cur;
}

// (before, after) values per axis from one pair for all or one per axis (NumPy's _as_pairs).
Ends pairs_per_axis(const Ends& given, int nd) {
  Ends out = given.size() == 1 ? Ends(static_cast<std::size_t>(nd), given[0]) : given;
  if (static_cast<int>(out.size()) != nd) {
    throw ValueError(fmt::format("operands could not be broadcast together with remapped shapes "
                                 "[original->remapped]: ({},2)  and requested shape ({},2)",
                                 given.size(), nd));
  }
  return out;
}

// mode "constant" with a value per side: axis by axis, each side a full block joined to the array
// padded so far (NumPy's order: a corner takes the later axis' value). One lazy concatenation.
Array pad_constant_sides(const Array& a, const Widths& width, const Ends& values) {
  Array r = a;
  for (int d = 0; d < a.ndim(); ++d) {
    const auto [b, f] = width[static_cast<std::size_t>(d)];
    const auto [vb, vf] = values[static_cast<std::size_t>(d)];
    const auto side = [&](std::int64_t w, double v) {
      Shape s = r.shape();
      s[d] = w;
      return full(s, Scalar::of(v, false), DType::Float64).astype(a.dtype());
    };
    std::vector<Array> parts;
    if (b > 0) parts.push_back(side(b, vb));
    parts.push_back(r);
    if (f > 0) parts.push_back(side(f, vf));
    if (parts.size() > 1) r = concatenate(parts, d);
  }
  return r;
}

}  // namespace

Array pad(const Array& a, const Widths& width_in, const PadOptions& o) {
  const int nd = a.ndim();
  Widths width = width_in;
  if (width.size() == 1) width.assign(static_cast<std::size_t>(nd), width_in[0]);
  if (static_cast<int>(width.size()) != nd) {
    throw ValueError(fmt::format("operands could not be broadcast together with remapped shapes "
                                 "[original->remapped]: ({},2)  and requested shape ({},2)",
                                 width_in.size(), nd));
  }
  for (const auto& [b, f] : width) {
    if (b < 0 || f < 0) throw ValueError("index can't contain negative values");
  }
  static const char* kModes[] = {"constant", "edge",    "reflect", "symmetric", "wrap", "linear_ramp",
                                 "maximum",  "minimum", "mean",    "median",    "empty"};
  if (std::find(std::begin(kModes), std::end(kModes), o.mode) == std::end(kModes)) {
    throw ValueError(fmt::format("mode '{}' is not supported", o.mode));
  }
  if (o.reflect_type != "even" && o.reflect_type != "odd") {
    throw ValueError(fmt::format("pad: reflect_type must be 'even' or 'odd', not '{}'", o.reflect_type));
  }
  Shape out = a.shape(), start;
  for (int d = 0; d < nd; ++d) {
    const auto [b, f] = width[static_cast<std::size_t>(d)];
    if (__builtin_add_overflow(out[d], b, &out[d]) || __builtin_add_overflow(out[d], f, &out[d])) {
      throw ValueError(fmt::format("pad: array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                                   "maximum possible size. (axis {} of {} padded by {} and {})",
                                   d, a.shape()[d], b, f));
    }
    start.push_back(b);
  }
  (void)detail::checked_nbytes(out, a.dtype(), "pad");  // NumPy's "array is too big", before any work
  if (o.mode == "constant" && !o.constant_values.empty()) {
    return pad_constant_sides(a, width, pairs_per_axis(o.constant_values, nd));
  }
  if (o.mode == "constant" || o.mode == "empty") {
    const double value = o.mode == "constant" ? o.constant_value : 0.0;
    const Array fill = full(out, Scalar::of(value, false), DType::Float64).astype(a.dtype());
    if (a.size() == 0) return fill;
    return detail::place(a, start, out, fill);
  }
  for (int d = 0; d < nd; ++d) {
    const auto [b, f] = width[static_cast<std::size_t>(d)];
    if ((b > 0 || f > 0) && a.shape()[d] == 0) {
      throw ValueError(fmt::format("can't extend empty axis {} using modes other than 'constant' or 'empty'", d));
    }
  }
  if (o.mode == "linear_ramp" || o.mode == "maximum" || o.mode == "minimum" || o.mode == "mean" || o.mode == "median") {
    // Axis by axis, each over the array padded so far (NumPy's order: corners from the axes before).
    const Ends ends = pairs_per_axis(o.end_values.empty() ? Ends{{0.0, 0.0}} : o.end_values, nd);
    if (o.stat_length && *o.stat_length < 0) throw ValueError("index can't contain negative values");
    Array r = a;
    for (int d = 0; d < nd; ++d) {
      const auto [b, f] = width[static_cast<std::size_t>(d)];
      if (b == 0 && f == 0) continue;
      r = o.mode == "linear_ramp" ? pad_ramp(r, d, b, f, ends[static_cast<std::size_t>(d)])
                                  : pad_stat(r, d, b, f, o.mode, o.stat_length);
    }
    return r;
  }
  if (o.reflect_type == "odd" && (o.mode == "reflect" || o.mode == "symmetric")) {
    Array r = a;  // axis by axis, each over the array padded so far (NumPy's order)
    for (int d = 0; d < nd; ++d) {
      const auto [b, f] = width[static_cast<std::size_t>(d)];
      if (b > 0 || f > 0) r = pad_odd(r, d, b, f, o.mode == "symmetric");
    }
    return r;
  }
  // One gather: each output coordinate mapped into the input, per dim.
  const DType t = out.numel() < (std::int64_t{1} << 31) ? DType::Int32 : DType::Int64;
  std::vector<Array> coords;
  for (int d = 0; d < nd; ++d) {
    const auto [b, f] = width[static_cast<std::size_t>(d)];
    Shape s = Shape::filled(nd, 1);
    s[d] = out[d];
    const Array p = arange(Scalar::of(-b, false), Scalar::of(out[d] - b, false), Scalar::of(std::int64_t{1}, false), t);
    coords.push_back(detail::reshaped(b > 0 || f > 0 ? source_index(p, a.shape()[d], b, f, o.mode) : p, s));
  }
  return calls::gather_positions(a, coords, out);
}

Array pad(const Array& a, std::int64_t w, const PadOptions& options) {
  return pad(a, Widths{{w, w}}, options);
}

Array pad(const Array& a, std::pair<std::int64_t, std::int64_t> w, const PadOptions& options) {
  return pad(a, Widths{w}, options);
}

// --- repeat with a count per element ---

namespace {

// a read at `source` (int64 positions along axis, 1-d): a lazy gather.
Array take_along(const Array& a, const Array& source, int axis) { return take(a, source, axis, TakeMode::Clip); }

// a (flattened when axis is none; a 0-d a is one element) and the axis the counts run along.
std::pair<Array, int> repeat_input(const Array& a_in, std::optional<std::int64_t> axis_in) {
  Array a = axis_in ? a_in : a_in.reshape({a_in.size()});
  if (a.ndim() == 0) a = a.reshape({1});
  return {a, detail::normalize_axis(axis_in.value_or(0), a.ndim())};
}

void check_repeat_length(std::int64_t n, std::int64_t counts) {
  if (counts != n) {
    throw ValueError(fmt::format("operands could not be broadcast together with shape ({},) ({},)", n, counts));
  }
}

}  // namespace

Array repeat(const Array& a_in, const std::vector<std::int64_t>& repeats, std::optional<std::int64_t> axis_in) {
  if (repeats.size() == 1) return repeat(a_in, repeats[0], axis_in);  // one count for all
  const auto [a, axis] = repeat_input(a_in, axis_in);
  check_repeat_length(a.shape()[axis], static_cast<std::int64_t>(repeats.size()));
  std::vector<std::int64_t> source;
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0) throw ValueError("repeats may not contain negative values.");
    source.insert(source.end(), static_cast<std::size_t>(repeats[i]), static_cast<std::int64_t>(i));
  }
  return take_along(a, asarray(std::span<const std::int64_t>(source)), axis);
}

Array repeat(const Array& a, std::initializer_list<std::int64_t> repeats, std::optional<std::int64_t> axis) {
  return repeat(a, std::vector<std::int64_t>(repeats), axis);
}

// Device counts: the running total (cumsum) and each output position's source (searchsorted
// right of it) stay lazy; the total and the smallest count are read back, once.
Array repeat(const Array& a_in, const Array& repeats, std::optional<std::int64_t> axis_in) {
  if (!is_integer(repeats.dtype()) && repeats.dtype() != DType::Bool) {
    throw DTypeError(fmt::format("Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
                                 name(repeats.dtype())));
  }
  if (repeats.ndim() > 1) throw ValueError("object too deep for desired array");
  if (repeats.size() == 1) return repeat(a_in, repeats.reshape({}).astype(DType::Int64).item<std::int64_t>(), axis_in);
  const auto [a, axis] = repeat_input(a_in, axis_in);
  check_repeat_length(a.shape()[axis], repeats.size());
  if (repeats.size() == 0) return a;
  const Array counts = repeats.astype(DType::Int64);
  const std::vector<std::int64_t> seen = stack({sum(counts), min(counts)}).to_host<std::int64_t>();
  if (seen[1] < 0) throw ValueError("repeats may not contain negative values.");
  const Array source = searchsorted(cumsum(counts), arange(seen[0]), "right");
  return take_along(a, source, axis);
}

// --- delete and insert with an array obj: read back, then at host positions ---

namespace {

detail::HostPositions host_positions(const Array& arr, const Positions& obj, std::optional<std::int64_t> axis_in,
                                     bool for_delete) {
  if (const auto* p = std::get_if<std::int64_t>(&obj)) return *p;
  if (const auto* p = std::get_if<std::vector<std::int64_t>>(&obj)) return *p;
  if (const auto* p = std::get_if<Slice>(&obj)) return *p;
  const Array& x = std::get<Array>(obj);
  if (x.dtype() == DType::Bool && for_delete) {
    const std::int64_t n = axis_in ? arr.shape()[detail::normalize_axis(*axis_in, arr.ndim())] : arr.size();
    if (x.ndim() != 1 || x.size() != n) {
      throw ValueError(fmt::format("boolean array argument obj to delete must be one dimensional and match the axis "
                                   "length of {}", n));
    }
    const std::vector<std::int64_t> keep = x.astype(DType::Int64).to_host<std::int64_t>();
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < keep.size(); ++i) {
      if (keep[i] != 0) out.push_back(static_cast<std::int64_t>(i));
    }
    return out;
  }
  if (!is_integer(x.dtype()) && x.dtype() != DType::Bool) {
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  }
  if (!for_delete && x.ndim() > 1) {
    throw ValueError("index array argument obj to insert must be one dimensional or scalar");
  }
  const std::vector<std::int64_t> v = x.astype(DType::Int64).to_host<std::int64_t>();
  if (x.ndim() == 0) return v[0];
  return v;
}

}  // namespace

Array delete_(const Array& arr, const Positions& obj, std::optional<std::int64_t> axis) {
  return detail::delete_at(arr, host_positions(arr, obj, axis, true), axis);
}
Array delete_(const Array& arr, std::initializer_list<std::int64_t> obj, std::optional<std::int64_t> axis) {
  return detail::delete_at(arr, std::vector<std::int64_t>(obj), axis);
}
Array insert(const Array& arr, const Positions& obj, const Array& values, std::optional<std::int64_t> axis) {
  return detail::insert_at(arr, host_positions(arr, obj, axis, false), values, axis);
}
Array insert(const Array& arr, std::initializer_list<std::int64_t> obj, const Array& values,
             std::optional<std::int64_t> axis) {
  return detail::insert_at(arr, std::vector<std::int64_t>(obj), values, axis);
}

std::vector<Array> ix_(const std::vector<Array>& args) {
  std::vector<Array> out;
  const int nd = static_cast<int>(args.size());
  for (int k = 0; k < nd; ++k) {
    Array x = args[static_cast<std::size_t>(k)];
    if (x.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (x.dtype() == DType::Bool) x = nonzero(x)[0];
    Shape s = Shape::filled(nd, 1);
    s[k] = x.size();
    out.push_back(detail::reshaped(x, s));
  }
  return out;
}

Array sliding_window_view(const Array& x, const std::vector<std::int64_t>& window,
                          const std::optional<std::vector<std::int64_t>>& axis_in) {
  const int nd = x.ndim();
  std::vector<int> axes;
  if (!axis_in) {
    if (static_cast<int>(window.size()) != nd) {
      throw ValueError(fmt::format("Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                                   "{} window_shape elements and `x.ndim` is {}.",
                                   window.size(), nd));
    }
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  } else {
    for (std::int64_t a : *axis_in) axes.push_back(detail::normalize_axis(a, nd));
    if (window.size() != axes.size()) {
      throw ValueError(fmt::format("Must provide matching length window_shape and axis; got {} window_shape elements "
                                   "and {} axes elements.",
                                   window.size(), axes.size()));
    }
  }
  for (std::int64_t w : window) {
    if (w < 0) throw ValueError("`window_shape` cannot contain negative values");
  }
  Shape out = x.shape();
  for (std::size_t k = 0; k < axes.size(); ++k) {
    if (out[axes[k]] < window[k]) throw ValueError("window shape cannot be larger than input array shape");
    out[axes[k]] -= window[k] - 1;
  }
  for (std::int64_t w : window) out.push_back(w);
  const detail::NodeRef n = detail::leaf_of(x, "sliding_window_view");
  if (n->op == detail::Op::Buffer) {  // evaluated: NumPy's strided view
    Shape strides = n->strides();
    for (int a : axes) strides.push_back(n->strides()[a]);
    return Array(detail::make_buffer(n->storage(), n->dtype, out, strides, n->offset()));
  }
  // Computed: input dim d read at (window position along d) + (offset within each window on d).
  const int od = out.size();
  std::vector<Array> coords;
  for (int d = 0; d < nd; ++d) {
    Shape s = Shape::filled(od, 1);
    s[d] = out[d];
    Array c = detail::reshaped(arange(out[d]), s);
    for (std::size_t k = 0; k < axes.size(); ++k) {
      if (axes[k] != d) continue;
      Shape t = Shape::filled(od, 1);
      t[nd + static_cast<int>(k)] = window[k];
      c = c + detail::reshaped(arange(window[k]), t);
    }
    coords.push_back(c);
  }
  return calls::gather_positions(x, coords, out);
}

}  // namespace loom
