// Planning a reduction kernel (kernel_plan.hpp's plan_reduce). Two index analyses: the epilogue
// over the output (its Reduce nodes become leaves valued by the reductions), the prologue over
// the reduction's input with each dim kept or reduced. A kept dim that is innermost after
// collapsing makes it a column reduction (a thread per output, coalesced across threads; or a
// tile of columns x row slots per block when there are too few outputs for that); otherwise a
// warp's lanes (short rows) or a whole block (long rows, one output) cooperate on each output.
// Long reductions are split across blocks whose partial states the last of them combines in a
// fixed order (deterministic: no float atomics).

#include <algorithm>

#include "codegen/analyzer.hpp"
#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

namespace {

// Elements per vector load: every prologue leaf a buffer (or a scalar) stepping with stride 1
// through the last dim, which is reduced (cooperative loops, warp rows) or kept (column tiles:
// a vector holds adjacent columns); every other stride, and that dim's extent, a multiple of the
// width (so a vector never straddles two rows). The pointers' alignment is checked at launch
// (vector_aligned).
int vector_width(const KernelPlan& pro, const std::vector<std::uint8_t>& reduced, bool along_kept = false) {
  const int nd = pro.shape.size();
  if (nd == 0 || (reduced[static_cast<std::size_t>(nd - 1)] != 0) == along_kept) return 1;
  std::size_t widest = 0;
  for (const Leaf& l : pro.leaves) {
    if (l.kind == LeafKind::Scalar) continue;
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

// Blocks that keep every SM busy: a full wave of 256-thread blocks (per-thread splits, warp-row
// grids; cooperative and column-tile splits size theirs in reduce_launch_dims).
std::int64_t wanted_blocks(int sm_count) { return 8 * std::int64_t{std::max(sm_count, 1)}; }

// WarpRows takes rows shorter than this; from 2048 elements on, a block per row (Cooperative,
// 16-byte loads) reaches 88-93% of copy (bench/RESULTS.md).
constexpr std::int64_t kWarpRowsMax = 2048;

}  // namespace

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
  std::vector<const Node*> reduces;
  for (const Leaf& l : p.leaves) {
    if (l.kind != LeafKind::Reduced) continue;
    bool identity = l.idx[0].c0 == 0;
    for (int d = 0; d < ea.iter.size(); ++d) {
      if ((ea.iter[d] > 1 || cs[d] == 0) && l.idx[0].c[static_cast<std::size_t>(d)] != cs[d]) identity = false;
    }
    if (!identity) {
      p.needs_cut.push_back(l.node);
    } else if (std::find(reduces.begin(), reduces.end(), l.node) == reduces.end()) {
      reduces.push_back(l.node);
    }
  }
  if (!p.needs_cut.empty()) return p;

  // --- the prologue: the reductions' inputs over their domain ---
  const Node& first = *reduces.front();
  const Shape& domain = first.in(0).shape;
  AnalyzerInput pin;
  for (const Node* r : reduces) pin.roots.push_back(&r->in(0));
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
        if (pl.kind == LeafKind::Buffer && !pl.unravel && pl.node == el.node && pl.idx[0] == el.idx[0]) {
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
    ReduceSpec spec;
    spec.kind = reduces[i]->reduce_kind();
    spec.dtype = reduces[i]->in(0).dtype;
    spec.out_dtype = reduces[i]->dtype;
    spec.input = pro->outputs[i];
    spec.node = reduces[i];
    part->reductions.push_back(spec);
  }
  build_key(*pro);

  // --- strategy ---
  // Which dim is contiguous in memory decides: threads of a warp should read neighbouring
  // elements. The first buffer read says (else the logical innermost dim).
  bool kept_inner = !part->reduced.empty() && part->reduced.back() == 0;
  for (const Leaf& l : pro->leaves) {
    if (l.kind != LeafKind::Buffer || l.unravel) continue;
    for (int d = 0; d < pro->shape.size(); ++d) {
      const std::int64_t c = l.idx[0].c[static_cast<std::size_t>(d)];
      if ((c == 1 || c == -1) && pro->shape[d] > 1) kept_inner = part->reduced[static_cast<std::size_t>(d)] == 0;
    }
    break;
  }
  // Short reductions (a row of a few elements) waste most of a block: a thread each instead.
  part->strategy = (kept_inner || part->nr <= 16) && part->nk > 1 ? ReduceStrategy::PerThread
                                                                  : ReduceStrategy::Cooperative;
  // Column reductions with fewer outputs than threads of a few waves (2^21 x 32: 32 busy threads
  // of 256 in one block) tile the block over rows as well as columns. Wide ones (32 x 2^21) keep a
  // thread per column: 87% of copy, and no combine across threads.
  const std::int64_t per_thread_blocks = (part->nk + 255) / 256;
  if (part->strategy == ReduceStrategy::PerThread && kept_inner && per_thread_blocks < wanted_blocks(sm_count) &&
      part->nr >= 32) {
    part->strategy = ReduceStrategy::ColumnTiles;
  }
  // Rows of 17..2047 contiguous elements: a block per row had two barriers per row and one load
  // in flight per thread (42% of copy); a group of a warp's lanes per row needs neither.
  if (part->strategy == ReduceStrategy::Cooperative && part->nr < kWarpRowsMax && part->nk >= 32) {
    part->strategy = ReduceStrategy::WarpRows;
  }
  int block = 32;
  while (block < 256 && block < part->nr) block *= 2;
  part->block = part->strategy == ReduceStrategy::Cooperative ? block : 256;

  if (any_reduce) {
    // Row-resident: up to kRowsPerThread elements a thread; rows of 8192: 512 threads of 16.
    part->strategy = ReduceStrategy::Rows;
    part->block = 32;
    while (part->block < 1024 && part->block * std::int64_t{kRowsPerThread} < part->nr) part->block *= 2;
    part->per_thread = 1;
    while (part->block * std::int64_t{part->per_thread} < part->nr) part->per_thread *= 2;
  }
  // Vectors only where every thread gets at least two of them: at 512 elements a row, vec 4
  // idled half of a 256-thread block (25% of copy, 41% without; bench/NOTES.md). A warp's lanes
  // per row are sized so that each gets a batch of them (reduce_lanes).
  if ((part->strategy == ReduceStrategy::Cooperative && part->block == 256 && part->nr >= 8 * 256) ||
      part->strategy == ReduceStrategy::WarpRows) {
    part->vec = vector_width(*pro, part->reduced);
  }
  // Column tiles: a 16-byte load covers adjacent columns (a state each), 4x fewer loads.
  if (part->strategy == ReduceStrategy::ColumnTiles) part->vec = vector_width(*pro, part->reduced, true);
  // Row-resident: a thread's values as whole vectors (16-byte loads, and 16-byte stores of the
  // outputs, which are C-contiguous rows), when each thread holds at least one full vector.
  if (part->strategy == ReduceStrategy::Rows) {
    const int v = vector_width(*pro, part->reduced);
    part->vec = part->per_thread >= v ? v : 1;
  }

  // --- the epilogue's own plan ---
  for (const NodeRef& r : group.roots) p.roots.push_back(r);
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
  part->prologue = pro;
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

int reduce_lanes(const ReducePart& r) {
  int lanes = 0;
  if (r.strategy == ReduceStrategy::WarpRows) {
    // Enough lanes that each has one batch of loads per row (rows of 64 floats: 4 lanes of four
    // 16-byte loads, 8 rows per warp step; rows of 512: the whole warp, 4 loads each).
    const std::int64_t batch = r.vec > 1 ? kWarpRowsVectorBatch : kWarpRowsScalarBatch;
    const std::int64_t loads = (r.nr + r.vec - 1) / r.vec;
    lanes = 4;
    while (lanes < 32 && lanes * batch < loads) lanes *= 2;
  } else if (r.strategy == ReduceStrategy::ColumnTiles) {
    // As many threads along a row as it has loads, up to a warp (then one row of 32 loads is
    // one warp's load: 32 floats, or 128 as 16-byte vectors).
    const std::int64_t loads = (r.nk + r.vec - 1) / r.vec;
    lanes = 1;
    while (lanes < 32 && lanes < loads) lanes *= 2;
  }
  return lanes;
}

LaunchDims reduce_launch_dims(const KernelPlan& p, int sm_count, int blocks_per_sm) {
  const ReducePart& r = *p.reduce;
  LaunchDims d;
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const std::int64_t want_blocks = wanted_blocks(sm_count);
  // Blocks of `threads` resident at once on the whole device: the compiled kernel's occupancy,
  // else what 2048 threads per multiprocessor allow.
  const auto wave = [&](std::int64_t threads) {
    const std::int64_t per_sm = blocks_per_sm > 0 ? blocks_per_sm : std::min<std::int64_t>(32, 2048 / threads);
    return std::int64_t{std::max(sm_count, 1)} * std::max<std::int64_t>(per_sm, 1);
  };
  std::int64_t splits = 1;
  if (r.strategy == ReduceStrategy::Rows) {
    d.block_x = static_cast<unsigned>(r.block);
    d.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(r.nk, 1, 65535));
    return d;
  }
  d.block_x = 256;
  if (r.strategy == ReduceStrategy::WarpRows) {
    // 8 warps of 32 / lanes rows each per step; warps stride over the rest (a few steps at most).
    const std::int64_t rows_per_block = 8 * (32 / reduce_lanes(r));
    d.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(ceil_div(r.nk, rows_per_block), 1, 32 * want_blocks));
    return d;
  }
  if (r.strategy == ReduceStrategy::ColumnTiles) {
    // Tiles of `lanes` x vec columns along x; along y, splits of the rows up to 4 blocks per
    // multiprocessor, each row slot keeping at least 16 rows (the last block per tile merges the
    // partials). Measured (bench/probes/red_probe.cu): 4 blocks per multiprocessor in all beat
    // 8 at every aspect ratio (8192^2: 99.6% of copy vs 96.2%; 2^18 x 256: 95.3% vs 83.3%), the
    // last block's merge of more partials costing more than the extra blocks gain. 2 were no
    // better (sixth session, alternating runs of bench_reductions: 8192^2 and 4096 x 16384
    // 1.6 us slower of 91, 32..2048 columns the same).
    const std::int64_t lanes = reduce_lanes(r), slots = 256 / lanes;
    const std::int64_t tiles = ceil_div(std::max<std::int64_t>(r.nk, 1), lanes * r.vec);
    const std::int64_t want = std::min(wave(256), 4 * std::int64_t{std::max(sm_count, 1)});
    if (tiles < want) {
      splits = std::min(want / tiles, std::max<std::int64_t>(1, r.nr / (16 * slots)));
      splits = std::min<std::int64_t>(splits, 4096);
    }
    d.grid_x = static_cast<unsigned>(tiles);
    d.grid_y = static_cast<unsigned>(splits);
    d.splits = static_cast<int>(splits);
    return d;
  }
  if (r.strategy == ReduceStrategy::Cooperative) {
    d.block_x = static_cast<unsigned>(r.block);
    const std::int64_t resident = wave(r.block);
    if (r.nk < resident) {
      // Split each output over the blocks one wave holds (rounded down: a second, partial wave
      // ran as long as the first), each keeping at least 8 elements per thread; or, where an
      // output has more tiles than that, over up to 256 blocks of two tiles or more: blocks
      // that start as others finish, and outputs whose last blocks merge at different times.
      // Measured (bench/NOTES.md, sixth session), GPU time of 2^26 floats: rows of 2^18, 2^20,
      // 2^22 1.3-1.6 us less of 90; more blocks at one ticket cost more than they gained (all
      // of 2^26 over 4096 blocks: 4 us more than over one wave).
      const std::int64_t tile = std::int64_t{cooperative_batch(r.block)} * r.vec * r.block;
      splits = std::min(std::max<std::int64_t>(1, resident / std::max<std::int64_t>(r.nk, 1)),
                        std::max<std::int64_t>(1, r.nr / (8 * r.block)));
      splits = std::max(splits, std::min<std::int64_t>(ceil_div(r.nr, 2 * tile), 256));
      splits = std::min<std::int64_t>(splits, 4096);
    }
    d.grid_x = static_cast<unsigned>(splits);
    d.grid_y = static_cast<unsigned>(std::clamp<std::int64_t>(r.nk, 1, 65535));
  } else {
    const std::int64_t blocks = ceil_div(std::max<std::int64_t>(r.nk, 1), 256);
    if (blocks < want_blocks) {
      // One thread merges an output's partials: keep them few.
      splits = std::min(ceil_div(want_blocks, blocks), std::max<std::int64_t>(1, r.nr / 32));
      splits = std::min<std::int64_t>(splits, 1024);
    }
    d.grid_x = static_cast<unsigned>(blocks);
    d.grid_y = static_cast<unsigned>(splits);
  }
  d.splits = static_cast<int>(splits);
  return d;
}

}  // namespace loom::codegen
