#pragma once
// The device memory pool (BFC: best fit with coalescing), one per device: its figures and limit.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

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

// One allocation or free of array memory: from a device's pool (device >= 0), or, without a GPU,
// the host memory of the reference path (device -1; rounded = requested, all of it acquired).
struct MemoryEvent {
  enum class Kind { Alloc, Free };
  Kind kind = Kind::Alloc;
  int device = 0;
  void* stream = nullptr;              // the cudaStream_t allocated on (Free: last used on)
  const void* ptr = nullptr;
  std::size_t requested_bytes = 0;     // what was asked for
  std::size_t rounded_bytes = 0;       // the pool's block (its alignment and size classes)
  std::size_t acquired_bytes = 0;      // Alloc: taken from CUDA (cudaMalloc) for it; 0 when cached
  // Alloc: the user's line the memory is for: the creation function (zeros, arange, asarray, full,
  // load, ...) that built the array, else the eval, to_host or item that computed it. line() == 0
  // when neither is known (loom::eval(a, b, ...) records none).
  std::source_location where;
};

// Sees every allocation and free from its construction to its destruction, on every thread
// (CuPy's MemoryHook). The callback runs after the pool's work, outside its lock; it may use
// loom: what it allocates and frees itself is not reported to the hooks again (on its thread;
// other threads' memory is). An exception it throws is printed to stderr and dropped.
class MemoryHook {
 public:
  using Callback = std::function<void(const MemoryEvent&)>;
  explicit MemoryHook(Callback callback);
  ~MemoryHook();
  MemoryHook(const MemoryHook&) = delete;
  MemoryHook& operator=(const MemoryHook&) = delete;

 private:
  std::uint64_t id_;
};

// Bytes allocated while it lives, per user source line (CuPy's LineProfileHook, with the line
// captured by std::source_location where the array is created or computed: MemoryEvent::where).
class MemoryProfile {
 public:
  struct Line {
    std::string file;  // "(unknown)" for allocations no recorded line asked for
    std::uint32_t line = 0;
    std::string function;
    std::size_t used_bytes = 0;      // rounded bytes of every allocation made for the line
    std::size_t acquired_bytes = 0;  // of which newly taken from CUDA
    std::uint64_t num_allocs = 0;
  };
  MemoryProfile();
  ~MemoryProfile();
  MemoryProfile(const MemoryProfile&) = delete;
  MemoryProfile& operator=(const MemoryProfile&) = delete;
  void stop();  // stops recording (the figures stay)
  std::vector<Line> lines() const;  // by used bytes, largest first (ties: file, line)
  // A table: used, acquired, allocations, file:line, function; a total row last.
  std::string to_string() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
  std::unique_ptr<MemoryHook> hook_;
};

}  // namespace loom
