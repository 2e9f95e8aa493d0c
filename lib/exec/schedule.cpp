#include "exec/schedule.hpp"

#include <unordered_set>

#include <fmt/format.h>

#include "exec/calls.hpp"

namespace loom::exec {

using detail::CallSpec;
using detail::NodeRef;

Schedule make_schedule(std::span<const NodeRef> outputs) {
  Schedule s;
  std::unordered_set<const CallSpec*> done;  // calls the steps so far run
  for (const std::shared_ptr<const CallSpec>& c : pending_calls(outputs)) {
    // Inputs still to compute: not buffers, not other calls' outputs (their call runs first).
    std::vector<NodeRef> todo;
    for (const NodeRef& in : c->inputs) {
      if (in->op != detail::Op::Buffer && in->op != detail::Op::Call && !in->realized()) todo.push_back(in);
    }
    if (!todo.empty()) {
      const std::vector<NodeRef> shared = shared_reductions(*c, outputs, done);
      Step k{Step::Kind::Kernels, std::move(todo), shared.size(), c};
      k.targets.insert(k.targets.end(), shared.begin(), shared.end());
      s.steps.push_back(std::move(k));
    }
    s.steps.push_back(Step{Step::Kind::Call, {}, 0, c});
    done.insert(c.get());
  }
  s.steps.push_back(Step{Step::Kind::Kernels, std::vector<NodeRef>(outputs.begin(), outputs.end()), 0, nullptr});
  return s;
}

std::string to_string(const Schedule& s) {
  std::string out;
  for (const Step& st : s.steps) {
    switch (st.kind) {
      case Step::Kind::Kernels:
        out += st.call ? fmt::format("kernels for the inputs of {} ({} node(s), {} reduction(s) of the outputs)\n",
                                     st.call->name, st.targets.size() - st.shared, st.shared)
                       : fmt::format("kernels for the outputs ({} node(s))\n", st.targets.size());
        break;
      case Step::Kind::Call: out += fmt::format("call {}\n", to_string(*st.call)); break;
    }
  }
  return out;
}

}  // namespace loom::exec
