#include "codegen/kernel_plan.hpp"
#include "codegen/reduce_strategy.hpp"

#include "codegen/analyzer.hpp"

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

// Functions whose CUDA implementations are long (argument reduction, series): trig and
// hyperbolic functions, powers, and transcendental functions of complex numbers.
// ops.def's cost column: heavy ops, and the ops heavy for complex operands only.
bool is_costly(const KValue& v) {
  switch (detail::op_info(v.op).cost) {
    case detail::OpCost::Cheap: return false;
    case detail::OpCost::Heavy: return true;
    case detail::OpCost::HeavyComplex: return is_complex(v.dtype);
  }
  return false;
}

// Without vectors, one element per thread leaves a thread's loads too few to cover the memory
// latency: four elements a thread, loaded together (H100, GPU time, bench/NOTES.md: a 5-point
// stencil 63% -> 76-80% of copy, a guarded region write 71% -> 98%; 2 per thread and 2-d blocks
// of 32 x 8 measured no better). Not for kernels bound by costly functions, nor long ones (the
// element code is inlined once per element, and NVRTC time grows with it).
void set_unroll(KernelPlan& p) {
  int heavy = 0;
  for (const KValue& v : p.values) heavy += is_costly(v);
  const bool small = p.values.size() <= 128;  // the element code appears 2 x 4 times
  p.unroll = p.vec == 1 && heavy < 2 && small && (p.path == Path::Flat || p.path == Path::Rows) && p.numel > 1 ? 4 : 1;
}

}  // namespace

bool vector_guards(const KernelPlan& p) {
  const int nd = p.shape.size();
  std::vector<int> todo;
  for (const Leaf& l : p.leaves) {
    if (l.guard < 0) continue;
    if (l.kind != LeafKind::Buffer || l.unravel || l.tiled || step_of(l.idx[0], nd) == Step::Strided) return false;
    todo.push_back(l.guard);
  }
  // The guards' cone: plain ops of generators, scalars and unguarded reads (values the vector
  // path has before its guarded loads; nothing read twice, no side effect).
  std::vector<std::uint8_t> seen(p.values.size(), 0);
  while (!todo.empty()) {
    const int i = todo.back();
    todo.pop_back();
    if (seen[static_cast<std::size_t>(i)]) continue;
    seen[static_cast<std::size_t>(i)] = 1;
    const KValue& v = p.values[static_cast<std::size_t>(i)];
    if (v.guard >= 0 || v.op == Op::Gather || v.op == Op::User || v.op == Op::CheckIndex) return false;
    if (v.leaf >= 0 && p.leaves[static_cast<std::size_t>(v.leaf)].kind == LeafKind::Gathered) return false;
    for (int k : v.in) {
      if (k >= 0) todo.push_back(k);
    }
  }
  return true;
}

namespace {

// Rows that read the same memory are visited together. An operand broadcast along an outer dim
// (tile's copies, a stacked broadcast) is read once per index of that dim; in C order those
// reads are the dim's stride of rows apart, and when the operand is larger than L2 holds each
// one comes from DRAM again (tile(x, {2, 2}) of a 64 MiB x read x twice). Iterating the
// broadcast dims fastest puts the rows that share an operand's row next to each other in the
// row order: the re-reads hit L2. Long rows only (each row stays one contiguous run of the
// output), and only for operands too large for L2 to keep anyway.
void order_rows(KernelPlan& p) {
  p.fast_rows = 0;
  const int nd = p.shape.size();
  if (p.path != Path::Rows || nd < 3 || p.shape[nd - 1] < 256) return;
  std::uint32_t fast = 0;
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Buffer || l.unravel) continue;
    std::uint32_t zero = 0;
    double bytes = static_cast<double>(itemsize(l.dtype));
    for (int d = 0; d < nd; ++d) {
      if (l.idx[0].c[static_cast<std::size_t>(d)] == 0) {
        if (d + 1 < nd) zero |= 1u << d;
      } else {
        bytes *= static_cast<double>(p.shape[d]);
      }
    }
    const std::uint32_t outer = (1u << (nd - 1)) - 1;
    if (zero != 0 && zero != outer && bytes >= 16.0 * (1 << 20)) fast |= zero;
  }
  // Broadcast dims already last among the outer ones: C order is that order.
  const std::uint32_t outer = (1u << (nd - 1)) - 1;
  if (fast == outer) return;
  int d = nd - 2;
  std::uint32_t suffix = 0;
  while (d >= 0 && (fast >> d & 1u)) suffix |= 1u << d--;
  if (suffix != fast) p.fast_rows = fast;
}

