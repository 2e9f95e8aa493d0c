#pragma once
// What the writes share (lib/index/indexing.cpp: setitem and the .at() family; in_place_write.cpp;
// scatter.cpp: the ufunc.at family and bincount): NumPy's ufunc for each WriteOp, its casting
// rule and the broadcasting of an assigned value, with NumPy's wording (write_helpers.cpp).

#include <loom/array.hpp>

namespace loom::calls {

// src read at the coordinates coords (one integer array per dim of src, broadcasting to `shape`):
// a lazy gather in the consumer's kernel, small elementwise sources rebuilt at the read positions
// (lib/index/indexing.cpp).
Array gather_positions(const Array& src, std::vector<Array> coords, const Shape& shape);
// src read at C-order positions lin of its elements (take without an axis).
Array gather_flat_positions(const Array& src, const Array& lin);
// idx normalized against an axis of n elements and checked by the kernel that reads it
// (Op::CheckIndex: IndexError at the next synchronization).
Array checked_positions(const Array& idx, std::int64_t n, int axis);

// NumPy's name of the ufunc a WriteOp applies ("add", "minimum"; "set" for Set).
const char* ufunc_name(WriteOp op);
// x op v (NumPy's ufunc of that name; Set gives v).
Array combine(WriteOp op, const Array& x, const Array& v);
// NumPy's can_cast(from, to, "same_kind").
bool same_kind(DType from, DType to);
// DTypeError in NumPy's words when the ufunc's result cannot be cast back into the target.
void check_same_kind(WriteOp op, DType result, DType target);
// NumPy's checks of the value of a write x[...] op= v into an array of dtype `to`: a C++ number
// as detail::check_written_scalar (api/builders.hpp) checks it, and for op (not Set) NumPy's
// in-place casting: the ufunc's result (NEP 50 promotion of `to` with v) must cast back
// 'same_kind' (DTypeError in NumPy's words otherwise).
void check_write(WriteOp op, DType to, const Array& v);
// A write's checked positions (calls::checked_positions, or advanced_index's) are checked at
// the next synchronization even when nothing evaluates the write (exec/deferred_checks.hpp).
// `ran`: a node evaluated exactly when the positions have been read (the library call that
// reads them: whatever consumes the write, fused or not, runs it); none (size 0) keeps nothing.
void defer_index_check(const Array& ran, const Array& checked);
// v broadcast to `shape` as NumPy's assignment broadcasts (v may have more leading dims of 1);
// ValueError "could not broadcast input array from shape (3,) into shape (4,)".
Array fit_value(const Array& v, const Shape& shape);
[[noreturn]] void broadcast_error(const Shape& from, const Shape& into);

}  // namespace loom::calls
