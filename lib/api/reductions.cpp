// The reductions of include/loom/reductions.hpp. Each one resolves its axes and dtypes with
// NumPy's rules, casts the input to the accumulation dtype (the prologue), builds Reduce nodes,
// applies its epilogue (division, casts) in the keepdims shape, and squeezes last, as a view.
// So the code generator sees only Reduce nodes with elementwise ops and views around them.

#include <loom/reductions.hpp>

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "graph/promotion.hpp"

namespace loom {

using detail::ReduceKind;

namespace {

// The dims of the input a reduction combines.
struct Plan {
  int ndim = 0;
  std::uint32_t mask = 0;      // bit i: input dim i is reduced
  std::int64_t count = 1;      // elements combined into each output
  std::int64_t out_numel = 1;  // outputs
  bool added_axis = false;     // a 0-d input, reduced as shape (1,) (no Reduce over no dims)
};

// NumPy's ufunc reductions (sum, max, any, argmax, ...) of a 0-d array take axis=0 or -1 as
// "every axis"; mean, var and std (which count the reduced elements per axis) do not.
enum class ZeroDAxis { Accept, Refuse };

Plan plan_axes(const Shape& shape, const Axes& axis, ZeroDAxis zero_d = ZeroDAxis::Accept) {
  Plan p;
  p.ndim = shape.size();
  const bool zero_d_axis = p.ndim == 0 && zero_d == ZeroDAxis::Accept && axis.is_single() &&
                           (axis.list()[0] == 0 || axis.list()[0] == -1);
  if (axis.is_all() || zero_d_axis) {
    p.mask = (std::uint32_t{1} << p.ndim) - 1;
  } else {
    for (std::int64_t a : axis.list()) {
      const int k = detail::normalize_axis(a, p.ndim);
      if ((p.mask >> k) & 1u) throw ValueError("duplicate value in 'axis'");
      p.mask |= std::uint32_t{1} << k;
    }
  }
  for (int i = 0; i < p.ndim; ++i) ((p.mask >> i) & 1u ? p.count : p.out_numel) *= shape[i];
  if (p.ndim == 0) {
    p.added_axis = true;
    p.mask = 1;
  }
  return p;
}

// NumPy refuses to reduce nothing into something when the operation has no identity.
void require_nonempty(const Plan& p, const char* ufunc) {
  if (p.count == 0 && p.out_numel != 0) {
    throw ValueError(
        fmt::format("zero-size array to reduction operation {} which has no identity", ufunc));
  }
}

// The Reduce node of x (already in the accumulation dtype), keepdims-shaped.
Array reduce(const Array& x, ReduceKind kind, const Plan& p, std::int64_t ddof = 0) {
  const Array in = p.added_axis ? x.expand_dims(0) : x;
  const detail::NodeRef n = detail::leaf_of(in, detail::reduce_name(kind));
  return Array(detail::make_reduce(n, kind, p.mask, ddof));
}

// The user's result from a keepdims-shaped one: one view that drops the reduced dims.
Array finish(const Array& r, const Plan& p, bool keepdims) {
  if (p.added_axis) return r.squeeze(0);
  if (keepdims || p.mask == 0) return r;
  const detail::NodeRef n = detail::leaf_of(r, "squeeze");
  detail::IndexMap m;
  m.in_ndim = p.ndim;
  Shape out;
  for (int k = 0; k < p.ndim; ++k) {
    if ((p.mask >> k) & 1u) continue;
    m.dim[out.size()] = static_cast<std::int8_t>(k);
    m.coef[out.size()] = 1;
    out.push_back(n->shape[k]);
  }
  m.out_ndim = out.size();
  return Array(detail::view_node(n, m, out));
}

// --- dtype rules ---

// np.sum's default: bool and signed ints widen to int64, unsigned to uint64.
DType sum_dtype(DType t) {
  if (is_bool(t) || is_signed_int(t)) return DType::Int64;
  if (is_unsigned_int(t)) return DType::UInt64;
  return t;
}
// The dtype a result of dtype t is accumulated in: float16/bfloat16 in float32.
DType accumulate_in(DType t) { return is_half(t) ? DType::Float32 : t; }
// mean/var: bool and ints compute in float64.
DType float_dtype(DType t) { return is_inexact(t) ? t : DType::Float64; }
// A bool "sum" is a logical or (NumPy's add on bools), a bool product a logical and.
ReduceKind sum_kind(DType acc) { return is_bool(acc) ? ReduceKind::Any : ReduceKind::Sum; }
ReduceKind prod_kind(DType acc) { return is_bool(acc) ? ReduceKind::All : ReduceKind::Prod; }

// --- keepdims-shaped building blocks ---

// x as a reduction with result dtype `out` reads it: each element converted to `out` first, as
// NumPy's dtype= argument does (sum(x_f64, dtype=float16) rounds each element to float16), then
// to the accumulation dtype.
Array prologue(const Array& x, DType out) { return astype(astype(x, out), accumulate_in(out)); }

Array sum_keep(const Array& x, const Plan& p, DType out, bool product) {
  const DType acc = accumulate_in(out);
  const Array r = reduce(prologue(x, out), product ? prod_kind(acc) : sum_kind(acc), p);
  return astype(r, out);
}

// The result dtype of mean / nanmean and the dtype they sum in.
std::pair<DType, DType> mean_dtypes(DType t, std::optional<DType> dtype) {
  const DType out = dtype ? *dtype : float_dtype(t);
  return {out, accumulate_in(out)};
}

Array mean_keep(const Array& x, const Plan& p, std::optional<DType> dtype) {
  const auto [out, acc] = mean_dtypes(x.dtype(), dtype);
  const Array s = reduce(prologue(x, out), sum_kind(acc), p);
  return astype(s / Array(p.count), out);  // a weak count: a float sum keeps its dtype
}

// The mean of the elements where `keep` (a's shape) is True: their sum / their count (NaN where
// there are none). NumPy divides in the sum's dtype (its _divide_by_count), not in float64.
Array masked_mean_keep(const Array& a, const Array& keep, const Plan& p, std::optional<DType> dtype) {
  const auto [out, acc] = mean_dtypes(a.dtype(), dtype);
  const Array total = reduce(prologue(where(keep, a, zeros({}, a.dtype())), out), sum_kind(acc), p);
  const Array count = reduce(astype(keep, DType::Int64), ReduceKind::Sum, p);
  return astype(total / astype(count, detail::real_type_for(acc)), out);
}

// The extrema of bools are any (max) and all (min); float16/bfloat16 compare in float32 (exactly).
// So Max/Min/NanMax/NanMin never see a bool or a 16-bit float.
Array extremum_keep(const Array& x, const Plan& p, ReduceKind kind) {
  const DType t = x.dtype();
  if (is_bool(t)) {
    const bool is_max = kind == ReduceKind::Max || kind == ReduceKind::NanMax;
    return reduce(x, is_max ? ReduceKind::Any : ReduceKind::All, p);
  }
  return astype(reduce(astype(x, accumulate_in(t)), kind, p), t);
}

// Variance in float32/float64 (a complex input: var(real) + var(imag)), and the result dtype:
// real, float64 for bool and ints, float16 for float16 (computed in float32).
std::pair<Array, DType> var_keep(const Array& x, const Plan& p, std::int64_t ddof,
                                 std::optional<DType> dtype) {
  const DType base = dtype.value_or(x.dtype());
  const DType out = detail::real_type_for(dtype ? base : float_dtype(base));  // a given int stays
  const DType compute = is_complex(base) ? base : accumulate_in(float_dtype(base));
  const Array xc = astype(x, compute);
  if (is_complex(compute)) {
    return {reduce(real(xc), ReduceKind::Variance, p, ddof) +
                reduce(imag(xc), ReduceKind::Variance, p, ddof),
            out};
  }
  return {reduce(xc, ReduceKind::Variance, p, ddof), out};
}

// logsumexp's family works on real floats: ints in float64, float16/bfloat16 in float32.
DType lse_compute(const char* fn, DType t) {
  if (is_complex(t)) throw DTypeError(fmt::format("{}: dtype {} is not supported", fn, name(t)));
  return accumulate_in(float_dtype(t));
}
DType lse_out(DType t) { return is_half(t) ? t : float_dtype(t); }

// softmax's parts in the compute dtype, keepdims-shaped and broadcast over x: x - max(x) and
// sum(exp(x - max(x))). Both reductions read x (one kernel; a row-resident one for short
// trailing axes), and x - max(x) is exact near the maximum, where exp(x - logsumexp(x)) would
// carry ulp(logsumexp) into every exponent (up to ~124 float32 eps for logits near 1000).
struct Shifted {
  Array shifted;  // x - max(x)
  Array sum;      // sum(exp(x - max(x)))
};
Shifted shifted_by_max(const char* fn, const Array& x, const Axes& axis) {
  const Plan p = plan_axes(x.shape(), axis);
  const Array xc = astype(x, lse_compute(fn, x.dtype()));
  const Array m = finish(reduce(xc, ReduceKind::Max, p), p, true);
  const Array s = finish(reduce(xc, ReduceKind::SumExp, p), p, true);
  return {xc - m, s};
}

Array arg_extremum(const Array& a, std::optional<int> axis, bool keepdims, bool is_max) {
  // NumPy's argmax of a 0-d array along an axis works on its one-element ravel (axis 0 or -1;
  // another axis is out of bounds "for array of dimension 1").
  const Array x = a.ndim() == 0 && axis ? a.reshape({1}) : a;
  const Plan p = plan_axes(x.shape(), axis ? Axes(*axis) : Axes{});
  if (p.count == 0 && p.out_numel != 0) {
    throw ValueError(
        fmt::format("attempt to get {} of an empty sequence", is_max ? "argmax" : "argmin"));
  }
  const DType t = x.dtype();
  const DType acc = is_bool(t) ? DType::UInt8 : accumulate_in(t);
  const Array r = reduce(astype(x, acc), is_max ? ReduceKind::ArgMax : ReduceKind::ArgMin, p);
  return finish(r, p, keepdims);
}

Array extremum(const Array& x, const Axes& axis, bool keepdims, ReduceKind kind,
               const char* ufunc) {
  const Plan p = plan_axes(x.shape(), axis);
  require_nonempty(p, ufunc);
  return finish(extremum_keep(x, p, kind), p, keepdims);
}

Array logical(const Array& x, const Axes& axis, bool keepdims, ReduceKind kind) {
  const Plan p = plan_axes(x.shape(), axis);
  return finish(reduce(astype(x, DType::Bool), kind, p), p, keepdims);
}

}  // namespace

// --- sums and products ---

template <int>
Array sum(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis);
  return finish(sum_keep(a, p, dtype.value_or(sum_dtype(a.dtype())), false), p, keepdims);
}

