#pragma once
// NumPy's ufunc.at where the results do not survive the cast back into the array (float or complex
// values into an integer array, anything but bools into a bool array): each value applied in
// index order and cast back before the next (runtime/libs/ufunc_at_fold.hpp), on the host and on
// the GPU (a stable sort by position, then a thread per position). lib/index/scatter_fold.cpp.

#include <loom/array.hpp>

namespace loom::calls {

// Whether a ufunc.at whose loop computes in `loop` into an array of `target` dtype folds (true) or
// reduces the values at each position first (integers into integers wrap around in any order;
// a float target takes the rounded reduction, complex sums into it their real part).
bool ufunc_at_folds(DType loop, DType target, WriteOp op);

// x with v (broadcast to pos's shape) applied at x's flat positions pos (int64, in range), one
// value at a time in C order of pos, by op's ufunc in the loop dtype `loop`, each result cast back
// into x's dtype as NumPy casts it (NaN and out of range into integers as its x86-64 builds).
// DTypeError for complex values with divide, minimum and maximum (not supported).
Array fold_at(const Array& x, const Array& pos, const Array& v, WriteOp op, DType loop);

}  // namespace loom::calls
