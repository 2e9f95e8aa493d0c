#include "api/float_digits.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include <loom/errors.hpp>
#include <loom/half.hpp>

// The rules below are NumPy's dragon4.c (and numpy/_core/arrayprint.py for the options),
// restated; names in comments refer to those to make the two easy to compare.

namespace loom::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Exact unsigned integers for Dragon4: little-endian 32-bit words. 48 words (1536 bits) hold
// every value met while printing a double (about 1100 bits at the ends of its exponent range).
class BigInt {
 public:
  static constexpr int kWords = 48;

  explicit BigInt(std::uint64_t v = 0) {
    w_[0] = static_cast<std::uint32_t>(v);
    w_[1] = static_cast<std::uint32_t>(v >> 32);
    n_ = w_[1] != 0 ? 2 : (w_[0] != 0 ? 1 : 0);
  }

  void shift_left(int bits) {
    if (n_ == 0 || bits == 0) return;
    const int words = bits / 32;
    const int rem = bits % 32;
    BigInt r;
    r.n_ = checked(n_ + words + 1);
    for (int i = 0; i < n_; ++i) {
      const std::uint64_t v = static_cast<std::uint64_t>(w_[i]) << rem;
      r.w_[i + words] |= static_cast<std::uint32_t>(v);
      r.w_[i + words + 1] |= static_cast<std::uint32_t>(v >> 32);
    }
    r.trim();
    *this = r;
  }

  void mul_small(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (int i = 0; i < n_; ++i) {
      const std::uint64_t v = static_cast<std::uint64_t>(w_[i]) * m + carry;
      w_[i] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry != 0) {
      n_ = checked(n_ + 1);
      w_[static_cast<std::size_t>(n_ - 1)] = static_cast<std::uint32_t>(carry);
    }
  }

