#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <loom/scalar.hpp>

namespace loom {

namespace {

// Float to integer as the GPU converts (cvt.rzi with saturation): truncate toward zero, clamp to
// the target's range, NaN to 0.
template <class I> I saturate(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (v >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

double round_to(DType t, double v) {
  switch (t) {
    case DType::Float16:
    case DType::Complex64:
    case DType::Float32:
    case DType::BFloat16: break;
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex128:
      return v;
  }
  // Straight from double, as the casts of generated code and the host reference round.
  if (t == DType::Float16) return static_cast<float>(half::from_double(v));
  if (t == DType::BFloat16) return static_cast<float>(bfloat16_t::from_double(v));
  return static_cast<float>(v);
}

}  // namespace

Scalar Scalar::cast(DType to) const {
  Scalar r;
  r.dtype = to;
  r.weak = weak;
  // The source value as the three views a cast may need.
  double as_float = 0;
  std::int64_t as_int = 0;
  std::uint64_t as_bits = 0;
  bool is_float_src = false;
  switch (kind(dtype)) {
    case DKind::Bool:
    case DKind::Signed:
      as_int = i;
      as_bits = static_cast<std::uint64_t>(i);
      as_float = static_cast<double>(i);
      break;
    case DKind::Unsigned:
      as_bits = u;
      as_int = static_cast<std::int64_t>(u);
      as_float = static_cast<double>(u);
      break;
    case DKind::Float:
      as_float = f;
      is_float_src = true;
      break;
    case DKind::Complex:
      as_float = c.real();
      is_float_src = true;
      break;
  }
  switch (to) {
    case DType::Bool:
      r.i = is_complex(dtype) ? (c != std::complex<double>(0, 0))
                              : (is_float_src ? as_float != 0 : as_bits != 0);
      break;
    case DType::Int8: r.i = is_float_src ? saturate<std::int8_t>(as_float) : static_cast<std::int8_t>(as_bits); break;
    case DType::Int16: r.i = is_float_src ? saturate<std::int16_t>(as_float) : static_cast<std::int16_t>(as_bits); break;
    case DType::Int32: r.i = is_float_src ? saturate<std::int32_t>(as_float) : static_cast<std::int32_t>(as_bits); break;
    case DType::Int64: r.i = is_float_src ? saturate<std::int64_t>(as_float) : static_cast<std::int64_t>(as_bits); break;
    case DType::UInt8: r.u = is_float_src ? saturate<std::uint8_t>(as_float) : static_cast<std::uint8_t>(as_bits); break;
    case DType::UInt16: r.u = is_float_src ? saturate<std::uint16_t>(as_float) : static_cast<std::uint16_t>(as_bits); break;
    case DType::UInt32: r.u = is_float_src ? saturate<std::uint32_t>(as_float) : static_cast<std::uint32_t>(as_bits); break;
    case DType::UInt64: r.u = is_float_src ? saturate<std::uint64_t>(as_float) : as_bits; break;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64: r.f = round_to(to, as_float); break;
    case DType::Complex64:
    case DType::Complex128: {
      const double im = is_complex(dtype) ? c.imag() : 0.0;
      r.c = {round_to(to, as_float), round_to(to, im)};
      break;
    }
  }
  if (is_unsigned_int(to)) r.i = static_cast<std::int64_t>(r.u);
  (void)as_int;
  return r;
}

std::string Scalar::to_string() const {
  switch (kind(dtype)) {
    case DKind::Bool: return i ? "True" : "False";
    case DKind::Signed: return fmt::format("{}", i);
    case DKind::Unsigned: return fmt::format("{}", u);
    case DKind::Float: return fmt::format("{}", f);
    case DKind::Complex: return fmt::format("({}{:+}j)", c.real(), c.imag());
  }
  return "?";
}

bool operator==(const Scalar& a, const Scalar& b) {
  if (a.dtype != b.dtype || a.weak != b.weak) return false;
  switch (kind(a.dtype)) {
    case DKind::Bool:
    case DKind::Signed: return a.i == b.i;
    case DKind::Unsigned: return a.u == b.u;
    case DKind::Float: return a.f == b.f || (std::isnan(a.f) && std::isnan(b.f));
    case DKind::Complex: return a.c == b.c;
  }
  return false;
}

}  // namespace loom
