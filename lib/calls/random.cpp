// loom::random (include/loom/random.hpp): each distribution is one raw cuRAND draw
// (calls/random_draw.hpp) and fused elementwise work on it. Uniforms are made from 32-bit words
// by integer ops and exact scalings, so the GPU and the host reference evaluator agree bit for
// bit; normals come from cuRAND's Box-Muller (curandGenerateNormal), Poisson counts from
// curandGeneratePoisson. Argument errors use NumPy's wording ("scale < 0", "low >= high").

#include <loom/random.hpp>

#include <cmath>
#include <limits>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "graph/node.hpp"
#include "api/builders.hpp"
#include "calls/random_common.hpp"
#include "calls/random_draw.hpp"

namespace loom::random {

namespace {

using rt::DrawKind;

using common::check_float;
using common::check_non_negative;
using common::check_shape;
using common::compute_dtype;

// Significand bits of a float dtype (with the implicit one): multiples of 2^-p in [0, 1) are
// exact in it.
int significand_bits(DType dtype) {
  if (dtype == DType::Float64) return 53;
  if (dtype == DType::Float16) return 11;
  if (dtype == DType::BFloat16) return 8;
  return 24;
}

// Words as two halves of 64-bit values: element [..., 0] is the high half.
std::pair<Array, Array> halves(const Array& words, const Shape& shape) {
  Shape s2 = shape;
  s2.push_back(2);
  const Array w = words.reshape(s2);
  const auto half = [&w](std::int64_t k) {
    return detail::basic_view(w, std::vector<Index>{ellipsis, Index(k)}).astype(DType::UInt64);
  };
  return {half(0), half(1)};
}

// floor(w * r / 2^64) for the 64-bit words w = hi * 2^32 + lo and 1 <= r < 2^64, from 32x32-bit
// products in uint64 (no 128-bit type in kernels): w*r = d 2^64 + (b + c) 2^32 + a.
Array mulhi(const Array& hi, const Array& lo, std::uint64_t r) {
  constexpr std::uint64_t kLow = 0xffffffffULL;
  if (r <= (std::uint64_t{1} << 32)) return (hi * r + ((lo * r) >> 32)) >> 32;  // no product overflows
  const std::uint64_t rh = r >> 32, rl = r & kLow;
  const Array a = lo * rl, b = lo * rh, c = hi * rl, d = hi * rh;
  const Array mid = (a >> 32) + (b & kLow) + (c & kLow);
  return d + (b >> 32) + (c >> 32) + (mid >> 32);
}

struct IntRange {
  std::int64_t min;
  std::uint64_t max;
};

IntRange int_range(DType dtype) {
  if (dtype == DType::Bool) return {0, 1};
  const int bits = static_cast<int>(itemsize(dtype)) * 8;
  if (kind(dtype) == DKind::Unsigned) {
    return {0, bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1};
  }
  return {bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1)),
          (std::uint64_t{1} << (bits - 1)) - 1};
}

}  // namespace

Generator::Generator(std::uint64_t seed, std::string_view bit_generator)
    : seed_(seed), type_(static_cast<int>(rt::rng_type(bit_generator))) {}

Generator::Generator(const Generator& other)
    : seed_(other.seed_), type_(other.type_), position_(other.position_.load()) {}

Generator& Generator::operator=(const Generator& other) {
  seed_ = other.seed_;
  type_ = other.type_;
  position_.store(other.position_.load());
  return *this;
}

std::string Generator::bit_generator() const { return rt::rng_name(static_cast<rt::RngType>(type_)); }

// Draws start at multiples of 4 words: a whole Philox block, and a position that divides
// evenly into cuRAND's offset for 2-word outputs and for pairs of normals.
std::uint64_t Generator::reserve(std::uint64_t words) { return position_.fetch_add((words + 3) / 4 * 4); }

Array Generator::bits(const char* name, std::int64_t n) {
  rt::Draw d{static_cast<rt::RngType>(type_), DrawKind::Bits, seed_, 0, static_cast<std::size_t>(n), 0};
  d.position = reserve(static_cast<std::uint64_t>(n));
  return detail::make_draw(name, d);
}

