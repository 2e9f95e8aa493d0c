#pragma once
// Index analysis (a pass of kernel planning; partition runs before it): walks the graph from a
// kernel's roots over an iteration space and says how every leaf is indexed from it. Views are
// composed into affine maps; reshapes travel as C-order linear indices and are factored back
// into multi-indices at the leaves, refining the iteration space (splitting a dim) when that
// makes them affine. The result is a KernelPlan's leaves and values, not yet collapsed.

#include <cstdint>
#include <span>
#include <vector>

#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

struct AnalyzerInput {
  std::vector<const Node*> roots;        // values to compute, each of shape `iter`
  Shape iter;                            // the iteration space
  std::vector<std::uint8_t> classes;     // per iteration dim: 0 kept, 1 reduced (empty: all 0)
  std::span<const NodeRef> boundary;     // computed by other kernels: read as contiguous buffers
  bool reduce_terminal = false;          // Reduce nodes become LeafKind::Reduced leaves
  // Roots are this kernel's outputs (never read from their own buffers). A reduction's
  // prologue computes values, not outputs: a root another kernel computes is read as a leaf.
  bool roots_are_outputs = true;
  // Op::Place nodes are computed here, their piece and base read under guards (an elementwise
  // kernel); otherwise they are cut (computed by a kernel of their own first).
  bool allow_place = false;
};

struct Analysis {
  KernelPlan plan;                     // leaves, values, outputs (or needs_cut); not collapsed
  Shape iter;                          // the iteration space after refinement
  std::vector<std::uint8_t> classes;   // its dims' classes
};

Analysis analyze(const AnalyzerInput& in);

// Drops unit dims and merges neighbouring dims of one class wherever every affine of the plan
// steps through them as one. Sets plan.shape; returns the classes of the remaining dims.
std::vector<std::uint8_t> collapse(KernelPlan& plan, const Shape& iter,
                                   const std::vector<std::uint8_t>& classes);

// Every affine index a plan evaluates.
template <class F> void for_each_affine(KernelPlan& p, F&& f) {
  for (Leaf& l : p.leaves) {
    for (int i = 0; i < l.num_idx; ++i) f(l.idx[static_cast<std::size_t>(i)]);
    if (l.unravel) f(l.unr->lin);
  }
}

}  // namespace loom::codegen
