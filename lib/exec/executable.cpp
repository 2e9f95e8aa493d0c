#include "exec/executable.hpp"

#include <array>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "exec/fingerprint.hpp"
#include "exec/realize.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_errors.hpp"
#include "runtime/env.hpp"
#include "runtime/nvtx.hpp"

namespace loom::exec {

using codegen::KernelPlan;
using detail::Node;
using detail::NodeRef;
using detail::Realized;

namespace {

const void* data_of(const Node* n) {
  if (const detail::Storage* s = detail::buffer_storage(*n)) return s->data();
  throw InternalError(fmt::format("internal: no buffer for {}", to_string(*n)));
}

// A requested view of a node that now has a buffer: the view's layout over that buffer.
void realize_view(const Node& view, const Node& base_node) {
  const Realized* base = base_node.realized();
  const Shape bst = base ? base->strides : base_node.strides();
  const std::int64_t boff = base ? base->offset : base_node.offset();
  auto r = std::make_shared<Realized>();
  r->storage = base ? base->storage : base_node.storage();
  if (view.op == detail::Op::Reshape) {
    r->strides = contiguous_strides(view.shape);
    r->offset = boff;
  } else {
    const detail::IndexMap& m = view.map();
    r->strides = Shape::filled(view.shape.size(), 0);
    r->offset = boff;
    for (int k = 0; k < m.in_ndim; ++k) r->offset += bst[k] * m.offset[k];
    for (int i = 0; i < m.out_ndim; ++i) r->strides[i] = m.dim[i] >= 0 ? bst[m.dim[i]] * m.coef[i] : 0;
  }
  view.set_realized(std::move(r));
}

// The scratch of split reductions on one stream: ticket counters, zeroed once when allocated
// (or grown) and reset by the last block of each output, so the next kernel on the stream finds
// them zero without a memset per launch; and the partial states, which need no zeroing. Kernels
// on one stream run in order, so they share both; a launch takes no pool allocation for them.
codegen::Workspace split_workspace(int device, cudaStream_t stream, std::size_t ticket_bytes, int partials,
                                   std::size_t partial_bytes) {
  struct Scratch {
    std::shared_ptr<detail::Storage> tickets, partials;
    std::size_t ticket_bytes = 0, partial_bytes = 0;
  };
  const auto grown = [](std::size_t have, std::size_t want) {
    return std::max<std::size_t>(want, std::max<std::size_t>(2 * have, 4096));
  };
  static std::mutex mu;
  static auto* by_stream = new std::map<std::pair<int, cudaStream_t>, Scratch>;  // never freed: used until exit
  codegen::Workspace ws;
  ws.partial_stride = (partial_bytes + 255) / 256 * 256;
  const std::size_t all_partials = ws.partial_stride * static_cast<std::size_t>(partials);
  std::lock_guard lock(mu);
  Scratch& s = (*by_stream)[{device, stream}];
  // Old buffers return to the pool in stream order, after the kernels that use them.
  if (s.ticket_bytes < ticket_bytes) {
    s.ticket_bytes = grown(s.ticket_bytes, ticket_bytes);
    s.tickets = device_storage(device, s.ticket_bytes);
    LOOM_CHECK_CUDA(cudaMemsetAsync(s.tickets->data(), 0, s.ticket_bytes, stream));
  }
  if (s.partial_bytes < all_partials) {
    s.partial_bytes = grown(s.partial_bytes, all_partials);
    s.partials = device_storage(device, s.partial_bytes);
  }
  ws.tickets = s.tickets->data();
  ws.partials = s.partials->data();
  return ws;
}

// Fingerprint numbers of nodes; a node the fingerprint did not reach gets a number past its
// nodes (and the executable is then not cached: the number means nothing in another graph).
class Numbers {
 public:
  explicit Numbers(const std::vector<const Node*>& nodes) : nodes_(nodes) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) index_.emplace(nodes_[i], static_cast<int>(i));
  }
  int of(const Node* n) {
    auto [it, fresh] = index_.emplace(n, static_cast<int>(nodes_.size()));
    if (fresh) nodes_.push_back(n);
    return it->second;
  }
  bool extended(std::size_t fingerprinted) const { return nodes_.size() > fingerprinted; }
  const std::vector<const Node*>& nodes() const { return nodes_; }

 private:
  std::vector<const Node*> nodes_;
  std::unordered_map<const Node*, int> index_;
};

// The executable of a prepared plan: kernels found or compiled, launch shapes, argument words.
Executable make_executable(const Prepared& p, int device, Numbers& num) {
  Executable e;
  const int sms = rt::device_props(device).sm_count;
  for (std::size_t g = 0; g < p.plan.groups.size(); ++g) {
    const KernelPlan& kp = p.kernels[g];
    KernelLaunch k;
    for (const NodeRef& r : p.plan.groups[g].roots) {
      k.roots.push_back(num.of(r.get()));
      k.root_bytes.push_back(static_cast<std::size_t>(r->numel()) * itemsize(r->dtype));
    }
    if (kp.numel > 0) {
      k.kernel = kernel_for(device, kp);
      k.dims = codegen::launch_dims(kp, sms, k.kernel->blocks_per_sm);
      codegen::StaticArgs args =
          codegen::pack_static(kp, k.kernel->params, k.dims.splits, [&](const Node* n) { return num.of(n); });
      k.words = std::move(args.words);
      k.patches = std::move(args.patches);
      const auto add_inputs = [&](const KernelPlan& plan) {
        for (const codegen::Leaf& l : plan.leaves) {
          if (l.kind == codegen::LeafKind::Buffer || l.kind == codegen::LeafKind::Gathered) k.inputs.push_back(num.of(plan.nodes[static_cast<std::size_t>(l.slot)]));
        }
      };
      add_inputs(kp);
      if (kp.reduce) add_inputs(*kp.reduce->prologue);
      if (rt::env().graph_launch) {
        k.graph = std::make_unique<rt::GraphLaunch>(k.kernel->loaded, dim3(k.dims.grid_x, k.dims.grid_y),
                                                    dim3(k.dims.block_x, k.dims.block_y));
      }
      if (kp.reduce && k.dims.splits > 1) {
        k.partials = static_cast<int>(kp.reduce->reductions.size());
        k.partial_bytes = codegen::partials_bytes(kp, k.dims.splits);
        k.ticket_bytes = codegen::tickets_bytes(kp);
      }
    }
    e.kernels.push_back(std::move(k));
  }
  for (const codegen::ViewRoot& v : p.plan.view_roots) e.view_roots.emplace_back(num.of(v.node.get()), num.of(v.base.get()));
  return e;
}

