#include "codegen/analyzer.hpp"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace loom::codegen {

using detail::acts_as_leaf;
using detail::IndexMap;
using detail::Op;

namespace {

// How a node's elements are addressed from the iteration index: through its multi-index
// (a monomial map) or through its C-order linear index (below a reshape).
struct Form {
  bool linear = false;
  IndexMap map;
  Affine lin;
  friend bool operator==(const Form& a, const Form& b) {
    return a.linear == b.linear && (a.linear ? a.lin == b.lin : a.map == b.map);
  }
};

struct FactorResult {
  std::optional<IndexMap> map;
  int split_dim = -1;           // or: split this iteration dim...
  std::int64_t split_inner = 0; // ...so that its inner part has this extent
};

class Analyzer {
 public:
  explicit Analyzer(const AnalyzerInput& in) : in_(in) {
    for (const NodeRef& b : in.boundary) boundary_.insert(b.get());
    if (in.roots_are_outputs) {
      for (const Node* r : in.roots) own_.insert(r);
    }
    iter_ = in.iter;
    cls_ = in.classes;
    cls_.resize(static_cast<std::size_t>(iter_.size()), 0);
    to_root_ = IndexMap::identity(iter_.size());
  }

  // Runs the analysis, refining the iteration space until every reshape factors.
  Analysis run() {
    for (int attempt = 0; attempt < 2 * kMaxDims + 2; ++attempt) {
      reset();
      for (const Node* r : in_.roots) {
        Form f;
        f.map = to_root_;
        plan_.outputs.push_back(visit(r, f));
        if (aborted_) break;
      }
      if (!cuts_.empty()) {
        plan_.needs_cut = cuts_;
        break;
      }
      if (split_dim_ < 0) break;
      apply_split();
    }
    return Analysis{std::move(plan_), iter_, cls_};
  }

 private:
  void reset() {
    plan_ = KernelPlan{};
    slots_.clear();
    memo_.clear();
    cuts_.clear();
    visits_.clear();
    cut_here_.clear();
    window_guards_.clear();
    aborted_ = false;
    oversize_checked_ = false;
    split_dim_ = -1;
  }

  void apply_split() {
    const int d = split_dim_;
    const std::int64_t inner = split_inner_;
    Shape s;
    IndexMap m;
    m.in_ndim = to_root_.in_ndim;
    m.offset = to_root_.offset;
    for (int i = 0; i < iter_.size(); ++i) {
      if (i == d) {
        s.push_back(iter_[i] / inner);
        s.push_back(inner);
        m.dim[s.size() - 2] = to_root_.dim[i];
        m.coef[s.size() - 2] = to_root_.coef[i] * inner;
        m.dim[s.size() - 1] = to_root_.dim[i];
        m.coef[s.size() - 1] = to_root_.coef[i];
      } else {
        s.push_back(iter_[i]);
        m.dim[s.size() - 1] = to_root_.dim[i];
        m.coef[s.size() - 1] = to_root_.coef[i];
      }
    }
    m.out_ndim = s.size();
    iter_ = s;
    to_root_ = m;
    cls_.insert(cls_.begin() + d, cls_[static_cast<std::size_t>(d)]);  // both halves keep its class
  }

  Affine to_linear(const Form& f, const Shape& shape) const {
    if (f.linear) return f.lin;
    const Shape cs = contiguous_strides(shape);
    Affine a;
    for (int k = 0; k < f.map.in_ndim; ++k) a.c0 += cs[k] * f.map.offset[k];
    for (int i = 0; i < f.map.out_ndim; ++i) {
      if (f.map.dim[i] >= 0) a.c[static_cast<std::size_t>(i)] = cs[f.map.dim[i]] * f.map.coef[i];
    }
    return a;
  }

