// The row-resident strategy: a block per row, the row kept in registers, outputs over the
// whole row (softmax, log_softmax, standardization: reductions whose results the same kernel
// applies to every element of their row). Taken whenever partitioning grouped such outputs with
// their reductions (KernelGroup::rows).

#include <algorithm>

#include <fmt/format.h>

#include "codegen/ctypes.hpp"
#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

using detail::ReduceKind;

namespace {

// Elements of a row per thread (registers), at most; threads per row (a block) grow to 1024
// before a thread takes more. 32 a thread (256 threads for rows of 8192) made the online
// max/sum-of-exp a 32-long chain of dependent exps: softmax 46% of copy.
constexpr int kRowsPerThread = 16;

bool takes(const ReduceFacts& f) { return f.row_resident; }

void shape(ReducePart& r) {
  // Up to kRowsPerThread elements a thread; rows of 8192: 512 threads of 16.
  r.block = 32;
  while (r.block < 1024 && r.block * std::int64_t{kRowsPerThread} < r.nr) r.block *= 2;
  r.per_thread = 1;
  while (r.block * std::int64_t{r.per_thread} < r.nr) r.per_thread *= 2;
  // A thread's values as whole vectors (16-byte loads, and 16-byte stores of the outputs,
  // which are C-contiguous rows), when each thread holds at least one full vector.
  const int v = vector_width(*r.prologue, r.reduced);
  r.vec = r.per_thread >= v ? v : 1;
}

// The loops' bound and __launch_bounds__.
void key(std::string& k, const ReducePart& r) { k += fmt::format("{}x{}", r.block, r.per_thread); }

int lanes(const ReducePart&) { return 0; }

LaunchDims launch(const ReducePart& r, int, int) {
  LaunchDims d;
  d.block_x = static_cast<unsigned>(r.block);
  d.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(r.nk, 1, 65535));
  return d;
}

std::string explain(const ReducePart& r) {
  return fmt::format("row-resident (a block of {} threads per row, {} element(s) each, kept in registers, outputs over the row)",
                     r.block, r.per_thread);
}

}  // namespace

// Row-resident: a block per row; each thread loads up to per_thread elements of the row into
// registers (elements t, t + blockDim.x, ...: coalesced; with vectors, vec consecutive elements
// at (t + k * blockDim.x) * vec), the block reduces them, then each thread writes its elements'
// outputs (with vectors, a 16-byte store per vector of elements).
void ReduceEmitter::emit_rows_kernel() {
  const std::string it = idx_t_;
  // The row's elements stay in registers: as many blocks per multiprocessor as about 24
  // registers plus the kept elements allow (softmax over rows of 8192: 512 threads, 40
  // registers, 3 blocks; uncapped, ptxas took 50 and 2 blocks fit).
  int words = 0;  // 4-byte registers per element a thread keeps
  for (const Leaf& l : pro_.leaves) {
    if (l.kind == LeafKind::Buffer && !l.unravel) words += static_cast<int>((itemsize(l.dtype) + 3) / 4);
  }
  const int regs = 24 + r_.per_thread * std::max(words, 1);
  const int blocks = std::clamp(std::min(65536 / (r_.block * regs), 2048 / r_.block), 1, 32);
  begin_kernel(fmt::format("__launch_bounds__({}, {})", r_.block, blocks));
  const int vec = r_.vec;
  const int loads = (r_.per_thread + vec - 1) / vec;
  const std::string first = vec > 1 ? fmt::format("(threadIdx.x + ({0})k * blockDim.x) * {1}", it, vec)
                                    : fmt::format("threadIdx.x + ({})k * blockDim.x", it);
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("__shared__ {} sh{}[32];", state_type(r_.reductions[i]), i);
    w_.line("__shared__ {} shres{};", result_ctype(r_.reductions[i]), i);
  }
  w_.open_block(fmt::format("for ({0} j = blockIdx.x; j < {1}; j += gridDim.x)", it, arg("nk")));
  unravel_class("j", 0);
  emit_prologue_bases();
  emit_states();
  vec_ = vec;
  declare_caches(loads);
  // Every load of the row first, then the arithmetic (emit_batch): loads behind a bounds check
  // and the previous vector's arithmetic went out one at a time, and softmax ran at 94% of copy
  // in GPU time; as a batch, 99% (bench/NOTES.md).
  emit_batch(vec > 1 ? fmt::format("({})threadIdx.x * {}", it, vec) : fmt::format("({})threadIdx.x", it),
             vec > 1 ? fmt::format("{} * blockDim.x", vec) : "blockDim.x", arg("nr"), loads);
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("loom::red::block_reduce(s{0}, sh{0});", i);
    if (r_.reductions[i].kind == ReduceKind::Variance) {
      w_.line("if (threadIdx.x == 0) shres{0} = s{0}.result({1});", i, arg(fmt::format("ddof{}", i)));
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
    w_.line("if (rb >= {}) break;", arg("nr"));
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("loom::Vec<{}, {}> ov{};", vec, storage_ctype(p_.values[static_cast<std::size_t>(p_.outputs[o])].dtype), o);
    }
    w_.line("#pragma unroll");
    w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", vec));
    if (epilogue_reads_coords()) w_.line("const {} r = rb + e;", it);
  } else {
    w_.line("const {} r = {};", it, first);
    w_.line("if (r >= {}) break;", arg("nr"));
  }
  unravel_epilogue_class("r", 1);
  emit_epilogue("j", true);
  if (vec > 1) {
    w_.close_block();
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("*reinterpret_cast<loom::Vec<{0}, {1}>*>({3} + ((long long)j * {4} + rb)) = ov{2};", vec,
              storage_ctype(p_.values[static_cast<std::size_t>(p_.outputs[o])].dtype), o, arg(fmt::format("out{}", o)),
              arg("nr"));
    }
  }
  w_.close_block();
  vec_ = 1;
  w_.line("__syncthreads();  // shres is rewritten for the next row");
  w_.close_block();
  end_kernel();
}

const ReduceStrategyDef kRowsStrategy{
    ReduceStrategy::Rows, "row-resident, a block per row kept in registers", takes, shape, key, lanes, launch,
    [](ReduceEmitter& e) { e.emit_rows_kernel(); }, explain};

}  // namespace loom::codegen
