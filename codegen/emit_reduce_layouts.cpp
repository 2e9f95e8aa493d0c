// The row-resident, warp-rows and column-tiles skeletons of a reduction kernel (reduce_emitter.hpp;
// the shared pieces are in emit_reduce.cpp).

#include <algorithm>

#include "codegen/ctypes.hpp"
#include "codegen/reduce_emitter.hpp"

namespace loom::codegen {

using detail::ReduceKind;

// Row-resident: a block per row; each thread loads up to per_thread elements of the row into
// registers (elements t, t + blockDim.x, ...: coalesced; with vectors, vec consecutive elements
// at (t + k * blockDim.x) * vec), the block reduces them, then each thread writes its elements'
// outputs (with vectors, a 16-byte store per vector of elements).
void ReduceEmitter::emit_rows_kernel() {
  const std::string it = idx_t_;
  const int vec = r_.vec;
  const int loads = (r_.per_thread + vec - 1) / vec;
  const std::string first = vec > 1 ? fmt::format("(threadIdx.x + ({0})k * blockDim.x) * {1}", it, vec)
                                    : fmt::format("threadIdx.x + ({})k * blockDim.x", it);
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("__shared__ {} sh{}[32];", state_type(r_.reductions[i]), i);
    w_.line("__shared__ {} shres{};", result_ctype(r_.reductions[i]), i);
  }
  w_.open_block(fmt::format("for ({0} j = blockIdx.x; j < a.nk; j += gridDim.x)", it));
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  vec_ = vec;
  declare_caches(loads);
  // Every load of the row first, then the arithmetic (emit_batch): loads behind a bounds check
  // and the previous vector's arithmetic went out one at a time, and softmax ran at 94% of copy
  // in GPU time; as a batch, 99% (bench/NOTES.md).
  emit_batch(vec > 1 ? fmt::format("({})threadIdx.x * {}", it, vec) : fmt::format("({})threadIdx.x", it),
             vec > 1 ? fmt::format("{} * blockDim.x", vec) : "blockDim.x", "a.nr", loads);
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("loom::red::block_reduce(s{0}, sh{0});", i);
    if (r_.reductions[i].kind == ReduceKind::Variance) {
      w_.line("if (threadIdx.x == 0) shres{0} = s{0}.result(a.ddof{0});", i);
    } else {
      w_.line("if (threadIdx.x == 0) shres{0} = s{0}.result();", i);
    }
  }
  w_.line("__syncthreads();");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("const {0} res{1} = shres{1};", result_ctype(r_.reductions[i]), i);
  }
  unravel_epilogue_class("j", 0);
  w_.line("#pragma unroll");
  w_.open_block(fmt::format("for (int k = 0; k < {}; ++k)", loads));
  if (vec > 1) {
    w_.line("const {} rb = {};", it, first);
    w_.line("if (rb >= a.nr) break;");
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("loom::Vec<{}, {}> ov{};", vec, storage_ctype(p_.values[static_cast<std::size_t>(p_.outputs[o])].dtype), o);
    }
    w_.line("#pragma unroll");
    w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", vec));
    w_.line("const {} r = rb + e;", it);
  } else {
    w_.line("const {} r = {};", it, first);
    w_.line("if (r >= a.nr) break;");
  }
  unravel_epilogue_class("r", 1);
  emit_epilogue("j", true);
  if (vec > 1) {
    w_.close_block();
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("*reinterpret_cast<loom::Vec<{0}, {1}>*>(a.out{2} + ((long long)j * a.nr + rb)) = ov{2};", vec,
              storage_ctype(p_.values[static_cast<std::size_t>(p_.outputs[o])].dtype), o);
    }
  }
  w_.close_block();
  vec_ = 1;
  w_.line("__syncthreads();  // shres is rewritten for the next row");
  w_.close_block();
}

