#include "runtime/libs/cusparse.hpp"

#include <complex>
#include <cstring>
#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/libs/data_type.hpp"
#include "runtime/libs/lib_check.hpp"

#define LOOM_CHECK_CUSPARSE(expr) \
  LOOM_CHECK_LIBRARY("cuSPARSE", cusparseGetErrorName, CUSPARSE_STATUS_ALLOC_FAILED, expr)

namespace loom::rt::sparse {

namespace {

// One handle per device, created on first use and kept for the life of the process: destroying
// it at exit could run after the CUDA context is gone. The stream is set before every call.
// (Threads sharing a device share its handle; a call runs its library work right after setting
// the stream, as CuPy does with its per-device handle.)
cusparseHandle_t handle(const Launch& l) {
  static std::mutex mu;
  static std::vector<cusparseHandle_t> handles;
  cusparseHandle_t h = nullptr;
  {
    std::lock_guard lock(mu);
    if (handles.size() <= static_cast<std::size_t>(l.device)) handles.resize(static_cast<std::size_t>(l.device) + 1);
    auto& slot = handles[static_cast<std::size_t>(l.device)];
    if (!slot) LOOM_CHECK_CUSPARSE(cusparseCreate(&slot));
    h = slot;
  }
  LOOM_CHECK_CUSPARSE(cusparseSetStream(h, static_cast<cudaStream_t>(l.stream)));
  return h;
}

cudaStream_t stream_of(const Launch& l) { return static_cast<cudaStream_t>(l.stream); }

cudaDataType value_type(DType t) {
  if (const auto c = cuda_data_type(t)) return *c;
  throw DTypeError(fmt::format("cuSPARSE: no value type for dtype {}", name(t)));
}

cusparseIndexType_t index_type(DType t) {
  if (t == DType::Int32) return CUSPARSE_INDEX_32I;
  if (t == DType::Int64) return CUSPARSE_INDEX_64I;
  throw DTypeError(fmt::format("cuSPARSE: indices must be int32 or int64, not {}", name(t)));
}

// 1 and 0 in the compute type, for alpha and beta (host pointer mode).
struct OneZero {
  alignas(16) unsigned char one[16] = {};
  alignas(16) unsigned char zero[16] = {};
  explicit OneZero(DType t) {
    visit_dtype(t, [&]<class T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        const T v(1);
        std::memcpy(one, &v, sizeof v);
      }
    });
  }
};

// Descriptors, destroyed when the scope ends (destructors never throw: statuses ignored).
struct SpMat {
  cusparseConstSpMatDescr_t d = nullptr;
  explicit SpMat(const Matrix& a) {
    const auto it = index_type(a.index_dtype);
    const auto vt = value_type(a.value_dtype);
    switch (a.format) {
      case Format::Csr:
        LOOM_CHECK_CUSPARSE(cusparseCreateConstCsr(&d, a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, it, it,
                                                   CUSPARSE_INDEX_BASE_ZERO, vt));
        break;
      case Format::Csc:
        LOOM_CHECK_CUSPARSE(cusparseCreateConstCsc(&d, a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, it, it,
                                                   CUSPARSE_INDEX_BASE_ZERO, vt));
        break;
      case Format::Coo:
        LOOM_CHECK_CUSPARSE(cusparseCreateConstCoo(&d, a.rows, a.cols, a.nnz, a.offsets, a.indices, a.values, it,
                                                   CUSPARSE_INDEX_BASE_ZERO, vt));
        break;
    }
  }
  ~SpMat() { cusparseDestroySpMat(d); }
  SpMat(const SpMat&) = delete;
  SpMat& operator=(const SpMat&) = delete;
};

struct DnVec {
  cusparseDnVecDescr_t d = nullptr;
  DnVec(std::int64_t n, const void* v, DType t) {
    LOOM_CHECK_CUSPARSE(cusparseCreateDnVec(&d, n, const_cast<void*>(v), value_type(t)));
  }
  ~DnVec() { cusparseDestroyDnVec(d); }
  DnVec(const DnVec&) = delete;
  DnVec& operator=(const DnVec&) = delete;
};

