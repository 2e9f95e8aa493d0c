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

// Radix-sortable keys that order complex z as np.sort does, least significant first: imag(z),
// real(z), then a NaN class (0: none, 1: imaginary part NaN, 2: real part NaN, 3: both), so a
// stable lexsort gives [R + Rj, R + nanj, nan + Rj, nan + nanj].
std::vector<Array> complex_sort_keys(const Array& z);
// x's flattened elements gathered at idx (int64, every index in range): a barrier call.
Array take_flat(const Array& x, const Array& idx);

// A bool mask indexing x (NumPy's x[mask]): its shape checked against x's leading dims
// (IndexError in NumPy's words); the dims it leaves, and its shape with a 1 for each of them.
struct MaskDims {
  Shape trailing, padded;
};
MaskDims mask_dims(const Array& x, const Array& mask);

// The outputs of a call spec as arrays.
std::vector<Array> make_call_arrays(std::shared_ptr<detail::CallSpec> spec);

// "cub::DeviceRadixSort::SortKeys" or the segmented sort for rows x length (for explain()).
std::string radix_sort_text(const char* what, std::int64_t rows, std::int64_t length, DType dtype);

}  // namespace loom::calls
