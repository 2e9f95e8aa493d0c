#pragma once
// Running library calls (graph/call.hpp) on the device: before a plan is partitioned, every
// call it reaches runs, after its own inputs are evaluated; its outputs then count as buffers.

#include <functional>
#include <span>
#include <vector>

#include "graph/node.hpp"

namespace loom::exec {

// The calls `outputs` reach that have not run, each after the calls it depends on.
std::vector<std::shared_ptr<const detail::CallSpec>> pending_calls(std::span<const detail::NodeRef> outputs);

// Runs the pending calls of `outputs` on the current device and stream (GPU only).
void run_calls(std::span<const detail::NodeRef> outputs);

// Eager calls, whose output sizes depend on the values (np.unique, np.nonzero, x[mask]): the
// inputs are evaluated, then fn runs at once on the current device and stream (GPU only). fn
// allocates its outputs (device_storage) and may synchronize to read a count.
void run_eager(const std::vector<detail::NodeRef>& inputs, const std::function<void(detail::CallContext&)>& fn);

// Calls run so far (a counter for tests and benchmarks).
std::uint64_t calls_run();

}  // namespace loom::exec
