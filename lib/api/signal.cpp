// Window functions and polynomial helpers (include/loom/signal.hpp): NumPy's formulas, step by
// step (numpy/lib/_function_base_impl.py, numpy/lib/_polynomial_impl.py), built of generators and
// ops of the table so they fuse.

#include <array>
#include <numbers>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/signal.hpp>

#include "api/builders.hpp"

namespace loom {

namespace {

constexpr double kPi = std::numbers::pi;

// n = arange(1 - M, M, 2) (float64), the positions every window is a function of; nullopt when
// M < 2 (the window is then empty or a single 1).
std::optional<Array> positions(std::int64_t M, Array* trivial) {
  if (M < 1) {
    *trivial = zeros({0}, DType::Float64);
    return std::nullopt;
  }
  if (M == 1) {
    *trivial = ones({1}, DType::Float64);
    return std::nullopt;
  }
  const double m = static_cast<double>(M);
  return arange(1.0 - m, m, 2.0);
}

// pi * n / (M - 1), in NumPy's order.
Array phase(const Array& n, std::int64_t M, double scale) {
  return Array(scale * kPi) * n / Array(static_cast<double>(M - 1));
}

// Cephes' Chebyshev coefficients for i0 on [0, 8] (kI0Low, in x / 2 - 2) and (8, inf) (kI0High,
// in 32 / x - 2), the values NumPy's i0 uses.
constexpr std::array<double, 30> kI0Low{
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1};
constexpr std::array<double, 25> kI0High{
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7, 2.89137052083475648297E-6,
    6.88975834691682398426E-5, 3.36911647825569408990E-3, 8.04490411014108831608E-1};

// The Chebyshev series sum by Clenshaw's recurrence, as NumPy's _chbevl: x's dtype throughout.
template <std::size_t N>
Array chebyshev(const Array& x, const std::array<double, N>& c) {
  Array b0 = Array(c[0]).astype(x.dtype()), b1 = Array(0.0).astype(x.dtype()), b2 = b1;
  for (std::size_t i = 1; i < N; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5 * (b0 - b2);
}

}  // namespace

Array i0(const Array& x_in) {
  if (is_complex(x_in.dtype())) throw DTypeError("i0 not supported for complex values");
  const Array x = abs(is_inexact(x_in.dtype()) ? x_in : x_in.astype(DType::Float64));
  const Array low = exp(x) * chebyshev(x / 2.0 - 2, kI0Low);
  const Array half = exp(0.5 * x);
  const Array high = half * (chebyshev(32.0 / x - 2.0, kI0High) / sqrt(x)) * half;
  return where(x <= 8.0, low, high);
}

Array kaiser(std::int64_t M, double beta) {
  if (M == 1) return ones({1}, DType::Float64);
  if (M < 1) return zeros({0}, DType::Float64);
  const double m = static_cast<double>(M);
  const Array n = arange(0.0, m, 1.0);
  const double alpha = (m - 1) / 2.0;
  return i0(beta * sqrt(1.0 - power((n - alpha) / alpha, Array(2.0)))) / i0(Array(beta));
}

Array bartlett(std::int64_t M) {
  Array trivial;
  const auto n = positions(M, &trivial);
  if (!n) return trivial;
  const Array r = *n / Array(static_cast<double>(M - 1));
  return where(less_equal(*n, Array(0.0)), Array(1.0) + r, Array(1.0) - r);
}

Array blackman(std::int64_t M) {
  Array trivial;
  const auto n = positions(M, &trivial);
  if (!n) return trivial;
  return Array(0.42) + Array(0.5) * cos(phase(*n, M, 1.0)) + Array(0.08) * cos(phase(*n, M, 2.0));
}

Array hamming(std::int64_t M) {
  Array trivial;
  const auto n = positions(M, &trivial);
  if (!n) return trivial;
  return Array(0.54) + Array(0.46) * cos(phase(*n, M, 1.0));
}

Array hanning(std::int64_t M) {
  Array trivial;
  const auto n = positions(M, &trivial);
  if (!n) return trivial;
  return Array(0.5) + Array(0.5) * cos(phase(*n, M, 1.0));
}

namespace {

void check_coefficients(const Array& p, const char* fn) {
  if (p.ndim() != 1) {
    throw ValueError(fmt::format("{}: the coefficients must be a 1-d array, not of shape {}", fn, detail::compact(p.shape())));
  }
}

// A 0-d view of p[k] (a strong scalar of p's dtype, as iterating a NumPy array gives).
Array element(const Array& p, std::int64_t k) {
  const Index idx[] = {Index(k)};
  return detail::basic_view(p, idx);
}

}  // namespace

Array polyval(const Array& p, const Array& x) {
  check_coefficients(p, "polyval");
  Array y = zeros_like(x);
  for (std::int64_t k = 0; k < p.shape()[0]; ++k) y = y * x + element(p, k);
  return y;
}

Array polyder(const Array& p, int m) {
  if (m < 0) throw ValueError("Order of derivative must be positive (see polyint)");
  check_coefficients(p, "polyder");
  Array val = p;
  for (int k = 0; k < m; ++k) {
    const std::int64_t n = val.shape()[0] - 1;
    if (n < 0) break;  // (NumPy: the derivative of no coefficients is none)
    const Index head[] = {Index(Slice(std::nullopt, -1, std::nullopt))};
    val = detail::basic_view(val, head) * arange(n, std::int64_t{0}, std::int64_t{-1});
  }
  return val;
}

Array polyint(const Array& p, int m, double k) {
  if (m < 0) throw ValueError("Order of integral must be positive (see polyder)");
  check_coefficients(p, "polyint");
  Array val = p;
  for (int i = 0; i < m; ++i) {
    const std::int64_t n = val.shape()[0];
    val = concatenate({true_divide(val, arange(n, std::int64_t{0}, std::int64_t{-1})), full({1}, k)});
  }
  return val;
}

}  // namespace loom
