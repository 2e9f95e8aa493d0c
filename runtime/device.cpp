#include "runtime/device.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include <loom/device.hpp>
#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device_errors.hpp"

namespace loom::rt {

namespace {

constexpr int kMaxDevices = 64;

struct DeviceTable {
  int count = 0;
  std::vector<DeviceProps> props;
  std::array<cudaStream_t, kMaxDevices> default_stream{};
  std::array<std::once_flag, kMaxDevices> stream_once;
};

DeviceTable& table() {
  static DeviceTable* t = [] {
    auto* d = new DeviceTable();  // never destroyed: streams outlive static destructors
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky "no device" status
      n = 0;
    }
    d->count = std::min(n, kMaxDevices);
    d->props.resize(static_cast<std::size_t>(d->count));
    for (int i = 0; i < d->count; ++i) {
      cudaDeviceProp p{};
      LOOM_CHECK_CUDA(cudaGetDeviceProperties(&p, i));
      DeviceProps& dp = d->props[static_cast<std::size_t>(i)];
      dp.name = p.name;
      dp.cc_major = p.major;
      dp.cc_minor = p.minor;
      dp.sm_count = p.multiProcessorCount;
      dp.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
      dp.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
      dp.total_memory_bytes = p.totalGlobalMem;
    }
    return d;
  }();
  return *t;
}

thread_local std::array<cudaStream_t, kMaxDevices> t_stream{};
thread_local std::array<bool, kMaxDevices> t_stream_set{};

void check_ordinal(int device) {
  if (device < 0 || device >= device_count()) {
    throw IndexError(fmt::format("device {} is out of range: {} GPU(s) present", device,
                                 device_count()));
  }
}

}  // namespace

int device_count() { return table().count; }
bool has_gpu() { return device_count() > 0; }

const DeviceProps& device_props(int device) {
  check_ordinal(device);
  return table().props[static_cast<std::size_t>(device)];
}

int current_device() {
  if (!has_gpu()) return -1;
  int d = 0;
  LOOM_CHECK_CUDA(cudaGetDevice(&d));
  return d;
}

void set_current_device(int device) {
  check_ordinal(device);
  LOOM_CHECK_CUDA(cudaSetDevice(device));
}

cudaStream_t current_stream(int device) {
  check_ordinal(device);
  const auto i = static_cast<std::size_t>(device);
  if (t_stream_set[i]) return t_stream[i];
  DeviceTable& t = table();
  std::call_once(t.stream_once[i], [&] {
    int prev = 0;
    LOOM_CHECK_CUDA(cudaGetDevice(&prev));
    LOOM_CHECK_CUDA(cudaSetDevice(device));
    LOOM_CHECK_CUDA(cudaStreamCreateWithFlags(&t.default_stream[i], cudaStreamNonBlocking));
    LOOM_CHECK_CUDA(cudaSetDevice(prev));
  });
  return t.default_stream[i];
}

void set_current_stream(int device, cudaStream_t stream) {
  check_ordinal(device);
  t_stream[static_cast<std::size_t>(device)] = stream;
  t_stream_set[static_cast<std::size_t>(device)] = true;
}

void stream_wait(cudaStream_t waiter, cudaStream_t other) {
  // cudaStreamWaitEvent captures the event's state when it is called, so one event per thread
  // and device can be re-recorded for every wait.
  thread_local std::array<cudaEvent_t, kMaxDevices> events{};
  const int d = current_device();
  cudaEvent_t& event = events[static_cast<std::size_t>(d)];
  if (!event) LOOM_CHECK_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  LOOM_CHECK_CUDA(cudaEventRecord(event, other));
  LOOM_CHECK_CUDA(cudaStreamWaitEvent(waiter, event, 0));
}

}  // namespace loom::rt

// --- the public API of include/loom/device.hpp ---
namespace loom {

int device_count() { return rt::device_count(); }
bool gpu_available() { return rt::has_gpu(); }
int current_device() { return rt::current_device(); }
void set_device(int index) { rt::set_current_device(index); }

DeviceInfo device_info(int index) {
  if (index < 0) index = rt::current_device();
  const rt::DeviceProps& p = rt::device_props(index);
  DeviceInfo info;
  info.index = index;
  info.name = p.name;
  info.cc_major = p.cc_major;
  info.cc_minor = p.cc_minor;
  info.sm_count = p.sm_count;
  info.total_memory_bytes = p.total_memory_bytes;
  info.l2_bytes = p.l2_bytes;
  return info;
}

Device::Device(int index) : previous_(rt::current_device()) { rt::set_current_device(index); }
Device::~Device() {
  if (previous_ >= 0) LOOM_WARN_CUDA(cudaSetDevice(previous_));
}

Stream Stream::current() {
  const int d = rt::current_device();
  if (d < 0) return Stream(nullptr, -1);
  return Stream(rt::current_stream(d), d);
}

Stream Stream::create() {
  const int d = rt::current_device();
  if (d < 0) throw CudaError("Stream::create: no GPU is present", 100);
  cudaStream_t s = nullptr;
  LOOM_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return Stream(s, d);
}

Stream Stream::from_handle(void* cuda_stream, int device) {
  const int d = device >= 0 ? device : rt::current_device();
  if (d < 0) throw CudaError("Stream::from_handle: no GPU is present", 100);
  if (d >= rt::device_count()) {
    throw ValueError(fmt::format("Stream::from_handle: device {} does not exist ({} GPU(s))", d, rt::device_count()));
  }
  return Stream(cuda_stream, d);
}

void Stream::synchronize() const {
  if (device_ < 0) return;
  LOOM_CHECK_CUDA(cudaStreamSynchronize(static_cast<cudaStream_t>(handle_)));
  rt::raise_device_errors(device_);
}

StreamGuard::StreamGuard(Stream s) : previous_(Stream::current()) {
  if (s.device() >= 0) rt::set_current_stream(s.device(), static_cast<cudaStream_t>(s.handle()));
}
StreamGuard::~StreamGuard() {
  if (previous_.device() >= 0) {
    rt::set_current_stream(previous_.device(), static_cast<cudaStream_t>(previous_.handle()));
  }
}

Event::Event() {
  if (!rt::has_gpu()) throw CudaError("Event: no GPU is present", 100);
  cudaEvent_t e = nullptr;
  LOOM_CHECK_CUDA(cudaEventCreate(&e));
  handle_ = e;
}
Event::~Event() {
  if (handle_) LOOM_WARN_CUDA(cudaEventDestroy(static_cast<cudaEvent_t>(handle_)));
}
void Event::record() { record(Stream::current()); }
void Event::record(const Stream& s) {
  LOOM_CHECK_CUDA(cudaEventRecord(static_cast<cudaEvent_t>(handle_),
                                  static_cast<cudaStream_t>(s.handle())));
}
void Event::synchronize() const {
  LOOM_CHECK_CUDA(cudaEventSynchronize(static_cast<cudaEvent_t>(handle_)));
}
float Event::elapsed_ms(const Event& later) const {
  float ms = 0;
  LOOM_CHECK_CUDA(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(handle_),
                                       static_cast<cudaEvent_t>(later.handle_)));
  return ms;
}

void synchronize() {
  if (rt::has_gpu()) Stream::current().synchronize();
}

}  // namespace loom
