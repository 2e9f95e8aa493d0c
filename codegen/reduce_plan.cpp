// Planning a reduction kernel (kernel_plan.hpp's plan_reduce). Two index analyses: the epilogue
// over the output (its Reduce nodes become leaves valued by the reductions), the prologue over
// the reduction's input with each dim kept or reduced; then the first strategy that takes the
// reduction (reduce_strategy.hpp: each in its own file, reduce_<name>.cpp) sizes it.

#include <algorithm>

#include "codegen/analyzer.hpp"
#include "codegen/kernel_plan.hpp"
#include "codegen/reduce_strategy.hpp"

#include <loom/errors.hpp>

namespace loom::codegen {

KernelPlan plan_reduce(const KernelGroup& group, std::span<const NodeRef> boundary, int sm_count) {
  // --- the epilogue: outputs from the reductions' results ---
  // Row-resident kernels iterate over the reductions' input (its dims classed kept/reduced).
  const Node* any_reduce = nullptr;
  if (group.rows) {
    std::vector<const Node*> stack;
    for (const NodeRef& r : group.roots) stack.push_back(r.get());
    while (!stack.empty() && !any_reduce) {  // the first reduction the roots reach
      const Node* n = stack.back();
      stack.pop_back();
      if (detail::acts_as_leaf(*n)) continue;
      if (n->op == detail::Op::Reduce) {
        any_reduce = n;
        break;
      }
      for (int i = 0; i < n->num_inputs; ++i) stack.push_back(n->inputs[static_cast<std::size_t>(i)].get());
    }
  }
  AnalyzerInput ein;
  for (const NodeRef& r : group.roots) ein.roots.push_back(r.get());
  ein.iter = group.shape;
  if (any_reduce) {
    for (int d = 0; d < ein.iter.size(); ++d) ein.classes.push_back(any_reduce->reduces(d) ? 1 : 0);
  }
  ein.boundary = boundary;
  ein.reduce_terminal = true;
  Analysis ea = analyze(ein);
  KernelPlan p = std::move(ea.plan);
  if (!p.needs_cut.empty()) return p;

  // Output j of the kernel is element j of every reduction in C order: the epilogue must read
  // its reductions at the iteration's own linear index (no transpose in between). Row-resident:
  // at the linear index of the kept dims only (the result broadcast along the row).
  Shape cs = contiguous_strides(ea.iter);
  if (any_reduce) {
    std::int64_t acc = 1;
    for (int d = ea.iter.size() - 1; d >= 0; --d) {
      const bool red = ea.classes[static_cast<std::size_t>(d)] != 0;
      cs[d] = red ? 0 : acc;
      if (!red) acc *= ea.iter[d];
    }
  }
  std::vector<int> reduces;  // the Reduce nodes' slots, in the order the epilogue reads them
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Reduced) continue;
    bool identity = l.idx[0].c0 == 0;
    for (int d = 0; d < ea.iter.size(); ++d) {
      if ((ea.iter[d] > 1 || cs[d] == 0) && l.idx[0].c[static_cast<std::size_t>(d)] != cs[d]) identity = false;
    }
    if (!identity) {
      p.needs_cut.push_back({p.nodes[static_cast<std::size_t>(l.slot)],
                             "an epilogue reads this reduction at other positions than the kernel computes it: computed first"});
    } else if (std::find(reduces.begin(), reduces.end(), l.slot) == reduces.end()) {
      reduces.push_back(l.slot);
    }
  }
  if (!p.needs_cut.empty()) return p;

  // --- the prologue: the reductions' inputs over their domain ---
  const auto reduce_node = [&](int slot) { return p.nodes[static_cast<std::size_t>(slot)]; };
  const Node& first = *reduce_node(reduces.front());
  const Shape& domain = first.in(0).shape;
  AnalyzerInput pin;
  for (int r : reduces) pin.roots.push_back(&reduce_node(r)->in(0));
  pin.iter = domain;
  for (int d = 0; d < domain.size(); ++d) pin.classes.push_back(first.reduces(d) ? 1 : 0);
  pin.boundary = boundary;
  pin.roots_are_outputs = false;
  Analysis pa = analyze(pin);
  if (!pa.plan.needs_cut.empty()) {
    p.needs_cut = pa.plan.needs_cut;
    return p;
  }
  auto part = std::make_shared<ReducePart>();
  auto pro = std::make_shared<KernelPlan>(std::move(pa.plan));
  if (any_reduce && ea.iter == pa.iter) {
    // Epilogue reads of what the prologue loaded (the same buffer at the same element) come
    // from the registers: softmax reads x once.
    for (Leaf& el : p.leaves) {
      if (el.kind != LeafKind::Buffer || el.unravel) continue;
      for (std::size_t j = 0; j < pro->leaves.size(); ++j) {
        const Leaf& pl = pro->leaves[j];
        if (pl.kind == LeafKind::Buffer && !pl.unravel && pro->nodes[static_cast<std::size_t>(pl.slot)] == p.nodes[static_cast<std::size_t>(el.slot)] &&
            pl.idx[0] == el.idx[0]) {
          el.cache = static_cast<int>(j);
          break;
        }
      }
    }
  }
  part->reduced = collapse(*pro, pa.iter, pa.classes);
  for (int d = 0; d < pro->shape.size(); ++d) {
    (part->reduced[static_cast<std::size_t>(d)] ? part->nr : part->nk) *= pro->shape[d];
  }
  if (domain.numel() == 0) {  // empty: every output is the identity (sum 0, any false, ...)
    part->nr = 0;
    part->nk = group.shape.numel();
  }
  pro->numel = domain.numel();
  pro->index32 = fits_in_32_bits(*pro, std::max(part->nk, part->nr));
  for (std::size_t i = 0; i < reduces.size(); ++i) {
    const Node* r = reduce_node(reduces[i]);
    ReduceSpec spec;
    spec.kind = r->reduce_kind();
    spec.dtype = r->in(0).dtype;
    spec.out_dtype = r->dtype;
    spec.input = pro->outputs[i];
    spec.slot = reduces[i];
    if (spec.kind == detail::ReduceKind::User) spec.user = r->user();
    part->reductions.push_back(spec);
  }
  for (Leaf& l : p.leaves) {  // each Reduced leaf: which reduction gives its value
    if (l.kind == LeafKind::Reduced) {
      l.reduction = static_cast<int>(std::find(reduces.begin(), reduces.end(), l.slot) - reduces.begin());
    }
  }
  build_key(*pro);

  // --- strategy: the first that takes it (reduce_strategy.hpp) ---
  // Which dim is contiguous in memory decides: threads of a warp should read neighbouring
  // elements. The first buffer read says (else the logical innermost dim).
  ReduceFacts facts;
  facts.row_resident = any_reduce != nullptr;
  facts.kept_inner = !part->reduced.empty() && part->reduced.back() == 0;
  for (const Leaf& l : pro->leaves) {
    if (l.kind != LeafKind::Buffer || l.unravel) continue;
    for (int d = 0; d < pro->shape.size(); ++d) {
      const std::int64_t c = l.idx[0].c[static_cast<std::size_t>(d)];
      if ((c == 1 || c == -1) && pro->shape[d] > 1) facts.kept_inner = part->reduced[static_cast<std::size_t>(d)] == 0;
    }
    break;
  }
  facts.nk = part->nk;
  facts.nr = part->nr;
  facts.sm_count = sm_count;
  part->prologue = pro;
  for (const ReduceStrategyDef* def : strategies_in_order()) {
    if (!def->takes(facts)) continue;
    part->strategy = def->id;
    def->shape(*part);
    break;
  }

  // --- the epilogue's own plan ---
  add_roots(p, group);
  if (any_reduce) {
    part->epilogue_reduced = collapse(p, ea.iter, ea.classes);
  } else {
    collapse(p, ea.iter, std::vector<std::uint8_t>(static_cast<std::size_t>(ea.iter.size()), 0));
  }
  p.numel = group.shape.numel();
  p.path = Path::Unravel;
  p.vec = 1;
  p.index32 = fits_in_32_bits(p, p.numel) && pro->index32;
  pro->index32 = p.index32;
  p.reduce = part;
  build_key(p);
  return p;
}

