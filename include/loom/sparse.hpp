#pragma once
// loom::sparse: sparse matrices in CSR, CSC and COO formats, modelled on scipy.sparse's
// csr_matrix / csc_matrix / coo_matrix (as cupyx.scipy.sparse has them). Products with dense
// arrays and format conversions are cuSPARSE calls: lazy barriers whose results feed fused
// kernels, so relu(A.matmul(x) + b) is one SpMV and one fused kernel.
//
// Values: float32, float64, complex64, complex128 (cuSPARSE's types; convert other data with
// astype first). Indices: int32, or int64 when a dimension or nnz needs it (as scipy chooses).
// Index arrays of any integer dtype are accepted and converted. Conversions between formats give
// int32 indices (cuSPARSE converts with no other); a matrix too large for them can be multiplied
// and densified, and its conversions throw ValueError.
//
// What runs when: building a matrix from index arrays validates their contents with loom
// reductions on the device (min, max, a monotonicity test) whose five scalars are read back in
// one round trip (a synchronize); check_contents = false skips that. Building one from a dense
// array is eager too: nnz decides the output sizes, so a count_nonzero is read back first; the
// conversion itself is a lazy call. Everything else is lazy.
//
// Duplicate entries (COO, or unsorted/duplicated CSR indices) are kept as given: products sum
// them, conversions keep them; to_dense sums them on the host path and leaves them to
// cusparseSparseToDense on the GPU.

#include <concepts>
#include <cstdint>
#include <functional>
#include <utility>

#include <loom/array.hpp>
#include <loom/ops.hpp>

namespace loom::sparse {

enum class Format { csr, csc, coo };

class csr_matrix;
class csc_matrix;
class coo_matrix;

// What every format has: a 2-D shape, the stored values (data, 1-D of nnz) and two index arrays
// (CSR: indptr and indices; CSC: the same by columns; COO: row and col).
class spmatrix {
 public:
  Format format() const { return format_; }
  const Shape& shape() const { return shape_; }
  int ndim() const { return 2; }
  DType dtype() const { return data_.dtype(); }
  DType index_dtype() const { return minor_.dtype(); }
  std::int64_t nnz() const { return data_.size(); }
  const Array& data() const { return data_; }

  // The dense 2-D array (lazy: cusparseSparseToDense). todense and toarray are the same here.
  Array todense() const;
  Array toarray() const { return todense(); }

  csr_matrix tocsr() const;
  csc_matrix tocsc() const;
  coo_matrix tocoo() const;

  // A @ x: x 1-D of shape[1] elements gives a 1-D result (cusparseSpMV); x 2-D (shape[1], n)
  // gives (shape[0], n) (cusparseSpMM). Computed in NumPy's promotion of the two dtypes, which
  // must be one of the four value dtypes. A lazy call.
  Array matmul(const Array& x) const;
  Array dot(const Array& x) const { return matmul(x); }

 protected:
  spmatrix(Format f, const Shape& shape, Array data, Array major, Array minor)
      : format_(f), shape_(shape), data_(std::move(data)), major_(std::move(major)), minor_(std::move(minor)) {}
  // The same structure with other values: checks they are 1-D of nnz values of a value dtype.
  spmatrix with_data(const Array& data) const;
  // The transpose over the same arrays, as format f (CSR <-> CSC; COO swaps row and col).
  spmatrix transposed(Format f) const;
  // Validated constructions (lib/calls/sparse_matrix.cpp) for the formats' constructors.
  static spmatrix compressed(Format f, const Array& data, const Array& indices, const Array& indptr,
                             const Shape& shape, bool check_contents);
  static spmatrix coordinate(const Array& data, const Array& row, const Array& col, const Shape& shape,
                             bool check_contents);
  static spmatrix from_dense(Format f, const Array& dense);