// Reads of one storage with the same strides a few elements apart share a pointer (Leaf::share):
// the heat step's centre and its left and right neighbours are one row pointer, and on the
// vector path one 16-byte load and two single elements instead of three loads, two of them
// misaligned (which kept the whole kernel off vectors; bench/NOTES.md, "The heat kernel's
// floor"). The lead is the read whose offset is a multiple of a vector (the aligned one when the
// node's data is). A shifted read joins only beside an unshifted one with the same guard (or
// none): the vector its lanes come from is then loaded exactly where that read is meaningful.
void share_pointers(KernelPlan& p) {
  const int nd = p.shape.size();
  const auto eligible = [&](const Leaf& l) {
    return l.kind == LeafKind::Buffer && !l.unravel && !l.tiled && l.cache < 0 && l.slot >= 0;
  };
  // Views of one array are distinct nodes over one storage (the executable cache's fingerprint
  // tells such graphs apart); a node an earlier kernel computes has no storage yet: itself.
  const auto storage_id = [&p](const Leaf& l) -> const void* {
    const Node* n = p.nodes[static_cast<std::size_t>(l.slot)];
    const detail::Storage* s = detail::buffer_storage(*n);
    return s ? static_cast<const void*>(s) : static_cast<const void*>(n);
  };
  const int n = static_cast<int>(p.leaves.size());
  std::vector<std::uint8_t> classed(static_cast<std::size_t>(n), 0);  // each leaf in one class, once
  for (int i = 0; i < n; ++i) {
    const Leaf& first = p.leaves[static_cast<std::size_t>(i)];
    if (!eligible(first) || classed[static_cast<std::size_t>(i)]) continue;
    std::vector<int> cls{i};
    for (int j = i + 1; j < n; ++j) {
      const Leaf& l = p.leaves[static_cast<std::size_t>(j)];
      bool same = eligible(l) && !classed[static_cast<std::size_t>(j)] && storage_id(l) == storage_id(first) &&
                  l.dtype == first.dtype;
      for (int d = 0; same && d < nd; ++d) same = l.idx[0].c[static_cast<std::size_t>(d)] == first.idx[0].c[static_cast<std::size_t>(d)];
      if (same) cls.push_back(j);
    }
    for (int j : cls) classed[static_cast<std::size_t>(j)] = 1;
    if (cls.size() < 2) continue;
    const std::int64_t width = static_cast<std::int64_t>(16 / itemsize(first.dtype));
    int lead = cls.front();
    for (int j : cls) {
      if (p.leaves[static_cast<std::size_t>(j)].idx[0].c0 % width == 0) {
        lead = j;
        break;
      }
    }
    const std::int64_t c0 = p.leaves[static_cast<std::size_t>(lead)].idx[0].c0;
    for (int j : cls) {
      Leaf& l = p.leaves[static_cast<std::size_t>(j)];
      const std::int64_t d = l.idx[0].c0 - c0;
      if (j == lead || d <= -width || d >= width) continue;
      bool beside = d == 0;
      for (int k : cls) {
        const Leaf& m = p.leaves[static_cast<std::size_t>(k)];
        beside = beside || (m.idx[0].c0 == c0 && m.guard == l.guard);
      }
      if (!beside) continue;
      l.share = lead;
      l.shift = static_cast<int>(d);
    }
  }
}

