#pragma once
// Every environment switch of loom, read once, in one place (STYLE.md habit 12). The README
// documents each.

#include <cstddef>
#include <functional>
#include <string>

namespace loom::rt {

// LOOM_MAX_KERNEL_OPS's range: a 512-op kernel already takes NVRTC 2.3 s to compile.
inline constexpr int kMinKernelOps = 8;
inline constexpr int kMaxKernelOps = 4096;

struct Env {
  // LOOM_CACHE_DIR; default $XDG_CACHE_HOME/loom or ~/.cache/loom; empty (no disk cache) when
  // there is no home directory.
  std::string cache_dir;
  bool disk_cache = true;         // LOOM_DISK_CACHE=0 turns the disk cache off
  std::string dump_kernels_dir;   // LOOM_DUMP_KERNELS=<dir>: write every compiled kernel there
  bool debug_passes = false;      // LOOM_DEBUG_PASSES=1: print the plan after each pass
  bool sync_check = false;        // LOOM_SYNC_CHECK=1: synchronize and check after each launch
  std::size_t pool_limit = 0;     // LOOM_POOL_LIMIT=<bytes, or 512MB, 4GiB>: 0 is none
  bool fusion = true;             // LOOM_FUSION=0: every op its own kernel
  std::string cuda_home;          // LOOM_CUDA_HOME, CUDA_HOME, CUDA_PATH (for cuda_fp16.h)
  int max_kernel_ops = 256;       // LOOM_MAX_KERNEL_OPS: cut fused kernels past this many ops
  bool poison_outputs = false;    // LOOM_POISON_OUTPUTS=1: fill outputs with 0xff before kernels
  bool tf32 = false;              // LOOM_TF32=1: float32/complex64 matmuls may use TF32 tensor cores
  bool graph_launch = true;       // LOOM_GRAPH_LAUNCH=0: cached evals launch with cudaLaunchKernel
  bool nvtx = false;              // LOOM_NVTX=1: NVTX ranges for each eval, launch and call
};

// The settings, read from the environment once. A bad value (LOOM_POOL_LIMIT=abc,
// LOOM_FUSION=maybe, LOOM_MAX_KERNEL_OPS=0) is a ValueError naming the variable, raised by this
// and every later call.
const Env& env();
// The settings a given environment gives (what env() reads from the process's, once); for tests.
// The lookup returns "" for an unset variable. Throws ValueError naming a bad variable.
using EnvLookup = std::function<std::string(const char* name)>;
Env read_env(const EnvLookup& lookup);
// "512MB", "4GiB", "1000" -> bytes; throws ValueError on anything else.
std::size_t parse_bytes(const std::string& text);

}  // namespace loom::rt
