#pragma once
// NumPy's window functions and its polynomial helpers on coefficient arrays (highest power
// first), composed of generators and elementwise ops: lazy, and they fuse into what reads them
// (hanning(M) * x is one kernel that computes the window as it reads x). Names, dtypes and
// errors follow NumPy 2.

#include <cstdint>

#include <loom/array.hpp>

namespace loom {

// --- windows (float64; M < 1 gives an empty array, M == 1 a single 1) ---
[[nodiscard]] Array bartlett(std::int64_t M);  // triangular
[[nodiscard]] Array blackman(std::int64_t M);  // 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))
[[nodiscard]] Array hamming(std::int64_t M);   // 0.54 + 0.46 cos(pi n / (M - 1))
[[nodiscard]] Array hanning(std::int64_t M);   // 0.5 + 0.5 cos(pi n / (M - 1))

// --- polynomials as 1-d coefficient arrays ---
// p evaluated at x by Horner's rule, (...(p[0] x + p[1]) x + ...) + p[n-1]: x's shape, the dtype
// p and x promote to.
[[nodiscard]] Array polyval(const Array& p, const Array& x);
// The m-th derivative's coefficients (ValueError for m < 0).
[[nodiscard]] Array polyder(const Array& p, int m = 1);
// The m-th antiderivative's coefficients, with integration constant k (0) each time (ValueError
// for m < 0).
[[nodiscard]] Array polyint(const Array& p, int m = 1, double k = 0.0);

}  // namespace loom
