// loom::sparse's matrices: construction with scipy's validation, transposes over the same
// arrays, and the conversions and products, which are calls (sparse_calls.cpp).

#include <loom/sparse.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/reductions.hpp>

#include "calls/sparse_calls.hpp"

namespace loom::sparse {

namespace {

const char* class_name(Format f) {
  switch (f) {
    case Format::csr: return "csr_matrix";
    case Format::csc: return "csc_matrix";
    case Format::coo: return "coo_matrix";
  }
  return "spmatrix";
}

bool is_value_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Complex64 || t == DType::Complex128;
}

void check_value_dtype(const std::string& who, DType t) {
  if (!is_value_dtype(t)) {
    throw DTypeError(fmt::format("{}: data dtype {} is not supported (cuSPARSE takes float32, float64, complex64 and "
                                 "complex128; convert with astype first)",
                                 who, name(t)));
  }
}

void check_shape(const std::string& who, const Shape& s) {
  if (s.size() != 2 || s[0] < 0 || s[1] < 0) {
    throw ValueError(fmt::format("{}: invalid shape {} (a sparse matrix is 2-D)", who, to_string(s)));
  }
}

void check_index_dtype(const std::string& who, const char* what, const Array& a) {
  if (!is_integer(a.dtype())) {
    throw DTypeError(fmt::format("{}: {} must be integers, not {}", who, what, name(a.dtype())));
  }
}

// As scipy picks: int32 when every valid index (< a dimension) and index pointer (<= nnz) fits.
DType index_dtype_for(const Shape& shape, std::int64_t nnz) {
  return std::max({shape[0], shape[1], nnz}) <= INT32_MAX ? DType::Int32 : DType::Int64;
}

// The values of 0-d results of loom reductions: evaluated in one plan (on the device when there
// is one), then read back; the first read waits for them all, the others find them done.
std::vector<std::int64_t> read_scalars(const std::vector<Array>& scalars) {
  loom::eval(scalars);
  std::vector<std::int64_t> v;
  for (const Array& s : scalars) v.push_back(s.item<std::int64_t>());
  return v;
}

}  // namespace

spmatrix spmatrix::compressed(Format f, const Array& data, const Array& indices, const Array& indptr,
                              const Shape& shape, bool check_contents) {
  const std::string who = class_name(f);
  check_shape(who, shape);
  if (data.ndim() != 1 || indices.ndim() != 1 || indptr.ndim() != 1) {
    throw ValueError(fmt::format("{}: data, indices, and indptr should be 1-D (got shapes {}, {}, {})", who,
                                 to_string(data.shape()), to_string(indices.shape()), to_string(indptr.shape())));
  }
  check_value_dtype(who, data.dtype());
  check_index_dtype(who, "indices", indices);
  check_index_dtype(who, "indptr", indptr);
  const bool csr = f == Format::csr;
  const std::int64_t major = shape[csr ? 0 : 1], minor = shape[csr ? 1 : 0], nnz = data.size();
  if (indptr.size() != major + 1) {
    throw ValueError(fmt::format("{}: index pointer size ({}) should be ({})", who, indptr.size(), major + 1));
  }
  if (indices.size() != nnz) {
    throw ValueError(
        fmt::format("{}: indices and data should have the same size ({} and {})", who, indices.size(), nnz));
  }
  const Array ptr = indptr.eval(), ind = indices.eval();
  if (check_contents) {
    const Array p = ptr.astype(DType::Int64);
    std::vector<Array> facts = {p[0], p[-1], loom::any(p.slice(0, 1, none) < p.slice(0, none, -1))};
    if (nnz > 0) {
      const Array i = ind.astype(DType::Int64);
      facts.push_back(loom::min(i));
      facts.push_back(loom::max(i));
    }
    const std::vector<std::int64_t> v = read_scalars(facts);
    if (v[0] != 0) throw ValueError(fmt::format("{}: index pointer should start with 0 (found {})", who, v[0]));
    if (v[1] != nnz) {
      throw ValueError(fmt::format("{}: last value of index pointer ({}) should equal the size of the index and data "
                                   "arrays ({})",
                                   who, v[1], nnz));
    }
    if (v[2] != 0) throw ValueError(fmt::format("{}: index pointer values must form a non-decreasing sequence", who));
    const char* minor_name = csr ? "column" : "row";
    if (nnz > 0 && v[3] < 0) {
      throw ValueError(fmt::format("{}: {} index values must be >= 0 (found {})", who, minor_name, v[3]));
    }
    if (nnz > 0 && v[4] >= minor) {
      throw ValueError(fmt::format("{}: {} index values must be < {} (found {})", who, minor_name, minor, v[4]));
    }
  }
  const DType it = index_dtype_for(shape, nnz);
  return spmatrix(f, shape, data, ptr.astype(it).eval(), ind.astype(it).eval());
}

