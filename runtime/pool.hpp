#pragma once
// The BFC (best fit with coalescing) allocator behind every device pool (DESIGN.md decision 10),
// written against an abstract Backing so that it builds and is tested without CUDA.
//
// What must hold (tests/unit/runtime/test_pool.cpp checks each):
// - Sizes are rounded up to `alignment`; every pointer handed out is aligned to it.
// - Free blocks live in per-stream bins of fine size classes (TLSF-like: ~3% wide, intrusive
//   lists, bitmaps): allocate() takes the smallest block that fits (ties: lowest address),
//   preferring blocks freed on its own stream; O(1) insert and remove, no heap allocation.
// - A free block is split when the remainder is worth keeping (>= 1/8 of the request or
//   >= 1 MiB; a near fit goes out whole); a freed block merges with its free address
//   neighbours in the same region, so freeing everything leaves one free block per region.
// - Growth: a request that fits nowhere gets a new region of reserved/8 (at least
//   min_region_bytes, at most 1 GiB), or one of its own when it is >= 4 MiB or that large.
// - Stream safety: a block freed on stream S is reused on S at once; on stream T only after
//   hook(S, T) (the device pool records an event on S and makes T wait for it). Neighbours
//   freed on different streams still merge: the merged block remembers up to 4 streams its
//   parts were freed on and reuse waits for each (past 4, the freeing stream is ordered after
//   the extra ones at once). Without a hook, all streams are one.
// - On a backing failure or the limit: free_all_cached() and retry once, then OutOfMemory with
//   the pool's figures. Thread-safe (one mutex); the steady-state hot path makes no heap
//   allocation and no backing call.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include <loom/memory.hpp>

namespace loom::rt {

// Where the pool's regions come from: cudaMalloc/cudaFree for a device, aligned malloc in tests.
class Backing {
 public:
  virtual ~Backing() = default;
  virtual void* allocate(std::size_t bytes) = 0;  // nullptr when it cannot (out of memory)
  virtual void release(void* p, std::size_t bytes) = 0;
  virtual const char* name() const { return "the backing"; }  // for messages: "cudaMalloc"
};

using StreamId = std::uintptr_t;  // a cudaStream_t as an integer; the pool never calls CUDA

// "0 B", "512 B", "1.50 KiB", "4.00 GiB": the one way loom prints byte counts.
std::string format_bytes(std::size_t bytes);

class BfcPool {
 public:
  struct Options {
    std::size_t alignment = 256;             // a power of two
    std::size_t min_region_bytes = 2 << 20;  // the smallest growth region
    std::size_t limit_bytes = 0;             // cap on reserved bytes; 0: none
    std::string label = "pool";              // names the pool in messages ("device 0")
  };
  // Called when a free block last used on stream `from` is handed out on stream `to`.
  using CrossStreamHook = std::function<void(StreamId from, StreamId to)>;

  BfcPool(Backing& backing, Options opts, CrossStreamHook hook = {});
  ~BfcPool();  // releases every region with no live block; those with live blocks are reported
  BfcPool(const BfcPool&) = delete;
  BfcPool& operator=(const BfcPool&) = delete;

  // What one allocation cost: the block's size, and the bytes newly taken from the backing.
  struct AllocInfo {
    std::size_t rounded_bytes = 0;
    std::size_t acquired_bytes = 0;
  };
  // A block of at least `bytes` (0 counts as 1), usable on `stream` at once. Throws OutOfMemory.
  void* allocate(std::size_t bytes, StreamId stream, AllocInfo* info = nullptr);
  // `stream` is where the block was last used. nullptr is ignored; a pointer that is not a live
  // allocation of this pool throws ValueError. Returns the block's sizes (0 for nullptr).
  struct Freed {
    std::size_t rounded_bytes = 0;
    std::size_t requested_bytes = 0;
  };
  Freed free(void* p, StreamId stream);
  void free_all_cached();  // returns every region with no live block to the backing
  MemoryStats stats() const;
  void reset_peak();
  // Lowering the limit below what is reserved releases the cached regions.
  void set_limit(std::size_t bytes);
  std::size_t limit() const;
  const std::string& label() const;

 private:
  struct Impl;  // blocks, regions, bins and the live table (pool.cpp)
  mutable std::mutex mutex_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace loom::rt
