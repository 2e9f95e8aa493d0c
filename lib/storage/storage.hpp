#pragma once
// Memory of evaluated arrays, below every other exec file: device buffers from the pool and host
// buffers for the path without a GPU, evaluated results over them, stream ordering of shared
// buffers, and reading values back to the host.

#include <cstddef>
#include <functional>
#include <memory>

#include <cuda_runtime_api.h>

#include "graph/node.hpp"

namespace loom::exec {

// An evaluated result in a new C-contiguous buffer.
std::shared_ptr<const detail::Realized> contiguous_result(std::shared_ptr<detail::Storage> s, const Shape& shape);

// Host memory for the reference path, and device memory from the pool. `for_node`: the node the
// memory holds, whose line (Node::site) the memory hooks name, else the evaluating line.
std::shared_ptr<detail::Storage> host_storage(std::size_t nbytes, const detail::Node* for_node = nullptr);
std::shared_ptr<detail::Storage> device_storage(int device, std::size_t nbytes, const detail::Node* for_node = nullptr);

// Makes `stream` wait for the last work queued on s (when that was another stream), and
// records `stream` as its last user: buffers shared across streams are read in order, and
// freed in the order of their last use.
void order_after_last_use(const detail::Storage& s, cudaStream_t stream);

// The current stream waits for the work queued so far on `producer` (another library's stream:
// DLPack's exchange).
void wait_for_stream(cudaStream_t producer);

// Which device foreign memory at `ptr` is on, checked: the GPU `device` (the current one when
// -1), or the host when loom runs without a GPU. ValueError naming `op` otherwise.
Placement placement_of(const void* ptr, int device, const char* op);

// Copies bytes of a storage to host memory (synchronizing with the current stream).
void read_storage(const detail::Storage& s, std::size_t offset, std::size_t nbytes, void* dst);

// Large transfers in chunks (files): bytes [offset, offset + nbytes) of s handed to `sink` chunk by
// chunk, and s's bytes [0, nbytes) filled by `source` chunk by chunk. On the GPU through pinned
// double buffers (rt::StagingLease) on the current stream, one chunk's copy overlapping the next
// chunk's sink or source; on the host, one call over the storage itself. Chunks are multiples of
// 16 bytes (whole elements of every dtype), but for the last.
using ChunkSink = std::function<void(const std::byte* data, std::size_t nbytes)>;
using ChunkSource = std::function<void(std::byte* data, std::size_t nbytes)>;
void read_storage_chunks(const detail::Storage& s, std::size_t offset, std::size_t nbytes, const ChunkSink& sink);
void write_storage_chunks(const detail::Storage& s, std::size_t nbytes, const ChunkSource& source);

}  // namespace loom::exec

namespace loom::detail {

// Storage for new arrays: device memory when there is a GPU, host memory otherwise.
std::shared_ptr<Storage> allocate_storage(std::size_t nbytes);
std::shared_ptr<Storage> upload_storage(const void* host, std::size_t nbytes);

}  // namespace loom::detail