struct DnMat {
  cusparseDnMatDescr_t d = nullptr;
  DnMat(std::int64_t rows, std::int64_t cols, std::int64_t ld, const void* v, DType t, cusparseOrder_t order) {
    LOOM_CHECK_CUSPARSE(cusparseCreateDnMat(&d, rows, cols, ld, const_cast<void*>(v), value_type(t), order));
  }
  ~DnMat() { cusparseDestroyDnMat(d); }
  DnMat(const DnMat&) = delete;
  DnMat& operator=(const DnMat&) = delete;
};

void* workspace(const Launch& l, std::size_t nbytes) { return nbytes ? l.workspace(nbytes) : nullptr; }

int as_int(std::int64_t v, const char* what) {
  if (v > INT32_MAX) throw ValueError(fmt::format("cuSPARSE {}: {} does not fit 32-bit indices", what, v));
  return static_cast<int>(v);
}

}  // namespace

void spmv(const Launch& l, const Matrix& a, const void* x, void* y) {
  if (a.rows == 0) return;
  // beta = 0 with y zeroed first, as CuPy does; also the whole answer when nothing is stored.
  LOOM_CHECK_CUDA(cudaMemsetAsync(y, 0, static_cast<std::size_t>(a.rows) * itemsize(a.value_dtype), stream_of(l)));
  if (a.nnz == 0 || a.cols == 0) return;
  cusparseHandle_t h = handle(l);
  const SpMat A(a);
  const DnVec X(a.cols, x, a.value_dtype);
  const DnVec Y(a.rows, y, a.value_dtype);
  const OneZero s(a.value_dtype);
  const cudaDataType ct = value_type(a.value_dtype);
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, s.one, A.d, X.d, s.zero, Y.d, ct,
                                              CUSPARSE_SPMV_ALG_DEFAULT, &nbytes));
  LOOM_CHECK_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, s.one, A.d, X.d, s.zero, Y.d, ct,
                                   CUSPARSE_SPMV_ALG_DEFAULT, workspace(l, nbytes)));
}

void spmm(const Launch& l, const Matrix& a, std::int64_t n, const void* b, void* c) {
  if (a.rows == 0 || n == 0) return;
  const std::size_t cbytes = static_cast<std::size_t>(a.rows * n) * itemsize(a.value_dtype);
  LOOM_CHECK_CUDA(cudaMemsetAsync(c, 0, cbytes, stream_of(l)));
  if (a.nnz == 0 || a.cols == 0) return;
  cusparseHandle_t h = handle(l);
  const SpMat A(a);
  // Column-major B and C: the layout every format's default algorithm takes (CuPy's choice too).
  const DnMat B(a.cols, n, a.cols, b, a.value_dtype, CUSPARSE_ORDER_COL);
  const DnMat C(a.rows, n, a.rows, c, a.value_dtype, CUSPARSE_ORDER_COL);
  const OneZero s(a.value_dtype);
  const cudaDataType ct = value_type(a.value_dtype);
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(
      cusparseSpMM_bufferSize(h, op, op, s.one, A.d, B.d, s.zero, C.d, ct, CUSPARSE_SPMM_ALG_DEFAULT, &nbytes));
  LOOM_CHECK_CUSPARSE(
      cusparseSpMM(h, op, op, s.one, A.d, B.d, s.zero, C.d, ct, CUSPARSE_SPMM_ALG_DEFAULT, workspace(l, nbytes)));
}

