// Raw and text files and buffers (include/loom/io.hpp): np.frombuffer, np.fromfile and
// ndarray.tofile. Binary data is the elements' bytes in C order and native (little endian) order,
// nothing else; text is numbers joined by a separator, each written as Python's str() of NumPy's
// scalar (the shortest digits that read back to the same value; integral floats end in ".0").

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/io.hpp>
#include <loom/ops.hpp>

#include "io/npy.hpp"

namespace loom {

namespace {

// --- text: Python's str() of a NumPy scalar ---

// The shortest digits of v (as a float of `bits` 32 or 64) laid out as Python's repr lays out a
// float: positional for 1e-4 <= |v| < 1e16, else scientific ("1e+16", "1.5e-05"); `point`: an
// integral positional value ends in ".0" (complex parts leave it out: "(1+2j)").
std::string float_text(double v, bool single, bool point) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  const auto r = single ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific)
                        : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string sci(buf, r.ptr);  // [-]d[.ddd]e(+|-)xx
  const std::size_t e = sci.find('e');
  const bool neg = sci[0] == '-';
  std::string digits;
  for (std::size_t k = neg ? 1 : 0; k < e; ++k) {
    if (sci[k] != '.') digits += sci[k];
  }
  const int exp = std::stoi(sci.substr(e + 1));
  std::string out = neg ? "-" : "";
  if (v == 0 || (exp >= -4 && exp < 16)) {
    if (exp < 0) {
      out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<int>(digits.size()) <= exp + 1) {
      out += digits + std::string(static_cast<std::size_t>(exp + 1) - digits.size(), '0') + (point ? ".0" : "");
    } else {
      out += digits.substr(0, static_cast<std::size_t>(exp + 1)) + "." + digits.substr(static_cast<std::size_t>(exp + 1));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  return out + fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp));
}

// Element k of the C-order bytes of an array of dtype t, as a Scalar.
Scalar element(const std::vector<std::byte>& bytes, DType t, std::size_t k) {
  const std::byte* p = bytes.data() + k * itemsize(t);
  const auto get = [&]<class T>() {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  };
  switch (t) {
    case DType::Bool: return Scalar::of(get.template operator()<bool>(), false);
    case DType::Int8: return Scalar::of(get.template operator()<std::int8_t>(), false);
    case DType::Int16: return Scalar::of(get.template operator()<std::int16_t>(), false);
    case DType::Int32: return Scalar::of(get.template operator()<std::int32_t>(), false);
    case DType::Int64: return Scalar::of(get.template operator()<std::int64_t>(), false);
    case DType::UInt8: return Scalar::of(get.template operator()<std::uint8_t>(), false);
    case DType::UInt16: return Scalar::of(get.template operator()<std::uint16_t>(), false);
    case DType::UInt32: return Scalar::of(get.template operator()<std::uint32_t>(), false);
    case DType::UInt64: return Scalar::of(get.template operator()<std::uint64_t>(), false);
    case DType::Float16: return Scalar::of(get.template operator()<half>(), false);
    case DType::BFloat16: return Scalar::of(get.template operator()<bfloat16_t>(), false);
    case DType::Float32: return Scalar::of(get.template operator()<float>(), false);
    case DType::Float64: return Scalar::of(get.template operator()<double>(), false);
    case DType::Complex64: return Scalar::of(get.template operator()<std::complex<float>>(), false);
    case DType::Complex128: return Scalar::of(get.template operator()<std::complex<double>>(), false);
  }
  throw ValueError("tofile: unknown dtype");
}

// Python's str() of the scalar (NumPy 2's: True/False, integers, floats as float_text, complex
// as "(1+2j)", or "2j" when the real part is +0).
std::string python_str(const Scalar& s) {
  const bool single = s.dtype != DType::Float64 && s.dtype != DType::Complex128;
  switch (kind(s.dtype)) {
    case DKind::Bool: return s.i ? "True" : "False";
    case DKind::Signed: return fmt::format("{}", s.i);
    case DKind::Unsigned: return fmt::format("{}", s.u);
    case DKind::Float: return float_text(s.f, single, true);
    case DKind::Complex: {
      const double re = s.c.real(), im = s.c.imag();
      std::string ims = float_text(im, single, false);
      if (ims[0] != '-' && ims[0] != '+') ims = "+" + ims;
      if (re == 0 && !std::signbit(re)) return (ims[0] == '+' ? ims.substr(1) : ims) + "j";
      return "(" + float_text(re, single, false) + ims + "j)";
    }
  }
  return "?";
}

