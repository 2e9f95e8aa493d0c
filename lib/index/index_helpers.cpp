// NumPy's index helpers (include/loom/indexing.hpp): unravel_index, ravel_multi_index,
// fill_diagonal, diag_indices, tril_indices and triu_indices with their _from forms. Integer
// arithmetic on the public ops (floor division, remainder, where), so each result is one fused
// kernel; nothing is read back but the one bool of a bounds check (unravel_index, and
// ravel_multi_index in mode "raise"). fill_diagonal is a strided write into the flattened array.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"
#include "index/write_helpers.hpp"

namespace loom {

namespace {

Array as_i64(const Array& a) { return a.dtype() == DType::Int64 ? a : astype(a, DType::Int64); }
Array i64(std::int64_t v) { return Array(v); }  // a weak C++ integer: keeps int64 operands int64

// NumPy's order argument: C or F; "A" and "K" (which NumPy parses, then refuses here) give
// none, and the caller refuses them where NumPy does. Other words: NumPy's parser's error.
std::optional<bool> fortran_order(const std::string& order) {
  if (order == "C" || order == "c") return false;
  if (order == "F" || order == "f") return true;
  if (order == "A" || order == "a" || order == "K" || order == "k") return std::nullopt;
  throw ValueError(fmt::format("order must be one of 'C', 'F', 'A', or 'K' (got '{}')", order));
}
bool c_or_f(std::optional<bool> fortran) {
  if (!fortran) throw ValueError("only 'C' or 'F' order is permitted");
  return *fortran;
}

// NumPy's astype_anyint: integer and bool indices only.
void check_int_indices(const Array& a) {
  if (!is_integer(a.dtype()) && a.dtype() != DType::Bool) throw DTypeError("only int indices permitted");
}

// a * b for sizes; none when it overflows int64.
std::optional<std::int64_t> times(std::int64_t a, std::int64_t b) {
  if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a) return std::nullopt;
  return a * b;
}

void check_dims(const Shape& dims) {
  for (int d = 0; d < dims.size(); ++d) {
    if (dims[d] < 0) throw ValueError("negative dimensions are not allowed");
  }
}

// The element strides of dims in C or F order; ValueError `overflow` past int64.
std::vector<std::int64_t> strides_of(const Shape& dims, bool fortran, const char* overflow) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(dims.size()));
  std::int64_t step = 1;
  for (int k = 0; k < dims.size(); ++k) {
    const int d = fortran ? k : dims.size() - 1 - k;
    s[static_cast<std::size_t>(d)] = step;
    const auto next = times(step, dims[d]);
    if (!next) throw ValueError(overflow);
    step = *next;
  }
  return s;
}

}  // namespace

