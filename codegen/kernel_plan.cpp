#include "codegen/kernel_plan.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

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

bool is_c_contiguous(const Shape& shape, const Shape& strides) {
  std::int64_t expect = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

// Functions whose CUDA implementations are long (argument reduction, series): trig and
// hyperbolic functions, powers, and transcendental functions of complex numbers.
bool is_costly(const KValue& v) {
  switch (v.op) {
    case Op::Sin:
    case Op::Cos:
    case Op::Tan:
    case Op::Arcsin:
    case Op::Arccos:
    case Op::Arctan:
    case Op::Arctan2:
    case Op::Sinh:
    case Op::Cosh:
    case Op::Tanh:
    case Op::Arcsinh:
    case Op::Arccosh:
    case Op::Arctanh:
    case Op::Power:
    case Op::Cbrt:
    case Op::Hypot:
      return true;
    case Op::Exp:
    case Op::Exp2:
    case Op::Expm1:
    case Op::Log:
    case Op::Log2:
    case Op::Log10:
    case Op::Log1p:
    case Op::Sqrt:
      return is_complex(v.dtype);
    default:
      return false;
  }
}

class Analyzer {
 public:
  Analyzer(const KernelGroup& group, std::span<const NodeRef> boundary)
      : group_(group) {
    for (const NodeRef& b : boundary) boundary_.insert(b.get());
    for (const NodeRef& r : group.roots) own_.insert(r.get());
    iter_ = group.shape;
    to_root_ = IndexMap::identity(iter_.size());
  }

  // Runs the analysis, refining the iteration space until every reshape factors.
  KernelPlan run() {
    for (int attempt = 0; attempt < 2 * kMaxDims + 2; ++attempt) {
      reset();
      for (const NodeRef& r : group_.roots) {
        Form f;
        f.map = to_root_;
        plan_.outputs.push_back(visit(r.get(), f));
      }
      if (!cuts_.empty()) {
        plan_.needs_cut = cuts_;
        return std::move(plan_);
      }
      if (split_dim_ < 0) return finish();
      apply_split();
    }
    return finish();  // not reached: each split adds a dim, bounded by kMaxDims
  }

 private:
  void reset() {
    plan_ = KernelPlan{};
    memo_.clear();
    cuts_.clear();
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

  int add_leaf(Leaf leaf, const Node* n) {
    plan_.leaves.push_back(std::move(leaf));
    KValue v;
    v.op = n->op == Op::Constant && !n->realized() ? Op::Constant : Op::Buffer;
    if (plan_.leaves.back().kind == LeafKind::Arange) v.op = Op::Arange;
    if (plan_.leaves.back().kind == LeafKind::Linspace) v.op = Op::Linspace;
    if (plan_.leaves.back().kind == LeafKind::Eye) v.op = Op::Eye;
    v.dtype = n->dtype;
    v.leaf = static_cast<int>(plan_.leaves.size()) - 1;
    v.node = n;
    plan_.values.push_back(v);
    return static_cast<int>(plan_.values.size()) - 1;
  }

  int visit_leaf(const Node* n, const Form& f) {
    Leaf leaf;
    leaf.node = n;
    leaf.dtype = n->dtype;
    const bool has_buffer = n->realized() || n->op == Op::Buffer || !acts_as_leaf(*n);
    if (has_buffer) {
      leaf.kind = LeafKind::Buffer;
      Shape strides = contiguous_strides(n->shape);
      std::int64_t offset = 0;
      if (auto r = n->realized()) {
        strides = r->strides;
        offset = r->offset;
      } else if (n->op == Op::Buffer) {
        strides = n->strides();
        offset = n->offset();
      }
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
      return add_leaf(std::move(leaf), n);
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
      default: break;
    }
    return add_leaf(std::move(leaf), n);
  }

  // A node reached twice with the same form is emitted once. Kernels hold at most a few hundred
  // (node, form) pairs: a flat list, compared by node first, beats hashing big forms.
  int find_memo(const Node* n, const Form& f) const {
    for (const Memo& m : memo_) {
      if (m.node == n && m.form == f) return m.id;
    }
    return -1;
  }

  int visit(const Node* n, const Form& f) {
    if (const int hit = find_memo(n, f); hit >= 0) return hit;
    int id = 0;
    const bool own_root = own_.count(n) > 0;
    if (acts_as_leaf(*n) || (!own_root && boundary_.count(n))) {
      id = visit_leaf(n, f);
    } else if (n->op == Op::View) {
      if (auto m = multi(f, n->shape)) {
        Form g;
        g.map = detail::compose(*m, n->map());
        id = visit(n->inputs[0].get(), g);
      } else if (split_dim_ < 0) {
        cuts_.push_back(n);  // materialize the view; its consumers then read it contiguously
      }
    } else if (n->op == Op::Reshape) {
      Form g;
      g.linear = true;
      g.lin = to_linear(f, n->shape);
      id = visit(n->inputs[0].get(), g);
    } else {
      KValue v;
      v.op = n->op;
      v.dtype = n->dtype;
      v.node = n;
      for (int i = 0; i < n->num_inputs; ++i) {
        v.in[static_cast<std::size_t>(i)] = visit(n->inputs[static_cast<std::size_t>(i)].get(), f);
      }
      plan_.values.push_back(v);
      id = static_cast<int>(plan_.values.size()) - 1;
    }
    memo_.push_back(Memo{n, f, id});
    return id;
  }

  KernelPlan finish();

  const KernelGroup& group_;
  std::unordered_set<const Node*> boundary_, own_;
  Shape iter_;
  IndexMap to_root_;
  KernelPlan plan_;
  struct Memo {
    const Node* node;
    Form form;
    int id;
  };
  std::vector<Memo> memo_;
  std::vector<const Node*> cuts_;
  int split_dim_ = -1;
  std::int64_t split_inner_ = 0;
};

// Every affine the plan evaluates.
template <class F> void for_each_affine(KernelPlan& p, F&& f) {
  for (Leaf& l : p.leaves) {
    for (int i = 0; i < l.num_idx; ++i) f(l.idx[static_cast<std::size_t>(i)]);
    if (l.unravel) f(l.unr->lin);
  }
}

KernelPlan Analyzer::finish() {
  KernelPlan& p = plan_;
  for (const NodeRef& r : group_.roots) p.roots.push_back(r);
  // Collapse: drop unit dims; merge d into d+1 when every affine steps through them as one.
  std::vector<int> keep;
  for (int d = 0; d < iter_.size(); ++d) {
    if (iter_[d] != 1) keep.push_back(d);
  }
  Shape shape;
  std::vector<std::vector<int>> merged;  // new dim -> old dims
  for (int d : keep) {
    if (!merged.empty()) {
      const int prev = merged.back().back();
      bool ok = true;
      for_each_affine(p, [&](Affine& a) {
        ok = ok && a.c[static_cast<std::size_t>(prev)] == a.c[static_cast<std::size_t>(d)] * iter_[d];
      });
      if (ok) {
        merged.back().push_back(d);
        shape[shape.size() - 1] *= iter_[d];
        continue;
      }
    }
    merged.push_back({d});
    shape.push_back(iter_[d]);
  }
  for_each_affine(p, [&](Affine& a) {
    Affine b;
    b.c0 = a.c0;
    for (std::size_t nd = 0; nd < merged.size(); ++nd) b.c[nd] = a.c[static_cast<std::size_t>(merged[nd].back())];
    a = b;
  });
  p.shape = shape;
  p.numel = group_.shape.numel();
  const int nd = shape.size();
  p.path = nd <= 1 ? Path::Flat : (shape[nd - 1] >= 64 ? Path::Rows : Path::Unravel);

  // 32-bit indexing when every index the kernel forms fits.
  // (a margin for the last block's overhang and the row loop's stride)
  const std::int64_t lim = (std::int64_t{1} << 31) - (std::int64_t{1} << 25);
  bool fits = p.numel < lim;
  for_each_affine(p, [&](Affine& a) {
    std::int64_t lo = a.c0, hi = a.c0;
    for (int d = 0; d < nd; ++d) {
      const std::int64_t span = a.c[static_cast<std::size_t>(d)] * (shape[d] - 1);
      (span > 0 ? hi : lo) += span;
    }
    fits = fits && lo > -lim && hi < lim;
  });
  for (const Leaf& l : p.leaves) {
    if (l.unravel) fits = fits && l.unr->shape.numel() < lim;
  }
  p.index32 = fits;

  // Vectors: 16 bytes per access when every buffer is read with unit or zero inner step.
  std::size_t widest = 1;
  bool vec_ok = p.path != Path::Unravel;
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Buffer) continue;
    if (l.unravel) {
      vec_ok = false;
      continue;
    }
    const Step s = step_of(l.idx[0], nd);
    if (s == Step::Strided) vec_ok = false;
    if (s == Step::Unit) widest = std::max(widest, itemsize(l.dtype));
  }
  for (int o : p.outputs) widest = std::max(widest, itemsize(p.values[static_cast<std::size_t>(o)].dtype));
  p.vec = vec_ok && widest < 16 && p.numel > 1 ? static_cast<int>(16 / widest) : 1;
  // A 2-d loop with an operand that is contiguous down the rows and strided along them (a
  // transposed array): tile it through shared memory so both its reads and the output's writes
  // are coalesced (bench/NOTES.md: 88-90% of copy vs 69% read straight).
  if (p.path == Path::Rows && nd == 2 && (p.numel / shape[1] + 31) / 32 <= 65535) {
    for (Leaf& l : p.leaves) {
      if (l.kind == LeafKind::Buffer && !l.unravel && step_of(l.idx[0], nd) == Step::Strided &&
          l.idx[0].c[0] == 1) {
        l.tiled = true;
        p.path = Path::Tiled;
        p.vec = 1;
      }
    }
  }
  // Kernels with several costly functions are bound by arithmetic, not memory, and the vector
  // path inlines the element code once per vector lane (NVRTC time grows with it): one element
  // per thread there.
  int heavy = 0;
  for (const KValue& v : p.values) heavy += is_costly(v);
  if (heavy >= 2) p.vec = 1;
  return std::move(p);
}

