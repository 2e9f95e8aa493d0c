#include "exec/plan_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "runtime/device.hpp"

namespace loom::exec {

using detail::Node;
using detail::NodeRef;
using detail::Op;

namespace {

// The fingerprint's bytes, written through a raw pointer into a buffer on the stack (a heap one
// past it), then copied into the string once: a node's record is at most kMaxRecord bytes, and
// room for one is made before it is written (one check per node, not per byte). Small integers
// take a byte; others a marker byte and eight.
class Writer {
 public:
  static constexpr std::size_t kMaxRecord = 64 + 9 * 6 * kMaxDims;
  explicit Writer(std::string& s) : s_(s) {}
  ~Writer() { s_.assign(p_, pos_); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  void room() {
    if (pos_ + kMaxRecord <= cap_) return;
    cap_ = 2 * (pos_ + kMaxRecord);
    auto bigger = std::make_unique_for_overwrite<char[]>(cap_);
    std::memcpy(bigger.get(), p_, pos_);
    big_ = std::move(bigger);
    p_ = big_.get();
  }
  void put(std::int64_t v) {
    char* p = p_ + pos_;
    if (v >= -100 && v < 127) {
      *p = static_cast<char>(v);
      pos_ += 1;
    } else {
      *p = static_cast<char>(127);
      std::memcpy(p + 1, &v, sizeof v);
      pos_ += 1 + sizeof v;
    }
  }
  void put_shape(const Shape& sh) {
    put(sh.size());
    for (std::int64_t d : sh) put(d);
  }

 private:
  std::string& s_;
  char small_[2 * kMaxRecord];
  std::unique_ptr<char[]> big_;
  char* p_ = small_;
  std::size_t cap_ = sizeof small_;
  std::size_t pos_ = 0;
};

// log2 of the alignment of an address, up to 16 bytes (the widest vector access).
int alignment_class(const void* p) { return std::countr_zero(reinterpret_cast<std::uintptr_t>(p) | 16u); }

// Node numbering: small graphs by linear search, large ones through a map.
class Numbering {
 public:
  Numbering() { nodes_.reserve(16); }
  int find(const Node* n) const {
    if (map_.empty()) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (nodes_[i] == n) return static_cast<int>(i);
      }
      return -1;
    }
    auto it = map_.find(n);
    return it == map_.end() ? -1 : it->second;
  }
  int add(const Node* n) {
    nodes_.push_back(n);
    const int id = static_cast<int>(nodes_.size()) - 1;
    if (!map_.empty()) {
      map_.emplace(n, id);
    } else if (nodes_.size() > 64) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) map_.emplace(nodes_[i], static_cast<int>(i));
    }
    return id;
  }
  std::vector<const Node*>& nodes() { return nodes_; }

 private:
  std::vector<const Node*> nodes_;
  std::unordered_map<const Node*, int> map_;
};

// A plan with node pointers replaced by their fingerprint numbers (stored in the pointer slots
// as integers) and back.
template <class Map> void rebind_plan(codegen::KernelPlan& kp, Map&& map) {
  for (codegen::Leaf& l : kp.leaves) l.node = map(l.node);
  for (codegen::KValue& v : kp.values) {
    if (v.node) v.node = map(v.node);
  }
  if (kp.reduce) {  // shared with the cached copy: re-bind a copy of it
    auto part = std::make_shared<codegen::ReducePart>(*kp.reduce);
    part->prologue = std::make_shared<codegen::KernelPlan>(*part->prologue);
    rebind_plan(*part->prologue, map);
    for (codegen::ReduceSpec& r : part->reductions) r.node = map(r.node);
    kp.reduce = std::move(part);
  }
}

template <class Map> void rebind(Prepared& p, Map&& map) {
  for (codegen::KernelPlan& kp : p.kernels) rebind_plan(kp, map);
}

