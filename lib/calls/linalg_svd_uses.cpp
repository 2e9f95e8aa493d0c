// What loom::linalg derives from the SVD and from inv (include/loom/linalg.hpp): lstsq, pinv,
// matrix_rank and cond, as NumPy 2's linalg.py writes them. The products are fused
// multiply-and-sum reductions (impl::product), the thresholds and masks fused elementwise ops.

#include <algorithm>
#include <cfloat>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/linalg.hpp>
#include <loom/ops.hpp>

#include "calls/linalg_common.hpp"
#include "graph/promotion.hpp"

namespace loom::linalg {

namespace {

double eps_of(DType t) { return t == DType::Float32 || t == DType::Complex64 ? FLT_EPSILON : DBL_EPSILON; }

// 1/s where s > cutoff, else 0.
Array inverse_above(const Array& s, const Array& cutoff) { return where(s > cutoff, 1 / s, 0); }

}  // namespace

LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond) {
  const bool vector = b.ndim() == 1;
  const Array b2 = vector ? b.expand_dims(-1) : b;
  impl::check_2d(a);
  impl::check_2d(b2);
  const std::int64_t m = a.shape()[0], n = a.shape()[1], k = b2.shape()[1];
  if (b2.shape()[0] != m) throw LinAlgError("Incompatible dimensions");
  const DType t = impl::solver_type(a.dtype(), b.dtype()), rt = loom::detail::real_type_for(t);
  const double cut = rcond.value_or(eps_of(t) * static_cast<double>(std::max(m, n)));
  const Array A = astype(a, t), B = astype(b2, t);

  Array x, s;
  std::int32_t rank = 0;  // NumPy's lstsq gives the rank as int32
  if (std::min(m, n) == 0) {
    x = zeros({n, k}, t);
    s = zeros({0}, rt);
  } else {
    const SVDResult usv = impl::svd_named(A, false, "linalg.lstsq");
    s = usv.S;
    const Array large = s > cut * max(s, -1, true);
    rank = static_cast<std::int32_t>(count_nonzero(large).item<std::int64_t>());  // evaluates the SVD: the rank decides a shape
    const Array sinv = where(large, 1 / s, 0);
    x = impl::product(impl::adjoint(usv.Vh), sinv.expand_dims(-1) * impl::product(impl::adjoint(usv.U), B));
  }
  Array residuals = zeros({0}, rt);
  if (rank == n && m > n) residuals = sum(square(abs(B - impl::product(A, x))), 0);
  return {vector ? x.squeeze(-1) : x, residuals, rank, s};
}

Array pinv(const Array& a, double rcond, bool /*hermitian*/) {
  impl::check_stacked_2d(a);
  const DType t = impl::solver_type(a.dtype());
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const Shape batch = impl::batch_shape(a.shape());
  if (batch.numel() * m * n == 0) return zeros(impl::with_matrix(batch, n, m), t);
  const SVDResult usv = impl::svd_named(astype(a, t), false, "linalg.pinv");
  const Array sinv = inverse_above(usv.S, rcond * max(usv.S, -1, true));
  return impl::product(impl::adjoint(usv.Vh), sinv.expand_dims(-1) * impl::adjoint(usv.U));
}

Array matrix_rank(const Array& a, std::optional<double> tol, bool /*hermitian*/, std::optional<double> rtol) {
  if (tol && rtol) throw ValueError("`tol` and `rtol` can't be both set.");
  if (a.ndim() < 2) return astype(any(a != 0), DType::Int64);
  const Array s = impl::singular_values(a, "linalg.matrix_rank");
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const Array threshold =
      tol ? Array(*tol) : max(s, -1, true) * rtol.value_or(static_cast<double>(std::max(m, n)) * eps_of(s.dtype()));
  return count_nonzero(s > threshold, -1);
}

Array cond(const Array& x, const NormOrd& p) {
  if (x.size() == 0 && (x.ndim() < 2 || x.shape()[x.ndim() - 1] * x.shape()[x.ndim() - 2] == 0)) {
    throw LinAlgError("cond is not defined on empty arrays");
  }
  const DType t = impl::solver_type(x.dtype());
  const Array xt = astype(x, t);
  Array r;
  if (p.is_none() || (p.number() && (*p.number() == 2 || *p.number() == -2))) {
    const Array s = impl::singular_values(xt, "linalg.cond");
    const Array first = s.slice(-1, 0, 1).squeeze(-1), last = s.slice(-1, -1, std::nullopt).squeeze(-1);
    r = p.is_none() || *p.number() == 2 ? first / last : last / first;
  } else {
    impl::check_square(xt);
    const Axes mat{-2, -1};
    r = astype(norm(xt, p, mat) * norm(impl::inv_unchecked(xt), p, mat), t);  // NumPy: result_t
  }
  // NaN (a singular matrix) becomes inf, unless the matrix held a NaN.
  return where(isnan(r) & !any(isnan(xt), {-2, -1}), inf, r);
}

}  // namespace loom::linalg
