#pragma once
// What the loom::linalg functions share on the front end: NumPy's dtype and shape rules for
// linalg (with its error wording), building a cuSOLVER call node, and the small array helpers
// (triangles, diagonals, a product) that post-process a call's outputs as fused loom ops.

#include <functional>
#include <string>
#include <vector>

#include <loom/array.hpp>
#include <loom/linalg.hpp>

#include "graph/call.hpp"

namespace loom::linalg::impl {

// The dtype a linalg function computes in: float32, float64, complex64 and complex128 stay;
// bool and integers become float64 (as NumPy); float16 and bfloat16 throw DTypeError "array
// type float16 is unsupported in linalg" (NumPy's TypeError). NumPy computes every float in
// double and rounds the result back; loom computes float32 in float32, as CuPy does.
DType solver_type(DType t);
// The type two operands compute in (NumPy's _commonType: float64 unless all are float32, complex
// if any is).
DType solver_type(DType a, DType b);

// NumPy's checks, as LinAlgError with its wording.
void check_stacked_2d(const Array& a);  // "1-dimensional array given. Array must be at least two-dimensional"
void check_square(const Array& a);      // "Last 2 dimensions of the array must be square"
void check_2d(const Array& a);          // "3-dimensional array given. Array must be two-dimensional"

// The leading (batch) dims of a stack of matrices.
Shape batch_shape(const Shape& s);
Shape with_matrix(Shape batch, std::int64_t rows, std::int64_t cols);

// A barrier call with a device implementation only (results are checked by identities, not by
// a host LAPACK; without a GPU, evaluating an output throws an Error naming `name`).
std::vector<Array> make_call(std::string name, std::string text, std::vector<Array> inputs,
                             std::vector<loom::detail::CallOutput> outputs, loom::detail::DeviceFn device);

// The lower (k = 0: with the diagonal) or upper triangle of the last two dims, zeros elsewhere.
Array tril(const Array& a, std::int64_t k = 0);
Array triu(const Array& a, std::int64_t k = 0);
// The diagonal of the last two dims of a stack of square matrices: (..., n, n) -> (..., n).
Array diagonal(const Array& a);
// conj(a), a no-op for real arrays; a's last two dims swapped and conjugated.
Array conj_if_complex(const Array& a);
Array adjoint(const Array& a);
// The matrix product of the last two dims, broadcast over the others, as one fused
// multiply-and-sum reduction (linalg does not wait on matmul's GEMM call; fine for the
// post-processing sizes here).
Array product(const Array& a, const Array& b);

}  // namespace loom::linalg::impl

namespace loom::linalg::impl {

// inv without the singular check (cond's: a singular matrix gives inf/NaN there, as NumPy's
// inv under errstate(all='ignore')).
Array inv_unchecked(const Array& a);
// The singular values (..., min(m, n)) of a stack of matrices, for a call named `fn`.
Array singular_values(const Array& a, const char* fn);
// svd(a, full_matrices) for a call named `fn`.
SVDResult svd_named(const Array& a, bool full_matrices, const char* fn);

}  // namespace loom::linalg::impl
