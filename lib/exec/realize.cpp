#include "exec/realize.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "exec/calls.hpp"
#include "exec/kernel_cache.hpp"
#include "exec/plan_cache.hpp"
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

std::shared_ptr<const Realized> contiguous(std::shared_ptr<detail::Storage> s, const Shape& shape) {
  auto r = std::make_shared<Realized>();
  r->storage = std::move(s);
  r->strides = contiguous_strides(shape);
  r->offset = 0;
  return r;
}

// A requested view of a node that now has a buffer: the view's layout over that buffer.
void realize_view(const codegen::ViewRoot& v) {
  const std::shared_ptr<const Realized> base = v.base->realized();
  const Shape bst = base ? base->strides : v.base->strides();
  const std::int64_t boff = base ? base->offset : v.base->offset();
  auto storage = base ? base->storage : v.base->storage();
  auto r = std::make_shared<Realized>();
  r->storage = storage;
  if (v.node->op == detail::Op::Reshape) {
    r->strides = contiguous_strides(v.node->shape);
    r->offset = boff;
  } else {
    const detail::IndexMap& m = v.node->map();
    r->strides = Shape::filled(v.node->shape.size(), 0);
    r->offset = boff;
    for (int k = 0; k < m.in_ndim; ++k) r->offset += bst[k] * m.offset[k];
    for (int i = 0; i < m.out_ndim; ++i) r->strides[i] = m.dim[i] >= 0 ? bst[m.dim[i]] * m.coef[i] : 0;
  }
  v.node->set_realized(std::move(r));
}

const void* data_of(const Node* n) {
  if (auto r = n->realized()) return r->storage->data();
  if (n->op == detail::Op::Buffer) return n->storage()->data();
  throw Error(fmt::format("internal: no buffer for {}", to_string(*n)));
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
    todo[i]->set_realized(contiguous(std::move(s), todo[i]->shape));
  }
}

}  // namespace

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

namespace {

// The ticket counters of split reductions on one stream: zeroed once when allocated (or grown);
// the last block of each output resets its ticket, so the next kernel on the stream finds them
// zero without a memset per launch. Kernels on one stream run in order, so they share them.
void* reduction_tickets(int device, cudaStream_t stream, std::size_t bytes) {
  struct Tickets {
    std::shared_ptr<detail::Storage> storage;
    std::size_t bytes = 0;
  };
  static std::mutex mu;
  static auto* by_stream = new std::map<std::pair<int, cudaStream_t>, Tickets>;  // never freed: used until exit
  std::lock_guard lock(mu);
  Tickets& t = (*by_stream)[{device, stream}];
  if (t.bytes < bytes) {
    const std::size_t grown = std::max<std::size_t>(bytes, std::max<std::size_t>(2 * t.bytes, 4096));
    t.storage = device_storage(device, grown);  // the old buffer returns to the pool in stream order
    t.bytes = grown;
    LOOM_CHECK_CUDA(cudaMemsetAsync(t.storage->data(), 0, grown, stream));
  }
  return t.storage->data();
}

}  // namespace

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

Prepared prepare(std::span<const NodeRef> outputs) {
  codegen::PartitionOptions opts;
  opts.fusion = fusion_on();
  opts.max_kernel_ops = rt::env().max_kernel_ops;
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
      debug("plan_kernel", [&] { return codegen::to_string(kp); });
      p.kernels.push_back(std::move(kp));
    }
    if (!again) return p;
    if (attempt > 64) throw Error("internal: partitioning did not converge");
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
  Prepared prep = cached_prepare(outputs, fusion_on(), rt::env().max_kernel_ops);
  const int device = rt::current_device();
  cudaStream_t stream = rt::current_stream(device);
  for (std::size_t g = 0; g < prep.plan.groups.size(); ++g) {
    const codegen::KernelGroup& group = prep.plan.groups[g];
    KernelPlan& kp = prep.kernels[g];
    std::vector<std::shared_ptr<detail::Storage>> storages;
    std::vector<void*> outs;
    for (const NodeRef& r : group.roots) {
      const std::size_t nbytes = static_cast<std::size_t>(r->numel()) * itemsize(r->dtype);
      storages.push_back(device_storage(device, nbytes));
      outs.push_back(storages.back()->data());
      if (poison_on() && nbytes > 0) LOOM_CHECK_CUDA(cudaMemsetAsync(outs.back(), 0xff, nbytes, stream));
    }
    if (kp.numel > 0) {
      // Inputs last touched on another stream: this stream waits for that work first.
      const auto order_inputs = [&](const KernelPlan& plan) {
        for (const codegen::Leaf& l : plan.leaves) {
          if (l.kind != codegen::LeafKind::Buffer) continue;
          if (auto r = l.node->realized()) {
            order_after_last_use(*r->storage, stream);
          } else if (l.node->op == detail::Op::Buffer) {
            order_after_last_use(*l.node->storage(), stream);
          }
        }
      };
      order_inputs(kp);
      if (kp.reduce) order_inputs(*kp.reduce->prologue);
      if (!codegen::vector_aligned(kp, data_of, outs)) codegen::drop_vectors(kp);
      const auto kernel = kernel_for(device, kp);
      const codegen::LaunchDims d = codegen::launch_dims(kp, rt::device_props(device).sm_count, kernel->blocks_per_sm);
      // Reductions split across blocks: partial states from the pool, the stream's tickets.
      codegen::Workspace ws;
      ws.splits = d.splits;
      std::vector<std::shared_ptr<detail::Storage>> scratch;
      if (kp.reduce && d.splits > 1) {
        for (std::size_t i = 0; i < kp.reduce->reductions.size(); ++i) {
          scratch.push_back(device_storage(device, codegen::partials_bytes(kp, d.splits)));
          ws.partials.push_back(scratch.back()->data());
        }
        ws.tickets = reduction_tickets(device, stream, codegen::tickets_bytes(kp));
      }
      const std::vector<std::uint64_t> words = codegen::pack_params(kp, kernel->params, data_of, outs, ws);
      void* args[] = {const_cast<std::uint64_t*>(words.data())};
      rt::launch(kernel->loaded, dim3(d.grid_x, d.grid_y), dim3(d.block_x, d.block_y), args, 0, stream);
      counters().launches.fetch_add(1, std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < group.roots.size(); ++i) {
      group.roots[i]->set_realized(contiguous(storages[i], group.roots[i]->shape));
    }
  }
  for (const codegen::ViewRoot& v : prep.plan.view_roots) realize_view(v);
}

void set_poison_outputs(bool on) { g_poison.set(on); }
bool poison_outputs() { return poison_on(); }

bool fusion_enabled_impl() { return fusion_on(); }
void set_fusion_impl(bool on) { g_fusion.set(on); }

}  // namespace loom::exec
