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
// ("fro" or "f"; "nuc" is recognized and refused for now: it needs an SVD). A name norm does not
// know throws ValueError with NumPy's wording when norm is called.
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
// along it; two axes: matrix norms ("fro", 1, -1, inf, -inf; 2, -2 and "nuc" need an SVD and
// throw ValueError). Results are real floats: ints give float64, complex its real dtype.
Array norm(const Array& x, const NormOrd& ord = {}, const Axes& axis = {}, bool keepdims = false);

}  // namespace linalg
}  // namespace loom