// Up to this many argument words are patched on the stack; more in a vector.
constexpr std::size_t kStackWords = 128;

// `cached`: the executable came from the cache (a repeated eval), so its kernels launch as graphs.
void run(const Executable& e, std::span<const Node* const> nodes, int device, bool cached) {
  cudaStream_t stream = rt::current_stream(device);
  const bool poison = poison_outputs();
  const auto node = [&](int i) { return nodes[static_cast<std::size_t>(i)]; };
  for (const KernelLaunch& k : e.kernels) {
    std::array<std::shared_ptr<detail::Storage>, 4> few;
    std::vector<std::shared_ptr<detail::Storage>> many(k.roots.size() > few.size() ? k.roots.size() : 0);
    const std::span<std::shared_ptr<detail::Storage>> storages =
        many.empty() ? std::span(few).first(k.roots.size()) : std::span(many);
    std::array<void*, 4> few_outs{};
    std::vector<void*> many_outs(many.size());
    const std::span<void*> outs = many.empty() ? std::span(few_outs).first(k.roots.size()) : std::span(many_outs);
    for (std::size_t i = 0; i < k.roots.size(); ++i) {
      storages[i] = device_storage(device, k.root_bytes[i], node(k.roots[i]));
      outs[i] = storages[i]->data();
      if (poison && k.root_bytes[i] > 0) LOOM_CHECK_CUDA(cudaMemsetAsync(outs[i], 0xff, k.root_bytes[i], stream));
    }
    if (k.kernel) {
      // Inputs last touched on another stream: this stream waits for that work first.
      for (int i : k.inputs) {
        if (const detail::Storage* s = detail::buffer_storage(*node(i))) order_after_last_use(*s, stream);
      }
      // Split reductions: the stream's tickets and partial states.
      codegen::Workspace ws;
      if (k.partials > 0) ws = split_workspace(device, stream, k.ticket_bytes, k.partials, k.partial_bytes);
      ws.splits = k.dims.splits;
      ws.error_record = rt::device_error_record(device);
      std::array<std::uint64_t, kStackWords> stack_words;
      std::vector<std::uint64_t> heap_words;
      std::span<std::uint64_t> words;
      if (k.words.size() <= kStackWords) {
        words = std::span(stack_words).first(k.words.size());
      } else {
        heap_words.resize(k.words.size());
        words = heap_words;
      }
      std::copy(k.words.begin(), k.words.end(), words.begin());
      codegen::apply_patches(words, k.patches, nodes, data_of, outs, ws);
      void* args[] = {words.data()};
      const rt::NvtxRange range(k.kernel->name.c_str());
      if (cached && k.graph) {
        k.graph->launch(args, stream);
      } else {
        rt::launch(k.kernel->loaded, dim3(k.dims.grid_x, k.dims.grid_y), dim3(k.dims.block_x, k.dims.block_y), args,
                   0, stream);
      }
      counters().launches.fetch_add(1, std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < k.roots.size(); ++i) {
      const Node* root = node(k.roots[i]);
      root->set_realized(contiguous_result(std::move(storages[i]), root->shape));
    }
  }
  for (auto [view, base] : e.view_roots) realize_view(*node(view), *node(base));
}

std::mutex g_mu;
// Never destroyed: its graphs would be destroyed after the CUDA runtime at exit.
auto& g_executables = *new std::unordered_map<std::string, std::shared_ptr<const Executable>>;
constexpr std::size_t kMaxExecutables = 4096;

}  // namespace

std::shared_ptr<const Executable> find_executable(const Fingerprint& fp) {
  std::shared_ptr<const Executable> e;
  {
    std::lock_guard lock(g_mu);
    if (auto it = g_executables.find(fp.bytes); it != g_executables.end()) e = it->second;
  }
  if (e) {
    for (const KernelLaunch& k : e->kernels) {
      if (k.kernel) counters().memory_hits.fetch_add(1, std::memory_order_relaxed);  // found without a lookup
    }
  }
  return e;
}

Compiled compile(const Prepared& p, const Fingerprint& fp, int device) {
  Numbers num(fp.nodes);
  Compiled c;
  c.executable = std::make_shared<const Executable>(make_executable(p, device, num));
  c.cacheable = !num.extended(fp.nodes.size());
  c.slots = num.nodes();
  return c;
}

void launch(const Executable& e, std::span<const Node* const> slots, int device, bool cached) {
  run(e, slots, device, cached);
}

void remember(const Fingerprint& fp, std::shared_ptr<const Executable> e) {
  std::lock_guard lock(g_mu);
  if (g_executables.size() >= kMaxExecutables) g_executables.clear();
  g_executables.emplace(fp.bytes, std::move(e));
}

void clear_executables() {
  std::lock_guard lock(g_mu);
  g_executables.clear();
}

}  // namespace loom::exec