  // Splits the linear index `lin` into digits of `shape` as affine functions of the iteration
  // index, when no digit ever carries into the next; else asks for a finer iteration space.
  FactorResult factor(const Affine& lin, const Shape& shape) const {
    FactorResult r;
    IndexMap m;
    m.out_ndim = iter_.size();
    m.in_ndim = shape.size();
    const Shape cs = contiguous_strides(shape);
    std::array<std::int64_t, kMaxDims> lo{}, hi{};
    std::array<int, kMaxDims> feeders{}, feeder{};
    for (int j = 0; j < shape.size(); ++j) {
      m.offset[j] = shape[j] > 0 ? (lin.c0 / cs[j]) % shape[j] : 0;
      lo[j] = hi[j] = m.offset[j];
    }
    for (int i = 0; i < iter_.size(); ++i) {
      m.dim[i] = -1;
      m.coef[i] = 0;
      const std::int64_t g = lin.c[static_cast<std::size_t>(i)];
      if (g == 0 || iter_[i] == 1) continue;
      int j = -1;
      for (int k = 0; k < shape.size(); ++k) {
        if (shape[k] > 1 && g % cs[k] == 0) {
          j = k;
          break;
        }
      }
      if (j < 0) return r;
      const std::int64_t c = g / cs[j];
      m.dim[i] = static_cast<std::int8_t>(j);
      m.coef[i] = c;
      const std::int64_t span = c * (iter_[i] - 1);
      (span > 0 ? hi[j] : lo[j]) += span;
      ++feeders[j];
      feeder[j] = i;
    }
    for (int j = 0; j < shape.size(); ++j) {
      if (lo[j] >= 0 && hi[j] < shape[j]) continue;
      const int i = feeder[j];
      if (feeders[j] == 1 && m.coef[i] == 1 && m.offset[j] == 0 && iter_[i] % shape[j] == 0 &&
          iter_.size() < kMaxDims) {
        r.split_dim = i;
        r.split_inner = shape[j];
      }
      return r;
    }
    r.map = m;
    return r;
  }

  // The multi-index form of f over `shape`; nullopt after recording a split or a failure.
  std::optional<IndexMap> multi(const Form& f, const Shape& shape) {
    if (!f.linear) return f.map;
    FactorResult fr = factor(f.lin, shape);
    if (fr.map) return fr.map;
    if (fr.split_dim >= 0 && split_dim_ < 0) {
      split_dim_ = fr.split_dim;
      split_inner_ = fr.split_inner;
    }
    return std::nullopt;
  }

  Affine through(const IndexMap& m, int k, std::int64_t base, const Shape* strides) const {
    // The affine of input dim k (strides == nullptr), or of the address sum_k strides[k]*p[k].
    Affine a;
    a.c0 = base;
    if (strides) {
      for (int j = 0; j < m.in_ndim; ++j) a.c0 += (*strides)[j] * m.offset[j];
    } else {
      a.c0 += m.offset[k];
    }
    for (int i = 0; i < m.out_ndim; ++i) {
      if (m.dim[i] < 0) continue;
      if (strides) {
        a.c[static_cast<std::size_t>(i)] = (*strides)[m.dim[i]] * m.coef[i];
      } else if (m.dim[i] == k) {
        a.c[static_cast<std::size_t>(i)] = m.coef[i];
      }
    }
    return a;
  }

  // The slot of n in the plan's node table (given at its first use).
  int slot_of(const Node* n) {
    const auto [it, added] = slots_.try_emplace(n, static_cast<int>(plan_.nodes.size()));
    if (added) plan_.nodes.push_back(n);
    return it->second;
  }

  int add_leaf(Leaf leaf, const Node* n) {
    leaf.slot = slot_of(n);
    plan_.leaves.push_back(std::move(leaf));
    KValue v;
    v.op = n->op == Op::Constant && !n->realized() ? Op::Constant : Op::Buffer;
    if (plan_.leaves.back().kind == LeafKind::Reduced) v.op = Op::Reduce;
    if (plan_.leaves.back().kind == LeafKind::Arange) v.op = Op::Arange;
    if (plan_.leaves.back().kind == LeafKind::Linspace) v.op = Op::Linspace;
    if (plan_.leaves.back().kind == LeafKind::Eye) v.op = Op::Eye;
    v.dtype = n->dtype;
    v.leaf = static_cast<int>(plan_.leaves.size()) - 1;
    plan_.values.push_back(v);
    return static_cast<int>(plan_.values.size()) - 1;
  }

