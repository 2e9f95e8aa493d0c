#include "codegen/partition.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <ostream>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace loom::codegen {

using detail::acts_as_leaf;
using detail::Op;

namespace {

// Iterative post-order DFS from `roots`. `descend(n)` says whether to visit n's inputs (roots are
// always descended into).
template <class Descend>
std::vector<const Node*> post_order(std::span<const Node* const> roots, Descend&& descend) {
  std::vector<const Node*> order;
  std::unordered_set<const Node*> seen;
  std::vector<std::pair<const Node*, int>> stack;
  for (const Node* r : roots) {
    if (!seen.insert(r).second) continue;
    stack.emplace_back(r, 0);
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      const bool expand = (n == r || descend(n)) && !acts_as_leaf(*n);
      if (expand && next < n->num_inputs) {
        const Node* in = n->inputs[static_cast<std::size_t>(next++)].get();
        if (seen.insert(in).second) stack.emplace_back(in, 0);
        continue;
      }
      order.push_back(n);
      stack.pop_back();
    }
  }
  return order;
}

bool is_compute(const Node& n) {
  return !acts_as_leaf(n) && (detail::is_elementwise(n.op) || detail::is_reduction(n.op));
}

// What one kernel may reduce over: the input shape and the reduced axes.
struct Domain {
  Shape shape;
  std::uint32_t axes = 0;
  bool set = false;
  bool rows = false;  // row-resident (KernelGroup::rows)
  friend bool operator==(const Domain& a, const Domain& b) {
    return a.set == b.set &&
           (!a.set || (a.shape == b.shape && a.axes == b.axes && a.rows == b.rows));
  }
};

// Whether a kernel iterating over `root` can keep the rows of reduction n resident: the root
// covers n's input exactly, the reduced axes are trailing, and a row fits the registers.
bool row_resident(const Node& root, const Node& n) {
  const Shape& in = n.in(0).shape;
  if (!(root.shape == in) || in.empty()) return false;
  std::int64_t extent = 1;
  bool seen_reduced = false;
  for (int d = 0; d < in.size(); ++d) {
    if (n.reduces(d)) {
      seen_reduced = true;
      extent *= in[d];
    } else if (seen_reduced) {
      return false;  // a kept axis after a reduced one
    }
  }
  return seen_reduced && extent <= kRowResidentMax;
}

// Where a kernel rooted at r may perform reductions, and which it may not (they are cut:
// computed by a kernel of their own first). Returns r's reduction domain.
template <class Cut>
Domain place_reductions(const Node* r, const std::unordered_set<const Node*>& mat, Cut&& cut) {
  Domain dom;
  // Places (region writes, concatenations) run in elementwise kernels only: their guarded reads
  // (analyzer.hpp) are an elementwise loop's.
  std::vector<const Node*> places;
  struct Item {
    const Node* n;
    bool inside;  // inside a reduction's input
    bool under;   // below a Place
  };
  std::vector<Item> stack{{r, false, false}};
  std::unordered_set<const Node*> seen[4];
  while (!stack.empty()) {
    const auto [n, inside, under] = stack.back();
    stack.pop_back();
    if (!seen[inside * 2 + under].insert(n).second) continue;
    if (n != r && (mat.count(n) || acts_as_leaf(*n))) continue;
    bool into = inside, below = under;
    if (n->op == Op::Place) {
      if (inside) {
        cut(n, "a region write or concatenation inside a reduction's input is computed first");
        continue;
      }
      if (n != r) places.push_back(n);
      below = true;
    }
    if (n->op == Op::Reduce) {
      const Node& in = n->in(0);
      if (under) {
        cut(n, "a reduction below a region write or concatenation is computed first");
        continue;
      }
      if (inside) {
        cut(n, "a reduction inside another reduction's input is computed first");
        continue;
      }
      const bool rows = n->numel() != r->numel();
      if (rows && !row_resident(*r, *n)) {
        cut(n, "its result is broadcast back over the input (as in x - max(x)) along axes too long "
               "to keep a row in registers, or not the last ones: computed first");
        continue;
      }
      const Domain mine{in.shape, n->axes(), true, rows};
      if (dom.set && !(dom == mine)) {
        cut(n, "one kernel reduces over one input shape and set of axes");
        continue;
      }
      dom = mine;
      into = true;
    }
    for (int i = 0; i < n->num_inputs; ++i) stack.push_back({n->inputs[static_cast<std::size_t>(i)].get(), into, below});
  }
  if (dom.set) {
    for (const Node* p : places) cut(p, "a region write or concatenation beside a reduction is computed first");
  }
  return dom;
}

}  // namespace

