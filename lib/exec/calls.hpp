#pragma once
// Running library calls (graph/call.hpp) on the device: before a plan is partitioned, every
// call it reaches runs, after its own inputs are evaluated; its outputs then count as buffers.

#include <span>
#include <vector>

#include "graph/node.hpp"

namespace loom::exec {

// The calls `outputs` reach that have not run, each after the calls it depends on.
std::vector<std::shared_ptr<const detail::CallSpec>> pending_calls(std::span<const detail::NodeRef> outputs);

// Runs the pending calls of `outputs` on the current device and stream (GPU only).
void run_calls(std::span<const detail::NodeRef> outputs);

// Calls run so far (a counter for tests and benchmarks).
std::uint64_t calls_run();

}  // namespace loom::exec
