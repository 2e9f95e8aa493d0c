// More of NumPy's math (include/loom/ops.hpp): radians, fabs, sinc, signbit, heaviside,
// logaddexp, angle, nan_to_num, isclose, ..., each composed of the op table's rows (no new node
// kind), so each fuses as they do; NumPy's dtype rules and error words. The compositions follow
// NumPy's own arithmetic step by step (numpy/_core/src/npymath, numpy/lib), so values agree to
// the last bit wherever the ops they use do.

#include <cfloat>
#include <cmath>
#include <complex>
#include <numbers>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "graph/promotion.hpp"

namespace loom {

namespace {

using detail::Op;

constexpr double kPi = std::numbers::pi;

// NumPy's words for a ufunc without a loop for these dtypes (as the op table's ufuncs say it).
[[noreturn]] void not_supported(const char* ufunc, std::span<const DType> in) {
  throw DTypeError(fmt::format(
      "ufunc '{}' not supported for the input types {}, and the inputs could not be safely coerced to any "
      "supported types according to the casting rule 'safe'",
      ufunc, detail::dtype_list(in)));
}

Array as(const Array& a, DType t) { return a.dtype() == t ? a : astype(a, t); }

// The dtype of a float-only ufunc (loops e, f, d): the first float loop a's dtype casts to
// safely (bool, int8, uint8: float16; int16, uint16: float32; wider: float64).
DType float_loop(const Array& a, const char* ufunc) {
  const DType t = a.dtype();
  if (is_complex(t)) not_supported(ufunc, std::span<const DType>(&t, 1));
  return detail::float_type_for(t);
}

// The same for two operands: the rule of the table's float-only binary ops (copysign's), with
// this ufunc's name in the error.
DType float_loop(const Array& a, const Array& b, const char* ufunc) {
  const detail::NodeRef x = detail::leaf_of(a, ufunc), y = detail::leaf_of(b, ufunc);
  const detail::Operand c = detail::common_type({x->dtype, x->weak}, {y->dtype, y->weak});
  const DType in[] = {x->dtype, y->dtype};
  if (is_complex(c.dtype)) not_supported(ufunc, in);
  return detail::binary(Op::Copysign, Array(x), Array(y)).dtype();
}

// v as a 0-d array of dtype t (not a weak C++ number: it does not take another operand's dtype).
Array constant(double v, DType t) { return astype(Array(v), t); }

// np.finfo(t).max and .eps of a float dtype (float64's for the others).
double float_max(DType t) {
  if (t == DType::Float16) return 65504.0;
  if (t == DType::BFloat16) return 3.3895313892515355e38;
  if (t == DType::Float32) return FLT_MAX;
  return DBL_MAX;
}
double float_eps(DType t) {
  if (t == DType::Float16) return 0.0009765625;
  if (t == DType::BFloat16) return 0.0078125;
  if (t == DType::Float32) return FLT_EPSILON;
  return DBL_EPSILON;
}

}  // namespace

// npy_deg2rad / npy_rad2deg: one multiply by the constant, in the loop's dtype.
Array radians(const Array& a) { return as(a, float_loop(a, "radians")) * Array(kPi / 180.0); }
Array deg2rad(const Array& a) { return as(a, float_loop(a, "deg2rad")) * Array(kPi / 180.0); }
Array degrees(const Array& a) { return as(a, float_loop(a, "degrees")) * Array(180.0 / kPi); }
Array rad2deg(const Array& a) { return as(a, float_loop(a, "rad2deg")) * Array(180.0 / kPi); }
Array fabs(const Array& a) { return abs(as(a, float_loop(a, "fabs"))); }

// np.sinc: y = pi * x (a Python float: integers give float64), 0 replaced by the dtype's eps
// (1e-20 for complex), sin(y) / y.
Array sinc(const Array& a) {
  const Array y = Array(kPi) * a;
  const double eps = is_floating(y.dtype()) ? float_eps(y.dtype()) : 1e-20;
  const Array safe = where(not_equal(y, Array(0.0)), y, Array(eps));
  return sin(safe) / safe;
}

// NumPy 2's fix is trunc (its error for complex names trunc).
Array fix(const Array& a) { return trunc(a); }

// The sign bit, read through copysign so that -0.0 and -nan count.
Array signbit(const Array& a) {
  const Array x = as(a, float_loop(a, "signbit"));
  return less(copysign(Array(1.0), x), Array(0.0));
}

// npy_heaviside: nan for nan, h0 at 0, 0 below, 1 above.
Array heaviside(const Array& x, const Array& h0) {
  const DType t = float_loop(x, h0, "heaviside");
  const Array v = as(x, t);
  const Array step = where(less(v, Array(0.0)), constant(0.0, t), constant(1.0, t));
  return where(isnan(v), v, where(equal(v, Array(0.0)), as(h0, t), step));
}

// npy_logaddexp: x + log(2) when x == y (equal infinities), else the larger plus
// log1p(exp(-|x - y|)); NaN propagates.
Array logaddexp(const Array& a, const Array& b) {
  const DType t = float_loop(a, b, "logaddexp");
  const Array x = as(a, t), y = as(b, t);
  const Array rest = maximum(x, y) + log1p(exp(-abs(x - y)));
  return where(equal(x, y), x + Array(std::numbers::ln2), rest);
}

// npy_logaddexp2: x + 1 when x == y, else the larger plus log2(1 + 2^-|x - y|), as
// LOG2E * log1p(exp2(-|x - y|)).
Array logaddexp2(const Array& a, const Array& b) {
  const DType t = float_loop(a, b, "logaddexp2");
  const Array x = as(a, t), y = as(b, t);
  const Array rest = maximum(x, y) + Array(std::numbers::log2e) * log1p(exp2(-abs(x - y)));
  return where(equal(x, y), x + Array(1.0), rest);
}

// Loops dd->d and DD->D only; pow for every exponent (no fast path for a constant one: 0.5 is
// not sqrt here, pow(-inf, 0.5) is inf).
Array float_power(const Array& a, const Array& b) {
  const DType t = is_complex(a.dtype()) || is_complex(b.dtype()) ? DType::Complex128 : DType::Float64;
  return detail::binary(Op::Power, as(a, t), as(b, t));
}

// arctan2(imag, real); a real z is arctan2(0, z) with 0 a Python int (int8 gives float16, bool
// float64), as np.angle computes it.
Array angle(const Array& z, bool deg) {
  Array r;
  if (is_complex(z.dtype())) {
    r = arctan2(imag(z), real(z));
  } else {
    const detail::NodeRef n = detail::leaf_of(z, "angle");
    const DType c = detail::common_type({DType::Int64, true}, {n->dtype, n->weak}).dtype;
    const DType t = is_inexact(c) ? c : detail::float_type_for(c);
    r = arctan2(constant(0.0, t), as(z, t));
  }
  return deg ? r * Array(180.0 / kPi) : r;
}

namespace {

Array finite_part(const Array& d, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  const DType t = d.dtype();
  const double hi = posinf.value_or(float_max(t)), lo = neginf.value_or(-float_max(t));
  const Array inf(INFINITY);
  return where(isnan(d), Array(nan), where(equal(d, inf), Array(hi), where(equal(d, -inf), Array(lo), d)));
}

}  // namespace

Array nan_to_num(const Array& a, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  const DType t = a.dtype();
  if (!is_inexact(t)) return a;
  if (!is_complex(t)) return finite_part(a, nan, posinf, neginf);
  // Each part on its own; only elements with a part that is not finite are rebuilt (the others
  // keep their bits).
  const Array re = finite_part(real(a), nan, posinf, neginf), im = finite_part(imag(a), nan, posinf, neginf);
  const Array rebuilt = astype(re, t) + astype(im, t) * Array(std::complex<double>(0.0, 1.0));
  return where(isfinite(a), a, rebuilt);
}

Array isreal(const Array& a) { return equal(imag(a), Array(0)); }

Array iscomplex(const Array& a) {
  if (is_complex(a.dtype())) return not_equal(imag(a), Array(0));
  return zeros(a.shape(), DType::Bool);
}

namespace {

void check_not_complex(const Array& a) {
  if (is_complex(a.dtype())) {
    throw DTypeError(fmt::format("This operation is not supported for {} values because it would be ambiguous.",
                                 name(a.dtype())));
  }
}

}  // namespace

Array isposinf(const Array& a) {
  check_not_complex(a);
  return logical_and(isinf(a), logical_not(signbit(a)));
}

Array isneginf(const Array& a) {
  check_not_complex(a);
  return logical_and(isinf(a), signbit(a));
}

// np.isclose: y made inexact (result_type(y, 1.0); a C++ integer becomes a float), then
// (|x - y| <= atol + rtol * |y|) & isfinite(y) | (x == y), and both NaN with equal_nan.
Array isclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan) {
  const detail::NodeRef n = detail::leaf_of(b, "isclose");
  Array y = b;
  if (n->weak && n->op == Op::Constant) {
    if (!is_inexact(n->dtype)) y = Array(n->value.cast(DType::Float64).f);
  } else {
    y = as(b, result_type(b, Array(1.0)));
  }
  Array r = logical_or(logical_and(less_equal(abs(a - y), Array(atol) + Array(rtol) * abs(y)), isfinite(y)),
                       equal(a, y));
  if (equal_nan) r = logical_or(r, logical_and(isnan(a), isnan(y)));
  return r;
}

Array asin(const Array& a) { return arcsin(a); }
Array acos(const Array& a) { return arccos(a); }
Array atan(const Array& a) { return arctan(a); }
Array asinh(const Array& a) { return arcsinh(a); }
Array acosh(const Array& a) { return arccosh(a); }
Array atanh(const Array& a) { return arctanh(a); }
Array atan2(const Array& y, const Array& x) { return arctan2(y, x); }
Array pow(const Array& a, const Array& b) { return power(a, b); }
Array bitwise_invert(const Array& a) { return invert(a); }
Array bitwise_left_shift(const Array& a, const Array& b) { return left_shift(a, b); }
Array bitwise_right_shift(const Array& a, const Array& b) { return right_shift(a, b); }

}  // namespace loom