std::vector<const Node*> topo_order(std::span<const NodeRef> roots,
                                    const std::vector<const Node*>& stop) {
  std::vector<const Node*> r;
  for (const NodeRef& n : roots) r.push_back(n.get());
  const std::unordered_set<const Node*> stops(stop.begin(), stop.end());
  return post_order(r, [&](const Node* n) { return !stops.count(n); });
}

namespace {

// The common case, decided without building maps: one output whose whole graph fuses into one
// kernel (no copies forced, small enough, fusion on). nullopt: take the general path.
std::optional<Plan> single_kernel(std::span<const NodeRef> outputs, const PartitionOptions& options,
                                  std::span<const Cut> extra_cuts) {
  if (outputs.size() != 1 || !options.fusion || !extra_cuts.empty()) return std::nullopt;
  const NodeRef& o = outputs[0];
  if (o->op == Op::Buffer || o->realized() || o->op == Op::View || o->op == Op::Reshape) {
    return std::nullopt;
  }
  constexpr std::size_t kSmall = 48;
  std::array<const Node*, kSmall> seen{};
  std::size_t num_seen = 0;
  std::array<const Node*, kSmall> stack{};
  std::size_t top = 0;
  stack[top++] = o.get();
  seen[num_seen++] = o.get();
  while (top > 0) {
    const Node* n = stack[--top];
    if (acts_as_leaf(*n)) continue;
    if (n->force_materialize || n->op == Op::Reduce || has_user_options(*n)) return std::nullopt;
    for (int i = 0; i < n->num_inputs; ++i) {
      const Node* in = n->inputs[static_cast<std::size_t>(i)].get();
      if (std::find(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(num_seen), in) !=
          seen.begin() + static_cast<std::ptrdiff_t>(num_seen)) {
        continue;
      }
      if (num_seen == kSmall || top == kSmall) return std::nullopt;
      seen[num_seen++] = in;
      stack[top++] = in;
    }
  }
  if (static_cast<int>(num_seen) > options.max_kernel_ops) return std::nullopt;
  Plan plan;
  plan.groups.push_back(KernelGroup{{o}, o->shape});
  plan.materialized.push_back(o);
  return plan;
}

}  // namespace

namespace {

// The general path, as a list of phases over one state (partition() below runs them in order;
// PartitionOptions::debug prints the state after each):
//   survey         the nodes in post order, how each is read (directly, through views)
//   cut_required   what must get a buffer whatever fuses: outputs, forced copies, the cuts a
//                  later pass asked for, user kernels with NVRTC options, everything when
//                  fusion is off
//   cut_oversized  cuts that keep each kernel within max_kernel_ops
//   view_roots     requested views of a node that gets a buffer anyway: no kernel
//   group          materialized nodes into kernels (reductions placed, outputs of one shape
//                  joined, a node two kernels would compute cut), until nothing changes
//   order          the kernels so each runs after those it reads
class Partitioner {
 public:
  Partitioner(std::span<const NodeRef> outputs, const PartitionOptions& options)
      : options_(options), computed_(options.computed.begin(), options.computed.end()) {
    for (const NodeRef& o : outputs) {
      out_nodes_.push_back(o.get());
      owner_ref_[o.get()] = o;
    }
  }

  void survey();
  void cut_required(std::span<const Cut> extra_cuts);
  void cut_oversized();
  void view_roots();
  void group();
  Plan order();
  // The state after a phase: what is materialized (in graph order) and the groups so far.
  std::string to_string() const;

 private:
  void cut(const Node* n, const std::string& why) {
    if (acts_as_leaf(*n) || !mat_.insert(n).second) return;
    plan_.notes.push_back(fmt::format("materialized {}: {}", detail::to_string(*n), why));
  }
  // A compute node read through a view and any other way: a kernel computes it once per window
  // (a time step read by the next step's stencil).
  bool windowed(const Node* n) const {
    if (acts_as_leaf(*n) || detail::is_view(n->op) || n->op == Op::Reshape) return false;
    const auto it = readers_.find(n);
    return it != readers_.end() && it->second >= 3;  // a view and one more read of any kind
  }
  bool from_generators(const Node* root);
  bool reaches(const Node* from, const std::unordered_set<const Node*>& targets,
               const std::unordered_set<const Node*>& skip_direct);
  bool is_output(const Node* n) const {
    return std::find(out_nodes_.begin(), out_nodes_.end(), n) != out_nodes_.end();
  }