// Collapse, path, index width and vector width of an elementwise plan.
void finish(KernelPlan& p, const KernelGroup& group, const Analysis& a) {
  add_roots(p, group);
  collapse(p, a.iter, a.classes);
  const Shape& shape = p.shape;
  p.numel = group.shape.numel();
  const int nd = shape.size();
  // Short rows take the rows path too where 16-byte vectors cover them (one vector a row or a
  // few: `repeat(x, 4, axis=-1)`'s output rows of 4 floats read one element each); else every
  // index is unravelled.
  p.path = nd <= 1 ? Path::Flat : Path::Rows;

  p.index32 = fits_in_32_bits(p, p.numel);

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
  if (p.path == Path::Rows && nd == 2 && shape[1] >= 64 && (p.numel / shape[1] + 31) / 32 <= 65535) {
    for (Leaf& l : p.leaves) {
      if (l.kind == LeafKind::Buffer && !l.unravel && l.guard < 0 && step_of(l.idx[0], nd) == Step::Strided &&
          l.idx[0].c[0] == 1) {
        l.tiled = true;
        p.path = Path::Tiled;
        p.vec = 1;
      }
    }
  }
  share_pointers(p);
  // Kernels with several costly functions are bound by arithmetic, not memory, and the vector
  // path inlines the element code once per vector lane (NVRTC time grows with it): one element
  // per thread there.
  int heavy = 0;
  for (const KValue& v : p.values) heavy += is_costly(v);
  if (heavy >= 2) p.vec = 1;
  // Guarded reads (below a Place) take vectors where their guards are computed from what the
  // vector path holds before its loads (vector_guards): each vector asks whether its lanes'
  // guards agree, and then loads 16 bytes or nothing. Otherwise they are scalar loads in the
  // element function, and one element per thread keeps each warp's reads of a row one
  // coalesced line (with vectors a warp's scalar loads would span four times their bytes).
  if (!vector_guards(p)) p.vec = 1;
  if (p.path == Path::Rows && shape[nd - 1] < 64 && (p.vec == 1 || shape[nd - 1] % p.vec != 0)) {
    p.path = Path::Unravel;
    p.vec = 1;
  }
  set_unroll(p);
  order_rows(p);
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

void add_roots(KernelPlan& p, const KernelGroup& group) {
  for (const NodeRef& r : group.roots) {
    const auto at = std::find(p.nodes.begin(), p.nodes.end(), r.get());
    p.roots.push_back(static_cast<int>(at - p.nodes.begin()));
    if (at == p.nodes.end()) p.nodes.push_back(r.get());
  }
}

Step step_of(const Affine& a, int ndim) {
  if (ndim == 0) return Step::Zero;
  const std::int64_t c = a.c[static_cast<std::size_t>(ndim - 1)];
  return c == 0 ? Step::Zero : (c == 1 ? Step::Unit : Step::Strided);
}

bool fits_in_32_bits(KernelPlan& p, std::int64_t count) {
  // (a margin for the last block's overhang and the row loop's stride)
  const std::int64_t lim = (std::int64_t{1} << 31) - (std::int64_t{1} << 25);
  const Shape& shape = p.shape;
  const int nd = shape.size();
  bool fits = count < lim;
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
  return fits;
}

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
  append_key(k, p.unroll);
  if (p.fast_rows != 0) {  // a byte no small integer takes, then the dims (keys of C-order rows unchanged)
    k += static_cast<char>(-101);
    append_key(k, static_cast<std::int64_t>(p.fast_rows));
  }
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
    append_key(k, l.guard);
    if (l.share >= 0) {  // a byte no small integer takes (keys of unshared leaves unchanged)
      k += static_cast<char>(-102);
      append_key(k, l.share);
      append_key(k, l.shift);
    }
    k += ';';
  }
  k += '|';
  for (const KValue& v : p.values) {
    append_key(k, static_cast<int>(v.op));
    if (v.op == Op::User) append_key(k, static_cast<std::int64_t>(v.user->hash));  // the user's code
    append_key(k, static_cast<int>(v.dtype));
    append_key(k, v.leaf);
    for (int i : v.in) append_key(k, i);
    append_key(k, v.guard);
    k += ';';
  }
  k += '|';
  for (int o : p.outputs) append_key(k, o);
  if (p.reduce) {  // a reduction kernel: its strategy, reductions and prologue
    const ReducePart& r = *p.reduce;
    k += "|red|";
    append_key(k, static_cast<int>(r.strategy));
    append_key(k, r.vec);
    strategy_def(r.strategy).key(k, r);  // what its skeleton alone depends on
    k += ';';
    append_key(k, static_cast<std::int64_t>(r.reductions.size()));
    for (const ReduceSpec& spec : r.reductions) {
      append_key(k, static_cast<int>(spec.kind));
      if (spec.kind == detail::ReduceKind::User) append_key(k, static_cast<std::int64_t>(spec.user->hash));
      append_key(k, static_cast<int>(spec.dtype));
      append_key(k, static_cast<int>(spec.out_dtype));
      append_key(k, spec.input);
    }
    append_key(k, static_cast<std::int64_t>(r.reduced.size()));
    for (std::uint8_t c : r.reduced) append_key(k, c);
    int last = -1;  // leaves stepping with stride 1 through the last reduced dim (emit_reduce)
    for (int d = 0; d < static_cast<int>(r.reduced.size()); ++d) {
      if (r.reduced[static_cast<std::size_t>(d)]) last = d;
    }
    for (const Leaf& l : r.prologue->leaves) {
      append_key(k, last >= 0 && l.kind == LeafKind::Buffer && !l.unravel &&
                        l.idx[0].c[static_cast<std::size_t>(last)] == 1);
    }
    append_key(k, static_cast<std::int64_t>(r.epilogue_reduced.size()));
    for (std::uint8_t c : r.epilogue_reduced) append_key(k, c);
    for (const Leaf& l : p.leaves) append_key(k, l.cache);
    k += r.prologue->key;
  }
}

