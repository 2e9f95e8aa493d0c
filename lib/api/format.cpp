#include "api/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include <loom/errors.hpp>
#include <loom/half.hpp>

#include "api/float_digits.hpp"

// The rules below are NumPy's (numpy/_core/arrayprint.py for layout and widths; the digits, from
// dragon4.c, come from float_digits.hpp), restated; names in comments refer to those to make the
// two easy to compare.

namespace loom::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Element formatters: NumPy's FloatingFormat, ComplexFloatingFormat, IntegerFormat, BoolFormat.

// FloatingFormat with floatmode 'maxprec', sign '-' (or '+' for imaginary parts).
class FloatFormatter {
 public:
  FloatFormatter(FloatKind kind, const std::vector<double>& values, bool sign_plus,
                 const PrintOptions& o)
      : kind_(kind), sign_plus_(sign_plus), precision_(o.precision) {
    std::vector<double> finite;
    bool has_neginf = false;
    double max_abs = 0.0;
    double min_abs = 0.0;
    bool any_nonzero = false;
    for (double v : values) {
      if (!std::isfinite(v)) {
        has_neginf = has_neginf || (std::isinf(v) && v < 0);
        continue;
      }
      finite.push_back(v);
      if (v == 0.0) continue;
      const double a = std::fabs(v);
      max_abs = any_nonzero ? std::max(max_abs, a) : a;
      min_abs = any_nonzero ? std::min(min_abs, a) : a;
      any_nonzero = true;
    }
    if (any_nonzero) {
      // Compared in the type's own arithmetic, as NumPy 2 compares a scalar with a Python float.
      static constexpr std::array<double, 9> kPow10 = {1e0, 1e1, 1e2, 1e3, 1e4,
                                                       1e5, 1e6, 1e7, 1e8};
      const double cutoff = o.numpy_minor >= 3
                                ? kPow10[static_cast<std::size_t>(std::min(8, finfo_precision(kind)))]
                                : 1e8;
      exp_format_ = max_abs >= round_to(kind, cutoff) || min_abs < round_to(kind, 1e-4) ||
                    divide_in(kind, max_abs, min_abs) > 1000.0;
    }
    if (finite.empty()) {
      trim_ = Trim::Zeros;
    } else if (exp_format_) {
      int max_exp = 0;
      int max_frac = 0;
      for (double v : finite) {
        const std::string s =
            format_scientific(decompose(kind, v), precision_, -1, Trim::Zeros, sign_plus, -1, -1);
        const std::size_t dot = s.find('.');
        const std::size_t e = s.find('e');
        pad_left_ = std::max(pad_left_, static_cast<int>(dot));
        max_frac = std::max(max_frac, static_cast<int>(e - dot - 1));
        max_exp = std::max(max_exp, static_cast<int>(s.size() - e - 1));
      }
      exp_size_ = max_exp - 1;
      trim_ = Trim::Keep;
      precision_ = max_frac;
      min_digits_ = max_frac;
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      for (double v : finite) {
        const std::string s =
            format_positional(decompose(kind, v), precision_, -1, Trim::Zeros, sign_plus, -1, -1);
        const std::size_t dot = s.find('.');
        pad_left_ = std::max(pad_left_, static_cast<int>(dot));
        pad_right_ = std::max(pad_right_, static_cast<int>(s.size() - dot - 1));
      }
      trim_ = Trim::Zeros;
      min_digits_ = 0;
    }
    if (finite.size() != values.size()) {  // room for "nan", "inf", "-inf"
      const int neginf = (sign_plus || has_neginf) ? 1 : 0;
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + neginf - offset});
    }
  }

  std::string operator()(double x) const {
    if (!std::isfinite(x)) {
      std::string s = std::isnan(x) ? (sign_plus_ ? "+nan" : "nan")
                                    : (x < 0 ? "-inf" : (sign_plus_ ? "+inf" : "inf"));
      const int pad = pad_left_ + pad_right_ + 1 - static_cast<int>(s.size());
      return std::string(static_cast<std::size_t>(std::max(pad, 0)), ' ') + s;
    }
    const Decomposed d = decompose(kind_, x);
    if (exp_format_) {
      return format_scientific(d, precision_, min_digits_, trim_, sign_plus_, pad_left_, exp_size_);
    }
    return format_positional(d, precision_, min_digits_, trim_, sign_plus_, pad_left_, pad_right_);
  }

 private:
  FloatKind kind_;
  bool sign_plus_;
  int precision_;
  bool exp_format_ = false;
  int min_digits_ = -1;
  Trim trim_ = Trim::Zeros;
  int pad_left_ = 0;
  int pad_right_ = 0;
  int exp_size_ = -1;
};