// Python's `format % scalar` for a format of one printf conversion: %s and %r give str(); integer
// conversions (d i o u x X c) take the value as an integer, floating ones (e f g ...) as a double.
std::string formatted(const std::string& format, const Scalar& s) {
  const std::size_t at = format.find('%');
  std::size_t conv = at == std::string::npos ? at : format.find_first_of("diouxXceEfFgGsr", at + 1);
  if (conv == std::string::npos) throw ValueError(fmt::format("tofile: format '{}' has no conversion", format));
  const char c = format[conv];
  if (c == 's' || c == 'r') {
    // (`format % a.item()`: a float32 item is a Python float, printed with float64's digits)
    Scalar wide = s;
    if (kind(s.dtype) == DKind::Float) wide.dtype = DType::Float64;
    if (kind(s.dtype) == DKind::Complex) wide.dtype = DType::Complex128;
    return format.substr(0, at) + python_str(wide) + format.substr(conv + 1);
  }
  char buf[512];
  int n = 0;
  if (std::strchr("diouxXc", c)) {
    const std::string f = format.substr(0, conv) + "ll" + format.substr(conv);
    const long long v = kind(s.dtype) == DKind::Float ? static_cast<long long>(s.f)
                        : kind(s.dtype) == DKind::Complex ? static_cast<long long>(s.c.real())
                        : kind(s.dtype) == DKind::Unsigned ? static_cast<long long>(s.u) : static_cast<long long>(s.i);
    n = std::snprintf(buf, sizeof buf, f.c_str(), v);
  } else {
    const double v = kind(s.dtype) == DKind::Float ? s.f
                     : kind(s.dtype) == DKind::Complex ? s.c.real()
                     : kind(s.dtype) == DKind::Unsigned ? static_cast<double>(s.u) : static_cast<double>(s.i);
    n = std::snprintf(buf, sizeof buf, format.c_str(), v);
  }
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof buf) throw ValueError(fmt::format("tofile: format '{}' failed", format));
  return std::string(buf, static_cast<std::size_t>(n));
}

// --- text: reading numbers separated by sep ---

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// NumPy's reading of a separator: optional whitespace before it, then its characters, a run of
// spaces in it matching any run of whitespace (none too), except that a separator of spaces only
// must match some whitespace. False when the text does not hold it.
bool match_sep(const std::string& text, std::size_t& at, const std::string& sep) {
  const std::size_t from = at;
  bool spaces_only = true;
  for (std::size_t k = 0; k <= sep.size(); ++k) {
    if (k == sep.size() || is_space(sep[k]) || k == 0) {  // (k == 0: the whitespace allowed before it)
      while (at < text.size() && is_space(text[at])) ++at;
      if (k == sep.size()) break;
      if (is_space(sep[k])) continue;
    }
    spaces_only = false;
    if (at >= text.size() || text[at] != sep[k]) return false;
    ++at;
  }
  return !spaces_only || at > from;
}

// The numbers of text as float64 or int64 values (integers read as integers, so int64 keeps
// every digit), at most count (-1: all).
std::vector<std::byte> parse_text(const std::string& text, DType t, std::int64_t count, const std::string& sep) {
  if (is_complex(t)) throw ValueError(fmt::format("fromfile: text files hold real numbers, not {}", name(t)));
  const bool integral = is_integer(t) || t == DType::Bool;
  std::vector<double> floats;
  std::vector<std::int64_t> ints;
  std::vector<std::uint64_t> uints;
  std::size_t at = 0;
  for (std::int64_t n = 0; count < 0 || n < count; ++n) {
    const char* start = text.c_str() + at;
    char* end = nullptr;
    if (t == DType::UInt64) {
      const std::uint64_t v = std::strtoull(start, &end, 10);
      if (end != start) uints.push_back(v);
    } else if (integral) {
      const std::int64_t v = std::strtoll(start, &end, 10);
      if (end != start) ints.push_back(v);
    } else {
      const double v = std::strtod(start, &end);
      if (end != start) floats.push_back(v);
    }
    if (end == start) break;  // no number here: what was read is the result
    at = static_cast<std::size_t>(end - text.c_str());
    if (!match_sep(text, at, sep)) break;
  }
  // NumPy 2 refuses text left over that is not blank (a number it could not read).
  if (count < 0 && text.find_first_not_of(" \t\n\r\v\f", at) != std::string::npos) {
    throw ValueError("string or file could not be read to its end due to unmatched data");
  }
  // As an array of the values read, cast to t by the library (wrapping integers, as NumPy's
  // casts; a uint64 keeps its own bits).
  std::vector<std::byte> out;
  const auto append = [&](const auto& v) {
    const auto* p = reinterpret_cast<const std::byte*>(v.data());
    out.assign(p, p + v.size() * sizeof(v[0]));
  };
  if (t == DType::UInt64) append(uints);
  else if (integral) append(ints);
  else append(floats);
  return out;
}

