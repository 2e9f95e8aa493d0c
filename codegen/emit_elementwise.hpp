#pragma once
// CUDA source emission for an elementwise kernel plan (the last codegen pass). The source has a
// header comment (the expression, the plan, the key), the parameter struct, one `element`
// function computing the outputs of one element from its inputs (one const line per node, with
// an // op comment), and a skeleton kernel that indexes, loads, calls element and stores.
// Identical plans give byte-identical source.

#include <span>
#include <string>
#include <vector>

#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

struct KernelSource {
  std::string name;                  // loom_ew_mul_exp_add_f32_7f3a9c1e
  std::string text;
  std::vector<std::string> headers;  // prelude headers it includes
  bool needs_cuda_include = false;   // float16/bfloat16: cuda_fp16.h / cuda_bf16.h
  std::vector<std::string> options;  // NVRTC options of the user code it holds (partition.cpp)
  // The fields of its Args struct, in order: those its source reads (kernel_args.hpp).
  std::vector<Param> params;
};

KernelSource emit_elementwise(const KernelPlan& plan);
// A reduction kernel (plan.reduce set): emit_reduce.cpp.
KernelSource emit_reduce(const KernelPlan& plan);
// Either, by the plan's kind.
KernelSource emit_kernel(const KernelPlan& plan);

// "add(multiply(in0, s1), in2)" for the header comment and explain().
std::string expression_text(const KernelPlan& plan, int output);
std::string kernel_name(const KernelPlan& plan);
// FNV-1a of the key, for names (the caches use a stronger hash).
std::uint64_t key_digest(const std::string& key);

}  // namespace loom::codegen