// Standard normals of `shape` in compute_dtype(dtype). cuRAND makes them in Box-Muller pairs,
// so an odd count is drawn one longer and the extra value is left unread.
Array Generator::normals(const char* name, const Shape& shape, DType dtype) {
  check_shape(shape, name);
  check_float(dtype, name);
  const std::int64_t n = shape.numel();
  if (n == 0) return zeros(shape, compute_dtype(dtype));
  const DrawKind kind = dtype == DType::Float64 ? DrawKind::Normal64 : DrawKind::Normal32;
  const std::int64_t drawn = n + (n & 1);
  rt::Draw d{static_cast<rt::RngType>(type_), kind, seed_, 0, static_cast<std::size_t>(drawn), 0};
  d.position = reserve(static_cast<std::uint64_t>(drawn) * static_cast<std::uint64_t>(rt::words_per_output(kind)));
  Array z = detail::make_draw(name, d);
  if (drawn != n) z = z.slice(0, 0, n);
  return z.reshape(shape);
}

// Uniform [0, 1) for the distribution `op` (its name in errors and in explain()). float64:
// NumPy's (next_uint64 >> 11) * 2^-53 from two words; narrower dtypes keep the top p bits of one
// word: (w >> (32 - p)) * 2^-p, exact in the dtype, so never 1 (float32: NumPy's formula).
Array Generator::unit(const char* op, const Shape& shape, DType dtype) {
  check_shape(shape, op);
  check_float(dtype, op);
  const std::int64_t n = shape.numel();
  if (n == 0) return zeros(shape, dtype);
  if (dtype == DType::Float64) return (words64(op, shape) >> 11).astype(DType::Float64) * 0x1p-53;
  const int p = significand_bits(dtype);
  const Array w = bits(op, n).reshape(shape);
  return ((w >> (32 - p)).astype(DType::Float32) * std::ldexp(1.0, -p)).astype(dtype);
}

// float64 on (0, 1), symmetric about 1/2: (2 j + 1) 2^-53 for j the top 52 bits of a 64-bit
// word, never 0 or 1 (for methods taking log u and log(1 - u) alike).
Array Generator::open_unit(const char* op, const Shape& shape) {
  return ((words64(op, shape) >> 12) * 2 + 1).astype(DType::Float64) * 0x1p-53;
}

// 64-bit words of `shape` (two 32-bit words each, the first the high half).
Array Generator::words64(const char* op, const Shape& shape) {
  check_shape(shape, op);
  const std::int64_t n = shape.numel();
  if (n == 0) return zeros(shape, DType::UInt64);
  auto [hi, lo] = halves(bits(op, 2 * n), shape);
  return (hi << 32) | lo;
}

Array Generator::random(const Shape& shape, DType dtype) { return unit("random", shape, dtype); }

Array Generator::uniform(double low, double high, const Shape& shape, DType dtype) {
  check_float(dtype, "uniform");
  if (!std::isfinite(high - low)) throw ValueError("Range exceeds valid bounds");
  return (unit("uniform", shape, compute_dtype(dtype)) * (high - low) + low).astype(dtype);
}

Array Generator::standard_normal(const Shape& shape, DType dtype) {
  return normals("standard_normal", shape, dtype).astype(dtype);
}

Array Generator::normal(double loc, double scale, const Shape& shape, DType dtype) {
  check_non_negative(scale, "scale");
  return (normals("normal", shape, dtype) * scale + loc).astype(dtype);
}

Array Generator::lognormal(double mean, double sigma, const Shape& shape, DType dtype) {
  check_non_negative(sigma, "sigma");
  return exp(normals("lognormal", shape, dtype) * sigma + mean).astype(dtype);
}

// The inversion method: u in [0, 1) so 1 - u > 0 and the result is finite.
Array Generator::standard_exponential(const Shape& shape, DType dtype) {
  check_float(dtype, "standard_exponential");
  return (-log1p(-unit("standard_exponential", shape, compute_dtype(dtype)))).astype(dtype);
}

Array Generator::exponential(double scale, const Shape& shape, DType dtype) {
  check_non_negative(scale, "scale");
  check_float(dtype, "exponential");
  return (-log1p(-unit("exponential", shape, compute_dtype(dtype))) * scale).astype(dtype);
}

