#include "calls/sparse_host.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::sparse::host {

namespace {

// Index arrays of either index dtype, read and written as int64.
std::vector<std::int64_t> indices_of(const HostArray& a) {
  std::vector<std::int64_t> v(a.numel());
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (a.dtype == DType::Int32) {
      v[k] = reinterpret_cast<const std::int32_t*>(a.data.data())[k];
    } else if (a.dtype == DType::Int64) {
      v[k] = reinterpret_cast<const std::int64_t*>(a.data.data())[k];
    } else {
      throw InternalError(fmt::format("internal: sparse index array of dtype {}", name(a.dtype)));
    }
  }
  return v;
}

void store_index(HostArray& a, std::size_t k, std::int64_t v) {
  if (a.dtype == DType::Int32) {
    reinterpret_cast<std::int32_t*>(a.data.data())[k] = static_cast<std::int32_t>(v);
  } else {
    reinterpret_cast<std::int64_t*>(a.data.data())[k] = v;
  }
}

// Calls f.operator()<T, W>() for the value type T of dtype t and its accumulator type W.
template <class F> void visit_value(DType t, F&& f) {
  switch (t) {
    case DType::Float32: f.template operator()<float, double>(); return;
    case DType::Float64: f.template operator()<double, double>(); return;
    case DType::Complex64: f.template operator()<std::complex<float>, std::complex<double>>(); return;
    case DType::Complex128: f.template operator()<std::complex<double>, std::complex<double>>(); return;
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
    case DType::Float16:
    case DType::BFloat16:
      break;
  }
  throw InternalError(fmt::format("internal: sparse values of dtype {}", name(t)));
}

// The host paths check the index arrays whatever the matrix was built with (check_contents =
// false skips only the construction-time check, as in scipy): a bad index is a loom error,
// never a write or read out of bounds. Messages as scipy's check_format.
void check_range(const std::vector<std::int64_t>& idx, std::int64_t limit, const char* what) {
  for (std::int64_t v : idx) {
    if (v < 0) throw ValueError(fmt::format("sparse: {} index values must be >= 0 (found {})", what, v));
    if (v >= limit) {
      throw ValueError(fmt::format("sparse: {} index values must be < {} (found {})", what, limit, v));
    }
  }
}

// An index pointer of `major` + 1 entries: 0 first, non-decreasing, at most nnz.
void check_indptr(const std::vector<std::int64_t>& ptr, std::size_t nnz) {
  if (ptr.empty() || ptr.front() != 0) throw ValueError("sparse: index pointer should start with 0");
  for (std::size_t p = 0; p + 1 < ptr.size(); ++p) {
    if (ptr[p + 1] < ptr[p]) {
      throw ValueError("sparse: index pointer values must form a non-decreasing sequence");
    }
  }
  if (static_cast<std::uint64_t>(ptr.back()) > nnz) {
    throw ValueError(fmt::format(
        "sparse: last value of index pointer ({}) should be less than the size of index and data "
        "arrays ({})",
        ptr.back(), nnz));
  }
}

// f(k, i, j) for each stored entry k at row i, column j, after checking every index against
// the shape.
template <class F>
void for_each_entry(Format format, const Shape& shape, const std::vector<std::int64_t>& major,
                    const std::vector<std::int64_t>& minor, F&& f) {
  const std::int64_t rows = shape[0], cols = shape[1];
  if (format == Format::coo) {
    check_range(major, rows, "row");
    check_range(minor, cols, "column");
    for (std::size_t k = 0; k < minor.size() && k < major.size(); ++k) f(k, major[k], minor[k]);
    return;
  }
  check_indptr(major, minor.size());
  check_range(minor, format == Format::csr ? cols : rows, format == Format::csr ? "column" : "row");
  for (std::size_t p = 0; p + 1 < major.size(); ++p) {
    for (auto k = static_cast<std::size_t>(major[p]); k < static_cast<std::size_t>(major[p + 1]); ++k) {
      const auto q = static_cast<std::int64_t>(p);
      if (format == Format::csr) {
        f(k, q, minor[k]);
      } else {
        f(k, minor[k], q);
      }
    }
  }
}

}  // namespace