template <int>
Array prod(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis);
  return finish(sum_keep(a, p, dtype.value_or(sum_dtype(a.dtype())), true), p, keepdims);
}

template <int>
Array nansum(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis);
  const Array x = is_inexact(a.dtype()) ? where(isnan(a), 0, a) : a;
  return finish(sum_keep(x, p, dtype.value_or(sum_dtype(a.dtype())), false), p, keepdims);
}

template <int>
Array count_nonzero(const Array& a, const Axes& axis, bool keepdims) {
  const Plan p = plan_axes(a.shape(), axis);
  const Array ones = astype(astype(a, DType::Bool), DType::Int64);  // NaN is nonzero
  return finish(reduce(ones, ReduceKind::Sum, p), p, keepdims);
}

// --- extrema ---

template <int>
Array max(const Array& a, const Axes& axis, bool keepdims) {
  return extremum(a, axis, keepdims, ReduceKind::Max, "maximum");
}
template <int>
Array min(const Array& a, const Axes& axis, bool keepdims) {
  return extremum(a, axis, keepdims, ReduceKind::Min, "minimum");
}
Array amax(const Array& a, const Axes& axis, bool keepdims) { return max(a, axis, keepdims); }
Array amin(const Array& a, const Axes& axis, bool keepdims) { return min(a, axis, keepdims); }
// NumPy reduces with fmax / fmin, whose names its empty-reduction error shows.
Array nanmax(const Array& a, const Axes& axis, bool keepdims) {
  return extremum(a, axis, keepdims, ReduceKind::NanMax, "fmax");
}
Array nanmin(const Array& a, const Axes& axis, bool keepdims) {
  return extremum(a, axis, keepdims, ReduceKind::NanMin, "fmin");
}

