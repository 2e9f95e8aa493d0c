#pragma once
// The arguments of a generated kernel, gathered as its source is written: an emitter asks
// field("in0_st1") for every field it reads and writes the "a.in0_st1" it gets back, so the
// kernel's Args struct holds exactly the fields its source reads, by construction, and a kernel
// is emitted once (the parameter list is never recovered by reading the source).
// The candidates (every field a plan's skeleton could read) come from candidate_params
// (kernel_plan.hpp); a name outside them is an InternalError at emission, not a kernel that
// fails to compile.

#include <string>
#include <string_view>
#include <vector>

#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

class KernelArgs {
 public:
  explicit KernelArgs(std::vector<Param> candidates);
  // "a.<name>", the field marked read.
  std::string field(std::string_view name);
  // Text that may be dropped (a value nothing reads): while a hold is set, the fields it asks for
  // are recorded there instead, and count as read once kept.
  using Held = std::vector<int>;
  void hold(Held* into) { held_ = into; }
  void keep(const Held& h);
  // The candidates read, in candidate order.
  std::vector<Param> read() const;

 private:
  std::vector<Param> candidates_;
  std::vector<bool> read_;
  Held* held_ = nullptr;
};

}  // namespace loom::codegen
