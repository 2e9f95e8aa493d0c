#pragma once
// Printing whole graphs: one line per node, numbered in a fixed post-order (inputs first), so
// the text never depends on pointer values (STYLE.md habits 5 and 6).

#include <span>
#include <string>

#include "graph/node.hpp"

namespace loom::detail {

// "%0 = buffer float32(3, 4) strides=(4, 1) offset=0\n%1 = constant float32() 2\n%2 = multiply
// float32(3, 4) (%0, %1)\n"
std::string graph_to_string(std::span<const NodeRef> roots);

}  // namespace loom::detail
