// The per-thread strategy: a thread per output, the reduced index in its loop. Taken where the
// kept dim is innermost (neighbouring threads read neighbouring elements) with outputs enough
// to fill the GPU, and by short rows (16 elements or fewer: a block per row would idle). Blocks
// along y split long reductions; the last block of an output's column of blocks (a ticket per
// output) merges their partial states in order, one thread per output.

#include <algorithm>

#include <fmt/format.h>

#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

namespace {

constexpr int kBatch = 8;  // loads in flight per thread

bool takes(const ReduceFacts& f) { return (f.kept_inner || f.nr <= 16) && f.nk > 1; }

void shape(ReducePart& r) {
  r.block = 256;
  r.vec = 1;
}

void key(std::string&, const ReducePart&) {}

int lanes(const ReducePart&) { return 0; }

LaunchDims launch(const ReducePart& r, int sm_count, int) {
  LaunchDims d;
  d.block_x = 256;
  std::int64_t splits = 1;
  const std::int64_t blocks = ceil_div(std::max<std::int64_t>(r.nk, 1), 256);
  if (blocks < wanted_blocks(sm_count)) {
    // One thread merges an output's partials: keep them few.
    splits = std::min(ceil_div(wanted_blocks(sm_count), blocks), std::max<std::int64_t>(1, r.nr / 32));
    splits = std::min<std::int64_t>(splits, 1024);
  }
  d.grid_x = static_cast<unsigned>(blocks);
  d.grid_y = static_cast<unsigned>(splits);
  d.splits = static_cast<int>(splits);
  return d;
}

std::string explain(const ReducePart&) { return "per-thread (a thread per output)"; }

}  // namespace

void ReduceEmitter::emit_per_thread_kernel() {
  const std::string it = idx_t_;
  begin_kernel("__launch_bounds__(256)");
  w_.line("const {0} j = ({0})blockIdx.x * blockDim.x + threadIdx.x;", it);
  w_.line("if (j >= {}) return;", arg("nk"));
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  w_.line("const {0} r_begin = ({0})blockIdx.y * {1};", it, arg("chunk"));
  w_.line("const {0} r_end = {1} - r_begin < {2} ? ({0}){1} : r_begin + ({0}){2};", it, arg("nr"), arg("chunk"));
  w_.open_block(fmt::format("for ({} rb = r_begin; rb < r_end; rb += {})", it, kBatch));
  declare_caches(kBatch);
  emit_batch("rb", "1", "r_end", kBatch);
  w_.close_block();
  w_.open_block("if (gridDim.y > 1)");
  emit_split_combine("j", "gridDim.y", "blockIdx.y", false);
  emit_merge_partials("j", "gridDim.y", false);
  w_.close_block();
  emit_epilogue("j");
  end_kernel();
}

const ReduceStrategyDef kPerThreadStrategy{
    ReduceStrategy::PerThread, "per-thread, a thread per output", takes, shape, key, lanes, launch,
    [](ReduceEmitter& e) { e.emit_per_thread_kernel(); }, explain};

}  // namespace loom::codegen
