#pragma once
// loom::linalg: NumPy's numpy.linalg functions. The norms are reductions (they fuse like any
// reduction); solve, inv, det, the factorizations and the SVD are cuSOLVER calls (barriers whose
// outputs feed fused kernels), so they need a GPU: without one, evaluating them throws an Error
// naming the function.
//
// Common rules (NumPy's): inputs are stacks of matrices (..., M, N) and each function works on
// every matrix of the stack; float32, float64, complex64 and complex128 compute in their own
// precision (NumPy computes in double: loom keeps float32 in float32, as CuPy does); bool and
// integers become float64; float16 and bfloat16 throw DTypeError "array type float16 is
// unsupported in linalg". Fewer than 2 dims, or a non-square matrix where one is needed, throw
// LinAlgError with NumPy's message. A singular matrix (solve, inv), a matrix that is not
// positive definite (cholesky) and an SVD or eigensolver that does not converge throw
// LinAlgError when the result is evaluated; det and slogdet of a singular matrix give 0 and
// (0, -inf).

#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <loom/array.hpp>
#include <loom/constants.hpp>
#include <loom/reductions.hpp>

namespace loom {

namespace linalg {

// The `ord` of norm: none (the default), a number (2, 1, inf, -inf, 0, any p != 0), or a name
// ("fro", "f" or "nuc"). A name norm does not know throws ValueError with NumPy's wording when
// norm is called.
class NormOrd {
 public:
  NormOrd() = default;
  NormOrd(std::nullopt_t) {}  // NOLINT
  template <class T>
    requires std::is_arithmetic_v<T> && (!std::same_as<T, bool>)
  NormOrd(T p) : none_(false), number_(static_cast<double>(p)) {}  // NOLINT
  NormOrd(const char* name) : none_(false), name_(name ? name : "") {}  // NOLINT

  bool is_none() const { return none_; }
  const std::optional<double>& number() const { return number_; }
  const std::string& name() const { return name_; }  // empty unless given by name

 private:
  bool none_ = true;
  std::optional<double> number_;
  std::string name_;
};

// np.linalg.norm. axis none: ord none gives the 2-norm of the flattened array (any ndim);
// otherwise the array must be 1-D (vector norm) or 2-D (matrix norm). One axis: vector norms
// along it; two axes: matrix norms ("fro", 1, -1, inf, -inf, and from the singular values 2, -2
// and "nuc", which need a GPU). Results are real floats: ints give float64, complex its real dtype.
[[nodiscard]] Array norm(const Array& x, const NormOrd& ord = {}, const Axes& axis = {}, bool keepdims = false);

// NumPy 2's result tuples, with its field names (structured bindings work: auto [q, r] = qr(a)).
struct SlogdetResult {
  Array sign;       // the dtype of the computation; 0 for a singular matrix
  Array logabsdet;  // real; -inf for a singular matrix
};
struct QRResult {
  Array Q, R;
};
struct SVDResult {
  Array U, S, Vh;  // U and Vh are empty handles when compute_uv is false
};
struct EighResult {
  Array eigenvalues;   // real, ascending
  Array eigenvectors;  // column i belongs to eigenvalue i
};
struct LstsqResult {
  Array x;
  Array residuals;  // squared 2-norm of each column of b - a x: (K,), or (0,) unless rank == N < M
  std::int32_t rank;  // NumPy returns it as int32
  Array s;  // singular values of a, descending
};

// Solves a x = b. b is a vector (M,) only when it is 1-D; otherwise a stack of (M, K) matrices.
// The batch dims of a and b broadcast (NumPy 2). getrf + getrs.
[[nodiscard]] Array solve(const Array& a, const Array& b);
[[nodiscard]] Array inv(const Array& a);
[[nodiscard]] Array det(const Array& a);
[[nodiscard]] SlogdetResult slogdet(const Array& a);
// L with a = L L^H, from a's lower triangle (upper: U with a = U^H U, from its upper triangle).
[[nodiscard]] Array cholesky(const Array& a, bool upper = false);
// mode "reduced" (Q: (..., M, K), R: (..., K, N), K = min(M, N)) or "complete" (Q: (..., M, M),
// R: (..., M, N)); other modes throw ValueError.
[[nodiscard]] QRResult qr(const Array& a, const std::string& mode = "reduced");
// a = U diag(S) Vh, S descending. full_matrices: U (..., M, M), Vh (..., N, N); else (..., M, K)
// and (..., K, N). hermitian is accepted for NumPy's signature; the SVD is computed either way.
[[nodiscard]] SVDResult svd(const Array& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false);
[[nodiscard]] Array svdvals(const Array& a);  // svd(a, false, false).S
// Eigenvalues (ascending) and eigenvectors of Hermitian matrices, from the lower ("L") or upper
// ("U") triangle.
[[nodiscard]] EighResult eigh(const Array& a, const std::string& UPLO = "L");
[[nodiscard]] Array eigvalsh(const Array& a, const std::string& UPLO = "L");
// Least squares by SVD, for a 2-D a and b (M,) or (M, K). rcond: singular values at most
// rcond * max(s) count as zero; default eps * max(M, N) with eps of the computation's dtype
// (NumPy 2 uses double's eps, as it computes in double). Evaluates the SVD before returning:
// the rank decides the residuals' shape.
[[nodiscard]] LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond = std::nullopt);
// Pseudo-inverse by SVD: singular values at most rcond * max(s) are dropped (NumPy's default
// rcond 1e-15).
[[nodiscard]] Array pinv(const Array& a, double rcond = 1e-15, bool hermitian = false);
// The number of singular values above tol (default: max(s) * max(M, N) * eps; rtol replaces
// max(M, N) * eps). Arrays of fewer than 2 dims: 1 unless all zero. int64.
[[nodiscard]] Array matrix_rank(const Array& a, std::optional<double> tol = std::nullopt, bool hermitian = false,
                                std::optional<double> rtol = std::nullopt);
// Condition number: by default (and for 2 and -2) from the singular values; other orders are
// norm(a, p) * norm(inv(a), p). NaN from a singular matrix becomes inf, as NumPy.
[[nodiscard]] Array cond(const Array& x, const NormOrd& p = {});

}  // namespace linalg
}  // namespace loom
