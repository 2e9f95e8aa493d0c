#pragma once
// The host evaluation of a Reduce node: the accurate oracle of the generated reductions
// (integers wrap, floats accumulate in double / long double, NumPy's NaN rules).

#include "graph/node.hpp"
#include "reference/evaluator.hpp"

namespace loom::ref {

// The keepdims-shaped result of the Reduce node n on its input's values `in` (C-contiguous).
// Each output combines its reduced elements in C order over the reduced dims.
HostArray reduce(const detail::Node& n, const HostArray& in);

}  // namespace loom::ref