// The str of a float scalar (scalartypes.c.src): positional between 1e-4 and a type-dependent
// cutoff, scientific outside; "1.0" style positional, "1e+16" style scientific.
std::string float_scalar_str(FloatKind k, double v, Trim trim_pos, Trim trim_sci, bool sign,
                             int numpy_minor) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : (sign ? "+inf" : "inf");
  long double max_positional = 1e16L;
  if (numpy_minor >= 3) {
    switch (k) {
      case FloatKind::F16: max_positional = 1e3L; break;
      case FloatKind::BF16: max_positional = 1e2L; break;
      case FloatKind::F32: max_positional = 1e6L; break;
      case FloatKind::F64: max_positional = 1e16L; break;
    }
  }
  const long double a = std::fabs(static_cast<long double>(v));
  const Decomposed d = decompose(k, v);
  if (v == 0 || (a < max_positional && a >= 1e-4L)) {
    return format_positional(d, -1, -1, trim_pos, sign, -1, -1);
  }
  return format_scientific(d, -1, -1, trim_sci, sign, -1, -1);
}

// ---------------------------------------------------------------------------------------------
// Reading elements of C-contiguous host data.

double load_float(const void* data, DType t, std::int64_t i) {
  const auto n = static_cast<std::size_t>(i);
  switch (t) {
    case DType::Float16: return static_cast<float>(static_cast<const half*>(data)[n]);
    case DType::BFloat16: return static_cast<float>(static_cast<const bfloat16_t*>(data)[n]);
    case DType::Float32: return static_cast<const float*>(data)[n];
    case DType::Float64: return static_cast<const double*>(data)[n];
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Complex64:
    case DType::Complex128:
      break;  // the caller asks only for floats
  }
  return static_cast<const double*>(data)[n];
}

std::complex<double> load_complex(const void* data, DType t, std::int64_t i) {
  const auto n = static_cast<std::size_t>(i);
  if (t == DType::Complex64) {
    const std::complex<float> c = static_cast<const std::complex<float>*>(data)[n];
    return {c.real(), c.imag()};
  }
  return static_cast<const std::complex<double>*>(data)[n];
}

template <class Int> Int load_int(const void* data, DType t, std::int64_t i) {
  return visit_dtype(t, [&]<class T>() -> Int {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<Int>(static_cast<const T*>(data)[static_cast<std::size_t>(i)]);
    } else {
      return Int{};
    }
  });
}

using ElementFormat = std::function<std::string(std::int64_t)>;

