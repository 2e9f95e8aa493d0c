#pragma once
// The fingerprint of a graph: the exact key of the executable cache (executable.hpp). A traversal
// numbers the graph's nodes (the slots executables name them by) and writes each node's
// structure: ops, dtypes, shapes, layouts, view maps, reduction kinds; not scalar values, sizes
// of nothing else, or pointers. Two graphs with equal fingerprints run the same kernels.

#include <span>
#include <string>
#include <vector>

#include "graph/node.hpp"

namespace loom::exec {

struct Fingerprint {
  std::string bytes;                       // exact: compared in full, never just hashed
  std::vector<const detail::Node*> nodes;  // slot i: the node numbered i in traversal order
  // Through calls only: slot i's reference where the traversal met it (an output, or an input
  // of its first user), to hand out the node again without a count of references per node.
  std::vector<const detail::NodeRef*> refs;
};

// Besides the structure, the fingerprint holds the alignment of every input's data (up to 16
// bytes: whether vector accesses may be used) and the device (-1: none) plans are made for.
// `through_calls`: a library call not yet run is followed into its inputs, and its output nodes
// record which call (numbered in order of appearance), which output, its outputs' count and the
// layouts it declares: the key of a whole eval's schedule (schedule.hpp). Otherwise a call's
// output is a leaf (a kernel step runs after its call).
Fingerprint fingerprint(std::span<const detail::NodeRef> outputs, bool fusion, int max_kernel_ops,
                        int device, bool through_calls = false);

}  // namespace loom::exec
