#pragma once
// The axes of a reduction (the options of the reductions as a struct with named fields, NumPy's
// keyword arguments, are ReduceOptions in array.hpp: loom::sum(x, {.axis = 1, .keepdims = true}),
// x.std({.axis = 0, .ddof = 1})).

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include <loom/dtype.hpp>
#include <loom/shape.hpp>

namespace loom {

// The axes a reduction runs over: every axis (Axes{}, loom::none: NumPy's axis=None), one
// (1, -1) or several ({0, 2}). Negative axes count from the end.
class Axes {
 public:
  Axes() = default;
  Axes(std::nullopt_t) {}  // NOLINT
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Axes(I axis) : all_(false), single_(true) {  // NOLINT
    list_.push_back(static_cast<std::int64_t>(axis));
  }
  Axes(std::initializer_list<std::int64_t> axes)  // NOLINT: {} means every axis
      : all_(axes.size() == 0), list_(axes.begin(), axes.end()) {}
  Axes(const std::vector<std::int64_t>& axes)  // NOLINT
      : all_(axes.empty()), list_(axes.begin(), axes.end()) {}

  bool is_all() const { return all_; }
  const Shape& list() const { return list_; }  // as given (unnormalized); empty when is_all()
  // One axis given as an integer (NumPy's axis=0), not a list ({0}, NumPy's axis=(0,)): a
  // reduction of a 0-d array accepts axis 0 or -1 only as an integer, as NumPy's ufuncs do.
  bool is_single() const { return single_; }

 private:
  bool all_ = true;
  bool single_ = false;
  Shape list_;
};

namespace detail {
// The first field of an options struct: it takes no value (and is no aggregate, so no brace
// elision skips it), so the struct is filled by field name only, and a braced list of numbers
// ({0, 2}) stays an Axes.
struct NamedOnly {
  constexpr NamedOnly() {}  // NOLINT(modernize-use-equals-default): user-provided on purpose
};
}  // namespace detail

// NumPy's keyword arguments of the reductions (ReduceOptions) hold arrays (where=, initial=): the
// struct is defined in array.hpp, after Array.
struct ReduceOptions;

}  // namespace loom