void to_dense(const Launch& l, const Matrix& a, void* dense) {
  if (a.rows == 0 || a.cols == 0) return;
  if (a.nnz == 0) {
    const std::size_t nbytes = static_cast<std::size_t>(a.rows * a.cols) * itemsize(a.value_dtype);
    LOOM_CHECK_CUDA(cudaMemsetAsync(dense, 0, nbytes, stream_of(l)));
    return;
  }
  cusparseHandle_t h = handle(l);
  const SpMat A(a);
  const DnMat D(a.rows, a.cols, a.cols, dense, a.value_dtype, CUSPARSE_ORDER_ROW);
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(cusparseSparseToDense_bufferSize(h, A.d, D.d, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &nbytes));
  LOOM_CHECK_CUSPARSE(cusparseSparseToDense(h, A.d, D.d, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, workspace(l, nbytes)));
}

void dense_to_csr(const Launch& l, const void* dense, const Matrix& out) {
  if (out.rows == 0 || out.cols == 0 || out.nnz == 0) {  // all row pointers 0
    const std::size_t nbytes = static_cast<std::size_t>(out.rows + 1) * itemsize(out.index_dtype);
    LOOM_CHECK_CUDA(cudaMemsetAsync(const_cast<void*>(out.offsets), 0, nbytes, stream_of(l)));
    return;
  }
  cusparseHandle_t h = handle(l);
  const auto it = index_type(out.index_dtype);
  cusparseConstDnMatDescr_t D = nullptr;
  LOOM_CHECK_CUSPARSE(cusparseCreateConstDnMat(&D, out.rows, out.cols, out.cols, dense, value_type(out.value_dtype),
                                               CUSPARSE_ORDER_ROW));
  cusparseSpMatDescr_t S = nullptr;
  LOOM_CHECK_CUSPARSE(cusparseCreateCsr(&S, out.rows, out.cols, out.nnz, const_cast<void*>(out.offsets),
                                        const_cast<void*>(out.indices), const_cast<void*>(out.values), it, it,
                                        CUSPARSE_INDEX_BASE_ZERO, value_type(out.value_dtype)));
  struct Destroy {
    cusparseConstDnMatDescr_t d;
    cusparseSpMatDescr_t s;
    ~Destroy() {
      cusparseDestroyDnMat(d);
      cusparseDestroySpMat(s);
    }
  } destroy{D, S};
  const auto alg = CUSPARSE_DENSETOSPARSE_ALG_DEFAULT;
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(cusparseDenseToSparse_bufferSize(h, D, S, alg, &nbytes));
  void* buf = workspace(l, nbytes);
  // The analysis writes the row pointers (and counts nnz, which the caller already knew).
  LOOM_CHECK_CUSPARSE(cusparseDenseToSparse_analysis(h, D, S, alg, buf));
  LOOM_CHECK_CUSPARSE(cusparseDenseToSparse_convert(h, D, S, alg, buf));
}

void csr_to_csc(const Launch& l, const Matrix& a, void* offsets, void* indices, void* values) {
  if (a.nnz == 0 || a.rows == 0 || a.cols == 0) {  // all column pointers 0
    LOOM_CHECK_CUDA(cudaMemsetAsync(offsets, 0, static_cast<std::size_t>(a.cols + 1) * sizeof(int), stream_of(l)));
    return;
  }
  cusparseHandle_t h = handle(l);
  const int m = as_int(a.rows, "Csr2cscEx2"), n = as_int(a.cols, "Csr2cscEx2"), nnz = as_int(a.nnz, "Csr2cscEx2");
  const auto* ptr = static_cast<const int*>(a.offsets);
  const auto* ind = static_cast<const int*>(a.indices);
  const cudaDataType vt = value_type(a.value_dtype);
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(cusparseCsr2cscEx2_bufferSize(
      h, m, n, nnz, a.values, ptr, ind, values, static_cast<int*>(offsets), static_cast<int*>(indices), vt,
      CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG_DEFAULT, &nbytes));
  LOOM_CHECK_CUSPARSE(cusparseCsr2cscEx2(h, m, n, nnz, a.values, ptr, ind, values, static_cast<int*>(offsets),
                                         static_cast<int*>(indices), vt, CUSPARSE_ACTION_NUMERIC,
                                         CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG_DEFAULT, workspace(l, nbytes)));
}

