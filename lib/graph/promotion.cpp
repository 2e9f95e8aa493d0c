#include "graph/promotion.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom {

std::ostream& operator<<(std::ostream& os, DType t) { return os << name(t); }

namespace {

DType signed_of_size(std::size_t bytes) {
  switch (bytes) {
    case 1: return DType::Int8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
  }
}

DType promote_float(DType a, DType b) {
  if (a == b) return a;
  if (is_half(a) && is_half(b)) return DType::Float32;  // float16 with bfloat16
  return itemsize(a) >= itemsize(b) ? a : b;
}

}  // namespace

DType promote_types(DType a, DType b) {
  detail::check_dtype(a, "promote_types");
  detail::check_dtype(b, "promote_types");
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const DKind ka = kind(a), kb = kind(b);
  if (ka == DKind::Complex || kb == DKind::Complex) {
    const DType ca = detail::complex_type_for(detail::float_type_for(a));
    const DType cb = detail::complex_type_for(detail::float_type_for(b));
    return itemsize(ca) >= itemsize(cb) ? ca : cb;
  }
  if (ka == DKind::Float && kb == DKind::Float) return promote_float(a, b);
  if (ka == DKind::Float || kb == DKind::Float) {  // an integer meets a float
    const DType f = ka == DKind::Float ? a : b;
    const DType fi = detail::float_type_for(ka == DKind::Float ? b : a);
    return itemsize(fi) <= itemsize(f) ? f : fi;
  }
  if (ka == kb) return itemsize(a) >= itemsize(b) ? a : b;
  // One signed, one unsigned.
  const DType s = ka == DKind::Signed ? a : b;
  const DType u = ka == DKind::Signed ? b : a;
  if (itemsize(u) < itemsize(s)) return s;
  if (u == DType::UInt64) return DType::Float64;
  return signed_of_size(std::max(itemsize(s), 2 * itemsize(u)));
}

bool can_cast_safe(DType from, DType to) { return promote_types(from, to) == to; }

}  // namespace loom

namespace loom::detail {

DType float_type_for(DType t) {
  switch (kind(t)) {
    case DKind::Bool: return DType::Float16;
    case DKind::Signed:
    case DKind::Unsigned:
      if (itemsize(t) == 1) return DType::Float16;
      if (itemsize(t) == 2) return DType::Float32;
      return DType::Float64;
    case DKind::Float:
    case DKind::Complex: return t;
  }
  return t;
}

DType complex_type_for(DType t) {
  if (is_complex(t)) return t;
  return t == DType::Float64 ? DType::Complex128 : DType::Complex64;
}

DType real_type_for(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

Operand common_type(Operand a, Operand b) {
  if (a.weak && b.weak) {
    const auto dflt = [](DType t) {
      switch (kind(t)) {
        case DKind::Bool: return DType::Bool;
        case DKind::Signed:
        case DKind::Unsigned: return t == DType::UInt64 ? DType::UInt64 : DType::Int64;
        case DKind::Float: return DType::Float64;
        case DKind::Complex: return DType::Complex128;
      }
      return t;
    };
    return {promote_types(dflt(a.dtype), dflt(b.dtype)), true};
  }
  if (!a.weak && !b.weak) return {promote_types(a.dtype, b.dtype), false};
  const Operand w = a.weak ? a : b;
  const DType s = a.weak ? b.dtype : a.dtype;
  switch (kind(w.dtype)) {
    case DKind::Bool: return {s, false};
    case DKind::Signed:
    case DKind::Unsigned:
      if (is_bool(s)) return {w.dtype == DType::UInt64 ? DType::UInt64 : DType::Int64, false};
      return {s, false};
    case DKind::Float:
      return {is_inexact(s) ? s : DType::Float64, false};
    case DKind::Complex:
      if (is_complex(s)) return {s, false};
      if (is_floating(s)) return {complex_type_for(s), false};
      return {DType::Complex128, false};
  }
  return {s, false};
}

std::string dtype_list(std::span<const DType> dtypes) {
  std::string s = "(";
  for (std::size_t i = 0; i < dtypes.size(); ++i) {
    if (i) s += ", ";
    s += name(dtypes[i]);
  }
  return s + ")";
}

namespace {

[[noreturn]] void unsupported(Op op, std::span<const DType> in) {
  throw DTypeError(fmt::format(
      "ufunc '{}' not supported for the input types {}, and the inputs could not be safely "
      "coerced to any supported types according to the casting rule 'safe'",
      op_name(op), dtype_list(in)));
}

}  // namespace

OpTypes resolve_op_types(Op op, DType c, std::span<const DType> in) {
  // The rule is the op's row of ops.def (leaves, views and astype: Same).
  switch (op_info(op).rule) {
    case TypeRule::Same:
    case TypeRule::Arith:
    case TypeRule::Where: return {c, c};
    case TypeRule::NoBool:
      if (is_bool(c)) {
        if (op == Op::Neg) {
          throw DTypeError(
              "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
              "operator or the logical_not function instead.");
        }
        if (op == Op::Sub) {
          throw DTypeError(
              "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
              "the `^` operator, or the logical_xor function instead.");
        }
        unsupported(op, in);
      }
      return {c, c};
    case TypeRule::Abs:
    case TypeRule::ComplexPart: return {c, real_type_for(c)};
    case TypeRule::BoolToInt8:
      if (is_bool(c)) return {DType::Int8, DType::Int8};
      return {c, c};
    case TypeRule::FloatFunc: {
      const DType f = float_type_for(c);
      return {f, f};
    }
    case TypeRule::RealFloatFunc: {
      if (is_complex(c)) unsupported(op, in);
      // NumPy picks the first float loop every input casts to safely: int8 with uint16 meet in
      // float32, not in float_type_for(int32).
      DType f = float_type_for(c);
      if (in.size() == 2 && !is_inexact(c)) {
        f = promote_types(float_type_for(in[0]), float_type_for(in[1]));
      }
      return {f, f};
    }
    case TypeRule::RealSame:
      if (is_complex(c)) unsupported(op, in);
      return {c, c};
    case TypeRule::Predicate:
    case TypeRule::Compare: return {c, DType::Bool};
    case TypeRule::Logical: return {DType::Bool, DType::Bool};
    case TypeRule::IntOnly:
      if (!is_bool(c) && !is_integer(c)) unsupported(op, in);
      return {c, c};
    case TypeRule::Shift:
      if (is_bool(c)) return {DType::Int8, DType::Int8};
      if (!is_integer(c)) unsupported(op, in);
      return {c, c};
    case TypeRule::TrueDiv:
      if (!is_inexact(c)) return {DType::Float64, DType::Float64};
      return {c, c};
    case TypeRule::IntDiv:
      if (is_complex(c)) unsupported(op, in);
      if (is_bool(c)) return {DType::Int8, DType::Int8};
      return {c, c};
  }
  unsupported(op, in);
}

}  // namespace loom::detail
