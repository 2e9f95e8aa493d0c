#pragma once
// NumPy's set functions (numpy/lib/_arraysetops_impl.py): unique with an axis and equal_nan, the
// Array API's unique_all / unique_counts / unique_inverse / unique_values, isin, intersect1d,
// union1d, setdiff1d, setxor1d.
//
// isin is LAZY: a sort of the test elements and a binary search of the elements (two barrier
// calls), then one fused kernel that gathers the sorted value found and compares. The others have
// sizes that depend on the values, so they are EAGER as unique is (sorting.hpp): they evaluate
// their inputs, read one count per unique/mask step, and return evaluated arrays. Values are
// compared as NumPy compares them: -0.0 equals 0.0, NaN equals nothing (but unique's equal_nan
// counts all NaNs as one value, and NaNs sort last).

#include <optional>
#include <string_view>

#include <loom/array.hpp>
#include <loom/sorting.hpp>

namespace loom {

// np.unique's keyword arguments, by name: loom::unique(x, {.return_counts = true, .axis = 0}).
struct UniqueOptions {
  bool return_index = false;    // the index of each value's first occurrence (int64)
  bool return_inverse = false;  // values[inverse] rebuilds the input (axis none: the input's shape)
  bool return_counts = false;   // how often each value occurs (int64)
  std::optional<int> axis;      // none: of the flattened array; else the unique slices along axis
  bool equal_nan = true;        // false: every NaN is a value of its own (no effect with an axis)
  bool sorted = true;           // accepted as NumPy 2.3's; the values are always sorted
};
// NumPy 2's unique: with an axis (an ndim >= 2 input), the slices along it are sorted
// lexicographically (the first element first, NaNs last, -0.0 equal to 0.0, a slice with a NaN
// equal to no other) and each distinct slice kept once; index, inverse (1-D) and counts refer to
// positions along the axis. A 1-D input with axis 0 is the flattened case.
[[nodiscard]] UniqueResult unique(const Array& a, const UniqueOptions& o);
// The same in NumPy's positional order.
[[nodiscard]] UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                                  std::optional<int> axis, bool equal_nan = true, bool sorted = true);

// The Array API's set functions: np.unique of the flattened array with equal_nan=False (every
// NaN its own value), under NumPy's result names. inverse_indices has x's shape.
struct UniqueAllResult {
  Array values, indices, inverse_indices, counts;
};
struct UniqueCountsResult {
  Array values, counts;
};
struct UniqueInverseResult {
  Array values, inverse_indices;
};
[[nodiscard]] UniqueAllResult unique_all(const Array& x);
[[nodiscard]] UniqueCountsResult unique_counts(const Array& x);
[[nodiscard]] UniqueInverseResult unique_inverse(const Array& x);
[[nodiscard]] Array unique_values(const Array& x);

// np.isin (lazy): a bool array of element's shape, true where the element is among
// test_elements (flattened); invert: where it is not. The two meet in their promoted dtype
// (np.promote_types; a C++ number counts as NumPy's int64/float64 array). kind: "" (NumPy's
// None), "sort" or "table" all run the same sort-and-search ("table" still refuses non-integer
// dtypes, as NumPy does); assume_unique changes nothing.
[[nodiscard]] Array isin(const Array& element, const Array& test_elements, bool assume_unique = false,
                         bool invert = false, std::string_view kind = "");

// np.intersect1d: the sorted values in both (np.result_type of the two); with indices, where
// each value first occurs in the flattened ar1 and ar2 (int64). assume_unique: the inputs hold
// no repeated value (else results are wrong, as NumPy's).
struct Intersect1dResult {
  Array values, ar1_indices, ar2_indices;
};
[[nodiscard]] Array intersect1d(const Array& ar1, const Array& ar2, bool assume_unique = false);
[[nodiscard]] Intersect1dResult intersect1d(const Array& ar1, const Array& ar2, bool assume_unique,
                                            bool return_indices);
// np.union1d: the sorted unique values of both (np.result_type; NaNs as one).
[[nodiscard]] Array union1d(const Array& ar1, const Array& ar2);
// np.setdiff1d: the values of ar1 (its dtype) not in ar2; sorted and unique, or with
// assume_unique ar1's values in its own order.
[[nodiscard]] Array setdiff1d(const Array& ar1, const Array& ar2, bool assume_unique = false);
// np.setxor1d: the sorted values in exactly one of the two (np.result_type).
[[nodiscard]] Array setxor1d(const Array& ar1, const Array& ar2, bool assume_unique = false);

}  // namespace loom
