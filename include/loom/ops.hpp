#pragma once
// Elementwise operations: NumPy's ufuncs and the C++ operators. All lazy and fusible; dtypes
// follow NumPy's rules per op; shapes broadcast; errors are thrown here, at the user's line.

#include <optional>
#include <utility>

#include <loom/array.hpp>

namespace loom {

// --- arithmetic ---
[[nodiscard]] Array add(const Array& a, const Array& b);
[[nodiscard]] Array subtract(const Array& a, const Array& b);
[[nodiscard]] Array multiply(const Array& a, const Array& b);
[[nodiscard]] Array divide(const Array& a, const Array& b);  // true division: ints give float64
[[nodiscard]] Array true_divide(const Array& a, const Array& b);
[[nodiscard]] Array floor_divide(const Array& a, const Array& b);
[[nodiscard]] Array remainder(const Array& a, const Array& b);  // sign of the divisor, as Python's %
[[nodiscard]] Array mod(const Array& a, const Array& b);
[[nodiscard]] Array power(const Array& a, const Array& b);
[[nodiscard]] Array negative(const Array& a);
[[nodiscard]] Array positive(const Array& a);

// --- comparisons (bool results) ---
[[nodiscard]] Array equal(const Array& a, const Array& b);
[[nodiscard]] Array not_equal(const Array& a, const Array& b);
[[nodiscard]] Array less(const Array& a, const Array& b);
[[nodiscard]] Array less_equal(const Array& a, const Array& b);
[[nodiscard]] Array greater(const Array& a, const Array& b);
[[nodiscard]] Array greater_equal(const Array& a, const Array& b);

// --- logical (any dtype, bool results) and bitwise (integers and bool) ---
[[nodiscard]] Array logical_and(const Array& a, const Array& b);
[[nodiscard]] Array logical_or(const Array& a, const Array& b);
[[nodiscard]] Array logical_xor(const Array& a, const Array& b);
[[nodiscard]] Array logical_not(const Array& a);
[[nodiscard]] Array bitwise_and(const Array& a, const Array& b);
[[nodiscard]] Array bitwise_or(const Array& a, const Array& b);
[[nodiscard]] Array bitwise_xor(const Array& a, const Array& b);
[[nodiscard]] Array bitwise_not(const Array& a);
[[nodiscard]] Array invert(const Array& a);
[[nodiscard]] Array left_shift(const Array& a, const Array& b);
[[nodiscard]] Array right_shift(const Array& a, const Array& b);

// --- unary math ---
[[nodiscard]] Array abs(const Array& a);
[[nodiscard]] Array absolute(const Array& a);
[[nodiscard]] Array sign(const Array& a);
[[nodiscard]] Array sqrt(const Array& a);
[[nodiscard]] Array cbrt(const Array& a);
[[nodiscard]] Array square(const Array& a);
[[nodiscard]] Array reciprocal(const Array& a);
[[nodiscard]] Array exp(const Array& a);
[[nodiscard]] Array exp2(const Array& a);
[[nodiscard]] Array expm1(const Array& a);
[[nodiscard]] Array log(const Array& a);
[[nodiscard]] Array log2(const Array& a);
[[nodiscard]] Array log10(const Array& a);
[[nodiscard]] Array log1p(const Array& a);
[[nodiscard]] Array sin(const Array& a);
[[nodiscard]] Array cos(const Array& a);
[[nodiscard]] Array tan(const Array& a);
[[nodiscard]] Array arcsin(const Array& a);
[[nodiscard]] Array arccos(const Array& a);
[[nodiscard]] Array arctan(const Array& a);
[[nodiscard]] Array sinh(const Array& a);
[[nodiscard]] Array cosh(const Array& a);
[[nodiscard]] Array tanh(const Array& a);
[[nodiscard]] Array arcsinh(const Array& a);
[[nodiscard]] Array arccosh(const Array& a);
[[nodiscard]] Array arctanh(const Array& a);
[[nodiscard]] Array floor(const Array& a);
[[nodiscard]] Array ceil(const Array& a);
[[nodiscard]] Array trunc(const Array& a);
[[nodiscard]] Array rint(const Array& a);
[[nodiscard]] Array round(const Array& a, int decimals = 0);  // half to even, as NumPy
[[nodiscard]] Array around(const Array& a, int decimals = 0);

// --- binary math ---
[[nodiscard]] Array maximum(const Array& a, const Array& b);  // NaN propagates
[[nodiscard]] Array minimum(const Array& a, const Array& b);
[[nodiscard]] Array fmax(const Array& a, const Array& b);  // NaN ignored
[[nodiscard]] Array fmin(const Array& a, const Array& b);
[[nodiscard]] Array arctan2(const Array& y, const Array& x);
[[nodiscard]] Array hypot(const Array& a, const Array& b);
[[nodiscard]] Array copysign(const Array& a, const Array& b);
[[nodiscard]] Array clip(const Array& a, const Array& lo, const Array& hi);
[[nodiscard]] Array where(const Array& cond, const Array& x, const Array& y);

// --- classification ---
[[nodiscard]] Array isnan(const Array& a);
[[nodiscard]] Array isinf(const Array& a);
[[nodiscard]] Array isfinite(const Array& a);

// --- complex parts and casts ---
[[nodiscard]] Array real(const Array& a);
[[nodiscard]] Array imag(const Array& a);
[[nodiscard]] Array conj(const Array& a);
[[nodiscard]] Array conjugate(const Array& a);
[[nodiscard]] Array astype(const Array& a, DType dtype);

// --- more of NumPy's math, composed of the ops above (lazy: they fuse like them) ---
// Float-only ufuncs take NumPy's float loop for integer and bool input (int8 -> float16, int16
// -> float32, int64 -> float64) and raise DTypeError for complex, as np.sin's table does.
[[nodiscard]] Array radians(const Array& a);   // a * pi / 180
[[nodiscard]] Array deg2rad(const Array& a);
[[nodiscard]] Array degrees(const Array& a);   // a * 180 / pi
[[nodiscard]] Array rad2deg(const Array& a);
[[nodiscard]] Array fabs(const Array& a);
[[nodiscard]] Array sinc(const Array& a);      // sin(pi a) / (pi a), 1 at 0; ints give float64
[[nodiscard]] Array fix(const Array& a);       // round toward zero (ints and bool unchanged)
[[nodiscard]] Array signbit(const Array& a);   // bool: the sign bit (-0.0 and -nan included)
[[nodiscard]] Array heaviside(const Array& x, const Array& h0);  // 0, h0 at 0, 1; nan for nan
[[nodiscard]] Array logaddexp(const Array& a, const Array& b);   // log(exp(a) + exp(b))
[[nodiscard]] Array logaddexp2(const Array& a, const Array& b);  // log2(2^a + 2^b)
[[nodiscard]] Array float_power(const Array& a, const Array& b);  // in float64 (complex128)
[[nodiscard]] Array angle(const Array& z, bool deg = false);     // arctan2(imag, real)
// NaN -> nan, +inf -> posinf (default: the dtype's largest), -inf -> neginf (its lowest); the
// real and imaginary parts of complex arrays each; integers and bool unchanged.
[[nodiscard]] Array nan_to_num(const Array& a, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                               std::optional<double> neginf = std::nullopt);
// The real part when every imaginary part is below tol machine epsilons, else a (evaluates a:
// the result's dtype depends on its values).
[[nodiscard]] Array real_if_close(const Array& a, double tol = 100);
[[nodiscard]] Array isreal(const Array& a);     // imag(a) == 0
[[nodiscard]] Array iscomplex(const Array& a);  // imag(a) != 0 (false for real dtypes)
[[nodiscard]] Array isposinf(const Array& a);   // DTypeError for complex (ambiguous)
[[nodiscard]] Array isneginf(const Array& a);
// Floating-point parts and neighbours (float loops: bool and small ints in float16, as NumPy):
[[nodiscard]] Array fmod(const Array& a, const Array& b);       // C's fmod: the dividend's sign; ints x % 0 == 0
[[nodiscard]] Array nextafter(const Array& a, const Array& b);  // the next float after a toward b
[[nodiscard]] Array spacing(const Array& a);                    // the distance to the next float away from 0
// (fractional part, integral part), each with a's sign; inf gives (+-0, +-inf).
[[nodiscard]] std::pair<Array, Array> modf(const Array& a);
// (mantissa in [0.5, 1) with a's sign, int32 exponent): a == mantissa * 2^exponent; 0, inf and
// NaN give (a, 0).
[[nodiscard]] std::pair<Array, Array> frexp(const Array& a);
[[nodiscard]] Array ldexp(const Array& m, const Array& e);       // m * 2^e, e an integer array; exact
// Greatest common divisor and least common multiple of integers (non-negative).
[[nodiscard]] Array gcd(const Array& a, const Array& b);
[[nodiscard]] Array lcm(const Array& a, const Array& b);

// --- logic: closeness and equality ---
// |a - b| <= atol + rtol * |b|, or a == b (infinities), or both NaN with equal_nan; b in a
// float dtype (np.isclose's rule). allclose, array_equal and array_equiv evaluate (one fused
// reduction) and give the answer: array_equal is false for different shapes, array_equiv for
// shapes that do not broadcast.
[[nodiscard]] Array isclose(const Array& a, const Array& b, double rtol = 1e-05, double atol = 1e-08,
                            bool equal_nan = false);
[[nodiscard]] bool allclose(const Array& a, const Array& b, double rtol = 1e-05, double atol = 1e-08,
                            bool equal_nan = false);
[[nodiscard]] bool array_equal(const Array& a, const Array& b, bool equal_nan = false);
[[nodiscard]] bool array_equiv(const Array& a, const Array& b);

// --- the Array API's spellings of the ops above ---
[[nodiscard]] Array asin(const Array& a);
[[nodiscard]] Array acos(const Array& a);
[[nodiscard]] Array atan(const Array& a);
[[nodiscard]] Array asinh(const Array& a);
[[nodiscard]] Array acosh(const Array& a);
[[nodiscard]] Array atanh(const Array& a);
[[nodiscard]] Array atan2(const Array& y, const Array& x);
[[nodiscard]] Array pow(const Array& a, const Array& b);
[[nodiscard]] Array bitwise_invert(const Array& a);
[[nodiscard]] Array bitwise_left_shift(const Array& a, const Array& b);
[[nodiscard]] Array bitwise_right_shift(const Array& a, const Array& b);

// --- operators ---
[[nodiscard]] Array operator+(const Array& a, const Array& b);
[[nodiscard]] Array operator-(const Array& a, const Array& b);
[[nodiscard]] Array operator*(const Array& a, const Array& b);
[[nodiscard]] Array operator/(const Array& a, const Array& b);
[[nodiscard]] Array operator%(const Array& a, const Array& b);
[[nodiscard]] Array operator-(const Array& a);
[[nodiscard]] Array operator+(const Array& a);
[[nodiscard]] Array operator==(const Array& a, const Array& b);
[[nodiscard]] Array operator!=(const Array& a, const Array& b);
[[nodiscard]] Array operator<(const Array& a, const Array& b);
[[nodiscard]] Array operator<=(const Array& a, const Array& b);
[[nodiscard]] Array operator>(const Array& a, const Array& b);
[[nodiscard]] Array operator>=(const Array& a, const Array& b);
[[nodiscard]] Array operator&(const Array& a, const Array& b);
[[nodiscard]] Array operator|(const Array& a, const Array& b);
[[nodiscard]] Array operator^(const Array& a, const Array& b);
[[nodiscard]] Array operator~(const Array& a);
[[nodiscard]] Array operator!(const Array& a);
[[nodiscard]] Array operator<<(const Array& a, const Array& b);
[[nodiscard]] Array operator>>(const Array& a, const Array& b);

// The shape two or more shapes broadcast to; throws ShapeError with NumPy's message.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// np.result_type over arrays (weak scalars included, NEP 50).
DType result_type(const Array& a, const Array& b);

}  // namespace loom
