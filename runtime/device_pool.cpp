#include "runtime/device_pool.hpp"

#include <array>
#include <atomic>
#include <cstdio>
#include <mutex>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/memory.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"
#include "runtime/memory_hooks.hpp"

namespace loom::rt {

namespace {

constexpr int kMaxDevices = 64;          // as in device.cpp
constexpr std::size_t kAlignment = 256;  // what cudaMalloc guarantees

// Makes `device` current for a scope, touching the runtime only when it is not already.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    LOOM_CHECK_CUDA(cudaGetDevice(&previous_));
    if (previous_ != device) LOOM_CHECK_CUDA(cudaSetDevice(device));
    device_ = device;
  }
  ~DeviceScope() {
    if (previous_ != device_) LOOM_WARN_CUDA(cudaSetDevice(previous_));
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
  int device_ = 0;
};

class CudaBacking : public Backing {
 public:
  explicit CudaBacking(int device) : device_(device) {}
  void* allocate(std::size_t bytes) override {
    DeviceScope scope(device_);
    void* p = nullptr;
    const cudaError_t status = cudaMalloc(&p, bytes);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // not sticky: clear it so that later checks do not see it
      return nullptr;
    }
    if (status != cudaSuccess) {
      throw_cuda_error(status, "cudaMalloc(&p, bytes)", __FILE__, __LINE__);
    }
    return p;
  }
  // Only from free_all_cached and teardown. cudaFree waits for the device, so work still queued
  // on a block's last stream finishes before its memory goes back.
  void release(void* p, std::size_t /*bytes*/) override {
    try {
      DeviceScope scope(device_);
      LOOM_WARN_CUDA(cudaFree(p));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "loom: releasing a pool region of device %d: %s\n", device_, e.what());
    }
  }
  const char* name() const override { return "cudaMalloc"; }

 private:
  int device_;
};

struct DevicePool {
  explicit DevicePool(int device, std::size_t limit)
      : device_index(device),
        backing(device),
        pool(backing, options(device, limit),
             [this](StreamId from, StreamId to) { order_after(from, to); }) {}

  static BfcPool::Options options(int device, std::size_t limit) {
    BfcPool::Options o;
    o.alignment = kAlignment;
    o.limit_bytes = limit;
    o.label = fmt::format("device {}", device);
    return o;
  }

  // Makes `to` wait for the work queued so far on `from`. The pool calls it under its mutex, so
  // one event per device is enough: cudaStreamWaitEvent captures the record it follows.
  void order_after(StreamId from, StreamId to) {
    DeviceScope scope(device());
    if (!event) LOOM_CHECK_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    LOOM_CHECK_CUDA(cudaEventRecord(event, reinterpret_cast<cudaStream_t>(from)));
    LOOM_CHECK_CUDA(cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(to), event, 0));
  }
  int device() const { return device_index; }

  int device_index = 0;
  CudaBacking backing;
  cudaEvent_t event = nullptr;
  BfcPool pool;
};

// Never destroyed: blocks freed from static destructors (arrays held in globals) must find it.
struct PoolTable {
  std::mutex mutex;  // making a pool, and the limits below
  std::array<std::atomic<DevicePool*>, kMaxDevices> pools{};
  std::array<std::size_t, kMaxDevices> limits{};
  std::array<bool, kMaxDevices> limit_set{};
};

PoolTable& table() {
  static PoolTable* t = new PoolTable();
  return *t;
}

// -1 is the current device. Without a GPU, -1 and 0 name the one slot that stores a limit.
int resolve(int device) {
  const int count = device_count();
  if (count == 0) {
    if (device == -1 || device == 0) return 0;
    throw IndexError(fmt::format("device {} is out of range: no GPU is present", device));
  }
  if (device == -1) return current_device();
  if (device < 0 || device >= count) {
    throw IndexError(fmt::format("device {} is out of range: {} GPU(s) present", device, count));
  }
  return device;
}

std::size_t initial_limit(const PoolTable& t, int device) {
  const auto i = static_cast<std::size_t>(device);
  return t.limit_set[i] ? t.limits[i] : env().pool_limit;
}

DevicePool* find_pool(int device) {
  return table().pools[static_cast<std::size_t>(device)].load(std::memory_order_acquire);
}

}  // namespace