KernelPlan plan_kernel(const KernelGroup& group, std::span<const NodeRef> boundary,
                       const PlanOptions& options) {
  AnalyzerInput in;
  for (const NodeRef& r : group.roots) in.roots.push_back(r.get());
  in.iter = group.shape;
  in.boundary = boundary;
  in.allow_place = true;
  Analysis a = analyze(in);
  KernelPlan p = std::move(a.plan);
  if (!p.needs_cut.empty()) return p;
  finish(p, group, a);
  if (!options.allow_vectorize) {
    p.vec = 1;
    set_unroll(p);
  }
  build_key(p);
  return p;
}

void drop_vectors(KernelPlan& p) {
  p.vec = 1;
  if (!p.reduce) set_unroll(p);
  if (p.reduce && p.reduce->vec > 1) {
    auto r = std::make_shared<ReducePart>(*p.reduce);
    r->vec = 1;
    p.reduce = std::move(r);
  }
  build_key(p);
}

bool vector_aligned(const KernelPlan& p, const AddressOf& address_of, std::span<void* const> outputs) {
  if (p.reduce && p.reduce->vec > 1) {  // the prologue's vector loads start aligned
    const KernelPlan& pro = *p.reduce->prologue;
    for (const Leaf& l : pro.leaves) {
      if (l.kind != LeafKind::Buffer) continue;
      const std::size_t item = itemsize(l.dtype);
      const auto* base = static_cast<const char*>(address_of(pro.nodes[static_cast<std::size_t>(l.slot)])) +
                         l.idx[0].c0 * static_cast<std::int64_t>(item);
      if (reinterpret_cast<std::uintptr_t>(base) % (item * static_cast<std::size_t>(p.reduce->vec)) != 0) return false;
    }
  }
  if (p.reduce && p.reduce->vec > 1 && p.reduce->strategy == ReduceStrategy::Rows) {
    // Row-resident outputs are stored as vectors too (rows of a multiple of vec elements).
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      const std::size_t item = itemsize(p.values[static_cast<std::size_t>(p.outputs[o])].dtype);
      if (reinterpret_cast<std::uintptr_t>(outputs[o]) % (item * static_cast<std::size_t>(p.reduce->vec)) != 0) {
        return false;
      }
    }
  }
  if (p.vec == 1) return true;
  const int nd = p.shape.size();
  const auto aligned = [&](const void* ptr, std::size_t item) {
    return reinterpret_cast<std::uintptr_t>(ptr) % (item * static_cast<std::size_t>(p.vec)) == 0;
  };
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Buffer || l.share >= 0 || step_of(l.idx[0], nd) != Step::Unit) continue;
    const std::size_t item = itemsize(l.dtype);
    const auto* base = static_cast<const char*>(address_of(p.nodes[static_cast<std::size_t>(l.slot)])) +
                       l.idx[0].c0 * static_cast<std::int64_t>(item);
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
    s += fmt::format("  leaf {} (slot {}): {}", i, l.slot, to_string(*p.nodes[static_cast<std::size_t>(l.slot)]));
    for (int j = 0; j < l.num_idx; ++j) {
      const Affine& a = l.idx[static_cast<std::size_t>(j)];
      s += fmt::format(" idx{}={}", j, a.c0);
      for (int d = 0; d < p.shape.size(); ++d) s += fmt::format("{:+}*o{}", a.c[static_cast<std::size_t>(d)], d);
    }
    if (l.unravel) s += " (unravelled)";
    if (l.share >= 0) s += fmt::format(" (leaf {}'s pointer {:+})", l.share, l.shift);
    s += "\n";
  }
  return s;
}

}  // namespace loom::codegen