struct Entry {
  Prepared plan;                     // node pointers as numbers
  std::vector<int> group_roots;      // per group, flattened: numbers of its roots
  std::vector<int> group_sizes;
  std::vector<int> kernel_roots;     // per kernel, flattened (same counts as groups)
  std::vector<std::pair<int, int>> view_roots;
  std::vector<int> materialized;
};

std::mutex g_mu;
std::unordered_map<std::string, std::shared_ptr<const Entry>> g_cache;
constexpr std::size_t kMaxEntries = 4096;

// Numbers in the pointers' places, plus one: null stays null (values without a node), and
// node 0 (the first output) is not taken for null.
const Node* as_number(int i) { return reinterpret_cast<const Node*>(static_cast<std::intptr_t>(i) + 1); }
int to_number(const Node* n) { return static_cast<int>(reinterpret_cast<std::intptr_t>(n) - 1); }

}  // namespace

Fingerprint fingerprint(std::span<const NodeRef> outputs, bool fusion, int max_kernel_ops, int device) {
  Fingerprint f;
  {
    Writer b(f.bytes);
    b.room();
    b.put('f');
    b.put(fusion);
    b.put(max_kernel_ops);
    b.put(device);
    // Nodes are numbered when first seen (so a deep graph costs O(n)); each node's record is
    // written after its inputs', naming them by number: a canonical encoding of the graph.
    Numbering num;
    std::vector<std::pair<const Node*, int>> stack;
    stack.reserve(16);
    for (const NodeRef& o : outputs) {
      if (num.find(o.get()) < 0) {
        num.add(o.get());
        stack.emplace_back(o.get(), 0);
        while (!stack.empty()) {
          auto& [n, next] = stack.back();
          const detail::Realized* r = n->realized();
          if (!r && !detail::is_leaf(n->op) && next < n->num_inputs) {
            const Node* in = n->inputs[static_cast<std::size_t>(next++)].get();
            if (num.find(in) < 0) {
              num.add(in);
              stack.emplace_back(in, 0);
            }
            continue;
          }
          b.room();
          b.put(-51);
          b.put(num.find(n));
          b.put(static_cast<int>(r ? Op::Buffer : n->op));
          b.put(static_cast<int>(n->dtype));
          b.put_shape(n->shape);
          if (r) {
            b.put_shape(r->strides);
            b.put(r->offset);
            b.put(alignment_class(r->storage->data()));
          } else {
            b.put(n->force_materialize);
            b.put(n->num_inputs);
            for (int i = 0; i < n->num_inputs; ++i) b.put(num.find(n->inputs[static_cast<std::size_t>(i)].get()));
            switch (n->op) {
              case Op::Buffer:
                b.put_shape(n->strides());
                b.put(n->offset());
                b.put(alignment_class(n->storage()->data()));
                break;
              case Op::View:
                b.put(n->map().in_ndim);
                for (int i = 0; i < n->map().out_ndim; ++i) {
                  b.put(n->map().dim[i]);
                  b.put(n->map().coef[i]);
                }
                for (int k = 0; k < n->map().in_ndim; ++k) b.put(n->map().offset[k]);
                break;
              case Op::Reduce:
                b.put(static_cast<int>(n->reduce_kind()));
                b.put(n->axes());
                break;
              // Scalar values, generator parameters, ddof: kernel arguments, not structure.
              case Op::Constant:
              case Op::Arange:
              case Op::Linspace:
              case Op::Eye:
              case Op::Call:
              case Op::Reshape:
#include "graph/elementwise_cases.inc"
                break;
            }
          }
          stack.pop_back();
        }
      }
      b.room();
      b.put(-50);
      b.put(num.find(o.get()));
    }
    f.nodes = std::move(num.nodes());
  }
  return f;
}

Prepared cached_prepare(std::span<const NodeRef> outputs, bool fusion, int max_kernel_ops) {
  const int device = rt::has_gpu() ? rt::current_device() : -1;
  return prepared_for(fingerprint(outputs, fusion, max_kernel_ops, device), outputs);
}