  // Where a leaf's elements are: its evaluated result's layout, a Buffer's, or C-contiguous (a
  // call's output, a node another kernel of the plan computes).
  static std::pair<Shape, std::int64_t> layout_of(const Node& n) {
    if (auto r = n.realized()) return {r->strides, r->offset};
    if (n.op == Op::Buffer) return {n.strides(), n.offset()};
    return {contiguous_strides(n.shape), 0};
  }

  int visit_leaf(const Node* n, const Form& f, int guard) {
    Leaf leaf;
    leaf.dtype = n->dtype;
    // A call's output is a buffer too (exec runs calls first; explain() plans before that).
    const bool has_buffer = n->realized() || n->op == Op::Buffer || n->op == Op::Call || !acts_as_leaf(*n);
    if (has_buffer) {
      leaf.kind = LeafKind::Buffer;
      const auto [strides, offset] = layout_of(*n);
      leaf.num_idx = 1;
      if (f.linear && is_c_contiguous(n->shape, strides)) {
        leaf.idx[0] = f.lin;
        leaf.idx[0].c0 += offset;
      } else if (auto m = multi(f, n->shape)) {
        leaf.idx[0] = through(*m, 0, offset, &strides);
      } else {
        leaf.unravel = true;  // a layout no refinement of the loop can reach: split per element
        leaf.unr = std::make_shared<Leaf::Unravel>(Leaf::Unravel{f.lin, n->shape, strides});
        leaf.idx[0].c0 = offset;
        leaf.num_idx = 0;
      }
      leaf.guard = guard;
      const int id = add_leaf(std::move(leaf), n);
      plan_.values.back().guard = guard;
      return id;
    }
    switch (n->op) {
      case Op::Constant: leaf.kind = LeafKind::Scalar; return add_leaf(std::move(leaf), n);
      case Op::Arange:
      case Op::Linspace: {
        leaf.kind = n->op == Op::Arange ? LeafKind::Arange : LeafKind::Linspace;
        leaf.num_idx = 1;
        leaf.idx[0] = f.linear ? f.lin : through(f.map, 0, 0, nullptr);
        return add_leaf(std::move(leaf), n);
      }
      case Op::Eye: {
        leaf.kind = LeafKind::Eye;
        if (auto m = multi(f, n->shape)) {
          leaf.num_idx = 2;
          leaf.idx[0] = through(*m, 0, 0, nullptr);
          leaf.idx[1] = through(*m, 1, 0, nullptr);
        } else {
          leaf.unravel = true;
          leaf.unr = std::make_shared<Leaf::Unravel>(Leaf::Unravel{f.lin, n->shape, {}});
        }
        return add_leaf(std::move(leaf), n);
      }
      // Buffers and calls were handled above; the rest never arrive as leaves.
      case Op::Buffer:
      case Op::Call:
      case Op::View:
      case Op::Reshape:
      case Op::Reduce:
      case Op::Gather:
      case Op::Place:
      case Op::User:
#include "graph/elementwise_cases.inc"
        break;
    }
    return add_leaf(std::move(leaf), n);
  }

  // The source of a gather: a leaf read at computed positions (no value of its own: the
  // Gather value reads it). -1 when the source is computed here: it is then cut (materialized
  // by a kernel of its own, and read from memory).
  int gathered_leaf(const Node* src) {
    if (!acts_as_leaf(*src) && !boundary_.count(src)) {
      if (split_dim_ < 0) cuts_.push_back({src, "read from memory (a gather's source)"});
      return -1;
    }
    Leaf leaf;
    leaf.kind = LeafKind::Gathered;
    leaf.slot = slot_of(src);
    leaf.dtype = src->dtype;
    const auto [strides, offset] = layout_of(*src);
    leaf.idx[0].c0 = offset;
    if (!is_c_contiguous(src->shape, strides)) {
      leaf.unravel = true;
      leaf.unr = std::make_shared<Leaf::Unravel>(Leaf::Unravel{Affine{}, src->shape, strides});
    }
    plan_.leaves.push_back(std::move(leaf));
    return static_cast<int>(plan_.leaves.size()) - 1;
  }