  void mul_pow10(int n) {
    for (; n >= 9; n -= 9) mul_small(1'000'000'000u);
    for (; n > 0; --n) mul_small(10);
  }

  void add(const BigInt& o) {
    const int n = std::max(n_, o.n_);
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v = std::uint64_t{word(i)} + o.word(i) + carry;
      w_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    n_ = n;
    if (carry != 0) {
      n_ = checked(n_ + 1);
      w_[static_cast<std::size_t>(n_ - 1)] = 1;
    }
  }

  // *this -= o; requires *this >= o.
  void sub(const BigInt& o) {
    std::int64_t borrow = 0;
    for (int i = 0; i < n_; ++i) {
      const std::int64_t v = std::int64_t{word(i)} - o.word(i) - borrow;
      borrow = v < 0 ? 1 : 0;
      w_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(v + (borrow << 32));
    }
    trim();
  }

  friend int compare(const BigInt& a, const BigInt& b) {
    if (a.n_ != b.n_) return a.n_ < b.n_ ? -1 : 1;
    for (int i = a.n_ - 1; i >= 0; --i) {
      if (a.w_[i] != b.w_[i]) return a.w_[i] < b.w_[i] ? -1 : 1;
    }
    return 0;
  }

 private:
  static int checked(int n) {
    if (n > kWords) throw ValueError("format: number too large for the digit generator");
    return n;
  }
  // Words at or past n_ may hold stale bits after a subtraction: read them as zero.
  std::uint32_t word(int i) const { return i < n_ ? w_[static_cast<std::size_t>(i)] : 0u; }
  void trim() {
    while (n_ > 0 && w_[static_cast<std::size_t>(n_ - 1)] == 0) --n_;
  }
  std::array<std::uint32_t, kWords> w_{};
  int n_ = 0;
};

// value -= q * scale for the largest q (at most 9: callers keep value < 10 * scale); returns q.
int extract_digit(BigInt& value, const BigInt& scale) {
  int q = 0;
  while (compare(value, scale) >= 0) value.sub(scale), ++q;
  return q;
}

// ---------------------------------------------------------------------------------------------
// Dragon4 in NumPy's "unique" digit mode: the shortest digits that read back as the same value
// of its type (ties between two shortest candidates go to the nearer, then to the even digit),
// stopped at `cutoff_max` digits and carried on to at least `cutoff_min` digits (-1: no
// limit); with Cutoff::Fraction both count digits after the decimal point, with Cutoff::Total
// significant digits. Appends the digits; returns the decimal exponent of the first one.
enum class Cutoff { Total, Fraction };

int dragon4(const Decomposed& f, Cutoff mode, int cutoff_max, int cutoff_min,
            std::string& digits) {
  digits.clear();
  if (f.mantissa == 0) {
    digits = "0";
    return 0;
  }
  // value/scale is the number, margin_low/scale and margin_high/scale the half-gaps to its
  // neighbours; all scaled by 2 (4 with unequal margins) to stay integers.
  BigInt value(f.mantissa);
  BigInt scale(1);
  BigInt margin_low(1);
  const int extra = f.unequal_margins ? 2 : 1;
  if (f.exponent > 0) {
    value.shift_left(f.exponent + extra);
    scale = BigInt(f.unequal_margins ? 4 : 2);
    margin_low.shift_left(f.exponent);
  } else {
    value.shift_left(extra);
    scale.shift_left(-f.exponent + extra);
  }
  const int high_factor = f.unequal_margins ? 2 : 1;
  BigInt margin_high = margin_low;
  margin_high.mul_small(static_cast<std::uint32_t>(high_factor));

  // First digit's exponent: an estimate that is right or one too low (Burger & Dybvig).
  int k = static_cast<int>(
      std::ceil((f.mantissa_bit + f.exponent) * 0.30102999566398119521 - 0.69));
  // A number far below the fraction cutoff starts at the cutoff and rounds there.
  if (mode == Cutoff::Fraction && cutoff_max >= 0 && k <= -cutoff_max) k = -cutoff_max + 1;
  if (k > 0) {
    scale.mul_pow10(k);
  } else if (k < 0) {
    value.mul_pow10(-k);
    margin_low.mul_pow10(-k);
    margin_high.mul_pow10(-k);
  }
  if (compare(value, scale) >= 0) {
    ++k;  // the estimate was one too low
  } else {
    value.mul_small(10);
    margin_low.mul_small(10);
    margin_high.mul_small(10);
  }
  const int out_exponent = k - 1;

  int cutoff_max_exp = k - 4096;  // no cutoff: far below any digit a value can need
  if (cutoff_max >= 0) {
    cutoff_max_exp = std::max(cutoff_max_exp, mode == Cutoff::Total ? k - cutoff_max : -cutoff_max);
  }
  int cutoff_min_exp = k;
  if (cutoff_min >= 0) {
    cutoff_min_exp = std::min(cutoff_min_exp, mode == Cutoff::Total ? k - cutoff_min : -cutoff_min);
  }

  const bool is_even = (f.mantissa & 1u) == 0;  // round-half-even reading includes the ends
  int digit_exp = k;
  int digit = 0;
  bool low = false;
  bool high = false;
  for (;;) {
    --digit_exp;
    digit = extract_digit(value, scale);
    BigInt value_high = value;
    value_high.add(margin_high);
    const int cl = compare(value, margin_low);
    const int ch = compare(value_high, scale);
    low = is_even ? cl <= 0 : cl < 0;    // rounding down stays within the value's interval
    high = is_even ? ch >= 0 : ch > 0;   // rounding up does
    if (((low || high) && digit_exp <= cutoff_min_exp) || digit_exp == cutoff_max_exp) break;
    digits += static_cast<char>('0' + digit);
    value.mul_small(10);
    margin_low.mul_small(10);
    margin_high.mul_small(10);
  }

  bool round_down = low;
  if (low == high) {  // both roundings are allowed (or neither): take the nearer, ties to even
    value.shift_left(1);
    const int c = compare(value, scale);
    round_down = c < 0 || (c == 0 && (digit & 1) == 0);
  }
  if (round_down) {
    digits += static_cast<char>('0' + digit);
    return out_exponent;
  }
  if (digit < 9) {
    digits += static_cast<char>('0' + digit + 1);
    return out_exponent;
  }
  while (!digits.empty() && digits.back() == '9') digits.pop_back();  // carry
  if (digits.empty()) {
    digits = "1";
    return out_exponent + 1;
  }
  ++digits.back();
  return out_exponent;
}

}  // namespace

FloatKind float_kind(DType t) {
  switch (t) {
    case DType::Float16: return FloatKind::F16;
    case DType::BFloat16: return FloatKind::BF16;
    case DType::Float32:
    case DType::Complex64: return FloatKind::F32;
    case DType::Float64:
    case DType::Complex128:
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
      return FloatKind::F64;
  }
  return FloatKind::F64;
}

int finfo_precision(FloatKind k) {
  switch (k) {
    case FloatKind::F16: return 3;
    case FloatKind::BF16: return 2;
    case FloatKind::F32: return 6;
    case FloatKind::F64: return 15;
  }
  return 15;
}

double round_to(FloatKind k, double d) {
  switch (k) {
    case FloatKind::F16: return static_cast<float>(half(static_cast<float>(d)));
    case FloatKind::BF16: return static_cast<float>(bfloat16_t(static_cast<float>(d)));
    case FloatKind::F32: return static_cast<float>(d);
    case FloatKind::F64: return d;
  }
  return d;
}

double divide_in(FloatKind k, double a, double b) {
  if (k == FloatKind::F64) return a / b;
  return round_to(k, static_cast<float>(a) / static_cast<float>(b));
}