void expand_offsets(const Launch& l, const void* offsets, std::int64_t nnz, std::int64_t major, void* out) {
  if (nnz == 0) return;
  LOOM_CHECK_CUSPARSE(cusparseXcsr2coo(handle(l), static_cast<const int*>(offsets), as_int(nnz, "Xcsr2coo"),
                                       as_int(major, "Xcsr2coo"), static_cast<int*>(out), CUSPARSE_INDEX_BASE_ZERO));
}

void compress_rows(const Launch& l, const void* row, std::int64_t nnz, std::int64_t rows, void* offsets) {
  if (nnz == 0 || rows == 0) {
    LOOM_CHECK_CUDA(cudaMemsetAsync(offsets, 0, static_cast<std::size_t>(rows + 1) * sizeof(int), stream_of(l)));
    return;
  }
  LOOM_CHECK_CUSPARSE(cusparseXcoo2csr(handle(l), static_cast<const int*>(row), as_int(nnz, "Xcoo2csr"),
                                       as_int(rows, "Xcoo2csr"), static_cast<int*>(offsets), CUSPARSE_INDEX_BASE_ZERO));
}

void coo_to_csr(const Launch& l, const Matrix& a, const void* identity, void* offsets, void* indices,
                void* values) {
  const cudaStream_t st = stream_of(l);
  if (a.nnz == 0 || a.rows == 0) {  // all row pointers 0
    LOOM_CHECK_CUDA(cudaMemsetAsync(offsets, 0, static_cast<std::size_t>(a.rows + 1) * sizeof(int), st));
    return;
  }
  cusparseHandle_t h = handle(l);
  const int m = as_int(a.rows, "Xcoosort"), n = as_int(a.cols, "Xcoosort"), nnz = as_int(a.nnz, "Xcoosort");
  const std::size_t ibytes = static_cast<std::size_t>(nnz) * sizeof(int);
  // The sort works in place: on a copy of the rows (workspace), the columns (already the output),
  // and the permutation (a copy of 0..nnz-1).
  auto* rows = static_cast<int*>(l.workspace(ibytes));
  auto* perm = static_cast<int*>(l.workspace(ibytes));
  LOOM_CHECK_CUDA(cudaMemcpyAsync(rows, a.offsets, ibytes, cudaMemcpyDeviceToDevice, st));
  LOOM_CHECK_CUDA(cudaMemcpyAsync(indices, a.indices, ibytes, cudaMemcpyDeviceToDevice, st));
  LOOM_CHECK_CUDA(cudaMemcpyAsync(perm, identity, ibytes, cudaMemcpyDeviceToDevice, st));
  std::size_t nbytes = 0;
  LOOM_CHECK_CUSPARSE(cusparseXcoosort_bufferSizeExt(h, m, n, nnz, rows, static_cast<int*>(indices), &nbytes));
  LOOM_CHECK_CUSPARSE(
      cusparseXcoosortByRow(h, m, n, nnz, rows, static_cast<int*>(indices), perm, workspace(l, nbytes)));
  // values[k] = a.values[perm[k]]
  const DnVec src(a.nnz, a.values, a.value_dtype);
  cusparseSpVecDescr_t dst = nullptr;
  LOOM_CHECK_CUSPARSE(cusparseCreateSpVec(&dst, a.nnz, a.nnz, perm, values, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_BASE_ZERO, value_type(a.value_dtype)));
  struct Destroy {
    cusparseSpVecDescr_t d;
    ~Destroy() { cusparseDestroySpVec(d); }
  } destroy{dst};
  LOOM_CHECK_CUSPARSE(cusparseGather(h, src.d, dst));
  compress_rows(l, rows, a.nnz, a.rows, offsets);
}

}  // namespace loom::rt::sparse
