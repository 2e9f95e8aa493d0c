// NumPy's indexing functions (include/loom/indexing.hpp): putmask, place, copyto, select,
// choose, put, compress, extract, argwhere. Built from where(), the gathers and scatters of
// lib/index/indexing.cpp and nonzero (a library call); NumPy's casting rules and words.

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"
#include "index/write_helpers.hpp"
#include "graph/node.hpp"

namespace loom {

using calls::fit_value;

namespace {

Array as_i64(const Array& a) { return a.dtype() == DType::Int64 ? a : astype(a, DType::Int64); }

// A bool array of a's shape from a mask of a's size (NumPy's putmask and place take any shape).
Array mask_like(const Array& a, const Array& mask, const char* op) {
  if (mask.size() != a.size()) {
    throw ValueError(fmt::format("{}: mask and data must be the same size", op));
  }
  const Array m = mask.dtype() == DType::Bool ? mask : mask != 0;
  return m.shape() == a.shape() ? m : m.reshape(a.shape());
}

Array as_dtype(const Array& v, DType t) { return v.dtype() == t ? v : astype(v, t); }

// NumPy's refusal to cast `from` into `to` under `rule`, in its words ("scalar" for a 0-d array).
[[noreturn]] void cannot_cast(const Array& from, DType to, const char* rule) {
  throw DTypeError(fmt::format("Cannot cast {} from dtype('{}') to dtype('{}') according to the rule '{}'",
                               from.ndim() == 0 ? "scalar" : "array data", name(from.dtype()), name(to), rule));
}

// Whether a C++ number (NEP 50's weak scalar) may take dtype `to`: its kind (bool < integer <
// floating < complex) is not above to's.
bool weak_fits(const Array& v, DType to) {
  const auto rank = [](DType t) { return t == DType::Bool ? 0 : is_integer(t) ? 1 : is_complex(t) ? 3 : 2; };
  return v.node()->weak && rank(v.dtype()) <= rank(to) && (to != DType::Bool || v.dtype() == DType::Bool);
}

// putmask and place take their values as `safe` casts.
void check_safe_values(const Array& values, DType to) {
  detail::check_written_scalar(values, to);
  if (weak_fits(values, to) || can_cast_safe(values.dtype(), to)) return;
  cannot_cast(values, to, "safe");
}

// values.flat[pos] for the put family's repeated values (pos in range): one value (a C++ number
// among them, which has no buffer to gather from) is just broadcast.
Array cycled(const Array& values, const Array& pos) {
  return values.size() == 1 ? values.reshape({}).broadcast_to(pos.shape()) : calls::gather_flat_positions(values, pos);
}

}  // namespace

void putmask(Array& a, const Array& mask, const Array& values) {
  const Array m = mask_like(a, mask, "putmask");
  check_safe_values(values, a.dtype());
  if (values.size() == 0) return;
  const Array pos = remainder(arange(Scalar::of(std::int64_t{0}, false), Scalar::of(a.size(), false),
                                     Scalar::of(std::int64_t{1}, false), DType::Int64),
                              values.size())
                        .reshape(a.shape());
  a = where(m, as_dtype(cycled(values, pos), a.dtype()), a);
}

void place(Array& a, const Array& mask, const Array& values) {
  const Array m = mask_like(a, mask, "place");
  check_safe_values(values, a.dtype());
  if (values.size() == 0) {
    if (any(m).item<bool>()) throw ValueError("Cannot insert from an empty array!");
    return;
  }
  const Array k = (cumsum(m.ravel(), std::nullopt, DType::Int64) - 1).reshape(a.shape());
  a = where(m, as_dtype(cycled(values, remainder(maximum(k, 0), values.size())), a.dtype()), a);
}

void copyto(Array& dst, const Array& src, const Array& where_mask) { copyto(dst, src, "same_kind", where_mask); }

void copyto(Array& dst, const Array& src, const std::string& casting, const Array& where_mask) {
  const DType from = src.dtype(), to = dst.dtype();
  bool ok = false;
  if (casting == "no" || casting == "equiv") ok = from == to;
  else if (casting == "safe") ok = weak_fits(src, to) || can_cast_safe(from, to);
  else if (casting == "same_kind") ok = weak_fits(src, to) || calls::same_kind(from, to);
  else if (casting == "unsafe") ok = true;
  else throw ValueError(fmt::format("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '{}')", casting));
  if (!ok) cannot_cast(src, to, casting.c_str());
  detail::check_written_scalar(src, dst.dtype());
  const Array s = as_dtype(fit_value(src, dst.shape()), dst.dtype());
  if (where_mask.dtype() != DType::Bool) cannot_cast(where_mask, DType::Bool, "safe");
  dst = where(fit_value(where_mask, dst.shape()), s, dst);
}

Array select(const std::vector<Array>& condlist, const std::vector<Array>& choicelist, const Array& default_value) {
  if (condlist.size() != choicelist.size()) {
    throw ValueError("list of cases must be same length as list of conditions");
  }
  if (choicelist.empty()) throw ValueError("select with an empty condition list is not possible");
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    if (condlist[i].dtype() != DType::Bool) {
      throw DTypeError(fmt::format("invalid entry {} in condlist: should be boolean ndarray", i));
    }
  }
  Array r = default_value;
  for (std::size_t i = condlist.size(); i-- > 0;) r = where(condlist[i], choicelist[i], r);
  return r;
}

