// Accumulating scatters (include/loom/indexing.hpp): NumPy's ufunc.at family, x.at(integer
// arrays).add(...) and np.bincount. Every duplicate position counts, so they cannot be a where()
// over x as the other writes are: one barrier call reduces the values at each position of x
// (runtime/libs/cub/cub_scatter.cu: atomics for integers, a stable sort by position and a
// segmented reduction in a fixed order for floating point), and the update x op agg, where a
// position was hit, fuses into whatever reads the result. Where NumPy's cast back after each value
// truncates (floats into integers), no reduction gives its answer: index/scatter_fold.cpp applies
// the values one at a time.

#include <fmt/format.h>

#include <bit>
#include <complex>
#include <limits>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/indexing.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "index/scatter_fold.hpp"
#include "index/write_helpers.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"
#include "runtime/device_errors.hpp"

namespace loom {

namespace {

using algo::ScatterOp;
using detail::CallContext;
using ref::HostArray;

const char* scatter_name(ScatterOp op) {
  switch (op) {
    case ScatterOp::Sum: return "sum";
    case ScatterOp::Prod: return "product";
    case ScatterOp::Min: return "minimum";
    case ScatterOp::Max: return "maximum";
  }
  return "?";
}

// What a position's values reduce with: x - v1 - v2 is x - (v1 + v2), x / v1 / v2 is
// x / (v1 * v2).
std::optional<ScatterOp> scatter_op(WriteOp op) {
  switch (op) {
    case WriteOp::Add:
    case WriteOp::Subtract: return ScatterOp::Sum;
    case WriteOp::Multiply:
    case WriteOp::Divide: return ScatterOp::Prod;
    case WriteOp::Min: return ScatterOp::Min;
    case WriteOp::Max: return ScatterOp::Max;
    case WriteOp::Set:
    case WriteOp::FloorDivide:
    case WriteOp::Remainder:
    case WriteOp::Power:
    case WriteOp::BitAnd:
    case WriteOp::BitOr:
    case WriteOp::BitXor:
    case WriteOp::LeftShift:
    case WriteOp::RightShift: return std::nullopt;
  }
  return std::nullopt;
}

// The dtype the values of a result dtype reduce in: integers in 64 bits (wrap-around leaves the
// low bits of any narrower result), float16 and bfloat16 in float32.
DType accumulation(DType t) {
  if (is_signed_int(t)) return DType::Int64;
  if (is_unsigned_int(t)) return DType::UInt64;
  if (is_half(t)) return DType::Float32;
  return t;
}

// --- the host side: positions in order, as NumPy goes through them ---

template <class T> T host_identity(ScatterOp op) {
  if constexpr (std::is_same_v<T, bool>) {
    return op == ScatterOp::Sum || op == ScatterOp::Max ? false : true;
  } else if constexpr (std::is_integral_v<T>) {
    if (op == ScatterOp::Sum) return T(0);
    if (op == ScatterOp::Prod) return T(1);
    return op == ScatterOp::Min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (op == ScatterOp::Sum) return T(-0.0);
    if (op == ScatterOp::Prod) return T(1);
    return op == ScatterOp::Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  } else {
    using R = typename T::value_type;
    const R inf = std::numeric_limits<R>::infinity();
    if (op == ScatterOp::Sum) return T(R(-0.0), R(-0.0));
    if (op == ScatterOp::Prod) return T(1, 0);
    return op == ScatterOp::Min ? T(inf, inf) : T(-inf, -inf);
  }
}

template <class R> bool has_nan(std::complex<R> v) { return std::isnan(v.real()) || std::isnan(v.imag()); }

template <class T> T host_combine(ScatterOp op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return op == ScatterOp::Sum || op == ScatterOp::Max ? (a || b) : (a && b);
  } else if constexpr (std::is_integral_v<T>) {
    const auto x = static_cast<std::uint64_t>(a), y = static_cast<std::uint64_t>(b);
    if (op == ScatterOp::Sum) return static_cast<T>(x + y);
    if (op == ScatterOp::Prod) return static_cast<T>(x * y);
    return op == ScatterOp::Min ? std::min(a, b) : std::max(a, b);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (op == ScatterOp::Sum) return a + b;
    if (op == ScatterOp::Prod) return a * b;
    return ((op == ScatterOp::Min ? a < b : a > b) || std::isnan(a)) ? a : b;
  } else {  // complex: the schoolbook product and NumPy's lexicographic minimum and maximum
    if (op == ScatterOp::Sum) return a + b;
    if (op == ScatterOp::Prod) {
      return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    }
    const bool le = a.real() < b.real() || (a.real() == b.real() && a.imag() <= b.imag());
    const bool ge = a.real() > b.real() || (a.real() == b.real() && a.imag() >= b.imag());
    return ((op == ScatterOp::Min ? le : ge) || has_nan(a)) ? a : b;
  }
}

// `checked`: pos holds the user's int64 indices into an axis of n (NumPy's IndexError for one out of
// [-n, n), counted from the end where negative).
void host_scatter(ScatterOp op, const HostArray& pos, const HostArray* values, HostArray& agg, HostArray* hit,
                  bool checked = false) {
  const std::size_t m = pos.numel(), n = agg.numel();
  if (checked) {
    const auto* raw = reinterpret_cast<const std::int64_t*>(pos.data.data());
    const auto extent = static_cast<std::int64_t>(n);
    for (std::size_t i = 0; i < m; ++i) {
      if (raw[i] < -extent || raw[i] >= extent) throw IndexError(index_error_message(raw[i], extent, 0));
    }
  }
  auto* h = hit ? reinterpret_cast<bool*>(hit->data.data()) : nullptr;
  if (h) std::fill(h, h + n, false);
  visit_dtype(agg.dtype, [&]<class T>() {
    if constexpr (!std::is_same_v<T, half> && !std::is_same_v<T, bfloat16_t>) {
      auto* out = reinterpret_cast<T*>(agg.data.data());
      std::fill(out, out + n, host_identity<T>(op));
      const auto* v = values ? reinterpret_cast<const T*>(values->data.data()) : nullptr;
      for (std::size_t i = 0; i < m; ++i) {
        std::uint64_t p = 0;
        if (pos.dtype == DType::UInt32) p = reinterpret_cast<const std::uint32_t*>(pos.data.data())[i];
        else p = static_cast<std::uint64_t>(reinterpret_cast<const std::int64_t*>(pos.data.data())[i]);
        if (checked && static_cast<std::int64_t>(p) < 0) p += n;
        out[p] = host_combine<T>(op, out[p], v ? v[i] : T(1));
        if (h) h[p] = true;
      }
    }
  });
}

struct Scattered {
  Array agg;  // over n positions: the reduction of the values there (op's identity where none)
  std::optional<Array> hit;  // where some value was (when asked for)
};

// The values (acc dtype, one per position; none: each is 1) reduced at their flat positions
// (int64, in [0, n)) of an array of n elements: a barrier call. The sort takes the positions as
// uint32 where they fit (half the bytes through every radix pass); the atomics read them as they are.
// `checked` (atomics only): pos holds the user's indices into an axis of n, checked and counted
// from the end by the call itself (np.add.at(x, idx, v) on a 1-d x: no kernel writes the checked
// positions first, which cost a third of the time into 2^20 bins).
Scattered scatter_reduce_call(const char* op_name, const Array& pos, const std::optional<Array>& values, DType acc,
                              ScatterOp op, std::int64_t n, Accumulate how, bool want_hit = false,
                              bool checked = false) {
  const std::int64_t m = pos.size();
  const bool atomic = how == Accumulate::Atomic;
  if (checked && !algo::scatter_uses_atomics(acc, op, atomic)) {
    throw InternalError("internal: unchecked scatter positions on the sorted path");
  }
  const bool pos32 = !algo::scatter_uses_atomics(acc, op, atomic) && n <= (std::int64_t{1} << 32);
  const Array p = pos.reshape({m}).astype(pos32 ? DType::UInt32 : DType::Int64);
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = op_name;
  const int bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1) - 1))));
  spec->text = algo::scatter_uses_atomics(acc, op, atomic)
                   ? fmt::format("atomic {} at {} positions, {} ({}){}", scatter_name(op), n, name(acc),
                                 is_inexact(acc) ? "Accumulate::Atomic: the order of the additions varies"
                                                 : "exact in any order",
                                 checked ? ", the indices checked as they are read" : "")
                   : fmt::format("cub::DeviceRadixSort::SortPairs on {} position bits + {} ({}) at {} positions, "
                                 "{} (deterministic)",
                                 bits, m < algo::kScatterBlockRun * n ? "a warp per position" : "cub::DeviceSegmentedReduce::Reduce",
                                 scatter_name(op), n, name(acc));
  spec->inputs = {p.node()};
  if (values) spec->inputs.push_back(values->reshape({m}).node());
  spec->outputs = {{acc, Shape{n}}};
  if (want_hit) spec->outputs.push_back({DType::Bool, Shape{n}});
  const bool has_values = values.has_value();
  spec->device = [=](CallContext& ctx) {
    const void* v = has_values ? ctx.contiguous(1).data() : nullptr;
    bool* hit = want_hit ? static_cast<bool*>(ctx.out[1]) : nullptr;
    algo::scatter_reduce(acc, op, ctx.contiguous(0).data(), pos32, v, m, ctx.out[0], hit, n, atomic,
                         calls::stream_of(ctx), calls::workspace_of(ctx),
                         checked ? rt::device_error_record(ctx.device) : nullptr);
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    host_scatter(op, *in[0], has_values ? in[1] : nullptr, out[0], want_hit ? &out[1] : nullptr, checked);
  };
  const std::vector<Array> r = calls::make_call_arrays(spec);
  if (want_hit) return {r[0], r[1]};
  return {r[0], std::nullopt};
}

