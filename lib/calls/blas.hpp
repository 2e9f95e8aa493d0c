#pragma once
// What the products of loom/blas.hpp share: matmul with an optionally conjugated first operand
// (vdot's), built as a cuBLAS GEMM call or, for integers and bool, as a fused reduction.

#include <loom/array.hpp>

namespace loom::detail {

// NumPy's matmul of a and b; conj_a conjugates a first (complex only; free for a transposed or
// single-row layout, where cuBLAS's conjugate-transpose flag does it).
Array matmul_impl(const Array& a, const Array& b, bool conj_a);

}  // namespace loom::detail
