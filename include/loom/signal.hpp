#pragma once
// NumPy's window functions and its polynomial helpers on coefficient arrays (highest power
// first), composed of generators and elementwise ops: lazy, and they fuse into what reads them
// (hanning(M) * x is one kernel that computes the window as it reads x). Names, dtypes and
// errors follow NumPy 2.

#include <cstdint>
#include <numbers>
#include <optional>
#include <string_view>
#include <vector>

#include <loom/array.hpp>
#include <loom/axes.hpp>

namespace loom {

// --- windows (float64; M < 1 gives an empty array, M == 1 a single 1) ---
[[nodiscard]] Array bartlett(std::int64_t M);  // triangular
[[nodiscard]] Array blackman(std::int64_t M);  // 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))
[[nodiscard]] Array hamming(std::int64_t M);   // 0.54 + 0.46 cos(pi n / (M - 1))
[[nodiscard]] Array hanning(std::int64_t M);   // 0.5 + 0.5 cos(pi n / (M - 1))

// The Kaiser window: i0(beta sqrt(1 - ((n - alpha) / alpha)^2)) / i0(beta), alpha = (M - 1) / 2.
[[nodiscard]] Array kaiser(std::int64_t M, double beta);
// The modified Bessel function of the first kind, order 0 (NumPy's Chebyshev series of Cephes'
// i0, composed of elementwise ops: one kernel); integers give float64, complex is a DTypeError.
[[nodiscard]] Array i0(const Array& x);

// --- differences and interpolation ---
// np.gradient: second-order central differences inside, one-sided ones (edge_order 1 or 2) at
// the ends, along each axis (default every axis); spacing none (1), one number or 1-d array for
// every axis, or one per axis (coordinates of the samples along it). One array per axis (NumPy
// returns the array itself for one axis: gradient(f)[0]). Integers give float64.
[[nodiscard]] std::vector<Array> gradient(const Array& f, const std::vector<Array>& spacing = {},
                                          const Axes& axis = {}, int edge_order = 1);
// np.interp: the piecewise-linear interpolant of (xp, fp) at x (xp increasing); left/right: the
// values past the ends (fp[0], fp[-1]); period: x and xp taken modulo it. float64 (complex128
// for complex fp), x's shape. A binary search and one fused kernel.
[[nodiscard]] Array interp(const Array& x, const Array& xp, const Array& fp, std::optional<double> left = std::nullopt,
                           std::optional<double> right = std::nullopt, std::optional<double> period = std::nullopt);
// np.convolve / np.correlate of 1-d arrays, mode "full", "same" or "valid" (correlate conjugates
// v): one fused reduction over sliding windows of the zero-padded longer input, in the dtype the
// two promote to (NumPy's dot).
[[nodiscard]] Array convolve(const Array& a, const Array& v, std::string_view mode = "full");
[[nodiscard]] Array correlate(const Array& a, const Array& v, std::string_view mode = "valid");
// np.unwrap: jumps between neighbours along axis larger than discont (period / 2) replaced by
// their remainder modulo period (a fused correction and a cumulative sum).
[[nodiscard]] Array unwrap(const Array& p, std::optional<double> discont = std::nullopt, int axis = -1,
                           double period = 2 * std::numbers::pi);
// np.vander: columns x^(N-1) ... x^0 (increasing: x^0 ... x^(N-1)), N default len(x), powers as
// NumPy's running products; dtype promote_types(x, int64).
[[nodiscard]] Array vander(const Array& x, std::optional<std::int64_t> N = std::nullopt, bool increasing = false);

// --- polynomials as 1-d coefficient arrays ---
// p evaluated at x by Horner's rule, (...(p[0] x + p[1]) x + ...) + p[n-1]: x's shape, the dtype
// p and x promote to.
[[nodiscard]] Array polyval(const Array& p, const Array& x);
// The m-th derivative's coefficients (ValueError for m < 0).
[[nodiscard]] Array polyder(const Array& p, int m = 1);
// The m-th antiderivative's coefficients, with integration constant k (0) each time (ValueError
// for m < 0).
[[nodiscard]] Array polyint(const Array& p, int m = 1, double k = 0.0);
// np.polyfit: the least-squares polynomial of degree deg through (x, y) (y 1-d, or 2-d: one fit
// per column), weights w; highest power first. A scaled Vandermonde matrix and lstsq (cuSOLVER).
[[nodiscard]] Array polyfit(const Array& x, const Array& y, int deg, std::optional<double> rcond = std::nullopt,
                            const std::optional<Array>& w = std::nullopt);

}  // namespace loom
