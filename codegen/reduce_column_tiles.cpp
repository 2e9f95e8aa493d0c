// The column-tiles strategy: the kept dim contiguous but too few outputs to fill the GPU a
// thread each (2^21 x 32: 32 busy threads of 256 in one block). A block of `lanes` columns x
// 256 / lanes row slots: row slots combined by shuffles, then through shared memory; long
// columns split over blocks along y, whose partials the last block of a tile merges. Wide
// reductions (32 x 2^21) keep a thread per column (per-thread: 87% of copy, no combine).

#include <algorithm>

#include <fmt/format.h>

#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

namespace {

// Rows per thread per batch of loads (scalars; 16-byte vectors of columns).
constexpr int kBatch = 8;
constexpr int kVectorBatch = 4;

bool takes(const ReduceFacts& f) {
  return f.kept_inner && f.nk > 1 && ceil_div(f.nk, 256) < wanted_blocks(f.sm_count) && f.nr >= 32;
}

void shape(ReducePart& r) {
  r.block = 256;
  r.vec = vector_width(*r.prologue, r.reduced, true);  // a 16-byte load covers adjacent columns
}

void key(std::string&, const ReducePart&) {}  // lanes are an argument

// As many threads along a row as it has loads, up to a warp (then one row of 32 loads is one
// warp's load: 32 floats, or 128 as 16-byte vectors).
int lanes(const ReducePart& r) {
  const std::int64_t loads = (r.nk + r.vec - 1) / r.vec;
  int n = 1;
  while (n < 32 && n < loads) n *= 2;
  return n;
}

LaunchDims launch(const ReducePart& r, int sm_count, int blocks_per_sm) {
  // Tiles of `lanes` x vec columns along x; along y, splits of the rows up to 4 blocks per
  // multiprocessor, each row slot keeping at least 16 rows (the last block per tile merges the
  // partials). Measured (bench/probes/red_probe.cu): 4 blocks per multiprocessor in all beat 8
  // at every aspect ratio (8192^2: 99.6% of copy vs 96.2%; 2^18 x 256: 95.3% vs 83.3%), the last
  // block's merge of more partials costing more than the extra blocks gain. 2 were no better
  // (sixth session, alternating runs of bench_reductions: 8192^2 and 4096 x 16384 1.6 us slower
  // of 91, 32..2048 columns the same).
  LaunchDims d;
  d.block_x = 256;
  const std::int64_t n = lanes(r), slots = 256 / n;
  const std::int64_t tiles = ceil_div(std::max<std::int64_t>(r.nk, 1), n * r.vec);
  const std::int64_t want = std::min(resident_blocks(256, sm_count, blocks_per_sm), 4 * std::int64_t{std::max(sm_count, 1)});
  std::int64_t splits = 1;
  if (tiles < want) {
    splits = std::min(want / tiles, std::max<std::int64_t>(1, r.nr / (16 * slots)));
    splits = std::min<std::int64_t>(splits, 4096);
  }
  d.grid_x = static_cast<unsigned>(tiles);
  d.grid_y = static_cast<unsigned>(splits);
  d.splits = static_cast<int>(splits);
  return d;
}

std::string explain(const ReducePart& r) {
  return fmt::format("column-tiles (blocks of {} columns x {} row slots, {} column(s) per load)", lanes(r) * r.vec,
                     256 / lanes(r), r.vec);
}

}  // namespace

// Column tiles: combines the row slots' states of each column into the states of the block's
// first `lanes` threads (row slot 0): slots sharing a warp by shuffles, then the warps' states
// through shared memory in warp order. Every thread of the block calls it.
void ReduceEmitter::emit_tile_combine() {
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) emit_tile_combine_one(i);
}

void ReduceEmitter::emit_tile_combine_one(std::size_t i) {
  w_.line("for (int d = 16; d >= lanes; d >>= 1) s{0}.merge(s{0}.shfl_down(d));", i);
  w_.line("if ((threadIdx.x & 31) < lanes) sh{0}[(threadIdx.x >> 5) * lanes + tx] = s{0};", i);
  w_.line("__syncthreads();");
  w_.open_block("if (threadIdx.x < lanes)");
  w_.line("for (int w = 1; w < (int)(blockDim.x >> 5); ++w) s{0}.merge(sh{0}[w * lanes + tx]);", i);
  w_.close_block();
  w_.line("__syncthreads();  // the tile is reused");
}