Decomposed decompose(FloatKind k, double v) {
  std::uint64_t bits = 0;
  int exp_bits = 11;
  int frac_bits = 52;
  switch (k) {
    case FloatKind::F16:
      bits = half(static_cast<float>(v)).bits, exp_bits = 5, frac_bits = 10;
      break;
    case FloatKind::BF16:
      bits = bfloat16_t(static_cast<float>(v)).bits, exp_bits = 8, frac_bits = 7;
      break;
    case FloatKind::F32:
      bits = std::bit_cast<std::uint32_t>(static_cast<float>(v)), exp_bits = 8, frac_bits = 23;
      break;
    case FloatKind::F64: bits = std::bit_cast<std::uint64_t>(v); break;
  }
  Decomposed d;
  d.negative = ((bits >> (exp_bits + frac_bits)) & 1u) != 0;
  const std::uint64_t biased = (bits >> frac_bits) & ((std::uint64_t{1} << exp_bits) - 1);
  const std::uint64_t frac = bits & ((std::uint64_t{1} << frac_bits) - 1);
  const int bias = (1 << (exp_bits - 1)) - 1;
  if (biased == 0) {  // zero or subnormal
    d.mantissa = frac;
    d.exponent = 1 - bias - frac_bits;
    d.mantissa_bit = frac != 0 ? std::bit_width(frac) - 1 : 0;
  } else {
    d.mantissa = frac | (std::uint64_t{1} << frac_bits);
    d.exponent = static_cast<int>(biased) - bias - frac_bits;
    d.mantissa_bit = frac_bits;
    d.unequal_margins = biased != 1 && frac == 0;
  }
  return d;
}

std::string format_positional(const Decomposed& f, int precision, int min_digits, Trim trim,
                              bool sign_plus, int pad_left, int pad_right) {
  std::string out;
  if (f.negative) {
    out += '-';
  } else if (sign_plus) {
    out += '+';
  }
  const int has_sign = static_cast<int>(out.size());
  std::string digits;
  const int exp10 = dragon4(f, Cutoff::Fraction, precision, min_digits, digits);
  const int num_digits = static_cast<int>(digits.size());
  int whole = 1;
  int frac = 0;
  if (exp10 >= 0) {
    whole = exp10 + 1;
    if (num_digits <= whole) {
      out += digits;
      out.append(static_cast<std::size_t>(whole - num_digits), '0');
    } else {
      out.append(digits, 0, static_cast<std::size_t>(whole));
      out += '.';
      out.append(digits, static_cast<std::size_t>(whole));
      frac = num_digits - whole;
    }
  } else {
    const int zeros = -(exp10 + 1);
    out += "0.";
    out.append(static_cast<std::size_t>(zeros), '0');
    out += digits;
    frac = zeros + num_digits;
  }
  if (trim != Trim::DptZeros && frac == 0) out += '.';
  const int desired = std::max(min_digits, 0);
  if (trim == Trim::LeaveOneZero) {
    if (frac == 0) out += '0', ++frac;
  } else if (trim == Trim::Keep && desired > frac) {
    out.append(static_cast<std::size_t>(desired - frac), '0');
    frac = desired;
  }
  if (trim != Trim::Keep && frac > 0) {
    while (out.back() == '0') out.pop_back(), --frac;
    if (out.back() == '.') {
      if (trim == Trim::LeaveOneZero) {
        out += '0', ++frac;
      } else if (trim == Trim::DptZeros) {
        out.pop_back();
      }
    }
  }
  if (pad_right >= frac) {
    if (trim == Trim::DptZeros && frac == 0) out += ' ';
    out.append(static_cast<std::size_t>(pad_right - frac), ' ');
  }
  if (pad_left > whole + has_sign) {
    out.insert(0, static_cast<std::size_t>(pad_left - whole - has_sign), ' ');
  }
  return out;
}

std::string format_scientific(const Decomposed& f, int precision, int min_digits, Trim trim,
                              bool sign_plus, int pad_left, int exp_digits) {
  std::string out;
  const int left_chars = 1 + ((f.negative || sign_plus) ? 1 : 0);
  if (pad_left > left_chars) out.append(static_cast<std::size_t>(pad_left - left_chars), ' ');
  if (f.negative) {
    out += '-';
  } else if (sign_plus) {
    out += '+';
  }
  std::string digits;
  const int exp10 = dragon4(f, Cutoff::Total, precision < 0 ? -1 : precision + 1,
                            min_digits < 0 ? -1 : min_digits + 1, digits);
  out += digits[0];
  int frac = static_cast<int>(digits.size()) - 1;
  if (frac > 0) {
    out += '.';
    out.append(digits, 1);
  }
  if (trim != Trim::DptZeros && frac == 0) out += '.';
  const int add = std::max(min_digits, 0);
  if (trim == Trim::LeaveOneZero) {
    if (frac == 0) out += '0', ++frac;
  } else if (trim == Trim::Keep && add > frac) {
    out.append(static_cast<std::size_t>(add - frac), '0');
    frac = add;
  }
  if (trim != Trim::Keep && frac > 0) {
    while (out.back() == '0') out.pop_back(), --frac;
    if (trim == Trim::LeaveOneZero && out.back() == '.') out += '0';
  }
  out += exp10 >= 0 ? "e+" : "e-";
  const std::string e = std::to_string(exp10 >= 0 ? exp10 : -exp10);
  const int width = exp_digits < 0 ? 2 : std::min(exp_digits, 5);
  if (static_cast<int>(e.size()) < width) out.append(static_cast<std::size_t>(width) - e.size(), '0');
  return out + e;
}

}  // namespace loom::detail
