#pragma once
// Indexing functions beyond x[...] (array.hpp): NumPy's take and take_along_axis, lazy gathers
// that fuse with what computes their indices and with what reads their result.

#include <optional>

#include <loom/array.hpp>

namespace loom {

// np.take: elements of a (flattened when axis is none) at `indices` (integers; negative ones
// count from the end in Raise mode). Raise checks the bounds when called (one synchronization);
// Wrap and Clip never raise (Clip sends negative indices to 0, as NumPy).
Array take(const Array& a, const Array& indices, std::optional<int> axis = std::nullopt,
           TakeMode mode = TakeMode::Raise);
// np.take_along_axis: out[..., j, ...] = a[..., indices[..., j, ...], ...] along `axis`; a and
// indices have the same number of dims and broadcast along the others.
Array take_along_axis(const Array& a, const Array& indices, int axis);

}  // namespace loom
