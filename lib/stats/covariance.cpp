// cov and corrcoef (include/loom/statistics.hpp), as np.cov computes them: the variables as rows
// in the result dtype, their (weighted) means, one GEMM of the centred rows with their (weighted)
// conjugate transpose, scaled by 1 / (weight sum - ddof); corrcoef divides by the outer product of
// the square roots of the diagonal and clips to [-1, 1]. The weights' checks read them back (NumPy
// refuses non-integer or negative frequencies); nothing else is read.

#include <complex>

#include <loom/blas.hpp>
#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/statistics.hpp>

namespace loom {

namespace {

// A 1-d weight vector (float64) for the n observations, checked as np.cov checks it. NumPy's
// RuntimeErrors for the shapes are ShapeErrors here.
Array checked_weights(const Array& w, std::int64_t n, const char* name, bool integer) {
  const Array f = w.astype(DType::Float64);
  if (integer && !alltrue(f == around(f)).item<bool>()) throw DTypeError("fweights must be integer");
  if (f.ndim() > 1) throw ShapeError(std::string("cannot handle multidimensional ") + name);
  if (f.ndim() == 0 || f.shape()[0] != n) throw ShapeError(std::string("incompatible numbers of samples and ") + name);
  if (any(f < 0).item<bool>()) throw ValueError(std::string(name) + " cannot be negative");
  return f;
}

}  // namespace

Array cov(const Array& m, const CovOptions& o) {
  if (m.ndim() > 2) throw ValueError("m has more than 2 dimensions");
  if (o.y && o.y->ndim() > 2) throw ValueError("y has more than 2 dimensions");
  const Array f64 = full(Shape{}, 0.0, DType::Float64);
  const DType dt = o.dtype ? *o.dtype : result_type(o.y ? full(Shape{}, 0, result_type(m, *o.y)) : m, f64);
  Array x = atleast_2d(m).astype(dt);
  if (!o.rowvar && m.ndim() != 1) x = x.T();
  if (x.shape()[0] == 0) return zeros({0, 0});
  if (o.y) {
    Array y = atleast_2d(*o.y).astype(dt);
    if (!o.rowvar && y.shape()[0] != 1) y = y.T();
    x = concatenate({x, y}, 0);
  }
  const std::int64_t ddof = o.ddof ? *o.ddof : (o.bias ? 0 : 1);
  const std::int64_t n = x.shape()[1];
  std::optional<Array> w, aw;
  if (o.fweights) w = checked_weights(*o.fweights, n, "fweights", true);
  if (o.aweights) {
    aw = checked_weights(*o.aweights, n, "aweights", false);
    w = w ? *w * *aw : *aw;
  }
  Array avg, fact;
  if (w) {
    const Array w_sum = sum(*w);
    avg = sum(x * *w, 1) / w_sum;
    fact = ddof == 0 ? w_sum : !aw ? w_sum - ddof : w_sum - ddof * sum(*w * *aw) / w_sum;
    fact = where(fact <= 0, Array(0.0), fact);
  } else {
    avg = mean(x, 1);
    fact = Array(static_cast<double>(std::max<std::int64_t>(n - ddof, 0)));
  }
  const Array xc = (x - avg.expand_dims(1)).astype(dt);
  const Array xt = (w ? xc * *w : xc).T();
  const Array c = matmul(xc, xt.conj());
  return (c * (1.0 / fact)).astype(c.dtype()).squeeze();
}

Array corrcoef(const Array& x, const std::optional<Array>& y, bool rowvar, std::optional<DType> dtype) {
  CovOptions o;
  o.y = y;
  o.rowvar = rowvar;
  o.dtype = dtype;
  const Array c = cov(x, o);
  if (c.ndim() == 0) return c / c;
  const Array sd = sqrt(diagonal(c).real());
  const Array r = (c / sd.expand_dims(1) / sd.expand_dims(0)).astype(c.dtype());
  if (!is_complex(r.dtype())) return clip(r, Array(-1), Array(1));
  return (clip(r.real(), Array(-1), Array(1)) +
          clip(r.imag(), Array(-1), Array(1)) * Array(std::complex<double>(0, 1)))
      .astype(r.dtype());
}

}  // namespace loom