// Keys are raw bytes: small integers take one byte, others a marker and eight.
void append_key(std::string& k, std::int64_t v) {
  if (v >= -100 && v < 127) {
    k += static_cast<char>(v);
    return;
  }
  k += static_cast<char>(127);
  k.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

Step step_of(const Affine& a, int ndim) {
  if (ndim == 0) return Step::Zero;
  const std::int64_t c = a.c[static_cast<std::size_t>(ndim - 1)];
  return c == 0 ? Step::Zero : (c == 1 ? Step::Unit : Step::Strided);
}

namespace {
void build_key(KernelPlan& p) {
  std::string& k = p.key;
  k.clear();
  k.reserve(64 + 16 * (p.leaves.size() + p.values.size()));
  k += "ew2|";  // key format version
  append_key(k, static_cast<std::int64_t>(p.leaves.size()));
  append_key(k, static_cast<std::int64_t>(p.values.size()));
  append_key(k, static_cast<std::int64_t>(p.outputs.size()));
  append_key(k, static_cast<int>(p.path));
  append_key(k, p.index32);
  append_key(k, p.vec);
  append_key(k, p.shape.size());
  k += '|';
  const int nd = p.shape.size();
  for (const Leaf& l : p.leaves) {
    append_key(k, static_cast<int>(l.kind));
    append_key(k, static_cast<int>(l.dtype));
    append_key(k, l.num_idx);
    for (int i = 0; i < l.num_idx; ++i) append_key(k, static_cast<int>(step_of(l.idx[static_cast<std::size_t>(i)], nd)));
    append_key(k, l.unravel ? l.unr->shape.size() : -1);
    append_key(k, l.tiled);
    if (l.unravel) append_key(k, static_cast<int>(step_of(l.unr->lin, nd)));
    k += ';';
  }
  k += '|';
  for (const KValue& v : p.values) {
    append_key(k, static_cast<int>(v.op));
    append_key(k, static_cast<int>(v.dtype));
    append_key(k, v.leaf);
    for (int i : v.in) append_key(k, i);
    k += ';';
  }
  k += '|';
  for (int o : p.outputs) append_key(k, o);
}
}  // namespace

KernelPlan plan_kernel(const KernelGroup& group, std::span<const NodeRef> boundary,
                       const PlanOptions& options) {
  Analyzer a(group, boundary);
  KernelPlan p = a.run();
  if (!p.needs_cut.empty()) return p;
  if (!options.allow_vectorize) p.vec = 1;
  build_key(p);
  return p;
}

void drop_vectors(KernelPlan& p) {
  p.vec = 1;
  build_key(p);
}

bool vector_aligned(const KernelPlan& p, const AddressOf& address_of, std::span<void* const> outputs) {
  if (p.vec == 1) return true;
  const int nd = p.shape.size();
  const auto aligned = [&](const void* ptr, std::size_t item) {
    return reinterpret_cast<std::uintptr_t>(ptr) % (item * static_cast<std::size_t>(p.vec)) == 0;
  };
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Buffer || step_of(l.idx[0], nd) != Step::Unit) continue;
    const std::size_t item = itemsize(l.dtype);
    const auto* base = static_cast<const char*>(address_of(l.node)) + l.idx[0].c0 * static_cast<std::int64_t>(item);
    if (!aligned(base, item)) return false;
    for (int d = 0; d + 1 < nd; ++d) {
      if (l.idx[0].c[static_cast<std::size_t>(d)] % p.vec != 0) return false;
    }
  }
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    if (!aligned(outputs[o], itemsize(p.values[static_cast<std::size_t>(p.outputs[o])].dtype))) return false;
  }
  if (nd >= 2 && p.shape[nd - 1] % p.vec != 0) return false;  // output rows start aligned
  return true;
}

std::string to_string(const KernelPlan& p) {
  std::string s = fmt::format("kernel plan: shape {} path {} index{} vec {}\n", to_string(p.shape),
                              p.path == Path::Flat ? "flat" : p.path == Path::Rows ? "rows" : p.path == Path::Tiled ? "tiled" : "unravel",
                              p.index32 ? 32 : 64, p.vec);
  for (std::size_t i = 0; i < p.leaves.size(); ++i) {
    const Leaf& l = p.leaves[i];
    s += fmt::format("  leaf {}: {}", i, to_string(*l.node));
    for (int j = 0; j < l.num_idx; ++j) {
      const Affine& a = l.idx[static_cast<std::size_t>(j)];
      s += fmt::format(" idx{}={}", j, a.c0);
      for (int d = 0; d < p.shape.size(); ++d) s += fmt::format("{:+}*o{}", a.c[static_cast<std::size_t>(d)], d);
    }
    if (l.unravel) s += " (unravelled)";
    s += "\n";
  }
  return s;
}

}  // namespace loom::codegen
