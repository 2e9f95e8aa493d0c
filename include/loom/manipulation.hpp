#pragma once
// NumPy's array manipulation: joining, splitting, tiling, padding, rolling, diagonals. Every
// result is lazy and fuses into what consumes it (DESIGN.md decision 13): a concatenation is a
// chain of placed pieces (each input read only where it lands: concatenate({a * 2, b + 1,
// exp(c)}) is one kernel that reads a, b and c once; past 8 inputs, groups of 8 are joined
// first), tile and repeat are broadcasts read through a reshape, roll is two placed slices, pad
// reads its input at computed positions (a gather: edge, reflect, symmetric, wrap) or places it
// over a full array (constant), triu/tril are a where. Splits and the helpers that only re-view
// (moveaxis, atleast_2d, meshgrid, ...) are views.
// Names, dtypes and errors follow NumPy 2.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// --- joining (inputs promoted to one dtype, np.result_type) ---
// axis none: every input flattened first.
[[nodiscard]] Array concatenate(const std::vector<Array>& arrays, std::optional<std::int64_t> axis = 0);
[[nodiscard]] Array stack(const std::vector<Array>& arrays, std::int64_t axis = 0);  // along a new axis
// The Array API's spellings: concat (concatenate), permute_dims (transpose), matrix_transpose
// (the last two axes swapped; ValueError below 2-d).
[[nodiscard]] Array concat(const std::vector<Array>& arrays, std::optional<std::int64_t> axis = 0);
[[nodiscard]] Array permute_dims(const Array& a, const Shape& axes);
[[nodiscard]] Array matrix_transpose(const Array& a);
[[nodiscard]] Array hstack(const std::vector<Array>& arrays);  // axis 1 (axis 0 for 1-d inputs)
[[nodiscard]] Array vstack(const std::vector<Array>& arrays);  // 1-d inputs become rows
[[nodiscard]] Array row_stack(const std::vector<Array>& arrays);  // vstack's old name
[[nodiscard]] Array dstack(const std::vector<Array>& arrays);  // along axis 2 (atleast_3d)
[[nodiscard]] Array column_stack(const std::vector<Array>& arrays);  // 1-d inputs become columns
// values appended to arr along axis (axis none: both flattened).
[[nodiscard]] Array append(const Array& arr, const Array& values, std::optional<std::int64_t> axis = std::nullopt);
// np.block's argument: an array, or a list of items, nested to any depth ({{a, b}, {c, d}}).
// A braced list is a list; named vectors of arrays (one or two levels) convert too.
struct BlockItem {
  BlockItem(const Array& a) : array(a), leaf(true) {}                                  // NOLINT
  BlockItem(std::initializer_list<BlockItem> list) : items(list) {}                     // NOLINT
  BlockItem(std::vector<BlockItem> list) : items(std::move(list)) {}                   // NOLINT
  BlockItem(const std::vector<Array>& list) : items(list.begin(), list.end()) {}       // NOLINT
  BlockItem(const std::vector<std::vector<Array>>& rows) : items(rows.begin(), rows.end()) {}  // NOLINT
  Array array;                   // the leaf's array (leaf true)
  std::vector<BlockItem> items;  // the list's items (leaf false)
  bool leaf = false;
};
// np.block: lists nested to depth d join their innermost level along the last axis, the level
// before along the second to last, ...; the arrays are brought to max(d, their ndim) dims with
// leading 1s first. Every array sits at the same depth (ValueError "List depths are mismatched.
// First element was at depth 2, but there is an element at depth 1 (arrays[1])"); no list is
// empty ("List at arrays[1] cannot be empty"). One lazy concatenation.
[[nodiscard]] Array block(const BlockItem& arrays);

// --- splitting: views, in order ---
// As NumPy's: an integer is a number of sections (equal parts; ValueError when the extent does
// not divide), a list is the split points: split(a, {2}) cuts at 2 (np.split(a, [2])) and {} is
// no cut. (A braced list always means points: its overloads take an initializer_list, which a
// braced list converts to better than to an integer.)
[[nodiscard]] std::vector<Array> split(const Array& a, std::int64_t sections, std::int64_t axis = 0);
[[nodiscard]] std::vector<Array> split(const Array& a, const std::vector<std::int64_t>& indices,
                                       std::int64_t axis = 0);
[[nodiscard]] std::vector<Array> split(const Array& a, std::initializer_list<std::int64_t> indices,
                                       std::int64_t axis = 0);
