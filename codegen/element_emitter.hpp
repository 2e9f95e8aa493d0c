#pragma once
// The parts of generated source shared by every kernel kind: the parameter struct, and for one
// plan (an elementwise kernel, or a reduction's prologue or epilogue) its digit-splitting
// helpers and its element function: the plan's values computed from its leaves, one const line
// per node with an // op comment.

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "codegen/kernel_args.hpp"
#include "codegen/kernel_plan.hpp"
#include "codegen/source_writer.hpp"

namespace loom::codegen {

const char* path_name(Path p);
std::string leaf_label(const KernelPlan& p, int j);

// The prelude headers a kernel over these plans includes (loom_core.cuh, and loom_complex.cuh /
// loom_half.cuh when such dtypes appear); sets needs_cuda_include for float16/bfloat16.
std::vector<std::string> prelude_includes(std::initializer_list<const KernelPlan*> plans,
                                          bool& needs_cuda_include);
// The preambles of the user ops (Op::User) in these plans, each once, after the includes.
void emit_user_preambles(SourceWriter& w, std::initializer_list<const KernelPlan*> plans);
// The NVRTC options of the user ops in these plans (all the same: partition.cpp), else none.
std::vector<std::string> user_options(std::initializer_list<const KernelPlan*> plans);

// `struct Args { ... };` with one field per parameter (plans[section] holds a field's leaf).
void emit_args(SourceWriter& w, std::span<const Param> params, const KernelPlan* const plans[2]);

class ElementEmitter {
 public:
  // prefix names this plan's leaf arguments ("" or "p"); a Reduced leaf's value reaches the
  // element function as argument red<k>, k its reduction (reduction epilogues). The fields it
  // reads are asked of `args`.
  ElementEmitter(const KernelPlan& p, std::string prefix, SourceWriter& w, KernelArgs& args)
      : p_(p), pre_(std::move(prefix)), w_(w), args_(args) {}

  void emit_unravel_helpers();
  // `__device__ void fn(const Args& a, <leaf values>, <outputs by reference>)`.
  void emit_element(const std::string& fn, const std::string& comment);
  // `__device__ void fn(const Args& a, <unguarded leaf values>, bool& g0, ...)`: the guard of
  // each guarded buffer leaf (in leaf order), computed alone: the vector path asks whether a
  // vector's lanes agree before it loads them (vector_guards, kernel_plan.hpp).
  void emit_guards(const std::string& fn);

  std::string load_expr(const Leaf& l, const std::string& x) const;
  std::string guarded(const KValue& v, const std::string& reg, const std::string& e) const;
  std::string store_expr(DType t, const std::string& v) const;
  const std::string& prefix() const { return pre_; }

 private:
  const Leaf& leaf(int j) const { return p_.leaves[static_cast<std::size_t>(j)]; }
  const KValue& value(int i) const { return p_.values[static_cast<std::size_t>(i)]; }
  // "a.<prefix><name>", the field marked read.
  std::string arg(std::string_view name) const { return args_.field(pre_ + std::string(name)); }
  std::string scalar_expr(int j) const;
  std::string generator_expr(int j) const;
  void emit_function(const std::string& fn, const std::string& comment, bool guards);

  const KernelPlan& p_;
  std::string pre_;
  SourceWriter& w_;
  KernelArgs& args_;
};

}  // namespace loom::codegen
