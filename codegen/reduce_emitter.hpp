#pragma once
// ReduceEmitter: writes the CUDA source of one reduction kernel (emit_reduce, emit_elementwise.hpp)
// from the pieces every skeleton shares (indexing, prologue loads and calls in batches, the
// epilogue, split combines; emit_reduce.cpp) and the skeleton of the plan's strategy (each in
// its strategy's file, reduce_<name>.cpp, with the rest of that strategy). Internal to codegen.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_args.hpp"
#include "codegen/source_writer.hpp"

namespace loom::codegen {

// The C++ type of a reduction's result (what the epilogue receives), and of its state.
std::string result_ctype(const ReduceSpec& r);
std::string state_type(const ReduceSpec& r);

class ReduceEmitter {
 public:
  explicit ReduceEmitter(const KernelPlan& p);
  KernelSource run();

  // The skeletons (reduce_<strategy>.cpp), and what only one of them uses.
  void emit_cooperative_kernel();
  void emit_per_thread_kernel();
  void emit_rows_kernel();
  void emit_warp_rows_kernel();
  void emit_column_tiles_kernel();

 private:
  // "a.<name>", the field marked read.
  std::string arg(std::string_view name) const { return args_.field(name); }
  // Indexing: coordinates of the prologue dims (o<d> kept, q<d> reduced), affine sums of them.
  std::string coord(int d) const { return fmt::format("{}{}", r_.reduced[static_cast<std::size_t>(d)] ? "q" : "o", d); }
  enum class Reads : std::uint8_t { Bases, Loads, Call };
  bool prologue_reads_coords(Reads where) const;
  bool epilogue_reads_coords() const;
  void unravel_class(const std::string& linear, std::uint8_t cls);
  std::string affine_sum(const std::string& name, int cls, int ndim,
                         const std::function<std::string(int)>& coords, int unit_dim = -1) const;
  int unit_reduced_dim(int j) const;
  // The prologue: per-output bases, loads into registers c<j>[slot], the call, batches of both.
  void emit_prologue_bases();
  void emit_prologue_loads(const std::string& slot);
  void emit_prologue_call(const std::string& slot);
  void declare_caches(int count);
  void emit_batch(const std::string& first, const std::string& step, const std::string& end, int batch);
  // The epilogue at one output (or, row-resident, at one element of a row).
  void unravel_epilogue_class(const std::string& linear, std::uint8_t cls);
  void emit_epilogue(const std::string& j, bool rows = false);
  void emit_states();
  // Blocks sharing an output: partial states, tickets, the last block's merge.
  void emit_split_combine(const std::string& j, const std::string& slices, const std::string& part,
                          bool whole_block);
  void emit_merge_partials(const std::string& j, const std::string& slices, bool whole_block);
  // `extern "C" __global__ void <bounds> name(Args a) {`, and its closing brace.
  void begin_kernel(const std::string& launch_bounds);
  void end_kernel();
  // Column tiles only.
  void emit_tile_combine();
  void emit_tile_combine_one(std::size_t i);
  void emit_tile_combine_columns();
  void emit_tile_merge();
  void for_each_column(const std::function<void()>& body, bool load_states);

  const KernelPlan& p_;
  const ReducePart& r_;
  const KernelPlan& pro_;
  mutable KernelArgs args_;  // asked for every field the source reads
  std::string name_;
  std::string idx_t_;
  int vec_ = 1;  // elements per load in the loop being emitted
  bool kept_vec_ = false;  // its vectors hold adjacent columns (states s<i>v[e]), not a row's elements
  SourceWriter w_;
};

}  // namespace loom::codegen