void spmm(Format f, const Shape& shape, const HostArray& major, const HostArray& minor, const HostArray& data,
          const HostArray& xt, HostArray& out) {
  const std::int64_t rows = shape[0], cols = shape[1];
  const std::int64_t n = cols == 0 ? static_cast<std::int64_t>(out.numel()) / std::max<std::int64_t>(rows, 1)
                                   : static_cast<std::int64_t>(xt.numel()) / cols;
  const auto ma = indices_of(major), mi = indices_of(minor);
  visit_value(data.dtype, [&]<class T, class W>() {
    const T* v = reinterpret_cast<const T*>(data.data.data());
    const T* x = reinterpret_cast<const T*>(xt.data.data());
    std::vector<W> acc(out.numel(), W(0));
    for_each_entry(f, shape, ma, mi, [&](std::size_t k, std::int64_t i, std::int64_t j) {
      for (std::int64_t c = 0; c < n; ++c) {
        acc[static_cast<std::size_t>(c * rows + i)] += W(v[k]) * W(x[c * cols + j]);
      }
    });
    T* o = reinterpret_cast<T*>(out.data.data());
    for (std::size_t e = 0; e < acc.size(); ++e) o[e] = static_cast<T>(acc[e]);
  });
}

void to_dense(Format f, const Shape& shape, const HostArray& major, const HostArray& minor, const HostArray& data,
              HostArray& out) {
  const auto ma = indices_of(major), mi = indices_of(minor);
  visit_value(data.dtype, [&]<class T, class W>() {
    const T* v = reinterpret_cast<const T*>(data.data.data());
    T* o = reinterpret_cast<T*>(out.data.data());
    std::fill(o, o + out.numel(), T(0));
    for_each_entry(f, shape, ma, mi, [&](std::size_t k, std::int64_t i, std::int64_t j) { o[i * shape[1] + j] += v[k]; });
  });
}

void bucket(const HostArray& key, const HostArray& other, const HostArray& data, std::int64_t num_buckets,
            HostArray& offsets, HostArray& other_out, HostArray& data_out) {
  compress_rows(key, num_buckets, offsets);  // checks the keys
  const auto keys = indices_of(key), others = indices_of(other);
  if (others.size() < keys.size() || data.numel() < keys.size()) {
    throw ValueError("sparse: index and data arrays should have the same size");
  }
  std::vector<std::int64_t> start = indices_of(offsets);  // the next free slot of each bucket
  const std::size_t item = itemsize(data.dtype);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const auto dst = static_cast<std::size_t>(start[static_cast<std::size_t>(keys[k])]++);
    store_index(other_out, dst, others[k]);
    std::memcpy(data_out.data.data() + dst * item, data.data.data() + k * item, item);
  }
}

void expand_offsets(const HostArray& offsets, HostArray& out) {
  const auto ptr = indices_of(offsets);
  check_indptr(ptr, out.numel());
  for (std::size_t p = 0; p + 1 < ptr.size(); ++p) {
    for (auto k = ptr[p]; k < ptr[p + 1]; ++k) {
      store_index(out, static_cast<std::size_t>(k), static_cast<std::int64_t>(p));
    }
  }
}

void compress_rows(const HostArray& row, std::int64_t rows, HostArray& offsets) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(rows) + 1, 0);
  const std::vector<std::int64_t> keys = indices_of(row);
  check_range(keys, rows, "major");
  for (std::int64_t r : keys) ++start[static_cast<std::size_t>(r) + 1];
  for (std::size_t b = 0; b < static_cast<std::size_t>(rows); ++b) start[b + 1] += start[b];
  for (std::size_t b = 0; b < start.size(); ++b) store_index(offsets, b, start[b]);
}

void dense_to_csr(const HostArray& dense, HostArray& data, HostArray& indices, HostArray& indptr) {
  const std::int64_t rows = dense.shape[0], cols = dense.shape[1];
  visit_value(dense.dtype, [&]<class T, class W>() {
    const T* d = reinterpret_cast<const T*>(dense.data.data());
    T* v = reinterpret_cast<T*>(data.data.data());
    std::size_t k = 0;
    store_index(indptr, 0, 0);
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const T x = d[i * cols + j];
        if (x == T(0)) continue;
        v[k] = x;
        store_index(indices, k++, j);
      }
      store_index(indptr, static_cast<std::size_t>(i) + 1, static_cast<std::int64_t>(k));
    }
  });
}

}  // namespace loom::sparse::host
