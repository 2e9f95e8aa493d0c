#pragma once
// Shared helpers of loom's tests: an exception-message matcher, random host data per dtype, and
// comparison of two host arrays with tolerances chosen per dtype.

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <loom/loom.hpp>

#include "reference/evaluator.hpp"

namespace loom::test {

// REQUIRE_THROWS_MATCHES(expr, loom::ShapeError, WhatContains("could not be broadcast"))
class WhatContains : public Catch::MatcherBase<std::exception> {
 public:
  explicit WhatContains(std::string part) : part_(std::move(part)) {}
  bool match(const std::exception& e) const override {
    return std::string(e.what()).find(part_) != std::string::npos;
  }
  std::string describe() const override { return "what() contains \"" + part_ + "\""; }

 private:
  std::string part_;
};

inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> v = {
      DType::Bool,    DType::Int8,     DType::Int16,   DType::Int32,   DType::Int64,
      DType::UInt8,   DType::UInt16,   DType::UInt32,  DType::UInt64,  DType::Float16,
      DType::BFloat16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};
  return v;
}

enum class Range { Any, Positive, Unit, Small };

// Random values of a dtype as raw host bytes. Range::Positive keeps floats in [0.1, 10],
// Range::Unit in (-1, 1), Range::Small ints in [-8, 8] (or [0, 8] unsigned); Any is wide.
inline std::vector<std::byte> random_bytes(DType t, std::int64_t n, std::mt19937_64& rng,
                                           Range range = Range::Any) {
  std::vector<std::byte> out(static_cast<std::size_t>(n) * itemsize(t));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto real = [&]() -> double {
    switch (range) {
      case Range::Positive: return 0.1 + 4.95 * (unit(rng) + 1.0);
      case Range::Unit: return 0.999 * unit(rng);
      case Range::Small: return std::round(8.0 * unit(rng));
      case Range::Any: return 10.0 * unit(rng);
    }
    return 0;
  };
  visit_dtype(t, [&]<class T>() {
    T* p = reinterpret_cast<T*>(out.data());
    for (std::int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        p[i] = (rng() & 1) != 0;
      } else if constexpr (std::is_integral_v<T>) {
        if (range == Range::Small || range == Range::Positive) {
          const auto lo = std::is_signed_v<T> && range == Range::Small ? -8 : 1;
          p[i] = static_cast<T>(lo + static_cast<int>(rng() % static_cast<unsigned>(9 - lo)));
        } else {
          p[i] = static_cast<T>(rng());
        }
      } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        p[i] = T(static_cast<float>(real()));
      } else if constexpr (std::is_floating_point_v<T>) {
        p[i] = static_cast<T>(real());
      } else {
        using R = typename T::value_type;
        p[i] = T(static_cast<R>(real()), static_cast<R>(real()));
      }
    }
  });
  return out;
}

inline Array random_array(DType t, const Shape& shape, std::mt19937_64& rng, Range range = Range::Any) {
  const std::vector<std::byte> b = random_bytes(t, shape.numel(), rng, range);
  return asarray_bytes(b.data(), b.size(), t, shape);
}

// The benchmark's heat step on u (a 5-point stencil inside, zeros on the four edges); u is
// shared, so the writes make a new array.
inline Array heat_step(const Array& u) {
  const Slice in(1, -1), lo(0, -2), hi(2, none);
  Array v = u;
  v[{in, in}] = u[{in, in}] + 0.25 * (u[{lo, in}] + u[{hi, in}] + u[{in, lo}] + u[{in, hi}] - 4 * u[{in, in}]);
  v[{0}] = 0;
  v[{-1}] = 0;
  v[{all, 0}] = 0;
  v[{all, -1}] = 0;
  return v;
}

// Relative tolerance for results of a dtype: 16-bit floats round at each op; transcendental
// functions on the GPU and the host differ by a few ulp.
inline double tolerance(DType t) {
  switch (t) {
    case DType::Float16: return 2e-3;
    case DType::BFloat16: return 1.6e-2;
    case DType::Float32:
    case DType::Complex64: return 2e-5;
    case DType::Float64:
    case DType::Complex128: return 1e-12;
    default: return 0;
  }
}

// Element-wise comparison; NaN equals NaN; integers and bools exactly. Returns a message naming
// the first mismatch, or "" when all match.
inline std::string compare(const ref::HostArray& got, const ref::HostArray& want, double rtol = -1,
                           double atol = -1) {
  if (got.dtype != want.dtype) {
    return "dtype " + std::string(name(got.dtype)) + " != " + std::string(name(want.dtype));
  }
  if (!(got.shape == want.shape)) return "shape " + to_string(got.shape) + " != " + to_string(want.shape);
  if (rtol < 0) rtol = tolerance(got.dtype);
  if (atol < 0) atol = rtol;
  std::string msg;
  visit_dtype(got.dtype, [&]<class T>() {
    const T* g = reinterpret_cast<const T*>(got.data.data());
    const T* w = reinterpret_cast<const T*>(want.data.data());
    for (std::size_t i = 0; i < got.numel() && msg.empty(); ++i) {
      bool ok;
      std::string gs, ws;
      if constexpr (std::is_integral_v<T>) {
        ok = g[i] == w[i];
        gs = std::to_string(static_cast<long long>(g[i]));
        ws = std::to_string(static_cast<long long>(w[i]));
        if constexpr (std::is_unsigned_v<T>) {
          gs = std::to_string(static_cast<unsigned long long>(g[i]));
          ws = std::to_string(static_cast<unsigned long long>(w[i]));
        }
      } else {
        const auto close = [&](double a, double b) {
          if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
          if (std::isinf(a) || std::isinf(b)) return a == b;
          return std::abs(a - b) <= atol + rtol * std::abs(b);
        };
        if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                      std::is_floating_point_v<T>) {
          const double a = static_cast<double>(static_cast<float>(g[i]));
          const double b = static_cast<double>(static_cast<float>(w[i]));
          const double a2 = std::is_same_v<T, double> ? static_cast<double>(g[i]) : a;
          const double b2 = std::is_same_v<T, double> ? static_cast<double>(w[i]) : b;
          ok = close(a2, b2);
          gs = std::to_string(a2);
          ws = std::to_string(b2);
        } else {
          // Complex results are compared by modulus: a small component of a large number
          // carries the absolute error of the large one.
          const double scale = std::abs(std::complex<double>(w[i].real(), w[i].imag()));
          const auto close_c = [&](double a, double b) {
            if (a == b) return true;  // the scale is NaN when the other part is
            if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
            if (std::isinf(a) || std::isinf(b)) return a == b;
            return std::abs(a - b) <= atol + rtol * std::max(scale, std::abs(b));
          };
          ok = close_c(g[i].real(), w[i].real()) && close_c(g[i].imag(), w[i].imag());
          gs = "(" + std::to_string(g[i].real()) + "," + std::to_string(g[i].imag()) + ")";
          ws = "(" + std::to_string(w[i].real()) + "," + std::to_string(w[i].imag()) + ")";
        }
      }
      if (!ok) msg = "element " + std::to_string(i) + ": got " + gs + ", want " + ws;
    }
  });
  return msg;
}

}  // namespace loom::test
