#pragma once
// What the sorting, scanning and selection calls share: their CUDA context as the CUB entry
// points take it, moving an axis last (rows of contiguous elements) and back, and their dtype
// and axis checks with NumPy's wording.

#include <memory>
#include <string>
#include <vector>

#include <loom/array.hpp>

#include "graph/call.hpp"
#include "runtime/libs/cub_algorithms.hpp"

namespace loom::calls {

inline cudaStream_t stream_of(const detail::CallContext& ctx) { return static_cast<cudaStream_t>(ctx.stream); }
inline algo::Workspace workspace_of(detail::CallContext& ctx) {
  return [&ctx](std::size_t nbytes) { return ctx.workspace(nbytes); };
}

// `a` with `axis` moved to the end (a view), and the inverse for a result of that layout.
Array move_axis_last(const Array& a, int axis);
Array move_last_to(const Array& a, int axis);

// DTypeError for dtypes the radix sorts cannot order (complex).
void check_sortable(const char* op, DType dtype);

// The outputs of a call spec as arrays.
std::vector<Array> make_call_arrays(std::shared_ptr<detail::CallSpec> spec);

// "cub::DeviceRadixSort::SortKeys" or the segmented sort for rows x length (for explain()).
std::string radix_sort_text(const char* what, std::int64_t rows, std::int64_t length, DType dtype);

}  // namespace loom::calls
