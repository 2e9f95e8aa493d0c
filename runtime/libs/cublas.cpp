#include "runtime/libs/cublas.hpp"

#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <cublas_v2.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/libs/data_type.hpp"
#include "runtime/libs/lib_check.hpp"

#define LOOM_CHECK_CUBLAS(expr) LOOM_CHECK_LIBRARY("cuBLAS", cublasGetStatusName, CUBLAS_STATUS_ALLOC_FAILED, expr)

namespace loom::rt {

namespace {

struct DeviceHandle {
  std::once_flag once;
  std::mutex mu;  // a handle's stream and workspace are per handle: one call at a time
  cublasHandle_t handle = nullptr;
};

// Handles live until the process ends and are never destroyed: at exit the CUDA context may
// already be gone, and cublasDestroy would then fault (PyTorch and CuPy do the same).
DeviceHandle& handle_of(int device) {
  static std::vector<std::unique_ptr<DeviceHandle>>* handles = [] {
    auto* v = new std::vector<std::unique_ptr<DeviceHandle>>;
    for (int d = 0; d < device_count(); ++d) v->push_back(std::make_unique<DeviceHandle>());
    return v;
  }();
  if (device < 0 || device >= static_cast<int>(handles->size())) {
    throw Error("cuBLAS: no GPU " + std::to_string(device));
  }
  DeviceHandle& h = *(*handles)[static_cast<std::size_t>(device)];
  std::call_once(h.once, [&] {
    LOOM_CHECK_CUBLAS(cublasCreate(&h.handle));
    // Reductions inside a GEMM (split-K) accumulate in the compute type, never in a 16-bit
    // output type: float16/bfloat16 products are summed in float32 throughout.
    LOOM_CHECK_CUBLAS(cublasSetMathMode(
        h.handle, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  });
  return h;
}

cudaDataType_t data_type(DType t) {
  if (const auto c = cuda_data_type(t)) return *c;
  throw DTypeError(std::string("cuBLAS GEMM: no ") + std::string(name(t)) + " support");
}

cublasComputeType_t compute_type(DType t, bool tf32) {
  if (t == DType::Float64 || t == DType::Complex128) return CUBLAS_COMPUTE_64F;
  if (tf32 && (t == DType::Float32 || t == DType::Complex64)) return CUBLAS_COMPUTE_32F_FAST_TF32;
  return CUBLAS_COMPUTE_32F;
}

cublasOperation_t op_of(GemmOp op) {
  switch (op) {
    case GemmOp::N: return CUBLAS_OP_N;
    case GemmOp::T: return CUBLAS_OP_T;
    case GemmOp::C: return CUBLAS_OP_C;
  }
  return CUBLAS_OP_N;
}

}  // namespace

bool gemm_fits_int(const Gemm& g) {
  constexpr std::int64_t kMax = INT32_MAX;
  return g.m <= kMax && g.n <= kMax && g.k <= kMax && g.batch <= kMax && g.lda <= kMax && g.ldb <= kMax &&
         g.ldc <= kMax;
}

const char* gemm_compute_name(DType dtype, bool tf32) {
  const cublasComputeType_t c = compute_type(dtype, tf32);
  if (c == CUBLAS_COMPUTE_64F) return "64F";
  if (c == CUBLAS_COMPUTE_32F_FAST_TF32) return "32F_FAST_TF32";
  return "32F";
}

std::size_t gemm_workspace_bytes(int device) {
  return device_props(device).cc_major >= 9 ? (std::size_t{32} << 20) : (std::size_t{4} << 20);
}

void run_gemm(int device, void* stream, const Gemm& g, void* workspace, std::size_t workspace_bytes) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  if (g.k == 0) {  // an empty sum: C = 0 (C is dense here: ldc == m, stride_c == m * n)
    const std::size_t nbytes = static_cast<std::size_t>(g.m * g.n * g.batch) * itemsize(g.dtype);
    LOOM_CHECK_CUDA(cudaMemsetAsync(g.c, 0, nbytes, static_cast<cudaStream_t>(stream)));
    return;
  }
  // alpha = 1, beta = 0 in the compute type's scalar type (complex: the real part first).
  const std::complex<double> one_d(1, 0), zero_d(0, 0);
  const std::complex<float> one_f(1, 0), zero_f(0, 0);
  const bool wide = compute_type(g.dtype, g.tf32) == CUBLAS_COMPUTE_64F;
  const void* alpha = wide ? static_cast<const void*>(&one_d) : static_cast<const void*>(&one_f);
  const void* beta = wide ? static_cast<const void*>(&zero_d) : static_cast<const void*>(&zero_f);
  const cudaDataType_t t = data_type(g.dtype);

  DeviceHandle& h = handle_of(device);
  std::lock_guard lock(h.mu);
  LOOM_CHECK_CUBLAS(cublasSetStream(h.handle, static_cast<cudaStream_t>(stream)));
  LOOM_CHECK_CUBLAS(cublasSetWorkspace(h.handle, workspace, workspace_bytes));
  const cublasComputeType_t ct = compute_type(g.dtype, g.tf32);
  if (gemm_fits_int(g)) {
    const auto i = [](std::int64_t v) { return static_cast<int>(v); };
    LOOM_CHECK_CUBLAS(cublasGemmStridedBatchedEx(h.handle, op_of(g.op_a), op_of(g.op_b), i(g.m), i(g.n), i(g.k), alpha,
                                                 g.a, t, i(g.lda), g.stride_a, g.b, t, i(g.ldb), g.stride_b, beta, g.c,
                                                 t, i(g.ldc), g.stride_c, i(g.batch), ct, CUBLAS_GEMM_DEFAULT));
  } else {
    LOOM_CHECK_CUBLAS(cublasGemmStridedBatchedEx_64(h.handle, op_of(g.op_a), op_of(g.op_b), g.m, g.n, g.k, alpha, g.a,
                                                    t, g.lda, g.stride_a, g.b, t, g.ldb, g.stride_b, beta, g.c, t,
                                                    g.ldc, g.stride_c, g.batch, ct, CUBLAS_GEMM_DEFAULT));
  }
}

namespace {

// ptrs[i] = base + i * stride_bytes, copied to the device array ptrs (the host copy is staged
// by the driver before cudaMemcpyAsync returns).
void fill_pointers(void** ptrs, void* base, std::size_t stride_bytes, int batch, cudaStream_t stream) {
  std::vector<void*> host(static_cast<std::size_t>(batch));
  for (int i = 0; i < batch; ++i) host[static_cast<std::size_t>(i)] = static_cast<char*>(base) + i * stride_bytes;
  LOOM_CHECK_CUDA(cudaMemcpyAsync(ptrs, host.data(), host.size() * sizeof(void*), cudaMemcpyHostToDevice, stream));
}

// Calls f with the typed element pointer type of dtype's cuBLAS routines (S, D, C, Z).
template <class F> void visit_solver_type(DType dtype, F&& f) {
  if (dtype == DType::Float32) return f(static_cast<float*>(nullptr));
  if (dtype == DType::Float64) return f(static_cast<double*>(nullptr));
  if (dtype == DType::Complex64) return f(static_cast<cuComplex*>(nullptr));
  if (dtype == DType::Complex128) return f(static_cast<cuDoubleComplex*>(nullptr));
  throw InternalError("internal: batched LU of " + std::string(name(dtype)));
}

cublasStatus_t getrf_batched(cublasHandle_t h, int n, float** a, int* p, int* info, int b) { return cublasSgetrfBatched(h, n, a, n, p, info, b); }
cublasStatus_t getrf_batched(cublasHandle_t h, int n, double** a, int* p, int* info, int b) { return cublasDgetrfBatched(h, n, a, n, p, info, b); }
cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuComplex** a, int* p, int* info, int b) { return cublasCgetrfBatched(h, n, a, n, p, info, b); }
cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuDoubleComplex** a, int* p, int* info, int b) { return cublasZgetrfBatched(h, n, a, n, p, info, b); }

cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int k, float** a, const int* p, float** b, int* info, int nb) {
  return cublasSgetrsBatched(h, op, n, k, a, n, p, b, n, info, nb);
}
cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int k, double** a, const int* p, double** b, int* info, int nb) {
  return cublasDgetrsBatched(h, op, n, k, a, n, p, b, n, info, nb);
}
cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int k, cuComplex** a, const int* p, cuComplex** b, int* info, int nb) {
  return cublasCgetrsBatched(h, op, n, k, a, n, p, b, n, info, nb);
}
cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int k, cuDoubleComplex** a, const int* p, cuDoubleComplex** b, int* info, int nb) {
  return cublasZgetrsBatched(h, op, n, k, a, n, p, b, n, info, nb);
}

}  // namespace