// The same for a thread's vec columns (states s<i>v[e]): when vec states fit a tile slot (32
// bytes), all of them in one pass with two barriers; else column by column (two barriers each).
void ReduceEmitter::emit_tile_combine_columns() {
  const int vec = r_.vec;
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.open_block(fmt::format("if constexpr (sizeof({}) * {} <= 32)", state_type(r_.reductions[i]), vec));
    w_.open_block("for (int d = 16; d >= lanes; d >>= 1)");
    w_.line("#pragma unroll");
    w_.line("for (int e = 0; e < {1}; ++e) s{0}v[e].merge(s{0}v[e].shfl_down(d));", i, vec);
    w_.close_block();
    w_.open_block("if ((threadIdx.x & 31) < lanes)");
    w_.line("#pragma unroll");
    w_.line("for (int e = 0; e < {1}; ++e) sh{0}[((threadIdx.x >> 5) * lanes + tx) * {1} + e] = s{0}v[e];", i, vec);
    w_.close_block();
    w_.line("__syncthreads();");
    w_.open_block("if (threadIdx.x < lanes)");
    w_.open_block("for (int w = 1; w < (int)(blockDim.x >> 5); ++w)");
    w_.line("#pragma unroll");
    w_.line("for (int e = 0; e < {1}; ++e) s{0}v[e].merge(sh{0}[(w * lanes + tx) * {1} + e]);", i, vec);
    w_.close_block();
    w_.close_block();
    w_.line("__syncthreads();  // the tile is reused");
    w_.close_block();
    w_.open_block("else");
    w_.line("#pragma unroll");
    w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", vec));
    w_.line("s{0} = s{0}v[e];", i);
    emit_tile_combine_one(i);
    w_.line("s{0}v[e] = s{0};", i);
    w_.close_block();
    w_.close_block();
  }
}

// Column tiles, split rows: the last block of a tile merges the partial states of every split
// (partials[split * nk + column]), each row slot a strided share, loads first, then the same
// combine as a block's own. With vectors, a thread's vec columns are merged in one pass (their
// loads in flight together: 8 partials x vec for states of at most 8 bytes, 2 x vec for larger
// ones), then combined column by column. 2^18 x 256 columns: 91.3% -> 92.5% of copy from 2 to 8.
void ReduceEmitter::emit_tile_merge() {
  const int vec = r_.vec;
  const int batch = kBatch;
  const std::string jv = vec > 1 ? "j0" : "j";
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    const std::string st = state_type(r_.reductions[i]);
    const std::string state = vec > 1 ? fmt::format("s{}v[e]", i) : fmt::format("s{}", i);
    if (vec > 1) {
      w_.line("#pragma unroll");
      w_.line("for (int e = 0; e < {}; ++e) s{}v[e].init();", vec, i);
    } else {
      w_.line("s{}.init();", i);
    }
    w_.open_block(fmt::format("if ({} < {})", jv, arg("nk")));
    w_.line("const {0}* part = static_cast<const {0}*>({1}) + {2};", st, arg(fmt::format("partials{}", i)), jv);
    w_.line("constexpr int mb{} = sizeof({}) <= 8 || {} == 1 ? {} : 2;  // partials in flight per column", i, st, vec, batch);
    w_.open_block(fmt::format("for (unsigned g0 = ty; g0 < gridDim.y; g0 += mb{} * slots)", i));
    w_.line("{} m[mb{}][{}];", st, i, vec);
    for (int phase = 0; phase < 2; ++phase) {
      w_.line("#pragma unroll");
      w_.open_block(fmt::format("for (int k = 0; k < mb{}; ++k)", i));
      w_.line("const unsigned g = g0 + k * slots;");
      w_.line("if (g >= gridDim.y) break;");
      w_.line("#pragma unroll");
      if (phase == 0) {
        w_.line("for (int e = 0; e < {}; ++e) m[k][e] = loom::red::load_partial(part + (long long)g * {} + e);", vec,
                arg("nk"));
      } else {
        w_.line("for (int e = 0; e < {}; ++e) {}.merge(m[k][e]);", vec, state);
      }
      w_.close_block();
    }
    w_.close_block();
    w_.close_block();
  }
  if (vec > 1) {
    emit_tile_combine_columns();
  } else {
    emit_tile_combine();
  }
}

// Column tiles with 16-byte loads (vec > 1): thread column j0 holds the states of columns
// j0..j0+vec-1 (s<i>v[e]); each goes through the tile's combine, merge and epilogue in turn as
// s<i> at j = j0 + e. `body` is emitted inside that loop.
void ReduceEmitter::for_each_column(const std::function<void()>& body, bool load_states) {
  w_.line("#pragma unroll");
  w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", r_.vec));
  w_.line("const {0} j = j0 + ({0})e;", idx_t_);
  if (load_states) {
    for (std::size_t i = 0; i < r_.reductions.size(); ++i) w_.line("s{0} = s{0}v[e];", i);
  }
  body();
  w_.close_block();
}