template <int>
Array ptp(const Array& a, const Axes& axis, bool keepdims) {
  const Plan p = plan_axes(a.shape(), axis);
  require_nonempty(p, "maximum");
  // bool: subtract raises NumPy's "numpy boolean subtract" DTypeError, as np.ptp does.
  const Array r = extremum_keep(a, p, ReduceKind::Max) - extremum_keep(a, p, ReduceKind::Min);
  return finish(r, p, keepdims);
}

Array argmax(const Array& a, std::optional<int> axis, bool keepdims) {
  return arg_extremum(a, axis, keepdims, true);
}
Array argmin(const Array& a, std::optional<int> axis, bool keepdims) {
  return arg_extremum(a, axis, keepdims, false);
}

// --- statistics ---

template <int>
Array mean(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis, ZeroDAxis::Refuse);
  return finish(mean_keep(a, p, dtype), p, keepdims);
}

// sum of the non-NaN elements / their count (NaN when there are none).
template <int>
Array nanmean(const Array& a, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  if (!is_inexact(a.dtype())) return mean(a, axis, keepdims, dtype);
  const Plan p = plan_axes(a.shape(), axis);
  return finish(masked_mean_keep(a, logical_not(isnan(a)), p, dtype), p, keepdims);
}

template <int>
Array var(const Array& a, const Axes& axis, bool keepdims, std::int64_t ddof,
          std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis, ZeroDAxis::Refuse);
  const auto [v, out] = var_keep(a, p, ddof, dtype);
  return finish(astype(v, out), p, keepdims);
}

