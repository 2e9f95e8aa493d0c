// What the writes share (declared in index/write_helpers.hpp): NumPy's ufunc of each WriteOp,
// its same_kind casting rule and the broadcasting of an assigned value, in NumPy's words.

#include "index/write_helpers.hpp"

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include <loom/reductions.hpp>

#include "api/builders.hpp"
#include "exec/deferred_checks.hpp"

namespace loom {

namespace calls {

const char* ufunc_name(WriteOp op) {
  switch (op) {
    case WriteOp::Set: return "set";
    case WriteOp::Add: return "add";
    case WriteOp::Subtract: return "subtract";
    case WriteOp::Multiply: return "multiply";
    case WriteOp::Divide: return "divide";
    case WriteOp::FloorDivide: return "floor_divide";
    case WriteOp::Remainder: return "remainder";
    case WriteOp::Power: return "power";
    case WriteOp::Min: return "minimum";
    case WriteOp::Max: return "maximum";
    case WriteOp::BitAnd: return "bitwise_and";
    case WriteOp::BitOr: return "bitwise_or";
    case WriteOp::BitXor: return "bitwise_xor";
    case WriteOp::LeftShift: return "left_shift";
    case WriteOp::RightShift: return "right_shift";
  }
  return "?";
}

// x op v (NumPy's ufunc of that name; Set gives v).
Array combine(WriteOp op, const Array& x, const Array& v) {
  switch (op) {
    case WriteOp::Set: return v;
    case WriteOp::Add: return add(x, v);
    case WriteOp::Subtract: return subtract(x, v);
    case WriteOp::Multiply: return multiply(x, v);
    case WriteOp::Divide: return true_divide(x, v);
    case WriteOp::FloorDivide: return floor_divide(x, v);
    case WriteOp::Remainder: return remainder(x, v);
    case WriteOp::Power: return power(x, v);
    case WriteOp::Min: return minimum(x, v);
    case WriteOp::Max: return maximum(x, v);
    case WriteOp::BitAnd: return bitwise_and(x, v);
    case WriteOp::BitOr: return bitwise_or(x, v);
    case WriteOp::BitXor: return bitwise_xor(x, v);
    case WriteOp::LeftShift: return left_shift(x, v);
    case WriteOp::RightShift: return right_shift(x, v);
  }
  return v;
}

// NumPy's can_cast(from, to, "same_kind"): safe casts, or casts within a kind or to a later one
// (bool < unsigned < signed < float < complex).
bool same_kind(DType from, DType to) {
  const auto rank = [](DType t) {
    switch (kind(t)) {
      case DKind::Bool: return 0;
      case DKind::Unsigned: return 1;
      case DKind::Signed: return 2;
      case DKind::Float: return 3;
      case DKind::Complex: return 4;
    }
    return 4;
  };
  return can_cast_safe(from, to) || rank(from) <= rank(to);
}

[[noreturn]] void broadcast_error(const Shape& from, const Shape& into) {
  throw ValueError(fmt::format("could not broadcast input array from shape {} into shape {}",
                               detail::compact(from), detail::compact(into)));
}

// v broadcast to `shape` (NumPy's assignment broadcasting: v may have more leading dims of 1).
Array fit_value(const Array& v, const Shape& shape) {
  Shape s = v.shape();
  int lead = s.size() - shape.size();
  for (int d = 0; d < lead; ++d) {
    if (s[d] != 1) broadcast_error(v.shape(), shape);
  }
  Shape trimmed;
  for (int d = std::max(lead, 0); d < s.size(); ++d) trimmed.push_back(s[d]);
  for (int d = 0; d < trimmed.size(); ++d) {
    const std::int64_t want = shape[shape.size() - trimmed.size() + d];
    if (trimmed[d] != 1 && trimmed[d] != want) broadcast_error(v.shape(), shape);
  }
  return trimmed == v.shape() ? v : v.reshape(trimmed);
}

void check_write(WriteOp op, DType to, const Array& v) {
  if (op == WriteOp::Set) {
    detail::check_written_scalar(v, to);
    return;
  }
  // The ufunc's result dtype, from a 0-d stand-in for the target (promotion looks at dtypes and
  // weak values only; nothing runs).
  const Array target(detail::make_constant(Scalar::of(false, false).cast(to), false));
  check_same_kind(op, combine(op, target, v).dtype(), to);
}

void defer_index_check(const Array& ran, const Array& checked) {
  if (!ran.valid() || checked.size() == 0 || checked.node()->realized()) return;
  exec::defer_check(ran.node(), loom::min(checked).node());  // a read of every index, one value out
}

void check_same_kind(WriteOp op, DType result, DType target) {
  if (!same_kind(result, target)) {
    throw DTypeError(fmt::format("Cannot cast ufunc '{}' output from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
                                 ufunc_name(op), name(result), name(target)));
  }
}

}  // namespace calls

}  // namespace loom
