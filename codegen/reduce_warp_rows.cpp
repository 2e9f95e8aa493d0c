// The warp-rows strategy: rows of 17..2047 contiguous elements, a group of `lanes` lanes (4..32)
// of a warp per row: strided loads, a shuffle combine inside the group, no block barrier (a block
// per row had two barriers per row and one load in flight per thread: 42% of copy).

#include <algorithm>

#include <fmt/format.h>

#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

namespace {

// 16-byte loads (or scalars) per lane in one batch, all issued before the arithmetic.
constexpr int kVectorBatch = 4;
constexpr int kScalarBatch = 8;
// Rows shorter than this; from 2048 elements on, a block per row (cooperative, 16-byte loads)
// reaches 88-93% of copy (bench/RESULTS.md).
constexpr std::int64_t kMaxRow = 2048;

bool takes(const ReduceFacts& f) { return f.nr < kMaxRow && f.nk >= 32; }

void shape(ReducePart& r) {
  r.block = 256;
  r.vec = vector_width(*r.prologue, r.reduced);
}

void key(std::string&, const ReducePart&) {}  // lanes are an argument

// Enough lanes that each has one batch of loads per row (rows of 64 floats: 4 lanes of four
// 16-byte loads, 8 rows per warp step; rows of 512: the whole warp, 4 loads each).
int lanes(const ReducePart& r) {
  const std::int64_t batch = r.vec > 1 ? kVectorBatch : kScalarBatch;
  const std::int64_t loads = (r.nr + r.vec - 1) / r.vec;
  int n = 4;
  while (n < 32 && n * batch < loads) n *= 2;
  return n;
}

LaunchDims launch(const ReducePart& r, int sm_count, int) {
  // 8 warps of 32 / lanes rows each per step; warps stride over the rest (a few steps at most).
  LaunchDims d;
  d.block_x = 256;
  const std::int64_t rows_per_block = 8 * (32 / lanes(r));
  d.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(ceil_div(r.nk, rows_per_block), 1, 32 * wanted_blocks(sm_count)));
  return d;
}

std::string explain(const ReducePart& r) {
  return fmt::format("warp-rows ({} lanes of a warp per output, {} element(s) per load, shuffle combine)", lanes(r), r.vec);
}

}  // namespace

// Warp rows: lanes t of a group of a.lanes lanes read elements t*vec, (t + lanes)*vec, ... of
// their row, a batch of loads at a time; the group combines with shuffles (a fixed tree) and
// its first lane runs the epilogue. Warps stride over rows, 32 / lanes rows per step.
void ReduceEmitter::emit_warp_rows_kernel() {
  const std::string it = idx_t_;
  begin_kernel("__launch_bounds__(256)");
  vec_ = r_.vec;
  const int batch = vec_ > 1 ? kVectorBatch : kScalarBatch;
  const std::string stride = vec_ > 1 ? fmt::format("{} * lanes", vec_) : "lanes";
  w_.line("const int lanes = (int){};             // lanes per row: a power of two <= 32", arg("lanes"));
  w_.line("const int t = threadIdx.x & (lanes - 1);   // this lane's place in its row");
  w_.line("const int sub = (threadIdx.x & 31) / lanes;  // this lane's row in the warp's step");
  w_.line("const long long rows_per_warp = 32 / lanes;");
  w_.line("const long long warp = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);");
  w_.line("const long long step = (long long)gridDim.x * (blockDim.x >> 5) * rows_per_warp;");
  w_.line("// The loop is the same for every lane of a warp: all of them reach the shuffles.");
  w_.open_block(fmt::format("for (long long jw = warp * rows_per_warp; jw < {}; jw += step)", arg("nk")));
  w_.line("const {0} j = ({0})(jw + sub);", it);
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  w_.open_block(fmt::format("if (j < {})", arg("nk")));
  w_.open_block(fmt::format("for ({0} rb = ({0})t{1}; rb < {4}; rb += {2} * {3})", it,
                            vec_ > 1 ? fmt::format(" * {}", vec_) : "", batch, stride, arg("nr")));
  declare_caches(batch);
  emit_batch("rb", stride, arg("nr"), batch);
  w_.close_block();
  w_.close_block();
  vec_ = 1;
  w_.line("// The group's lanes combined in a fixed order: lane t merges lane t + d.");
  w_.open_block("for (int d = lanes >> 1; d > 0; d >>= 1)");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) w_.line("s{0}.merge(s{0}.shfl_down(d));", i);
  w_.close_block();
  w_.open_block(fmt::format("if (t == 0 && j < {})", arg("nk")));
  emit_epilogue("j");
  w_.close_block();
  w_.close_block();
  end_kernel();
}

const ReduceStrategyDef kWarpRowsStrategy{
    ReduceStrategy::WarpRows, "warp rows, a group of a warp's lanes per output", takes, shape, key, lanes, launch,
    [](ReduceEmitter& e) { e.emit_warp_rows_kernel(); }, explain};

}  // namespace loom::codegen
