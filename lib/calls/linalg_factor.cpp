// cholesky and qr (include/loom/linalg.hpp) from cuSOLVER's potrf, geqrf and orgqr/ungqr.
//
// cholesky factors the row-major buffer as it lies: it is the column-major A^T = conj(A) (A
// Hermitian), and potrf's upper factor U of conj(A) = U^H U, read row-major, is U^T = L with
// A = L L^H. So NumPy's lower factor is potrf "upper" on the buffer (which reads A's lower
// triangle), and its upper factor potrf "lower". potrf leaves the other triangle as it was:
// a fused where() zeroes it.
//
// qr needs A column-major: the call receives A^T's view, which exec copies C-contiguous (that is
// A column-major), and writes Q and R column-major (Q^T and R^T row-major), which the result
// swaps back as views.

#include <algorithm>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/linalg.hpp>
#include <loom/ops.hpp>

#include "calls/linalg_common.hpp"
#include "calls/linalg_device.hpp"
#include "runtime/cuda_check.hpp"

namespace loom::linalg {

using impl::Solver;

namespace {

// orgqr (real) / ungqr (complex): the first n columns of Q from k reflectors, in place.
int orgqr_lwork(Solver& s, DType t, int m, int n, int k, void* a, const void* tau) {
  int lwork = 0;
  switch (t) {
    case DType::Float32:
      LOOM_CHECK_CUSOLVER(cusolverDnSorgqr_bufferSize(s.handle(), m, n, k, static_cast<float*>(a), m,
                                                      static_cast<const float*>(tau), &lwork));
      break;
    case DType::Float64:
      LOOM_CHECK_CUSOLVER(cusolverDnDorgqr_bufferSize(s.handle(), m, n, k, static_cast<double*>(a), m,
                                                      static_cast<const double*>(tau), &lwork));
      break;
    case DType::Complex64:
      LOOM_CHECK_CUSOLVER(cusolverDnCungqr_bufferSize(s.handle(), m, n, k, static_cast<cuComplex*>(a), m,
                                                      static_cast<const cuComplex*>(tau), &lwork));
      break;
    case DType::Complex128:
      LOOM_CHECK_CUSOLVER(cusolverDnZungqr_bufferSize(s.handle(), m, n, k, static_cast<cuDoubleComplex*>(a), m,
                                                      static_cast<const cuDoubleComplex*>(tau), &lwork));
      break;
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
    case DType::BFloat16: throw InternalError("internal: orgqr of " + std::string(name(t)));
  }
  return lwork;
}

void orgqr(Solver& s, DType t, int m, int n, int k, void* a, const void* tau, void* work, int lwork, int* info) {
  switch (t) {
    case DType::Float32:
      LOOM_CHECK_CUSOLVER(cusolverDnSorgqr(s.handle(), m, n, k, static_cast<float*>(a), m,
                                           static_cast<const float*>(tau), static_cast<float*>(work), lwork, info));
      break;
    case DType::Float64:
      LOOM_CHECK_CUSOLVER(cusolverDnDorgqr(s.handle(), m, n, k, static_cast<double*>(a), m,
                                           static_cast<const double*>(tau), static_cast<double*>(work), lwork, info));
      break;
    case DType::Complex64:
      LOOM_CHECK_CUSOLVER(cusolverDnCungqr(s.handle(), m, n, k, static_cast<cuComplex*>(a), m,
                                           static_cast<const cuComplex*>(tau), static_cast<cuComplex*>(work), lwork,
                                           info));
      break;
    case DType::Complex128:
      LOOM_CHECK_CUSOLVER(cusolverDnZungqr(s.handle(), m, n, k, static_cast<cuDoubleComplex*>(a), m,
                                           static_cast<const cuDoubleComplex*>(tau),
                                           static_cast<cuDoubleComplex*>(work), lwork, info));
      break;
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
    case DType::BFloat16: throw InternalError("internal: orgqr of " + std::string(name(t)));
  }
}

}  // namespace

Array cholesky(const Array& a, bool upper) {
  impl::check_square(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const std::int64_t count = impl::batch_shape(a.shape()).numel();
  if (count * n == 0) return zeros(a.shape(), t);
  const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;  // of A^T
  const Array c = impl::make_call(
      "linalg.cholesky", fmt::format("cusolverDnXpotrf, {}", name(t)), {astype(a, t)}, {{t, a.shape()}},
      [n, count, fill](loom::detail::CallContext& ctx) {
        Solver s(ctx, "linalg.cholesky");
        const auto& A = ctx.contiguous(0);
        const DType t = A.dtype;
        const cudaDataType ct = impl::cuda_type(t);
        s.copy(ctx.out[0], A.data(), static_cast<std::size_t>(count * n * n) * itemsize(t));
        std::size_t dev_bytes = 0, host_bytes = 0;
        LOOM_CHECK_CUSOLVER(cusolverDnXpotrf_bufferSize(s.handle(), s.params(), fill, n, ct, ctx.out[0], n, ct,
                                                        &dev_bytes, &host_bytes));
        void* ws = s.workspace(dev_bytes);
        void* hws = s.host_workspace(host_bytes);
        s.reserve_infos(count);
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUSOLVER(cusolverDnXpotrf(s.handle(), s.params(), fill, n, ct, impl::at(ctx.out[0], t, b, n * n),
                                               n, ct, ws, dev_bytes, hws, host_bytes, s.info(b)));
        }
        s.check_infos("Matrix is not positive definite");
      })[0];
  return upper ? impl::triu(c) : impl::tril(c);
}

QRResult qr(const Array& a, const std::string& mode) {
  if (mode != "reduced" && mode != "complete") {
    throw ValueError(fmt::format("Unrecognized mode '{}' (loom's qr has 'reduced' and 'complete')", mode));
  }
  impl::check_stacked_2d(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  const Shape batch = impl::batch_shape(a.shape());
  const std::int64_t count = batch.numel();
  const bool complete = mode == "complete";
  const std::int64_t q_cols = complete ? m : k, r_rows = complete ? m : k;
  if (count * k == 0) {
    const Shape q_shape = impl::with_matrix(batch, m, q_cols);
    return {complete ? eye(m, none, 0, t).broadcast_to(q_shape) : zeros(q_shape, t),
            zeros(impl::with_matrix(batch, r_rows, n), t)};
  }
  // Q's columns past the reflectors (complete, m > n) start as the identity's: LAPACK's orgqr
  // sets them so itself; starting there holds whichever way an implementation reads them.
  const auto out = impl::make_call(
      "linalg.qr", fmt::format("cusolverDnXgeqrf + cusolverDn{}, {}", is_complex(t) ? "ungqr" : "orgqr", name(t)),
      {astype(a, t).swapaxes(-1, -2), eye(m, q_cols, 0, t)},
      {{t, impl::with_matrix(batch, q_cols, m)}, {t, impl::with_matrix(batch, n, r_rows)}},
      [m, n, k, count, q_cols, r_rows](loom::detail::CallContext& ctx) {
        Solver s(ctx, "linalg.qr");
        const auto& A = ctx.contiguous(0);  // column-major m x n
        const DType t = A.dtype;
        const std::size_t isz = itemsize(t);
        const cudaDataType ct = impl::cuda_type(t);
        void* f = s.workspace(static_cast<std::size_t>(count * m * n) * isz);
        void* tau = s.workspace(static_cast<std::size_t>(count * k) * isz);
        s.copy(f, A.data(), static_cast<std::size_t>(count * m * n) * isz);
        s.reserve_infos(2 * count);  // only ever negative (a bad argument): not read back
        std::size_t dev_bytes = 0, host_bytes = 0;
        LOOM_CHECK_CUSOLVER(cusolverDnXgeqrf_bufferSize(s.handle(), s.params(), m, n, ct, f, m, ct, tau, ct,
                                                        &dev_bytes, &host_bytes));
        void* ws = s.workspace(dev_bytes);
        void* hws = s.host_workspace(host_bytes);
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUSOLVER(cusolverDnXgeqrf(s.handle(), s.params(), m, n, ct, impl::at(f, t, b, m * n), m, ct,
                                               impl::at(tau, t, b, k), ct, ws, dev_bytes, hws, host_bytes,
                                               s.info(b)));
        }
        // R: the top r_rows rows of each factored matrix (the result zeroes what lies below
        // the diagonal); Q: the reflectors (the first min(n, q_cols) columns), expanded in place.
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUDA(cudaMemcpy2DAsync(impl::at(ctx.out[1], t, b, r_rows * n), r_rows * isz,
                                            impl::at(f, t, b, m * n), m * isz, r_rows * isz, n,
                                            cudaMemcpyDeviceToDevice, s.stream()));
          if (q_cols > n) s.copy(impl::at(ctx.out[0], t, b, m * q_cols), ctx.contiguous(1).data(), m * q_cols * isz);
          s.copy(impl::at(ctx.out[0], t, b, m * q_cols), impl::at(f, t, b, m * n),
                 static_cast<std::size_t>(m * std::min(n, q_cols)) * isz);
        }
        const int lwork = orgqr_lwork(s, t, static_cast<int>(m), static_cast<int>(q_cols), static_cast<int>(k),
                                      ctx.out[0], tau);
        void* work = s.workspace(static_cast<std::size_t>(lwork) * isz);
        for (std::int64_t b = 0; b < count; ++b) {
          orgqr(s, t, static_cast<int>(m), static_cast<int>(q_cols), static_cast<int>(k),
                impl::at(ctx.out[0], t, b, m * q_cols), impl::at(tau, t, b, k), work, lwork, s.info(count + b));
        }
      });
  return {out[0].swapaxes(-1, -2), impl::triu(out[1].swapaxes(-1, -2))};
}

}  // namespace loom::linalg
