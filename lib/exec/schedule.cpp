#include "exec/schedule.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "exec/calls.hpp"
#include "exec/fingerprint.hpp"

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

namespace {

// A schedule by slot: a node is its fingerprint slot v >= 0, a C-order copy of slot v is -1 - v;
// a call is the slot of one of its output nodes (-1: none).
struct SlotStep {
  Step::Kind kind;
  std::vector<int> targets;
  std::size_t shared;
  int call;
  std::vector<int> inputs;
};
using SlotSchedule = std::vector<SlotStep>;

std::optional<SlotSchedule> to_slots(const Schedule& s, const Fingerprint& fp) {
  std::unordered_map<const detail::Node*, int> slot;
  for (std::size_t i = 0; i < fp.nodes.size(); ++i) slot.emplace(fp.nodes[i], static_cast<int>(i));
  // The copies the schedule made, by the node each copies.
  for (const Step& st : s.steps) {
    if (st.kind != Step::Kind::Call) continue;
    for (std::size_t i = 0; i < st.inputs.size(); ++i) {
      if (st.inputs[i] == st.call->inputs[i]) continue;
      const auto it = slot.find(st.call->inputs[i].get());
      if (it == slot.end()) return std::nullopt;
      slot.emplace(st.inputs[i].get(), -1 - it->second);
    }
  }
  const auto name = [&](const NodeRef& n) -> std::optional<int> {
    const auto it = slot.find(n.get());
    return it == slot.end() ? std::nullopt : std::optional<int>(it->second);
  };
  const auto name_call = [&](const std::shared_ptr<const CallSpec>& c) -> std::optional<int> {
    if (!c) return -1;
    for (const auto& w : c->output_nodes) {
      if (const NodeRef o = w.lock()) {
        if (const auto v = name(o); v && *v >= 0) return v;
      }
    }
    return std::nullopt;
  };
  SlotSchedule out;
  for (const Step& st : s.steps) {
    SlotStep ss{st.kind, {}, st.shared, -1, {}};
    const auto call = name_call(st.call);
    if (!call) return std::nullopt;
    ss.call = *call;
    for (const NodeRef& t : st.targets) {
      const auto v = name(t);
      if (!v) return std::nullopt;
      ss.targets.push_back(*v);
    }
    for (const NodeRef& t : st.inputs) {
      const auto v = name(t);
      if (!v) return std::nullopt;
      ss.inputs.push_back(*v);
    }
    out.push_back(std::move(ss));
  }
  return out;
}

Schedule from_slots(const SlotSchedule& ss, const Fingerprint& fp) {
  std::unordered_map<int, NodeRef> copies;
  const auto node = [&](int v) -> NodeRef {
    if (v >= 0) return *fp.refs[static_cast<std::size_t>(v)];
    NodeRef& c = copies[v];
    if (!c) c = detail::make_copy(*fp.refs[static_cast<std::size_t>(-1 - v)], true);
    return c;
  };
  Schedule s;
  s.steps.reserve(ss.size());
  for (const SlotStep& st : ss) {
    Step step{st.kind, {}, st.shared, st.call >= 0 ? fp.nodes[static_cast<std::size_t>(st.call)]->call() : nullptr, {}};
    step.targets.reserve(st.targets.size());
    for (int v : st.targets) step.targets.push_back(node(v));
    for (int v : st.inputs) step.inputs.push_back(node(v));
    s.steps.push_back(std::move(step));
  }
  return s;
}

std::mutex g_mu;
auto& g_schedules = *new std::unordered_map<std::string, std::shared_ptr<const SlotSchedule>>;
constexpr std::size_t kMaxSchedules = 1024;
std::atomic<std::uint64_t> g_hits{0};

}  // namespace

Schedule find_or_make_schedule(std::span<const NodeRef> outputs) {
  const Fingerprint fp = fingerprint(outputs, true, 0, -1, /*through_calls=*/true);
  std::shared_ptr<const SlotSchedule> found;
  {
    std::lock_guard lock(g_mu);
    if (const auto it = g_schedules.find(fp.bytes); it != g_schedules.end()) found = it->second;
  }
  if (found) {
    g_hits.fetch_add(1, std::memory_order_relaxed);
    return from_slots(*found, fp);
  }
  Schedule s = make_schedule(outputs);
  if (auto slots = to_slots(s, fp)) {
    std::lock_guard lock(g_mu);
    if (g_schedules.size() >= kMaxSchedules) g_schedules.clear();
    g_schedules.emplace(fp.bytes, std::make_shared<const SlotSchedule>(std::move(*slots)));
  }
  return s;
}

void clear_schedules() {
  std::lock_guard lock(g_mu);
  g_schedules.clear();
}

std::uint64_t schedule_hits() { return g_hits.load(std::memory_order_relaxed); }

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
