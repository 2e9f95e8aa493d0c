#pragma once
// NumPy's histograms and binning: histogram, histogram_bin_edges, digitize. The bin of every
// element is one fused kernel (NumPy's arithmetic: the scaled offset, then the corrections
// against the edges) whose int32 ids CUB's histogram counts (weighted: a deterministic bincount
// of known size); only an automatic range (min and max of the data) and the checks NumPy makes
// on given edges read values back.

#include <cstdint>
#include <optional>
#include <utility>

#include <loom/array.hpp>

namespace loom {

struct HistogramOptions {
  std::optional<std::pair<double, double>> range;  // none: the data's min and max
  std::optional<Array> weights;                    // a's shape; the counts take its dtype
  bool density = false;                            // counts / bin width / total (float64)
};

// (counts, edges): `bins` equal bins over the range (edges in a's float dtype, float64 for
// integers), or the given monotonic edges; every bin is half-open but the last.
[[nodiscard]] std::pair<Array, Array> histogram(const Array& a, std::int64_t bins = 10, const HistogramOptions& o = {});
[[nodiscard]] std::pair<Array, Array> histogram(const Array& a, const Array& bins, const HistogramOptions& o = {});
[[nodiscard]] Array histogram_bin_edges(const Array& a, std::int64_t bins = 10,
                                        std::optional<std::pair<double, double>> range = std::nullopt);

// The index of the bin each element of x falls in (int64): bins monotonically increasing or
// decreasing; right: bins closed on the right instead of the left.
[[nodiscard]] Array digitize(const Array& x, const Array& bins, bool right = false);

}  // namespace loom