bool has_integer_array(std::span<const Index> idx) {
  for (const Index& e : idx) {
    if (const auto* a = std::get_if<IndexArray>(&e.value()); a && is_integer(Array(a->node).dtype())) return true;
  }
  return false;
}

}  // namespace

namespace detail {

namespace {

// NumPy's ufunc.at reads a Python integer in its loop's dtype, cast unsafely (np.add.at(int8
// array, idx, 300) adds 44), where every other ufunc raises NEP 50's OverflowError: a C++ integer
// that does not fit x's integer dtype is wrapped into it first.
Array ufunc_at_value(const Array& v, DType target) {
  const NodeRef n = leaf_of(v, "at");
  if (n->op != Op::Constant || !n->weak || !is_integer(n->dtype) || !is_integer(target) ||
      weak_int_fits(n->value, target)) {
    return v;
  }
  return Array(make_constant(n->value.cast(target), false));
}

}  // namespace

Array accumulate(const Array& x, std::span<const Index> idx, const Array& v_in, WriteOp op, Accumulate how,
                 bool ufunc_at) {
  const std::optional<ScatterOp> sop = scatter_op(op);
  const Array v = ufunc_at ? ufunc_at_value(v_in, x.dtype()) : v_in;
  if (!has_integer_array(idx)) {  // every position once: an ordinary write
    if (op != WriteOp::Set) {
      const std::vector<Index> basic(idx.begin(), idx.end());
      const Array cur = x.index(basic);
      const Array vf = calls::fit_value(v, cur.shape());
      const DType rt = calls::combine(op, cur, vf).dtype();
      if (!ufunc_at) calls::check_same_kind(op, rt, x.dtype());  // x.at(): NumPy's in-place rule
      // ufunc.at casts unsafely, as NumPy does (NaN and overflow into integers included): the fold
      // at the positions, each once.
      if (ufunc_at && calls::ufunc_at_folds(rt, x.dtype(), op)) {
        if (cur.size() == 0) return x;
        return calls::fold_at(x, arange(x.size()).reshape(x.shape()).index(basic), vf, op, rt);
      }
    }
    return write(x, idx, v, op);
  }
  if (!sop) {
    throw IndexError(fmt::format("x.at(integer arrays).{}: applying every duplicate in turn is not a reduction "
                                 "and is not supported (NumPy's x[idx] = {}(x[idx], v), where the last duplicate "
                                 "wins, is)",
                                 calls::ufunc_name(op), calls::ufunc_name(op)));
  }
  Array pos;
  const Array cur = advanced_index(x, idx, true, &pos);
  Array vf;  // v as it broadcasts to cur (a C++ number stays a weak scalar: NEP 50)
  try {
    vf = calls::fit_value(v, cur.shape());
    (void)vf.broadcast_to(cur.shape());
  } catch (const ValueError&) {
    throw ValueError("array is not broadcastable to correct shape");  // NumPy's words
  }
  const DType rt = calls::combine(op, cur, vf).dtype();  // the ufunc's loop (and NumPy's TypeErrors)
  if (!ufunc_at) calls::check_same_kind(op, rt, x.dtype());  // x.at(): NumPy's in-place rule
  // NumPy casts the result back into x after every value (unsafely). Where that cast is exact
  // or only rounds (integers wrap around in any width; a wider float rounds once here, not at
  // every step) a reduction of the values gives its result; where it truncates (floats into
  // integers, numbers into bools) only applying the values one at a time does.
  if (calls::ufunc_at_folds(rt, x.dtype(), op)) {
    if (cur.size() == 0 || x.size() == 0) return x;
    return calls::fold_at(x, pos, vf, op, rt);
  }
  if (cur.size() == 0 || x.size() == 0) return x;
  const DType acc = accumulation(rt);
  // x - v1 - v2 is x + (-v1 - v2): a sum, whose identity -0.0 leaves x as it was where nothing
  // is added. The other identities (1, the largest, the smallest) do too, but for complex products,
  // where x * (1 + 0j) is not always x: only there a hit mask says where values were.
  Array vals = vf.astype(acc).broadcast_to(cur.shape());
  if (op == WriteOp::Subtract) vals = negative(vals);
  const bool want_hit = is_complex(acc) && *sop == ScatterOp::Prod;
  // One integer array into a 1-d x on the atomic path: the atomics read the user's indices and
  // check them themselves (pos would be those indices checked, written out by a kernel first).
  const auto* only = idx.size() == 1 ? std::get_if<IndexArray>(&idx[0].value()) : nullptr;
  const bool direct = x.ndim() == 1 && only && is_integer(Array(only->node).dtype()) &&
                      algo::scatter_uses_atomics(acc, *sop, how == Accumulate::Atomic);
  const Array raw = direct ? Array(only->node).astype(DType::Int64) : Array();
  const Scattered s = direct ? scatter_reduce_call(calls::ufunc_name(op), raw, vals, acc, *sop, x.size(), how, want_hit,
                                                   true)
                             : scatter_reduce_call(calls::ufunc_name(op), pos, vals, acc, *sop, x.size(), how, want_hit);
  const Array agg = s.agg.reshape(x.shape());
  const Array updated = op == WriteOp::Subtract ? add(x, agg) : calls::combine(op, x, agg);
  const Array cast = updated.dtype() == x.dtype() ? updated : astype(updated, x.dtype());
  Array r = want_hit ? where(s.hit->reshape(x.shape()), cast, x) : cast;
  calls::defer_index_check(s.agg, pos);  // the call reads the indices whatever reads r
  return r;
}

}  // namespace detail