std::vector<Array> unravel_index(const Array& indices, const Shape& shape, const std::string& order) {
  // (NumPy's order of checks: the order's word, the size, the dtype, C or F, the bounds)
  const std::optional<bool> order_f = fortran_order(order);
  check_dims(shape);
  if (shape.size() == 0 && indices.size() != 0) throw ValueError("multiple indices are not supported for 0d arrays");
  std::int64_t size = 1;
  for (int d = 0; d < shape.size() && size != 0; ++d) {
    const auto next = times(size, shape[d]);
    if (!next) {
      throw ValueError("dimensions are too large; arrays and shapes with a total size greater than 'intp' are not "
                       "supported.");
    }
    size = *next;
  }
  check_int_indices(indices);
  const bool fortran = c_or_f(order_f);
  const Array idx = as_i64(indices);  // (uint64 wraps, as NumPy's same_kind cast)
  if (idx.size() > 0) {  // the one read back: NumPy names the first index out of bounds
    const Array bad = ((idx < 0) | (idx >= size)).ravel();
    if (any(bad).item<bool>()) {
      const auto v = idx.ravel()[argmax(bad).item<std::int64_t>()].item<std::int64_t>();
      throw ValueError(fmt::format("index {} is out of bounds for array with size {}", v, size));
    }
  }
  const std::vector<std::int64_t> strides = strides_of(shape, fortran, "dimensions are too large");
  const int outer = fortran ? shape.size() - 1 : 0;  // its coordinate needs no remainder
  std::vector<Array> out;
  for (int d = 0; d < shape.size(); ++d) {
    const std::int64_t s = strides[static_cast<std::size_t>(d)];
    Array c = s == 1 ? idx : floor_divide(idx, i64(s));
    if (d != outer) c = remainder(c, i64(std::max<std::int64_t>(shape[d], 1)));
    out.push_back(c);
  }
  return out;
}

Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims, const ClipModes& mode,
                        const std::string& order) {
  // (NumPy's order of checks: the order's word, modes, C or F, dims, then the coordinates)
  const std::optional<bool> order_f = fortran_order(order);
  const std::size_t n = static_cast<std::size_t>(dims.size());
  std::vector<TakeMode> modes;
  for (const std::string& m : mode.modes) {
    if (m == "raise") modes.push_back(TakeMode::Raise);
    else if (m == "wrap") modes.push_back(TakeMode::Wrap);
    else if (m == "clip") modes.push_back(TakeMode::Clip);
    else throw ValueError(fmt::format("clipmode must be one of 'clip', 'raise', or 'wrap' (got '{}')", m));
  }
  if (modes.size() == 1) modes.resize(n, modes[0]);
  if (modes.size() != n) {
    throw ValueError(fmt::format("list of clipmodes has wrong length ({} instead of {})", mode.modes.size(), n));
  }
  const bool fortran = c_or_f(order_f);
  check_dims(dims);
  const std::vector<std::int64_t> strides = strides_of(
      dims, fortran, "invalid dims: array size defined by dims is larger than the maximum possible size.");
  if (multi_index.size() != n) {
    throw ValueError(fmt::format("parameter multi_index must be a sequence of length {}", n));
  }
  std::vector<Shape> shapes;
  for (std::size_t d = 0; d < n; ++d) {
    check_int_indices(multi_index[d]);
    shapes.push_back(multi_index[d].shape());
  }
  const Shape shape = detail::broadcast_all(shapes);
  Array flat = zeros(shape, DType::Int64), bad;
  for (std::size_t d = 0; d < n; ++d) {
    const std::int64_t m = dims[static_cast<int>(d)];
    Array c = as_i64(multi_index[d]);
    switch (modes[d]) {
      case TakeMode::Raise: {
        const Array out = (c < 0) | (c >= m);
        bad = bad.valid() ? (bad | out) : out;
        break;
      }
      case TakeMode::Wrap: c = remainder(c, i64(std::max<std::int64_t>(m, 1))); break;
      case TakeMode::Clip: c = clip(c, i64(0), i64(std::max<std::int64_t>(m - 1, 0))); break;
    }
    const std::int64_t s = strides[d];
    flat = flat + (s == 1 ? c : c * i64(s));
  }
  if (bad.valid() && bad.size() > 0 && any(bad).item<bool>()) throw ValueError("invalid entry in coordinates array");
  return flat.shape() == shape ? flat : flat.broadcast_to(shape);
}

void fill_diagonal(Array& a, const Array& val, bool wrap) {
  if (a.ndim() < 2) throw ValueError("array must be at least 2-d");
  const Shape s = a.shape();
  std::int64_t step = 1, end = a.size();
  if (a.ndim() == 2) {
    step = s[1] + 1;
    if (!wrap) end = std::min(end, s[1] * s[1]);
  } else {
    for (int d = 1; d < a.ndim(); ++d) {
      if (s[d] != s[0]) throw ValueError("All dimensions of input must be of equal length");
    }
    std::int64_t p = 1;
    for (int d = 0; d + 1 < a.ndim(); ++d) step += (p *= s[0]);
  }
  detail::check_written_scalar(val, a.dtype());
  if (val.size() == 0 || a.size() == 0) return;
  // a.flat[:end:step] = val: a basic-index write into the flattened array (in place and O(count)
  // when a is evaluated and no other handle holds its buffer), val repeated to the count as a.flat
  // repeats it.
  const std::int64_t count = (end + step - 1) / step;
  Array v = val.size() == 1 ? val.reshape({})
                            : calls::gather_flat_positions(val, remainder(arange(count), i64(val.size())));
  if (v.dtype() != a.dtype()) v = astype(v, a.dtype());
  Array flat = a.reshape({a.size()});
  a = Array();  // (flat alone holds the buffer now)
  try {
    flat[Slice(0, end, step)] = v;
  } catch (...) {
    a = flat.reshape(s);
    throw;
  }
  a = flat.reshape(s);
}