  // A node reached twice with the same form is emitted once. Kernels hold at most a few hundred
  // (node, form) pairs: a flat list, compared by node first, beats hashing big forms.
  int find_memo(const Node* n, const Form& f, int guard) const {
    for (const Memo& m : memo_) {
      if (m.node == n && m.guard == guard && m.form == f) return m.id;
    }
    return -1;
  }

  // Whether n is already computed (or read) under `guard` through a form other than f: a second
  // window onto it at the same positions of the loop (a stencil's neighbour), as opposed to a
  // read under another guard (a piece of a concatenation: each element takes one of them).
  // Memory is one window whichever view of it a leaf is (x[1:] and x[:-1] are two Buffer nodes
  // of one storage): leaves compare by the memory they read.
  bool other_window(const Node* n, const Form& f, int guard) const {
    const void* mem = memory_of(*n);
    for (const Memo& m : memo_) {
      if (m.guard != guard) continue;
      if (m.node == n ? !(m.form == f) : (mem != nullptr && memory_of(*m.node) == mem)) return true;
    }
    return false;
  }

  // The storage a leaf reads (null for nodes that are not leaves over a storage).
  static const void* memory_of(const Node& n) { return detail::buffer_storage(n); }

  static bool reads_memory(const Node& n) {
    return n.realized() || n.op == Op::Buffer || n.op == Op::Call || !acts_as_leaf(n);
  }

  // DESIGN.md decision 14: a subtree read through several windows that itself reads memory (or
  // work) through several windows (a stencil of a stencil) is materialized once, not recomputed
  // at every read: each level would multiply the kernel (a NumPy time loop written without eval
  // grows the source ~6x a step). n is such a subtree when it is asked for through a second
  // window and its first computation here opened kStencilWindows more windows onto something.
  bool stencil_of_stencil(const Node* n, const Form& f, int guard) const {
    if (detail::is_view(n->op) || n->op == Op::Reshape) return false;  // the node below decides
    const auto it = visits_.find(n);
    return it != visits_.end() && it->second.windows_inside >= kStencilWindows && other_window(n, f, guard);
  }

  // The most windows opened under one guard since window_guards_ had `from` entries.
  int most_under_one_guard(std::size_t from) const {
    std::unordered_map<int, int> per_guard;
    int most = 0;
    for (std::size_t i = from; i < window_guards_.size(); ++i) most = std::max(most, ++per_guard[window_guards_[i]]);
    return most;
  }

  // The kernel grew past kMaxValues without a stencil of a stencil (piecewise reads nested
  // deeply: a roll of a roll of ...): cut the compute node closest to the roots that is computed
  // more than once, and stop this analysis (the plan is made again with it materialized).
  void abort_oversized() {
    const Node* best = nullptr;
    int best_order = 0;
    for (const Memo& m : memo_) {
      if (detail::is_view(m.node->op) || m.node->op == Op::Reshape || acts_as_leaf(*m.node) ||
          own_.count(m.node) || boundary_.count(m.node)) {
        continue;
      }
      int copies = 0;
      for (const Memo& o : memo_) copies += o.node == m.node;
      const int order = visits_.at(m.node).order;
      if (copies > 1 && (!best || order < best_order)) {
        best = m.node;
        best_order = order;
      }
    }
    if (!best) return;  // nothing computed twice: the kernel is as big as the graph asks
    aborted_ = true;
    cuts_.push_back({best, "computed more than once in a kernel past its size bound: materialized once"});
  }

  // A bool value of the guards below a Place: op (logical and / not) of values a and b.
  int add_guard(Op op, int a, int b = -1) {
    KValue v;
    v.op = op;
    v.dtype = DType::Bool;
    v.in = {a, b, -1};
    plan_.values.push_back(v);
    return static_cast<int>(plan_.values.size()) - 1;
  }

