// The cooperative strategy: a block per output. Threads stride over the reduced elements (a
// batch of loads in flight each, 16-byte vectors where the rows allow), then a block reduction;
// long reductions split each output over several blocks, and the last of them to finish (a
// ticket per output) combines their partial states in block order (deterministic: no float
// atomics). Taken by rows too long for warp rows and by whole-array reductions.

#include <algorithm>

#include <fmt/format.h>

#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

namespace {

// Loads per thread per batch (a tile is batch x vec x block elements); blocks of fewer than 256
// threads (short rows: at most one element each) take a batch of one. The loads of a batch
// stay in registers (64 a thread): 8 vectors of 4 from each of three inputs spilled
// (sum(d * d * w, 1) on 8192^2 ran at 50% of copy), and from each of two they fill every
// register (all(isclose(a, b)) of 2^26 ran at 66% of copy); from two vector inputs, 4 a batch.
int batch_of(const ReducePart& r) {
  if (r.block < 256) return 1;
  const auto buffers = std::count_if(r.prologue->leaves.begin(), r.prologue->leaves.end(),
                                     [](const Leaf& l) { return l.kind == LeafKind::Buffer; });
  return r.vec > 1 && buffers > 1 ? 4 : 8;
}

bool takes(const ReduceFacts&) { return true; }  // the last one asked

void shape(ReducePart& r) {
  r.block = 32;
  while (r.block < 256 && r.block < r.nr) r.block *= 2;
  // Vectors only where every thread gets at least two of them: at 512 elements a row, vec 4
  // idled half of a 256-thread block (25% of copy, 41% without; bench/NOTES.md).
  r.vec = r.block == 256 && r.nr >= 8 * 256 ? vector_width(*r.prologue, r.reduced) : 1;
}

void key(std::string& k, const ReducePart& r) { k += fmt::format("b{}", batch_of(r)); }

int lanes(const ReducePart&) { return 0; }

LaunchDims launch(const ReducePart& r, int sm_count, int blocks_per_sm) {
  LaunchDims d;
  d.block_x = static_cast<unsigned>(r.block);
  std::int64_t splits = 1;
  const std::int64_t resident = resident_blocks(r.block, sm_count, blocks_per_sm);
  if (r.nk < resident) {
    // Split each output over the blocks one wave holds (rounded down: a second, partial wave
    // ran as long as the first), each keeping at least 8 elements per thread; or, where an
    // output has more tiles than that, over up to 256 blocks of two tiles or more: blocks that
    // start as others finish, and outputs whose last blocks merge at different times. Measured
    // (bench/NOTES.md, sixth session), GPU time of 2^26 floats: rows of 2^18, 2^20, 2^22
    // 1.3-1.6 us less of 90; more blocks at one ticket cost more than they gained (all of 2^26
    // over 4096 blocks: 4 us more than over one wave).
    const std::int64_t tile = std::int64_t{batch_of(r)} * r.vec * r.block;
    splits = std::min(std::max<std::int64_t>(1, resident / std::max<std::int64_t>(r.nk, 1)),
                      std::max<std::int64_t>(1, r.nr / (8 * r.block)));
    splits = std::max(splits, std::min<std::int64_t>(ceil_div(r.nr, 2 * tile), 256));
    splits = std::min<std::int64_t>(splits, 4096);
  }
  d.grid_x = static_cast<unsigned>(splits);
  d.grid_y = static_cast<unsigned>(std::clamp<std::int64_t>(r.nk, 1, 65535));
  d.splits = static_cast<int>(splits);
  return d;
}

std::string explain(const ReducePart& r) {
  return fmt::format("cooperative (a block of {} threads per output, {} element(s) per load)", r.block, r.vec);
}

}  // namespace

void ReduceEmitter::emit_cooperative_kernel() {
  const std::string it = idx_t_;
  // At most 64 registers, 4 blocks per multiprocessor: mean+var took 74 with the unchecked batch
  // and ran at 89% of copy on 3 blocks; capped, 98% (bench/NOTES.md).
  begin_kernel("__launch_bounds__(256, 4)");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("__shared__ {} sh{}[32];", state_type(r_.reductions[i]), i);
  }
  w_.line("__shared__ bool last;");
  w_.open_block(fmt::format("for ({0} j = blockIdx.y; j < {1}; j += gridDim.y)", it, arg("nk")));
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  // Each thread's elements come `vec` at a time. Blocks that split a row take its tiles of
  // batch x vec x blockDim.x elements in turn (block x: tiles x, x + gridDim.x, ...): the blocks
  // sweep memory together, 2% faster than a contiguous chunk each (bench/probes/red_probe.cu).
  const int batch = batch_of(r_);
  vec_ = r_.vec;
  const std::string v = vec_ > 1 ? fmt::format("{} * ", vec_) : "";
  w_.line("const {0} tile = {1} * {2}({0})blockDim.x;", it, batch, v);
  w_.open_block(fmt::format("for ({0} rb = ({0})blockIdx.x * tile + {1}threadIdx.x; rb < {2}; rb += ({0})gridDim.x * tile)",
                            it, v, arg("nr")));
  declare_caches(batch);
  emit_batch("rb", v + "blockDim.x", arg("nr"), batch);
  w_.close_block();
  vec_ = 1;
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) w_.line("loom::red::block_reduce(s{0}, sh{0});", i);
  w_.open_block("if (gridDim.x > 1)");
  w_.open_block("if (threadIdx.x == 0)");
  emit_split_combine("j", "gridDim.x", "blockIdx.x", true);
  w_.close_block();
  w_.line("__syncthreads();");
  w_.line("if (!last) continue;  // the same for every thread of the block");
  emit_merge_partials("j", "gridDim.x", true);
  w_.close_block();
  w_.open_block("if (threadIdx.x == 0)");
  emit_epilogue("j");
  w_.close_block();
  w_.close_block();
  end_kernel();
}

const ReduceStrategyDef kCooperativeStrategy{
    ReduceStrategy::Cooperative, "cooperative, a block per output", takes, shape, key, lanes, launch,
    [](ReduceEmitter& e) { e.emit_cooperative_kernel(); }, explain};

}  // namespace loom::codegen