Array parsed_array(const std::vector<std::byte>& values, DType t, std::source_location caller) {
  const DType read = t == DType::UInt64 ? DType::UInt64 : is_integer(t) || t == DType::Bool ? DType::Int64 : DType::Float64;
  const std::int64_t n = static_cast<std::int64_t>(values.size() / itemsize(read));
  const Array a = asarray_bytes(values.data(), values.size(), read, Shape{n}, caller);
  return read == t ? a : astype(a, t);
}

}  // namespace

Array frombuffer(std::span<const std::byte> buffer, DType dtype, std::int64_t count, std::int64_t offset,
                 std::source_location caller) {
  const auto len = static_cast<std::int64_t>(buffer.size());
  if (offset < 0 || offset > len) {
    throw ValueError(fmt::format("offset must be non-negative and no greater than buffer length ({})", len));
  }
  const std::int64_t have = len - offset, item = static_cast<std::int64_t>(itemsize(dtype));
  std::int64_t n = count;
  if (n < 0) {
    if (have % item != 0) throw ValueError("buffer size must be a multiple of element size");
    n = have / item;
  } else if (have / item < n) {
    throw ValueError("buffer is smaller than requested size");
  }
  return asarray_bytes(buffer.data() + offset, static_cast<std::size_t>(n * item), dtype, Shape{n}, caller);
}

Array frombuffer(const void* data, std::size_t nbytes, DType dtype, std::int64_t count, std::int64_t offset,
                 std::source_location caller) {
  if (data == nullptr && nbytes > 0) throw ValueError("frombuffer: a null buffer of nonzero length");
  return frombuffer(std::span<const std::byte>(static_cast<const std::byte*>(data), nbytes), dtype, count, offset, caller);
}

Array fromfile(const std::string& path, DType dtype, std::int64_t count, const std::string& sep, std::int64_t offset,
               std::source_location caller) {
  if (offset != 0 && !sep.empty()) throw DTypeError("'offset' argument only permitted for binary files");
  const std::vector<std::byte> file = detail::read_file(path, "fromfile");
  if (!sep.empty()) {
    const std::string text(reinterpret_cast<const char*>(file.data()), file.size());
    return parsed_array(parse_text(text, dtype, count, sep), dtype, caller);
  }
  if (offset < 0) throw ValueError(fmt::format("fromfile: negative offset {}", offset));
  const auto len = static_cast<std::int64_t>(file.size());
  const std::int64_t item = static_cast<std::int64_t>(itemsize(dtype));
  const std::int64_t avail = std::max<std::int64_t>(len - offset, 0) / item;
  const std::int64_t n = count < 0 ? avail : std::min(count, avail);  // a short file gives what it holds
  return asarray_bytes(file.data() + std::min(offset, len), static_cast<std::size_t>(n * item), dtype, Shape{n}, caller);
}

void tofile(const Array& a, const std::string& path, const std::string& sep, const std::string& format) {
  const std::vector<std::byte> bytes = detail::element_bytes(a);
  if (sep.empty()) {
    detail::write_file(path, bytes, "tofile");
    return;
  }
  std::string text;
  const std::size_t n = bytes.size() / itemsize(a.dtype());
  for (std::size_t k = 0; k < n; ++k) {
    if (k) text += sep;
    text += formatted(format, element(bytes, a.dtype(), k));
  }
  detail::write_file(path, std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()), "tofile");
}

void Array::tofile(const std::string& path, const std::string& sep, const std::string& format) const {
  loom::tofile(*this, path, sep, format);
}

}  // namespace loom
