#pragma once
// Devices, streams and events. All work is asynchronous on the current stream of the current
// device; reading values to the host synchronizes. Without a GPU, device_count() is 0 and arrays
// are computed by the host reference evaluator.

#include <cstdint>
#include <string>

namespace loom {

int device_count();          // 0 when there is no GPU or no driver
bool gpu_available();        // device_count() > 0
int current_device();        // -1 without a GPU
void set_device(int index);  // throws IndexError for a bad ordinal

struct DeviceInfo {
  int index = -1;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t total_memory_bytes = 0;
  std::size_t l2_bytes = 0;
};
DeviceInfo device_info(int index = -1);  // -1: the current device

// Makes `index` the current device for the lifetime of the guard.
class Device {
 public:
  explicit Device(int index);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

 private:
  int previous_;
};

// A CUDA stream (opaque). Stream::current() is where loom launches on the current device; by
// default each device has one non-blocking stream of loom's own.
class Stream {
 public:
  static Stream current();
  static Stream create();  // a new non-blocking stream, owned by loom until program exit
  // A caller's cudaStream_t on `device` (the current one when -1), not owned: loom never
  // destroys it; use it with StreamGuard to make loom launch there (CuPy's ExternalStream).
  static Stream from_handle(void* cuda_stream, int device = -1);
  void synchronize() const;
  void* handle() const { return handle_; }  // the cudaStream_t
  int device() const { return device_; }
  friend bool operator==(const Stream& a, const Stream& b) { return a.handle_ == b.handle_; }

 private:
  Stream(void* h, int d) : handle_(h), device_(d) {}
  void* handle_ = nullptr;
  int device_ = -1;
};

// Makes `s` the current stream of its device for the lifetime of the guard.
class StreamGuard {
 public:
  explicit StreamGuard(Stream s);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  Stream previous_;
};

class Event {
 public:
  Event();  // a timing event on the current device
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record();                 // on the current stream
  void record(const Stream& s);
  void synchronize() const;
  float elapsed_ms(const Event& later) const;
  void* handle() const { return handle_; }

 private:
  void* handle_ = nullptr;
};

// Waits for all work loom queued on the current device.
void synchronize();

}  // namespace loom