std::size_t partials_bytes(const KernelPlan& p, int splits) {
  // Every state fits 32 bytes (the largest: arg-extreme of complex128, 24).
  return p.reduce ? static_cast<std::size_t>(p.reduce->nk) * static_cast<std::size_t>(splits) * 32 : 0;
}

std::size_t tickets_bytes(const KernelPlan& p) {
  return p.reduce ? static_cast<std::size_t>(p.reduce->nk) * sizeof(unsigned) : 0;
}

int reduce_lanes(const ReducePart& r) { return strategy_def(r.strategy).lanes(r); }

LaunchDims reduce_launch_dims(const KernelPlan& p, int sm_count, int blocks_per_sm) {
  return strategy_def(p.reduce->strategy).launch(*p.reduce, sm_count, blocks_per_sm);
}

std::int64_t resident_blocks(std::int64_t threads, int sm_count, int blocks_per_sm) {
  const std::int64_t per_sm = blocks_per_sm > 0 ? blocks_per_sm : std::min<std::int64_t>(32, 2048 / threads);
  return std::int64_t{std::max(sm_count, 1)} * std::max<std::int64_t>(per_sm, 1);
}

const ReduceStrategyDef& strategy_def(ReduceStrategy s) {
  switch (s) {
    case ReduceStrategy::Cooperative: return kCooperativeStrategy;
    case ReduceStrategy::PerThread: return kPerThreadStrategy;
    case ReduceStrategy::Rows: return kRowsStrategy;
    case ReduceStrategy::WarpRows: return kWarpRowsStrategy;
    case ReduceStrategy::ColumnTiles: return kColumnTilesStrategy;
  }
  throw InternalError("internal: a reduction strategy with no definition");
}

