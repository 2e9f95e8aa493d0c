#pragma once
// Running library calls (graph/call.hpp) on the device: a Schedule (exec/schedule.hpp) runs
// every call the outputs reach after the kernels that compute its inputs; its outputs then count
// as buffers.

#include <functional>
#include <span>
#include <unordered_set>
#include <vector>

#include "graph/node.hpp"

namespace loom::exec {

// The calls `outputs` reach that have not run, each after the calls it depends on.
std::vector<std::shared_ptr<const detail::CallSpec>> pending_calls(std::span<const detail::NodeRef> outputs);

// Runs a call on its evaluated `inputs` (a schedule's Call step: the spec's inputs, or C-order
// copies of them) on the current device and stream (GPU only). Nothing when another thread has
// run it meanwhile.
void run_call(const detail::CallSpec& c, const std::vector<detail::NodeRef>& inputs);

// Work a call's inputs share with the requested outputs, computed with the inputs (in the same
// plan, so once): reductions of the outputs' graphs that can run before the call (they reach no
// pending call) and that the call's inputs compute too, or that reduce a node they compute. In
// a k-means step, argmin(d) (which the one-hot matrix of the second product reads) and min(d)
// share one kernel, the norms of the distance chain are computed once, and the outputs read
// the results.
// `done`: calls counted as run (explain, which runs none, passes those ahead of c).
std::vector<detail::NodeRef> shared_reductions(const detail::CallSpec& c, std::span<const detail::NodeRef> outputs,
                                               const std::unordered_set<const detail::CallSpec*>& done = {});

// Eager calls, whose output sizes depend on the values (np.unique, np.nonzero, x[mask]): the
// inputs are evaluated, then fn runs at once on the current device and stream (GPU only). fn
// allocates its outputs (device_storage) and may synchronize to read a count.
void run_eager(const std::vector<detail::NodeRef>& inputs, const std::function<void(detail::CallContext&)>& fn);

// Calls run so far (a counter for tests and benchmarks).
std::uint64_t calls_run();

}  // namespace loom::exec