template <int>
Array std(const Array& a, const Axes& axis, bool keepdims, std::int64_t ddof,
          std::optional<DType> dtype) {
  const Plan p = plan_axes(a.shape(), axis, ZeroDAxis::Refuse);
  const auto [v, out] = var_keep(a, p, ddof, dtype);
  return finish(astype(sqrt(v), out), p, keepdims);
}

Array average(const Array& a, const Axes& axis, bool keepdims) {
  return mean(a, axis, keepdims);
}

Array average(const Array& a, const Axes& axis, const Array& weights, bool keepdims) {
  const Plan p = plan_axes(a.shape(), axis);
  Array w = weights;
  if (!(w.shape() == a.shape())) {
    if (axis.is_all()) {
      throw ShapeError("Axis must be specified when shapes of a and weights differ.");
    }
    // Weights given along the axes, in the order of `axis`: NumPy transposes them into the
    // order of a's dims, gives them a's rank with 1s elsewhere, and broadcasts.
    std::vector<int> ax;
    Shape want;
    for (std::int64_t v : axis.list()) {
      ax.push_back(detail::normalize_axis(v, p.ndim));
      want.push_back(a.shape()[ax.back()]);
    }
    if (!(w.shape() == want)) {
      throw ValueError("Shape of weights must be consistent with shape of a along specified axis.");
    }
    Shape order = Shape::filled(static_cast<int>(ax.size()), 0);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::int64_t i, std::int64_t j) {
      return ax[static_cast<std::size_t>(i)] < ax[static_cast<std::size_t>(j)];
    });
    Shape ranked = Shape::filled(p.ndim, 1);
    for (int k : ax) ranked[k] = a.shape()[k];
    w = w.transpose(order).reshape(ranked).broadcast_to(a.shape());
  }
  // np.result_type(a, w), and at least float64 for bool and integer a.
  DType rt = promote_types(a.dtype(), w.dtype());
  if (!is_inexact(a.dtype())) rt = promote_types(rt, DType::Float64);
  const DType acc = accumulate_in(rt);
  const Array wa = astype(w, acc);
  const Array num = reduce(astype(a, acc) * wa, ReduceKind::Sum, p);
  const Array den = reduce(wa, ReduceKind::Sum, p);
  return finish(astype(num / den, rt), p, keepdims);
}

// --- logic ---

template <int>
Array any(const Array& a, const Axes& axis, bool keepdims) {
  return logical(a, axis, keepdims, ReduceKind::Any);
}
template <int>
Array alltrue(const Array& a, const Axes& axis, bool keepdims) {
  return logical(a, axis, keepdims, ReduceKind::All);
}

// --- logsumexp family ---

template <int>
Array logsumexp(const Array& a, const Axes& axis, bool keepdims) {
  const Plan p = plan_axes(a.shape(), axis);
  const Array x = astype(a, lse_compute("logsumexp", a.dtype()));
  return finish(astype(reduce(x, ReduceKind::LogSumExp, p), lse_out(a.dtype())), p, keepdims);
}

Array softmax(const Array& a, const Axes& axis) {
  const Shifted t = shifted_by_max("softmax", a, axis);
  return astype(exp(t.shifted) / t.sum, lse_out(a.dtype()));
}

Array log_softmax(const Array& a, const Axes& axis) {
  const Shifted t = shifted_by_max("log_softmax", a, axis);
  return astype(t.shifted - log(t.sum), lse_out(a.dtype()));
}

