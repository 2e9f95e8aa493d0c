#pragma once
// The device memory pools: one BfcPool per GPU over cudaMalloc/cudaFree, made on first use and
// never destroyed. Nothing else in loom calls cudaMalloc or cudaFree (STYLE.md habit 13).
//
// A block is usable on `stream` as soon as device_alloc returns it; device_free(p, stream) says
// the last use of p was queued on `stream`. Reuse on another stream is ordered by an event
// (record on the old stream, cudaStreamWaitEvent on the new one), never by a synchronize, so a
// stream passed here must outlive the blocks freed on it (loom's own streams live to exit).

#include <cstddef>
#include <source_location>

#include <cuda_runtime_api.h>

#include "runtime/pool.hpp"

namespace loom::rt {

// Throws OutOfMemory (after returning the cached regions and retrying), IndexError for a bad
// ordinal, CudaError without a GPU. `where`: the user's line, for the memory hooks.
void* device_alloc(int device, std::size_t bytes, cudaStream_t stream, const std::source_location& where = {});
// Never throws: a pointer the pool does not own, or a CUDA error, is reported to stderr. Safe
// during static destruction (the pools are never destroyed). Both tell the memory hooks.
void device_free(int device, void* p, cudaStream_t stream) noexcept;

// The pool of `device`, made on first use with the limit set by set_memory_limit, else
// LOOM_POOL_LIMIT. Throws IndexError for a bad ordinal, CudaError without a GPU.
BfcPool& device_pool(int device);

}  // namespace loom::rt
