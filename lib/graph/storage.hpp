#pragma once
// Storage: a block of memory that holds array elements, on the host or a GPU. The graph only
// refers to it; whoever allocated it (the device pool, the host evaluator) gives the release.

#include <atomic>
#include <cstddef>
#include <functional>
#include <utility>

#include <loom/placement.hpp>

namespace loom::detail {

class Storage {
 public:
  // release(last_stream) gives the memory back; last_stream is where it was last used (null
  // for host memory), so a device pool can reuse it in stream order.
  using Release = std::function<void(void* last_stream)>;

  Storage(void* data, std::size_t nbytes, Placement where, Release release, void* stream = nullptr)
      : data_(data), nbytes_(nbytes), where_(where), release_(std::move(release)), stream_(stream) {}
  ~Storage() {
    if (release_) release_(stream_.load(std::memory_order_acquire));
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  std::size_t nbytes() const { return nbytes_; }
  const Placement& placement() const { return where_; }
  bool on_host() const { return where_.kind == DeviceKind::Host; }
  // Memory loom does not own (from_pointer, from_dlpack): never written in place.
  bool borrowed() const { return borrowed_; }
  void set_borrowed() { borrowed_ = true; }
  // The stream of the last work queued on this memory (exec orders other streams after it).
  void* last_stream() const { return stream_.load(std::memory_order_acquire); }
  void set_last_stream(void* s) const { stream_.store(s, std::memory_order_release); }

 private:
  void* data_;
  std::size_t nbytes_;
  Placement where_;
  Release release_;
  mutable std::atomic<void*> stream_;
  bool borrowed_ = false;
};

}  // namespace loom::detail
