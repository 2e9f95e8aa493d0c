// interp, convolve, correlate, unwrap, vander and polyfit (include/loom/signal.hpp), as NumPy
// computes them: interp a binary search (searchsorted) and a fused lerp with NumPy's fallbacks for
// a NaN slope; correlate a reduction over sliding windows of the zero-padded longer input (one
// fused kernel: the window is an index map, the shorter input a broadcast); unwrap a fused
// correction and a cumulative sum; vander a cumulative product (NumPy's multiply.accumulate);
// polyfit a scaled Vandermonde least-squares solve.

#include <cmath>
#include <complex>
#include <limits>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/indexing.hpp>
#include <loom/linalg.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/signal.hpp>
#include <loom/sorting.hpp>

namespace loom {

namespace {

// One real part of np.interp (compiled_base.c's arr_interp): x, xp, fp float64; xp sorted.
Array interp_real(const Array& x, const Array& xp, const Array& fp, const Array& lval, const Array& rval) {
  const std::int64_t n = xp.shape()[0];
  const Array first = xp[0], last = xp[n - 1];
  if (n == 1) return where(x < first, lval, where(x > first, rval, fp[0]));
  // j: the last sample at or below x (clipped to an interval for the gathers).
  const Array j = clip(searchsorted(xp, x, "right") - 1, Array(0), Array(n - 2));
  const Array xj = take(xp, j), xj1 = take(xp, j + 1), yj = take(fp, j), yj1 = take(fp, j + 1);
  const Array slope = (yj1 - yj) / (xj1 - xj);
  Array r = slope * (x - xj) + yj;
  // A NaN from one side is tried from the other, and a flat interval gives its value.
  r = where(isnan(r), slope * (x - xj1) + yj1, r);
  r = where(logical_and(isnan(r), yj == yj1), yj, r);
  r = where(xj == x, yj, r);
  r = where(x == last, fp[n - 1], r);
  r = where(x > last, rval, where(x < first, lval, r));
  return where(isnan(x), x, r);
}

Array conj_if_complex(const Array& a) { return is_complex(a.dtype()) ? a.conj() : a; }

// sum over j of a[lag + j] * v[j] (a zero outside its extent) for lags lo .. lo + count - 1, in
// the dtype a and v promote to (NumPy's dot of that type: bool is any of the ands).
Array lag_products(const Array& a, const Array& v, std::int64_t lo, std::int64_t count) {
  const DType t = result_type(a, v);
  const std::int64_t n = a.shape()[0], m = v.shape()[0];
  const std::int64_t left = std::max<std::int64_t>(0, -lo), right = std::max<std::int64_t>(0, lo + count - 1 + m - n);
  const Array ap = left || right ? pad(a.astype(t), {{left, right}}) : a.astype(t);
  const Array w = sliding_window_view(ap, {m})[Slice(lo + left, lo + left + count, std::nullopt)];
  const Array vt = v.astype(t);
  if (t == DType::Bool) return any(logical_and(w, vt), 1);
  return sum(w * vt, 1, false, t);
}

// np.correlate's window of lags for a of length n and v of length m (multiarray's
// _pyarray_correlate, the inputs swapped and the result reversed when v is the longer).
std::pair<std::int64_t, std::int64_t> lags(std::int64_t n, std::int64_t m, std::string_view mode) {
  const std::int64_t big = std::max(n, m), small = std::min(n, m);
  if (mode == "valid") return n >= m ? std::pair{std::int64_t{0}, n - m + 1} : std::pair{n - m, m - n + 1};
  if (mode == "same") {
    const std::int64_t left = small / 2;
    return n >= m ? std::pair{-left, big} : std::pair{-(m - 1 - left), big};
  }
  if (mode == "full") return {-(m - 1), n + m - 1};
  throw ValueError(fmt::format("mode must be one of 'valid', 'same', or 'full' (got {})", fmt::format("'{}'", mode)));
}

Array correlate_of(const Array& a, const Array& v, std::string_view mode, bool conj, const char* what) {
  if (a.ndim() > 1 || v.ndim() > 1) throw ValueError("object too deep for desired array");
  const Array a1 = a.ndim() == 0 ? a.reshape({1}) : a, v1 = v.ndim() == 0 ? v.reshape({1}) : v;
  const std::int64_t n = a1.shape()[0], m = v1.shape()[0];
  if (std::string_view(what) == "convolve") {
    if (n == 0 && m <= n) throw ValueError("a cannot be empty");
    if (m == 0 || n == 0) throw ValueError(n == 0 ? "a cannot be empty" : "v cannot be empty");
  } else {
    if (n == 0) throw ValueError("first array argument cannot be empty");
    if (m == 0) throw ValueError("second array argument cannot be empty");
  }
  const auto [lo, count] = lags(n, m, mode);
  return lag_products(a1, conj ? conj_if_complex(v1) : v1, lo, count);
}

}  // namespace

Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left, std::optional<double> right,
             std::optional<double> period) {
  const DType ft = is_complex(fp.dtype()) ? DType::Complex128 : DType::Float64;
  Array xd = x.astype(DType::Float64), xpd = xp.astype(DType::Float64), fpd = fp.astype(ft);
  if (period) {
    if (*period == 0) throw ValueError("period must be a non-zero value");
    const double p = std::abs(*period);
    left.reset();
    right.reset();
    if (xpd.ndim() != 1 || fpd.ndim() != 1) throw ValueError("Data points must be 1-D sequences");
    if (xpd.shape()[0] != fpd.shape()[0]) throw ValueError("fp and xp are not of the same length");
    xd = remainder(xd, Array(p));
    xpd = remainder(xpd, Array(p));
    const Array order = argsort(xpd);
    xpd = take(xpd, order);
    fpd = take(fpd, order);
    xpd = concatenate({xpd[Slice(-1, std::nullopt, std::nullopt)] - p, xpd, xpd[Slice(0, 1, std::nullopt)] + p});
    fpd = concatenate({fpd[Slice(-1, std::nullopt, std::nullopt)], fpd, fpd[Slice(0, 1, std::nullopt)]});
  }
  if (xpd.ndim() != 1 || fpd.ndim() != 1) {
    throw ValueError(xpd.ndim() > 1 || fpd.ndim() > 1 ? "object too deep for desired array"
                                                      : "object of too small depth for desired array");
  }
  const std::int64_t n = xpd.shape()[0];
  if (n == 0 && xd.size() != 0) throw ValueError("array of sample points is empty");
  if (fpd.shape()[0] != n) throw ValueError("fp and xp are not of the same length.");
  if (xd.size() == 0 || n == 0) return zeros(xd.shape(), ft);
  const auto side = [&](const std::optional<double>& v, std::int64_t k, bool imag) {
    if (v) return Array(imag ? 0.0 : *v);
    return imag ? fpd[k].imag() : ft == DType::Complex128 ? fpd[k].real() : fpd[k];
  };
  if (ft == DType::Float64) return interp_real(xd, xpd, fpd, side(left, 0, false), side(right, n - 1, false));
  const Array re = interp_real(xd, xpd, fpd.real(), side(left, 0, false), side(right, n - 1, false));
  const Array im = interp_real(xd, xpd, fpd.imag(), side(left, 0, true), side(right, n - 1, true));
  return re + im * Array(std::complex<double>(0, 1));
}

