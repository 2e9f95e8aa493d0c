#include "exec/schedule.hpp"

#include <unordered_set>

#include <fmt/format.h>

#include "exec/calls.hpp"

namespace loom::exec {

using detail::CallSpec;
using detail::NodeRef;

namespace {

// Whether the call will see n in C order: a buffer's or an evaluated node's own strides; a call's
// output and a computed array are C-contiguous (kernels write so); a lazy view's layout is
// decided by the plan (a view of a buffer keeps the buffer's strides): not known here.
bool c_order_at_call(const detail::Node& n) {
  if (const detail::Realized* r = n.realized()) return is_c_contiguous(n.shape, r->strides);
  if (n.op == detail::Op::Buffer) return is_c_contiguous(n.shape, n.strides());
  return n.op != detail::Op::View && n.op != detail::Op::Reshape;
}

}  // namespace

Schedule make_schedule(std::span<const NodeRef> outputs) {
  Schedule s;
  std::unordered_set<const CallSpec*> done;  // calls the steps so far run
  for (const std::shared_ptr<const CallSpec>& c : pending_calls(outputs)) {
    // The inputs as the call reads them, and those still to compute (not buffers, not other
    // calls' outputs: their call runs first).
    std::vector<NodeRef> inputs = c->inputs, todo;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const bool as_it_lies = i < c->layouts.size() && c->layouts[i] == detail::InputLayout::AsItLies;
      if (!as_it_lies && !c_order_at_call(*inputs[i])) inputs[i] = detail::make_copy(inputs[i], true);
      const NodeRef& in = inputs[i];
      if (in->op != detail::Op::Buffer && in->op != detail::Op::Call && !in->realized()) todo.push_back(in);
    }
    if (!todo.empty()) {
      const std::vector<NodeRef> shared = shared_reductions(*c, outputs, done);
      Step k{Step::Kind::Kernels, std::move(todo), shared.size(), c, {}};
      k.targets.insert(k.targets.end(), shared.begin(), shared.end());
      s.steps.push_back(std::move(k));
    }
    s.steps.push_back(Step{Step::Kind::Call, {}, 0, c, std::move(inputs)});
    done.insert(c.get());
  }
  s.steps.push_back(Step{Step::Kind::Kernels, std::vector<NodeRef>(outputs.begin(), outputs.end()), 0, nullptr, {}});
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
