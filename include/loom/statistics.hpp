#pragma once
// NumPy's order statistics (median, quantile, percentile and their nan forms), the nan forms of
// the moments, products, cumulative sums and arg-extrema, covariance and correlation, and its
// histograms and binning.
//
// Order statistics are a sort along the reduced axes (a barrier: the reduced axes are moved last
// and merged) followed by ONE fused kernel that reads, at most, two neighbours and the last
// element of each sorted row and interpolates as NumPy's method says; the nan forms take the
// count of non-NaN values of each row in the same kernel (NaN sorts last). Nothing is read back.
//
// Histograms and binning: histogram, histogram_bin_edges, digitize.: histogram, histogram_bin_edges, digitize. The bin of every
// element is one fused kernel (NumPy's arithmetic: the scaled offset, then the corrections
// against the edges) whose int32 ids CUB's histogram counts (weighted: a deterministic bincount
// of known size); only an automatic range (min and max of the data) and the checks NumPy makes
// on given edges read values back.

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <loom/array.hpp>
#include <loom/axes.hpp>

namespace loom {

// --- order statistics ---
// method: NumPy's names ("linear", the default; "lower", "higher", "nearest", "midpoint",
// "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
// "hazen", "weibull", "median_unbiased", "normal_unbiased"). A q given as a number is NumPy's
// Python float (the result keeps a's float dtype; integers give float64); q given as a list is
// an array: its dims come first in the result, and the interpolation runs in float64. Complex a
// is a DTypeError; a slice holding a NaN gives NaN. The discontinuous methods (lower, higher,
// nearest, inverted_cdf, closest_observation) return elements of a, in a's dtype.
[[nodiscard]] Array quantile(const Array& a, double q, const Axes& axis = {}, bool keepdims = false,
                             std::string_view method = "linear");
[[nodiscard]] Array quantile(const Array& a, const std::vector<double>& q, const Axes& axis = {},
                             bool keepdims = false, std::string_view method = "linear");
// q in percent, [0, 100].
[[nodiscard]] Array percentile(const Array& a, double q, const Axes& axis = {}, bool keepdims = false,
                               std::string_view method = "linear");
[[nodiscard]] Array percentile(const Array& a, const std::vector<double>& q, const Axes& axis = {},
                               bool keepdims = false, std::string_view method = "linear");
// The same, ignoring NaNs: each slice's quantile of its non-NaN values (NaN where there are none).
[[nodiscard]] Array nanquantile(const Array& a, double q, const Axes& axis = {}, bool keepdims = false,
                                std::string_view method = "linear");
[[nodiscard]] Array nanquantile(const Array& a, const std::vector<double>& q, const Axes& axis = {},
                                bool keepdims = false, std::string_view method = "linear");
[[nodiscard]] Array nanpercentile(const Array& a, double q, const Axes& axis = {}, bool keepdims = false,
                                  std::string_view method = "linear");
[[nodiscard]] Array nanpercentile(const Array& a, const std::vector<double>& q, const Axes& axis = {},
                                  bool keepdims = false, std::string_view method = "linear");
// The mean of the middle element(s), in np.mean's dtype (integers and bool give float64,
// float16 is averaged in float32); complex values order as sort's. Empty: NaN.
[[nodiscard]] Array median(const Array& a, const Axes& axis = {}, bool keepdims = false);
[[nodiscard]] Array nanmedian(const Array& a, const Axes& axis = {}, bool keepdims = false);

// --- the nan forms of the other reductions: NaN counts as absent ---
// Integers have no NaN: each is then the plain reduction.
[[nodiscard]] Array nanprod(const Array& a, const Axes& axis = {}, bool keepdims = false,
                            std::optional<DType> dtype = std::nullopt);
// Divided by (count of non-NaN - ddof); NaN where that is <= 0.
[[nodiscard]] Array nanvar(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
                           std::optional<DType> dtype = std::nullopt);
[[nodiscard]] Array nanstd(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
                           std::optional<DType> dtype = std::nullopt);
[[nodiscard]] Array nancumsum(const Array& a, std::optional<int> axis = std::nullopt,
                              std::optional<DType> dtype = std::nullopt);
[[nodiscard]] Array nancumprod(const Array& a, std::optional<int> axis = std::nullopt,
                               std::optional<DType> dtype = std::nullopt);
// ValueError "All-NaN slice encountered" when a slice holds only NaNs (a bool is read back:
// one synchronization).
[[nodiscard]] Array nanargmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
[[nodiscard]] Array nanargmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// --- covariance and correlation ---
struct CovOptions {
  std::optional<Array> y;                // more variables (observations as m's)
  bool rowvar = true;                    // each row a variable (else each column)
  bool bias = false;                     // normalize by N (else N - 1)
  std::optional<std::int64_t> ddof;      // overrides bias
  std::optional<Array> fweights, aweights;  // 1-d integer frequencies, observation weights
  std::optional<DType> dtype;            // default: result_type(m, y, float64)
};
// The covariance matrix: one GEMM of the centred data with its conjugate transpose (0-d for one
// variable, as NumPy squeezes it).
[[nodiscard]] Array cov(const Array& m, const CovOptions& o = {});
// The correlation coefficients cov / (std_i std_j), real parts clipped to [-1, 1].
[[nodiscard]] Array corrcoef(const Array& x, const std::optional<Array>& y = std::nullopt, bool rowvar = true,
                             std::optional<DType> dtype = std::nullopt);

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

// bins by NumPy's rule for the data: "auto", "fd", "doane", "scott", "stone", "rice", "sturges" or
// "sqrt" (the width from the data's extent, deviation or quartiles: read back, one synchronization
// per rule, "stone" one for every candidate count at once). DTypeError with weights.
[[nodiscard]] std::pair<Array, Array> histogram(const Array& a, std::string_view bins, const HistogramOptions& o = {});
[[nodiscard]] Array histogram_bin_edges(const Array& a, std::string_view bins,
                                        std::optional<std::pair<double, double>> range = std::nullopt);

// np.histogramdd / np.histogram2d: sample (N, D) (a 1-d sample is D = 1); bins per dimension a
// count (equal bins over the range or the data's extent) or the edges. Each dimension's bin is a
// binary search fused into one linear index, counted by a deterministic bincount of known size;
// the histogram is float64, outliers left out.
struct HistogramddOptions {
  std::vector<std::optional<std::pair<double, double>>> range;  // none, or one per dimension
  std::optional<Array> weights;                                 // (N,)
  bool density = false;
};
struct HistogramddResult {
  Array hist;
  std::vector<Array> edges;
};
[[nodiscard]] HistogramddResult histogramdd(const Array& sample, std::int64_t bins = 10, const HistogramddOptions& o = {});
[[nodiscard]] HistogramddResult histogramdd(const Array& sample, const std::vector<std::int64_t>& bins,
                                            const HistogramddOptions& o = {});
[[nodiscard]] HistogramddResult histogramdd(const Array& sample, const std::vector<Array>& bins,
                                            const HistogramddOptions& o = {});
// (hist, xedges, yedges): bins a count for both, {nx, ny}, or the edges {xedges, yedges}.
[[nodiscard]] std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, std::int64_t bins = 10,
                                                          const HistogramddOptions& o = {});
[[nodiscard]] std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y,
                                                          const std::vector<std::int64_t>& bins,
                                                          const HistogramddOptions& o = {});
[[nodiscard]] std::tuple<Array, Array, Array> histogram2d(const Array& x, const Array& y, const std::vector<Array>& bins,
                                                          const HistogramddOptions& o = {});

// The index of the bin each element of x falls in (int64): bins monotonically increasing or
// decreasing; right: bins closed on the right instead of the left.
[[nodiscard]] Array digitize(const Array& x, const Array& bins, bool right = false);

}  // namespace loom