  // What visiting a node waits for: the one input of a view or reshape (`chain`, read through
  // the form `child`), or each input of an elementwise op in turn. A Place visits its mask, then
  // its piece (through `child`, under the mask), then its base (outside the mask).
  struct Frame {
    const Node* n;
    Form f;
    Form child;
    KValue v;
    int next = 0;
    int result = 0;
    bool chain = false;
    bool done = false;
    bool awaiting = false;
    int guard = -1;           // where this node's reads are meaningful (-1: everywhere)
    // The part of `guard` that keeps its positions inside its shape: the boxes of the pieces
    // it lies in. A Place's base is read outside its box (to save the reads inside), not only
    // where no later write covers it; a piece in its whole box. Those extra reads are in
    // bounds, and the guards are a box test each, not a chain of every later write's.
    int safe = -1;
    bool place = false;
    int piece_guard = -1, base_guard = -1;
  };

  // Starts visiting n under form f: true (and `ret` set to its value id) when that needs no
  // input visited; else a frame for it is pushed.
  bool start(const Node* n, const Form& f, int guard, int safe, std::vector<Frame>& stack, int& ret) {
    // Scalars and generators read no memory: one value for every guard.
    if (acts_as_leaf(*n) && !n->realized() && n->op != Op::Buffer && n->op != Op::Call) guard = safe = -1;
    if (const int hit = find_memo(n, f, guard); hit >= 0) {
      ret = hit;
      return true;
    }
    int id = 0;
    const bool own_root = own_.count(n) > 0;
    bool leaf = acts_as_leaf(*n) || (!own_root && boundary_.count(n)) || cut_here_.count(n);
    if (!leaf && !own_root && stencil_of_stencil(n, f, guard)) {
      if (split_dim_ < 0) {
        cuts_.push_back({n, "read through several windows, and itself reads memory through several (a "
                            "stencil of a stencil): computed once by a kernel of its own, not at every read"});
      }
      cut_here_.insert(n);
      leaf = true;  // read as the buffer it will be, for the rest of this pass
    }
    // A second window onto memory, or onto work (a generated grid read by a stencil reads no
    // memory, but is recomputed per window all the same); generators and scalars are free.
    const bool counted = leaf ? reads_memory(*n) : !(detail::is_view(n->op) || n->op == Op::Reshape);
    if (counted && other_window(n, f, guard)) window_guards_.push_back(guard);
    if (!leaf) visits_.try_emplace(n, Visit{static_cast<int>(visits_.size()), window_guards_.size(), -1});
    if (leaf) {
      id = visit_leaf(n, f, guard);
    } else if (n->op == Op::View || (n->op == Op::Place && in_.allow_place)) {
      if (auto m = multi(f, n->shape)) {
        Frame fr{n, f};
        fr.guard = guard;
        fr.safe = safe;
        fr.child.map = detail::compose(*m, n->map());
        if (n->op == Op::View) {
          fr.chain = true;
        } else {
          fr.place = true;
          fr.v.op = Op::Where;
          fr.v.dtype = n->dtype;
        }
        stack.push_back(std::move(fr));
        return false;
      }
      // materialize it; its consumers then read it contiguously
      if (split_dim_ < 0) cuts_.push_back({n, "a reshape of this view needs it contiguous"});
    } else if (n->op == Op::Place) {
      if (split_dim_ < 0) {
        cuts_.push_back({n, "a region write or concatenation is computed by an elementwise kernel of its own"});
      }
    } else if (n->op == Op::Reduce) {
      if (in_.reduce_terminal) {
        // Its value comes from the reduction this kernel performs (epilogue analysis).
        Leaf leaf;
        leaf.kind = LeafKind::Reduced;
        leaf.dtype = n->dtype;
        leaf.num_idx = 1;
        leaf.idx[0] = to_linear(f, n->shape);
        id = add_leaf(std::move(leaf), n);
      } else {
        cuts_.push_back({n, "a reduction inside a kernel that cannot perform it is computed first"});
      }
    } else if (n->op == Op::Reshape) {
      Frame fr{n, f};
      fr.guard = guard;  // (its input is read where it is: a piece's reshape only in its box)
      fr.safe = safe;
      fr.chain = true;
      fr.child.linear = true;
      fr.child.lin = to_linear(f, n->shape);
      stack.push_back(std::move(fr));
      return false;
    } else if (n->op == Op::Gather) {
      // The index is visited as an elementwise input (input 1, at the value's in[0]); the
      // source becomes a gathered leaf.
      const int leaf = gathered_leaf(n->inputs[0].get());
      if (leaf >= 0) {
        Frame fr{n, f};
        fr.guard = guard;
        fr.safe = safe;
        fr.v.op = n->op;
        fr.v.dtype = n->dtype;
        fr.v.leaf = leaf;
        fr.v.guard = guard;
        fr.next = 1;
        stack.push_back(std::move(fr));
        return false;
      }
    } else {
      Frame fr{n, f};
      fr.guard = guard;
      fr.safe = safe;
      fr.v.op = n->op;
      fr.v.dtype = n->dtype;
      if (n->op == Op::User) fr.v.user = n->user();
      if (n->op == Op::CheckIndex) fr.v.guard = guard;  // records an error: not where meaningless
      stack.push_back(std::move(fr));
      return false;
    }
    memo_.push_back(Memo{n, f, guard, id});
    ret = id;
    return true;
  }

