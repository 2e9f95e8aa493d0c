#pragma once
// The device memory pool (BFC: best fit with coalescing), one per device: its figures and limit.

#include <cstddef>
#include <cstdint>
#include <string>

namespace loom {

struct MemoryStats {
  std::size_t in_use_bytes = 0;        // held by live allocations (rounded sizes)
  std::size_t requested_bytes = 0;     // what callers asked for
  std::size_t cached_bytes = 0;        // reserved from CUDA but free in the pool
  std::size_t reserved_bytes = 0;      // in_use + cached: what cudaMalloc gave the pool
  std::size_t peak_in_use_bytes = 0;
  std::size_t peak_reserved_bytes = 0;
  std::size_t largest_free_block_bytes = 0;
  std::size_t limit_bytes = 0;          // 0: no limit
  std::uint64_t num_allocs = 0;         // allocations served
  std::uint64_t num_frees = 0;
  std::uint64_t num_live_blocks = 0;
  std::uint64_t num_free_blocks = 0;
  std::uint64_t num_regions = 0;        // segments obtained from CUDA
  std::uint64_t num_backing_allocs = 0; // cudaMalloc calls
  std::uint64_t num_backing_frees = 0;  // cudaFree calls
  std::uint64_t num_ooms = 0;
  // 1 - largest free block / all free bytes (0 when nothing or one block is free).
  double fragmentation() const;
  std::string to_string() const;
};

MemoryStats memory_stats(int device = -1);  // -1: the current device
void reset_peak_memory_stats(int device = -1);
// Caps the bytes the pool may reserve on a device (0 removes the cap). LOOM_POOL_LIMIT sets the
// initial cap of every device ("4GiB", "512MB", "1000000").
void set_memory_limit(std::size_t bytes, int device = -1);
std::size_t memory_limit(int device = -1);
// Returns every cached (free) region to CUDA.
void free_all_cached(int device = -1);

}  // namespace loom