namespace {

void apply_at(WriteOp op, Array& a, std::span<const Index> index, const Array& b, Accumulate how) {
  a = detail::accumulate(a, index, b, op, how, true);
}

}  // namespace

#define LOOM_UFUNC_AT(fname, op)                                                                       \
  void fname(Array& a, const Index& index, const Array& b, Accumulate how) {                          \
    apply_at(op, a, std::span<const Index>(&index, 1), b, how);                                       \
  }                                                                                                    \
  void fname(Array& a, std::initializer_list<Index> index, const Array& b, Accumulate how) {          \
    apply_at(op, a, std::span<const Index>(index.begin(), index.size()), b, how);                     \
  }                                                                                                    \
  void fname(Array& a, std::span<const Index> index, const Array& b, Accumulate how) {                \
    apply_at(op, a, index, b, how);                                                                    \
  }
LOOM_UFUNC_AT(add_at, WriteOp::Add)
LOOM_UFUNC_AT(subtract_at, WriteOp::Subtract)
LOOM_UFUNC_AT(multiply_at, WriteOp::Multiply)
LOOM_UFUNC_AT(divide_at, WriteOp::Divide)
LOOM_UFUNC_AT(minimum_at, WriteOp::Min)
LOOM_UFUNC_AT(maximum_at, WriteOp::Max)
#undef LOOM_UFUNC_AT

