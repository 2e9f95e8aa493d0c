#pragma once
// Fusion partitioning (the first pass of realize): cuts the graph reachable from the requested
// arrays into kernel groups. Each group computes one or more nodes of one shape, reading only
// leaves (buffers, evaluated nodes, constants, generators) and the results of earlier groups.
// Needs nothing before it; kernel_plan.hpp runs on each group next.

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "graph/node.hpp"

namespace loom::codegen {

using detail::Node;
using detail::NodeRef;

// Longest reduced extent a row-resident kernel keeps in registers (256 threads x 32 each).
inline constexpr std::int64_t kRowResidentMax = 8192;

struct PartitionOptions {
  bool fusion = true;       // false: every elementwise op is its own kernel
  int max_kernel_ops = 256; // cut a kernel that would hold more ops
  // Nodes an earlier plan computes (explain's view of work done with a barrier's inputs): read
  // as buffers, never computed here.
  std::vector<const Node*> computed;
  // When set (LOOM_DEBUG_PASSES=1), the state after each phase of partition() is printed here.
  std::ostream* debug = nullptr;
};

struct KernelGroup {
  std::vector<NodeRef> roots;  // written by this kernel, all of one shape
  Shape shape;
  // A reduction kernel: it performs the reductions (all over one input shape and axes) its
  // roots reach, their inputs as prologue and the roots as epilogue.
  bool reduction = false;
  // Row-resident: the roots iterate over the reductions' input (the reduced axes are trailing
  // and short), as softmax's exp(x - lse(x)): a block keeps each row in registers, reduces it,
  // then computes the row's outputs (one read, one write).
  bool rows = false;
};

// A requested array that is a view of a node computed (or evaluated) elsewhere: it gets that
// node's buffer with its own strides, no kernel.
struct ViewRoot {
  NodeRef node;
  NodeRef base;  // the node whose buffer it views
};

struct Plan {
  std::vector<KernelGroup> groups;    // in execution order
  std::vector<ViewRoot> view_roots;   // realized after the groups run
  std::vector<NodeRef> materialized;  // every node that gets a buffer (all group roots)
  std::vector<std::string> notes;     // where fusion stopped and why, for explain()
};

// A node a later pass (kernel planning) found must be materialized, and why (for explain).
struct Cut {
  const Node* node;
  const char* why;
};

// `extra_cuts` are nodes a later pass found must be materialized (see kernel_plan.hpp).
Plan partition(std::span<const NodeRef> outputs, const PartitionOptions& options,
               std::span<const Cut> extra_cuts = {});

std::string to_string(const Plan& plan);

// Nodes reachable from `roots` without passing through acts_as_leaf nodes or `stop` nodes,
// inputs before users (iterative: graphs can be 10^5 deep).
std::vector<const Node*> topo_order(std::span<const NodeRef> roots,
                                    const std::vector<const Node*>& stop = {});

}  // namespace loom::codegen
