// quantile, percentile, median and their nan forms (include/loom/statistics.hpp), with NumPy's
// arithmetic (numpy/lib/_function_base_impl.py: _quantile, _get_indexes, _lerp; median as
// np.mean of the middle elements). The reduced axes are moved last and merged, the rows sorted
// (a barrier: NaN sorts last), and one fused kernel computes, for every row and q, the virtual
// index from the row's count of values (n, or the count of non-NaN values for the nan forms),
// gathers the two neighbours and interpolates. No value is read back.

#include <array>
#include <cmath>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>
#include <loom/statistics.hpp>

#include "api/builders.hpp"
#include "stats/rows.hpp"

namespace loom {

namespace stats {

Rows to_rows(const Array& a, const Axes& axis) {
  Rows r;
  const int nd = a.ndim();
  std::vector<bool> reduced(static_cast<std::size_t>(nd), axis.is_all());
  if (!axis.is_all()) {
    for (std::int64_t v : axis.list()) {
      const int k = detail::normalize_axis(v, nd);
      if (reduced[static_cast<std::size_t>(k)]) throw ValueError("repeated axis");
      reduced[static_cast<std::size_t>(k)] = true;
    }
  }
  Shape perm;
  for (int d = 0; d < nd; ++d) {
    const bool red = reduced[static_cast<std::size_t>(d)];
    r.keep_shape.push_back(red ? 1 : a.shape()[d]);
    if (!red) {
      perm.push_back(d);
      r.kept.push_back(a.shape()[d]);
    }
  }
  for (int d = 0; d < nd; ++d) {
    if (reduced[static_cast<std::size_t>(d)]) perm.push_back(d);
  }
  Shape merged = r.kept;
  merged.push_back(-1);
  r.rows = (nd == 0 ? a : a.transpose(perm)).reshape(merged);
  r.n = r.rows.shape()[r.rows.ndim() - 1];
  return r;
}

Array finish_rows(const Array& r, const Rows& rows, bool keepdims, int lead) {
  if (!keepdims) return r;
  Shape s;
  for (int d = 0; d < lead; ++d) s.push_back(r.shape()[d]);
  for (std::int64_t e : rows.keep_shape) s.push_back(e);
  return r.reshape(s);
}

}  // namespace stats

namespace {

using stats::Rows;

enum class Method {
  InvertedCdf, AveragedInvertedCdf, ClosestObservation, InterpolatedInvertedCdf, Hazen, Weibull, Linear,
  MedianUnbiased, NormalUnbiased, Lower, Higher, Midpoint, Nearest
};

// NumPy's table of methods, in its order (its error message lists them so).
struct MethodRow {
  std::string_view name;
  Method method;
  bool discrete;        // an index into the sorted row: the result keeps a's dtype
  double alpha, beta;   // Hyndman and Fan's constants, for the methods that use them
};
constexpr std::array<MethodRow, 13> kMethods{{
    {"inverted_cdf", Method::InvertedCdf, true, 0, 0},
    {"averaged_inverted_cdf", Method::AveragedInvertedCdf, false, 0, 0},
    {"closest_observation", Method::ClosestObservation, true, 0, 0},
    {"interpolated_inverted_cdf", Method::InterpolatedInvertedCdf, false, 0, 1},
    {"hazen", Method::Hazen, false, 0.5, 0.5},
    {"weibull", Method::Weibull, false, 0, 0},
    {"linear", Method::Linear, false, 1, 1},
    {"median_unbiased", Method::MedianUnbiased, false, 1 / 3.0, 1 / 3.0},
    {"normal_unbiased", Method::NormalUnbiased, false, 3 / 8.0, 3 / 8.0},
    {"lower", Method::Lower, true, 0, 0},
    {"higher", Method::Higher, true, 0, 0},
    {"midpoint", Method::Midpoint, false, 0, 0},
    {"nearest", Method::Nearest, true, 0, 0},
}};

const MethodRow& method_row(std::string_view name) {
  for (const MethodRow& m : kMethods) {
    if (m.name == name) return m;
  }
  std::string keys;
  for (const MethodRow& m : kMethods) keys += fmt::format("{}'{}'", keys.empty() ? "" : ", ", m.name);
  throw ValueError(fmt::format("'{}' is not a valid method. Use one of: dict_keys([{}])", name, keys));
}

// The sorted position each (row, q) reads: `lo` and `hi` (int64, in [0, count)), and the weight
// of `hi` (float64; none for the discrete methods). n: the row's count of values, float64,
// shaped (..., 1); q: float64, shaped (1, ..., k).
struct Positions {
  Array lo, hi;
  std::optional<Array> gamma;
};

Array as_index(const Array& v, const Array& n) {
  // A position NumPy writes as -1 (the last value) is count - 1; every other is >= 0. Clipped
  // at 0 for a row with no values, whose result is NaN anyway.
  return maximum(where(v == -1.0, n - 1.0, v), Array(0.0)).astype(DType::Int64);
}

Positions positions(const MethodRow& m, const Array& n, const Array& q) {
  Positions p;
  switch (m.method) {
    case Method::Lower: p.lo = floor((n - 1.0) * q); break;
    case Method::Higher: p.lo = ceil((n - 1.0) * q); break;
    case Method::Nearest: p.lo = rint((n - 1.0) * q); break;
    case Method::InvertedCdf:
    case Method::ClosestObservation: {
      // _discrete_interpolation_to_boundaries: the next position unless the index is whole (and,
      // for closest_observation, its floor odd).
      const Array index = m.method == Method::InvertedCdf ? n * q - 1.0 : n * q - 1.0 - 0.5;
      const Array prev = floor(index);
      Array take_prev = (index - prev) == 0.0;
      if (m.method == Method::ClosestObservation) take_prev = logical_and(take_prev, remainder(prev, Array(2.0)) == 1.0);
      p.lo = maximum(where(take_prev, prev, prev + 1.0), Array(0.0));
      break;
    }
    case Method::AveragedInvertedCdf:
    case Method::InterpolatedInvertedCdf:
    case Method::Hazen:
    case Method::Weibull:
    case Method::Linear:
    case Method::MedianUnbiased:
    case Method::NormalUnbiased:
    case Method::Midpoint: {
      Array v;
      if (m.method == Method::Linear) {
        v = (n - 1.0) * q;
      } else if (m.method == Method::AveragedInvertedCdf) {
        v = n * q - 1.0;
      } else if (m.method == Method::Midpoint) {
        v = 0.5 * (floor((n - 1.0) * q) + ceil((n - 1.0) * q));
      } else {
        // _compute_virtual_index: n * q + (alpha + q * (1 - alpha - beta)) - 1.
        v = n * q + (m.alpha + q * (1 - m.alpha - m.beta)) - 1.0;
      }
      // _get_indexes: past the last value both neighbours are the last (NumPy's -1), before
      // the first both are the first; gamma is taken from those.
      const Array above = v >= n - 1.0, below = v < 0.0;
      const Array prev = where(above, Array(-1.0), where(below, Array(0.0), floor(v)));
      const Array next = where(above, Array(-1.0), where(below, Array(0.0), floor(v) + 1.0));
      Array g = v - prev;
      if (m.method == Method::AveragedInvertedCdf) g = where(g == 0.0, Array(0.5), Array(1.0));
      if (m.method == Method::Midpoint) g = where(remainder(v, Array(1.0)) == 0.0, Array(0.0), Array(0.5));
      p.lo = as_index(prev, n);
      p.hi = as_index(next, n);
      p.gamma = g;
      return p;
    }
  }
  p.lo = p.lo.astype(DType::Int64);
  p.hi = p.lo;
  return p;
}

// The quantiles of sorted rows (..., n) whose first `count` values (int64, (..., 1)) are the
// data (the rest NaN), for q (float64, (k,)): shape (..., k). weak: q was a number (NumPy's
// Python float: the weight takes the result's dtype).
Array interpolate(const Array& sorted, const Array& count, const Array& q, bool weak, const MethodRow& m) {
  const DType t = sorted.dtype();
  Shape qshape = Shape::filled(sorted.ndim() - 1, 1);
  qshape.push_back(q.size());
  const Array n = count.astype(DType::Float64);
  const Positions p = positions(m, n, q.reshape(qshape));
  Shape idx_shape = sorted.shape();
  idx_shape[idx_shape.size() - 1] = q.size();
  const Array lo = take_along_axis(sorted, p.lo.broadcast_to(idx_shape), -1);
  if (!p.gamma) return lo;
  const Array hi = take_along_axis(sorted, p.hi.broadcast_to(idx_shape), -1);
  // _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) where t >= 0.5; the differences in a's
  // dtype (bool has no subtraction: NumPy's TypeError).
  const Array d = hi - lo;
  const DType wt = is_inexact(t) ? t : DType::Float64;
  const Array g = weak ? p.gamma->astype(wt) : *p.gamma;
  const Array g1 = weak ? (1.0 - *p.gamma).astype(wt) : 1.0 - *p.gamma;
  return where(*p.gamma >= 0.5, hi - d * g1, lo + d * g);
}

void check_real(const Array& a) {
  if (is_complex(a.dtype())) throw DTypeError("a must be an array of real numbers");
}

Array quantile_of(const Array& a, const std::vector<double>& qs, bool weak, const Axes& axis, bool keepdims,
                  std::string_view method, bool nan, bool percent) {
  check_real(a);
  std::vector<double> q = qs;
  for (double& v : q) {
    if (percent) v /= 100;
    if (!(v >= 0.0 && v <= 1.0)) {
      throw ValueError(percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
    }
  }
  const MethodRow& m = method_row(method);
  const Rows r = stats::to_rows(a, axis);
  const bool has_nan = is_inexact(a.dtype());
  Array out;
  if (r.n == 0 && !(nan && has_nan)) {
    throw IndexError("index -1 is out of bounds for axis 0 with size 0");
  }
  const Array qa = asarray(q);
  if (r.n == 0) {
    Shape s = r.kept;
    s.push_back(static_cast<std::int64_t>(q.size()));
    const DType rt = m.discrete ? a.dtype() : (is_inexact(a.dtype()) && weak ? a.dtype() : DType::Float64);
    out = full(s, std::nan(""), rt);
  } else {
    const Array sorted = sort(r.rows, -1);
    const Array last = sorted.slice(-1, r.n - 1, r.n);
    if (nan && has_nan) {
      const Array count = sum(logical_not(isnan(r.rows)), -1, true);
      out = interpolate(sorted, count, qa, weak, m);
      out = where(count == 0, Array(std::nan("")).astype(out.dtype()), out);
    } else {
      out = interpolate(sorted, full(Shape{}, r.n, DType::Int64), qa, weak, m);
      if (has_nan) out = where(isnan(last), last.astype(out.dtype()), out);
    }
  }
  if (weak) return stats::finish_rows(out.squeeze(-1), r, keepdims, 0);
  return stats::finish_rows(moveaxis(out, -1, 0), r, keepdims, 1);
}

// np.median: np.mean of the middle one or two sorted values (its dtype rule: integers and bool
// in float64, float16 summed in float32); the nan form takes each row's middle of its non-NaN
// values, NaN for none.
Array median_of(const Array& a, const Axes& axis, bool keepdims, bool nan) {
  const Rows r = stats::to_rows(a, axis);
  const DType t = a.dtype();
  const DType out_t = is_inexact(t) ? t : DType::Float64;
  const DType sum_t = t == DType::Float16 || t == DType::BFloat16 ? DType::Float32 : out_t;
  if (r.n == 0) return stats::finish_rows(full(r.kept, std::nan(""), out_t), r, keepdims, 0);
  const Array sorted = sort(r.rows, -1);
  const bool nan_rows = nan && is_inexact(t);
  // The count of values in each row, and the positions of the middle two (equal when odd).
  const Array count = nan_rows ? sum(logical_not(isnan(r.rows)), -1, true) : full(Shape{}, r.n, DType::Int64);
  const Array hi = floor_divide(count, Array(2));
  const Array lo = where(remainder(count, Array(2)) == 1, hi, maximum(hi - 1, Array(0)));
  Shape idx_shape = sorted.shape();
  idx_shape[idx_shape.size() - 1] = 1;
  const Array x = take_along_axis(sorted, lo.broadcast_to(idx_shape), -1).astype(sum_t);
  const Array y = take_along_axis(sorted, hi.broadcast_to(idx_shape), -1).astype(sum_t);
  Array m = where(lo == hi, x, (x + y) / 2).astype(out_t);
  const Array last = sorted.slice(-1, r.n - 1, r.n);
  if (nan_rows) {
    m = where(count == 0, Array(std::nan("")).astype(out_t), m);
  } else if (is_inexact(t)) {
    m = where(isnan(last), last.astype(out_t), m);
  }
  return stats::finish_rows(m.squeeze(-1), r, keepdims, 0);
}

}  // namespace

Array quantile(const Array& a, double q, const Axes& axis, bool keepdims, std::string_view method) {
  return quantile_of(a, {q}, true, axis, keepdims, method, false, false);
}
Array quantile(const Array& a, const std::vector<double>& q, const Axes& axis, bool keepdims, std::string_view method) {
  return quantile_of(a, q, false, axis, keepdims, method, false, false);
}
Array percentile(const Array& a, double q, const Axes& axis, bool keepdims, std::string_view method) {
  return quantile_of(a, {q}, true, axis, keepdims, method, false, true);
}
Array percentile(const Array& a, const std::vector<double>& q, const Axes& axis, bool keepdims,
                 std::string_view method) {
  return quantile_of(a, q, false, axis, keepdims, method, false, true);
}
Array nanquantile(const Array& a, double q, const Axes& axis, bool keepdims, std::string_view method) {
  return quantile_of(a, {q}, true, axis, keepdims, method, true, false);
}
Array nanquantile(const Array& a, const std::vector<double>& q, const Axes& axis, bool keepdims,
                  std::string_view method) {
  return quantile_of(a, q, false, axis, keepdims, method, true, false);
}
Array nanpercentile(const Array& a, double q, const Axes& axis, bool keepdims, std::string_view method) {
  return quantile_of(a, {q}, true, axis, keepdims, method, true, true);
}
Array nanpercentile(const Array& a, const std::vector<double>& q, const Axes& axis, bool keepdims,
                    std::string_view method) {
  return quantile_of(a, q, false, axis, keepdims, method, true, true);
}
Array median(const Array& a, const Axes& axis, bool keepdims) { return median_of(a, axis, keepdims, false); }
Array nanmedian(const Array& a, const Axes& axis, bool keepdims) { return median_of(a, axis, keepdims, true); }

}  // namespace loom
