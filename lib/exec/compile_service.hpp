#pragma once
// One compile service for every kernel loom compiles — generated, user and raw: a source with its
// options and architecture becomes a module through one memory map, one disk cache, one NVRTC
// call, and one load per device (as CuPy's compile_with_cache). The generated kernels' cache
// (exec/kernel_cache.hpp) keeps its structural key in front of it, so a repeated eval still
// builds no source text; the user kernels (lib/user) ask it directly.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "runtime/disk_cache.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace loom::exec {

enum class CacheState { Memory, Disk, Compile };
const char* to_string(CacheState s);

struct Counters {
  std::atomic<std::uint64_t> compiles{0}, memory_hits{0}, disk_hits{0}, disk_writes{0},
      disk_rejected{0}, launches{0};
  // Nanoseconds spent on misses.
  std::atomic<std::uint64_t> source_ns{0}, disk_load_ns{0}, compile_ns{0}, module_load_ns{0};
};
Counters& counters();
// Adds the nanoseconds since `since` to a counter, and restarts the clock.
void lap(std::atomic<std::uint64_t>& counter, std::chrono::steady_clock::time_point& since);

rt::DiskCache& disk_cache();

// A compiled module: the cubin, the lowered names of its name expressions, and the library
// loaded on each device where it was used (unloaded with the module).
class Module {
 public:
  Module(std::vector<char> cubin, std::vector<std::string> lowered, std::string label);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const std::vector<std::string>& lowered() const { return lowered_; }
  // The library on `device`, loaded at the first call (CudaError naming the module otherwise).
  cudaLibrary_t library(int device) const;
  // Unloads it from every device (a later library() loads it again).
  void unload() const;

 private:
  std::vector<char> cubin_;
  std::vector<std::string> lowered_;
  std::string label_;
  mutable std::mutex mu_;
  mutable std::map<int, cudaLibrary_t> loaded_;
};

// The module of `req`: the memory map (by everything that makes the cubin, and the name
// expressions), then the disk cache (not with name expressions: their lowered names come from
// NVRTC), then NVRTC. `state` says where it came from; the counters count disk hits, writes,
// rejected entries and compiles. `label` names the module in load errors (default: the kernel's
// name). Throws CompileError as rt::compile_cubin does.
std::shared_ptr<const Module> compile(const rt::CompileRequest& req, const std::string& label = {},
                                      CacheState* state = nullptr);
// Where compile() would find `req`, compiling nothing (explain).
CacheState probe(const rt::CompileRequest& req);
// Unloads and forgets every module (clear_memory_cache: a user kernel still held loads its module
// again at its next launch).
void clear_modules();

}  // namespace loom::exec