Array correlate(const Array& a, const Array& v, std::string_view mode) {
  return correlate_of(a, v, mode, true, "correlate");
}

Array convolve(const Array& a_in, const Array& v_in, std::string_view mode) {
  const Array a = a_in.ndim() == 0 ? a_in.reshape({1}) : a_in, v = v_in.ndim() == 0 ? v_in.reshape({1}) : v_in;
  if (a.ndim() > 1 || v.ndim() > 1) throw ValueError("object too deep for desired array");
  const bool swap = v.shape()[0] > a.shape()[0];
  const Array& big = swap ? v : a;
  const Array& small = swap ? a : v;
  if (big.shape()[0] == 0) throw ValueError("a cannot be empty");
  if (small.shape()[0] == 0) throw ValueError("v cannot be empty");
  return correlate_of(big, small.flip(0), mode, false, "convolve");
}

Array unwrap(const Array& p, std::optional<double> discont, int axis, double period) {
  const int nd = p.ndim();
  const int ax = nd == 0 ? axis : static_cast<int>(axis < 0 ? axis + nd : axis);
  const Array dd = diff(p, 1, axis);
  const double disc = discont ? *discont : period / 2;
  // (period is a C++ double: NumPy's Python float, so the correction is in floats; an integer
  // period's exact divmod does not arise)
  const DType t = result_type(dd, Array(period));
  const Array ddmod = remainder(dd + period / 2, Array(period)) - period / 2;
  // (-period/2 where |dd| is period/2: its sign's half period instead)
  const Array fixed = where(logical_and(ddmod == -period / 2, dd > 0), Array(period / 2).astype(ddmod.dtype()), ddmod);
  Array correct = fixed - dd;
  correct = where(abs(dd) < disc, Array(0).astype(correct.dtype()), correct);
  const Array up = p.astype(t);
  const Array rest = p.slice(ax, 1, std::nullopt) + cumsum(correct, ax);
  return concatenate({up.slice(ax, 0, 1), rest.astype(t)}, ax);
}

