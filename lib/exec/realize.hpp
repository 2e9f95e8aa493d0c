#pragma once
// realize(): the one place that sees both the graph and the runtime (DESIGN.md). The pipeline is
// a list: partition -> plan each kernel (re-partitioning when a view must be materialized) ->
// find or compile each kernel -> allocate outputs from the pool -> launch; without a GPU, the
// host reference evaluator instead. LOOM_DEBUG_PASSES=1 prints the plan after each step.

#include <span>
#include <string>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "codegen/partition.hpp"
#include <cuda_runtime_api.h>

#include "graph/node.hpp"

namespace loom::exec {

struct Prepared {
  codegen::Plan plan;
  std::vector<codegen::KernelPlan> kernels;  // one per plan.groups entry
};

// The partition and kernel plans of evaluating `outputs` (no source, no compile). `computed`:
// nodes an earlier plan computes, read as buffers (explain, for work done with a barrier's inputs).
Prepared prepare(std::span<const detail::NodeRef> outputs, std::span<const detail::NodeRef> computed = {});

// Evaluates the outputs; afterwards each has its realized() result.
void realize(std::span<const detail::NodeRef> outputs);

// Tests: fill every kernel output with 0xff bytes before the kernel runs (NaN for floats), so
// an element the kernel fails to write shows. Starts as LOOM_POISON_OUTPUTS.
void set_poison_outputs(bool on);
bool poison_outputs();

// Whether fusion is on (LOOM_FUSION, set_fusion()).
bool fusion_enabled_impl();

// An evaluated result in a new C-contiguous buffer.
std::shared_ptr<const detail::Realized> contiguous_result(std::shared_ptr<detail::Storage> s, const Shape& shape);

// Host memory for the reference path, and device memory from the pool.
std::shared_ptr<detail::Storage> host_storage(std::size_t nbytes);
std::shared_ptr<detail::Storage> device_storage(int device, std::size_t nbytes);

// Makes `stream` wait for the last work queued on s (when that was another stream), and
// records `stream` as its last user: buffers shared across streams are read in order, and
// freed in the order of their last use.
void order_after_last_use(const detail::Storage& s, cudaStream_t stream);

// Copies bytes of a storage to host memory (synchronizing with the current stream).
void read_storage(const detail::Storage& s, std::size_t offset, std::size_t nbytes, void* dst);

}  // namespace loom::exec
