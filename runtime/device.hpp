#pragma once
// Devices and streams as the rest of loom sees them: is there a GPU, its properties, and the
// current stream of the current device (thread-local, default one non-blocking stream per device).

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

namespace loom::rt {

// Number of usable GPUs; 0 when cudaGetDeviceCount fails (no driver, no device). Cached.
int device_count();
bool has_gpu();

struct DeviceProps {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  std::size_t l2_bytes = 0;
  std::size_t total_memory_bytes = 0;
};
const DeviceProps& device_props(int device);

int current_device();  // -1 without a GPU
void set_current_device(int device);

// The stream loom launches on for `device` in this thread.
cudaStream_t current_stream(int device);
inline cudaStream_t current_stream() { return current_stream(current_device()); }
void set_current_stream(int device, cudaStream_t stream);

// Work queued on `waiter` from now on runs after all work queued on `other` so far (an event
// recorded on other, waited on by waiter; events are reused from a per-thread pool).
void stream_wait(cudaStream_t waiter, cudaStream_t other);

}  // namespace loom::rt
