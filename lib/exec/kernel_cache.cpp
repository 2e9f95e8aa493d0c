#include "exec/kernel_cache.hpp"

#include <chrono>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "codegen/prelude.hpp"
#include "exec/executable.hpp"
#include "exec/schedule.hpp"
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

}  // namespace

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
  // Miss: generate the source, then the compile service (memory, disk, NVRTC) and its load.
  // Two threads may race to the same kernel; the second insert is dropped.
  auto clock = std::chrono::steady_clock::now();
  auto ck = std::make_shared<CompiledKernel>();
  codegen::KernelSource src = codegen::emit_kernel(plan);
  ck->params = std::move(src.params);
  ck->name = src.name;
  const rt::DeviceProps& props = rt::device_props(device);
  const rt::CompileRequest req = compile_request(src, props.cc_major, props.cc_minor);
  lap(counters().source_ns, clock);
  CacheState where = CacheState::Compile;
  ck->module = compile(req, src.name, &where);
  cudaLibrary_t lib = ck->module->library(device);
  cudaKernel_t kernel = rt::get_kernel(lib, src.name);
  if (kernel == nullptr) throw InternalError(fmt::format("internal: the module of {} has no kernel of that name", src.name));
  ck->loaded = rt::LoadedKernel{lib, kernel, src.name};
  if (plan.reduce) {
    const codegen::LaunchDims d = codegen::launch_dims(plan, props.sm_count);
    ck->blocks_per_sm = rt::blocks_per_sm(ck->loaded, static_cast<int>(d.block_x * d.block_y));
  }
  if (state) *state = where;
  std::lock_guard lock(dc.mu);
  return dc.kernels.emplace(plan.key, ck).first->second;
}

CacheState probe(int device, const codegen::KernelPlan& plan) {
  DeviceCache& dc = cache_of(device);
  {
    std::lock_guard lock(dc.mu);
    if (dc.kernels.count(plan.key)) return CacheState::Memory;
  }
  const codegen::KernelSource src = codegen::emit_kernel(plan);
  const rt::DeviceProps& props = rt::device_props(device);
  return exec::probe(compile_request(src, props.cc_major, props.cc_minor));
}

void clear_memory_cache() {
  clear_executables();  // they hold kernels
  clear_schedules();
  for (int d = 0; d < rt::device_count(); ++d) {
    DeviceCache& dc = cache_of(d);
    std::lock_guard lock(dc.mu);
    dc.kernels.clear();  // their modules unload with the last user
  }
  clear_modules();
}

}  // namespace loom::exec