// Parts of nearly equal size (the first extent % sections one longer).
[[nodiscard]] std::vector<Array> array_split(const Array& a, std::int64_t sections, std::int64_t axis = 0);
[[nodiscard]] std::vector<Array> array_split(const Array& a, const std::vector<std::int64_t>& indices,
                                             std::int64_t axis = 0);
[[nodiscard]] std::vector<Array> array_split(const Array& a, std::initializer_list<std::int64_t> indices,
                                             std::int64_t axis = 0);
[[nodiscard]] std::vector<Array> hsplit(const Array& a, std::int64_t sections);
[[nodiscard]] std::vector<Array> hsplit(const Array& a, const std::vector<std::int64_t>& indices);
[[nodiscard]] std::vector<Array> hsplit(const Array& a, std::initializer_list<std::int64_t> indices);
[[nodiscard]] std::vector<Array> vsplit(const Array& a, std::int64_t sections);
[[nodiscard]] std::vector<Array> vsplit(const Array& a, const std::vector<std::int64_t>& indices);
[[nodiscard]] std::vector<Array> vsplit(const Array& a, std::initializer_list<std::int64_t> indices);
[[nodiscard]] std::vector<Array> dsplit(const Array& a, std::int64_t sections);
[[nodiscard]] std::vector<Array> dsplit(const Array& a, const std::vector<std::int64_t>& indices);
[[nodiscard]] std::vector<Array> dsplit(const Array& a, std::initializer_list<std::int64_t> indices);
[[nodiscard]] std::vector<Array> unstack(const Array& a, std::int64_t axis = 0);