  // The value id of node n read through form f. Iterative (an explicit stack, not recursion):
  // a kernel may hold a chain of thousands of ops (LOOM_MAX_KERNEL_OPS up to 4096).
  int visit(const Node* root, const Form& root_form) {
    std::vector<Frame> stack;
    int ret = 0;
    if (start(root, root_form, -1, -1, stack, ret)) return ret;
    // A Place's inputs in the order visited (mask, piece, base): its Where value's operands.
    static constexpr std::array<int, 3> kPlaceOrder{1, 0, 2};
    while (!stack.empty()) {
      if (aborted_) return ret;
      Frame& top = stack.back();
      if (top.awaiting) {  // ret is the id of the input it waited for
        top.awaiting = false;
        if (top.chain) {
          top.result = ret;
          top.done = true;
        } else {
          top.v.in[static_cast<std::size_t>(top.next - 1)] = ret;
        }
        if (top.place && top.next == 1) {  // the mask: the piece is read inside, the base outside
          const int g = top.safe;
          top.piece_guard = g < 0 ? ret : add_guard(Op::LogicalAnd, g, ret);
          if (top.n->num_inputs == 3) {
            const int outside = add_guard(Op::LogicalNot, ret);
            top.base_guard = g < 0 ? outside : add_guard(Op::LogicalAnd, g, outside);
          }
        }
      }
      const bool more = top.chain ? !top.done : top.next < top.n->num_inputs;
      if (more) {
        // Copies first: start() may push, moving the frames.
        const int k = top.chain ? 0 : top.place ? kPlaceOrder[static_cast<std::size_t>(top.next)] : top.next;
        const Node* in = top.n->inputs[static_cast<std::size_t>(k)].get();
        const Form f = top.chain || (top.place && k == 0) ? top.child : top.f;
        int g = top.guard, safe = top.safe;
        if (top.place && k == 0) g = safe = top.piece_guard;
        if (top.place && k == 2) g = top.base_guard;  // same positions as the Place: safe as it is
        if (!top.chain) ++top.next;
        top.awaiting = true;
        start(in, f, g, safe, stack, ret);
        continue;
      }
      int id = top.result;
      if (top.place && top.n->num_inputs == 2) {
        id = top.v.in[1];  // no base: the piece (what lies outside the box is never read)
      } else if (!top.chain) {
        if (top.v.op == Op::Gather) top.v.in = {top.v.in[1], -1, -1};  // its index
        plan_.values.push_back(top.v);
        id = static_cast<int>(plan_.values.size()) - 1;
      }
      memo_.push_back(Memo{top.n, top.f, top.guard, id});
      if (auto it = visits_.find(top.n); it != visits_.end() && it->second.windows_inside < 0) {
        it->second.windows_inside = most_under_one_guard(it->second.windows_at_start);
      }
      ret = id;
      stack.pop_back();
      if (plan_.values.size() > kMaxValues && !aborted_ && !oversize_checked_) {
        oversize_checked_ = true;
        abort_oversized();
      }
    }
    return ret;
  }

