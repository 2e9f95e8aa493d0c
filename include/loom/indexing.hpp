#pragma once
// Indexing functions beyond x[...] (array.hpp): NumPy's take and take_along_axis, lazy gathers
// that fuse with what computes their indices and with what reads their result.

#include <initializer_list>
#include <optional>
#include <span>
#include <string>

#include <loom/array.hpp>

namespace loom {

// np.take: elements of a (flattened when axis is none) at `indices` (integers; negative ones
// count from the end in Raise mode). Raise checks the bounds in the kernel that reads them, as
// x[idx] does: an index out of bounds is an IndexError at the next synchronization after that
// kernel runs (to_host, item, synchronize()), on the host at once; a take never evaluated reads
// nothing and raises nothing. Wrap and Clip never raise (Clip sends negative indices to 0, as NumPy).
[[nodiscard]] Array take(const Array& a, const Array& indices, std::optional<int> axis = std::nullopt,
                         TakeMode mode = TakeMode::Raise);
// np.take_along_axis: out[..., j, ...] = a[..., indices[..., j, ...], ...] along `axis`; a and
// indices have the same number of dims and broadcast along the others. axis none: a flattened,
// indices 1-d (ValueError "when axis=None, `indices` must have a single dimension.").
[[nodiscard]] Array take_along_axis(const Array& a, const Array& indices, std::optional<int> axis = -1);

}  // namespace loom

namespace loom {

// NumPy's in-place functions take the array by reference and rebind it to the new value (arrays
// are values: other handles keep the old one).
// np.putmask: where mask (a's size) is True, a.flat[n] = values.flat[n % values.size], cast to
// a's dtype.
void putmask(Array& a, const Array& mask, const Array& values);
// np.place: the k-th True of mask (a's size, C order) takes values.flat[k % values.size]
// (ValueError "Cannot insert from an empty array!" when values is empty and mask is not).
void place(Array& a, const Array& mask, const Array& values);
// np.copyto(dst, src, casting="same_kind", where): src broadcast to dst's shape, where `where`.
// casting: "no", "equiv" (dtypes equal), "safe", "same_kind", "unsafe"; a refused cast is a
// DTypeError in NumPy's words ("Cannot cast array data from dtype('float64') to dtype('int32')
// according to the rule 'same_kind'").
void copyto(Array& dst, const Array& src, const Array& where = Array(true));
void copyto(Array& dst, const Array& src, const std::string& casting, const Array& where = Array(true));
// np.put: a.flat[ind] = v (v repeated when shorter; the last of duplicate indices wins).
void put(Array& a, const Array& ind, const Array& v, TakeMode mode = TakeMode::Raise);
// np.put_along_axis: arr[..., indices[..., j, ...], ...] = values along `axis`.
void put_along_axis(Array& arr, const Array& indices, const Array& values, int axis);
// np.select: at each position the choice of the first True condition, else default.
[[nodiscard]] Array select(const std::vector<Array>& condlist, const std::vector<Array>& choicelist,
                           const Array& default_value = Array(0));
// np.choose: choices[a[i]] at i, a and the choices broadcast together. mode Raise: an entry
// outside [0, n) is a ValueError "invalid entry in choice array" (checked at once: one
// synchronization); Wrap: taken modulo n; Clip: clipped to [0, n - 1] (lazy, no read back).
[[nodiscard]] Array choose(const Array& a, const std::vector<Array>& choices, TakeMode mode = TakeMode::Raise);
// np.compress and np.extract (EAGER, as a bool-mask read: the count decides the size).
[[nodiscard]] Array compress(const Array& condition, const Array& a, std::optional<int> axis = std::nullopt);
[[nodiscard]] Array extract(const Array& condition, const Array& a);
// np.argwhere (EAGER): the indices of the nonzero elements, shape (count, a.ndim()).
[[nodiscard]] Array argwhere(const Array& a);

// np.add.at(a, index, b) and its siblings: a[index] op= b for every element of the index,
// duplicates included (np.add.at, JAX's x.at[index].add), where a[index] op= b keeps the last
// duplicate's result. b broadcasts to a[index]'s shape; the result is cast back to a's dtype
// under NumPy's same_kind rule. a is rebound to the new value. `how`: Accumulate (array.hpp). An index of braces is a tuple
// (a.at({i, j})); a list of positions is an integer array.
#define LOOM_DECLARE_UFUNC_AT(fname)                                                                       \
  void fname(Array& a, const Index& index, const Array& b, Accumulate how = Accumulate::Deterministic);    \
  void fname(Array& a, std::initializer_list<Index> index, const Array& b,                                \
             Accumulate how = Accumulate::Deterministic);                                                 \
  void fname(Array& a, std::span<const Index> index, const Array& b, Accumulate how = Accumulate::Deterministic);
LOOM_DECLARE_UFUNC_AT(add_at)
LOOM_DECLARE_UFUNC_AT(subtract_at)
LOOM_DECLARE_UFUNC_AT(multiply_at)
LOOM_DECLARE_UFUNC_AT(divide_at)
LOOM_DECLARE_UFUNC_AT(minimum_at)
LOOM_DECLARE_UFUNC_AT(maximum_at)
#undef LOOM_DECLARE_UFUNC_AT

// np.bincount: the number of occurrences of each value of x (1-D, non-negative integers), or
// the sum of the weights at them (float64), of length max(max(x) + 1, minlength). EAGER as far
// as its size: x's largest and smallest values are read (one synchronization); the counting
// itself is a lazy call.
[[nodiscard]] Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt,
                             std::int64_t minlength = 0,
                             Accumulate how = Accumulate::Deterministic);

}  // namespace loom
