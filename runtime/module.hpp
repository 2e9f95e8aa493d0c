#pragma once
// Loading a cubin and launching its kernel through the CUDA runtime API only: no driver API,
// no libcuda link (DESIGN.md decision 7), so the library still loads on a machine without a GPU.

#include <cstddef>
#include <mutex>
#include <span>
#include <string>

#include <cuda_runtime_api.h>

namespace loom::rt {

// A kernel in a loaded library. Plain data: the owner (the kernel cache) calls unload().
struct LoadedKernel {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  std::string name;
};

// cudaLibraryLoadData + cudaLibraryGetKernel. Throws CudaError naming the kernel (also when
// there is no GPU). The cubin's bytes may be freed after the call.
LoadedKernel load_kernel(std::span<const char> cubin, const std::string& name);

// A user's module (include/loom/kernels.hpp): one library, several kernels. load_library throws
// CudaError naming `what`; get_kernel returns null when the library has no such kernel.
cudaLibrary_t load_library(std::span<const char> cubin, const std::string& what);
cudaKernel_t get_kernel(cudaLibrary_t library, const std::string& name) noexcept;

// Unloads the library and clears `kernel`; a failure is printed, never thrown.
void unload(LoadedKernel& kernel) noexcept;

// Blocks of `threads` threads that fit on one multiprocessor at once (registers, shared memory);
// 0 when the runtime cannot say (the caller then assumes a full one).
int blocks_per_sm(const LoadedKernel& kernel, int threads) noexcept;

// cudaLaunchKernel on `stream`. Throws CudaError naming the kernel. With LOOM_SYNC_CHECK=1 it
// synchronizes the stream afterwards, so an asynchronous fault is reported at this kernel.
void launch(const LoadedKernel& kernel, dim3 grid, dim3 block, void** args, std::size_t smem_bytes,
            cudaStream_t stream);

// A kernel launched again and again with new arguments (an executable's, on each cached eval):
// a one-node CUDA graph whose node takes the arguments before each launch. Measured on the H100
// (bench/NOTES.md, sixth session): cudaGraphExecKernelNodeSetParams + cudaGraphLaunch take
// 2.1-2.3 us of host time where cudaLaunchKernel takes 3.1-3.4, and with a synchronize after
// 7.7-8.2 us where 9.5-9.9. The graph is made at the first launch. Launches of one graph run in
// order, also from different streams; setting the arguments and launching are one step under a
// lock. Throws CudaError naming the kernel; LOOM_SYNC_CHECK as launch().
class GraphLaunch {
 public:
  GraphLaunch(const LoadedKernel& kernel, dim3 grid, dim3 block);
  ~GraphLaunch();  // in-flight launches finish; a failure is printed, never thrown
  GraphLaunch(const GraphLaunch&) = delete;
  GraphLaunch& operator=(const GraphLaunch&) = delete;

  void launch(void** args, cudaStream_t stream);

 private:
  std::string name_;
  cudaKernelNodeParams params_{};
  std::mutex mu_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphNode_t node_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace loom::rt