Array vander(const Array& x, std::optional<std::int64_t> N, bool increasing) {
  if (x.ndim() != 1) throw ValueError("x must be a one-dimensional array or sequence.");
  const std::int64_t n = x.shape()[0], cols = N ? *N : n;
  if (cols < 0) throw ValueError("negative dimensions are not allowed");
  const DType t = promote_types(x.dtype(), DType::Int64);
  if (cols == 0) return zeros({n, 0}, t);
  Array v = ones({n, 1}, t);
  if (cols > 1) {
    const Array xs = x.astype(t).reshape({n, 1}).broadcast_to({n, cols - 1});
    v = concatenate({v, cumprod(xs, 1)}, 1);
  }
  return increasing ? v : v.flip(1);
}

Array polyfit(const Array& x_in, const Array& y_in, int deg, std::optional<double> rcond, const std::optional<Array>& w_in) {
  const Array x = x_in + 0.0, y = y_in + 0.0;
  if (deg < 0) throw ValueError("expected deg >= 0");
  if (x.ndim() != 1) throw DTypeError("expected 1D vector for x");
  if (x.size() == 0) throw DTypeError("expected non-empty vector for x");
  if (y.ndim() < 1 || y.ndim() > 2) throw DTypeError("expected 1D or 2D array for y");
  if (x.shape()[0] != y.shape()[0]) throw DTypeError("expected x and y to have same length");
  const double eps = x.dtype() == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                                 : std::numeric_limits<double>::epsilon();
  const double rc = rcond ? *rcond : static_cast<double>(x.shape()[0]) * eps;
  Array lhs = vander(x, deg + 1), rhs = y;
  if (w_in) {
    const Array w = *w_in + 0.0;
    if (w.ndim() != 1) throw DTypeError("expected a 1-d array for weights");
    if (w.shape()[0] != y.shape()[0]) throw DTypeError("expected w and y to have the same length");
    lhs = (lhs * w.expand_dims(1)).astype(lhs.dtype());
    rhs = (rhs.ndim() == 2 ? rhs * w.expand_dims(1) : rhs * w).astype(rhs.dtype());
  }
  const Array scale = sqrt(sum(lhs * lhs, 0));
  lhs = lhs / scale;
  const Array c = linalg::lstsq(lhs, rhs, rc).x;
  return (c.T() / scale).T();
}

}  // namespace loom