Array choose(const Array& a, const std::vector<Array>& choices, TakeMode mode) {
  if (!is_integer(a.dtype())) throw DTypeError("choose: the index array must be of integer type");
  if (choices.empty()) throw ValueError("0-length sequence.");
  std::vector<Shape> shapes;  // the choices, then a (NumPy's order in its message)
  for (const Array& c : choices) shapes.push_back(c.shape());
  shapes.push_back(a.shape());
  (void)detail::broadcast_all(shapes);
  const std::int64_t n = static_cast<std::int64_t>(choices.size());
  Array pick = a;
  switch (mode) {
    case TakeMode::Raise:
      if (a.size() > 0 && any((a < 0) | (a >= n)).item<bool>()) throw ValueError("invalid entry in choice array");
      break;
    case TakeMode::Wrap: pick = remainder(as_i64(a), n); break;
    case TakeMode::Clip: pick = clip(as_i64(a), 0, n - 1); break;
  }
  Array r = choices.back();
  for (std::int64_t k = n - 1; k-- > 0;) r = where(pick == k, choices[static_cast<std::size_t>(k)], r);
  // The result broadcasts a with the choices even where one choice is picked everywhere.
  return n == 1 ? where(pick == 0, r, r) : r;
}

void put(Array& a, const Array& ind, const Array& v, TakeMode mode) {
  if (!is_integer(ind.dtype())) throw DTypeError("put: indices must be of integer type");
  detail::check_written_scalar(v, a.dtype());
  const std::int64_t n = a.size(), m = ind.size();
  if (m == 0) return;
  if (v.size() == 0) return;  // NumPy: nothing to put
  if (n == 0) throw IndexError("cannot replace elements of an empty array");
  Array idx = as_i64(ind).reshape({m});
  switch (mode) {
    case TakeMode::Raise: idx = calls::checked_positions(idx, n, 0); break;
    case TakeMode::Wrap: idx = remainder(idx, n); break;
    case TakeMode::Clip: idx = clip(idx, 0, n - 1); break;
  }
  const Array k = arange(Scalar::of(std::int64_t{0}, false), Scalar::of(m, false), Scalar::of(std::int64_t{1}, false),
                         DType::Int64);
  Array ran;
  a = detail::scatter_set(a, idx, cycled(v, remainder(k, v.size())), &ran);
  if (mode == TakeMode::Raise) calls::defer_index_check(ran, idx);
}

Array compress(const Array& condition, const Array& a, std::optional<int> axis) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  const Array idx = nonzero(condition)[0];
  return take(a, idx, axis);
}

Array extract(const Array& condition, const Array& a) {
  const Array c = condition.dtype() == DType::Bool ? condition : condition != 0;
  return take(a, nonzero(c.ravel())[0]);
}

Array argwhere(const Array& a) {
  const std::vector<Array> nz = nonzero(a.ndim() == 0 ? a.reshape({1}) : a);
  const std::int64_t count = nz.empty() ? 0 : nz[0].size();
  if (a.ndim() == 0) return zeros({count, 0}, DType::Int64);
  const Array col = arange(a.ndim()).astype(DType::Int64).reshape({1, a.ndim()});
  Array r = nz.back().reshape({count, 1}).broadcast_to({count, a.ndim()});
  for (int d = a.ndim() - 1; d-- > 0;) r = where(col == d, nz[static_cast<std::size_t>(d)].reshape({count, 1}), r);
  return r;
}

}  // namespace loom
