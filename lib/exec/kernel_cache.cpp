#include "exec/kernel_cache.hpp"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <unordered_map>

#include "codegen/prelude.hpp"
#include "exec/executable.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"

namespace loom::exec {

namespace {

struct DeviceCache {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<CompiledKernel>> kernels;
};

DeviceCache& cache_of(int device) {
  static auto* caches = new std::unordered_map<int, std::unique_ptr<DeviceCache>>();
  static std::mutex mu;
  std::lock_guard lock(mu);
  auto& c = (*caches)[device];
  if (!c) c = std::make_unique<DeviceCache>();
  return *c;
}

// Adds the nanoseconds since `since` to a counter, and restarts the clock.
void lap(std::atomic<std::uint64_t>& counter, std::chrono::steady_clock::time_point& since) {
  const auto now = std::chrono::steady_clock::now();
  counter.fetch_add(static_cast<std::uint64_t>(
                        std::chrono::duration_cast<std::chrono::nanoseconds>(now - since).count()),
                    std::memory_order_relaxed);
  since = now;
}

}  // namespace

const char* to_string(CacheState s) {
  switch (s) {
    case CacheState::Memory: return "memory cache hit";
    case CacheState::Disk: return "disk cache hit";
    case CacheState::Compile: return "compile";
  }
  return "?";
}

Counters& counters() {
  static Counters c;
  return c;
}

rt::DiskCache& disk_cache() {
  static auto* d = new rt::DiskCache(rt::env().cache_dir);
  return *d;
}

rt::CompileRequest compile_request(const codegen::KernelSource& src, int cc_major, int cc_minor) {
  rt::CompileRequest req;
  req.source = src.text;
  req.kernel_name = src.name;
  req.cc_major = cc_major;
  req.cc_minor = cc_minor;
  req.needs_cuda_include = src.needs_cuda_include;
  req.extra_options = src.options;
  // Every prelude header, whichever the source includes: they include each other.
  for (const codegen::PreludeHeader& h : codegen::prelude_headers()) {
    req.headers.push_back({std::string(h.name), h.source});
  }
  return req;
}

std::shared_ptr<const CompiledKernel> kernel_for(int device, const codegen::KernelPlan& plan,
                                                 CacheState* state) {
  DeviceCache& dc = cache_of(device);
  {
    std::lock_guard lock(dc.mu);
    if (auto it = dc.kernels.find(plan.key); it != dc.kernels.end()) {
      counters().memory_hits.fetch_add(1, std::memory_order_relaxed);
      if (state) *state = CacheState::Memory;
      return it->second;
    }
  }
  // Miss: generate, then disk, then NVRTC. Two threads may race to the same kernel; the second
  // insert is dropped, which costs a compile, never a wrong result.
  auto clock = std::chrono::steady_clock::now();
  auto ck = std::make_shared<CompiledKernel>();
  ck->params = codegen::kernel_params(plan);
  const codegen::KernelSource src = codegen::emit_kernel(plan, ck->params);
  ck->name = src.name;
  const rt::DeviceProps& props = rt::device_props(device);
  const rt::CompileRequest req = compile_request(src, props.cc_major, props.cc_minor);
  const std::vector<std::string> options = rt::compile_options(req);
  const rt::Hash128 key =
      rt::disk_key(req.source, req.headers, rt::nvrtc_version(), req.cc_major, req.cc_minor, options);
  std::vector<char> cubin;
  CacheState where = CacheState::Compile;
  const bool use_disk = rt::env().disk_cache;
  lap(counters().source_ns, clock);
  if (use_disk) {
    const auto before = disk_cache().counters().rejected;
    if (auto hit = disk_cache().load(key)) {
      cubin = std::move(*hit);
      where = CacheState::Disk;
      counters().disk_hits.fetch_add(1, std::memory_order_relaxed);
    } else if (disk_cache().counters().rejected != before) {
      counters().disk_rejected.fetch_add(1, std::memory_order_relaxed);
    }
  }
  lap(counters().disk_load_ns, clock);
  if (cubin.empty()) {
    cubin = rt::compile_cubin(req).cubin;
    counters().compiles.fetch_add(1, std::memory_order_relaxed);
    if (use_disk && disk_cache().store(key, cubin)) {
      counters().disk_writes.fetch_add(1, std::memory_order_relaxed);
    }
    lap(counters().compile_ns, clock);
  }
  ck->loaded = rt::load_kernel(cubin, src.name);
  if (plan.reduce) {
    const codegen::LaunchDims d = codegen::launch_dims(plan, props.sm_count);
    ck->blocks_per_sm = rt::blocks_per_sm(ck->loaded, static_cast<int>(d.block_x * d.block_y));
  }
  lap(counters().module_load_ns, clock);
  if (state) *state = where;
  std::lock_guard lock(dc.mu);
  auto [it, fresh] = dc.kernels.emplace(plan.key, ck);
  if (!fresh) rt::unload(ck->loaded);
  return it->second;
}

CacheState probe(int device, const codegen::KernelPlan& plan) {
  DeviceCache& dc = cache_of(device);
  {
    std::lock_guard lock(dc.mu);
    if (dc.kernels.count(plan.key)) return CacheState::Memory;
  }
  if (!rt::env().disk_cache) return CacheState::Compile;
  const std::vector<codegen::Param> params = codegen::kernel_params(plan);
  const codegen::KernelSource src = codegen::emit_kernel(plan, params);
  const rt::DeviceProps& props = rt::device_props(device);
  const rt::CompileRequest req = compile_request(src, props.cc_major, props.cc_minor);
  const rt::Hash128 key = rt::disk_key(req.source, req.headers, rt::nvrtc_version(), req.cc_major,
                                       req.cc_minor, rt::compile_options(req));
  return std::filesystem::exists(disk_cache().path_of(key)) ? CacheState::Disk : CacheState::Compile;
}

void clear_memory_cache() {
  clear_executables();  // they hold kernels
  for (int d = 0; d < rt::device_count(); ++d) {
    DeviceCache& dc = cache_of(d);
    std::lock_guard lock(dc.mu);
    for (auto& [k, v] : dc.kernels) rt::unload(v->loaded);
    dc.kernels.clear();
  }
}

}  // namespace loom::exec
