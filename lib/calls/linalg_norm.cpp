// np.linalg.norm (include/loom/linalg.hpp), built from reductions as NumPy's linalg.py builds
// it: vector norms along one axis, matrix norms over two, by default the 2-norm of the flattened
// array. Every step keeps the reduced dims (keepdims) and the result drops them at the end.
// The matrix norms 2, -2 and "nuc" reduce the singular values (a cuSOLVER call).

#include <loom/linalg.hpp>

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "calls/linalg_common.hpp"
#include "graph/promotion.hpp"

namespace loom::linalg {

namespace {

bool is_fro(const NormOrd& ord) { return ord.name() == "fro" || ord.name() == "f"; }
bool is_number(const NormOrd& ord, double p) { return ord.number() && *ord.number() == p; }

// sum(|x|^2) over the axes; for complex x, real^2 + imag^2 (no square root inside).
Array sum_abs2(const Array& x, const Axes& axes, bool keepdims = true) {
  const Array sq = is_complex(x.dtype()) ? square(real(x)) + square(imag(x)) : square(x);
  return sum(sq, axes, keepdims);
}

Array vector_norm(const Array& x, const NormOrd& ord, int axis) {
  if (!ord.name().empty()) {
    throw ValueError(fmt::format("Invalid norm order '{}' for vectors", ord.name()));
  }
  const double p = ord.is_none() ? 2.0 : *ord.number();
  if (p == inf) return max(abs(x), axis, true);
  if (p == -inf) return min(abs(x), axis, true);
  if (p == 0) return sum(astype(x != 0, detail::real_type_for(x.dtype())), axis, true);
  if (p == 1) return sum(abs(x), axis, true);
  if (p == 2) return sqrt(sum_abs2(x, axis));
  return power(sum(power(abs(x), p), axis, true), 1.0 / p);
}

// NumPy's _multi_svd_norm: the max, min or sum of the singular values of x with the two axes
// moved last, the reduced dims kept. `given`: the user's dtype (float16 is refused as by svd).
Array svd_norm(const Array& x, const NormOrd& ord, int row, int col, DType given) {
  impl::solver_type(given);
  std::vector<std::int64_t> perm;
  for (int i = 0; i < x.ndim(); ++i) {
    if (i != row && i != col) perm.push_back(i);
  }
  perm.push_back(row);
  perm.push_back(col);
  const Array s = impl::singular_values(x.transpose(Shape(perm)), "linalg.norm");
  const Array r = ord.name() == "nuc" ? sum(s, -1) : is_number(ord, 2) ? max(s, -1) : min(s, -1);
  return r.expand_dims(std::min(row, col)).expand_dims(std::max(row, col));
}

Array matrix_norm(const Array& x, const NormOrd& ord, int row, int col, DType given) {
  if (row == col) throw ValueError("Duplicate axes given.");
  if (ord.is_none() || is_fro(ord)) return sqrt(sum_abs2(x, {row, col}));
  if (ord.name() == "nuc" || is_number(ord, 2) || is_number(ord, -2)) return svd_norm(x, ord, row, col, given);
  // 1 / -1: the largest / smallest column sum; inf / -inf: the same over rows.
  if (is_number(ord, 1)) return max(sum(abs(x), row, true), col, true);
  if (is_number(ord, -1)) return min(sum(abs(x), row, true), col, true);
  if (is_number(ord, inf)) return max(sum(abs(x), col, true), row, true);
  if (is_number(ord, -inf)) return min(sum(abs(x), col, true), row, true);
  throw ValueError("Invalid norm order for matrices.");
}

}  // namespace

Array norm(const Array& x, const NormOrd& ord, const Axes& axis, bool keepdims) {
  const DType t = x.dtype();
  const int nd = x.ndim();
  // NumPy computes in float64 for bool and ints; we compute 16-bit floats in float32.
  const DType in = is_inexact(t) ? t : DType::Float64;
  const DType out = detail::real_type_for(in);
  const Array xf = astype(x, is_half(in) ? DType::Float32 : in);
  const auto finish = [&](Array r, std::vector<int> axes) {
    if (!keepdims) {
      std::sort(axes.rbegin(), axes.rend());
      for (int a : axes) r = r.squeeze(a);
    }
    return astype(r, out);
  };

  std::vector<int> axes;
  if (axis.is_all()) {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
    // NumPy's fast path: the 2-norm of the flattened array (reduced to the shape asked for, no
    // squeeze view after it: one node fewer to build on each call).
    if (ord.is_none() || (is_fro(ord) && nd == 2) || (is_number(ord, 2) && nd == 1)) {
      return astype(sqrt(sum_abs2(xf, Axes{}, keepdims)), out);
    }
  } else if (axis.list().size() == 1 || axis.list().size() == 2) {
    for (std::int64_t a : axis.list()) axes.push_back(detail::normalize_axis(a, nd));
  }
  if (axes.size() == 1) return finish(vector_norm(xf, ord, axes[0]), axes);
  if (axes.size() == 2) return finish(matrix_norm(xf, ord, axes[0], axes[1], t), axes);
  throw ValueError("Improper number of dimensions to norm.");
}

}  // namespace loom::linalg