Prepared prepared_for(const Fingerprint& fp, std::span<const NodeRef> outputs) {
  std::shared_ptr<const Entry> hit;
  {
    std::lock_guard lock(g_mu);
    if (auto it = g_cache.find(fp.bytes); it != g_cache.end()) hit = it->second;
  }
  // Owning handles of every numbered node: the outputs keep them all alive during eval().
  const auto ref_of = [&](int i) -> NodeRef {
    // The nodes are reachable from `outputs`, which the caller holds: an aliasing handle that
    // shares the first output's ownership is safe for the duration of the call.
    return NodeRef(outputs[0], fp.nodes[static_cast<std::size_t>(i)]);
  };
  if (hit) {
    Prepared p = hit->plan;
    const auto node_of = [&](const Node* n) { return n ? fp.nodes[static_cast<std::size_t>(to_number(n))] : nullptr; };
    rebind(p, node_of);
    std::size_t k = 0;
    for (std::size_t g = 0; g < p.plan.groups.size(); ++g) {
      p.plan.groups[g].roots.clear();
      p.kernels[g].roots.clear();
      for (int i = 0; i < hit->group_sizes[g]; ++i, ++k) {
        p.plan.groups[g].roots.push_back(ref_of(hit->group_roots[k]));
        p.kernels[g].roots.push_back(ref_of(hit->kernel_roots[k]));
      }
    }
    p.plan.view_roots.clear();
    for (auto [node, base] : hit->view_roots) p.plan.view_roots.push_back({ref_of(node), ref_of(base)});
    p.plan.materialized.clear();
    for (int m : hit->materialized) p.plan.materialized.push_back(ref_of(m));
    return p;
  }
  Prepared p = prepare(outputs);
  // Store a copy with numbers in place of pointers.
  std::unordered_map<const Node*, int> index;
  for (std::size_t i = 0; i < fp.nodes.size(); ++i) index.emplace(fp.nodes[i], static_cast<int>(i));
  const auto number_of = [&](const Node* n) {
    auto it = index.find(n);
    return it == index.end() ? -1 : it->second;
  };
  auto e = std::make_shared<Entry>();
  e->plan = p;
  bool complete = true;
  rebind(e->plan, [&](const Node* n) -> const Node* {
    if (!n) return nullptr;
    const int i = number_of(n);
    complete = complete && i >= 0;
    return as_number(i);
  });
  for (std::size_t g = 0; g < p.plan.groups.size(); ++g) {
    e->group_sizes.push_back(static_cast<int>(p.plan.groups[g].roots.size()));
    for (std::size_t r = 0; r < p.plan.groups[g].roots.size(); ++r) {
      e->group_roots.push_back(number_of(p.plan.groups[g].roots[r].get()));
      e->kernel_roots.push_back(number_of(p.kernels[g].roots[r].get()));
    }
  }
  for (const codegen::ViewRoot& v : p.plan.view_roots) {
    e->view_roots.emplace_back(number_of(v.node.get()), number_of(v.base.get()));
  }
  for (const NodeRef& m : p.plan.materialized) e->materialized.push_back(number_of(m.get()));
  for (int i : e->group_roots) complete = complete && i >= 0;
  for (int i : e->kernel_roots) complete = complete && i >= 0;
  for (int i : e->materialized) complete = complete && i >= 0;
  for (auto [a, c] : e->view_roots) complete = complete && a >= 0 && c >= 0;
  // The cached copy holds no node: its group/kernel roots are rebuilt on every hit.
  for (auto& g : e->plan.plan.groups) g.roots.clear();
  for (auto& kp : e->plan.kernels) kp.roots.clear();
  e->plan.plan.view_roots.clear();
  e->plan.plan.materialized.clear();
  if (complete) {
    std::lock_guard lock(g_mu);
    if (g_cache.size() >= kMaxEntries) g_cache.clear();
    g_cache.emplace(fp.bytes, std::move(e));
  }
  return p;
}

void clear_plan_cache() {
  std::lock_guard lock(g_mu);
  g_cache.clear();
}

}  // namespace loom::exec
