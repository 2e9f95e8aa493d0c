#pragma once
// The GEMM behind loom::matmul, independent of graphs: how a strided matrix operand maps onto
// cuBLAS's column-major arguments (op flag, leading dimension, batch stride), and the host
// reference GEMM the evaluator runs.

#include <cstdint>
#include <optional>
#include <span>

#include <loom/dtype.hpp>
#include <loom/shape.hpp>

namespace loom::detail {

// A matrix operand: its batch dims, then rows and columns; strides in elements.
struct MatrixView {
  Shape shape;
  Shape strides;
  // The same operand with its last two axes swapped (a transposed view).
  MatrixView swapped() const;
};

// How cuBLAS reads a row-major operand. Row-major data (unit column stride) is, to cuBLAS's
// column-major eyes, the operand transposed: op N. Column-major data (unit row stride, a
// transposed view of a contiguous matrix) is the operand itself: op T (or C to conjugate).
struct MatrixLayout {
  bool col_major = false;
  std::int64_t ld = 1;            // >= the stored matrix's leading extent, as cuBLAS requires
  std::int64_t batch_stride = 0;  // one stride over the flattened batch `out_batch` (0: broadcast)
};

// The layout of m broadcast over out_batch, or nullopt when cuBLAS cannot read it in place (no
// unit stride, negative strides, or batch dims that no single stride describes). prefer_col:
// when both layouts fit (a single row or column), take the column-major one (conjugation
// needs it).
std::optional<MatrixLayout> matrix_layout(const MatrixView& m, const Shape& out_batch, bool prefer_col);

// out[b] = op(A[b]) @ op(B[b]) over the batch out_batch, computed on the host: float16 and
// bfloat16 accumulate in float32, other dtypes in their own. A: [..., m, k], B: [..., k, n]
// (views of the bytes `a` and `b`, batch dims broadcast to out_batch); out C-contiguous
// out_batch + [m, n]. conj_a / conj_b conjugate an operand.
void host_gemm(DType dtype, const std::byte* a, const MatrixView& va, bool conj_a, const std::byte* b,
               const MatrixView& vb, bool conj_b, const Shape& out_batch, std::byte* out);

}  // namespace loom::detail
