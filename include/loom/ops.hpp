#pragma once
// Elementwise operations: NumPy's ufuncs and the C++ operators. All lazy and fusible; dtypes
// follow NumPy's rules per op; shapes broadcast; errors are thrown here, at the user's line.

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
