// histogram, histogram_bin_edges and digitize (include/loom/statistics.hpp), as NumPy computes
// them (numpy/lib/_histograms_impl.py, numpy/lib/_function_base_impl.py): equal bins take the
// scaled offset of each element, truncated, then corrected by one against the edges it lies
// between; given edges take a binary search. The bin ids are one fused kernel, the counts a
// deterministic bincount of known size (detail::bincount_in_range, scatter.cpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>
#include <loom/statistics.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "graph/node.hpp"
#include "index/histogram_edges.hpp"
#include "reference/evaluator.hpp"
#include "runtime/libs/cub_algorithms.hpp"

namespace loom {

namespace {

// NumPy prints the edges of a range as Python does its floats.
std::string py_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

namespace detail {

Edges outer_edges(const Array& a, const std::optional<std::pair<double, double>>& range) {
  Edges e;
  e.type = is_inexact(a.dtype()) ? a.dtype() : DType::Float64;
  if (is_complex(a.dtype())) throw DTypeError("histogram: complex data has no order");
  if (range) {
    e.first = range->first;
    e.last = range->second;
    if (e.first > e.last) throw ValueError("max must be larger than min in range parameter.");
    if (!std::isfinite(e.first) || !std::isfinite(e.last)) {
      throw ValueError(fmt::format("supplied range of [{}, {}] is not finite", py_float(e.first), py_float(e.last)));
    }
  } else if (a.size() > 0) {
    const Array lo = min(a).astype(DType::Float64), hi = max(a).astype(DType::Float64);
    eval({lo, hi});
    e.first = lo.item<double>();
    e.last = hi.item<double>();
    if (!std::isfinite(e.first) || !std::isfinite(e.last)) {
      throw ValueError(fmt::format("autodetected range of [{}, {}] is not finite", py_float(e.first), py_float(e.last)));
    }
  }
  if (e.first == e.last) {
    e.first -= 0.5;
    e.last += 0.5;
  }
  return e;
}

}  // namespace detail

namespace {

using detail::Edges;
using detail::outer_edges;

void check_weights(const Array& a, const HistogramOptions& o) {
  if (o.weights && o.weights->shape() != a.shape()) throw ValueError("weights should have the same shape as a.");
}

// The counts of int32 bin ids in [0, nbins) (the others not counted): a barrier call to CUB's
// histogram on the GPU, a loop on the host.
Array count_bins(const Array& ids, std::int64_t nbins) {
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = "histogram";
  spec->text = fmt::format("cub::DeviceHistogram::HistogramEven, {} bins", nbins);
  spec->inputs = {detail::leaf_of(ids.astype(DType::Int32), "histogram")};
  spec->outputs = {{DType::Int64, Shape{nbins}}};
  const std::int64_t m = ids.size();
  spec->device = [=](detail::CallContext& ctx) {
    const detail::CallArg& in = ctx.contiguous(0);
    algo::count_bins(static_cast<const std::int32_t*>(in.data()), m, static_cast<std::int32_t>(nbins),
                     static_cast<std::int64_t*>(ctx.out[0]), calls::stream_of(ctx), calls::workspace_of(ctx));
  };
  spec->host = [=](std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out) {
    const auto* id = reinterpret_cast<const std::int32_t*>(in[0]->data.data());
    auto* n = reinterpret_cast<std::int64_t*>(out[0].data.data());
    std::fill(n, n + nbins, std::int64_t{0});
    for (std::int64_t i = 0; i < m; ++i) {
      if (id[i] >= 0 && id[i] < nbins) ++n[id[i]];
    }
  };
  return calls::make_call_arrays(spec)[0];
}

// Counts from bin positions 1..nbins (0: the element is outside every bin), in NumPy's dtype:
// int64, the weights' dtype, or the density. Without weights the positions go to CUB's histogram
// as int32 ids (a quarter of the int64 positions' bytes, counters in shared memory).
std::pair<Array, Array> finish(const Array& pos, std::int64_t nbins, const Array& edges, const HistogramOptions& o) {
  const std::optional<Array> w = o.weights ? std::optional<Array>(o.weights->reshape({-1})) : std::nullopt;
  if (!w && nbins < std::numeric_limits<std::int32_t>::max() && nbins > 0) {
    Array n = count_bins((pos - 1).reshape({-1}), nbins);
    if (o.density) n = n / diff(edges).astype(DType::Float64) / sum(n);
    return {n, edges};
  }
  const Array all = detail::bincount_in_range(pos, w, nbins + 1);
  Array n = all[Slice(1, std::nullopt, std::nullopt)];
  if (o.weights) n = n.astype(o.weights->dtype());
  if (o.density) {
    const Array db = diff(edges).astype(DType::Float64);
    n = n / db / sum(n);
  }
  return {n, edges};
}

}  // namespace

Array histogram_bin_edges(const Array& a, std::int64_t bins, std::optional<std::pair<double, double>> range) {
  if (bins < 1) throw ValueError("`bins` must be positive, when an integer");
  const Edges e = outer_edges(a.reshape({-1}), range);
  return linspace(e.first, e.last, bins + 1, true, e.type);
}

std::pair<Array, Array> histogram(const Array& a_in, std::int64_t bins, const HistogramOptions& o) {
  check_weights(a_in, o);
  if (bins < 1) throw ValueError("`bins` must be positive, when an integer");
  const Array a = a_in.reshape({-1});
  const Edges e = outer_edges(a, o.range);
  const Array edges = linspace(e.first, e.last, bins + 1, true, e.type);
  // keep = (a >= first) & (a <= last); then, in the edges' dtype, the scaled offset
  // (a - first) / (last - first) * bins truncated, the last edge's elements moved into the last
  // bin, and one down or up where a lies below its bin's left edge or on the next one.
  const Array first = Array(e.first), last = Array(e.last);
  const Array keep = logical_and(greater_equal(a, first), less_equal(a, last));
  const Array x = a.astype(e.type);
  const Array f = (x - first) / Array(e.last - e.first) * Array(static_cast<double>(bins));
  Array idx = where(keep, f, Array(0.0)).astype(DType::Int64);
  idx = where(equal(idx, Array(bins)), idx - 1, idx);
  idx = where(less(x, take(edges, idx)), idx - 1, idx);
  const Array next = take(edges, idx + 1, std::nullopt, TakeMode::Clip);
  idx = where(logical_and(greater_equal(x, next), not_equal(idx, Array(bins - 1))), idx + 1, idx);
  return finish(where(keep, idx + 1, Array(0)), bins, edges, o);
}

std::pair<Array, Array> histogram(const Array& a_in, const Array& bins, const HistogramOptions& o) {
  check_weights(a_in, o);
  if (bins.ndim() != 1) throw ValueError("`bins` must be 1d, when an array");
  const std::int64_t ne = bins.shape()[0];
  if (ne >= 2) {
    const Array lo = bins[Slice(std::nullopt, -1, std::nullopt)], hi = bins[Slice(1, std::nullopt, std::nullopt)];
    if (any(greater(lo, hi)).item<bool>()) throw ValueError("`bins` must increase monotonically, when an array");
  }
  const Array a = a_in.reshape({-1});
  if (ne < 2) return finish(zeros({0}, DType::Int64), 0, bins, o);
  // The bin of each element: the last edge at or below it (the last bin closed on the right).
  const Array top = bins[Slice(-1, std::nullopt, std::nullopt)].reshape({}), bottom = bins[0];
  const Array keep = logical_and(greater_equal(a, bottom), less_equal(a, top));
  Array idx = searchsorted(bins, a, "right") - 1;
  idx = minimum(idx, Array(ne - 2));
  return finish(where(keep, idx + 1, Array(0)), ne - 1, bins, o);
}

Array digitize(const Array& x, const Array& bins, bool right) {
  if (is_complex(x.dtype())) throw DTypeError("x may not be complex");
  if (bins.ndim() != 1) throw ValueError("object too deep for desired array");
  const std::int64_t n = bins.shape()[0];
  bool increasing = true;
  if (n >= 2) {
    const Array lo = bins[Slice(std::nullopt, -1, std::nullopt)], hi = bins[Slice(1, std::nullopt, std::nullopt)];
    const Array inc = all(less_equal(lo, hi)), dec = all(greater_equal(lo, hi));
    eval({inc, dec});
    if (!inc.item<bool>() && !dec.item<bool>()) throw ValueError("bins must be monotonically increasing or decreasing");
    increasing = inc.item<bool>();
  }
  const char* side = right ? "left" : "right";
  if (increasing) return searchsorted(bins, x, side);
  return Array(n) - searchsorted(bins.flip(0), x, side);
}

namespace {

// NumPy's bin-width rules (numpy/lib/_histograms_impl.py, _hist_bin_*): each from the data's
// extent (in its own dtype, as NumPy's ptp), size, deviation or quartiles, read back once.
double bin_width(const Array& x, std::string_view rule, const Edges& e) {
  const double n = static_cast<double>(x.size());
  const DType t = is_inexact(x.dtype()) ? x.dtype() : DType::Float64;
  const Array ptp_a = max(x).astype(t) - min(x).astype(t);
  const double ptp = ptp_a.item<double>();
  const auto sqrt_w = [&] { return ptp / std::sqrt(n); };
  const auto sturges = [&] { return ptp / (std::log2(n) + 1.0); };
  const auto fd = [&] {
    // The interquartile range as np.percentile(x, [75, 25]) gives it: NumPy's linear method on
    // the sorted values, in float64.
    const Array sorted = sort(x).astype(DType::Float64);
    const auto quartile = [&](double q) {
      const double v = (n - 1) * q, lo = std::floor(v), g = v - lo;
      const auto i = static_cast<std::int64_t>(lo);
      const double a = sorted[i].item<double>(), b = sorted[std::min<std::int64_t>(i + 1, x.size() - 1)].item<double>();
      return g >= 0.5 ? b - (b - a) * (1 - g) : a + (b - a) * g;
    };
    return 2.0 * (quartile(0.75) - quartile(0.25)) * std::pow(n, -1.0 / 3.0);
  };
  if (rule == "sqrt") return sqrt_w();
  if (rule == "sturges") return sturges();
  if (rule == "rice") return ptp / (2.0 * std::pow(n, 1.0 / 3));
  if (rule == "scott") return std::pow(24.0 * std::sqrt(M_PI) / n, 1.0 / 3.0) * std(x).item<double>();
  if (rule == "fd") return fd();
  if (rule == "auto") return std::min(std::max(fd(), sqrt_w() / 2), sturges());
  if (rule == "doane") {
    if (n <= 2) return 0.0;
    const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
    const double sigma = std(x).item<double>();
    if (!(sigma > 0.0)) return 0.0;
    const Array xt = x.astype(t);
    const double g1 = mean(power((xt - mean(xt)) / Array(sigma).astype(t), Array(3))).item<double>();
    return ptp / (1.0 + std::log2(n) + std::log2(1.0 + std::abs(g1) / sg1));
  }
  // stone: the count of 1 .. max(100, sqrt(n)) bins that minimizes the estimated integrated
  // squared error (its first minimum), every candidate's histogram computed before one read.
  if (n <= 1 || ptp == 0) return 0.0;
  const auto upper = std::max<std::int64_t>(100, static_cast<std::int64_t>(std::sqrt(n)));
  HistogramOptions o;
  o.range = std::pair{e.first, e.last};
  std::vector<Array> jhat;
  for (std::int64_t nb = 1; nb <= upper; ++nb) {
    const Array p = histogram(x, nb, o).first / n;
    jhat.push_back((2.0 - (n + 1) * sum(p * p)) / (ptp / static_cast<double>(nb)));
  }
  const std::int64_t best = argmin(stack(jhat)).item<std::int64_t>() + 1;
  return ptp / static_cast<double>(best);
}

// The number of equal bins a rule gives (_get_bin_edges): the width of the data within the range.
std::int64_t rule_bins(const Array& a_in, std::string_view rule, const std::optional<std::pair<double, double>>& range,
                       bool weighted) {
  static constexpr std::array<std::string_view, 8> kRules{"stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"};
  if (std::find(kRules.begin(), kRules.end(), rule) == kRules.end()) {
    throw ValueError(fmt::format("'{}' is not a valid estimator for `bins`", rule));
  }
  if (weighted) throw DTypeError("Automated estimation of the number of bins is not supported for weighted data");
  const Array a = a_in.reshape({-1});
  const Edges e = outer_edges(a, range);
  const Array x = range ? a[logical_and(greater_equal(a, Array(e.first)), less_equal(a, Array(e.last)))] : a;
  if (x.size() == 0) return 1;
  double width = bin_width(x, rule, e);
  if (width == 0 || std::isnan(width)) return 1;
  if (!is_inexact(a.dtype()) && width < 1) width = 1;
  // The extent in the data's float dtype (NumPy subtracts its float32 scalars in float32).
  const double delta = a.dtype() == DType::Float32 ? static_cast<double>(static_cast<float>(e.last) - static_cast<float>(e.first))
                                                   : e.last - e.first;
  return static_cast<std::int64_t>(std::ceil(delta / width));
}

}  // namespace

std::pair<Array, Array> histogram(const Array& a, std::string_view bins, const HistogramOptions& o) {
  check_weights(a, o);
  return histogram(a, rule_bins(a, bins, o.range, o.weights.has_value()), o);
}

Array histogram_bin_edges(const Array& a, std::string_view bins, std::optional<std::pair<double, double>> range) {
  return histogram_bin_edges(a, rule_bins(a, bins, range, false), range);
}

}  // namespace loom
