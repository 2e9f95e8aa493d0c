#pragma once
// The kernels eval() would run for an array, planned without running anything (codegen tests).

#include <vector>

#include <loom/array.hpp>

#include "codegen/kernel_plan.hpp"
#include "exec/realize.hpp"

namespace loom::test {

inline std::vector<codegen::KernelPlan> plans(const Array& a) {
  const std::vector<detail::NodeRef> nodes{a.node()};
  return exec::prepare(nodes).kernels;
}

// The same for several arrays evaluated together.
inline std::vector<codegen::KernelPlan> plans(const std::vector<Array>& arrays) {
  std::vector<detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return exec::prepare(nodes).kernels;
}

}  // namespace loom::test
