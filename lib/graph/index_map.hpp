#pragma once
// IndexMap: how a view reads its input. It maps an output multi-index o to an input multi-index
//   p[k] = offset[k] + sum of coef[i] * o[i] over the output dims i with dim[i] == k.
// Each output dim feeds at most one input dim (dim[i] == -1: none, a broadcast or new axis).
// Transpose, slices with any step, flips, broadcasting, new and dropped axes and reshapes that
// split dims are such maps, and composing two gives another, so chains of views fold into one
// map when the graph is built (DESIGN.md decision 8).

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <loom/shape.hpp>

namespace loom::detail {

struct IndexMap {
  int out_ndim = 0;
  int in_ndim = 0;
  std::array<std::int8_t, kMaxDims> dim{};
  std::array<std::int64_t, kMaxDims> coef{};
  std::array<std::int64_t, kMaxDims> offset{};  // per input dim

  static IndexMap identity(int ndim);
  // in[k] for the output index o.
  void apply(const std::int64_t* o, std::int64_t* in) const;
  friend bool operator==(const IndexMap& a, const IndexMap& b);
  std::string to_string() const;
};

// first: o -> p, then second: p -> q; the result maps o -> q.
IndexMap compose(const IndexMap& first, const IndexMap& second);

// The map of view(shape_out) = reshape of an array of shape_in whose elements are read through
// `m` (shape_in indices -> the source), or nullopt when the reshape needs a copy (NumPy's rule:
// merged dims must be adjacent in the source with matching steps).
std::optional<IndexMap> reshape_map(const IndexMap& m, const Shape& shape_in,
                                    const Shape& shape_out);

// NumPy's no-copy reshape of a strided layout (element strides): the new strides, or nullopt.
std::optional<Shape> reshape_strides(const Shape& shape_in, const Shape& strides_in,
                                     const Shape& shape_out);

}  // namespace loom::detail