void lu_factor_batched(int device, void* stream, DType dtype, int n, int batch, void* a, void** ptrs, int* pivots,
                       int* infos) {
  if (n == 0 || batch == 0) return;
  const auto st = static_cast<cudaStream_t>(stream);
  fill_pointers(ptrs, a, static_cast<std::size_t>(n) * n * itemsize(dtype), batch, st);
  DeviceHandle& h = handle_of(device);
  std::lock_guard lock(h.mu);
  LOOM_CHECK_CUBLAS(cublasSetStream(h.handle, st));
  visit_solver_type(dtype, [&]<class T>(T*) {
    LOOM_CHECK_CUBLAS(getrf_batched(h.handle, n, reinterpret_cast<T**>(ptrs), pivots, infos, batch));
  });
}

void lu_solve_batched(int device, void* stream, DType dtype, bool transpose, int n, int nrhs, int batch,
                      void** a_ptrs, const int* pivots, void* b, void** b_ptrs) {
  if (n == 0 || nrhs == 0 || batch == 0) return;
  const auto st = static_cast<cudaStream_t>(stream);
  fill_pointers(b_ptrs, b, static_cast<std::size_t>(n) * nrhs * itemsize(dtype), batch, st);
  DeviceHandle& h = handle_of(device);
  std::lock_guard lock(h.mu);
  LOOM_CHECK_CUBLAS(cublasSetStream(h.handle, st));
  int info = 0;  // a host int: only argument errors are reported here
  visit_solver_type(dtype, [&]<class T>(T*) {
    LOOM_CHECK_CUBLAS(getrs_batched(h.handle, transpose ? CUBLAS_OP_T : CUBLAS_OP_N, n, nrhs, reinterpret_cast<T**>(a_ptrs),
                                    pivots, reinterpret_cast<T**>(b_ptrs), &info, batch));
  });
  if (info != 0) throw InternalError("internal: cublasXgetrsBatched rejected argument " + std::to_string(-info));
}

}  // namespace loom::rt
