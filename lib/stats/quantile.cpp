// quantile, percentile, median and their nan forms (include/loom/statistics.hpp), with NumPy's
// arithmetic (numpy/lib/_function_base_impl.py: _quantile, _get_indexes, _lerp; median as
// np.mean of the middle elements). The reduced axes are moved last and merged, the rows sorted
// (a barrier: NaN sorts last), and one fused kernel computes, for every row and q, the virtual
// index from the row's count of values (n, or the count of non-NaN values for the nan forms),
// gathers the two neighbours and interpolates. No value is read back.

#include <algorithm>
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
#include "calls/select.hpp"
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

// The arithmetic of NumPy's virtual indices, written once for two kinds of numbers: host doubles
// (a row length known when the call is built: positions are kernel arguments of a select) and
// arrays (each row's count of non-NaN values: positions computed in the kernel). These overloads
// give both the same operations, in the same order.
double fl(double v) { return std::floor(v); }
double ce(double v) { return std::ceil(v); }
double ri(double v) { return std::nearbyint(v); }  // half to even, as np.around
double sel(bool c, double a, double b) { return c ? a : b; }
bool both(bool a, bool b) { return a && b; }
double py_mod(double v, double m) {  // Python's %: the divisor's sign
  const double r = std::fmod(v, m);
  return (r != 0 && ((r < 0) != (m < 0))) ? r + m : r;
}
double mx(double a, double b) { return std::isnan(a) || a >= b ? a : b; }
Array fl(const Array& v) { return floor(v); }
Array ce(const Array& v) { return ceil(v); }
Array ri(const Array& v) { return rint(v); }
Array sel(const Array& c, const Array& a, const Array& b) { return where(c, a, b); }
Array both(const Array& a, const Array& b) { return logical_and(a, b); }
Array py_mod(const Array& v, double m) { return remainder(v, Array(m)); }
Array mx(const Array& a, double b) { return maximum(a, Array(b)); }

// The sorted positions each (row, q) reads: `lo` and `hi` (in [0, count), as floats), and the
// weight of `hi` (none for the discrete methods). n: the row's count of values; q: the quantile.
template <class T> struct Positions {
  T lo, hi;
  std::optional<T> gamma;
};

// A position NumPy writes as -1 (the last value) is count - 1; every other is >= 0. Clipped at 0
// for a row with no values, whose result is NaN anyway.
template <class T> T as_index(const T& v, const T& n) { return mx(sel(v == -1.0, n - 1.0, v), 0.0); }

template <class T> Positions<T> positions(const MethodRow& m, const T& n, const T& q) {
  Positions<T> p;
  switch (m.method) {
    case Method::Lower: p.lo = mx(fl((n - 1.0) * q), 0.0); break;
    case Method::Higher: p.lo = mx(ce((n - 1.0) * q), 0.0); break;
    case Method::Nearest: p.lo = mx(ri((n - 1.0) * q), 0.0); break;
    case Method::InvertedCdf:
    case Method::ClosestObservation: {
      // _discrete_interpolation_to_boundaries: the next position unless the index is whole (and,
      // for closest_observation, its floor odd).
      const T index = m.method == Method::InvertedCdf ? n * q - 1.0 : n * q - 1.0 - 0.5;
      const T prev = fl(index);
      const auto whole = (index - prev) == 0.0;
      const auto take_prev = m.method == Method::ClosestObservation ? both(whole, py_mod(prev, 2.0) == 1.0) : whole;
      p.lo = mx(sel(take_prev, prev, prev + 1.0), 0.0);
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
      T v;
      if (m.method == Method::Linear) {
        v = (n - 1.0) * q;
      } else if (m.method == Method::AveragedInvertedCdf) {
        v = n * q - 1.0;
      } else if (m.method == Method::Midpoint) {
        v = 0.5 * (fl((n - 1.0) * q) + ce((n - 1.0) * q));
      } else {
        // _compute_virtual_index: n * q + (alpha + q * (1 - alpha - beta)) - 1.
        v = n * q + (m.alpha + q * (1 - m.alpha - m.beta)) - 1.0;
      }
      // _get_indexes: past the last value both neighbours are the last (NumPy's -1), before
      // the first both are the first; gamma is taken from those.
      const auto above = v >= n - 1.0, below = v < 0.0;
      const T prev = sel(above, T(-1.0), sel(below, T(0.0), fl(v)));
      const T next = sel(above, T(-1.0), sel(below, T(0.0), fl(v) + 1.0));
      T g = v - prev;
      if (m.method == Method::AveragedInvertedCdf) g = sel(g == 0.0, T(0.5), T(1.0));
      if (m.method == Method::Midpoint) g = sel(py_mod(v, 1.0) == 0.0, T(0.0), T(0.5));
      p.lo = as_index(prev, n);
      p.hi = as_index(next, n);
      p.gamma = g;
      return p;
    }
  }
  p.hi = p.lo;
  return p;
}

// _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) where t >= 0.5 (`upper`); the difference in
// a's dtype (bool has no subtraction: NumPy's TypeError). t and 1 - t come typed: NumPy's Python
// float takes the result's float dtype, a q array gives float64.
Array lerp(const Array& lo, const Array& hi, const Array& upper, const Array& t, const Array& t1) {
  const Array d = hi - lo;
  return where(upper, hi - d * t1, lo + d * t);
}

