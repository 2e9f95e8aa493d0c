#pragma once
// Elementwise operations: NumPy's ufuncs and the C++ operators. All lazy and fusible; dtypes
// follow NumPy's rules per op; shapes broadcast; errors are thrown here, at the user's line.

#include <loom/array.hpp>

namespace loom {

// --- arithmetic ---
Array add(const Array& a, const Array& b);
Array subtract(const Array& a, const Array& b);
Array multiply(const Array& a, const Array& b);
Array divide(const Array& a, const Array& b);  // true division: ints give float64
Array true_divide(const Array& a, const Array& b);
Array floor_divide(const Array& a, const Array& b);
Array remainder(const Array& a, const Array& b);  // sign of the divisor, as Python's %
Array mod(const Array& a, const Array& b);
Array power(const Array& a, const Array& b);
Array negative(const Array& a);
Array positive(const Array& a);

// --- comparisons (bool results) ---
Array equal(const Array& a, const Array& b);
Array not_equal(const Array& a, const Array& b);
Array less(const Array& a, const Array& b);
Array less_equal(const Array& a, const Array& b);
Array greater(const Array& a, const Array& b);
Array greater_equal(const Array& a, const Array& b);

// --- logical (any dtype, bool results) and bitwise (integers and bool) ---
Array logical_and(const Array& a, const Array& b);
Array logical_or(const Array& a, const Array& b);
Array logical_xor(const Array& a, const Array& b);
Array logical_not(const Array& a);
Array bitwise_and(const Array& a, const Array& b);
Array bitwise_or(const Array& a, const Array& b);
Array bitwise_xor(const Array& a, const Array& b);
Array bitwise_not(const Array& a);
Array invert(const Array& a);
Array left_shift(const Array& a, const Array& b);
Array right_shift(const Array& a, const Array& b);

// --- unary math ---
Array abs(const Array& a);
Array absolute(const Array& a);
Array sign(const Array& a);
Array sqrt(const Array& a);
Array cbrt(const Array& a);
Array square(const Array& a);
Array reciprocal(const Array& a);
Array exp(const Array& a);
Array exp2(const Array& a);
Array expm1(const Array& a);
Array log(const Array& a);
Array log2(const Array& a);
Array log10(const Array& a);
Array log1p(const Array& a);
Array sin(const Array& a);
Array cos(const Array& a);
Array tan(const Array& a);
Array arcsin(const Array& a);
Array arccos(const Array& a);
Array arctan(const Array& a);
Array sinh(const Array& a);
Array cosh(const Array& a);
Array tanh(const Array& a);
Array arcsinh(const Array& a);
Array arccosh(const Array& a);
Array arctanh(const Array& a);
Array floor(const Array& a);
Array ceil(const Array& a);
Array trunc(const Array& a);
Array rint(const Array& a);
Array round(const Array& a, int decimals = 0);  // half to even, as NumPy
Array around(const Array& a, int decimals = 0);

// --- binary math ---
Array maximum(const Array& a, const Array& b);  // NaN propagates
Array minimum(const Array& a, const Array& b);
Array fmax(const Array& a, const Array& b);  // NaN ignored
Array fmin(const Array& a, const Array& b);
Array arctan2(const Array& y, const Array& x);
Array hypot(const Array& a, const Array& b);
Array copysign(const Array& a, const Array& b);
Array clip(const Array& a, const Array& lo, const Array& hi);
Array where(const Array& cond, const Array& x, const Array& y);

// --- classification ---
Array isnan(const Array& a);
Array isinf(const Array& a);
Array isfinite(const Array& a);

// --- complex parts and casts ---
Array real(const Array& a);
Array imag(const Array& a);
Array conj(const Array& a);
Array conjugate(const Array& a);
Array astype(const Array& a, DType dtype);

// --- operators ---
Array operator+(const Array& a, const Array& b);
Array operator-(const Array& a, const Array& b);
Array operator*(const Array& a, const Array& b);
Array operator/(const Array& a, const Array& b);
Array operator%(const Array& a, const Array& b);
Array operator-(const Array& a);
Array operator+(const Array& a);
Array operator==(const Array& a, const Array& b);
Array operator!=(const Array& a, const Array& b);
Array operator<(const Array& a, const Array& b);
Array operator<=(const Array& a, const Array& b);
Array operator>(const Array& a, const Array& b);
Array operator>=(const Array& a, const Array& b);
Array operator&(const Array& a, const Array& b);
Array operator|(const Array& a, const Array& b);
Array operator^(const Array& a, const Array& b);
Array operator~(const Array& a);
Array operator!(const Array& a);
Array operator<<(const Array& a, const Array& b);
Array operator>>(const Array& a, const Array& b);

// The shape two or more shapes broadcast to; throws ShapeError with NumPy's message.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// np.result_type over arrays (weak scalars included, NEP 50).
DType result_type(const Array& a, const Array& b);

}  // namespace loom