std::vector<Array> diag_indices(std::int64_t n, std::int64_t ndim) {
  const Array i = arange(std::max<std::int64_t>(n, 0));
  return std::vector<Array>(static_cast<std::size_t>(std::max<std::int64_t>(ndim, 0)), i);
}

std::vector<Array> diag_indices_from(const Array& a) {
  if (a.ndim() < 2) throw ValueError("input array must be at least 2-d");
  for (int d = 1; d < a.ndim(); ++d) {
    if (a.shape()[d] != a.shape()[0]) throw ValueError("All dimensions of input must be of equal length");
  }
  return diag_indices(a.shape()[0], a.ndim());
}

namespace {

// The rows and columns, in row-major order, of the positions (i, j) of an n x m grid with
// j <= i + k, at position numbers p (int64). Row i holds clamp(i + k + 1, 0, m) of them: rows
// [0, i0) none, rows [i0, i1) one more than the row before (starting at c0), rows [i1, n) all m.
// In the growing rows, the row of p is the t with T(t) <= p < T(t + 1), T(t) = t c0 + t (t - 1) / 2:
// the root of that quadratic in float64, then corrected by one either way in int64, which makes it
// exact (the float root is within one of it for any count that fits memory).
struct Triangle {
  std::int64_t i0 = 0, i1 = 0, c0 = 0, grown = 0, count = 0;
  Triangle(std::int64_t n, std::int64_t m, std::int64_t k) {
    if (n <= 0 || m <= 0) return;
    i0 = std::clamp<std::int64_t>(-k, 0, n);
    i1 = std::clamp<std::int64_t>(m - k - 1, i0, n);
    c0 = i0 + k + 1;
    const std::int64_t r = i1 - i0;
    grown = r * c0 + r * (r - 1) / 2;
    count = grown + (n - i1) * m;
  }
  std::pair<Array, Array> at(const Array& p, std::int64_t m_in) const {
    const std::int64_t m = std::max<std::int64_t>(m_in, 1);  // (no positions when it is 0)
    const double b = static_cast<double>(2 * c0 - 1);
    Array t = astype(floor((sqrt(astype(p, DType::Float64) * 8.0 + b * b) - b) * 0.5), DType::Int64);
    const auto tri = [&](const Array& u) { return u * i64(c0) + floor_divide(u * (u - i64(1)), i64(2)); };
    t = where(tri(t) > p, t - i64(1), t);
    t = where(tri(t + i64(1)) <= p, t + i64(1), t);
    const Array q = maximum(p - i64(grown), i64(0));
    const Array in_grown = p < i64(grown);
    const Array row = where(in_grown, t + i64(i0), floor_divide(q, i64(m)) + i64(i1));
    const Array col = where(in_grown, p - tri(t), remainder(q, i64(m)));
    return {row, col};
  }
};

std::vector<Array> triangle_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m_in, bool upper) {
  n = std::max<std::int64_t>(n, 0);
  const std::int64_t m = std::max<std::int64_t>(m_in.value_or(n), 0);
  // triu's positions are tril's of the grid turned half a turn (i -> n-1-i, j -> m-1-j; the
  // diagonal m - n - k), in reverse order.
  const Triangle tr(n, m, upper ? m - n - k : k);
  const Array p = arange(tr.count);
  if (!upper) {
    const auto [row, col] = tr.at(p, m);
    return {row, col};
  }
  const auto [row, col] = tr.at(i64(tr.count - 1) - p, m);
  return {i64(n - 1) - row, i64(m - 1) - col};
}

void check_2d(const Array& a) {
  if (a.ndim() != 2) throw ValueError("input array must be 2-d");
}

}  // namespace

std::vector<Array> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return triangle_indices(n, k, m, false);
}
std::vector<Array> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return triangle_indices(n, k, m, true);
}
std::vector<Array> tril_indices_from(const Array& a, std::int64_t k) {
  check_2d(a);
  return tril_indices(a.shape()[0], k, a.shape()[1]);
}
std::vector<Array> triu_indices_from(const Array& a, std::int64_t k) {
  check_2d(a);
  return triu_indices(a.shape()[0], k, a.shape()[1]);
}

}  // namespace loom
