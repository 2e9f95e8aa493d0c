#pragma once
// The in-memory kernel cache (DESIGN.md decision 4a): structural key -> loaded kernel, per
// device. A hit builds no source text. A miss emits the source, then tries the disk cache, then
// NVRTC, and loads the cubin. Thread-safe.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_plan.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/module.hpp"

namespace loom::exec {

struct CompiledKernel {
  rt::LoadedKernel loaded;
  std::vector<codegen::Param> params;
  std::string name;
  int blocks_per_sm = 0;  // reductions: resident blocks per multiprocessor at their block size
};

enum class CacheState { Memory, Disk, Compile };
const char* to_string(CacheState s);

struct Counters {
  std::atomic<std::uint64_t> compiles{0}, memory_hits{0}, disk_hits{0}, disk_writes{0},
      disk_rejected{0}, launches{0};
  // Nanoseconds spent on misses.
  std::atomic<std::uint64_t> source_ns{0}, disk_load_ns{0}, compile_ns{0}, module_load_ns{0};
};
Counters& counters();

// The loaded kernel for `plan` on `device`; `state` says where it came from.
std::shared_ptr<const CompiledKernel> kernel_for(int device, const codegen::KernelPlan& plan,
                                                 CacheState* state = nullptr);
// Where kernel_for would find it, without compiling or loading (for explain).
CacheState probe(int device, const codegen::KernelPlan& plan);
// The NVRTC request of a source for a device architecture (also used by tests without a GPU).
rt::CompileRequest compile_request(const codegen::KernelSource& src, int cc_major, int cc_minor);

void clear_memory_cache();
rt::DiskCache& disk_cache();

}  // namespace loom::exec
