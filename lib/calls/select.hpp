#pragma once
// Elements of sorted rows without the sort where it pays: for the order statistics
// (lib/stats/quantile.cpp), whose positions are known when the call is built.

#include <cstdint>
#include <vector>

#include <loom/array.hpp>

namespace loom::calls {

// np.sort(rows, -1)[..., positions] (NaN last), shape (..., positions.size()): a radix select in
// shared memory per row (runtime/libs/cub/row_select.cu) where the row fits there and there are
// at most 16 positions, else the sort (a barrier) and a gather. Positions in [0, n).
Array sorted_at(const Array& rows, const std::vector<std::int64_t>& positions);

}  // namespace loom::calls
