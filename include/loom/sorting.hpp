#pragma once
// Sorting, searching, cumulative and selection functions with NumPy's names and semantics, run by
// CUB's device-wide algorithms on the GPU (compiled into the library) and by host code without one.
//
// sort, argsort, lexsort, searchsorted, cumsum and cumprod are lazy barrier calls: they record a
// library call whose inputs are evaluated (fused) first; explain() shows the barrier. unique,
// nonzero, flatnonzero and boolean-mask reads (x[mask], array.hpp) are EAGER: their output sizes
// depend on the values, so they evaluate their input at once, run, read the count (one
// synchronization) and return evaluated arrays.
//
// Order is np.sort's: NaN last, -0.0 equal to +0.0, ties keep their order (every sort here is
// stable, as kind="stable"). Complex numbers sort as NumPy's do: by real part, then imaginary
// part, with [R + Rj, R + nanj, nan + Rj, nan + nanj] (a lexsort of their parts on the GPU).

#include <optional>
#include <string_view>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// The sorted copy along `axis` (default the last; none: of the flattened array).
[[nodiscard]] Array sort(const Array& a, std::optional<int> axis = -1);
// int64 indices that sort `a` along `axis` (stable).
[[nodiscard]] Array argsort(const Array& a, std::optional<int> axis = -1);
// np.partition / np.argpartition: each kth element (counted from the end when negative) in its
// sorted place, the ones before it no greater, the ones after no smaller. ValueError
// "kth(=5) out of bounds (5)". Computed as a stable sort, which is a partition for every kth (CUB
// of CUDA 13.0 has no select-k); the arrangement of the other elements is NumPy's only where
// NumPy's happens to be sorted.
[[nodiscard]] Array partition(const Array& a, std::int64_t kth, std::optional<int> axis = -1);
[[nodiscard]] Array partition(const Array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1);
[[nodiscard]] Array argpartition(const Array& a, std::int64_t kth, std::optional<int> axis = -1);
[[nodiscard]] Array argpartition(const Array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1);
// np.lexsort: int64 indices sorting by several 1-D keys of one length; the LAST key is the
// primary one, earlier keys break its ties.
[[nodiscard]] Array lexsort(const std::vector<Array>& keys);
// np.searchsorted: for each value of v, the int64 index at which inserting it into the sorted
// 1-D `a` keeps it sorted; side "left" (the first such index) or "right" (the last). a and v are
// compared in their common dtype; the result has v's shape.
[[nodiscard]] Array searchsorted(const Array& a, const Array& v, std::string_view side = "left");

// Cumulative sum and product along `axis` (none: of the flattened array). dtype none: bool and
// signed ints accumulate in int64, unsigned ints in uint64, floats and complex in their own
// dtype (float16 rounds after every step, as NumPy's).
[[nodiscard]] Array cumsum(const Array& a, std::optional<int> axis = std::nullopt,
                           std::optional<DType> dtype = std::nullopt);
[[nodiscard]] Array cumprod(const Array& a, std::optional<int> axis = std::nullopt,
                            std::optional<DType> dtype = std::nullopt);
// NumPy 2's cumulative_sum / cumulative_prod: as cumsum and cumprod, but a 0-d input is one
// element, axis is required past 1-d, and include_initial puts the identity (0, 1) first.
[[nodiscard]] Array cumulative_sum(const Array& a, std::optional<int> axis = std::nullopt,
                                   std::optional<DType> dtype = std::nullopt, bool include_initial = false);
[[nodiscard]] Array cumulative_prod(const Array& a, std::optional<int> axis = std::nullopt,
                                    std::optional<DType> dtype = std::nullopt, bool include_initial = false);

// np.unique of the flattened array (eager): the sorted unique values, and when asked, the index
// of each value's first occurrence (int64), the inverse (int64, a's shape: values[inverse] == a)
// and the counts (int64). Fields not asked for are empty handles. NaNs count as one value.
// unique along an axis, equal_nan=false and the Array API's unique_* functions: loom/sets.hpp.
struct UniqueResult {
  Array values, index, inverse, counts;
};
[[nodiscard]] Array unique(const Array& a);
[[nodiscard]] UniqueResult unique(const Array& a, bool return_index, bool return_inverse = false,
                                  bool return_counts = false);

// np.nonzero (eager): one int64 array per dimension with the indices of the nonzero elements,
// in C order. 0-d arrays are refused, as NumPy 2 does.
[[nodiscard]] std::vector<Array> nonzero(const Array& a);
// np.flatnonzero (eager): the indices of the nonzero elements of the flattened array.
[[nodiscard]] Array flatnonzero(const Array& a);

}  // namespace loom
