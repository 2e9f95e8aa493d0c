// svd, svdvals, eigh and eigvalsh (include/loom/linalg.hpp) from cuSOLVER's 64-bit gesvd and
// syevd.
//
// gesvd needs m >= n (column-major m x n). A wide A (M < N) lies in its row-major buffer as the
// column-major N x M matrix A^T = U' S V'^H, so A = conj(V') S U'^T: gesvd's VT buffer, read
// row-major, is A's U, and its U buffer read row-major is A's Vh; no copy, no transpose. A tall
// A is given to the call as A^T's view, which exec copies C-contiguous (A column-major); its
// column-major U and VT are then A's U^T and Vh^T row-major, and the result swaps them back as
// views.
//
// syevd reads the buffer as A^T = conj(A) (A Hermitian): same eigenvalues, conjugated
// eigenvectors in its columns; the result is the conjugate transpose of the buffer read
// row-major. A's lower triangle is the buffer's upper one.

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/linalg.hpp>
#include <loom/ops.hpp>

#include "calls/linalg_common.hpp"
#include "calls/linalg_device.hpp"
#include "graph/promotion.hpp"

namespace loom::linalg {

using impl::Solver;

namespace {

// The gesvd call: `vectors` adds U's and VT's buffers (jobu 'A' with full_matrices, else 'S').
// Outputs: S, then (vectors) the column-major U (m x u_cols) and VT (n x n) buffers.
std::vector<Array> gesvd_call(const Array& a, bool vectors, bool full, const char* fn) {
  const DType t = a.dtype(), rt = loom::detail::real_type_for(t);
  const std::int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  const bool tall = rows >= cols;
  const std::int64_t m = tall ? rows : cols, n = tall ? cols : rows;  // the problem gesvd sees
  const std::int64_t u_cols = full ? m : n;
  const Shape batch = impl::batch_shape(a.shape());
  const std::int64_t count = batch.numel();
  Shape s_shape = batch;
  s_shape.push_back(n);
  std::vector<loom::detail::CallOutput> outs = {{rt, s_shape}};
  if (vectors) {
    outs.push_back({t, impl::with_matrix(batch, u_cols, m)});
    outs.push_back({t, impl::with_matrix(batch, n, n)});
  }
  const signed char job = !vectors ? 'N' : full ? 'A' : 'S';
  return impl::make_call(
      fn, fmt::format("cusolverDnXgesvd (job {}), {}", static_cast<char>(job), name(t)),
      {tall ? a.swapaxes(-1, -2) : a}, std::move(outs), [m, n, count, job, vectors, u_cols, fn](loom::detail::CallContext& ctx) {
        Solver s(ctx, fn);
        const auto& A = ctx.contiguous(0);
        const DType t = A.dtype, rt = loom::detail::real_type_for(t);
        const cudaDataType ct = impl::cuda_type(t), crt = impl::cuda_type(rt);
        void* w = s.workspace(static_cast<std::size_t>(count * m * n) * itemsize(t));  // gesvd destroys A
        s.copy(w, A.data(), static_cast<std::size_t>(count * m * n) * itemsize(t));
        void* u = vectors ? ctx.out[1] : nullptr;
        void* vt = vectors ? ctx.out[2] : nullptr;
        std::size_t dev_bytes = 0, host_bytes = 0;
        LOOM_CHECK_CUSOLVER(cusolverDnXgesvd_bufferSize(s.handle(), s.params(), job, job, m, n, ct, w, m, crt,
                                                        ctx.out[0], ct, u, m, ct, vt, n, ct, &dev_bytes,
                                                        &host_bytes));
        void* ws = s.workspace(dev_bytes);
        void* hws = s.host_workspace(host_bytes);
        s.reserve_infos(count);
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUSOLVER(cusolverDnXgesvd(
              s.handle(), s.params(), job, job, m, n, ct, impl::at(w, t, b, m * n), m, crt,
              impl::at(ctx.out[0], rt, b, n), ct, vectors ? impl::at(u, t, b, m * u_cols) : nullptr, m, ct,
              vectors ? impl::at(vt, t, b, n * n) : nullptr, n, ct, ws, dev_bytes, hws, host_bytes, s.info(b)));
        }
        s.check_infos("SVD did not converge");
      });
}

std::string upper_uplo(const std::string& uplo) {
  std::string u = uplo;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u != "L" && u != "U") throw ValueError("UPLO argument must be 'L' or 'U'");
  return u;
}

