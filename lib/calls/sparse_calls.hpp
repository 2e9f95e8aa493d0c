#pragma once
// The library calls behind loom::sparse (graph/call.hpp barriers): each has a cuSPARSE device
// implementation (runtime/libs/cusparse.hpp) and a host one (sparse_host.hpp). Callers pass
// arrays of the dtypes the call takes; sparse_matrix.cpp validates and converts first.

#include <cstdint>

#include <loom/sparse.hpp>

namespace loom::sparse::detail {

// A sparse matrix as a call reads it (see spmatrix: major = indptr or row, minor = indices or col).
struct Operand {
  Format format;
  Shape shape;
  Array data, major, minor;
};

// The three arrays of a compressed matrix.
struct Compressed {
  Array data, indices, indptr;
};

// A x for x of shape (shape[1],), same dtype as A: (shape[0],).
Array spmv(const Operand& a, const Array& x);
// A B for B of shape (shape[1], n): (shape[0], n), a transposed view of the call's column-major output.
Array spmm(const Operand& a, const Array& b);
// The dense (rows, cols) array.
Array to_dense(const Operand& a);

// The following take and give int32 indices (cuSPARSE's conversions have no other).
// CSC arrays (column pointers, row indices) of a rows x cols CSR matrix.
Compressed csr_to_csc(const char* who, const Array& data, const Array& indices, const Array& indptr,
                      std::int64_t rows, std::int64_t cols);
// The major index of each of nnz entries of a compressed matrix with `major` rows (or columns).
Array expand_offsets(const char* who, const Array& indptr, std::int64_t nnz, std::int64_t major);
// CSR arrays of a rows x cols COO matrix, its entries stable-sorted by row.
Compressed coo_to_csr(const char* who, const Array& data, const Array& row, const Array& col, std::int64_t rows,
                      std::int64_t cols);
// Row pointers (rows + 1) of COO rows already in order.
Array compress_rows(const char* who, const Array& row, std::int64_t rows, std::int64_t cols);
// CSR arrays of a dense 2-D array holding nnz nonzeros, with `index` indices (int32 or int64).
Compressed dense_to_csr(const Array& dense, std::int64_t nnz, DType index);

}  // namespace loom::sparse::detail
