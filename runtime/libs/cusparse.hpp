#pragma once
// cuSPARSE behind loom::sparse's calls: one handle per device, and the operations on plain device
// pointers (products, conversions, dense <-> sparse). Nothing here knows the graph; lib/calls
// builds the calls that use these. Everything is queued on the given stream, nothing synchronizes.

#include <cstdint>
#include <functional>

#include <loom/dtype.hpp>

namespace loom::rt::sparse {

enum class Format { Csr, Csc, Coo };

// A sparse matrix as cuSPARSE's generic API sees it. CSR: offsets = row pointers (rows + 1),
// indices = columns; CSC: offsets = column pointers (cols + 1), indices = rows; COO: offsets =
// row indices (nnz), indices = column indices (nnz). Both index arrays have `index_dtype`.
struct Matrix {
  Format format = Format::Csr;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  const void* offsets = nullptr;
  const void* indices = nullptr;
  const void* values = nullptr;
  DType index_dtype = DType::Int32;
  DType value_dtype = DType::Float32;
};

// Where and how a call runs: the device, its stream (cudaStream_t), and pool workspace.
struct Launch {
  int device = 0;
  void* stream = nullptr;
  std::function<void*(std::size_t)> workspace;
};

// y = A x (x has a.cols elements, y a.rows), cusparseSpMV.
void spmv(const Launch& l, const Matrix& a, const void* x, void* y);
// C = A B with B (a.cols x n) and C (a.rows x n) column-major, cusparseSpMM.
void spmm(const Launch& l, const Matrix& a, std::int64_t n, const void* b, void* c);
// The dense matrix (rows x cols, C order) of `a`, cusparseSparseToDense.
void to_dense(const Launch& l, const Matrix& a, void* dense);
// CSR of a C-ordered dense matrix whose number of nonzeros the caller knows (it sized `out`),
// cusparseDenseToSparse. out.offsets/indices/values are written.
void dense_to_csr(const Launch& l, const void* dense, const Matrix& out);
// CSC (col pointers, row indices, values) of a CSR matrix, cusparseCsr2cscEx2 (32-bit indices).
void csr_to_csc(const Launch& l, const Matrix& a, void* offsets, void* indices, void* values);
// The major index of every entry of a compressed matrix (rows of a CSR), cusparseXcsr2coo.
void expand_offsets(const Launch& l, const void* offsets, std::int64_t nnz, std::int64_t major, void* out);
// Row pointers (rows + 1) of nnz COO row indices in order, cusparseXcoo2csr.
void compress_rows(const Launch& l, const void* row, std::int64_t nnz, std::int64_t rows, void* offsets);
// CSR of a COO matrix (32-bit indices), its entries stable-sorted by row: cusparseXcoosortByRow
// with `identity` (0..nnz-1) as the starting permutation, cusparseGather, cusparseXcoo2csr.
void coo_to_csr(const Launch& l, const Matrix& a, const void* identity, void* offsets, void* indices,
                void* values);

}  // namespace loom::rt::sparse