// Eigenvalues (and, with `vectors`, the buffer of eigenvectors) of Hermitian matrices.
std::vector<Array> syevd_call(const Array& a, const std::string& uplo, bool vectors, const char* fn) {
  const bool lower = upper_uplo(uplo) == "L";
  impl::check_square(a);
  const DType t = impl::solver_type(a.dtype()), rt = loom::detail::real_type_for(t);
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = impl::batch_shape(a.shape());
  const std::int64_t count = batch.numel();
  Shape w_shape = batch;
  w_shape.push_back(n);
  if (count * n == 0) return {zeros(w_shape, rt), zeros(a.shape(), t)};
  std::vector<loom::detail::CallOutput> outs = {{rt, w_shape}};
  if (vectors) outs.push_back({t, a.shape()});
  const cublasFillMode_t fill = lower ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;  // of A^T
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  return impl::make_call(
      fn, fmt::format("cusolverDnXsyevd, {}", name(t)), {astype(a, t)}, std::move(outs),
      [n, count, fill, jobz, vectors, fn](loom::detail::CallContext& ctx) {
        Solver s(ctx, fn);
        const auto& A = ctx.contiguous(0);
        const DType t = A.dtype, rt = loom::detail::real_type_for(t);
        const cudaDataType ct = impl::cuda_type(t), crt = impl::cuda_type(rt);
        const std::size_t bytes = static_cast<std::size_t>(count * n * n) * itemsize(t);
        void* v = vectors ? ctx.out[1] : s.workspace(bytes);  // syevd overwrites A with the vectors
        s.copy(v, A.data(), bytes);
        std::size_t dev_bytes = 0, host_bytes = 0;
        LOOM_CHECK_CUSOLVER(cusolverDnXsyevd_bufferSize(s.handle(), s.params(), jobz, fill, n, ct, v, n, crt,
                                                        ctx.out[0], ct, &dev_bytes, &host_bytes));
        void* ws = s.workspace(dev_bytes);
        void* hws = s.host_workspace(host_bytes);
        s.reserve_infos(count);
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUSOLVER(cusolverDnXsyevd(s.handle(), s.params(), jobz, fill, n, ct, impl::at(v, t, b, n * n), n,
                                               crt, impl::at(ctx.out[0], rt, b, n), ct, ws, dev_bytes, hws,
                                               host_bytes, s.info(b)));
        }
        s.check_infos("Eigenvalues did not converge");
      });
}

}  // namespace

Array impl::singular_values(const Array& a, const char* fn) {
  impl::check_stacked_2d(a);
  const DType t = impl::solver_type(a.dtype());
  const Shape batch = impl::batch_shape(a.shape());
  Shape s_shape = batch;
  s_shape.push_back(std::min(a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1]));
  if (s_shape.numel() == 0) return zeros(s_shape, loom::detail::real_type_for(t));
  return gesvd_call(astype(a, t), false, false, fn)[0];
}

SVDResult impl::svd_named(const Array& a, bool full_matrices, const char* fn) {
  impl::check_stacked_2d(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  const std::int64_t k = std::min(rows, cols);
  const Shape batch = impl::batch_shape(a.shape());
  if (batch.numel() * k == 0) {
    // NumPy: the identity for the full U and Vh of an empty matrix.
    const auto basis = [&](std::int64_t n, bool left) {
      const Shape s = left ? impl::with_matrix(batch, n, full_matrices ? n : k)
                           : impl::with_matrix(batch, full_matrices ? n : k, n);
      return full_matrices ? eye(n, none, 0, t).broadcast_to(s) : zeros(s, t);
    };
    return {basis(rows, true), impl::singular_values(a, fn), basis(cols, false)};
  }
  const auto out = gesvd_call(astype(a, t), true, full_matrices, fn);
  if (rows >= cols) return {out[1].swapaxes(-1, -2), out[0], out[2].swapaxes(-1, -2)};
  return {out[2], out[0], out[1]};
}

SVDResult svd(const Array& a, bool full_matrices, bool compute_uv, bool /*hermitian*/) {
  if (!compute_uv) return {Array(), impl::singular_values(a, "linalg.svd"), Array()};
  return impl::svd_named(a, full_matrices, "linalg.svd");
}

Array svdvals(const Array& a) { return impl::singular_values(a, "linalg.svdvals"); }

EighResult eigh(const Array& a, const std::string& UPLO) {
  const auto out = syevd_call(a, UPLO, true, "linalg.eigh");
  return {out[0], impl::adjoint(out[1])};
}

Array eigvalsh(const Array& a, const std::string& UPLO) { return syevd_call(a, UPLO, false, "linalg.eigvalsh")[0]; }

}  // namespace loom::linalg