  Format format_;
  Shape shape_;
  Array data_;
  Array major_;  // CSR/CSC: indptr; COO: row
  Array minor_;  // CSR/CSC: indices; COO: col
  // COO only: entries known to be in row order (made from CSR or CSC), so tocsr needs no sort.
  bool rows_sorted_ = false;
};

// Elementwise operations on the stored values (scipy's _data_matrix): each is a lazy loom
// expression of the data array that fuses into whatever reads it; implicit zeros stay zero.
template <class Derived>
class data_matrix : public spmatrix {
 public:
  // f(data) as the new data (same length; a value dtype): m.apply([](const Array& d) { return loom::sqrt(d); }).
  Derived apply(const std::function<Array(const Array&)>& f) const { return Derived(with_data(f(data_))); }
  Derived astype(DType t) const { return apply([t](const Array& d) { return d.astype(t); }); }
  Derived conj() const { return apply([](const Array& d) { return d.conj(); }); }
  Derived copy() const { return apply([](const Array& d) { return d.copy(); }); }
  Derived operator-() const { return apply([](const Array& d) { return -d; }); }

 protected:
  explicit data_matrix(spmatrix s) : spmatrix(std::move(s)) {}
};

class csr_matrix : public data_matrix<csr_matrix> {
 public:
  // From a dense 2-D array (eager: see the header comment).
  explicit csr_matrix(const Array& dense);
  // scipy's csr_matrix((data, indices, indptr), shape), validated (ValueError, DTypeError).
  csr_matrix(const Array& data, const Array& indices, const Array& indptr, const Shape& shape,
             bool check_contents = true);
  const Array& indices() const { return minor_; }
  const Array& indptr() const { return major_; }
  // CSR of A is CSC of A^T over the same arrays: no copy.
  csc_matrix transpose() const;
  csc_matrix T() const;

 private:
  friend class spmatrix;
  friend class data_matrix<csr_matrix>;
  friend class csc_matrix;
  explicit csr_matrix(spmatrix s) : data_matrix(std::move(s)) {}
};

class csc_matrix : public data_matrix<csc_matrix> {
 public:
  explicit csc_matrix(const Array& dense);
  // scipy's csc_matrix((data, indices, indptr), shape): indices are rows, indptr per column.
  csc_matrix(const Array& data, const Array& indices, const Array& indptr, const Shape& shape,
             bool check_contents = true);
  const Array& indices() const { return minor_; }
  const Array& indptr() const { return major_; }
  csr_matrix transpose() const;
  csr_matrix T() const;

 private:
  friend class spmatrix;
  friend class data_matrix<csc_matrix>;
  friend class csr_matrix;
  explicit csc_matrix(spmatrix s) : data_matrix(std::move(s)) {}
};

class coo_matrix : public data_matrix<coo_matrix> {
 public:
  explicit coo_matrix(const Array& dense);
  // scipy's coo_matrix((data, (row, col)), shape), validated.
  coo_matrix(const Array& data, const std::pair<Array, Array>& row_col, const Shape& shape,
             bool check_contents = true);
  const Array& row() const { return major_; }
  const Array& col() const { return minor_; }
  coo_matrix transpose() const;  // row and col swapped: no copy
  coo_matrix T() const { return transpose(); }

 private:
  friend class spmatrix;
  friend class data_matrix<coo_matrix>;
  explicit coo_matrix(spmatrix s) : data_matrix(std::move(s)) {}
};

template <class M>
concept SparseMatrix = std::derived_from<M, spmatrix>;

// A @ x, as spmatrix::matmul.
Array matmul(const spmatrix& a, const Array& x);

// scipy's spmatrix semantics for `*`: with a C++ number it scales the stored values; with an
// Array it is the matrix product (A * x == A.matmul(x); a 0-d array is refused by matmul, scale
// with apply instead). `/` divides the stored values by a number.
template <SparseMatrix M, ScalarType T> M operator*(const M& m, T s) {
  return m.apply([s](const Array& d) { return d * s; });
}
template <SparseMatrix M, ScalarType T> M operator*(T s, const M& m) {
  return m.apply([s](const Array& d) { return s * d; });
}
template <SparseMatrix M, ScalarType T> M operator/(const M& m, T s) {
  return m.apply([s](const Array& d) { return d / s; });
}
template <SparseMatrix M> Array operator*(const M& m, const Array& x) { return m.matmul(x); }

// |values| (complex values give their real dtype).
template <SparseMatrix M> M abs(const M& m) {
  return m.apply([](const Array& d) { return loom::abs(d); });
}

}  // namespace loom::sparse
