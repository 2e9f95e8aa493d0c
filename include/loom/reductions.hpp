#pragma once
// Reductions with NumPy's names, dtype rules and errors (sum, mean, var, argmax, ...), plus
// SciPy's logsumexp / softmax / log_softmax. Each is one or two Reduce nodes with elementwise
// casts before (prologue) and after (epilogue), which fuse into the reduction's kernel.
//
// Arguments, in the same order everywhere: the array, the axes, keepdims, then the function's
// own (ddof, dtype). Errors are thrown when the call is made, with NumPy's wording.

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include <loom/array.hpp>
#include <loom/axes.hpp>

namespace loom {

// --- sums and products ---
// dtype None: bool and signed ints give int64, unsigned uint64, others keep theirs
// (float16/bfloat16 accumulate in float32). Empty: 0 and 1.
template <int = 0>
[[nodiscard]] Array sum(const Array& a, const Axes& axis = {}, bool keepdims = false,
                        std::optional<DType> dtype = std::nullopt);
template <int = 0>
[[nodiscard]] Array prod(const Array& a, const Axes& axis = {}, bool keepdims = false,
                         std::optional<DType> dtype = std::nullopt);
template <int = 0>
[[nodiscard]] Array nansum(const Array& a, const Axes& axis = {}, bool keepdims = false,
                           std::optional<DType> dtype = std::nullopt);  // NaN counts as 0
// Number of elements that are not zero (NaN counts), int64.
template <int = 0>
[[nodiscard]] Array count_nonzero(const Array& a, const Axes& axis = {}, bool keepdims = false);

// --- extrema: keep the dtype; ValueError on an empty reduction ---
template <int = 0>
[[nodiscard]] Array max(const Array& a, const Axes& axis = {}, bool keepdims = false);  // NaN propagates
template <int = 0>
[[nodiscard]] Array min(const Array& a, const Axes& axis = {}, bool keepdims = false);
[[nodiscard]] Array amax(const Array& a, const Axes& axis = {}, bool keepdims = false);
[[nodiscard]] Array amin(const Array& a, const Axes& axis = {}, bool keepdims = false);
[[nodiscard]] Array nanmax(const Array& a, const Axes& axis = {}, bool keepdims = false);  // NaN ignored
[[nodiscard]] Array nanmin(const Array& a, const Axes& axis = {}, bool keepdims = false);
template <int = 0>
[[nodiscard]] Array ptp(const Array& a, const Axes& axis = {}, bool keepdims = false);  // max - min
// int64 index of the first extremum (the first NaN if any) in C order; axis none: of the
// flattened array.
[[nodiscard]] Array argmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
[[nodiscard]] Array argmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// --- statistics ---
// dtype None: bool and ints give float64; float16 is summed in float32 and returned as float16.
// Empty: NaN.
template <int = 0>
[[nodiscard]] Array mean(const Array& a, const Axes& axis = {}, bool keepdims = false,
                         std::optional<DType> dtype = std::nullopt);
template <int = 0>
[[nodiscard]] Array nanmean(const Array& a, const Axes& axis = {}, bool keepdims = false,
                            std::optional<DType> dtype = std::nullopt);
// Sum of squared deviations / (n - ddof). Ints give float64, complex its real dtype.
template <int = 0>
[[nodiscard]] Array var(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
                        std::optional<DType> dtype = std::nullopt);
template <int = 0>
[[nodiscard]] Array std(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
                        std::optional<DType> dtype = std::nullopt);
// np.average: the mean, or sum(a * w) / sum(w). Weights have a's shape, or the extents of a
// along `axis` (in that order). A zero weight sum gives inf/NaN (NumPy raises; checking needs
// the values).
[[nodiscard]] Array average(const Array& a, const Axes& axis = {}, bool keepdims = false);
[[nodiscard]] Array average(const Array& a, const Axes& axis, const Array& weights, bool keepdims = false);

// --- logic (bool results; empty: any False, all True) ---
template <int = 0>
[[nodiscard]] Array any(const Array& a, const Axes& axis = {}, bool keepdims = false);
// np.all: loom::all(x, axis, keepdims) (loom::all is also the full slice of an index:
// array.hpp); alltrue is the same function under NumPy's old name.
template <int = 0>
[[nodiscard]] Array alltrue(const Array& a, const Axes& axis = {}, bool keepdims = false);

// --- SciPy's log-sum-exp family (real inputs; ints give float64, float16 stays float16) ---
template <int = 0>
[[nodiscard]] Array logsumexp(const Array& a, const Axes& axis = {}, bool keepdims = false);
// exp(a - logsumexp(a, axis, keepdims=true)); axis none normalizes over every element.
[[nodiscard]] Array softmax(const Array& a, const Axes& axis = {});
[[nodiscard]] Array log_softmax(const Array& a, const Axes& axis = {});

// --- differences, cross products, integrals (views and ops: each fuses into one kernel) ---
// n-th discrete difference along axis (bool: not_equal); prepend/append are joined first (a 0-d
// one broadcast along the axis).
[[nodiscard]] Array diff(const Array& a, int n = 1, int axis = -1, const std::optional<Array>& prepend = std::nullopt,
                         const std::optional<Array>& append = std::nullopt);
// The differences of the flattened array in its dtype, with to_begin before and to_end after
// (each cast to a's dtype; DTypeError unless that cast is same_kind).
[[nodiscard]] Array ediff1d(const Array& a, const std::optional<Array>& to_end = std::nullopt,
                            const std::optional<Array>& to_begin = std::nullopt);
// The cross product of 3-vectors along axisa / axisb, written along axisc (ValueError for other
// lengths: NumPy 2 removed 2-vectors).
[[nodiscard]] Array cross(const Array& a, const Array& b, int axisa = -1, int axisb = -1, int axisc = -1);
// The trapezoid rule along axis: spacing dx, or the sample points x (1-d along axis, or a's shape).
[[nodiscard]] Array trapezoid(const Array& y, const std::optional<Array>& x = std::nullopt, double dx = 1.0,
                              int axis = -1);

// --- the same with NumPy's keyword arguments by name (axes.hpp): loom::sum(x, {.axis = 1}),
// loom::var(x, {.axis = 0, .ddof = 1}), loom::std(x, {.ddof = 1}). Each reads the fields NumPy's
// function has. (The Axes forms above that have one of these beside them are templates of no
// parameter, instantiated in the library: GCC 12 drops the designators when it tries a braced
// list against Axes's list constructor, so {.axis = 1} would convert to both; between two
// equally good conversions a non-template wins, so the named fields always pick this form.)
[[nodiscard]] Array sum(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array prod(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array nansum(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array mean(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array nanmean(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array var(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array std(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array max(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array min(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array ptp(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array any(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array alltrue(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array count_nonzero(const Array& a, const ReduceOptions& o);
[[nodiscard]] Array logsumexp(const Array& a, const ReduceOptions& o);

}  // namespace loom
