#pragma once
// The number of kernels the plan of an array holds (its barrier calls' inputs not counted):
// what the fusion tests assert.

#include <cstddef>
#include <vector>

#include <loom/array.hpp>

#include "exec/realize.hpp"

namespace loom::test {

inline std::size_t kernels_of(const Array& a) {
  const std::vector<detail::NodeRef> nodes{a.node()};
  return exec::prepare(nodes).kernels.size();
}

}  // namespace loom::test