void ReduceEmitter::emit_column_tiles_kernel() {
  const std::string it = idx_t_;
  begin_kernel("__launch_bounds__(256)");
  const int vec = r_.vec;
  w_.line("// One state per (warp, column) when row slots combine: 32 bytes each at most.");
  w_.line("__shared__ __align__(16) unsigned char tile[8 * 32 * 32];");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("static_assert(sizeof({}) <= 32, \"a state fits its tile slot\");", state_type(r_.reductions[i]));
    w_.line("{0}* const sh{1} = reinterpret_cast<{0}*>(tile);  // reduction {1}'s turn", state_type(r_.reductions[i]), i);
  }
  w_.line("__shared__ bool last;");
  w_.line("const int lanes = (int){};          // threads along a row: a power of two <= 32", arg("lanes"));
  w_.line("const int tx = threadIdx.x & (lanes - 1);  // this thread's place in the tile's row");
  w_.line("const int ty = threadIdx.x / lanes;        // its row slot");
  w_.line("const int slots = blockDim.x / lanes;");
  const std::string jv = vec > 1 ? "j0" : "j";
  if (vec > 1) {
    w_.line("// {0} adjacent columns per thread (one 16-byte load a row), a state each.", vec);
    w_.line("const {0} j0 = (({0})blockIdx.x * lanes + tx) * {1};", it, vec);
  } else {
    w_.line("const {0} j = ({0})blockIdx.x * lanes + tx;", it);
  }
  unravel_class(jv, 0);
  emit_prologue_bases();
  emit_states();
  if (vec > 1) {
    for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
      w_.line("{} s{}v[{}];", state_type(r_.reductions[i]), i, vec);
      w_.line("#pragma unroll");
      w_.line("for (int e = 0; e < {}; ++e) s{}v[e].init();", vec, i);
    }
  }
  w_.line("const {0} r_begin = ({0})blockIdx.y * {1};", it, arg("chunk"));
  w_.line("const {0} r_end = {1} - r_begin < {2} ? ({0}){1} : r_begin + ({0}){2};", it, arg("nr"), arg("chunk"));
  const int batch = vec > 1 ? kVectorBatch : kBatch;
  w_.open_block(fmt::format("if ({} < {})", jv, arg("nk")));
  w_.open_block(fmt::format("for ({} rb = r_begin + ty; rb < r_end; rb += {} * slots)", it, batch));
  vec_ = vec;
  kept_vec_ = vec > 1;
  declare_caches(batch);
  emit_batch("rb", "slots", "r_end", batch);
  vec_ = 1;
  kept_vec_ = false;
  w_.close_block();
  w_.close_block();
  if (vec > 1) {
    emit_tile_combine_columns();
  } else {
    emit_tile_combine();
  }
  w_.open_block("if (gridDim.y > 1)");
  w_.open_block(fmt::format("if (threadIdx.x < lanes && {} < {})", jv, arg("nk")));
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    const std::string st = state_type(r_.reductions[i]);
    if (vec > 1) {
      w_.line("#pragma unroll");
      w_.line("for (int e = 0; e < {2}; ++e) static_cast<{0}*>({3})[(long long)blockIdx.y * {4} + j0 + e] = s{1}v[e];",
              st, i, vec, arg(fmt::format("partials{}", i)), arg("nk"));
    } else {
      w_.line("static_cast<{0}*>({2})[(long long)blockIdx.y * {3} + j] = s{1};", st, i, arg(fmt::format("partials{}", i)),
              arg("nk"));
    }
  }
  w_.close_block();
  w_.line("__syncthreads();  // the block's partials written before thread 0 arrives (and releases them)");
  w_.open_block("if (threadIdx.x == 0)");
  w_.line("last = loom::red::arrive({} + blockIdx.x) == gridDim.y - 1;", arg("tickets"));
  w_.line("if (last) {}[blockIdx.x] = 0u;  // for the next launch: tickets are zeroed once", arg("tickets"));
  w_.close_block();
  w_.line("__syncthreads();");
  w_.line("if (!last) return;  // the same for every thread of the block");
  emit_tile_merge();
  w_.close_block();
  w_.open_block(fmt::format("if (threadIdx.x < lanes && {} < {})", jv, arg("nk")));
  if (vec > 1) {
    for_each_column([&] { emit_epilogue("j"); }, true);
  } else {
    emit_epilogue("j");
  }
  w_.close_block();
  end_kernel();
}

const ReduceStrategyDef kColumnTilesStrategy{
    ReduceStrategy::ColumnTiles, "column tiles, a block of columns x row slots", takes, shape, key, lanes, launch,
    [](ReduceEmitter& e) { e.emit_column_tiles_kernel(); }, explain};

}  // namespace loom::codegen
