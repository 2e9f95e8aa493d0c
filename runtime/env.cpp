#include "runtime/env.hpp"

#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::rt {

namespace {

std::string get(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool flag(const char* name, bool dflt) {
  const std::string v = get(name);
  if (v.empty()) return dflt;
  return !(v == "0" || v == "false" || v == "off" || v == "no");
}

Env read_env() {
  Env e;
  e.cache_dir = get("LOOM_CACHE_DIR");
  if (e.cache_dir.empty()) {
    const std::string xdg = get("XDG_CACHE_HOME");
    const std::string home = get("HOME");
    if (!xdg.empty()) {
      e.cache_dir = xdg + "/loom";
    } else if (!home.empty()) {
      e.cache_dir = home + "/.cache/loom";
    } else {
      e.cache_dir = "/tmp/loom-cache";
    }
  }
  e.disk_cache = flag("LOOM_DISK_CACHE", true);
  e.dump_kernels_dir = get("LOOM_DUMP_KERNELS");
  e.debug_passes = flag("LOOM_DEBUG_PASSES", false);
  e.sync_check = flag("LOOM_SYNC_CHECK", false);
  const std::string limit = get("LOOM_POOL_LIMIT");
  if (!limit.empty()) e.pool_limit = parse_bytes(limit);
  e.fusion = flag("LOOM_FUSION", true);
  for (const char* name : {"LOOM_CUDA_HOME", "CUDA_HOME", "CUDA_PATH"}) {
    e.cuda_home = get(name);
    if (!e.cuda_home.empty()) break;
  }
  e.poison_outputs = flag("LOOM_POISON_OUTPUTS", false);
  e.tf32 = flag("LOOM_TF32", false);
  e.graph_launch = flag("LOOM_GRAPH_LAUNCH", true);
  const std::string max_ops = get("LOOM_MAX_KERNEL_OPS");
  if (!max_ops.empty()) e.max_kernel_ops = std::max(8, std::atoi(max_ops.c_str()));
  return e;
}

}  // namespace

const Env& env() {
  static const Env e = read_env();
  return e;
}

std::size_t parse_bytes(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0) throw ValueError(fmt::format("cannot read '{}' as a size in bytes", text));
  const double value = std::stod(text.substr(0, i));
  std::string unit = text.substr(i);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double mult = 1;
  if (unit.empty() || unit == "b") {
    mult = 1;
  } else if (unit == "kb" || unit == "k") {
    mult = 1e3;
  } else if (unit == "mb" || unit == "m") {
    mult = 1e6;
  } else if (unit == "gb" || unit == "g") {
    mult = 1e9;
  } else if (unit == "kib") {
    mult = 1024.0;
  } else if (unit == "mib") {
    mult = 1024.0 * 1024;
  } else if (unit == "gib") {
    mult = 1024.0 * 1024 * 1024;
  } else {
    throw ValueError(fmt::format("cannot read '{}' as a size in bytes (unit '{}')", text, unit));
  }
  return static_cast<std::size_t>(value * mult);
}

}  // namespace loom::rt