Array Generator::poisson(double lam, const Shape& shape) {
  if (!(lam >= 0)) throw ValueError("lam < 0 or lam is NaN");
  if (lam > rt::kMaxPoissonLambda) {
    throw ValueError(fmt::format("lam value too large (cuRAND's Poisson generator takes lam <= {})",
                                 rt::kMaxPoissonLambda));
  }
  check_shape(shape, "poisson");
  const std::int64_t n = shape.numel();
  if (n == 0 || lam == 0) return zeros(shape, DType::Int64);  // cuRAND refuses lambda 0
  rt::Draw d{static_cast<rt::RngType>(type_), DrawKind::Poisson, seed_, 0, static_cast<std::size_t>(n), lam};
  d.position = reserve(static_cast<std::uint64_t>(n));
  return detail::make_draw("poisson", d).reshape(shape).astype(DType::Int64);
}

// Lemire's multiply-shift without rejection on 64-bit words: value = low + floor(w * r / 2^64)
// for w uniform on [0, 2^64) and r = high - low (+1 with endpoint). Each of the r values is hit
// by floor(2^64 / r) or ceil(2^64 / r) words, so its probability is within 2^-64 of 1/r: a
// relative bias below r * 2^-64, under 2.4e-10 for every range up to 2^32 (all dtypes but the
// 64-bit ones), and unobservable for wider ranges in any feasible sample.
Array Generator::integers(std::int64_t low, std::int64_t high, const Shape& shape, DType dtype, bool endpoint) {
  detail::check_dtype(dtype, "integers");
  if (kind(dtype) != DKind::Signed && kind(dtype) != DKind::Unsigned && dtype != DType::Bool) {
    throw DTypeError(fmt::format("Unsupported dtype {} for integers", name(dtype)));
  }
  const IntRange range = int_range(dtype);
  const __int128 closed_high = static_cast<__int128>(high) - (endpoint ? 0 : 1);
  if (low < range.min) throw ValueError(fmt::format("low is out of bounds for {}", name(dtype)));
  if (closed_high > static_cast<__int128>(range.max)) {
    throw ValueError(fmt::format("high is out of bounds for {}", name(dtype)));
  }
  if (low > closed_high) throw ValueError(endpoint ? "low > high" : "low >= high");
  check_shape(shape, "integers");
  const std::int64_t n = shape.numel();
  if (n == 0) return zeros(shape, dtype);
  const auto rng = static_cast<std::uint64_t>(closed_high - low);  // values above low: [0, rng]
  auto [hi, lo] = halves(bits("integers", 2 * n), shape);
  const Array offset = rng == std::numeric_limits<std::uint64_t>::max() ? (hi << 32) | lo : mulhi(hi, lo, rng + 1);
  return (offset + static_cast<std::uint64_t>(low)).astype(dtype);  // wraps in uint64, as NumPy's off + value
}

namespace {

std::mutex g_default_mu;

std::uint64_t entropy_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) | rd();
}

}  // namespace

Generator& default_generator() {
  static Generator g(entropy_seed());
  return g;
}

void seed(std::uint64_t s) {
  std::lock_guard lock(g_default_mu);
  default_generator() = Generator(s);
}

Array random(const Shape& shape, DType dtype) { return default_generator().random(shape, dtype); }
Array uniform(double low, double high, const Shape& shape, DType dtype) {
  return default_generator().uniform(low, high, shape, dtype);
}
Array standard_normal(const Shape& shape, DType dtype) { return default_generator().standard_normal(shape, dtype); }
Array normal(double loc, double scale, const Shape& shape, DType dtype) {
  return default_generator().normal(loc, scale, shape, dtype);
}
Array integers(std::int64_t low, std::int64_t high, const Shape& shape, DType dtype, bool endpoint) {
  return default_generator().integers(low, high, shape, dtype, endpoint);
}
Array lognormal(double mean, double sigma, const Shape& shape, DType dtype) {
  return default_generator().lognormal(mean, sigma, shape, dtype);
}
Array poisson(double lam, const Shape& shape) { return default_generator().poisson(lam, shape); }
Array standard_exponential(const Shape& shape, DType dtype) {
  return default_generator().standard_exponential(shape, dtype);
}
Array exponential(double scale, const Shape& shape, DType dtype) {
  return default_generator().exponential(scale, shape, dtype);
}

}  // namespace loom::random
