#pragma once
// Host implementations of loom::sparse's calls: the reference evaluator's, and what runs without
// a GPU. Same inputs and outputs as the cuSPARSE implementations (sparse_calls.cpp), written for
// clarity: sums accumulate in double (complex<double>), conversions are stable counting sorts.

#include <loom/sparse.hpp>

#include "reference/evaluator.hpp"

namespace loom::sparse::host {

using ref::HostArray;

// out (n, rows) = (A X^T)^T for xt (n, cols); SpMV is n = 1 (xt (cols,), out (rows,)).
void spmm(Format f, const Shape& shape, const HostArray& major, const HostArray& minor, const HostArray& data,
          const HostArray& xt, HostArray& out);
// out (rows, cols), duplicates summed.
void to_dense(Format f, const Shape& shape, const HostArray& major, const HostArray& minor, const HostArray& data,
              HostArray& out);
// Entries bucketed by key (keys < num_buckets), keeping their order within a bucket: the
// offsets (num_buckets + 1), the other index and the values in bucket order. CSR -> CSC takes
// key = column, other = row; COO -> CSR key = row, other = column.
void bucket(const HostArray& key, const HostArray& other, const HostArray& data, std::int64_t num_buckets,
            HostArray& offsets, HostArray& other_out, HostArray& data_out);
// out[k] = the p with offsets[p] <= k < offsets[p + 1].
void expand_offsets(const HostArray& offsets, HostArray& out);
// offsets (rows + 1) of row indices in order.
void compress_rows(const HostArray& row, std::int64_t rows, HostArray& offsets);
// CSR of a C-ordered dense (rows, cols) array: data, indices, indptr.
void dense_to_csr(const HostArray& dense, HostArray& data, HostArray& indices, HostArray& indptr);

}  // namespace loom::sparse::host
