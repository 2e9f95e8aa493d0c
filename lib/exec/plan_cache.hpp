#pragma once
// The plan cache: a repeated eval() of a graph of the same structure (ops, dtypes, shapes,
// layouts, view maps; not scalar values, sizes of nothing else, or pointers) skips partition and
// kernel planning. A fingerprint traversal numbers the graph's nodes; the cached plan refers to
// nodes by those numbers and is re-bound to the current graph's nodes.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "exec/realize.hpp"

namespace loom::exec {

struct Fingerprint {
  std::string bytes;                    // exact: compared in full, never just hashed
  std::vector<const detail::Node*> nodes;  // in traversal order; plans refer to these indices
};

Fingerprint fingerprint(std::span<const detail::NodeRef> outputs, bool fusion, int max_kernel_ops);

// The prepared plan for `outputs`, from the cache or made (and cached) by prepare().
Prepared cached_prepare(std::span<const detail::NodeRef> outputs, bool fusion, int max_kernel_ops);

void clear_plan_cache();

}  // namespace loom::exec
