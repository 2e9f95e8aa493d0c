#pragma once
// A reduction strategy is one unit: when it is chosen, its launch shape, what it adds to the
// structural key, its kernel's skeleton and its explain line, all in codegen/reduce_<name>.cpp.
// plan_reduce (reduce_plan.cpp) asks each in turn whether it takes a reduction; the emitter
// (emit_reduce.cpp) writes the pieces every skeleton shares and calls the strategy's skeleton.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

class ReduceEmitter;

// What the choice of a strategy reads: the planned prologue and its kept/reduced sizes.
struct ReduceFacts {
  bool row_resident = false;  // the group's outputs span the reduction's input (softmax)
  bool kept_inner = false;    // the first buffer read is contiguous along a kept dim
  std::int64_t nk = 1;        // outputs
  std::int64_t nr = 1;        // reduced elements per output
  int sm_count = 1;
};

struct ReduceStrategyDef {
  ReduceStrategy id;
  const char* comment;  // the header line of the generated source
  // Whether this strategy takes a reduction with these facts (asked in kStrategyOrder's order).
  bool (*takes)(const ReduceFacts&);
  // Sets the part's block, per_thread and vec (its prologue and reduced dims are planned).
  void (*shape)(ReducePart&);
  // Appends what the skeleton's source depends on beyond the shared pieces.
  void (*key)(std::string& key, const ReducePart&);
  // A power of two of threads along a row or column (reduce_lanes), 0 when not used.
  int (*lanes)(const ReducePart&);
  LaunchDims (*launch)(const ReducePart&, int sm_count, int blocks_per_sm);
  // Writes the kernel: the __global__ line and its body.
  void (*skeleton)(ReduceEmitter&);
  std::string (*explain)(const ReducePart&);
};

const ReduceStrategyDef& strategy_def(ReduceStrategy s);
// Every strategy in the order plan_reduce asks them (the first that takes a reduction wins).
std::span<const ReduceStrategyDef* const> strategies_in_order();

// Defined one per file.
extern const ReduceStrategyDef kRowsStrategy;         // reduce_rows.cpp
extern const ReduceStrategyDef kColumnTilesStrategy;  // reduce_column_tiles.cpp
extern const ReduceStrategyDef kPerThreadStrategy;    // reduce_per_thread.cpp
extern const ReduceStrategyDef kWarpRowsStrategy;     // reduce_warp_rows.cpp
extern const ReduceStrategyDef kCooperativeStrategy;  // reduce_cooperative.cpp

// Shared by the strategies' choices and shapes (reduce_plan.cpp).
// Elements per vector load of the prologue along its last dim when every buffer allows, where
// that dim is reduced (along_kept false) or kept (true); 1 otherwise.
int vector_width(const KernelPlan& prologue, const std::vector<std::uint8_t>& reduced, bool along_kept = false);
// Blocks that keep every SM busy: a full wave of 256-thread blocks.
inline std::int64_t wanted_blocks(int sm_count) { return 8 * std::int64_t{sm_count > 1 ? sm_count : 1}; }
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
// Blocks of `threads` resident at once on the whole device: the compiled kernel's occupancy
// (blocks_per_sm > 0), else what 2048 threads per multiprocessor allow.
std::int64_t resident_blocks(std::int64_t threads, int sm_count, int blocks_per_sm);

}  // namespace loom::codegen