// The Axes forms are templates only to lose an overload tie to the ReduceOptions forms
// (reductions.hpp): their one instance.
template Array sum<0>(const Array&, const Axes&, bool, std::optional<DType>);
template Array prod<0>(const Array&, const Axes&, bool, std::optional<DType>);
template Array nansum<0>(const Array&, const Axes&, bool, std::optional<DType>);
template Array count_nonzero<0>(const Array&, const Axes&, bool);
template Array max<0>(const Array&, const Axes&, bool);
template Array min<0>(const Array&, const Axes&, bool);
template Array ptp<0>(const Array&, const Axes&, bool);
template Array mean<0>(const Array&, const Axes&, bool, std::optional<DType>);
template Array nanmean<0>(const Array&, const Axes&, bool, std::optional<DType>);
template Array var<0>(const Array&, const Axes&, bool, std::int64_t, std::optional<DType>);
template Array std<0>(const Array&, const Axes&, bool, std::int64_t, std::optional<DType>);
template Array any<0>(const Array&, const Axes&, bool);
template Array alltrue<0>(const Array&, const Axes&, bool);
template Array logsumexp<0>(const Array&, const Axes&, bool);

Array AllSlice::operator()(const Array& a) const { return alltrue(a); }
Array AllSlice::operator()(const Array& a, const Axes& axis, bool keepdims) const {
  return alltrue(a, axis, keepdims);
}

}  // namespace loom

// --- keyword arguments by name (array.hpp's ReduceOptions) ---
// where= replaces the elements it leaves out by the reduction's identity (a where in the
// prologue), initial= combines with the result (an epilogue); mean, var and std count only the
// selected elements.

