#include "runtime/module.hpp"

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/env.hpp"

namespace loom::rt {

namespace {

// Like LOOM_CHECK_CUDA, but the message names the kernel: with dozens of generated kernels the
// call text alone does not say which one failed.
void check(cudaError_t status, const char* call, const std::string& name) {
  if (status == cudaSuccess) return;
  const std::string msg =
      fmt::format("{} failed for kernel {}: {}", call, name, cuda_error_string(status));
  if (status == cudaErrorMemoryAllocation) throw OutOfMemory(msg, 0);
  throw CudaError(msg, status);
}

// LOOM_SYNC_CHECK=1: wait for the kernel just launched, so an asynchronous fault names it.
void sync_check(cudaStream_t stream, const std::string& name) {
  if (env().sync_check) check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (LOOM_SYNC_CHECK)", name);
}

}  // namespace

LoadedKernel load_kernel(std::span<const char> cubin, const std::string& name) {
  LoadedKernel k;
  k.name = name;
  if (cubin.empty()) {
    throw CudaError(fmt::format("cannot load kernel {}: the cubin is empty", name),
                    cudaErrorInvalidKernelImage);
  }
  check(cudaLibraryLoadData(&k.library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cudaLibraryLoadData", name);
  const cudaError_t status = cudaLibraryGetKernel(&k.kernel, k.library, name.c_str());
  if (status != cudaSuccess) {
    unload(k);
    check(status, "cudaLibraryGetKernel", name);
  }
  return k;
}

cudaLibrary_t load_library(std::span<const char> cubin, const std::string& what) {
  cudaLibrary_t lib = nullptr;
  if (cubin.empty()) throw CudaError(fmt::format("cannot load {}: the cubin is empty", what), cudaErrorInvalidKernelImage);
  check(cudaLibraryLoadData(&lib, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData", what);
  return lib;
}

cudaKernel_t get_kernel(cudaLibrary_t library, const std::string& name) noexcept {
  cudaKernel_t k = nullptr;
  if (cudaLibraryGetKernel(&k, library, name.c_str()) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return k;
}

void unload(LoadedKernel& kernel) noexcept {
  if (kernel.library != nullptr) LOOM_WARN_CUDA(cudaLibraryUnload(kernel.library));
  kernel.library = nullptr;
  kernel.kernel = nullptr;
}

int blocks_per_sm(const LoadedKernel& kernel, int threads) noexcept {
  int blocks = 0;
  // The occupancy calculator takes a cudaKernel_t cast to a function pointer (cuda_runtime_api.h).
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(kernel.kernel), threads, 0) !=
      cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it, and plan without the figure
    return 0;
  }
  return blocks;
}

void launch(const LoadedKernel& kernel, dim3 grid, dim3 block, void** args, std::size_t smem_bytes,
            cudaStream_t stream) {
  // cudaLaunchKernel accepts a cudaKernel_t cast to a function pointer (cuda_runtime_api.h).
  check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel.kernel), grid, block, args,
                         smem_bytes, stream),
        "cudaLaunchKernel", kernel.name);
  sync_check(stream, kernel.name);
}

GraphLaunch::GraphLaunch(const LoadedKernel& kernel, dim3 grid, dim3 block) : name_(kernel.name) {
  // Graph kernel nodes take a cudaKernel_t cast to a function pointer (cuda_runtime_api.h).
  params_.func = reinterpret_cast<void*>(kernel.kernel);
  params_.gridDim = grid;
  params_.blockDim = block;
}

GraphLaunch::~GraphLaunch() {
  if (exec_ != nullptr) LOOM_WARN_CUDA(cudaGraphExecDestroy(exec_));
  if (graph_ != nullptr) LOOM_WARN_CUDA(cudaGraphDestroy(graph_));
}

void GraphLaunch::launch(void** args, cudaStream_t stream) {
  std::lock_guard lock(mu_);
  params_.kernelParams = args;  // the argument values are copied by the calls below
  if (exec_ == nullptr) {
    if (graph_ == nullptr) check(cudaGraphCreate(&graph_, 0), "cudaGraphCreate", name_);
    if (node_ == nullptr) check(cudaGraphAddKernelNode(&node_, graph_, nullptr, 0, &params_), "cudaGraphAddKernelNode", name_);
    check(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate", name_);
  } else {
    check(cudaGraphExecKernelNodeSetParams(exec_, node_, &params_), "cudaGraphExecKernelNodeSetParams", name_);
  }
  params_.kernelParams = nullptr;
  check(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch", name_);
  sync_check(stream, name_);
}

}  // namespace loom::rt
