// The functions of include/loom/ops.hpp that answer with a value on the host, so they run what
// they build (here, above the API layer, as Array::item does): allclose, array_equal and
// array_equiv are one fused reduction each (all of an elementwise test, one read of each input)
// and give a bool, as NumPy's do; real_if_close reads whether the imaginary parts are small,
// because its result's dtype depends on them.

#include <cfloat>

#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

namespace loom {

bool allclose(const Array& a, const Array& b, double rtol, double atol, bool equal_nan) {
  return all(isclose(a, b, rtol, atol, equal_nan)).item<bool>();
}

bool array_equal(const Array& a, const Array& b, bool equal_nan) {
  if (a.shape() != b.shape()) return false;
  Array same = equal(a, b);
  if (equal_nan) same = logical_or(same, logical_and(isnan(a), isnan(b)));
  return all(same).item<bool>();
}

bool array_equiv(const Array& a, const Array& b) {
  try {
    (void)broadcast_shapes(a.shape(), b.shape());
  } catch (const ShapeError&) {
    return false;
  }
  return all(equal(a, b)).item<bool>();
}

Array real_if_close(const Array& a, double tol) {
  if (!is_complex(a.dtype())) return a;
  if (tol > 1) tol *= a.dtype() == DType::Complex64 ? static_cast<double>(FLT_EPSILON) : DBL_EPSILON;
  return all(less(absolute(imag(a)), Array(tol))).item<bool>() ? real(a) : a;
}

}  // namespace loom
