// dot, vdot, inner, outer and tensordot, written as NumPy writes them: through matmul (a cuBLAS
// GEMM call, or a fused reduction for integers) plus views and reshapes, or elementwise.

#include <loom/blas.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "calls/blas.hpp"

namespace loom {

namespace {

// NumPy's dot/inner message: "shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)".
[[noreturn]] void not_aligned(const Shape& a, const Shape& b, int ia, int ib) {
  throw ShapeError(fmt::format("shapes {} and {} not aligned: {} (dim {}) != {} (dim {})", detail::compact(a),
                               detail::compact(b), a[ia], ia, b[ib], ib));
}

std::int64_t product(const Shape& s, const std::vector<int>& axes) {
  std::int64_t p = 1;
  for (int ax : axes) p *= s[ax];
  return p;
}

}  // namespace

Array tensordot(const Array& a, const Array& b, const TensordotAxes& axes) {
  const Shape as = detail::leaf_of(a, "tensordot")->shape, bs = detail::leaf_of(b, "tensordot")->shape;
  std::vector<std::int64_t> given_a = axes.a(), given_b = axes.b();
  if (axes.is_count()) {
    given_a.clear();
    given_b.clear();
    for (int i = 0; i < axes.count(); ++i) {
      given_a.push_back(i - axes.count());
      given_b.push_back(i);
    }
  }
  std::vector<int> axes_a, axes_b;
  for (std::int64_t ax : given_a) axes_a.push_back(detail::normalize_axis(ax, as.size()));
  for (std::int64_t ax : given_b) axes_b.push_back(detail::normalize_axis(ax, bs.size()));
  bool equal = axes_a.size() == axes_b.size();
  for (std::size_t i = 0; equal && i < axes_a.size(); ++i) equal = as[axes_a[i]] == bs[axes_b[i]];
  if (!equal) throw ShapeError("shape-mismatch for sum");

  // a's other axes then the summed ones, as an (M, N) matrix; b's summed axes then the others,
  // as (N, P); the product reshaped to a's other extents then b's.
  const auto others = [](int nd, const std::vector<int>& summed) {
    std::vector<int> rest;
    for (int k = 0; k < nd; ++k) {
      if (std::find(summed.begin(), summed.end(), k) == summed.end()) rest.push_back(k);
    }
    return rest;
  };
  const std::vector<int> rest_a = others(as.size(), axes_a), rest_b = others(bs.size(), axes_b);
  Shape perm_a, perm_b, out;
  for (int k : rest_a) perm_a.push_back(k);
  for (int k : axes_a) perm_a.push_back(k);
  for (int k : axes_b) perm_b.push_back(k);
  for (int k : rest_b) perm_b.push_back(k);
  for (int k : rest_a) out.push_back(as[k]);
  for (int k : rest_b) out.push_back(bs[k]);
  const std::int64_t n = product(as, axes_a);
  const Array at = a.transpose(perm_a).reshape({product(as, rest_a), n});
  const Array bt = b.transpose(perm_b).reshape({n, product(bs, rest_b)});
  return matmul(at, bt).reshape(out);
}

Array dot(const Array& a, const Array& b) {
  const Shape as = detail::leaf_of(a, "dot")->shape, bs = detail::leaf_of(b, "dot")->shape;
  if (as.empty() || bs.empty()) return multiply(a, b);
  const int ib = bs.size() == 1 ? 0 : bs.size() - 2;
  if (as.back() != bs[ib]) not_aligned(as, bs, as.size() - 1, ib);
  if (bs.size() == 1 || (as.size() <= 2 && bs.size() == 2)) return matmul(a, b);
  return tensordot(a, b, {{-1}, {-2}});
}

Array vdot(const Array& a, const Array& b) {
  const Array x = a.ravel(), y = b.ravel();
  if (x.size() != y.size()) {
    throw ShapeError(fmt::format("cannot reshape array of size {} into shape ({},)", y.size(), x.size()));
  }
  return detail::matmul_impl(x, y, true);
}

Array inner(const Array& a, const Array& b) {
  const Shape as = detail::leaf_of(a, "inner")->shape, bs = detail::leaf_of(b, "inner")->shape;
  if (as.empty() || bs.empty()) return multiply(a, b);
  if (as.back() != bs.back()) {
    // NumPy reports it as dot(a, b with its last two axes swapped).
    Shape swapped = bs;
    if (bs.size() >= 2) std::swap(swapped[bs.size() - 1], swapped[bs.size() - 2]);
    not_aligned(as, swapped, as.size() - 1, bs.size() >= 2 ? bs.size() - 2 : 0);
  }
  if (bs.size() == 1) return matmul(a, b);
  return tensordot(a, b, {{-1}, {-1}});
}

Array outer(const Array& a, const Array& b) { return multiply(a.ravel().expand_dims(1), b.ravel().expand_dims(0)); }

Array Array::dot(const Array& b) const { return loom::dot(*this, b); }

}  // namespace loom
