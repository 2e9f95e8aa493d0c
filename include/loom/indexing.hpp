#pragma once
// Indexing functions beyond x[...] (array.hpp): NumPy's take and take_along_axis, lazy gathers
// that fuse with what computes their indices and with what reads their result.

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

namespace loom {

// --- index helpers (lib/index/index_helpers.cpp) ---
// NumPy's clip modes for ravel_multi_index: one for every dim, or one per dim ({"wrap", "clip"}).
struct ClipModes {
  std::vector<std::string> modes;
  ClipModes(const char* m) : modes{m} {}                          // NOLINT
  ClipModes(std::string m) : modes{std::move(m)} {}               // NOLINT
  ClipModes(std::initializer_list<std::string> m) : modes(m) {}   // NOLINT
};
// np.unravel_index: the coordinates (int64, indices' shape, one array per dim of `shape`) of flat
// positions in an array of that shape, order "C" or "F": a floor division and a remainder per dim,
// fused into whatever reads them. The bounds check (NumPy's ValueError "index 12 is out of bounds
// for array with size 12") READS BACK one bool (one synchronization) when indices is not empty.
[[nodiscard]] std::vector<Array> unravel_index(const Array& indices, const Shape& shape, const std::string& order = "C");
// np.ravel_multi_index: the flat positions (int64, the coordinates broadcast together) of
// coordinates in an array of shape dims. mode "raise" (checked by reading back one bool: ValueError
// "invalid entry in coordinates array"), "wrap" (modulo the dim) or "clip"; lazy otherwise.
[[nodiscard]] Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims,
                                      const ClipModes& mode = "raise", const std::string& order = "C");
// np.fill_diagonal, a write (a is rebound): a.flat[::step] = val repeated, step a.shape[1] + 1 for
// a 2-d array (wrap: past the first a.shape[1] rows too, as NumPy's), 1 + n + n^2 + ... for an
// n x n x ... one. A strided write into a's flattened buffer (in place, O(diagonal), when a is
// evaluated on a GPU and nothing else holds it; else a lazy write that fuses).
void fill_diagonal(Array& a, const Array& val, bool wrap = false);
// np.diag_indices: ndim copies of arange(n) (int64); _from: of a square array's first extent.
[[nodiscard]] std::vector<Array> diag_indices(std::int64_t n, std::int64_t ndim = 2);
[[nodiscard]] std::vector<Array> diag_indices_from(const Array& a);
// np.tril_indices / np.triu_indices: the rows and columns (int64, row-major order) of the n x m
// (m: n when none) triangle on and below (above) diagonal k. Their size is known from n, m, k; each
// position's row and column are computed from its number (an integer square root, corrected in
// exact arithmetic), so nothing is read back and each array is one generated kernel.
[[nodiscard]] std::vector<Array> tril_indices(std::int64_t n, std::int64_t k = 0,
                                              std::optional<std::int64_t> m = std::nullopt);
[[nodiscard]] std::vector<Array> triu_indices(std::int64_t n, std::int64_t k = 0,
                                              std::optional<std::int64_t> m = std::nullopt);
[[nodiscard]] std::vector<Array> tril_indices_from(const Array& a, std::int64_t k = 0);
[[nodiscard]] std::vector<Array> triu_indices_from(const Array& a, std::int64_t k = 0);

// --- bit packing (lib/index/bit_packing.cpp) ---
// np.packbits: the nonzero-ness of a's elements (integers or bools) packed 8 to a uint8 along
// axis (none: flattened), the last group padded with 0 bits; bitorder "big" or "little". One fused
// kernel: each output byte reads its 8 inputs through strided views.
[[nodiscard]] Array packbits(const Array& a, std::optional<int> axis = std::nullopt, const std::string& bitorder = "big");
// np.unpackbits: the bits of a uint8 array along axis (none: flattened) as uint8 0/1; count keeps
// that many (negative: drops -count from the end; more than there are: zeros appended). A view
// (each byte read 8 times through a floor division) and a shift, fused into the consumer.
[[nodiscard]] Array unpackbits(const Array& a, std::optional<int> axis = std::nullopt,
                               std::optional<std::int64_t> count = std::nullopt, const std::string& bitorder = "big");

}  // namespace loom