Array bincount(const Array& x, const std::optional<Array>& weights, std::int64_t minlength, Accumulate how) {
  if (x.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (x.ndim() > 1) throw ValueError("object too deep for desired array");
  // NumPy casts an integer array to intp unsafely (uint64 values of 2^63 and more wrap to
  // negative ones and are refused below), anything else safely (bool passes, floats do not).
  if (!is_integer(x.dtype()) && !can_cast_safe(x.dtype(), DType::Int64)) {
    throw DTypeError(fmt::format("Cannot cast array data from dtype('{}') to dtype('int64') according to the rule 'safe'",
                                 name(x.dtype())));
  }
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  if (x.size() == 0) return zeros({minlength}, DType::Int64);  // NumPy's, whatever the weights
  if (weights) {
    if (weights->ndim() != 1) throw ValueError(weights->ndim() == 0 ? "object of too small depth for desired array"
                                                                   : "object too deep for desired array");
    if (!can_cast_safe(weights->dtype(), DType::Float64)) {
      throw DTypeError(fmt::format("Cannot cast array data from dtype('{}') to dtype('float64') according to the rule 'safe'",
                                   name(weights->dtype())));
    }
    if (weights->size() != x.size()) throw ValueError("The weights and list don't have the same length.");
  }
  const DType out = weights ? DType::Float64 : DType::Int64;
  // The size depends on the values: read the largest and the smallest (one synchronization).
  const Array xi = x.astype(DType::Int64);
  const Array lo = min(xi), hi = max(xi);
  eval({lo, hi});
  if (lo.item<std::int64_t>() < 0) throw ValueError("'list' argument must have no negative elements");
  const std::int64_t top = hi.item<std::int64_t>();
  // NumPy computes max + 1 in int64: for a value of INT64_MAX it wraps to a negative length and
  // NumPy then writes out of bounds ([] or minlength zeros, and a corrupted heap). No array of
  // 2^63 bins exists: loom gives the ValueError NumPy gives for any length too big to allocate.
  if (top == std::numeric_limits<std::int64_t>::max()) {
    throw ValueError("bincount: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                     "possible size. (the largest value, 9223372036854775807, asks for 2**63 bins)");
  }
  const std::int64_t n = std::max(top + 1, minlength);
  (void)detail::checked_nbytes(Shape{n}, out, "bincount");  // too big: the same ValueError, before any call
  std::optional<Array> w;
  if (weights) w = weights->astype(DType::Float64);
  const Array agg = scatter_reduce_call("bincount", xi, w, out, ScatterOp::Sum, n, how).agg;
  // NumPy starts every bin at 0: +0.0 where the sum is -0.0 or nothing was added.
  return weights ? agg + 0.0 : agg;
}

namespace detail {

Array bincount_in_range(const Array& pos, const std::optional<Array>& weights, std::int64_t n) {
  std::optional<Array> w;
  if (weights) w = weights->reshape({-1}).astype(DType::Float64);
  const Array p = pos.reshape({-1}).astype(DType::Int64);
  if (p.size() == 0) return zeros({n}, weights ? DType::Float64 : DType::Int64);
  const Array agg =
      scatter_reduce_call("histogram", p, w, weights ? DType::Float64 : DType::Int64, ScatterOp::Sum, n, Accumulate::Deterministic).agg;
  return weights ? agg + 0.0 : agg;
}

}  // namespace detail

}  // namespace loom
