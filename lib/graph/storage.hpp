#pragma once
// Storage: a block of memory that holds array elements, on the host or a GPU. The graph only
// refers to it; whoever allocated it (the device pool, the host evaluator) gives the release.

#include <cstddef>
#include <functional>
#include <utility>

#include <loom/array.hpp>

namespace loom::detail {

class Storage {
 public:
  Storage(void* data, std::size_t nbytes, Placement where, std::function<void()> release)
      : data_(data), nbytes_(nbytes), where_(where), release_(std::move(release)) {}
  ~Storage() {
    if (release_) release_();
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  std::size_t nbytes() const { return nbytes_; }
  const Placement& placement() const { return where_; }
  bool on_host() const { return where_.kind == DeviceKind::Host; }

 private:
  void* data_;
  std::size_t nbytes_;
  Placement where_;
  std::function<void()> release_;
};

}  // namespace loom::detail