// --- inserting and deleting at static positions (a concatenation of the kept pieces) ---
// What np.delete and np.insert take as obj: a position, several, a slice, or an array: integer
// positions (0-d: one position) or, for delete_, a bool mask of the axis' length (its True
// positions go). An array obj is read back first (one synchronization: the output's size
// depends on its values); the rest is lazy. A braced list is several positions:
// delete_(a, {2, 5}).
using Positions = std::variant<std::int64_t, std::vector<std::int64_t>, Slice, Array>;
[[nodiscard]] Array delete_(const Array& arr, const Positions& obj, std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array delete_(const Array& arr, std::initializer_list<std::int64_t> obj,
                            std::optional<std::int64_t> axis = std::nullopt);
// values cast to arr's dtype; before one position, a block along axis (values with arr's dims,
// leading 1s added); before each of several, one slice each (values broadcast to them). A bool
// obj counts as its integers (False 0, True 1), as NumPy 2 still does.
[[nodiscard]] Array insert(const Array& arr, const Positions& obj, const Array& values,
                           std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array insert(const Array& arr, std::initializer_list<std::int64_t> obj, const Array& values,
                           std::optional<std::int64_t> axis = std::nullopt);

// --- repeating and rolling ---
[[nodiscard]] Array tile(const Array& a, const std::vector<std::int64_t>& reps);
[[nodiscard]] Array tile(const Array& a, std::int64_t reps);  // np.tile(a, 3): reps (3,)
[[nodiscard]] Array repeat(const Array& a, std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt);
// One count per element along axis (one count: all of them). ValueError "repeats may not contain
// negative values." and "operands could not be broadcast together with shape (3,) (2,)". Host
// counts: a lazy gather of known size. Device counts (integers, 0-d or 1-d): their total and
// smallest are read back (one synchronization: the size depends on them), the gather stays lazy.
[[nodiscard]] Array repeat(const Array& a, const std::vector<std::int64_t>& repeats,
                           std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array repeat(const Array& a, std::initializer_list<std::int64_t> repeats,
                           std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array repeat(const Array& a, const Array& repeats, std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array roll(const Array& a, std::int64_t shift, std::optional<std::int64_t> axis = std::nullopt);
[[nodiscard]] Array roll(const Array& a, const std::vector<std::int64_t>& shift, const std::vector<std::int64_t>& axis);
// The array's elements in C order, repeated cyclically to fill new_shape (np.resize).
[[nodiscard]] Array resize(const Array& a, const Shape& new_shape);

// --- padding ---
struct PadOptions {
  // "constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "minimum",
  // "mean", "median", "empty" (NumPy leaves those values undefined; loom writes zeros).
  std::string mode = "constant";
  double constant_value = 0;  // mode "constant" (cast to the array's dtype)
  // mode "constant", per side: (before, after) per axis or one pair for all; empty: constant_value
  // on every side. As NumPy's, the axes are padded in order, so a corner takes the later axis' value.
  std::vector<std::pair<double, double>> constant_values = {};
  // mode "linear_ramp": the values the ramps start from, (before, after) per axis or one pair for
  // all; empty: 0. A ramp runs from the end value towards the edge (np.linspace, endpoint=False;
  // computed in float64 and floored for integer arrays, as NumPy's).
  std::vector<std::pair<double, double>> end_values = {};
  // modes "maximum", "minimum", "mean", "median": how many values at each edge the statistic takes (all
  // when empty; more than the axis has means all).
  std::optional<std::int64_t> stat_length = std::nullopt;
  // modes "reflect", "symmetric": "even" (the values mirrored) or "odd" (mirrored about the edge:
  // 2 * edge - value, NumPy's extension of the trend, chunk by chunk past the array's length).
  std::string reflect_type = "even";
};
// (before, after) for every axis ({{1, 2}, {0, 3}}), or one pair for all (pad(a, {1, 2})), or one
// width for all (pad(a, 2)).
[[nodiscard]] Array pad(const Array& a, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                        const PadOptions& options = {});
[[nodiscard]] Array pad(const Array& a, std::pair<std::int64_t, std::int64_t> pad_width, const PadOptions& options = {});
[[nodiscard]] Array pad(const Array& a, std::int64_t pad_width, const PadOptions& options = {});

// --- diagonals and triangles ---
// A view of evaluated arrays (a strided buffer), else read through the array's C order.
[[nodiscard]] Array diagonal(const Array& a, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1);
// 1-d: a 2-d array with v on diagonal k; 2-d: its diagonal
[[nodiscard]] Array diag(const Array& v, std::int64_t k = 0);
[[nodiscard]] Array diagflat(const Array& v, std::int64_t k = 0);
[[nodiscard]] Array trace(const Array& a, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1,
                          std::optional<DType> dtype = std::nullopt);
[[nodiscard]] Array tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
                        DType dtype = DType::Float64);
[[nodiscard]] Array tril(const Array& a, std::int64_t k = 0);
[[nodiscard]] Array triu(const Array& a, std::int64_t k = 0);

// --- re-viewing ---
[[nodiscard]] Array flipud(const Array& a);
[[nodiscard]] Array fliplr(const Array& a);
[[nodiscard]] Array rot90(const Array& a, std::int64_t k = 1, std::pair<std::int64_t, std::int64_t> axes = {0, 1});
[[nodiscard]] Array moveaxis(const Array& a, std::int64_t source, std::int64_t destination);
[[nodiscard]] Array moveaxis(const Array& a, const std::vector<std::int64_t>& source,
                             const std::vector<std::int64_t>& destination);
[[nodiscard]] Array rollaxis(const Array& a, std::int64_t axis, std::int64_t start = 0);
[[nodiscard]] Array atleast_1d(const Array& a);
[[nodiscard]] Array atleast_2d(const Array& a);
[[nodiscard]] Array atleast_3d(const Array& a);
[[nodiscard]] std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
// indexing "xy" (the first two outputs' axes swapped) or "ij"; sparse: no broadcast.
[[nodiscard]] std::vector<Array> meshgrid(const std::vector<Array>& xi, const std::string& indexing = "xy",
                                          bool sparse = false);
// np.indices: one int64 array of shape (len(dims),) + dims (sparse: one array per dim).
[[nodiscard]] Array indices(const Shape& dims, DType dtype = DType::Int64);
[[nodiscard]] std::vector<Array> indices_sparse(const Shape& dims, DType dtype = DType::Int64);
[[nodiscard]] std::vector<Array> ix_(const std::vector<Array>& args);
// np.fromfunction: f called with one coordinate array per dim of shape (in dtype, broadcast to
// shape: views of aranges, so f's expression is one kernel that reads no memory for them).
[[nodiscard]] Array fromfunction(const std::function<Array(const std::vector<Array>&)>& f, const Shape& shape,
                                 DType dtype = DType::Float64);
// np.lib.stride_tricks.sliding_window_view: windows of window_shape over `axis` (none: every
// axis, one window extent each), the window dims last. A strided view of an evaluated array;
// else the input read at the window positions (a gather fused into the consumer).
[[nodiscard]] Array sliding_window_view(const Array& x, const std::vector<std::int64_t>& window_shape,
                                        const std::optional<std::vector<std::int64_t>>& axis = std::nullopt);
[[nodiscard]] Array logspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, double base = 10.0,
                             DType dtype = DType::Float64);
[[nodiscard]] Array geomspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                              DType dtype = DType::Float64);

}  // namespace loom
