#pragma once
// What loom::random's translation units share (lib/calls/random.cpp, sampling_*.cpp): NumPy's
// argument checks in its wording (numpy/random/_common.pyx's constraint kinds), and the dtype a
// float distribution computes in.

#include <cmath>

#include <fmt/format.h>

#include <loom/array.hpp>
#include <loom/errors.hpp>

#include "api/builders.hpp"

namespace loom::random::common {

// Negative extents and counts past int64 (8-byte draws included): NumPy's errors.
inline void check_shape(const Shape& shape, const char* op) {
  detail::checked_nbytes(shape, DType::Float64, op);
}

inline void check_float(DType dtype, const char* op) {
  detail::check_dtype(dtype, op);
  if (kind(dtype) != DKind::Float) {
    throw DTypeError(fmt::format("Unsupported dtype {} for {}", name(dtype), op));
  }
}

// CONS_NON_NEGATIVE: NaN passes, -0.0 does not.
inline void check_non_negative(double v, const char* what) {
  if (!std::isnan(v) && std::signbit(v)) throw ValueError(fmt::format("{} < 0", what));
}
// CONS_POSITIVE (NaN passes).
inline void check_positive(double v, const char* what) {
  if (v <= 0) throw ValueError(fmt::format("{} <= 0", what));
}
// CONS_POSITIVE_NOT_NAN.
inline void check_positive_not_nan(double v, const char* what) {
  if (std::isnan(v)) throw ValueError(fmt::format("{} must not be NaN", what));
  check_positive(v, what);
}
// CONS_BOUNDED_0_1: 0 <= v <= 1.
inline void check_bounded_0_1(double v, const char* what) {
  if (!(v >= 0) || !(v <= 1)) throw ValueError(fmt::format("{0} < 0, {0} > 1 or {0} is NaN", what));
}
// CONS_BOUNDED_GT_0_1: 0 < v <= 1.
inline void check_bounded_gt_0_1(double v, const char* what) {
  if (!(v > 0) || !(v <= 1)) throw ValueError(fmt::format("{0} <= 0, {0} > 1 or {0} contains NaNs", what));
}
// CONS_GT_1: v > 1.
inline void check_gt_1(double v, const char* what) {
  if (!(v > 1)) throw ValueError(fmt::format("{0} <= 1 or {0} is NaN", what));
}

// The dtype a float distribution computes in: 16-bit floats are computed in float32 and
// rounded once at the end.
inline DType compute_dtype(DType dtype) { return dtype == DType::Float64 ? DType::Float64 : DType::Float32; }

}  // namespace loom::random::common
