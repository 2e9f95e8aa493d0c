#pragma once
// The front end's building blocks: turn user arrays into graph nodes with NumPy's rules (weak
// scalars, promotion, broadcasting, views) and report user errors at the user's line.

#include <memory>
#include <mutex>
#include <span>
#include <vector>
#include <string>

#include <loom/array.hpp>

#include "graph/node.hpp"

namespace loom::detail {

// A read an index reference defers (x[mask] taken as an IndexRef: lib/index/indexing.cpp), made
// once, when the reference is first used as an array (Array::pending_node).
struct PendingRead {
  virtual ~PendingRead() = default;
  virtual NodePtr read() const = 0;
  std::once_flag once;
  NodePtr node;
};

// The node of an array; an evaluated node is replaced by a Buffer leaf over its result, so new
// graphs never hold on to the computation that produced it (as_leaf: graph/node.hpp).
NodeRef leaf_of(const Array& a, const char* op);

// "(3,4)": NumPy's compact shape spelling in error messages.
std::string compact(const Shape& s);

// NEP 50: a weak C++ integer must fit the integer dtype it meets; ValueError "Python integer 300
// out of bounds for int8" (NumPy's OverflowError) otherwise. Anything else passes.
void check_weak_int_fits(const Scalar& v, DType to);
bool weak_int_fits(const Scalar& v, DType to);  // the same test, without the throw
// A C++ number (a weak 0-d constant) written into an element of dtype `to`, as NumPy converts a
// Python scalar in setitem, put, putmask, place, copyto and insert: an integer must fit
// (ValueError "Python integer 300 out of bounds for int8", NumPy's OverflowError); a float
// into an integer dtype is truncated and must fit too, NaN and infinity refused ("cannot
// convert float NaN to integer"); a complex one into a real dtype is a DTypeError. Arrays (and
// non-weak scalars) are cast as NumPy casts them, unchecked.
void check_written_scalar(const Array& v, DType to);
// `n` converted to dtype: a weak constant is re-typed (checking that an integer fits, as NumPy's
// OverflowError does), anything else gets a Cast node. No-op when the dtype already matches.
NodeRef cast_to(const NodeRef& n, DType dtype);
// `n` viewed with the shape `to`; throws ShapeError with NumPy's wording when it cannot.
NodeRef broadcast_node(const NodeRef& n, const Shape& to);
// NumPy's broadcasting of two shapes; ShapeError "operands could not be broadcast together
// with shapes (3,4) (5,) " otherwise.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// n as an input of an elementwise node of shape `to`: broadcast, or a 0-d constant as it is.
NodeRef operand_node(const NodeRef& n, const Shape& to);
// a with `shape` (the same size): a view where the layout allows (buffers), else a Reshape node
// that the consumer's kernel reads in C order (no copy: NumPy's reshape of a view copies).
Array reshaped(const Array& a, const Shape& shape);
// `piece` placed at `start` in an array of `shape` over `base` (an Op::Place with its box mask;
// base invalid: nothing below, the rest of the box's complement is covered by later pieces).
Array place(const Array& piece, const Shape& start, const Shape& shape, const Array& base);
// parts (of one dtype, non-empty along axis) placed one after the other: their concatenation.
Array place_all(const std::vector<Array>& parts, int axis);
// Evaluated arrays of one dtype (not empty) joined along `axis` into `shape` by one library call
// that copies rows (concatenate and stack of many inputs). The call layer installs it
// (lib/calls/joining_calls.cpp) as the library loads: the joins are built here, below the calls,
// and reach the call through this, never by a call up a layer.
using JoinRows = Array (*)(const std::vector<Array>& parts, int axis, const Shape& shape);
void install_join_rows(JoinRows f);
Array join_rows(const std::vector<Array>& parts, int axis, const Shape& shape);
// A view of n through map (composed into a Buffer's strides, or into an existing View's map).
NodeRef view_node(const NodeRef& n, const IndexMap& map, const Shape& shape);

// view_node(n, map, shape) with the view moved down through elementwise ops and views to the
// leaves, so that an evaluator that computes every node at its own shape (the host's) computes
// only the viewed elements: printing a corner of a 10^10-element expression costs its corner.
// Shared inputs stay shared; past `max_depth` nodes down, the view stays where it is.
NodeRef sink_view(const NodeRef& n, const IndexMap& map, const Shape& shape, int max_depth = 256);

// Basic indexing (integers, slices, newaxis, ellipsis) of an array of `shape`: the view's map
// and shape, and for each index entry the view dim it made (-1: none) and the input axis it
// consumed first. An IndexArray entry keeps its whole axis (advanced_index places it).
struct BasicIndex {
  IndexMap map;
  Shape shape;
  std::vector<int> entry_dim;
  std::vector<int> entry_axis;
};
BasicIndex basic_index(const Shape& shape, std::span<const Index> idx);
// x viewed through a basic index (no index arrays): x[idx] as a view.
Array basic_view(const Array& x, std::span<const Index> idx);
// x[idx] with integer (or bool) arrays among the entries: NumPy's advanced indexing, a gather
// (lib/api/indexing.cpp).
// check_bounds: each index checked against its extent by the kernel that reads it (Op::CheckIndex:
// IndexError at the next synchronization); false where the caller made them in range.
// positions: when not null, set to x's C-order positions of the result's elements (int64).
Array advanced_index(const Array& x, std::span<const Index> idx, bool check_bounds = true, Array* positions = nullptr);
// x with x.flat[pos[k]] = val[k] (pos in range; the last of duplicates wins): lib/index/indexing.cpp.
// `ran`, when given, is set to a node that is evaluated exactly when pos has been read (the
// sort's output: the barrier reads pos whatever consumes the result).
Array scatter_set(const Array& x, const Array& pos, const Array& val, Array* ran = nullptr);
// x with the elements x[idx] selects combined with v (WriteOp::Set: replaced by v), cast to x's
// dtype: a new array (lib/index/indexing.cpp).
Array write(const Array& x, std::span<const Index> idx, const Array& v, WriteOp op);
// The same into x's own buffer, when x is evaluated on a GPU, C-contiguous, and held by nothing
// but x and `snapshot` (the IndexRef's read of x[idx]), and idx is basic with forward steps: the
// region's values are evaluated (one kernel, or none) and copied into it (row copies): "".
// Else nothing is done (the caller writes lazily), and the text says why not.
// lib/index/in_place_write.cpp.
std::string write_in_place(Array& x, std::span<const Index> idx, const Array& v, WriteOp op, const Array* snapshot);
// x with v combined into the elements x[idx] selects, every duplicate of an integer-array index
// included (np.add.at; lib/index/scatter.cpp). Without integer arrays: write(x, idx, v, op).
// ufunc_at: NumPy's ufunc.at casting (x.at() keeps NumPy's in-place same_kind rule).
Array accumulate(const Array& x, std::span<const Index> idx, const Array& v, WriteOp op, Accumulate how,
                 bool ufunc_at = false);

Array unary(Op op, const Array& a);
Array binary(Op op, const Array& a, const Array& b);
Array ternary_where(const Array& cond, const Array& x, const Array& y);

// Axis normalization with NumPy's message: "axis 2 is out of bounds for array of dimension 2",
// after "<prefix>: " when a prefix is given (NumPy's msg_prefix: "source", "axis1", ...).
int normalize_axis(std::int64_t axis, int ndim, const char* prefix = nullptr);
// The shape all of `shapes` broadcast to; ValueError in np.broadcast_arrays' words ("shape
// mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 ...").
Shape broadcast_all(const std::vector<Shape>& shapes);


}  // namespace loom::detail
