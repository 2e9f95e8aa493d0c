// LU-based linalg (include/loom/linalg.hpp): solve, inv, det and slogdet, from cuSOLVER's
// 64-bit getrf/getrs. The row-major buffer of A is the column-major A^T, so getrf factors A^T
// as it lies: solve then uses getrs with op T (A^T^T X = B), inv solves A^T X = I, whose
// column-major X read row-major is inv(A); det(A^T) = det(A). det and slogdet finish with fused
// loom ops over the factors (the diagonal's product, the pivots' parity).

#include <climits>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/linalg.hpp>
#include <loom/ops.hpp>

#include <fmt/format.h>

#include "api/builders.hpp"
#include "calls/linalg_common.hpp"
#include "calls/linalg_device.hpp"
#include "runtime/libs/cublas.hpp"

namespace loom::linalg {

using impl::Solver;

namespace {

constexpr const char* kSingular = "Singular matrix";

// Factors `count` column-major n x n matrices in place at `lu`, with their pivots (1-based)
// at ipiv; infos 0..count-1 of the solver.
void getrf_batch(Solver& s, DType t, std::int64_t n, std::int64_t count, void* lu, std::int64_t* ipiv) {
  if (n == 0) return;
  const cudaDataType ct = impl::cuda_type(t);
  std::size_t dev_bytes = 0, host_bytes = 0;
  LOOM_CHECK_CUSOLVER(cusolverDnXgetrf_bufferSize(s.handle(), s.params(), n, n, ct, lu, n, ct, &dev_bytes, &host_bytes));
  void* ws = s.workspace(dev_bytes);
  void* hws = s.host_workspace(host_bytes);
  for (std::int64_t b = 0; b < count; ++b) {
    LOOM_CHECK_CUSOLVER(cusolverDnXgetrf(s.handle(), s.params(), n, n, ct, impl::at(lu, t, b, n * n), n, ipiv + b * n,
                                         ct, ws, dev_bytes, hws, host_bytes, s.info(b)));
  }
}

// The factors of A^T in the pool: a copy of A (count n x n matrices) and its pivots.
struct Factors {
  void* lu;
  std::int64_t* ipiv;
};
Factors factor_copy(Solver& s, const loom::detail::CallArg& a, std::int64_t n, std::int64_t count, void* lu) {
  const std::size_t bytes = static_cast<std::size_t>(count * n * n) * itemsize(a.dtype);
  if (lu == nullptr) lu = s.workspace(bytes);
  s.copy(lu, a.data(), bytes);
  auto* ipiv = static_cast<std::int64_t*>(s.workspace(static_cast<std::size_t>(count * n) * sizeof(std::int64_t)));
  getrf_batch(s, a.dtype, n, count, lu, ipiv);
  return {lu, ipiv};
}

std::string getrf_text(DType t, bool solve) {
  return fmt::format("cusolverDnXgetrf{}, {}", solve ? " + cusolverDnXgetrs" : "", name(t));
}

// Many small systems, a matrix each: cuBLAS's batched LU factors and solves them all in two
// calls, where cuSOLVER takes a call (several launches) per matrix.
constexpr std::int64_t kSmallBatchN = 32;
bool small_batch(std::int64_t n, std::int64_t count, std::int64_t a_count) {
  return count > 1 && a_count == count && n <= kSmallBatchN && count <= INT_MAX;
}
std::string solve_text(DType t, std::int64_t n, std::int64_t count, std::int64_t a_count) {
  if (!small_batch(n, count, a_count)) return getrf_text(t, true);
  return fmt::format("cublasXgetrfBatched + cublasXgetrsBatched, {} systems of {}x{}, {}", count, n, n, name(t));
}

// out (count column-major n x k right-hand sides, copied from b) = the solutions with the
// matrices A^T stored at A (see the header comment), through lu_factor/solve_batched: with op T
// for solve (A X = B), op N for inv (A^T X = I, which read row-major is inv(A)).
void solve_small_batch(Solver& s, loom::detail::CallContext& ctx, const loom::detail::CallArg& A, const void* b,
                       std::int64_t n, std::int64_t k, std::int64_t count, bool transpose, bool check) {
  const DType t = A.dtype;
  const std::size_t item = itemsize(t);
  const std::size_t a_bytes = static_cast<std::size_t>(count * n * n) * item;
  void* lu = s.workspace(a_bytes);
  s.copy(lu, A.data(), a_bytes);
  s.copy(ctx.out[0], b, static_cast<std::size_t>(count * n * k) * item);
  auto* pivots = static_cast<int*>(s.workspace(static_cast<std::size_t>(count * n) * sizeof(int)));
  auto** a_ptrs = static_cast<void**>(s.workspace(static_cast<std::size_t>(count) * sizeof(void*)));
  auto** b_ptrs = static_cast<void**>(s.workspace(static_cast<std::size_t>(count) * sizeof(void*)));
  s.reserve_infos(count);
  const int ni = static_cast<int>(n), batch = static_cast<int>(count);
  rt::lu_factor_batched(ctx.device, ctx.stream, t, ni, batch, lu, a_ptrs, pivots, s.info(0));
  rt::lu_solve_batched(ctx.device, ctx.stream, t, transpose, ni, static_cast<int>(k), batch, a_ptrs, pivots, ctx.out[0],
                       b_ptrs);
  if (check) s.check_infos(kSingular);
}

// For each matrix of the broadcast batch `out`, the index of its matrix in `in`'s batch.
std::vector<std::int64_t> broadcast_index(const Shape& in, const Shape& out) {
  std::vector<std::int64_t> idx(static_cast<std::size_t>(out.numel()));
  const int off = out.size() - in.size();
  for (std::int64_t flat = 0; flat < out.numel(); ++flat) {
    std::int64_t rest = flat, src = 0, stride = 1;
    for (int d = out.size() - 1; d >= 0; --d) {
      const std::int64_t i = rest % out[d];
      rest /= out[d];
      if (d >= off) {
        const std::int64_t e = in[d - off];
        src += (e == 1 ? 0 : i) * stride;
        stride *= e;
      }
    }
    idx[static_cast<std::size_t>(flat)] = src;
  }
  return idx;
}

Array inv_impl(const Array& a, bool check) {
  impl::check_square(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const std::int64_t count = impl::batch_shape(a.shape()).numel();
  if (count * n == 0) return zeros(a.shape(), t);
  const Array eyes = eye(n, none, 0, t).broadcast_to(a.shape());
  return impl::make_call(
      "linalg.inv", solve_text(t, n, count, count), {astype(a, t), eyes}, {{t, a.shape()}},
      [n, count, check](loom::detail::CallContext& ctx) {
        Solver s(ctx, "linalg.inv");
        const auto& A = ctx.contiguous(0);
        const auto& I = ctx.contiguous(1);
        const DType t = A.dtype;
        if (small_batch(n, count, count)) return solve_small_batch(s, ctx, A, I.data(), n, n, count, false, check);
        s.reserve_infos(2 * count);
        const Factors f = factor_copy(s, A, n, count, nullptr);
        s.copy(ctx.out[0], I.data(), static_cast<std::size_t>(count * n * n) * itemsize(t));
        for (std::int64_t b = 0; b < count; ++b) {
          LOOM_CHECK_CUSOLVER(cusolverDnXgetrs(s.handle(), s.params(), CUBLAS_OP_N, n, n, impl::cuda_type(t),
                                               impl::at(f.lu, t, b, n * n), n, f.ipiv + b * n, impl::cuda_type(t),
                                               impl::at(ctx.out[0], t, b, n * n), n, s.info(count + b)));
        }
        if (check) s.check_infos(kSingular);
      })[0];
}

// The LU factors of A^T, (..., n, n) in the column-major layout getrf leaves, and the pivots.
std::pair<Array, Array> lu_factors(const Array& a, const char* fn) {
  impl::check_square(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = impl::batch_shape(a.shape());
  Shape piv_shape = batch;
  piv_shape.push_back(n);
  if (batch.numel() * n == 0) return {zeros(a.shape(), t), zeros(piv_shape, DType::Int64)};
  const std::int64_t count = batch.numel();
  // Many small matrices: cuBLAS's batched LU, with its int32 pivots.
  const bool small = small_batch(n, count, count);
  const std::string text =
      small ? fmt::format("cublasXgetrfBatched, {} matrices of {}x{}, {}", count, n, n, name(t)) : getrf_text(t, false);
  auto out = impl::make_call(
      fn, text, {astype(a, t)}, {{t, a.shape()}, {small ? DType::Int32 : DType::Int64, piv_shape}},
      [n, count, fn, small](loom::detail::CallContext& ctx) {
        Solver s(ctx, fn);
        const auto& A = ctx.contiguous(0);
        s.reserve_infos(count);  // not read: a singular A has a zero on U's diagonal, det 0
        s.copy(ctx.out[0], A.data(), static_cast<std::size_t>(count * n * n) * itemsize(A.dtype));
        if (small) {
          auto** ptrs = static_cast<void**>(s.workspace(static_cast<std::size_t>(count) * sizeof(void*)));
          rt::lu_factor_batched(ctx.device, ctx.stream, A.dtype, static_cast<int>(n), static_cast<int>(count),
                                ctx.out[0], ptrs, static_cast<int*>(ctx.out[1]), s.info(0));
          return;
        }
        getrf_batch(s, A.dtype, n, count, ctx.out[0], static_cast<std::int64_t*>(ctx.out[1]));
      });
  return {out[0], out[1]};
}

// (-1)^(number of row swaps) of each factorization, as dtype t.
Array pivot_sign(const Array& ipiv, DType t) {
  const std::int64_t n = ipiv.shape()[ipiv.ndim() - 1];
  const Array swaps = count_nonzero(ipiv != arange(1, n + 1), -1);
  return astype(1 - 2 * (swaps % 2), t);
}

}  // namespace

Array solve(const Array& a, const Array& b) {
  impl::check_square(a);
  const DType t = impl::solver_type(a.dtype(), b.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const bool vector = b.ndim() == 1;
  const char* ufunc = vector ? "solve1" : "solve";
  const char* signature = vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  if (b.ndim() == 0) {
    throw ValueError(
        "solve1: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature "
        "(m,m),(m)->(m) requires 1)");
  }
  const std::int64_t bm = b.shape()[b.ndim() - (vector ? 1 : 2)];
  if (bm != n) {
    throw ValueError(fmt::format(
        "{}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {} (size {} is "
        "different from {})",
        ufunc, signature, bm, n));
  }
  const std::int64_t k = vector ? 1 : b.shape()[b.ndim() - 1];
  const Shape a_batch = impl::batch_shape(a.shape());
  const Shape batch = loom::detail::broadcast_shapes(a_batch, vector ? Shape{} : impl::batch_shape(b.shape()));
  Shape out_shape = batch;
  if (!vector) out_shape.push_back(k);
  out_shape.push_back(n);  // X^T per matrix: column-major X
  const auto finish = [&](const Array& x) { return vector ? x : x.swapaxes(-1, -2); };
  const std::int64_t count = batch.numel();
  if (count * n * k == 0) return finish(zeros(out_shape, t));

  Shape b_full = batch;
  b_full.push_back(n);
  if (!vector) b_full.push_back(k);
  const Array bt = vector ? astype(b, t).broadcast_to(b_full) : astype(b, t).broadcast_to(b_full).swapaxes(-1, -2);
  const std::int64_t a_count = a_batch.numel();
  std::vector<std::int64_t> a_of = a_count == 1 ? std::vector<std::int64_t>{} : broadcast_index(a_batch, batch);
  return finish(impl::make_call(
      "linalg.solve", solve_text(t, n, count, a_count), {astype(a, t), bt}, {{t, out_shape}},
      [n, k, count, a_count, a_of](loom::detail::CallContext& ctx) {
        Solver s(ctx, "linalg.solve");
        const auto& A = ctx.contiguous(0);
        const auto& B = ctx.contiguous(1);
        const DType t = A.dtype;
        if (small_batch(n, count, a_count)) return solve_small_batch(s, ctx, A, B.data(), n, k, count, true, true);
        const cudaDataType ct = impl::cuda_type(t);
        s.reserve_infos(a_count + count);
        const Factors f = factor_copy(s, A, n, a_count, nullptr);
        s.copy(ctx.out[0], B.data(), static_cast<std::size_t>(count * n * k) * itemsize(t));
        if (a_count == 1) {  // one A: every right-hand side of the batch in one solve
          LOOM_CHECK_CUSOLVER(cusolverDnXgetrs(s.handle(), s.params(), CUBLAS_OP_T, n, count * k, ct, f.lu, n, f.ipiv,
                                               ct, ctx.out[0], n, s.info(a_count)));
        } else {
          for (std::int64_t i = 0; i < count; ++i) {
            const std::int64_t ai = a_of[static_cast<std::size_t>(i)];
            LOOM_CHECK_CUSOLVER(cusolverDnXgetrs(s.handle(), s.params(), CUBLAS_OP_T, n, k, ct,
                                                 impl::at(f.lu, t, ai, n * n), n, f.ipiv + ai * n, ct,
                                                 impl::at(ctx.out[0], t, i, n * k), n, s.info(a_count + i)));
          }
        }
        s.check_infos(kSingular);
      })[0]);
}

Array inv(const Array& a) { return inv_impl(a, true); }
Array impl::inv_unchecked(const Array& a) { return inv_impl(a, false); }

Array det(const Array& a) {
  const auto [lu, ipiv] = lu_factors(a, "linalg.det");
  return prod(impl::diagonal(lu), -1) * pivot_sign(ipiv, lu.dtype());
}

SlogdetResult slogdet(const Array& a) {
  const auto [lu, ipiv] = lu_factors(a, "linalg.slogdet");
  const Array d = impl::diagonal(lu);
  const Array mag = abs(d);
  const Array unit = where(mag == 0, 0, d / mag);  // sign(d), or d/|d| for complex; 0 when singular
  return {prod(unit, -1) * pivot_sign(ipiv, lu.dtype()), sum(log(mag), -1)};
}

}  // namespace loom::linalg
