#include "exec/compile_service.hpp"

#include <filesystem>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"
#include "runtime/module.hpp"

namespace loom::exec {

namespace {

struct ModuleMap {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Module>> modules;
};

ModuleMap& module_map() {
  static auto* m = new ModuleMap();  // never destroyed: modules may outlive static destruction
  return *m;
}

struct Keys {
  rt::Hash128 disk;
  std::string memory;
};

Keys keys_of(const rt::CompileRequest& req) {
  Keys k;
  k.disk = rt::disk_key(req.source, req.headers, rt::nvrtc_version(), req.cc_major, req.cc_minor,
                        rt::compile_options(req));
  k.memory = k.disk.hex();
  for (const std::string& e : req.name_expressions) k.memory += "\n#" + e;
  return k;
}

bool disk_allowed(const rt::CompileRequest& req) { return rt::env().disk_cache && req.name_expressions.empty(); }

}  // namespace

void lap(std::atomic<std::uint64_t>& counter, std::chrono::steady_clock::time_point& since) {
  const auto now = std::chrono::steady_clock::now();
  counter.fetch_add(static_cast<std::uint64_t>(
                        std::chrono::duration_cast<std::chrono::nanoseconds>(now - since).count()),
                    std::memory_order_relaxed);
  since = now;
}

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

Module::Module(std::vector<char> cubin, std::vector<std::string> lowered, std::string label)
    : cubin_(std::move(cubin)), lowered_(std::move(lowered)), label_(std::move(label)) {}

Module::~Module() { unload(); }

void Module::unload() const {
  std::lock_guard lock(mu_);
  for (auto& [device, lib] : loaded_) LOOM_WARN_CUDA(cudaLibraryUnload(lib));
  loaded_.clear();
}

cudaLibrary_t Module::library(int device) const {
  std::lock_guard lock(mu_);
  if (auto it = loaded_.find(device); it != loaded_.end()) return it->second;
  auto clock = std::chrono::steady_clock::now();
  cudaLibrary_t lib = rt::load_library(cubin_, label_);
  lap(counters().module_load_ns, clock);
  loaded_.emplace(device, lib);
  return lib;
}

std::shared_ptr<const Module> compile(const rt::CompileRequest& req, const std::string& label, CacheState* state) {
  auto clock = std::chrono::steady_clock::now();
  const Keys k = keys_of(req);
  lap(counters().source_ns, clock);  // (cache_stats: "generating source and its disk key")
  ModuleMap& map = module_map();
  {
    std::lock_guard lock(map.mu);
    if (auto it = map.modules.find(k.memory); it != map.modules.end()) {
      if (state) *state = CacheState::Memory;
      return it->second;
    }
  }
  // Two threads may race to one module; the second insert is dropped (a compile, never a
  // wrong result).
  const bool use_disk = disk_allowed(req);
  std::vector<char> cubin;
  std::vector<std::string> lowered;
  CacheState where = CacheState::Compile;
  if (use_disk) {
    const auto before = disk_cache().counters().rejected;
    if (auto hit = disk_cache().load(k.disk)) {
      cubin = std::move(*hit);
      where = CacheState::Disk;
      counters().disk_hits.fetch_add(1, std::memory_order_relaxed);
    } else if (disk_cache().counters().rejected != before) {
      counters().disk_rejected.fetch_add(1, std::memory_order_relaxed);
    }
  }
  lap(counters().disk_load_ns, clock);
  if (cubin.empty()) {
    rt::CompileResult r = rt::compile_cubin(req);
    counters().compiles.fetch_add(1, std::memory_order_relaxed);
    cubin = std::move(r.cubin);
    lowered = std::move(r.lowered_names);
    if (use_disk && disk_cache().store(k.disk, cubin)) counters().disk_writes.fetch_add(1, std::memory_order_relaxed);
    lap(counters().compile_ns, clock);
  }
  if (state) *state = where;
  auto m = std::make_shared<const Module>(std::move(cubin), std::move(lowered), label.empty() ? req.kernel_name : label);
  std::lock_guard lock(map.mu);
  return map.modules.emplace(k.memory, std::move(m)).first->second;
}

CacheState probe(const rt::CompileRequest& req) {
  const Keys k = keys_of(req);
  {
    ModuleMap& map = module_map();
    std::lock_guard lock(map.mu);
    if (map.modules.count(k.memory)) return CacheState::Memory;
  }
  if (!disk_allowed(req)) return CacheState::Compile;
  return std::filesystem::exists(disk_cache().path_of(k.disk)) ? CacheState::Disk : CacheState::Compile;
}

void clear_modules() {
  ModuleMap& map = module_map();
  std::lock_guard lock(map.mu);
  for (auto& [key, m] : map.modules) m->unload();
  map.modules.clear();
}

}  // namespace loom::exec
