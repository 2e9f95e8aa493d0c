// loom::random's continuous samplers beyond cuRAND's (include/loom/random.hpp). Closed forms are
// fused elementwise work on uniform draws (NumPy's formulas, numpy/random/src/distributions);
// gamma, beta and von Mises are counter-based sampler calls (runtime/libs/sampler.hpp), and
// dirichlet, chisquare and standard_t are fused work on gamma draws. Parameter errors are NumPy's.

#include <loom/random.hpp>

#include <cmath>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"
#include "calls/random_common.hpp"
#include "calls/random_draw.hpp"

namespace loom::random {

namespace {

using common::check_float;
using common::check_non_negative;
using common::check_positive;
using rt::SamplerKind;

int kind_of(SamplerKind k) { return static_cast<int>(k); }

Shape with_last(Shape s, std::int64_t k) {
  s.push_back(k);
  return s;
}

}  // namespace

Array Generator::sampled(const char* op, int kind, const Shape& shape, std::int64_t elements, double a, double b,
                         double c, const Array* vec) {
  common::check_shape(shape, op);
  const auto k = static_cast<SamplerKind>(kind);
  if (shape.numel() == 0) return zeros(shape, rt::sampler_is_integer(k) ? DType::Int64 : DType::Float64);
  rt::SamplerArgs args;
  args.kind = k;
  args.seed = seed_;
  args.block0 = reserve(4 * static_cast<std::uint64_t>(elements)) / 4;  // one home block per element
  args.n = elements;
  args.a = a;
  args.b = b;
  args.c = c;
  args.k = vec ? vec->size() : 0;
  return detail::make_sample(op, args, vec).reshape(shape);
}

Array Generator::standard_gamma(double shape, const Shape& size, DType dtype) {
  check_float(dtype, "standard_gamma");
  check_non_negative(shape, "shape");
  return sampled("standard_gamma", kind_of(SamplerKind::StandardGamma), size, size.numel(), shape).astype(dtype);
}

Array Generator::gamma(double shape, double scale, const Shape& size) {
  check_non_negative(shape, "shape");
  check_non_negative(scale, "scale");
  return sampled("gamma", kind_of(SamplerKind::StandardGamma), size, size.numel(), shape) * scale;
}

Array Generator::beta(double a, double b, const Shape& size) {
  check_positive(a, "a");
  check_positive(b, "b");
  return sampled("beta", kind_of(SamplerKind::Beta), size, size.numel(), a, b);
}

// Gammas normalised, from their logs: exp(l - max l) / sum(exp(l - max l)) along the last axis,
// so rows of tiny alphas (whose gammas underflow to 0) still sum to 1.
Array Generator::dirichlet(const Array& alpha, const Shape& size) {
  if (alpha.ndim() != 1) throw ValueError(fmt::format("dirichlet: alpha must be 1-dimensional, not {}-d", alpha.ndim()));
  const std::vector<double> values = alpha.astype(DType::Float64).to_host<double>();
  for (double v : values) {
    if (v < 0) throw ValueError("alpha < 0");
    if (std::isnan(v)) throw ValueError("alpha contains NaNs");
  }
  const std::int64_t k = alpha.size();
  const Shape out = with_last(size, k);
  if (out.numel() == 0) return zeros(out, DType::Float64);  // (no max over an empty axis)
  const Array shapes = asarray(values);
  const Array l = sampled("dirichlet", kind_of(SamplerKind::LogGamma), out, out.numel(), 0, 0, 0, &shapes);
  const Array e = exp(l - max(l, -1, true));
  return e / sum(e, -1, true);
}

Array Generator::chisquare(double df, const Shape& size) {
  check_positive(df, "df");
  return sampled("chisquare", kind_of(SamplerKind::StandardGamma), size, size.numel(), df / 2) * 2.0;
}

// sqrt(df / 2) Z / sqrt(G), G ~ Gamma(df / 2): NumPy's construction.
Array Generator::standard_t(double df, const Shape& size) {
  check_positive(df, "df");
  const Array z = normals("standard_t", size, DType::Float64);
  const Array g = sampled("standard_t", kind_of(SamplerKind::StandardGamma), size, size.numel(), df / 2);
  return z * std::sqrt(df / 2) / sqrt(g);
}

// Inversion on u in (0, 1): log(2u) below 1/2, -log(2 - 2u) above (2 - 2u is exact there).
Array Generator::laplace(double loc, double scale, const Shape& size) {
  check_non_negative(scale, "scale");
  const Array u = open_unit("laplace", size);
  return where(u < 0.5, log(u * 2.0), -log(2.0 - u * 2.0)) * scale + loc;
}

Array Generator::logistic(double loc, double scale, const Shape& size) {
  check_non_negative(scale, "scale");
  const Array u = open_unit("logistic", size);
  return log(u / (1.0 - u)) * scale + loc;
}

// E^(1/a) for E standard exponential (-log u, u in (0, 1): E > 0); a = 0 gives 0, as NumPy's.
Array Generator::weibull(double a, const Shape& size) {
  check_non_negative(a, "a");
  if (a == 0) return zeros(size, DType::Float64);
  return power(-log(open_unit("weibull", size)), Array(1.0 / a));
}

Array Generator::pareto(double a, const Shape& size) {
  check_positive(a, "a");
  return expm1(-log(open_unit("pareto", size)) / a);
}

Array Generator::rayleigh(double scale, const Shape& size) {
  check_non_negative(scale, "scale");
  return sqrt(-log(open_unit("rayleigh", size)) * 2.0) * scale;
}

Array Generator::vonmises(double mu, double kappa, const Shape& size) {
  check_non_negative(kappa, "kappa");
  return sampled("vonmises", kind_of(SamplerKind::VonMises), size, size.numel(), mu, kappa);
}

Array Generator::triangular(double left, double mode, double right, const Shape& size) {
  if (left > mode) throw ValueError("left > mode");
  if (mode > right) throw ValueError("mode > right");
  if (left == right) throw ValueError("left == right");
  const double base = right - left, left_base = mode - left;
  const double ratio = left_base / base, left_prod = left_base * base, right_prod = (right - mode) * base;
  const Array u = unit("triangular", size, DType::Float64);
  return where(u <= ratio, sqrt(u * left_prod) + left, right - sqrt((1.0 - u) * right_prod));
}

Array standard_gamma(double shape, const Shape& size, DType dtype) {
  return default_generator().standard_gamma(shape, size, dtype);
}
Array gamma(double shape, double scale, const Shape& size) { return default_generator().gamma(shape, scale, size); }
Array beta(double a, double b, const Shape& size) { return default_generator().beta(a, b, size); }
Array dirichlet(const Array& alpha, const Shape& size) { return default_generator().dirichlet(alpha, size); }
Array chisquare(double df, const Shape& size) { return default_generator().chisquare(df, size); }
Array standard_t(double df, const Shape& size) { return default_generator().standard_t(df, size); }
Array laplace(double loc, double scale, const Shape& size) { return default_generator().laplace(loc, scale, size); }
Array logistic(double loc, double scale, const Shape& size) { return default_generator().logistic(loc, scale, size); }
Array weibull(double a, const Shape& size) { return default_generator().weibull(a, size); }
Array pareto(double a, const Shape& size) { return default_generator().pareto(a, size); }
Array rayleigh(double scale, const Shape& size) { return default_generator().rayleigh(scale, size); }
Array vonmises(double mu, double kappa, const Shape& size) { return default_generator().vonmises(mu, kappa, size); }
Array triangular(double left, double mode, double right, const Shape& size) {
  return default_generator().triangular(left, mode, right, size);
}

}  // namespace loom::random
