#pragma once
// The outer edges of equal bins (NumPy's _get_outer_edges), shared by histogram and histogramdd
// (lib/index/histogram.cpp, lib/index/histogramdd.cpp).

#include <optional>
#include <utility>

#include <loom/array.hpp>

namespace loom::detail {

struct Edges {
  double first = 0, last = 1;
  DType type = DType::Float64;  // the edges' dtype (np.result_type(first, last, a), made float)
};

// A given range (Python numbers, checked), or the data's min and max (read back: one
// synchronization), widened by 0.5 each way when they are equal; 0 and 1 for no data.
Edges outer_edges(const Array& a, const std::optional<std::pair<double, double>>& range);

// np.bincount of positions known to lie in [0, n): no value is read back (lib/index/scatter.cpp).
Array bincount_in_range(const Array& pos, const std::optional<Array>& weights, std::int64_t n);

}  // namespace loom::detail
