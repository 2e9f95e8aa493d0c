#include "exec/storage.hpp"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_errors.hpp"
#include "runtime/device_pool.hpp"
#include "runtime/memory_hooks.hpp"

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

}  // namespace loom::exec