// The float dtype a weak weight takes against elements of dtype t.
DType weight_dtype(DType t) { return is_inexact(t) ? t : DType::Float64; }

// The quantiles of sorted rows (..., n) whose first `count` values (int64, (..., 1)) are the
// data (the rest NaN), for q (float64, (k,)): shape (..., k); positions computed in the kernel.
Array interpolate(const Array& sorted, const Array& count, const Array& q, bool weak, const MethodRow& m) {
  Shape qshape = Shape::filled(sorted.ndim() - 1, 1);
  qshape.push_back(q.size());
  const Array n = count.astype(DType::Float64);
  const Positions<Array> p = positions(m, n, q.reshape(qshape));
  Shape idx_shape = sorted.shape();
  idx_shape[idx_shape.size() - 1] = q.size();
  const Array lo = take_along_axis(sorted, p.lo.astype(DType::Int64).broadcast_to(idx_shape), -1);
  if (!p.gamma) return lo;
  const Array hi = take_along_axis(sorted, p.hi.astype(DType::Int64).broadcast_to(idx_shape), -1);
  const DType wt = weak ? weight_dtype(sorted.dtype()) : DType::Float64;
  return lerp(lo, hi, *p.gamma >= 0.5, p.gamma->astype(wt), (1.0 - *p.gamma).astype(wt));
}

// The same for rows of one known length n: the positions are numbers, the elements there one
// select per row (calls::sorted_at: no sort where the rows fit in shared memory), the weights
// constants; the last position (NaN sorts last) gives the NaN of a row that holds one.
Array interpolate_known(const Array& rows, std::int64_t n, const std::vector<double>& q, bool weak,
                        const MethodRow& m) {
  std::vector<std::int64_t> wanted{n - 1};
  const auto slot = [&](double pos) {
    const auto p = static_cast<std::int64_t>(pos);
    const auto at = std::find(wanted.begin(), wanted.end(), p);
    if (at != wanted.end()) return static_cast<std::int64_t>(at - wanted.begin());
    wanted.push_back(p);
    return static_cast<std::int64_t>(wanted.size() - 1);
  };
  std::vector<std::int64_t> lo_slot, hi_slot;
  std::vector<double> g, g1;
  for (double qv : q) {
    const Positions<double> p = positions(m, static_cast<double>(n), qv);
    lo_slot.push_back(slot(p.lo));
    hi_slot.push_back(slot(p.hi));
    g.push_back(p.gamma ? *p.gamma : 0.0);
    g1.push_back(p.gamma ? 1.0 - *p.gamma : 1.0);
  }
  const Array picked = calls::sorted_at(rows, wanted);
  const Array last = picked.slice(-1, 0, 1);
  const Array lo = take(picked, asarray(lo_slot), -1);
  Array out = lo;
  if (!m.discrete) {
    const Array hi = take(picked, asarray(hi_slot), -1);
    const DType wt = weak ? weight_dtype(rows.dtype()) : DType::Float64;
    const Array upper = asarray(g) >= 0.5;
    out = lerp(lo, hi, upper, asarray(g).astype(wt), asarray(g1).astype(wt));
  }
  if (is_inexact(rows.dtype())) out = where(isnan(last), last.astype(out.dtype()), out);
  return out;
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
  } else if (nan && has_nan) {
    const Array count = sum(logical_not(isnan(r.rows)), -1, true);
    out = interpolate(sort(r.rows, -1), count, qa, weak, m);
    out = where(count == 0, Array(std::nan("")).astype(out.dtype()), out);
  } else {
    out = interpolate_known(r.rows, r.n, q, weak, m);
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
  const bool nan_rows = nan && is_inexact(t);
  Array x, y, m;
  if (!nan_rows) {
    // The middle one or two and the last (a NaN sorts last) of rows of one length: a select.
    const std::int64_t h = r.n / 2;
    const Array picked = r.n % 2 ? calls::sorted_at(r.rows, {h, r.n - 1}) : calls::sorted_at(r.rows, {h - 1, h, r.n - 1});
    x = picked.slice(-1, 0, 1).astype(sum_t);
    y = picked.slice(-1, r.n % 2 ? 0 : 1, r.n % 2 ? 1 : 2).astype(sum_t);
    m = (r.n % 2 ? x : (x + y) / 2).astype(out_t);
    if (is_inexact(t)) {
      const Array last = picked.slice(-1, r.n % 2 ? 1 : 2, r.n % 2 ? 2 : 3);
      m = where(isnan(last), last.astype(out_t), m);
    }
    return stats::finish_rows(m.squeeze(-1), r, keepdims, 0);
  }
  // The nan form: each row's middle of its values (NaN sorts last), from the count of them.
  const Array sorted = sort(r.rows, -1);
  const Array count = sum(logical_not(isnan(r.rows)), -1, true);
  const Array hi = floor_divide(count, Array(2));
  const Array lo = where(remainder(count, Array(2)) == 1, hi, maximum(hi - 1, Array(0)));
  Shape idx_shape = sorted.shape();
  idx_shape[idx_shape.size() - 1] = 1;
  x = take_along_axis(sorted, lo.broadcast_to(idx_shape), -1).astype(sum_t);
  y = take_along_axis(sorted, hi.broadcast_to(idx_shape), -1).astype(sum_t);
  m = where(lo == hi, x, (x + y) / 2).astype(out_t);
  m = where(count == 0, Array(std::nan("")).astype(out_t), m);
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
