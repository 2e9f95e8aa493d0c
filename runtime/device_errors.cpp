#include "runtime/device_errors.hpp"

#include <array>
#include <atomic>
#include <mutex>

#include <cuda_runtime_api.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"

namespace loom::rt {

namespace {

constexpr int kMaxDevices = 64;
// Never freed: kernels may still hold the address while the process exits. The host's address of
// each device's record, and the device's (the same under unified addressing).
std::array<std::atomic<std::uint64_t*>, kMaxDevices> g_records{};
std::array<std::uint64_t*, kMaxDevices> g_device_addresses{};
std::mutex g_mu;
std::atomic<DeferredChecks> g_deferred{nullptr};

}  // namespace

void set_deferred_checks(DeferredChecks run) { g_deferred.store(run, std::memory_order_release); }

std::uint64_t* device_error_record(int device) {
  if (device < 0 || device >= kMaxDevices) throw InternalError("internal: device ordinal out of range");
  const auto d = static_cast<std::size_t>(device);
  if (g_records[d].load(std::memory_order_acquire)) return g_device_addresses[d];
  const std::lock_guard lock(g_mu);
  if (g_records[d].load(std::memory_order_relaxed)) return g_device_addresses[d];
  void* p = nullptr;
  // Mapped into the device's address space; written only by a kernel that finds an error.
  LOOM_CHECK_CUDA(cudaHostAlloc(&p, 4 * sizeof(std::uint64_t), cudaHostAllocMapped | cudaHostAllocPortable));
  auto* r = static_cast<std::uint64_t*>(p);
  for (int i = 0; i < 4; ++i) r[i] = 0;
  void* dev = nullptr;
  LOOM_CHECK_CUDA(cudaHostGetDevicePointer(&dev, p, 0));
  g_device_addresses[d] = static_cast<std::uint64_t*>(dev);
  g_records[d].store(r, std::memory_order_release);
  return g_device_addresses[d];
}

void raise_device_errors(int device) {
  if (device < 0 || device >= kMaxDevices) return;
  if (const DeferredChecks run = g_deferred.load(std::memory_order_acquire)) run(device);
  volatile std::uint64_t* r = g_records[static_cast<std::size_t>(device)].load(std::memory_order_acquire);
  if (!r || r[0] == 0) return;
  const auto index = static_cast<std::int64_t>(r[1]), size = static_cast<std::int64_t>(r[2]),
             axis = static_cast<std::int64_t>(r[3]);
  for (int k = 1; k < 4; ++k) r[k] = 0;
  r[0] = 0;
  throw IndexError(index_error_message(index, size, axis) +
                   " (found on the GPU by the kernel that read the index; reported at the next synchronization)");
}

}  // namespace loom::rt
