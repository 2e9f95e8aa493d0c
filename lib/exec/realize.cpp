#include "exec/realize.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "exec/calls.hpp"
#include "exec/executable.hpp"
#include "reference/evaluator.hpp"
#include "runtime/cuda_check.hpp"
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
    auto s = host_storage(vals[i].data.size());
    if (!vals[i].data.empty()) std::memcpy(s->data(), vals[i].data.data(), vals[i].data.size());
    todo[i]->set_realized(contiguous_result(std::move(s), todo[i]->shape));
  }
}

}  // namespace

std::shared_ptr<const Realized> contiguous_result(std::shared_ptr<detail::Storage> s, const Shape& shape) {
  auto r = std::make_shared<Realized>();
  r->storage = std::move(s);
  r->strides = contiguous_strides(shape);
  r->offset = 0;
  return r;
}

std::shared_ptr<detail::Storage> host_storage(std::size_t nbytes) {
  const std::size_t size = (std::max<std::size_t>(nbytes, 1) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, size);
  if (!p) throw OutOfMemory(fmt::format("out of host memory allocating {} bytes", nbytes), nbytes);
  return std::make_shared<detail::Storage>(p, nbytes, Placement{DeviceKind::Host, -1},
                                           [p](void*) { std::free(p); });
}

std::shared_ptr<detail::Storage> device_storage(int device, std::size_t nbytes) {
  if (nbytes == 0) {
    return std::make_shared<detail::Storage>(nullptr, 0, Placement{DeviceKind::GPU, device}, nullptr);
  }
  cudaStream_t stream = rt::current_stream(device);
  void* p = rt::device_alloc(device, nbytes, stream);
  return std::make_shared<detail::Storage>(
      p, nbytes, Placement{DeviceKind::GPU, device},
      [device, p](void* last) { rt::device_free(device, p, static_cast<cudaStream_t>(last)); },
      stream);
}

void order_after_last_use(const detail::Storage& s, cudaStream_t stream) {
  void* last = s.last_stream();
  if (last != nullptr && last != stream) rt::stream_wait(stream, static_cast<cudaStream_t>(last));
  s.set_last_stream(stream);
}

void read_storage(const detail::Storage& s, std::size_t offset, std::size_t nbytes, void* dst) {
  if (nbytes == 0) return;
  const auto* src = static_cast<const char*>(s.data()) + offset;
  if (s.on_host()) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  const int device = s.placement().index;
  cudaStream_t stream = rt::current_stream(device);
  order_after_last_use(s, stream);
  LOOM_CHECK_CUDA(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
  LOOM_CHECK_CUDA(cudaStreamSynchronize(stream));
}

Prepared prepare(std::span<const NodeRef> outputs, std::span<const NodeRef> computed) {
  codegen::PartitionOptions opts;
  opts.fusion = fusion_on();
  opts.max_kernel_ops = rt::env().max_kernel_ops;
  for (const NodeRef& c : computed) opts.computed.push_back(c.get());
  std::vector<const Node*> cuts;
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

void realize(std::span<const NodeRef> outputs) {
  if (!rt::has_gpu()) {
    realize_on_host(outputs);
    return;
  }
  for (const NodeRef& o : outputs) {
    if (o->has_call && !o->realized()) {
      run_calls(outputs);  // library calls first: their outputs are buffers to the plan
      break;
    }
  }
  run_on_device(outputs, rt::current_device());
}

void set_poison_outputs(bool on) { g_poison.set(on); }
bool poison_outputs() { return poison_on(); }

bool fusion_enabled_impl() { return fusion_on(); }
void set_fusion_impl(bool on) { g_fusion.set(on); }

}  // namespace loom::exec
