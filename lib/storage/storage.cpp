#include "storage/storage.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_errors.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/memory_hooks.hpp"
#include "runtime/staging.hpp"

#include "graph/site.hpp"

namespace loom::exec {

using detail::Realized;

std::shared_ptr<const Realized> contiguous_result(std::shared_ptr<detail::Storage> s, const Shape& shape) {
  auto r = std::make_shared<Realized>();
  r->storage = std::move(s);
  r->strides = contiguous_strides(shape);
  r->offset = 0;
  return r;
}

namespace {

const std::source_location& site_of(const detail::Node* n) {
  return n != nullptr && n->site.line() != 0 ? n->site : detail::current_site();
}

}  // namespace

std::shared_ptr<detail::Storage> host_storage(std::size_t nbytes, const detail::Node* for_node) {
  const std::size_t size = (std::max<std::size_t>(nbytes, 1) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, size);
  if (!p) throw OutOfMemory(fmt::format("out of host memory allocating {} bytes", nbytes), nbytes);
  if (rt::memory_hooked()) {
    rt::notify_memory(MemoryEvent{MemoryEvent::Kind::Alloc, -1, nullptr, p, nbytes, nbytes, nbytes, site_of(for_node)});
  }
  return std::make_shared<detail::Storage>(p, nbytes, Placement{DeviceKind::Host, -1}, [p, nbytes](void*) {
    std::free(p);
    if (rt::memory_hooked()) {
      rt::notify_memory(MemoryEvent{MemoryEvent::Kind::Free, -1, nullptr, p, nbytes, nbytes, 0, std::source_location()});
    }
  });
}

std::shared_ptr<detail::Storage> device_storage(int device, std::size_t nbytes, const detail::Node* for_node) {
  if (nbytes == 0) {
    return std::make_shared<detail::Storage>(nullptr, 0, Placement{DeviceKind::GPU, device}, nullptr);
  }
  cudaStream_t stream = rt::current_stream(device);
  void* p = rt::device_alloc(device, nbytes, stream, site_of(for_node));
  return std::make_shared<detail::Storage>(
      p, nbytes, Placement{DeviceKind::GPU, device},
      [device, p](void* last) { rt::device_free(device, p, static_cast<cudaStream_t>(last)); },
      stream);
}

void order_after_last_use(const detail::Storage& s, cudaStream_t stream) {
  void* last = s.last_stream();
  if (last != nullptr && last != stream) rt::stream_wait(stream, static_cast<cudaStream_t>(last));
  s.set_last_stream(stream);
}

void read_storage(const detail::Storage& s, std::size_t offset, std::size_t nbytes, void* dst) {
  if (nbytes == 0) return;
  const auto* src = static_cast<const char*>(s.data()) + offset;
  if (s.on_host()) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  const int device = s.placement().index;
  cudaStream_t stream = rt::current_stream(device);
  order_after_last_use(s, stream);
  LOOM_CHECK_CUDA(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream));
  LOOM_CHECK_CUDA(cudaStreamSynchronize(stream));
  rt::raise_device_errors(device);
}

namespace {

// An event per staging buffer: when the copy through it has finished.
class CopyEvent {
 public:
  CopyEvent() { LOOM_CHECK_CUDA(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }
  ~CopyEvent() { (void)cudaEventDestroy(e_); }
  CopyEvent(const CopyEvent&) = delete;
  CopyEvent& operator=(const CopyEvent&) = delete;
  void record(cudaStream_t s) { LOOM_CHECK_CUDA(cudaEventRecord(e_, s)); }
  void synchronize() { LOOM_CHECK_CUDA(cudaEventSynchronize(e_)); }

 private:
  cudaEvent_t e_{};
};

// A chunked copy on the storage's device: the current stream ordered after the storage's last
// use, the pinned chunks, an event per chunk; its destructor drains the stream before the lease
// ends, so that no copy still uses the chunks when they go back, even when a sink or source
// throws mid-way.
struct ChunkedCopy {
  explicit ChunkedCopy(const detail::Storage& s) : device(s.placement().index), stream(rt::current_stream(device)) {
    order_after_last_use(s, stream);
  }
  ~ChunkedCopy() { (void)cudaStreamSynchronize(stream); }
  ChunkedCopy(const ChunkedCopy&) = delete;
  ChunkedCopy& operator=(const ChunkedCopy&) = delete;
  std::byte* chunk(std::size_t k) const { return staging.chunk(static_cast<int>(k & 1)); }

