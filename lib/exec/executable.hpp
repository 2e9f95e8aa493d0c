#pragma once
// Executables: what a repeated eval() of one graph structure runs on the GPU. The fingerprint
// (plan_cache.hpp) fixes the ops, dtypes, shapes, layouts, the alignment of every input and the
// device, so it fixes the kernels, their launch shapes and most of their argument words too. An
// executable holds those ready; a call allocates the outputs, fills in pointers and scalar values
// (codegen::ArgPatch), and launches. Nodes are named by their fingerprint numbers.

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "exec/kernel_cache.hpp"
#include "graph/node.hpp"
#include "runtime/module.hpp"

namespace loom::exec {

struct KernelLaunch {
  std::vector<int> roots;               // the nodes it computes, in its outputs' order
  std::vector<std::size_t> root_bytes;
  std::shared_ptr<const CompiledKernel> kernel;  // null when there are no elements to compute
  codegen::LaunchDims dims;
  std::vector<std::uint64_t> words;     // the argument struct, patches zero
  std::vector<codegen::ArgPatch> patches;
  std::vector<int> inputs;              // its buffer leaves (ordered after their last use)
  int partials = 0;                     // split reductions: workspaces of partial states
  std::size_t partial_bytes = 0, ticket_bytes = 0;
  // Launches of a cached executable (its second call on): a one-node CUDA graph, ~1.5 us less
  // per call than cudaLaunchKernel (runtime/module.hpp). Null with LOOM_GRAPH_LAUNCH=0.
  std::unique_ptr<rt::GraphLaunch> graph;
};

struct Executable {
  std::vector<KernelLaunch> kernels;          // in order
  std::vector<std::pair<int, int>> view_roots;  // (view, the node whose buffer it views)
};

// Evaluates `outputs` on `device` (library calls already run): the executable of their
// fingerprint from the cache, or one made from the prepared plan (compiling what is missing).
void run_on_device(std::span<const detail::NodeRef> outputs, int device);

// Executables hold loaded kernels: cleared with the memory cache.
void clear_executables();

}  // namespace loom::exec