namespace loom {

namespace {

enum Keyword : unsigned { kWhere = 1, kInitial = 2 };

// NumPy's TypeError for a keyword its function lacks.
void accept_only(const char* fn, const ReduceOptions& o, unsigned accepted) {
  const auto refuse = [&](const char* kw) {
    throw DTypeError(fmt::format("{}() got an unexpected keyword argument '{}'", fn, kw));
  };
  if (o.where && !(accepted & kWhere)) refuse("where");
  if (o.initial && !(accepted & kInitial)) refuse("initial");
}

// where= as a bool array of a's shape (NumPy casts it to bool under the safe rule).
Array where_of(const Array& a, const Array& w) {
  if (w.dtype() != DType::Bool) {
    throw DTypeError(fmt::format("Cannot cast array data from dtype('{}') to dtype('bool') according to the rule 'safe'",
                                 name(w.dtype())));
  }
  return w.shape() == a.shape() ? w : w.broadcast_to(a.shape());
}

Array value_in(const Array& v, DType t) {
  const Array s = v.ndim() == 0 ? v : v.reshape({});
  return astype(s, t);
}

// a where the mask selects, `fill` (cast to a's dtype) elsewhere.
Array selected(const Array& a, const ReduceOptions& o, const Array& fill) {
  return o.where ? where(where_of(a, *o.where), a, value_in(fill, a.dtype())) : a;
}

// The result combined with initial= (in the result's dtype): added, or multiplied.
Array with_initial(const Array& r, const ReduceOptions& o, bool product) {
  if (!o.initial) return r;
  const Array init = value_in(*o.initial, r.dtype());
  return product ? r * init : r + init;
}

// max / min: the selected elements and initial; an empty reduction gives initial.
Array extremum_of(const Array& a, const ReduceOptions& o, bool is_max) {
  const char* ufunc = is_max ? "maximum" : "minimum";
  if (o.where && !o.initial) {
    throw ValueError(fmt::format(
        "reduction operation '{}' does not have an identity, so to use a where mask one has to specify 'initial'", ufunc));
  }
  const auto plain = [&](const Array& x) { return is_max ? max(x, o.axis, o.keepdims) : min(x, o.axis, o.keepdims); };
  if (!o.initial) return plain(a);
  const Array init = value_in(*o.initial, a.dtype());
  const Plan p = plan_axes(a.shape(), o.axis);
  if (p.count == 0) {  // nothing to reduce: initial in the result's shape
    Shape out;
    for (int d = 0; d < p.ndim; ++d) {
      if (!((p.mask >> d) & 1u)) out.push_back(a.shape()[d]);
      else if (o.keepdims) out.push_back(1);
    }
    return init.broadcast_to(out);
  }
  const Array r = plain(selected(a, o, init));
  return is_max ? maximum(r, init) : minimum(r, init);
}

// var / std with where=: NumPy's two passes over the selected elements (the mean, then the sum
// of squared deviations), divided by max(count - ddof, 0).
Array masked_var(const Array& a, const ReduceOptions& o, bool root) {
  const Plan p = plan_axes(a.shape(), o.axis, ZeroDAxis::Refuse);
  const Array keep = where_of(a, *o.where);
  const DType base = o.dtype.value_or(a.dtype());
  const DType out = detail::real_type_for(o.dtype ? base : float_dtype(base));
  const DType compute = is_complex(base) ? base : accumulate_in(float_dtype(base));
  const DType real_t = detail::real_type_for(compute);
  const Array xc = astype(a, compute);
  const Array count = reduce(astype(keep, DType::Int64), ReduceKind::Sum, p);
  const Array mean = reduce(where(keep, xc, zeros({}, compute)), ReduceKind::Sum, p) / astype(count, real_t);
  const Array d = where(keep, xc - mean, zeros({}, compute));
  const Array sq = is_complex(compute) ? real(d) * real(d) + imag(d) * imag(d) : d * d;
  const Array v = reduce(sq, ReduceKind::Sum, p) / astype(maximum(count - o.ddof, 0), real_t);
  return finish(astype(root ? sqrt(v) : v, out), p, o.keepdims);
}

}  // namespace

Array sum(const Array& a, const ReduceOptions& o) {
  accept_only("sum", o, kWhere | kInitial);
  return with_initial(sum(selected(a, o, 0), o.axis, o.keepdims, o.dtype), o, false);
}
Array prod(const Array& a, const ReduceOptions& o) {
  accept_only("prod", o, kWhere | kInitial);
  return with_initial(prod(selected(a, o, 1), o.axis, o.keepdims, o.dtype), o, true);
}
Array nansum(const Array& a, const ReduceOptions& o) {
  accept_only("nansum", o, kWhere | kInitial);
  return with_initial(nansum(selected(a, o, 0), o.axis, o.keepdims, o.dtype), o, false);
}
Array mean(const Array& a, const ReduceOptions& o) {
  accept_only("mean", o, kWhere);
  if (!o.where) return mean(a, o.axis, o.keepdims, o.dtype);
  const Plan p = plan_axes(a.shape(), o.axis, ZeroDAxis::Refuse);
  return finish(masked_mean_keep(a, where_of(a, *o.where), p, o.dtype), p, o.keepdims);
}
Array nanmean(const Array& a, const ReduceOptions& o) {
  accept_only("nanmean", o, kWhere);
  if (!o.where) return nanmean(a, o.axis, o.keepdims, o.dtype);
  const Plan p = plan_axes(a.shape(), o.axis);
  const Array keep = is_inexact(a.dtype()) ? where_of(a, *o.where) & logical_not(isnan(a)) : where_of(a, *o.where);
  return finish(masked_mean_keep(a, keep, p, o.dtype), p, o.keepdims);
}
Array var(const Array& a, const ReduceOptions& o) {
  accept_only("var", o, kWhere);
  return o.where ? masked_var(a, o, false) : var(a, o.axis, o.keepdims, o.ddof, o.dtype);
}
Array std(const Array& a, const ReduceOptions& o) {
  accept_only("std", o, kWhere);
  return o.where ? masked_var(a, o, true) : loom::std(a, o.axis, o.keepdims, o.ddof, o.dtype);
}
Array max(const Array& a, const ReduceOptions& o) { return extremum_of(a, o, true); }
Array min(const Array& a, const ReduceOptions& o) { return extremum_of(a, o, false); }
Array ptp(const Array& a, const ReduceOptions& o) {
  accept_only("ptp", o, 0);
  return ptp(a, o.axis, o.keepdims);
}
Array any(const Array& a, const ReduceOptions& o) {
  accept_only("any", o, kWhere);
  return any(selected(astype(a, DType::Bool), o, false), o.axis, o.keepdims);
}
Array alltrue(const Array& a, const ReduceOptions& o) {
  accept_only("all", o, kWhere);
  return alltrue(selected(astype(a, DType::Bool), o, true), o.axis, o.keepdims);
}
Array count_nonzero(const Array& a, const ReduceOptions& o) {
  accept_only("count_nonzero", o, 0);
  return count_nonzero(a, o.axis, o.keepdims);
}
Array logsumexp(const Array& a, const ReduceOptions& o) {
  accept_only("logsumexp", o, 0);
  return logsumexp(a, o.axis, o.keepdims);
}

}  // namespace loom
