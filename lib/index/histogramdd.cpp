// histogramdd and histogram2d (include/loom/statistics.hpp), as NumPy computes them
// (numpy/lib/_histograms_impl.py, numpy/lib/_twodim_base_impl.py): each dimension's edges (equal
// bins over the range or the data's extent, or given), each sample's bin in each dimension a
// binary search (searchsorted, side right; the last edge moved into the last bin), the bins fused
// into one C-order index over (bins + 2) per dimension, counted by a deterministic bincount of
// known size; the outlier bins are sliced away.

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>
#include <loom/statistics.hpp>

#include "index/histogram_edges.hpp"

namespace loom {

namespace {

// One dimension's bins: a count, or the edges.
struct BinSpec {
  std::int64_t count = 0;
  std::optional<Array> edges;
};

HistogramddResult histogram_nd(const Array& sample_in, const std::vector<BinSpec>& bins_in, const HistogramddOptions& o) {
  Array sample = sample_in;
  if (sample.ndim() < 2) sample = atleast_2d(sample).T();
  if (sample.ndim() != 2) throw ValueError("too many values to unpack (expected 2)");
  const std::int64_t nsamples = sample.shape()[0], d = sample.shape()[1];
  std::vector<BinSpec> bins = bins_in;
  if (bins.size() == 1 && d != 1) bins.assign(static_cast<std::size_t>(d), bins_in[0]);
  if (static_cast<std::int64_t>(bins.size()) != d) {
    throw ValueError("The dimension of bins must be equal to the dimension of the sample x.");
  }
  if (!o.range.empty() && static_cast<std::int64_t>(o.range.size()) != d) {
    throw ValueError("range argument must have one entry per dimension");
  }
  if (o.weights && (o.weights->ndim() != 1 || o.weights->shape()[0] != nsamples)) {
    throw ValueError("The weights and list don't have the same length.");
  }
  HistogramddResult r;
  Shape nbin;
  std::vector<Array> ncount;
  for (std::int64_t i = 0; i < d; ++i) {
    const BinSpec& b = bins[static_cast<std::size_t>(i)];
    const Array col = sample[{all, i}];
    Array edges;
    if (b.edges) {
      edges = *b.edges;
      if (edges.ndim() != 1) throw ValueError(fmt::format("`bins[{}]` must be a scalar or 1d array", i));
      if (edges.shape()[0] >= 2 &&
          any(greater(edges[Slice(std::nullopt, -1, std::nullopt)], edges[Slice(1, std::nullopt, std::nullopt)])).item<bool>()) {
        throw ValueError(fmt::format("`bins[{}]` must be monotonically increasing, when an array", i));
      }
    } else {
      if (b.count < 1) throw ValueError(fmt::format("`bins[{}]` must be positive, when an integer", i));
      const auto& range = o.range.empty() ? std::nullopt : o.range[static_cast<std::size_t>(i)];
      const detail::Edges e = detail::outer_edges(col, range);
      // (a given range is Python floats: float64 edges; the data's extent its own float dtype)
      edges = linspace(e.first, e.last, b.count + 1, true, range ? DType::Float64 : e.type);
    }
    const std::int64_t ne = edges.shape()[0];
    r.edges.push_back(edges);
    nbin.push_back(ne + 1);
    Array at = searchsorted(edges, col, "right");
    if (ne > 0) at = where(equal(col, edges[ne - 1]), at - 1, at);
    ncount.push_back(at);
  }
  // The C-order index over nbin of each sample's bins.
  Array xy = ncount[0];
  for (std::size_t i = 1; i < ncount.size(); ++i) xy = xy * Array(nbin[static_cast<std::int64_t>(i)]) + ncount[i];
  Array hist = detail::bincount_in_range(xy, o.weights, nbin.numel()).reshape(nbin).astype(DType::Float64);
  std::vector<Index> core;
  for (std::int64_t i = 0; i < d; ++i) core.emplace_back(Slice(1, -1, std::nullopt));
  hist = hist.index(core);
  if (o.density) {
    const Array s = sum(hist);
    for (std::int64_t i = 0; i < d; ++i) {
      Shape shape = Shape::filled(static_cast<int>(d), 1);
      shape[static_cast<int>(i)] = nbin[static_cast<int>(i)] - 2;
      hist = hist / diff(r.edges[static_cast<std::size_t>(i)]).reshape(shape);
    }
    hist = hist / s;
  }
  r.hist = hist;
  return r;
}

std::vector<BinSpec> counts(const std::vector<std::int64_t>& bins) {
  std::vector<BinSpec> v;
  for (std::int64_t b : bins) v.push_back({b, std::nullopt});
  return v;
}

std::vector<BinSpec> given(const std::vector<Array>& bins) {
  std::vector<BinSpec> v;
  for (const Array& b : bins) v.push_back({0, b});
  return v;
}

std::tuple<Array, Array, Array> as_2d(const HistogramddResult& r) { return {r.hist, r.edges[0], r.edges[1]}; }

}  // namespace

HistogramddResult histogramdd(const Array& sample, std::int64_t bins, const HistogramddOptions& o) {
  return histogram_nd(sample, counts({bins}), o);
}
HistogramddResult histogramdd(const Array& sample, const std::vector<std::int64_t>& bins, const HistogramddOptions& o) {
  return histogram_nd(sample, counts(bins), o);
}
HistogramddResult histogramdd(const Array& sample, const std::vector<Array>& bins, const HistogramddOptions& o) {
  return histogram_nd(sample, given(bins), o);
}

std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, std::int64_t bins, const HistogramddOptions& o) {
  return as_2d(histogram_nd(stack({x, y}, 1), counts({bins, bins}), o));
}
std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, const std::vector<std::int64_t>& bins,
                                            const HistogramddOptions& o) {
  return as_2d(histogram_nd(stack({x, y}, 1), counts(bins), o));
}
std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, const std::vector<Array>& bins,
                                            const HistogramddOptions& o) {
  return as_2d(histogram_nd(stack({x, y}, 1), given(bins), o));
}

}  // namespace loom
