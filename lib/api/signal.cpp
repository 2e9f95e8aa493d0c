// Window functions and polynomial helpers (include/loom/signal.hpp): NumPy's formulas, step by
// step (numpy/lib/_function_base_impl.py, numpy/lib/_polynomial_impl.py), built of generators and
// ops of the table so they fuse.

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

}  // namespace

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