// IntegerFormat: right-aligned to the widest of str(max) and str(min) of the shown elements.
template <class Int>
ElementFormat make_int_format(const void* data, DType t, const std::vector<std::int64_t>& shown) {
  std::size_t width = 0;
  if (!shown.empty()) {
    Int lo = load_int<Int>(data, t, shown[0]);
    Int hi = lo;
    for (std::int64_t i : shown) {
      const Int v = load_int<Int>(data, t, i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    width = std::max(std::to_string(lo).size(), std::to_string(hi).size());
  }
  return [data, t, width](std::int64_t i) {
    std::string s = std::to_string(load_int<Int>(data, t, i));
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
  };
}

ElementFormat make_element_format(const void* data, DType t, const std::vector<std::int64_t>& shown,
                                  bool zero_dim, const PrintOptions& o) {
  switch (kind(t)) {
    case DKind::Bool: {
      const std::string true_str = zero_dim ? "True" : " True";  // aligns with "False"
      return [data, true_str](std::int64_t i) {
        return static_cast<const bool*>(data)[static_cast<std::size_t>(i)] ? true_str
                                                                           : std::string("False");
      };
    }
    case DKind::Signed: return make_int_format<std::int64_t>(data, t, shown);
    case DKind::Unsigned: return make_int_format<std::uint64_t>(data, t, shown);
    case DKind::Float: {
      std::vector<double> values;
      values.reserve(shown.size());
      for (std::int64_t i : shown) values.push_back(load_float(data, t, i));
      FloatFormatter f(float_kind(t), values, false, o);
      return [data, t, f](std::int64_t i) { return f(load_float(data, t, i)); };
    }
    case DKind::Complex: {
      std::vector<double> re;
      std::vector<double> im;
      for (std::int64_t i : shown) {
        const std::complex<double> c = load_complex(data, t, i);
        re.push_back(c.real());
        im.push_back(c.imag());
      }
      FloatFormatter fr(float_kind(t), re, false, o);
      FloatFormatter fi(float_kind(t), im, true, o);
      return [data, t, fr, fi](std::int64_t i) {
        const std::complex<double> c = load_complex(data, t, i);
        std::string imag = fi(c.imag());
        const std::size_t end = imag.find_last_not_of(' ') + 1;
        imag.insert(end, 1, 'j');  // before the padding
        return fr(c.real()) + imag;
      };
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Layout (_formatArray): nested brackets, wrapping at the line width, summarization.

std::string_view rstrip(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

class Layout {
 public:
  // packed: the data holds only the shown elements (a C-contiguous block of shown_shape),
  // else all of them.
  Layout(const Shape& shape, bool summarize, int edgeitems, std::string_view separator, bool packed = false)
      : shape_(shape), summarize_(summarize), edge_(edgeitems), sep_(separator), packed_(packed) {
    const Shape data_shape = packed ? shown_shape(shape, summarize, edgeitems) : shape;
    strides_.assign(static_cast<std::size_t>(shape.size()), 1);
    for (int a = shape.size() - 2; a >= 0; --a) {
      strides_[static_cast<std::size_t>(a)] = strides_[static_cast<std::size_t>(a + 1)] * data_shape[a + 1];
    }
  }

  // The extents of the shown block: 2 * edgeitems along each summarized axis.
  static Shape shown_shape(const Shape& shape, bool summarize, int edgeitems) {
    Shape s = shape;
    for (int a = 0; a < s.size(); ++a) {
      if (summarize && 2 * static_cast<std::int64_t>(edgeitems) < s[a]) s[a] = 2 * static_cast<std::int64_t>(edgeitems);
    }
    return s;
  }

  // Flat indices of the elements that will be shown (_leading_trailing).
  void collect(int axis, std::int64_t offset, std::vector<std::int64_t>& out) const {
    if (axis == shape_.size()) {
      out.push_back(offset);
      return;
    }
    for (std::int64_t p : kept(axis)) {
      if (p >= 0) collect(axis + 1, offset + at(axis, p) * stride(axis), out);
    }
  }

  std::string render(int axis, std::int64_t offset, const std::string& hanging, int width,
                     const ElementFormat& element) const {
    if (axis == shape_.size()) return element(offset);
    const std::string next_hanging = hanging + ' ';  // aligns under the '[' just opened
    const int next_width = width - 1;                 // leaves room for the ']'
    const std::vector<std::int64_t> ks = kept(axis);
    const int axes_left = shape_.size() - axis;
    auto word_at = [&](std::int64_t p) {
      return p < 0 ? std::string("...")
                   : render(axis + 1, offset + at(axis, p) * stride(axis), next_hanging, next_width, element);
    };
    std::string s;
    if (axes_left == 1) {
      const int elem_width = width - std::max<int>(static_cast<int>(rstrip(sep_).size()), 1);
      std::string line = hanging;
      for (std::size_t j = 0; j < ks.size(); ++j) {
        const std::string word = word_at(ks[j]);
        // Wrap when the word would pass the width, unless the line holds nothing yet.
        if (line.size() + word.size() > static_cast<std::size_t>(elem_width) &&
            line.size() > hanging.size()) {
          s += rstrip(line);
          s += '\n';
          line = hanging;
        }
        line += word;
        if (j + 1 < ks.size()) line += sep_;
      }
      s += line;
    } else {
      const std::string line_sep =
          std::string(rstrip(sep_)) + std::string(static_cast<std::size_t>(axes_left - 1), '\n');
      for (std::size_t j = 0; j < ks.size(); ++j) {
        s += hanging + word_at(ks[j]);
        if (j + 1 < ks.size()) s += line_sep;
      }
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

 private:
  std::int64_t stride(int axis) const { return strides_[static_cast<std::size_t>(axis)]; }
  // Where position p of an axis lies in the data: in a packed block, the trailing edge items
  // follow the leading ones.
  std::int64_t at(int axis, std::int64_t p) const {
    const std::int64_t n = shape_[axis];
    if (!packed_ || !summarize_ || 2 * static_cast<std::int64_t>(edge_) >= n || p < edge_) return p;
    return p - (n - 2 * static_cast<std::int64_t>(edge_));
  }

  // Positions printed along an axis, -1 standing for "...". As NumPy, the last position is
  // always printed, even with edgeitems 0.
  std::vector<std::int64_t> kept(int axis) const {
    const std::int64_t n = shape_[axis];
    const bool summary = summarize_ && 2 * static_cast<std::int64_t>(edge_) < n;
    const std::int64_t leading = summary ? edge_ : 0;
    const std::int64_t trailing = summary ? edge_ : n;
    std::vector<std::int64_t> ks;
    for (std::int64_t i = 0; i < leading; ++i) ks.push_back(i);
    if (summary) ks.push_back(-1);
    for (std::int64_t i = trailing; i > 1; --i) ks.push_back(n - i);
    ks.push_back(n - 1);
    return ks;
  }

  const Shape& shape_;
  bool summarize_;
  int edge_;
  std::string_view sep_;
  bool packed_;
  std::vector<std::int64_t> strides_;
};

// np.array2string: the bracketed body, without the "array(" prefix and suffix it leaves room for.
std::string array_body(const void* data, DType dtype, const Shape& shape, const PrintOptions& o,
                       std::string_view separator, std::string_view prefix,
                       std::string_view suffix, bool packed = false) {
  const std::int64_t size = shape.numel();
  if (size == 0) return "[]";
  if (data == nullptr) throw ValueError("format: null data for an array of size " + std::to_string(size));
  const Layout layout(shape, size > o.threshold, o.edgeitems, separator, packed && o.edgeitems > 0);
  std::vector<std::int64_t> shown;
  layout.collect(0, 0, shown);
  const ElementFormat element = make_element_format(data, dtype, shown, shape.size() == 0, o);
  const std::string hanging = " " + std::string(prefix.size(), ' ');
  return layout.render(0, 0, hanging, o.linewidth - static_cast<int>(suffix.size()), element);
}

// dtype_is_implied: the dtypes whose repr leaves out ", dtype=...".
bool dtype_is_implied(DType t) {
  return t == DType::Int64 || t == DType::Float64 || t == DType::Complex128 || t == DType::Bool;
}

std::string scalar_str(const void* data, DType t, const PrintOptions& o) {
  switch (kind(t)) {
    case DKind::Bool: return *static_cast<const bool*>(data) ? "True" : "False";
    case DKind::Signed: return std::to_string(load_int<std::int64_t>(data, t, 0));
    case DKind::Unsigned: return std::to_string(load_int<std::uint64_t>(data, t, 0));
    case DKind::Float:
      return float_scalar_str(float_kind(t), load_float(data, t, 0), Trim::LeaveOneZero,
                              Trim::DptZeros, false, o.numpy_minor);
    case DKind::Complex: {
      const std::complex<double> c = load_complex(data, t, 0);
      const FloatKind k = float_kind(t);
      auto part = [&](double v, bool sign) {
        return float_scalar_str(k, v, Trim::DptZeros, Trim::DptZeros, sign, o.numpy_minor);
      };
      if (c.real() == 0 && !std::signbit(c.real())) return part(c.imag(), false) + "j";
      const std::string re = part(c.real(), false);
      const std::string im = std::isnan(c.imag()) ? "+nan" : part(c.imag(), true);
      return "(" + re + im + "j)";
    }
  }
  return {};
}

std::string shape_tuple(const Shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

Shape shown_shape(const Shape& shape, const PrintOptions& options) {
  const bool summarize = shape.numel() > options.threshold && options.edgeitems > 0;
  return Layout::shown_shape(shape, summarize, options.edgeitems);
}

std::string format_array_repr(const void* data, DType dtype, const Shape& shape,
                              const PrintOptions& options) {
  return format_array_repr_packed(data, dtype, shape, options, false);
}

std::string format_array_repr_packed(const void* data, DType dtype, const Shape& shape,
                                     const PrintOptions& options, bool packed) {
  const std::string prefix = "array(";
  const std::string body = array_body(data, dtype, shape, options, ", ", prefix, ")", packed);
  const std::int64_t size = shape.numel();
  std::vector<std::string> extras;
  const bool empty_1d = shape.size() == 1 && shape[0] == 0;
  if ((size == 0 && !empty_1d) || (options.numpy_minor >= 2 && size > options.threshold)) {
    extras.push_back("shape=" + shape_tuple(shape));
  }
  if (!dtype_is_implied(dtype) || size == 0) extras.push_back("dtype=" + std::string(name(dtype)));
  if (extras.empty()) return prefix + body + ")";

  const std::string head = prefix + body + ",";
  std::string tail;
  for (const std::string& e : extras) tail += (tail.empty() ? "" : ", ") + e;
  tail += ")";
  // The extras go on a new line when they would push the last line past the width.
  const std::size_t nl = head.rfind('\n');
  const std::size_t last_line = head.size() - (nl == std::string::npos ? 0 : nl + 1);
  const bool wrap = static_cast<int>(last_line + tail.size() + 1) > options.linewidth;
  return head + (wrap ? "\n" + std::string(prefix.size(), ' ') : " ") + tail;
}

std::string format_array_str(const void* data, DType dtype, const Shape& shape,
                             const PrintOptions& options) {
  if (shape.size() == 0) {
    if (data == nullptr) throw ValueError("format: null data for a 0-d array");
    return scalar_str(data, dtype, options);
  }
  return array_body(data, dtype, shape, options, " ", "", "");
}

}  // namespace loom::detail
