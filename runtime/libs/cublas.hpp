#pragma once
// cuBLAS for loom: one handle per device, created on first use and bound to the caller's stream
// and pool workspace on every call, and strided-batched GEMM in cuBLAS's column-major terms.

#include <cstddef>
#include <cstdint>

#include <loom/dtype.hpp>

namespace loom::rt {

enum class GemmOp : std::uint8_t { N, T, C };  // none, transpose, conjugate transpose

// C[i] = op_a(A[i]) * op_b(B[i]) for i < batch, column-major, every matrix `dtype` (float16,
// bfloat16, float32, float64, complex64, complex128); C is m x n, op_a(A) m x k, op_b(B) k x n.
// Strides between batch entries are in elements (0 broadcasts one matrix to every entry).
struct Gemm {
  DType dtype = DType::Float32;
  bool tf32 = false;  // float32 / complex64: allow TF32 tensor cores
  GemmOp op_a = GemmOp::N, op_b = GemmOp::N;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  const void* a = nullptr;
  std::int64_t lda = 1, stride_a = 0;
  const void* b = nullptr;
  std::int64_t ldb = 1, stride_b = 0;
  void* c = nullptr;
  std::int64_t ldc = 1, stride_c = 0;
};

// "32F", "32F_FAST_TF32", "64F": the cuBLAS compute type a Gemm of `dtype` uses (16-bit
// floats accumulate in float32).
const char* gemm_compute_name(DType dtype, bool tf32);

// Whether g's sizes fit cublasGemmStridedBatchedEx's int arguments; when they do not, the
// 64-bit API (cublasGemmStridedBatchedEx_64) runs it.
bool gemm_fits_int(const Gemm& g);

// Runs g as cublasGemmStridedBatchedEx on `stream` (a cudaStream_t). workspace: pool memory of
// gemm_workspace_bytes(device), handed to cuBLAS so that it allocates nothing itself. An empty
// sum (k == 0) zero-fills C, which must then be dense (ldc == m, stride_c == m * n).
void run_gemm(int device, void* stream, const Gemm& g, void* workspace, std::size_t workspace_bytes);

// Many small LU factorizations at once (cublas<t>getrfBatched; float32/64, complex64/128):
// `batch` column-major n x n matrices stored one after another at `a`, factored in place with
// partial pivoting; pivots (n ints per matrix, 1-based) and infos (one int per matrix, > 0 when
// U is singular) in device memory. ptrs: device room for `batch` pointers, filled here.
void lu_factor_batched(int device, void* stream, DType dtype, int n, int batch, void* a, void** ptrs, int* pivots,
                       int* infos);
// Then B[i] = op(A[i])^-1 B[i] (cublas<t>getrsBatched, op = transpose or none) for B's n x nrhs
// column-major matrices one after another at b; b_ptrs: device room for `batch` pointers.
void lu_solve_batched(int device, void* stream, DType dtype, bool transpose, int n, int nrhs, int batch,
                      void** a_ptrs, const int* pivots, void* b, void** b_ptrs);

// cuBLAS's recommended workspace: 32 MiB on Hopper and later, 4 MiB before.
std::size_t gemm_workspace_bytes(int device);

}  // namespace loom::rt
