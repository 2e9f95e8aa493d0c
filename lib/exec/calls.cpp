#include "exec/calls.hpp"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "exec/realize.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/nvtx.hpp"

namespace loom::exec {

using detail::CallArg;
using detail::CallSpec;
using detail::Node;
using detail::NodeRef;

namespace {

std::atomic<std::uint64_t> g_calls_run{0};

// Where a realized node (or a buffer leaf) lies in memory.
CallArg arg_of(const Node& n, std::shared_ptr<detail::Storage>* keep) {
  CallArg a;
  a.dtype = n.dtype;
  a.shape = n.shape;
  if (auto r = n.realized()) {
    *keep = r->storage;
    a.strides = r->strides;
    a.offset = r->offset;
  } else if (n.op == detail::Op::Buffer) {
    *keep = n.storage();
    a.strides = n.strides();
    a.offset = n.offset();
  } else {
    throw InternalError(fmt::format("internal: call input {} was not evaluated", to_string(n)));
  }
  a.base = (*keep)->data();
  return a;
}

class DeviceContext final : public detail::CallContext {
 public:
  void* workspace(std::size_t nbytes) override {
    keep_.push_back(device_storage(device, nbytes));
    return keep_.back()->data();
  }
  const CallArg& contiguous(int i) override {
    CallArg& a = in.at(static_cast<std::size_t>(i));
    if (a.c_contiguous()) return a;
    // A loom copy kernel on this stream: the input as a buffer leaf, copied in C order (one
    // kernel step: no calls to run, no schedule).
    NodeRef leaf = detail::make_buffer(inputs_.at(static_cast<std::size_t>(i)), a.dtype, a.shape, a.strides, a.offset);
    NodeRef copy = detail::make_copy(leaf, true);
    run_kernels(std::span<const NodeRef>(&copy, 1));
    std::shared_ptr<detail::Storage> s;
    a = arg_of(*copy, &s);
    keep_.push_back(std::move(s));
    return a;
  }
  std::vector<std::shared_ptr<detail::Storage>> inputs_;  // keeps inputs alive
  std::vector<std::shared_ptr<detail::Storage>> keep_;    // workspaces and copies
};

// Fills in where the (evaluated) inputs lie, the device and its current stream.
void fill_context(const std::vector<NodeRef>& inputs, DeviceContext& ctx) {
  ctx.device = rt::current_device();
  cudaStream_t stream = rt::current_stream(ctx.device);
  ctx.stream = stream;
  for (const NodeRef& in : inputs) {
    std::shared_ptr<detail::Storage> s;
    ctx.in.push_back(arg_of(*in, &s));
    order_after_last_use(*s, stream);
    ctx.inputs_.push_back(std::move(s));
  }
}

}  // namespace

void run_call(const CallSpec& c, const std::vector<NodeRef>& inputs) {
  if (!c.device) throw Error(fmt::format("{}: has no device implementation", c.name));
  std::lock_guard lock(c.mu);
  // Another output of this call may have been evaluated meanwhile.
  for (const auto& w : c.output_nodes) {
    if (auto o = w.lock(); o && o->realized()) return;
  }
  DeviceContext ctx;
  fill_context(inputs, ctx);
  const rt::NvtxRange range(c.name.c_str());
  cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
  std::vector<std::shared_ptr<detail::Storage>> outs;
  for (std::size_t k = 0; k < c.outputs.size(); ++k) {
    const detail::CallOutput& o = c.outputs[k];
    const std::size_t nbytes = static_cast<std::size_t>(o.shape.numel()) * itemsize(o.dtype);
    const NodeRef made = k < c.output_nodes.size() ? c.output_nodes[k].lock() : nullptr;
    outs.push_back(device_storage(ctx.device, nbytes, made.get()));
    ctx.out.push_back(outs.back()->data());
    if (poison_outputs() && nbytes > 0) LOOM_CHECK_CUDA(cudaMemsetAsync(ctx.out.back(), 0xff, nbytes, stream));
  }
  c.device(ctx);
  g_calls_run.fetch_add(1, std::memory_order_relaxed);
  for (std::size_t k = 0; k < outs.size(); ++k) {
    auto r = std::make_shared<detail::Realized>();
    r->storage = outs[k];
    r->strides = contiguous_strides(c.outputs[k].shape);
    for (const auto& w : c.output_nodes) {
      auto o = w.lock();
      if (o && static_cast<std::size_t>(o->k()) == k) o->set_realized(r);
    }
  }
}

std::vector<std::shared_ptr<const CallSpec>> pending_calls(std::span<const NodeRef> outputs) {
  // Post-order, through each call to its inputs: a call comes after every call its inputs
  // reach, so running them in this order never recurses (iterative: 10^6 chained calls).
  std::vector<std::shared_ptr<const CallSpec>> calls;
  std::unordered_set<const Node*> seen;
  std::unordered_set<const CallSpec*> seen_calls;
  const auto pending = [&](const Node* n) {
    return n->has_call && !n->realized() && seen.insert(n).second;
  };
  std::vector<std::pair<const Node*, std::size_t>> stack;
  for (const NodeRef& o : outputs) {
    if (pending(o.get())) stack.emplace_back(o.get(), 0);
    while (!stack.empty()) {
      const Node* n = stack.back().first;
      const std::size_t next = stack.back().second++;
      const bool is_call = n->op == detail::Op::Call;
      const std::size_t count = is_call ? n->call()->inputs.size() : static_cast<std::size_t>(n->num_inputs);
      if (next < count) {
        const Node* in = (is_call ? n->call()->inputs[next] : n->inputs[next]).get();
        if (pending(in)) stack.emplace_back(in, 0);
        continue;
      }
      if (is_call && seen_calls.insert(n->call().get()).second) calls.push_back(n->call());
      stack.pop_back();
    }
  }
  return calls;
}

std::vector<NodeRef> shared_reductions(const CallSpec& c, std::span<const NodeRef> outputs,
                                       const std::unordered_set<const CallSpec*>& done) {
  // What the call's inputs compute: every node reachable from them short of leaves, evaluated
  // nodes and other calls.
  std::unordered_set<const Node*> inputs_reach;
  std::vector<const Node*> stack;
  for (const NodeRef& in : c.inputs) stack.push_back(in.get());
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (detail::acts_as_leaf(*n) || !inputs_reach.insert(n).second) continue;
    for (int i = 0; i < n->num_inputs; ++i) stack.push_back(n->inputs[static_cast<std::size_t>(i)].get());
  }
  if (inputs_reach.empty()) return {};
  // The outputs' graphs, inputs before users: a node is ready when no call it reaches is
  // pending (its value can be computed now).
  std::unordered_map<const Node*, bool> ready;
  std::unordered_set<const Node*> added;
  std::vector<NodeRef> found;
  std::vector<std::pair<const NodeRef*, int>> walk;
  for (const NodeRef& o : outputs) {
    if (ready.count(o.get())) continue;
    walk.emplace_back(&o, 0);
    while (!walk.empty()) {
      auto& [ref, next] = walk.back();
      const Node* n = ref->get();
      const bool leaf = detail::acts_as_leaf(*n);
      if (!leaf && next < n->num_inputs) {
        const NodeRef& in = n->inputs[static_cast<std::size_t>(next++)];
        if (!ready.count(in.get())) walk.emplace_back(&in, 0);
        continue;
      }
      bool ok = !(n->op == detail::Op::Call && !n->realized() && !done.count(n->call().get()));
      for (int i = 0; ok && !leaf && i < n->num_inputs; ++i) ok = ready.at(n->inputs[static_cast<std::size_t>(i)].get());
      ready[n] = ok;
      // A reduction the inputs compute too (so the outputs read its result), or one that reduces
      // what they compute (so it joins their kernel): either way its work is done once, here.
      if (ok && !leaf && n->op == detail::Op::Reduce &&
          (inputs_reach.count(n) || inputs_reach.count(n->inputs[0].get())) && added.insert(n).second) {
        found.push_back(*ref);
      }
      walk.pop_back();
    }
  }
  return found;
}

void run_eager(const std::vector<NodeRef>& inputs, const std::function<void(detail::CallContext&)>& fn) {
  realize(inputs);
  DeviceContext ctx;
  fill_context(inputs, ctx);
  fn(ctx);
  g_calls_run.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t calls_run() { return g_calls_run.load(std::memory_order_relaxed); }

}  // namespace loom::exec
