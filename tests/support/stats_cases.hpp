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
  throw std::runtime_error("no such function in the statistics table: " + f);
}

}  // namespace loom::test
