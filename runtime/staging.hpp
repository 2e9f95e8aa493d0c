#pragma once
// Pinned host memory for copies too large to stage at once (files read into or written from the
// GPU): two chunks, made on first use and kept for the process, lent to one caller at a time.
// Copies from pageable memory run at a fraction of the bus's speed and block; through pinned
// chunks, one chunk's copy overlaps the next chunk's file read or write.

#include <cstddef>
#include <mutex>

namespace loom::rt {

class StagingLease {
 public:
  // 16 MiB: a copy of that size runs near the bus's full speed, and 32 MiB pinned stays cheap.
  static constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
  StagingLease();  // waits for the current holder; throws CudaError when pinning fails
  std::byte* chunk(int k) const { return chunks_[k & 1]; }

 private:
  std::unique_lock<std::mutex> lock_;
  std::byte* chunks_[2];
};

}  // namespace loom::rt
