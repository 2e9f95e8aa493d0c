// np.packbits and np.unpackbits (include/loom/indexing.hpp): views and shifts of the public ops,
// so each is one fused kernel with what feeds it and what reads it. packbits ORs the 8 strided
// views a[b::8] (b = 0..7) of the zero-padded input, each shifted to its bit; unpackbits reads
// each byte 8 times through repeat (a floor-division view) and shifts out one bit.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"

namespace loom {

namespace {

// True for "little", false for "big" (NumPy compares only those prefixes; loom the whole word).
bool little_endian_bits(const std::string& bitorder) {
  if (bitorder == "little") return true;
  if (bitorder == "big") return false;
  throw ValueError("'order' must be either 'little' or 'big'");
}

// a flattened when axis is none (a 0-d array becomes one element), and the axis to work along.
std::pair<Array, int> along(const Array& a, std::optional<int> axis) {
  if (!axis) return {a.reshape({a.size()}), 0};
  return {a, detail::normalize_axis(*axis, a.ndim())};
}

// `extra` zero elements of dtype t appended to x along axis.
Array zero_padded(const Array& x, int axis, std::int64_t extra, DType t) {
  if (extra == 0) return x;
  Shape s = x.shape();
  s[axis] = extra;
  return concatenate({x, zeros(s, t)}, axis);
}

}  // namespace

Array packbits(const Array& a, std::optional<int> axis, const std::string& bitorder) {
  const bool little = little_endian_bits(bitorder);  // (checked first, as NumPy's)
  if (!is_integer(a.dtype()) && a.dtype() != DType::Bool) {
    throw DTypeError("Expected an input array of integer or boolean data type");
  }
  const auto [x, ax] = along(a, axis);
  const std::int64_t len = x.shape()[ax], groups = (len + 7) / 8;
  const Array bits = zero_padded(astype(x != 0, DType::UInt8), ax, groups * 8 - len, DType::UInt8);
  Array out;
  for (int b = 0; b < 8; ++b) {
    const Array v = left_shift(bits.slice(ax, b, std::nullopt, 8), Array(little ? b : 7 - b));
    out = out.valid() ? (out | v) : v;
  }
  return out;
}

Array unpackbits(const Array& a, std::optional<int> axis, std::optional<std::int64_t> count, const std::string& bitorder) {
  const bool little = little_endian_bits(bitorder);
  if (a.dtype() != DType::UInt8) throw DTypeError("Expected an input array of unsigned byte data type");
  const auto [x, ax] = along(a, axis);
  const std::int64_t n8 = 8 * x.shape()[ax];
  std::int64_t want = count.value_or(n8);
  if (want < 0) {
    if (-want > n8) throw ValueError("-count larger than number of elements");
    want += n8;
  }
  Shape ps(std::vector<std::int64_t>(static_cast<std::size_t>(x.ndim()), 1));
  ps[ax] = n8;
  const Array bit = remainder(arange(n8), Array(8));
  const Array shift = astype(little ? bit : Array(7) - bit, DType::UInt8).reshape(ps);
  const Array out = bitwise_and(right_shift(repeat(x, 8, ax), shift), Array(1));
  if (want <= n8) return want == n8 ? out : out.slice(ax, 0, want);
  return zero_padded(out, ax, want - n8, DType::UInt8);
}

}  // namespace loom