spmatrix spmatrix::coordinate(const Array& data, const Array& row, const Array& col, const Shape& shape,
                              bool check_contents) {
  const std::string who = class_name(Format::coo);
  check_shape(who, shape);
  if (data.ndim() != 1 || row.ndim() != 1 || col.ndim() != 1) {
    throw ValueError(fmt::format("{}: row, column, and data arrays must be 1-D (got shapes {}, {}, {})", who,
                                 to_string(row.shape()), to_string(col.shape()), to_string(data.shape())));
  }
  check_value_dtype(who, data.dtype());
  check_index_dtype(who, "row", row);
  check_index_dtype(who, "col", col);
  const std::int64_t nnz = data.size();
  if (row.size() != nnz || col.size() != nnz) {
    throw ValueError(fmt::format("{}: row, column, and data array must all be the same length ({}, {}, {})", who,
                                 row.size(), col.size(), nnz));
  }
  const Array r = row.eval(), c = col.eval();
  if (check_contents && nnz > 0) {
    const Array r64 = r.astype(DType::Int64), c64 = c.astype(DType::Int64);
    const std::vector<std::int64_t> v =
        read_scalars({loom::min(r64), loom::max(r64), loom::min(c64), loom::max(c64)});
    if (v[1] >= shape[0]) {
      throw ValueError(fmt::format("{}: row index exceeds matrix dimensions (found {}, shape {})", who, v[1],
                                   to_string(shape)));
    }
    if (v[3] >= shape[1]) {
      throw ValueError(fmt::format("{}: column index exceeds matrix dimensions (found {}, shape {})", who, v[3],
                                   to_string(shape)));
    }
    if (v[0] < 0) throw ValueError(fmt::format("{}: negative row index found ({})", who, v[0]));
    if (v[2] < 0) throw ValueError(fmt::format("{}: negative column index found ({})", who, v[2]));
  }
  const DType it = index_dtype_for(shape, nnz);
  return spmatrix(Format::coo, shape, data, r.astype(it).eval(), c.astype(it).eval());
}

spmatrix spmatrix::from_dense(Format f, const Array& dense) {
  const std::string who = class_name(f);
  if (dense.ndim() != 2) {
    throw ValueError(fmt::format("{}: expected a 2-D array, got shape {}", who, to_string(dense.shape())));
  }
  check_value_dtype(who, dense.dtype());
  // CSC of A is CSR of A^T. nnz sizes the call's outputs, so it is counted and read first.
  const Array d = (f == Format::csc ? dense.T() : dense).eval();
  const std::int64_t nnz = loom::count_nonzero(d).item<std::int64_t>();
  const detail::Compressed c = detail::dense_to_csr(d, nnz, index_dtype_for(dense.shape(), nnz));
  const Shape& shape = dense.shape();
  switch (f) {
    case Format::csr:
    case Format::csc: return spmatrix(f, shape, c.data, c.indptr, c.indices);
    case Format::coo: {
      spmatrix s(f, shape, c.data, detail::expand_offsets("sparse.coo_matrix", c.indptr, nnz, shape[0]),
                 c.indices.astype(DType::Int32));
      s.rows_sorted_ = true;
      return s;
    }
  }
  return spmatrix(f, shape, c.data, c.indptr, c.indices);
}

spmatrix spmatrix::with_data(const Array& data) const {
  const std::string who = fmt::format("{}.apply", class_name(format_));
  if (data.ndim() != 1 || data.size() != nnz()) {
    throw ShapeError(fmt::format("{}: new data of shape {} for a matrix that stores ({},) values", who,
                                 to_string(data.shape()), nnz()));
  }
  check_value_dtype(who, data.dtype());
  spmatrix s = *this;
  s.data_ = data;
  return s;
}

spmatrix spmatrix::transposed(Format f) const {
  const Shape t{shape_[1], shape_[0]};
  if (format_ == Format::coo) return spmatrix(f, t, data_, minor_, major_);
  return spmatrix(f, t, data_, major_, minor_);
}

Array spmatrix::todense() const { return detail::to_dense({format_, shape_, data_, major_, minor_}); }

