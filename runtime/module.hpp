#pragma once
// Loading a cubin and launching its kernel through the CUDA runtime API only: no driver API,
// no libcuda link (DESIGN.md decision 7), so the library still loads on a machine without a GPU.

#include <cstddef>
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

// Unloads the library and clears `kernel`; a failure is printed, never thrown.
void unload(LoadedKernel& kernel) noexcept;

// Blocks of `threads` threads that fit on one multiprocessor at once (registers, shared memory);
// 0 when the runtime cannot say (the caller then assumes a full one).
int blocks_per_sm(const LoadedKernel& kernel, int threads) noexcept;

// cudaLaunchKernel on `stream`. Throws CudaError naming the kernel. With LOOM_SYNC_CHECK=1 it
// synchronizes the stream afterwards, so an asynchronous fault is reported at this kernel.
void launch(const LoadedKernel& kernel, dim3 grid, dim3 block, void** args, std::size_t smem_bytes,
            cudaStream_t stream);

}  // namespace loom::rt