BfcPool& device_pool(int device) {
  if (!has_gpu()) {
    throw CudaError("no GPU is present: device memory cannot be allocated", cudaErrorNoDevice);
  }
  const int d = resolve(device);
  if (DevicePool* p = find_pool(d)) return p->pool;
  PoolTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto& slot = t.pools[static_cast<std::size_t>(d)];
  DevicePool* p = slot.load(std::memory_order_acquire);
  if (!p) {
    p = new DevicePool(d, initial_limit(t, d));
    slot.store(p, std::memory_order_release);
  }
  return p->pool;
}

void* device_alloc(int device, std::size_t bytes, cudaStream_t stream, const std::source_location& where) {
  BfcPool& pool = device_pool(device);
  try {
    if (!memory_hooked()) return pool.allocate(bytes, reinterpret_cast<StreamId>(stream));
    BfcPool::AllocInfo info;
    void* p = pool.allocate(bytes, reinterpret_cast<StreamId>(stream), &info);
    notify_memory(MemoryEvent{MemoryEvent::Kind::Alloc, device < 0 ? current_device() : device, stream, p, bytes,
                              info.rounded_bytes, info.acquired_bytes, where});
    return p;
  } catch (const OutOfMemory& e) {
    // What the whole device has left tells whether other processes hold the memory.
    std::size_t free_bytes = 0, total_bytes = 0;
    DeviceScope scope(device < 0 ? current_device() : device);
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      (void)cudaGetLastError();
      throw;
    }
    throw OutOfMemory(fmt::format("{}; the device has {} free of {}", e.what(),
                                  format_bytes(free_bytes), format_bytes(total_bytes)),
                      e.requested_bytes());
  }
}

void device_free(int device, void* p, cudaStream_t stream) noexcept {
  if (!p) return;
  try {
    DevicePool* dp = device >= 0 && device < kMaxDevices ? find_pool(device) : nullptr;
    if (!dp && device == -1 && has_gpu()) dp = find_pool(current_device());
    if (!dp) {
      std::fprintf(stderr, "loom: device_free(%d, %p): device %d has no pool\n", device, p, device);
      return;
    }
    const BfcPool::Freed f = dp->pool.free(p, reinterpret_cast<StreamId>(stream));
    if (memory_hooked()) {
      notify_memory(MemoryEvent{MemoryEvent::Kind::Free, device < 0 ? current_device() : device, stream, p,
                                f.requested_bytes, f.rounded_bytes, 0, std::source_location()});
    }
  } catch (const CudaError& e) {
    if (e.status() != cudaErrorCudartUnloading) {  // at exit the runtime may be gone: harmless
      std::fprintf(stderr, "loom: device_free: %s\n", e.what());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loom: device_free: %s\n", e.what());
  }
}

}  // namespace loom::rt

// --- the public API of include/loom/memory.hpp ---
namespace loom {

MemoryStats memory_stats(int device) {
  const int d = rt::resolve(device);
  if (rt::DevicePool* p = rt::find_pool(d)) return p->pool.stats();
  MemoryStats s;  // no pool yet (or no GPU): nothing reserved
  std::lock_guard<std::mutex> lock(rt::table().mutex);
  s.limit_bytes = rt::initial_limit(rt::table(), d);
  return s;
}

void reset_peak_memory_stats(int device) {
  if (rt::DevicePool* p = rt::find_pool(rt::resolve(device))) p->pool.reset_peak();
}

void set_memory_limit(std::size_t bytes, int device) {
  const int d = rt::resolve(device);
  rt::PoolTable& t = rt::table();
  std::lock_guard<std::mutex> lock(t.mutex);  // orders against a pool being made
  t.limits[static_cast<std::size_t>(d)] = bytes;
  t.limit_set[static_cast<std::size_t>(d)] = true;
  if (rt::DevicePool* p = rt::find_pool(d)) p->pool.set_limit(bytes);
}

std::size_t memory_limit(int device) {
  const int d = rt::resolve(device);
  if (rt::DevicePool* p = rt::find_pool(d)) return p->pool.limit();
  std::lock_guard<std::mutex> lock(rt::table().mutex);
  return rt::initial_limit(rt::table(), d);
}

void free_all_cached(int device) {
  if (rt::DevicePool* p = rt::find_pool(rt::resolve(device))) p->pool.free_all_cached();
}

}  // namespace loom