  const PartitionOptions& options_;
  // Computed elsewhere: materialized (a boundary every kernel reads as a buffer), no kernel here.
  const std::unordered_set<const Node*> computed_;
  std::vector<const Node*> out_nodes_;
  std::vector<const Node*> order_;                      // post order from the outputs
  std::unordered_map<const Node*, NodeRef> owner_ref_;  // raw -> shared, to build the plan
  std::unordered_map<const Node*, int> readers_;        // views * 2 + (1 if read directly at least once)
  std::unordered_set<const Node*> mat_;                 // nodes that get a buffer
  std::unordered_map<const Node*, bool> gen_memo_;      // from_generators
  // group(): the roots (materialized nodes in graph order), the roots each reads, the groups.
  std::vector<const Node*> roots_;
  std::unordered_map<const Node*, std::vector<const Node*>> deps_;
  std::vector<std::vector<const Node*>> groups_;
  std::unordered_map<const Node*, int> group_of_;
  Plan plan_;
};

void Partitioner::survey() {
  order_ = post_order(out_nodes_, [&](const Node* n) { return !computed_.count(n); });
  // How each node is read: through how many views (a view is a window onto it), and whether
  // also directly.
  for (const Node* n : order_) {
    const bool view = detail::is_view(n->op) || n->op == Op::Reshape;
    for (int i = 0; i < n->num_inputs; ++i) {
      const Node* in = n->inputs[static_cast<std::size_t>(i)].get();
      owner_ref_[in] = n->inputs[static_cast<std::size_t>(i)];
      int& r = readers_[in];
      r = view ? r + 2 : (r | 1);
    }
  }
  mat_ = computed_;
}

void Partitioner::cut_required(std::span<const Cut> extra_cuts) {
  for (const Node* o : out_nodes_) {
    if (o->op != Op::Buffer && !o->realized() && !computed_.count(o)) mat_.insert(o);  // generators need a kernel too
  }
  for (const Node* n : order_) {
    if (n->force_materialize) cut(n, "copy of a layout a reshape cannot view");
  }
  for (const Cut& c : extra_cuts) cut(c.node, c.why);
  // A user kernel compiled with NVRTC options of its own shares its kernel only with code compiled
  // the same way: its result is materialized, and so is what it reads (through views), unless
  // that is a user node with the same options.
  for (const Node* n : order_) {
    if (!has_user_options(*n)) continue;
    cut(n, "a user kernel compiled with its own NVRTC options");
    for (int i = 0; i < n->num_inputs; ++i) {
      const Node* in = n->inputs[static_cast<std::size_t>(i)].get();
      while (detail::is_view(in->op) && !acts_as_leaf(*in)) in = in->inputs[0].get();
      if (!(has_user_options(*in) && in->user()->options == n->user()->options)) {
        cut(in, "read by a user kernel compiled with NVRTC options of its own");
      }
    }
  }
  if (!options_.fusion) {
    for (const Node* n : order_) {
      if (is_compute(*n)) mat_.insert(n);
    }
    plan_.notes.push_back("fusion is off: every operation runs as its own kernel");
  }
}

// Count the ops each node would pull into its kernel (each node of its cone once, up to the
// limit: a node reached by two paths, as x in where(m, x + v, x), is one op); cut the heaviest
// inputs until it fits.
void Partitioner::cut_oversized() {
  std::unordered_map<const Node*, std::int64_t> cost;
  std::unordered_map<const Node*, std::uint32_t> stamp;
  std::uint32_t visit = 0;
  std::vector<const Node*> dfs;
  const std::int64_t cap = std::int64_t{options_.max_kernel_ops} + 1;
  const auto cone = [&](const Node* root) {  // ops of root's kernel, at most cap
    ++visit;
    std::int64_t c = 0;
    dfs.assign(1, root);
    stamp[root] = visit;
    while (!dfs.empty() && c < cap) {
      const Node* n = dfs.back();
      dfs.pop_back();
      if (!detail::is_view(n->op)) ++c;
      for (int i = 0; i < n->num_inputs; ++i) {
        const Node* in = n->inputs[static_cast<std::size_t>(i)].get();
        if (mat_.count(in) || acts_as_leaf(*in) || computed_.count(in)) continue;
        std::uint32_t& st = stamp[in];
        if (st == visit) continue;
        st = visit;
        dfs.push_back(in);
      }
    }
    return c;
  };
  // The node of root's cone (root excluded) nearest root, breadth first, for which pred holds.
  const auto nearest_in_cone = [&](const Node* root, auto&& pred) -> const Node* {
    ++visit;
    std::vector<const Node*> level{root}, next;
    stamp[root] = visit;
    for (std::int64_t seen = 0; !level.empty() && seen < cap; level.swap(next)) {
      next.clear();
      for (const Node* x : level) {
        for (int i = 0; i < x->num_inputs; ++i) {
          const Node* in = x->inputs[static_cast<std::size_t>(i)].get();
          if (mat_.count(in) || acts_as_leaf(*in) || computed_.count(in)) continue;
          std::uint32_t& st = stamp[in];
          if (st == visit) continue;
          st = visit;
          if (pred(in)) return in;
          next.push_back(in);
          ++seen;
        }
      }
    }
    return nullptr;
  };
  for (const Node* n : order_) {
    if (acts_as_leaf(*n) || computed_.count(n)) {
      cost[n] = 0;
      continue;
    }
    std::int64_t c = cone(n);
    while (c > options_.max_kernel_ops) {
      // Cut where the graph is read through windows, nearest n (a time loop's step boundary:
      // the kernel then holds whole steps, which planning cuts apart if they are stencils),
      // else n's heaviest input.
      const Node* pick = nearest_in_cone(n, [&](const Node* x) { return windowed(x); });
      const Node* heavy = nullptr;
      for (int i = 0; !pick && i < n->num_inputs; ++i) {
        const Node* in = n->inputs[static_cast<std::size_t>(i)].get();
        if (mat_.count(in) || acts_as_leaf(*in)) continue;
        if (!heavy || cost[in] > cost[heavy]) heavy = in;
      }
      if (!pick) pick = heavy;
      if (!pick) break;
      cut(pick, fmt::format("the kernel would exceed {} ops (LOOM_MAX_KERNEL_OPS){}", options_.max_kernel_ops,
                            pick == heavy ? "" : ": cut where it is read through several windows"));
      c = cone(n);
    }
    cost[n] = c;
  }
}

// Requested views of a node that gets a buffer anyway need no kernel of their own.
void Partitioner::view_roots() {
  for (const Node* o : out_nodes_) {
    if (!mat_.count(o) || (o->op != Op::View && o->op != Op::Reshape)) continue;
    const Node* base = o->inputs[0].get();
    const bool base_has_buffer = mat_.count(base) || (acts_as_leaf(*base) && base->op != Op::Constant &&
                                                      base->op != Op::Arange && base->op != Op::Linspace &&
                                                      base->op != Op::Eye);
    if (!base_has_buffer) continue;
    if (o->op == Op::Reshape && !mat_.count(base)) continue;  // strided source: kernel copies
    mat_.erase(o);
    plan_.view_roots.push_back({owner_ref_.at(o), owner_ref_.at(base)});
  }
}

// Whether n is computed from generators and constants only (no memory read, no reduction): two
// kernels that need it each compute it (the box masks of placed pieces, interned: equal in
// every concatenation of one layout) rather than read it from a kernel of its own.
bool Partitioner::from_generators(const Node* root) {
  std::vector<const Node*> work{root};
  while (!work.empty()) {
    const Node* x = work.back();
    if (gen_memo_.count(x)) {
      work.pop_back();
      continue;
    }
    if (x->realized() || x->op == Op::Buffer || x->op == Op::Call || x->op == Op::Reduce || computed_.count(x)) {
      gen_memo_[x] = false;
      work.pop_back();
      continue;
    }
    bool ready = true, all = true;
    for (int i = 0; i < x->num_inputs; ++i) {
      const Node* in = x->inputs[static_cast<std::size_t>(i)].get();
      const auto it = gen_memo_.find(in);
      if (it == gen_memo_.end()) {
        ready = false;
        work.push_back(in);
      } else {
        all = all && it->second;
      }
    }
    if (ready) {
      gen_memo_[x] = all;
      work.pop_back();
    }
  }
  return gen_memo_[root];
}

bool Partitioner::reaches(const Node* from, const std::unordered_set<const Node*>& targets,
                          const std::unordered_set<const Node*>& skip_direct) {
  std::vector<const Node*> work;
  std::unordered_set<const Node*> seen;
  for (const Node* d : deps_[from]) {
    if (!skip_direct.count(d)) work.push_back(d);
  }
  while (!work.empty()) {
    const Node* x = work.back();
    work.pop_back();
    if (!seen.insert(x).second) continue;
    if (targets.count(x)) return true;
    for (const Node* d : deps_[x]) work.push_back(d);
  }
  return false;
}

// Group the kernels, then make sure no two groups compute the same node: a compute node
// reached from two groups is materialized (computed once). Repeat until stable.
void Partitioner::group() {
  for (bool changed = true; changed;) {
    changed = false;
    roots_.clear();
    deps_.clear();
    groups_.clear();
    group_of_.clear();
    for (const Node* n : order_) {
      if (mat_.count(n) && !computed_.count(n)) roots_.push_back(n);
    }
    // Reductions: each fuses into the kernel of the roots that reach it, where it can.
    std::unordered_map<const Node*, Domain> domain;
    bool cut_any = false;
    for (const Node* r : roots_) {
      domain[r] = place_reductions(r, mat_, [&](const Node* n, const char* why) {
        cut(n, why);
        cut_any = true;
      });
    }
    if (cut_any) {
      changed = true;
      continue;
    }
    std::unordered_map<const Node*, std::vector<const Node*>> reached;  // root -> compute nodes
    for (const Node* r : roots_) {
      const Node* rr[] = {r};
      for (const Node* n : post_order(rr, [&](const Node* x) { return !mat_.count(x); })) {
        if (n == r) continue;
        if (computed_.count(n)) continue;  // an earlier plan's: no ordering among ours
        if (mat_.count(n)) {
          deps_[r].push_back(n);
        } else if (is_compute(*n)) {
          reached[r].push_back(n);
        }
      }
    }
    // Requested outputs of one shape share a kernel unless that makes a cycle through another;
    // so do reductions computed first over one input and axes (softmax's max and sum of exps
    // over a leading axis: one read of the input for both).
    const auto may_share = [&](const Node* a, const Node* b) {
      return (is_output(a) && is_output(b)) || (a->op == Op::Reduce && b->op == Op::Reduce);
    };
    for (const Node* r : roots_) {
      int g = -1;
      const bool can_join = is_output(r) || r->op == Op::Reduce;
      for (int i = 0; can_join && i < static_cast<int>(groups_.size()) && g < 0; ++i) {
        const auto& members = groups_[static_cast<std::size_t>(i)];
        const Node* first = members.front();
        if (!(first->shape == r->shape) || !(domain[first] == domain[r])) continue;
        if (!may_share(first, r)) continue;
        std::unordered_set<const Node*> gs(members.begin(), members.end());
        std::unordered_set<const Node*> with_r = gs;
        with_r.insert(r);
        // Outputs of one kernel may read each other directly (the kernel computes both); a
        // reduction may not read another of its kernel's reductions (that one is complete only
        // at the kernel's end): between reductions a direct read counts too.
        const bool reductions = first->op == Op::Reduce && r->op == Op::Reduce;
        const std::unordered_set<const Node*> none;
        const std::unordered_set<const Node*>& skip = reductions ? none : with_r;
        bool cycle = reaches(r, gs, skip);
        for (const Node* m : members) cycle = cycle || reaches(m, {r}, skip);
        if (!cycle) g = i;
      }
      if (g < 0) {
        g = static_cast<int>(groups_.size());
        groups_.emplace_back();
      }
      groups_[static_cast<std::size_t>(g)].push_back(r);
      group_of_[r] = g;
    }
    std::unordered_map<const Node*, int> owner;
    for (const Node* r : roots_) {
      for (const Node* n : reached[r]) {
        auto [it, fresh] = owner.emplace(n, group_of_[r]);
        if (!fresh && it->second != group_of_[r] && !mat_.count(n) && !from_generators(n)) {
          cut(n, "shared by two kernels (computed once)");
          changed = true;
        }
      }
    }
  }
}

// Order groups so that each runs after the groups whose results it reads.
Plan Partitioner::order() {
  std::vector<Domain> group_domain(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    for (const Node* r : groups_[g]) {
      const Domain d = place_reductions(r, mat_, [](const Node*, const char*) {});
      if (d.set) group_domain[g] = d;
    }
  }
  const int ng = static_cast<int>(groups_.size());
  std::vector<std::vector<int>> gdeps(static_cast<std::size_t>(ng));
  for (const Node* r : roots_) {
    for (const Node* d : deps_[r]) {
      const int a = group_of_[r], b = group_of_[d];
      if (a != b) gdeps[static_cast<std::size_t>(a)].push_back(b);
    }
  }
  std::vector<int> state(static_cast<std::size_t>(ng), 0), gorder;
  for (int s = 0; s < ng; ++s) {
    std::vector<std::pair<int, std::size_t>> st{{s, 0}};
    if (state[static_cast<std::size_t>(s)]) continue;
    state[static_cast<std::size_t>(s)] = 1;
    while (!st.empty()) {
      auto& [g, i] = st.back();
      auto& ds = gdeps[static_cast<std::size_t>(g)];
      if (i < ds.size()) {
        const int d = ds[i++];
        if (!state[static_cast<std::size_t>(d)]) {
          state[static_cast<std::size_t>(d)] = 1;
          st.emplace_back(d, 0);
        }
        continue;
      }
      gorder.push_back(g);
      st.pop_back();
    }
  }
  for (int g : gorder) {
    KernelGroup kg;
    for (const Node* r : groups_[static_cast<std::size_t>(g)]) {
      kg.roots.push_back(owner_ref_.at(r));
      plan_.materialized.push_back(owner_ref_.at(r));
    }
    kg.shape = kg.roots.front()->shape;
    kg.reduction = group_domain[static_cast<std::size_t>(g)].set;
    kg.rows = group_domain[static_cast<std::size_t>(g)].rows;
    plan_.groups.push_back(std::move(kg));
  }
  for (const Node* n : order_) {
    if (computed_.count(n)) plan_.materialized.push_back(owner_ref_.at(n));  // read as buffers
  }
  return std::move(plan_);
}

std::string Partitioner::to_string() const {
  std::string s = fmt::format("{} node(s); materialized:\n", order_.size());
  for (const Node* n : order_) {
    if (mat_.count(n) && !computed_.count(n)) s += "  " + detail::to_string(*n) + "\n";
  }
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    s += fmt::format("group {}:", g);
    for (const Node* r : groups_[g]) s += " [" + detail::to_string(*r) + "]";
    s += "\n";
  }
  for (const ViewRoot& v : plan_.view_roots) s += fmt::format("view root: [{}]\n", detail::to_string(*v.node));
  for (const std::string& n : plan_.notes) s += "note: " + n + "\n";
  return s;
}

}  // namespace

