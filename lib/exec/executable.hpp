#pragma once
// Executables: what a repeated eval() of one graph structure runs on the GPU, and their cache
// (the one cache of plans: keyed by the exact fingerprint, fingerprint.hpp). The fingerprint
// fixes the ops, dtypes, shapes, layouts, the alignment of every input and the device, so it
// fixes the kernels, their launch shapes and most of their argument words too. An executable
// holds those ready and names nodes by slot (fingerprint number), never by pointer: a call
// allocates the outputs, fills in pointers and scalar values from the current graph's slots
// (codegen::ArgPatch), and launches.

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

struct Fingerprint;
struct Prepared;

// The cached executable of a fingerprint, or null.
std::shared_ptr<const Executable> find_executable(const Fingerprint& fp);

// The executable of a prepared plan: kernels found in the kernel cache or compiled, launch
// shapes, argument words. `slots` are the fingerprint's nodes plus any the plan reached beyond
// them (then it is not `cacheable`: those numbers mean nothing in another graph).
struct Compiled {
  std::shared_ptr<const Executable> executable;
  std::vector<const detail::Node*> slots;
  bool cacheable = true;
};
Compiled compile(const Prepared& p, const Fingerprint& fp, int device);

// Runs an executable on the current stream of `device` for the graph whose nodes fill `slots`;
// each root gets its result. `cached`: a repeated call (launches as CUDA graphs).
void launch(const Executable& e, std::span<const detail::Node* const> slots, int device, bool cached);

// Keeps an executable for later evals of the same fingerprint.
void remember(const Fingerprint& fp, std::shared_ptr<const Executable> e);

// Executables hold loaded kernels: cleared with the memory cache.
void clear_executables();

}  // namespace loom::exec
