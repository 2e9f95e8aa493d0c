// The elementwise ufuncs and operators of include/loom/ops.hpp: each is one node built by the
// helpers in builders.cpp; composites (clip, round) are built from ops of the table.

#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "graph/promotion.hpp"

namespace loom {

using detail::binary;
using detail::Op;
using detail::unary;

#define LOOM_UNARY(fn, op) \
  Array fn(const Array& a) { return unary(Op::op, a); }
#define LOOM_BINARY(fn, op) \
  Array fn(const Array& a, const Array& b) { return binary(Op::op, a, b); }

LOOM_BINARY(add, Add)
LOOM_BINARY(subtract, Sub)
LOOM_BINARY(multiply, Mul)
LOOM_BINARY(divide, TrueDiv)
LOOM_BINARY(true_divide, TrueDiv)
LOOM_BINARY(floor_divide, FloorDiv)
LOOM_BINARY(remainder, Remainder)
LOOM_BINARY(mod, Remainder)
LOOM_UNARY(negative, Neg)
LOOM_UNARY(positive, Pos)

LOOM_BINARY(equal, Equal)
LOOM_BINARY(not_equal, NotEqual)
LOOM_BINARY(less, Less)
LOOM_BINARY(less_equal, LessEqual)
LOOM_BINARY(greater, Greater)
LOOM_BINARY(greater_equal, GreaterEqual)

LOOM_BINARY(logical_and, LogicalAnd)
LOOM_BINARY(logical_or, LogicalOr)
LOOM_BINARY(logical_xor, LogicalXor)
LOOM_UNARY(logical_not, LogicalNot)
LOOM_BINARY(bitwise_and, BitAnd)
LOOM_BINARY(bitwise_or, BitOr)
LOOM_BINARY(bitwise_xor, BitXor)
LOOM_UNARY(bitwise_not, Invert)
LOOM_UNARY(invert, Invert)
LOOM_BINARY(left_shift, LeftShift)
LOOM_BINARY(right_shift, RightShift)

LOOM_UNARY(abs, Abs)
LOOM_UNARY(absolute, Abs)
LOOM_UNARY(sign, Sign)
LOOM_UNARY(sqrt, Sqrt)
LOOM_UNARY(cbrt, Cbrt)
LOOM_UNARY(square, Square)
LOOM_UNARY(reciprocal, Reciprocal)
LOOM_UNARY(exp, Exp)
LOOM_UNARY(exp2, Exp2)
LOOM_UNARY(expm1, Expm1)
LOOM_UNARY(log, Log)
LOOM_UNARY(log2, Log2)
LOOM_UNARY(log10, Log10)
LOOM_UNARY(log1p, Log1p)
LOOM_UNARY(sin, Sin)
LOOM_UNARY(cos, Cos)
LOOM_UNARY(tan, Tan)
LOOM_UNARY(arcsin, Arcsin)
LOOM_UNARY(arccos, Arccos)
LOOM_UNARY(arctan, Arctan)
LOOM_UNARY(sinh, Sinh)
LOOM_UNARY(cosh, Cosh)
LOOM_UNARY(tanh, Tanh)
LOOM_UNARY(arcsinh, Arcsinh)
LOOM_UNARY(arccosh, Arccosh)
LOOM_UNARY(arctanh, Arctanh)
LOOM_UNARY(floor, Floor)
LOOM_UNARY(ceil, Ceil)
LOOM_UNARY(trunc, Trunc)
LOOM_UNARY(rint, Rint)

LOOM_BINARY(maximum, Maximum)
LOOM_BINARY(minimum, Minimum)
LOOM_BINARY(fmax, Fmax)
LOOM_BINARY(fmin, Fmin)
LOOM_BINARY(arctan2, Arctan2)
LOOM_BINARY(hypot, Hypot)
LOOM_BINARY(copysign, Copysign)

LOOM_UNARY(isnan, IsNan)
LOOM_UNARY(isinf, IsInf)
LOOM_UNARY(isfinite, IsFinite)

LOOM_UNARY(real, Real)
LOOM_UNARY(imag, Imag)
LOOM_UNARY(conj, Conj)
LOOM_UNARY(conjugate, Conj)

#undef LOOM_UNARY
#undef LOOM_BINARY

Array where(const Array& cond, const Array& x, const Array& y) {
  return detail::ternary_where(cond, x, y);
}

namespace {

// NumPy 2's clip of an integer array by a C++ integer outside the dtype's range: a bound that
// does not cut anything (lo below the minimum, hi above the maximum) is the range's end; one
// that would cut everything raises as any out-of-range integer does ("Python integer 1000 out
// of bounds for int8").
Array clip_bound(DType t, const Array& bound, bool is_lo) {
  const detail::Node& n = *detail::leaf_of(bound, "clip");
  if (!is_integer(t) || n.op != Op::Constant || !n.weak || !is_integer(n.dtype)) return bound;
  const Scalar& v = n.value;
  const bool negative = kind(v.dtype) == DKind::Signed && v.i < 0;
  if (detail::weak_int_fits(v, t)) return bound;
  if (negative != is_lo) detail::check_weak_int_fits(v, t);  // raises
  return visit_dtype(t, [&]<class T>() -> Array {
    if constexpr (std::is_integral_v<T>) {
      return is_lo ? Array(std::numeric_limits<T>::lowest()) : Array(std::numeric_limits<T>::max());
    } else {
      return bound;
    }
  });
}

}  // namespace

namespace {

// NumPy's float32 and float64 power loops take a fast path when the exponent is one value for
// the whole loop (loops_umath_fp.dispatch.c.src): -1 -> 1.0 / x, 0 -> 1, 0.5 -> sqrt(x),
// 1 -> x, 2 -> x * x, compared in the loop's dtype. sqrt differs from pow in value (pow(-inf,
// 0.5) is inf, sqrt nan; pow(-0.0, 0.5) is 0.0, sqrt -0.0), the others only in the last bits of
// the GPU's pow. An exponent known when the graph is built (a constant: a C++ number, a strong
// scalar, full() or a view of one) is lowered here to that op, which fuses as power does. (An
// evaluated exponent array of one value, which NumPy's loop sees as one too, is not read here:
// loom computes pow for it.) 0 is not lowered: pow(x, 0) is 1 for every x, NaN included.
std::optional<Op> fast_power(const Array& result, const Array& exponent) {
  const DType t = result.dtype();
  if (t != DType::Float32 && t != DType::Float64) return std::nullopt;
  const detail::NodeRef n = detail::leaf_of(exponent, "power");
  const detail::Node& e = n->op == Op::View && n->inputs[0]->op == Op::Constant ? *n->inputs[0] : *n;
  if (e.op != Op::Constant || is_complex(e.dtype)) return std::nullopt;
  const double v = e.value.cast(t).f;
  if (v == -1.0) return Op::Reciprocal;
  if (v == 0.5) return Op::Sqrt;
  if (v == 1.0) return Op::Pos;
  if (v == 2.0) return Op::Square;
  return std::nullopt;
}

}  // namespace

Array power(const Array& a, const Array& b) {
  const Array r = binary(Op::Power, a, b);  // NumPy's dtype rule and errors
  const std::optional<Op> op = fast_power(r, b);
  if (!op) return r;
  const Array x = unary(*op, a.dtype() == r.dtype() ? a : astype(a, r.dtype()));
  return x.shape() == r.shape() ? x : x.broadcast_to(r.shape());
}

// NumPy's clip is minimum(maximum(a, lo), hi): NaN in a propagates.
Array clip(const Array& a, const Array& lo, const Array& hi) {
  const Array l = clip_bound(a.dtype(), lo, true);
  const Array h = clip_bound(a.dtype(), hi, false);
  return minimum(maximum(a, l), h);
}

Array round(const Array& a, int decimals) {
  const DType t = a.dtype();
  if (is_bool(t)) {
    // NumPy rounds bools through rint (float16); with decimals it scales by a bool factor,
    // which its same_kind rule refuses.
    if (decimals == 0) return rint(a);
    throw DTypeError(fmt::format(
        "round: Cannot cast ufunc '{}' output from dtype('float64') to dtype('bool') with "
        "casting rule 'same_kind'",
        decimals > 0 ? "multiply" : "divide"));
  }
  if (is_integer(t)) {
    if (decimals >= 0) return a;
    // NumPy rounds integers to tens, hundreds... half to even, in the integer dtype.
    const double scale = std::pow(10.0, -decimals);
    return astype(rint(astype(a, DType::Float64) / scale) * scale, t);
  }
  if (decimals == 0) return rint(a);
  const double scale = std::pow(10.0, std::abs(decimals));
  return decimals > 0 ? rint(a * scale) / scale : rint(a / scale) * scale;
}
Array around(const Array& a, int decimals) { return round(a, decimals); }

Array astype(const Array& a, DType dtype) {
  const detail::NodeRef x = detail::leaf_of(a, "astype");
  if (x->dtype == dtype) return Array(x);
  return Array(detail::make_cast(x, dtype));
}

Array operator+(const Array& a, const Array& b) { return add(a, b); }
Array operator-(const Array& a, const Array& b) { return subtract(a, b); }
Array operator*(const Array& a, const Array& b) { return multiply(a, b); }
Array operator/(const Array& a, const Array& b) { return true_divide(a, b); }
Array operator%(const Array& a, const Array& b) { return remainder(a, b); }
Array operator-(const Array& a) { return negative(a); }
Array operator+(const Array& a) { return positive(a); }
Array operator==(const Array& a, const Array& b) { return equal(a, b); }
Array operator!=(const Array& a, const Array& b) { return not_equal(a, b); }
Array operator<(const Array& a, const Array& b) { return less(a, b); }
Array operator<=(const Array& a, const Array& b) { return less_equal(a, b); }
Array operator>(const Array& a, const Array& b) { return greater(a, b); }
Array operator>=(const Array& a, const Array& b) { return greater_equal(a, b); }
Array operator&(const Array& a, const Array& b) { return bitwise_and(a, b); }
Array operator|(const Array& a, const Array& b) { return bitwise_or(a, b); }
Array operator^(const Array& a, const Array& b) { return bitwise_xor(a, b); }
Array operator~(const Array& a) { return invert(a); }
Array operator!(const Array& a) { return logical_not(a); }
Array operator<<(const Array& a, const Array& b) { return left_shift(a, b); }
Array operator>>(const Array& a, const Array& b) { return right_shift(a, b); }

DType result_type(const Array& a, const Array& b) {
  const detail::NodeRef x = detail::leaf_of(a, "result_type");
  const detail::NodeRef y = detail::leaf_of(b, "result_type");
  return detail::common_type({x->dtype, x->weak}, {y->dtype, y->weak}).dtype;
}

}  // namespace loom