Plan partition(std::span<const NodeRef> outputs, const PartitionOptions& options,
               std::span<const Cut> extra_cuts) {
  if (options.computed.empty()) {
    if (auto fast = single_kernel(outputs, options, extra_cuts)) return std::move(*fast);
  }
  Partitioner p(outputs, options);
  const auto after = [&](const char* phase, auto&& run) {
    run();
    if (options.debug) *options.debug << "--- loom partition: after " << phase << " ---\n" << p.to_string();
  };
  after("survey", [&] { p.survey(); });
  after("cut_required", [&] { p.cut_required(extra_cuts); });
  after("cut_oversized", [&] { p.cut_oversized(); });
  after("view_roots", [&] { p.view_roots(); });
  after("group", [&] { p.group(); });
  return p.order();
}

std::string to_string(const Plan& plan) {
  std::string s;
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    s += fmt::format("kernel {}: shape {} writes", i, to_string(plan.groups[i].shape));
    for (const NodeRef& r : plan.groups[i].roots) s += " [" + to_string(*r) + "]";
    s += "\n";
  }
  for (const ViewRoot& v : plan.view_roots) {
    s += fmt::format("view: [{}] of [{}]\n", to_string(*v.node), to_string(*v.base));
  }
  for (const std::string& n : plan.notes) s += "note: " + n + "\n";
  return s;
}

}  // namespace loom::codegen
