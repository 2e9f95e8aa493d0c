#pragma once
// The digits of one binary float as NumPy 2 prints them: its exact decomposition and NumPy's
// Dragon4 ("unique" mode) in positional and scientific form, for the formatters in format.cpp.

#include <cstdint>
#include <string>

#include <loom/dtype.hpp>

namespace loom::detail {

// The four binary float formats, held as double (exact for each of them).
enum class FloatKind { F16, BF16, F32, F64 };

// The float format of a float or complex dtype (Complex64's parts are F32, Complex128's F64).
FloatKind float_kind(DType t);

// np.finfo(t).precision: decimal digits the type always keeps (ml_dtypes gives 2 for bfloat16).
int finfo_precision(FloatKind k);

// d rounded to the type: what a Python float becomes when NumPy 2 (NEP 50) compares it with a
// scalar of that type.
double round_to(FloatKind k, double d);

// a / b in the type's arithmetic (16-bit types divide in float, then round, as NumPy does).
double divide_in(FloatKind k, double a, double b);

// A finite value as mantissa * 2^exponent, with what Dragon4 needs to know of its neighbours.
struct Decomposed {
  bool negative = false;
  std::uint64_t mantissa = 0;
  int exponent = 0;
  int mantissa_bit = 0;          // index of the highest set bit of mantissa
  bool unequal_margins = false;  // a power of two: the gap below is half the gap above
};

// v rounded to the type k, taken apart; v must be finite.
Decomposed decompose(FloatKind k, double v);

// NumPy's trim modes: 'k' keep zeros, '.' drop trailing zeros, '0' keep one zero after the point,
// '-' drop trailing zeros and the point.
enum class Trim { Keep, Zeros, LeaveOneZero, DptZeros };

// np.format_float_positional (unique=True, fractional=True); -1 leaves an argument unset.
std::string format_positional(const Decomposed& f, int precision, int min_digits, Trim trim,
                              bool sign_plus, int pad_left, int pad_right);

// np.format_float_scientific (unique=True); -1 leaves an argument unset.
std::string format_scientific(const Decomposed& f, int precision, int min_digits, Trim trim,
                              bool sign_plus, int pad_left, int exp_digits);

}  // namespace loom::detail
