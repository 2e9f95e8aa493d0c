#include "runtime/staging.hpp"

#include <cuda_runtime_api.h>

#include "runtime/cuda_check.hpp"

namespace loom::rt {

namespace {

struct Staging {
  std::mutex mutex;
  std::byte* base = nullptr;  // 2 chunks; never freed (lent until exit)
};

Staging& staging() {
  static auto* s = new Staging;
  return *s;
}

}  // namespace

StagingLease::StagingLease() : lock_(staging().mutex) {
  Staging& s = staging();
  if (s.base == nullptr) {
    void* p = nullptr;
    LOOM_CHECK_CUDA(cudaHostAlloc(&p, 2 * kChunkBytes, cudaHostAllocDefault));
    s.base = static_cast<std::byte*>(p);
  }
  chunks_[0] = s.base;
  chunks_[1] = s.base + kChunkBytes;
}

}  // namespace loom::rt
