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

// Besides the structure, the fingerprint holds the alignment of every input's data (up to 16
// bytes: whether vector accesses may be used) and the device (-1: none) plans are made for.
Fingerprint fingerprint(std::span<const detail::NodeRef> outputs, bool fusion, int max_kernel_ops,
                        int device);

// The prepared plan for `outputs` (whose fingerprint is fp), from the cache or made (and cached)
// by prepare().
Prepared prepared_for(const Fingerprint& fp, std::span<const detail::NodeRef> outputs);
// The same for the current device, fingerprinting first.
Prepared cached_prepare(std::span<const detail::NodeRef> outputs, bool fusion, int max_kernel_ops);

void clear_plan_cache();

}  // namespace loom::exec
