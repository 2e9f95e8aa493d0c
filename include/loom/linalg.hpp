#pragma once
// loom::linalg: NumPy's numpy.linalg functions. For now the norms, built from reductions (they
// fuse like any reduction).

#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <loom/array.hpp>
#include <loom/reductions.hpp>

namespace loom {

inline constexpr double inf = std::numeric_limits<double>::infinity();  // np.inf

namespace linalg {

// The `ord` of norm: none (the default), a number (2, 1, inf, -inf, 0, any p != 0), or a name
// ("fro"; "nuc" is recognized and refused for now: it needs an SVD).
class NormOrd {
 public:
  NormOrd() = default;
  NormOrd(std::nullopt_t) {}  // NOLINT
  template <class T>
    requires std::is_arithmetic_v<T> && (!std::same_as<T, bool>)
  NormOrd(T p) : kind_(Kind::Number), p_(static_cast<double>(p)) {}  // NOLINT
  NormOrd(const char* name);  // NOLINT: "fro" or "nuc"; others throw ValueError

  bool is_none() const { return kind_ == Kind::None; }
  bool is_fro() const { return kind_ == Kind::Fro; }
  bool is_nuc() const { return kind_ == Kind::Nuc; }
  bool is_number() const { return kind_ == Kind::Number; }
  double p() const { return p_; }
  std::string to_string() const;  // as NumPy prints it in errors: "fro", "2", "inf"

 private:
  enum class Kind { None, Number, Fro, Nuc };
  Kind kind_ = Kind::None;
  double p_ = 2;
};

// np.linalg.norm. axis none: ord none gives the 2-norm of the flattened array (any ndim);
// otherwise the array must be 1-D (vector norm) or 2-D (matrix norm). One axis: vector norms
// along it; two axes: matrix norms ("fro", 1, -1, inf, -inf; 2, -2 and "nuc" need an SVD and
// throw ValueError). Results are real floats: ints give float64, complex its real dtype.
Array norm(const Array& x, const NormOrd& ord = {}, const Axes& axis = {}, bool keepdims = false);

}  // namespace linalg
}  // namespace loom