  const int device;
  const cudaStream_t stream;
  const rt::StagingLease staging;
  CopyEvent done[2];
  static constexpr std::size_t kChunk = rt::StagingLease::kChunkBytes;
};

}  // namespace

void read_storage_chunks(const detail::Storage& s, std::size_t offset, std::size_t nbytes, const ChunkSink& sink) {
  if (nbytes == 0) return;
  const auto* src = static_cast<const std::byte*>(s.data()) + offset;
  if (s.on_host()) {
    sink(src, nbytes);
    return;
  }
  ChunkedCopy c(s);
  const std::size_t n = (nbytes + ChunkedCopy::kChunk - 1) / ChunkedCopy::kChunk;
  const auto len = [&](std::size_t k) { return std::min(ChunkedCopy::kChunk, nbytes - k * ChunkedCopy::kChunk); };
  const auto fetch = [&](std::size_t k) {
    LOOM_CHECK_CUDA(cudaMemcpyAsync(c.chunk(k), src + k * ChunkedCopy::kChunk, len(k), cudaMemcpyDeviceToHost, c.stream));
    c.done[k & 1].record(c.stream);
  };
  fetch(0);
  for (std::size_t k = 0; k < n; ++k) {
    if (k + 1 < n) fetch(k + 1);  // its buffer's last sink (chunk k - 1) has returned
    c.done[k & 1].synchronize();
    sink(c.chunk(k), len(k));
  }
  rt::raise_device_errors(c.device);
}

void write_storage_chunks(const detail::Storage& s, std::size_t nbytes, const ChunkSource& source) {
  if (nbytes == 0) return;
  auto* dst = static_cast<std::byte*>(s.data());
  if (s.on_host()) {
    source(dst, nbytes);
    return;
  }
  ChunkedCopy c(s);
  for (std::size_t k = 0, at = 0; at < nbytes; ++k, at += ChunkedCopy::kChunk) {
    const std::size_t n = std::min(ChunkedCopy::kChunk, nbytes - at);
    if (k >= 2) c.done[k & 1].synchronize();  // the copy out of this buffer (chunk k - 2) is done
    source(c.chunk(k), n);
    LOOM_CHECK_CUDA(cudaMemcpyAsync(dst + at, c.chunk(k), n, cudaMemcpyHostToDevice, c.stream));
    c.done[k & 1].record(c.stream);
  }
  LOOM_CHECK_CUDA(cudaStreamSynchronize(c.stream));
  rt::raise_device_errors(c.device);
}

void wait_for_stream(cudaStream_t producer) {
  rt::stream_wait(rt::current_stream(rt::current_device()), producer);
}

Placement placement_of(const void* ptr, int device, const char* op) {
  if (!rt::has_gpu()) {
    if (device >= 0) throw ValueError(fmt::format("{}: GPU {} asked for, but there is no GPU", op, device));
    return Placement{DeviceKind::Host, -1};
  }
  const int d = device >= 0 ? device : rt::current_device();
  if (d >= rt::device_count()) throw ValueError(fmt::format("{}: device {} does not exist", op, d));
  if (ptr != nullptr) {
    cudaPointerAttributes attr{};
    if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
      (void)cudaGetLastError();
      throw ValueError(fmt::format("{}: {} is not memory CUDA knows", op, ptr));
    }
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) {
      throw ValueError(fmt::format("{}: {} is host memory, not GPU memory", op, ptr));
    }
    if (attr.type == cudaMemoryTypeDevice && attr.device != d) {
      throw ValueError(fmt::format("{}: {} is on GPU {}, not GPU {}", op, ptr, attr.device, d));
    }
  }
  return Placement{DeviceKind::GPU, d};
}

}  // namespace loom::exec

namespace loom::detail {

std::shared_ptr<Storage> allocate_storage(std::size_t nbytes) {
  if (!rt::has_gpu()) return exec::host_storage(nbytes);
  return exec::device_storage(rt::current_device(), nbytes);
}

std::shared_ptr<Storage> upload_storage(const void* host, std::size_t nbytes) {
  std::shared_ptr<Storage> s = allocate_storage(nbytes);
  if (nbytes == 0) return s;
  if (s->on_host()) {
    std::memcpy(s->data(), host, nbytes);
  } else {
    cudaStream_t stream = rt::current_stream(s->placement().index);
    exec::order_after_last_use(*s, stream);
    LOOM_CHECK_CUDA(cudaMemcpyAsync(s->data(), host, nbytes, cudaMemcpyHostToDevice, stream));
    // The host data may be freed when asarray returns: wait for the copy.
    LOOM_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  return s;
}

}  // namespace loom::detail
