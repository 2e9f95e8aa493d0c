#pragma once
// A Schedule: what one eval() runs, in order, as data. make_schedule is a pure function of the
// graph (it runs, compiles and allocates nothing): every library call the outputs reach comes
// after the calls it depends on, preceded by the kernels that compute its inputs (with the
// outputs' reductions that read the same work: calls.hpp, shared_reductions), and the kernels of
// the outputs come last. realize() runs the steps one after the other (run_step); explain()
// prints the same steps (to_string here, and the kernels of each step). A kernel step's plans
// are made when it runs (after the calls before it, whose results it reads as buffers), through
// the executable cache keyed by the step's fingerprint.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "graph/node.hpp"

namespace loom::exec {

struct Step {
  enum class Kind : std::uint8_t {
    Kernels,  // compute `targets` (fused kernels; views of results need none)
    Call,     // run `call` on its evaluated inputs; its outputs become buffers
  };
  Kind kind = Kind::Kernels;
  std::vector<detail::NodeRef> targets;         // Kernels
  std::size_t shared = 0;                       // Kernels before a call: targets that are the outputs' reductions
  std::shared_ptr<const detail::CallSpec> call;  // Call; Kernels: the call whose inputs these are (null: the outputs)
  // Call: its inputs as it reads them: call->inputs, with a C-order copy (computed by the step
  // before) in place of each Contiguous input whose layout is not known to be C order.
  std::vector<detail::NodeRef> inputs;
};

struct Schedule {
  std::vector<Step> steps;
};

// The steps of evaluating `outputs`.
Schedule make_schedule(std::span<const detail::NodeRef> outputs);

// The same, found by the graph's fingerprint through its calls (fingerprint.hpp) when an equal
// structure was scheduled before: the cache holds steps by slot (a node by its fingerprint
// number, a call by the number of one of its output nodes, a C-order copy by the node it
// copies), never a pointer, so a repeated eval with library calls walks its graph once.
Schedule find_or_make_schedule(std::span<const detail::NodeRef> outputs);
// Forgets every kept schedule (with the memory cache); schedules found so far (tests).
void clear_schedules();
std::uint64_t schedule_hits();

// One line per step: "kernels for the inputs of matmul (2 nodes, 1 reduction of the outputs)",
// "call matmul (...)", "kernels for the outputs (1 node)".
std::string to_string(const Schedule& s);

}  // namespace loom::exec