  const AnalyzerInput& in_;
  std::unordered_set<const Node*> boundary_, own_;
  Shape iter_;
  std::vector<std::uint8_t> cls_;
  IndexMap to_root_;
  KernelPlan plan_;
  struct Memo {
    const Node* node;
    Form form;
    int guard;
    int id;
  };
  std::vector<Memo> memo_;
  std::unordered_map<const Node*, int> slots_;  // plan_.nodes, inverted
  std::vector<Cut> cuts_;
  // Per compute node, its first computation in this kernel: in which order it began, and how
  // many second windows onto memory were opened while it ran (-1 until it finished).
  struct Visit {
    int order;
    std::size_t windows_at_start;  // window_guards_.size() then
    int windows_inside;
  };
  std::unordered_map<const Node*, Visit> visits_;
  std::unordered_set<const Node*> cut_here_;  // cut by this pass: leaves from then on
  // The guard of each second window opened so far (onto memory, or onto work): windows under
  // one guard are all read at an element; under different guards, one of them is.
  std::vector<int> window_guards_;
  bool aborted_ = false;                      // abort_oversized() stopped the pass
  bool oversize_checked_ = false;
  // Extra windows a subtree must open to count as a stencil here: a 4-point stencil, or two
  // levels of 2-point ones. Fewer (an odd-reflect pad's edge and mirror, a 3-point filter) are
  // recomputed per read: at most a few reads per element, and one kernel instead of two.
  static constexpr int kStencilWindows = 3;
  // Values past which a kernel is too big to be worth compiling (a 512-op kernel already takes
  // NVRTC 2.3 s): fusion stops there (DESIGN.md decision 14).
  static constexpr std::size_t kMaxValues = 8192;
  int split_dim_ = -1;
  std::int64_t split_inner_ = 0;
};

}  // namespace

Analysis analyze(const AnalyzerInput& in) { return Analyzer(in).run(); }

std::vector<std::uint8_t> collapse(KernelPlan& p, const Shape& iter,
                                   const std::vector<std::uint8_t>& cls) {
  // Collapse: drop unit dims; merge d into d+1 when every affine steps through them as one.
  std::vector<int> keep;
  for (int d = 0; d < iter.size(); ++d) {
    if (iter[d] != 1) keep.push_back(d);
  }
  Shape shape;
  std::vector<std::vector<int>> merged;  // new dim -> old dims
  for (int d : keep) {
    if (!merged.empty()) {
      const int prev = merged.back().back();
      bool ok = true;
      for_each_affine(p, [&](Affine& a) {
        ok = ok && a.c[static_cast<std::size_t>(prev)] == a.c[static_cast<std::size_t>(d)] * iter[d];
      });
      if (ok && cls[static_cast<std::size_t>(prev)] == cls[static_cast<std::size_t>(d)]) {
        merged.back().push_back(d);
        shape[shape.size() - 1] *= iter[d];
        continue;
      }
    }
    merged.push_back({d});
    shape.push_back(iter[d]);
  }
  for_each_affine(p, [&](Affine& a) {
    Affine b;
    b.c0 = a.c0;
    for (std::size_t nd = 0; nd < merged.size(); ++nd) b.c[nd] = a.c[static_cast<std::size_t>(merged[nd].back())];
    a = b;
  });
  p.shape = shape;
  std::vector<std::uint8_t> out;
  for (const auto& m : merged) out.push_back(cls[static_cast<std::size_t>(m.front())]);
  return out;
}

}  // namespace loom::codegen
