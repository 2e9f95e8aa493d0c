#pragma once
// NumPy's answers for the order statistics, nan reductions, covariance and partitions
// (tests/unit/api/stats_cases.txt, written by tools/gen_stats_cases.py), run through loom: shared
// by the host tests and the GPU tests.

#include <optional>
#include <stdexcept>
#include <vector>

#include <loom/loom.hpp>

#include "support/math_cases.hpp"

namespace loom::test {

// An axis argument: None (every axis), an int, or a tuple.
inline Axes axes_of(const ManipArg& a) {
  if (a.kind == 'n') return Axes{};
  if (a.kind == 'l') return Axes(a.list);
  return Axes(a.i);
}
inline std::optional<int> axis_of(const ManipArg& a) {
  if (a.kind == 'n') return std::nullopt;
  return static_cast<int>(a.i);
}
inline std::vector<std::int64_t> kth_of(const ManipArg& a) {
  if (a.kind == 'i') return {a.i};
  std::vector<std::int64_t> k;
  for (const ManipArg& x : a.items) k.push_back(x.i);
  return k;
}

// partition's kth elements along the axis (what NumPy defines of its result).
inline Array kth_elements(const Array& r, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  std::vector<std::int64_t> k = kth;
  return r.take(asarray(k), axis ? *axis : -1);
}

inline std::vector<Array> run_stats(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  const auto x = [&](std::size_t k) { return value_of(g[k]); };
  if (f == "quantile" || f == "percentile" || f == "nanquantile" || f == "nanpercentile") {
    const Axes ax = axes_of(g[2]);
    const bool kd = g[3].i != 0;
    const std::string& m = g[4].word;
    if (g[1].kind == 'f') {
      const double q = g[1].f;
      if (f == "quantile") return one(quantile(x(0), q, ax, kd, m));
      if (f == "percentile") return one(percentile(x(0), q, ax, kd, m));
      if (f == "nanquantile") return one(nanquantile(x(0), q, ax, kd, m));
      return one(nanpercentile(x(0), q, ax, kd, m));
    }
    const std::vector<double> q = g[1].array.to_host<double>();
    if (f == "quantile") return one(quantile(x(0), q, ax, kd, m));
    if (f == "percentile") return one(percentile(x(0), q, ax, kd, m));
    if (f == "nanquantile") return one(nanquantile(x(0), q, ax, kd, m));
    return one(nanpercentile(x(0), q, ax, kd, m));
  }
  if (f == "median") return one(median(x(0), axes_of(g[1]), g[2].i != 0));
  if (f == "nanmedian") return one(nanmedian(x(0), axes_of(g[1]), g[2].i != 0));
  if (f == "nanprod") return one(nanprod(x(0), axes_of(g[1]), g[2].i != 0));
  if (f == "nanvar") return one(nanvar(x(0), axes_of(g[1]), g[2].i != 0, g[3].i));
  if (f == "nanstd") return one(nanstd(x(0), axes_of(g[1]), g[2].i != 0, g[3].i));
  if (f == "nancumsum") return one(nancumsum(x(0), axis_of(g[1])));
  if (f == "nancumprod") return one(nancumprod(x(0), axis_of(g[1])));
  if (f == "nanargmin") return one(nanargmin(x(0), axis_of(g[1]), g[2].i != 0));
  if (f == "nanargmax") return one(nanargmax(x(0), axis_of(g[1]), g[2].i != 0));
  if (f == "cov") {
    CovOptions o;
    o.y = optional_array(g[1]);
    o.rowvar = g[2].i != 0;
    o.bias = g[3].i != 0;
    if (g[4].kind != 'n') o.ddof = g[4].i;
    o.fweights = optional_array(g[5]);
    o.aweights = optional_array(g[6]);
    return one(cov(x(0), o));
  }
  if (f == "corrcoef") return one(corrcoef(x(0), optional_array(g[1]), g[2].i != 0));
  if (f == "partition") {
    const auto axis = axis_of(g[2]);
    const Array r = partition(x(0), kth_of(g[1]), axis);
    return one(kth_elements(axis ? r : r.reshape({-1}), kth_of(g[1]), axis));
  }
  if (f == "argpartition") {
    const auto axis = axis_of(g[2]);
    const Array a = axis ? x(0) : x(0).reshape({-1});
    const Array idx = argpartition(x(0), kth_of(g[1]), axis);
    return one(kth_elements(take_along_axis(a, idx, axis ? *axis : -1), kth_of(g[1]), axis));
  }
  if (f == "histogram_rule" || f == "bin_edges_rule") {
    std::optional<std::pair<double, double>> range;
    if (g[2].kind != 'n') range = std::pair{number(g[2]), number(g[3])};
    if (f == "bin_edges_rule") return one(histogram_bin_edges(x(0), g[1].word, range));
    HistogramOptions o;
    o.range = range;
    const auto [n, edges] = histogram(x(0), g[1].word, o);
    return {n, edges};
  }
  if (f == "histogramdd" || f == "histogram2d") {
    const std::size_t b = f == "histogramdd" ? 1 : 2;
    HistogramddOptions o;
    if (g[b + 1].kind != 'n') {
      const std::vector<double> r = g[b + 1].array.to_host<double>();
      for (std::size_t k = 0; k + 1 < r.size(); k += 2) o.range.emplace_back(std::pair{r[k], r[k + 1]});
    }
    o.weights = optional_array(g[b + 2]);
    o.density = g[b + 3].i != 0;
    const ManipArg& bins = g[b];
    if (f == "histogram2d") {
      const auto [h, ex, ey] = bins.kind == 'i'   ? histogram2d(x(0), x(1), bins.i, o)
                               : bins.kind == 'l' ? histogram2d(x(0), x(1), bins.list, o)
                                                  : histogram2d(x(0), x(1), arrays_of(bins), o);
      return {h, ex, ey};
    }
    const HistogramddResult r = bins.kind == 'i'   ? histogramdd(x(0), bins.i, o)
                                : bins.kind == 'l' ? histogramdd(x(0), bins.list, o)
                                                   : histogramdd(x(0), arrays_of(bins), o);
    std::vector<Array> out{r.hist};
    for (const Array& e : r.edges) out.push_back(e);
    return out;
  }
  if (f == "gradient") {
    std::vector<Array> sp;
    for (const ManipArg& a : g[1].items) sp.push_back(value_of(a));
    return gradient(x(0), sp, axes_of(g[2]), static_cast<int>(g[3].i));
  }
  if (f == "interp") {
    return one(interp(x(0), x(1), x(2), optional_double(g[3]), optional_double(g[4]), optional_double(g[5])));
  }
  if (f == "convolve") return one(convolve(x(0), x(1), g[2].word));
  if (f == "correlate") return one(correlate(x(0), x(1), g[2].word));
  if (f == "unwrap") return one(unwrap(x(0), optional_double(g[1]), static_cast<int>(g[2].i), number(g[3])));
  if (f == "vander") {
    const std::optional<std::int64_t> n = g[1].kind == 'n' ? std::nullopt : std::optional<std::int64_t>(g[1].i);
    return one(vander(x(0), n, g[2].i != 0));
  }
  if (f == "polyfit") return one(polyfit(x(0), x(1), static_cast<int>(g[2].i), std::nullopt, optional_array(g[3])));
  if (f == "kaiser") return one(kaiser(g[0].i, number(g[1])));
  if (f == "i0") return one(i0(x(0)));
  throw std::runtime_error("no such function in the statistics table: " + f);
}

}  // namespace loom::test
