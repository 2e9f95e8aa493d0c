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
// np.block of a 1-level or 2-level nesting: the last level joins along the last axis, the one
// before along the second to last (inputs brought to a common ndim with leading 1s).
[[nodiscard]] Array block(const std::vector<Array>& row);
[[nodiscard]] Array block(const std::vector<std::vector<Array>>& rows);

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
// What np.delete and np.insert take as obj: a position, several, or a slice.
using Positions = std::variant<std::int64_t, std::vector<std::int64_t>, Slice>;
[[nodiscard]] Array delete_(const Array& arr, const Positions& obj, std::optional<std::int64_t> axis = std::nullopt);
// values cast to arr's dtype; before one position, a block along axis (values with arr's dims,
// leading 1s added); before each of several, one slice each (values broadcast to them).
[[nodiscard]] Array insert(const Array& arr, const Positions& obj, const Array& values,
                           std::optional<std::int64_t> axis = std::nullopt);

// --- repeating and rolling ---
[[nodiscard]] Array tile(const Array& a, const std::vector<std::int64_t>& reps);
[[nodiscard]] Array repeat(const Array& a, std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt);
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
// (before, after) for every axis, or one pair for all, or one width for all.
[[nodiscard]] Array pad(const Array& a, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
                        const PadOptions& options = {});
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
