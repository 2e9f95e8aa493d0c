#pragma once
// The in-memory kernel cache (DESIGN.md decision 4a): structural key -> loaded kernel, per
// device. A hit builds no source text. A miss emits the source and asks the compile service
// (exec/compile_service.hpp: memory, disk, NVRTC, load). Thread-safe.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_plan.hpp"
#include "exec/compile_service.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/module.hpp"

namespace loom::exec {

struct CompiledKernel {
  std::shared_ptr<const Module> module;  // owns the library `loaded` is in
  rt::LoadedKernel loaded;
  std::vector<codegen::Param> params;
  std::string name;
  int blocks_per_sm = 0;  // reductions: resident blocks per multiprocessor at their block size
};

// The loaded kernel for `plan` on `device`; `state` says where it came from.
std::shared_ptr<const CompiledKernel> kernel_for(int device, const codegen::KernelPlan& plan,
                                                 CacheState* state = nullptr);
// Where kernel_for would find it, without compiling or loading (for explain).
CacheState probe(int device, const codegen::KernelPlan& plan);
// The NVRTC request of a source for a device architecture (also used by tests without a GPU).
rt::CompileRequest compile_request(const codegen::KernelSource& src, int cc_major, int cc_minor);

// Forgets the kernels, the executables that hold them, and every module of the compile service.
void clear_memory_cache();

}  // namespace loom::exec
