#include "exec/realize.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "exec/calls.hpp"
#include "exec/deferred_checks.hpp"
#include "exec/executable.hpp"
#include "exec/fingerprint.hpp"
#include "exec/schedule.hpp"
#include "graph/print.hpp"
#include "reference/evaluator.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/nvtx.hpp"
#include "runtime/device.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/env.hpp"

namespace loom::exec {

using codegen::KernelPlan;
using detail::Node;
using detail::NodeRef;
using detail::Realized;

namespace {

// A switch that starts as its environment setting (read on first use) and can be changed at
// run time through the API.
class Switch {
 public:
  explicit Switch(bool rt::Env::*field) : field_(field) {}
  bool on() {
    int v = v_.load(std::memory_order_relaxed);
    if (v < 0) {
      v = rt::env().*field_ ? 1 : 0;
      v_.store(v, std::memory_order_relaxed);
    }
    return v == 1;
  }
  void set(bool on) { v_.store(on ? 1 : 0, std::memory_order_relaxed); }

 private:
  bool rt::Env::*field_;
  std::atomic<int> v_{-1};
};

Switch g_fusion(&rt::Env::fusion);          // LOOM_FUSION, set_fusion()
Switch g_poison(&rt::Env::poison_outputs);  // LOOM_POISON_OUTPUTS, set_poison_outputs()

bool fusion_on() { return g_fusion.on(); }
bool poison_on() { return g_poison.on(); }

// Prints a pass's result with LOOM_DEBUG_PASSES=1; the text is only built then.
template <class F> void debug(const char* pass, F&& text) {
  if (rt::env().debug_passes) std::cerr << "--- loom after " << pass << " ---\n" << text();
}


// A leaf's data as planning sees it: the buffer of an input, or (for a node an earlier kernel of
// the same eval computes) a pool address, aligned to 256 bytes.
const void* planned_address(const Node* n) {
  const detail::Storage* s = detail::buffer_storage(*n);
  return s ? s->data() : reinterpret_cast<const void*>(std::uintptr_t{256});
}

void realize_on_host(std::span<const NodeRef> outputs) {
  std::vector<NodeRef> todo;
  for (const NodeRef& o : outputs) {
    if (o->op != detail::Op::Buffer && !o->realized()) todo.push_back(o);
  }
  if (todo.empty()) return;
  std::vector<ref::HostArray> vals = ref::evaluate(todo, read_storage);
  for (std::size_t i = 0; i < todo.size(); ++i) {
    auto s = host_storage(vals[i].data.size(), todo[i].get());
    if (!vals[i].data.empty()) std::memcpy(s->data(), vals[i].data.data(), vals[i].data.size());
    todo[i]->set_realized(contiguous_result(std::move(s), todo[i]->shape));
  }
}

}  // namespace

Prepared prepare(std::span<const NodeRef> outputs, std::span<const NodeRef> computed) {
  codegen::PartitionOptions opts;
  opts.fusion = fusion_on();
  opts.max_kernel_ops = rt::env().max_kernel_ops;
  if (rt::env().debug_passes) opts.debug = &std::cerr;
  for (const NodeRef& c : computed) opts.computed.push_back(c.get());
  std::vector<codegen::Cut> cuts;
  for (int attempt = 0;; ++attempt) {
    Prepared p;
    p.plan = codegen::partition(outputs, opts, cuts);
    debug("partition", [&] { return codegen::to_string(p.plan); });
    bool again = false;
    const int sms = rt::has_gpu() ? rt::device_props(rt::current_device()).sm_count : 132;
    for (const codegen::KernelGroup& g : p.plan.groups) {
      KernelPlan kp = g.reduction ? codegen::plan_reduce(g, p.plan.materialized, sms)
                                  : codegen::plan_kernel(g, p.plan.materialized);
      if (!kp.needs_cut.empty()) {
        cuts.insert(cuts.end(), kp.needs_cut.begin(), kp.needs_cut.end());
        again = true;
        break;
      }
      // Vector accesses need aligned data. The fingerprint holds the alignment of every input's
      // data, so the plan can settle it: outputs and buffers made during the eval come from the
      // pool, aligned to 256 bytes.
      const std::vector<void*> pool_aligned(g.roots.size(), reinterpret_cast<void*>(std::uintptr_t{256}));
      if (!codegen::vector_aligned(kp, planned_address, pool_aligned)) codegen::drop_vectors(kp);
      debug("plan_kernel", [&] { return codegen::to_string(kp); });
      p.kernels.push_back(std::move(kp));
    }
    if (!again) return p;
    if (attempt > 64) throw InternalError("internal: partitioning did not converge");
  }
}

namespace {

bool all_realized(std::span<const NodeRef> outputs) {
  return std::all_of(outputs.begin(), outputs.end(),
                     [](const NodeRef& o) { return o->op == detail::Op::Buffer || o->realized(); });
}

// Whether a library call the outputs reach has not run yet (then the eval is a schedule).
bool reaches_call(std::span<const NodeRef> outputs) {
  return std::any_of(outputs.begin(), outputs.end(), [](const NodeRef& o) { return o->has_call && !o->realized(); });
}

}  // namespace

void run_kernels(std::span<const NodeRef> targets) {
  if (all_realized(targets)) return;
  const int device = rt::current_device();
  const Fingerprint fp = fingerprint(targets, fusion_on(), rt::env().max_kernel_ops, device);
  debug("fingerprint", [&] { return fmt::format("{} node(s), {} bytes\n", fp.nodes.size(), fp.bytes.size()); });
  if (const std::shared_ptr<const Executable> cached = find_executable(fp)) {
    debug("find_executable", [&] { return fmt::format("cached: {} kernel(s)\n", cached->kernels.size()); });
    launch(*cached, fp.nodes, device, true);
    return;
  }
  const Prepared p = prepare(targets);  // partition, then plan each kernel (debug prints both)
  const Compiled c = compile(p, fp, device);
  debug("compile", [&] { return fmt::format("{} kernel(s), cacheable {}\n", c.executable->kernels.size(), c.cacheable); });
  launch(*c.executable, c.slots, device, false);
  if (c.cacheable) remember(fp, c.executable);
}

// The pipeline of one eval(), step by step: with library calls to run, the schedule's steps in
// order; else one kernel step, where a repeated eval of one structure finds its executable by
// fingerprint and goes straight to the launch.
namespace {
thread_local int t_realize_depth = 0;
}  // namespace

bool in_realize() { return t_realize_depth > 0; }

void realize(std::span<const NodeRef> outputs) {
  const rt::NvtxRange range("loom eval");
  struct Depth {
    Depth() { ++t_realize_depth; }
    ~Depth() {
      // The outermost eval: the deferred index checks its library calls ran are done with.
      if (--t_realize_depth == 0) note_evaluated();
    }
  } depth;
  // Nothing to compute: no fingerprint, no lookup.
  if (all_realized(outputs)) return;
  if (!rt::has_gpu()) {
    realize_on_host(outputs);  // the host reference evaluator
    return;
  }
  debug("input", [&] { return detail::graph_to_string(outputs); });
  if (!reaches_call(outputs)) {
    run_kernels(outputs);  // one kernel step: the schedule would be that alone
  } else {
    const Schedule s = find_or_make_schedule(outputs);
    debug("make_schedule", [&] { return to_string(s); });
    for (const Step& step : s.steps) {
      switch (step.kind) {
        case Step::Kind::Kernels: run_kernels(step.targets); break;
        case Step::Kind::Call: run_call(*step.call, step.inputs); break;
      }
    }
  }
  debug("launch", [&] { return detail::graph_to_string(outputs); });  // outputs now evaluated
}

void set_poison_outputs(bool on) { g_poison.set(on); }
bool poison_outputs() { return poison_on(); }

bool fusion_enabled_impl() { return fusion_on(); }
void set_fusion_impl(bool on) { g_fusion.set(on); }

}  // namespace loom::exec
