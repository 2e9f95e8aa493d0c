#pragma once
// realize(): the one place that sees both the graph and the runtime (DESIGN.md). Its pipeline,
// one named step each (realize.cpp): the host evaluator when there is no GPU; with library calls
// (barriers), the schedule (exec/schedule.hpp) and its steps in order; each kernel step is the
// fingerprint (exec/fingerprint.hpp) and the executable cached for it, else partition and plan
// each kernel (prepare: re-partitioned when a plan finds a view that must be materialized),
// compile (exec/executable.hpp: kernels from the kernel cache or NVRTC), launch, and keep the
// executable. LOOM_DEBUG_PASSES=1 prints the result of each step.
// The memory helpers every exec file uses are storage/storage.hpp.

#include <span>
#include <string>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "codegen/partition.hpp"
#include <cuda_runtime_api.h>

#include "storage/storage.hpp"
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
// One kernel step (GPU only): computes `targets`, whose graphs reach no library call that has
// not run (a schedule's step; a call's copy of an input into C order).
void run_kernels(std::span<const detail::NodeRef> targets);
// Whether this thread is inside realize() (a library call's synchronization, say).
bool in_realize();

// Tests: fill every kernel output with 0xff bytes before the kernel runs (NaN for floats), so
// an element the kernel fails to write shows. Starts as LOOM_POISON_OUTPUTS.
void set_poison_outputs(bool on);
bool poison_outputs();

// Whether fusion is on (LOOM_FUSION, set_fusion()).
bool fusion_enabled_impl();

}  // namespace loom::exec