std::span<const ReduceStrategyDef* const> strategies_in_order() {
  // Row-resident groups first (partitioning decided them); then a kept dim contiguous in memory
  // (column tiles when too few outputs fill the GPU a thread each, else a thread per output,
  // which short rows take as well); then short rows (warp rows); then a block per output.
  static const ReduceStrategyDef* const order[] = {&kRowsStrategy, &kColumnTilesStrategy, &kPerThreadStrategy,
                                                   &kWarpRowsStrategy, &kCooperativeStrategy};
  return order;
}

// Elements per vector load: every prologue leaf a buffer (or a scalar) stepping with stride 1
// through the last dim, which is reduced (cooperative loops, warp rows) or kept (column tiles:
// a vector holds adjacent columns); every other stride, and that dim's extent, a multiple of the
// width (so a vector never straddles two rows). The pointers' alignment is checked at launch
// (vector_aligned).
int vector_width(const KernelPlan& pro, const std::vector<std::uint8_t>& reduced, bool along_kept) {
  const int nd = pro.shape.size();
  if (nd == 0 || (reduced[static_cast<std::size_t>(nd - 1)] != 0) == along_kept) return 1;
  std::size_t widest = 0;
  for (const Leaf& l : pro.leaves) {
    if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered) continue;  // not loaded by the loop
    if (l.kind != LeafKind::Buffer || l.unravel || l.idx[0].c[static_cast<std::size_t>(nd - 1)] != 1) return 1;
    widest = std::max(widest, itemsize(l.dtype));
  }
  if (widest == 0) return 1;  // nothing read from memory
  const int v = static_cast<int>(std::min<std::size_t>(4, 16 / widest));
  if (v < 2 || pro.shape[nd - 1] % v != 0) return 1;
  for (const Leaf& l : pro.leaves) {
    if (l.kind != LeafKind::Buffer) continue;
    for (int d = 0; d + 1 < nd; ++d) {
      if (l.idx[0].c[static_cast<std::size_t>(d)] % v != 0) return 1;
    }
  }
  return v;
}

}  // namespace loom::codegen