// Warp rows: lanes t of a group of a.lanes lanes read elements t*vec, (t + lanes)*vec, ... of
// their row, a batch of loads at a time; the group combines with shuffles (a fixed tree) and
// its first lane runs the epilogue. Warps stride over rows, 32 / lanes rows per step.
void ReduceEmitter::emit_warp_rows_kernel() {
  const std::string it = idx_t_;
  vec_ = r_.vec;
  const int batch = vec_ > 1 ? kWarpRowsVectorBatch : kWarpRowsScalarBatch;
  const std::string stride = vec_ > 1 ? fmt::format("{} * lanes", vec_) : "lanes";
  w_.line("const int lanes = (int)a.lanes;             // lanes per row: a power of two <= 32");
  w_.line("const int t = threadIdx.x & (lanes - 1);   // this lane's place in its row");
  w_.line("const int sub = (threadIdx.x & 31) / lanes;  // this lane's row in the warp's step");
  w_.line("const long long rows_per_warp = 32 / lanes;");
  w_.line("const long long warp = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);");
  w_.line("const long long step = (long long)gridDim.x * (blockDim.x >> 5) * rows_per_warp;");
  w_.line("// The loop is the same for every lane of a warp: all of them reach the shuffles.");
  w_.open_block("for (long long jw = warp * rows_per_warp; jw < a.nk; jw += step)");
  w_.line("const {0} j = ({0})(jw + sub);", it);
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  w_.open_block("if (j < a.nk)");
  w_.open_block(fmt::format("for ({0} rb = ({0})t{1}; rb < a.nr; rb += {2} * {3})", it,
                            vec_ > 1 ? fmt::format(" * {}", vec_) : "", batch, stride));
  declare_caches(batch);
  emit_batch("rb", stride, "a.nr", batch);
  w_.close_block();
  w_.close_block();
  vec_ = 1;
  w_.line("// The group's lanes combined in a fixed order: lane t merges lane t + d.");
  w_.open_block("for (int d = lanes >> 1; d > 0; d >>= 1)");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) w_.line("s{0}.merge(s{0}.shfl_down(d));", i);
  w_.close_block();
  w_.open_block("if (t == 0 && j < a.nk)");
  emit_epilogue("j");
  w_.close_block();
  w_.close_block();
}

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
  const int batch = kColumnTileBatch;
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
    w_.open_block(fmt::format("if ({} < a.nk)", jv));
    w_.line("const {0}* part = static_cast<const {0}*>(a.partials{1}) + {2};", st, i, jv);
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
        w_.line("for (int e = 0; e < {}; ++e) m[k][e] = loom::red::load_partial(part + (long long)g * a.nk + e);", vec);
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
  const int vec = r_.vec;
  w_.line("// One state per (warp, column) when row slots combine: 32 bytes each at most.");
  w_.line("__shared__ __align__(16) unsigned char tile[8 * 32 * 32];");
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("static_assert(sizeof({}) <= 32, \"a state fits its tile slot\");", state_type(r_.reductions[i]));
    w_.line("{0}* const sh{1} = reinterpret_cast<{0}*>(tile);  // reduction {1}'s turn", state_type(r_.reductions[i]), i);
  }
  w_.line("__shared__ bool last;");
  w_.line("const int lanes = (int)a.lanes;          // threads along a row: a power of two <= 32");
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
  w_.line("const {0} r_begin = ({0})blockIdx.y * a.chunk;", it);
  w_.line("const {0} r_end = a.nr - r_begin < a.chunk ? ({0})a.nr : r_begin + ({0})a.chunk;", it);
  const int batch = vec > 1 ? kColumnTileVectorBatch : kColumnTileBatch;
  w_.open_block(fmt::format("if ({} < a.nk)", jv));
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
  w_.open_block(fmt::format("if (threadIdx.x < lanes && {} < a.nk)", jv));
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    const std::string st = state_type(r_.reductions[i]);
    if (vec > 1) {
      w_.line("#pragma unroll");
      w_.line("for (int e = 0; e < {2}; ++e) static_cast<{0}*>(a.partials{1})[(long long)blockIdx.y * a.nk + j0 + e] = s{1}v[e];",
              st, i, vec);
    } else {
      w_.line("static_cast<{0}*>(a.partials{1})[(long long)blockIdx.y * a.nk + j] = s{1};", st, i);
    }
  }
  w_.close_block();
  w_.line("__syncthreads();  // the block's partials written before thread 0 arrives (and releases them)");
  w_.open_block("if (threadIdx.x == 0)");
  w_.line("last = loom::red::arrive(a.tickets + blockIdx.x) == gridDim.y - 1;");
  w_.line("if (last) a.tickets[blockIdx.x] = 0u;  // for the next launch: tickets are zeroed once");
  w_.close_block();
  w_.line("__syncthreads();");
  w_.line("if (!last) return;  // the same for every thread of the block");
  emit_tile_merge();
  w_.close_block();
  w_.open_block(fmt::format("if (threadIdx.x < lanes && {} < a.nk)", jv));
  if (vec > 1) {
    for_each_column([&] { emit_epilogue("j"); }, true);
  } else {
    emit_epilogue("j");
  }
  w_.close_block();
}

}  // namespace loom::codegen
