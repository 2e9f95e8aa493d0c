// The floating-point parts and neighbours of include/loom/ops.hpp: fmod, nextafter, spacing,
// modf, frexp, ldexp, gcd and lcm. fmod, nextafter (float32/float64), gcd and lcm are rows of the
// op table; the rest are compositions of its rows, exact for every finite input: ldexp scales by
// powers of two that are themselves floats of the dtype (one multiplication where 2^e is one,
// else three), frexp finds the exponent by log2 and corrects it by one either way, and float16's
// (and bfloat16's) nextafter steps by the ulp of x's binade, computed in float32.

#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <span>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "graph/promotion.hpp"

namespace loom {

namespace {

using detail::Op;

[[noreturn]] void not_supported(const char* ufunc, std::span<const DType> in) {
  throw DTypeError(fmt::format("ufunc '{}' not supported for the input types {}, and the inputs could not be safely "
                               "coerced to any supported types according to the casting rule 'safe'",
                               ufunc, detail::dtype_list(in)));
}

// The float dtype a float-only ufunc gives (bool and small ints in float16), complex refused
// with NumPy's words.
DType float_of(const Array& a, const char* ufunc) {
  const DType t = a.dtype();
  if (is_complex(t)) not_supported(ufunc, std::span<const DType>(&t, 1));
  return detail::float_type_for(t);
}

// The binade layout of a float dtype: mantissa bits, smallest normal exponent, largest exponent.
struct Binades {
  int mantissa, emin, emax;
};
Binades binades(DType t) {
  if (t == DType::Float16) return {10, -14, 15};
  if (t == DType::BFloat16) return {7, -126, 127};
  if (t == DType::Float32) return {23, -126, 127};
  return {52, -1022, 1023};
}

// 2^k for an integral float array k, in dtype t (exact: exp2 of an integer is a power of two).
Array pow2(const Array& k, DType t) { return exp2(k.astype(t)); }

// m * 2^e for m of float dtype t and integral float64 e, exact: one multiplication where 2^e is a
// float of t (subnormals included), else three by powers that are, e clipped to where the
// result can still differ from 0 or inf.
Array scale2(const Array& m, const Array& e, DType t) {
  const Binades b = binades(t);
  const double lo = b.emin - b.mantissa, span = 3.0 * b.emax;
  const Array single = logical_and(e >= lo, e <= b.emax);
  const Array ec = clip(e, Array(-span), Array(span));
  const Array e1 = trunc(ec / 3.0), e2 = trunc((ec - e1) / 2.0), e3 = ec - e1 - e2;
  const Array one = m * pow2(clip(e, Array(lo), Array(static_cast<double>(b.emax))), t);
  const Array three = m * pow2(e1, t) * pow2(e2, t) * pow2(e3, t);
  return where(single, one, three).astype(t);
}

// float16/bfloat16's nextafter: x plus or minus the ulp of its binade, half of it when stepping
// toward zero from a power of two (not a subnormal), the smallest subnormal from zero.
Array next_small_float(const Array& x_in, const Array& y_in, DType t) {
  const Binades b = binades(t);
  const Array x = x_in.astype(t).astype(DType::Float32), y = y_in.astype(t).astype(DType::Float32);
  const Array ax = abs(x);
  Array e = floor(log2(ax));
  e = where(exp2(e) > ax, e - 1.0f, where(exp2(e + 1.0f) <= ax, e + 1.0f, e));  // (log2's last bit)
  e = maximum(e, Array(static_cast<float>(b.emin)));
  const Array ulp = exp2(e - static_cast<float>(b.mantissa));
  const Array up = y > x;
  const Array toward_zero = up != (x > 0.0f);
  const Array step = where(logical_and(toward_zero, logical_and(ax == exp2(e), e > static_cast<float>(b.emin))),
                           ulp * 0.5f, ulp);
  Array r = x + where(up, step, -step);
  const float tiny = std::ldexp(1.0f, b.emin - b.mantissa);
  const double top = t == DType::Float16 ? 65504.0 : 3.3895313892515355e38;
  r = where(x == 0.0f, where(y > 0.0f, Array(tiny), Array(-tiny)), r);
  r = where(isinf(x), copysign(Array(static_cast<float>(top)), x), r);
  r = where(x == y, y, r);
  r = where(logical_or(isnan(x), isnan(y)), x + y, r);
  return r.astype(t);
}

}  // namespace

Array fmod(const Array& a, const Array& b) { return detail::binary(Op::Fmod, a, b); }
namespace {

// NumPy's gcd and lcm have integer loops only (bool with bool has none either).
Array integer_only(Op op, const Array& a, const Array& b) {
  const DType common = result_type(a, b);
  if (!is_integer(common) || is_bool(common)) {
    const auto cls = [](DType t) {
      std::string n(name(t));
      n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
      if (n.rfind("Uint", 0) == 0 || n.rfind("Bfloat", 0) == 0) n[1] = static_cast<char>(std::toupper(n[1]));
      return fmt::format("<class 'numpy.dtypes.{}DType'>", n);
    };
    throw DTypeError(fmt::format("ufunc '{}' did not contain a loop with signature matching types ({}, {}) -> None",
                                 op == Op::Gcd ? "gcd" : "lcm", cls(a.dtype()), cls(b.dtype())));
  }
  return detail::binary(op, a, b);
}

}  // namespace

Array gcd(const Array& a, const Array& b) { return integer_only(Op::Gcd, a, b); }
Array lcm(const Array& a, const Array& b) { return integer_only(Op::Lcm, a, b); }

Array nextafter(const Array& a, const Array& b) {
  const Array n = detail::binary(Op::Nextafter, a, b);
  if (n.dtype() == DType::Float16 || n.dtype() == DType::BFloat16) return next_small_float(a, b, n.dtype());
  return n;
}

Array spacing(const Array& a) {
  const DType t = float_of(a, "spacing");
  const Array x = a.astype(t);
  const Array inf = Array(std::numeric_limits<double>::infinity()).astype(t);
  // (NumPy's float16 spacing is the step up, positive for negative x too: npy_half_spacing)
  if (t == DType::Float16 || t == DType::BFloat16) return nextafter(x, inf) - x;
  return nextafter(x, copysign(inf, x)) - x;
}

std::pair<Array, Array> modf(const Array& a) {
  const DType t = float_of(a, "modf");
  const Array x = a.astype(t);
  const Array whole = trunc(x);
  const Array zero = Array(0.0).astype(t);
  return {where(isinf(x), copysign(zero, x), copysign(x - whole, x)), whole};
}

Array ldexp(const Array& m, const Array& e) {
  const DType in[] = {m.dtype(), e.dtype()};
  if ((!is_integer(e.dtype()) && !is_bool(e.dtype())) || is_complex(m.dtype())) not_supported("ldexp", in);
  const DType t = detail::float_type_for(m.dtype());
  const Shape s = detail::broadcast_shapes(m.shape(), e.shape());
  return scale2(m.astype(t).broadcast_to(s), e.astype(DType::Float64).broadcast_to(s), t);
}

std::pair<Array, Array> frexp(const Array& a) {
  const DType t = float_of(a, "frexp");
  const Array x = a.astype(t);
  const Array special = logical_or(x == 0.0, logical_not(isfinite(x)));
  const Array ax = abs(x.astype(DType::Float64));
  Array e = floor(log2(where(special, Array(1.0), ax))) + 1.0;
  // |x| / 2^e in [0.5, 1): log2's rounding near a power of two moves e by one at most.
  e = where(exp2(e - 1.0) > ax, e - 1.0, where(exp2(e) <= ax, e + 1.0, e));
  e = where(special, Array(0.0), e);
  const Array mantissa = where(special, x, scale2(x, -e, t));
  return {mantissa, e.astype(DType::Int32)};
}

}  // namespace loom