csr_matrix spmatrix::tocsr() const {
  switch (format_) {
    case Format::csr: return csr_matrix(*this);
    case Format::csc: {  // CSC of A is CSR of A^T; its CSC is CSR of A
      const auto c = detail::csr_to_csc("sparse.tocsr", data_, minor_, major_, shape_[1], shape_[0]);
      return csr_matrix(spmatrix(Format::csr, shape_, c.data, c.indptr, c.indices));
    }
    case Format::coo: {
      if (rows_sorted_) {  // only the row pointers are new
        return csr_matrix(spmatrix(Format::csr, shape_, data_,
                                   detail::compress_rows("sparse.tocsr", major_, shape_[0], shape_[1]),
                                   minor_.astype(DType::Int32)));
      }
      const auto c = detail::coo_to_csr("sparse.tocsr", data_, major_, minor_, shape_[0], shape_[1]);
      return csr_matrix(spmatrix(Format::csr, shape_, c.data, c.indptr, c.indices));
    }
  }
  return csr_matrix(*this);
}

csc_matrix spmatrix::tocsc() const {
  switch (format_) {
    case Format::csr: {
      const auto c = detail::csr_to_csc("sparse.tocsc", data_, minor_, major_, shape_[0], shape_[1]);
      return csc_matrix(spmatrix(Format::csc, shape_, c.data, c.indptr, c.indices));
    }
    case Format::csc: return csc_matrix(*this);
    case Format::coo: {  // CSR of A^T (row and col swapped) is CSC of A
      const auto c = detail::coo_to_csr("sparse.tocsc", data_, minor_, major_, shape_[1], shape_[0]);
      return csc_matrix(spmatrix(Format::csc, shape_, c.data, c.indptr, c.indices));
    }
  }
  return csc_matrix(*this);
}

coo_matrix spmatrix::tocoo() const {
  const std::int64_t n = nnz();
  switch (format_) {
    case Format::csr: {
      spmatrix s(Format::coo, shape_, data_, detail::expand_offsets("sparse.tocoo", major_, n, shape_[0]),
                 minor_.astype(DType::Int32));
      s.rows_sorted_ = true;
      return coo_matrix(s);
    }
    case Format::csc:
      return coo_matrix(spmatrix(Format::coo, shape_, data_, minor_.astype(DType::Int32),
                                 detail::expand_offsets("sparse.tocoo", major_, n, shape_[1])));
    case Format::coo: return coo_matrix(*this);
  }
  return coo_matrix(*this);
}

Array spmatrix::matmul(const Array& x) const {
  const std::string who = fmt::format("{}.matmul", class_name(format_));
  if (x.ndim() < 1 || x.ndim() > 2) {
    throw ShapeError(fmt::format("{}: the dense operand must be 1-D or 2-D, got shape {}", who, to_string(x.shape())));
  }
  if (x.shape()[0] != shape_[1]) {
    throw ShapeError(
        fmt::format("{}: dimension mismatch: {} @ {}", who, to_string(shape_), to_string(x.shape())));
  }
  const DType t = promote_types(dtype(), x.dtype());
  if (!is_value_dtype(t)) {
    throw DTypeError(fmt::format("{}: no cuSPARSE product for {} @ {} (computes in float32, float64, complex64, "
                                 "complex128)",
                                 who, name(dtype()), name(x.dtype())));
  }
  const detail::Operand a{format_, shape_, data_.astype(t), major_, minor_};
  return x.ndim() == 1 ? detail::spmv(a, x.astype(t)) : detail::spmm(a, x.astype(t));
}

Array matmul(const spmatrix& a, const Array& x) { return a.matmul(x); }

csr_matrix::csr_matrix(const Array& dense) : csr_matrix(from_dense(Format::csr, dense)) {}
csr_matrix::csr_matrix(const Array& data, const Array& indices, const Array& indptr, const Shape& shape,
                       bool check_contents)
    : csr_matrix(compressed(Format::csr, data, indices, indptr, shape, check_contents)) {}
csc_matrix csr_matrix::transpose() const { return csc_matrix(transposed(Format::csc)); }
csc_matrix csr_matrix::T() const { return transpose(); }

csc_matrix::csc_matrix(const Array& dense) : csc_matrix(from_dense(Format::csc, dense)) {}
csc_matrix::csc_matrix(const Array& data, const Array& indices, const Array& indptr, const Shape& shape,
                       bool check_contents)
    : csc_matrix(compressed(Format::csc, data, indices, indptr, shape, check_contents)) {}
csr_matrix csc_matrix::transpose() const { return csr_matrix(transposed(Format::csr)); }
csr_matrix csc_matrix::T() const { return transpose(); }

coo_matrix::coo_matrix(const Array& dense) : coo_matrix(from_dense(Format::coo, dense)) {}
coo_matrix::coo_matrix(const Array& data, const std::pair<Array, Array>& row_col, const Shape& shape,
                       bool check_contents)
    : coo_matrix(coordinate(data, row_col.first, row_col.second, shape, check_contents)) {}
coo_matrix coo_matrix::transpose() const { return coo_matrix(transposed(Format::coo)); }

}  // namespace loom::sparse
