#pragma once
// Host implementations of the sorting, scanning and selection calls: the reference evaluator's
// (the GPU tests' oracle) and the path without a GPU. They order elements by the same radix
// keys as the GPU (runtime/libs/sort_key.hpp): NaN last, -0.0 equal to +0.0, stable; complex
// values in NumPy's complex order (runtime/libs/complex_order.hpp).

#include <cstdint>
#include <span>
#include <vector>

#include "reference/evaluator.hpp"
#include "runtime/libs/cub_algorithms.hpp"

namespace loom::calls {

using ref::HostArray;

// Each row of `length` elements sorted (out: in's dtype) or argsorted (out: int64), stably.
void host_sort(const HostArray& in, HostArray& out, std::int64_t length);
void host_argsort(const HostArray& in, std::int64_t* out, std::int64_t length);
// np.lexsort over 1-D keys of one length; the last key is the primary one.
void host_lexsort(std::span<const HostArray* const> keys, std::int64_t* out);
void host_searchsorted(const HostArray& sorted, const HostArray& v, bool right, std::int64_t* out);
// Inclusive scan along rows of `length`, in the array's dtype (the accumulation dtype).
void host_scan(const HostArray& in, HostArray& out, algo::ScanOp op, std::int64_t length);

// np.unique of the flattened array: the stable sort permutation and the sorted positions where a
// new value starts (their number is the count of unique values).
struct HostUnique {
  std::vector<std::int64_t> perm, starts;
};
HostUnique host_unique(const HostArray& in);

// A C-contiguous byte copy of element `i` of `in` to element `j` of `out` (same itemsize).
void copy_element(const HostArray& in, std::int64_t i, std::byte* out, std::int64_t j);

}  // namespace loom::calls
