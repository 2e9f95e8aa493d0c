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
Array sum(const Array& a, const Axes& axis = {}, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array prod(const Array& a, const Axes& axis = {}, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array nansum(const Array& a, const Axes& axis = {}, bool keepdims = false,
             std::optional<DType> dtype = std::nullopt);  // NaN counts as 0
// Number of elements that are not zero (NaN counts), int64.
Array count_nonzero(const Array& a, const Axes& axis = {}, bool keepdims = false);

// --- extrema: keep the dtype; ValueError on an empty reduction ---
Array max(const Array& a, const Axes& axis = {}, bool keepdims = false);  // NaN propagates
Array min(const Array& a, const Axes& axis = {}, bool keepdims = false);
Array amax(const Array& a, const Axes& axis = {}, bool keepdims = false);
Array amin(const Array& a, const Axes& axis = {}, bool keepdims = false);
Array nanmax(const Array& a, const Axes& axis = {}, bool keepdims = false);  // NaN ignored
Array nanmin(const Array& a, const Axes& axis = {}, bool keepdims = false);
Array ptp(const Array& a, const Axes& axis = {}, bool keepdims = false);  // max - min
// int64 index of the first extremum (the first NaN if any) in C order; axis none: of the
// flattened array.
Array argmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
Array argmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// --- statistics ---
// dtype None: bool and ints give float64; float16 is summed in float32 and returned as float16.
// Empty: NaN.
Array mean(const Array& a, const Axes& axis = {}, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array nanmean(const Array& a, const Axes& axis = {}, bool keepdims = false,
              std::optional<DType> dtype = std::nullopt);
// Sum of squared deviations / (n - ddof). Ints give float64, complex its real dtype.
Array var(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
          std::optional<DType> dtype = std::nullopt);
Array std(const Array& a, const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0,
          std::optional<DType> dtype = std::nullopt);
// np.average: the mean, or sum(a * w) / sum(w). Weights have a's shape, or the extents of a
// along `axis` (in that order). A zero weight sum gives inf/NaN (NumPy raises; checking needs
// the values).
Array average(const Array& a, const Axes& axis = {}, bool keepdims = false);
Array average(const Array& a, const Axes& axis, const Array& weights, bool keepdims = false);

// --- logic (bool results; empty: any False, all True) ---
Array any(const Array& a, const Axes& axis = {}, bool keepdims = false);
// np.all: loom::all(x, axis, keepdims) (loom::all is also the full slice of an index:
// array.hpp); alltrue is the same function under NumPy's old name.
Array alltrue(const Array& a, const Axes& axis = {}, bool keepdims = false);

// --- SciPy's log-sum-exp family (real inputs; ints give float64, float16 stays float16) ---
Array logsumexp(const Array& a, const Axes& axis = {}, bool keepdims = false);
// exp(a - logsumexp(a, axis, keepdims=true)); axis none normalizes over every element.
Array softmax(const Array& a, const Axes& axis = {});
Array log_softmax(const Array& a, const Axes& axis = {});

// --- the same with NumPy's keyword arguments by name (axes.hpp): loom::sum(x, {.axis = 1,
// .keepdims = true}), loom::var(x, {.axis = 0, .ddof = 1}). With GCC 12 a list of one numeric
// field ({.axis = 1}) is ambiguous with an Axes (it drops the designator): name two fields, or
// pass the axis positionally. Each reads the fields NumPy's function has.
Array sum(const Array& a, const ReduceOptions& o);
Array prod(const Array& a, const ReduceOptions& o);
Array nansum(const Array& a, const ReduceOptions& o);
Array mean(const Array& a, const ReduceOptions& o);
Array nanmean(const Array& a, const ReduceOptions& o);
Array var(const Array& a, const ReduceOptions& o);
Array std(const Array& a, const ReduceOptions& o);
Array max(const Array& a, const ReduceOptions& o);
Array min(const Array& a, const ReduceOptions& o);
Array ptp(const Array& a, const ReduceOptions& o);
Array any(const Array& a, const ReduceOptions& o);
Array alltrue(const Array& a, const ReduceOptions& o);
Array count_nonzero(const Array& a, const ReduceOptions& o);
Array logsumexp(const Array& a, const ReduceOptions& o);

}  // namespace loom
