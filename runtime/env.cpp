#include "runtime/env.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <exception>
#include <string>

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::rt {

namespace {

// The lookup the current read_env uses (std::getenv, or a test's table).
thread_local const EnvLookup* t_lookup = nullptr;

std::string get(const char* name) {
  if (t_lookup != nullptr) return (*t_lookup)(name);
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string lower(std::string v) {
  for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

// An on/off switch: 1/0, true/false, on/off, yes/no in any case; anything else is an error
// naming the variable (LOOM_FUSION=OFF turns fusion off; LOOM_FUSION=of is refused).
bool flag(const char* name, bool dflt) {
  const std::string v = lower(get(name));
  if (v.empty()) return dflt;
  if (v == "1" || v == "true" || v == "on" || v == "yes") return true;
  if (v == "0" || v == "false" || v == "off" || v == "no") return false;
  throw ValueError(fmt::format("{}={}: expected 1/0, true/false, on/off or yes/no", name, get(name)));
}

// A whole decimal integer in [lo, hi], or an error naming the variable.
int bounded_int(const char* name, int dflt, int lo, int hi) {
  const std::string v = get(name);
  if (v.empty()) return dflt;
  long long n = 0;
  bool digits = v.size() <= 9;
  for (char c : v) {
    digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) n = n * 10 + (c - '0');
  }
  if (!digits || n < lo || n > hi) {
    throw ValueError(fmt::format("{}={}: expected a whole number from {} to {}", name, v, lo, hi));
  }
  return static_cast<int>(n);
}

// The per-user default cache directory: $XDG_CACHE_HOME/loom, ~/.cache/loom, or (with neither
// set) the home directory of the user's passwd entry; empty when there is none (no disk cache:
// a shared, predictable /tmp path is what an attacker would plant entries in).
std::string default_cache_dir() {
  const std::string xdg = get("XDG_CACHE_HOME");
  if (!xdg.empty() && xdg[0] == '/') return xdg + "/loom";
  std::string home = get("HOME");
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) home = pw->pw_dir;
  }
  if (home.empty() || home[0] != '/') return {};
  return home + "/.cache/loom";
}

Env read_env_now() {
  Env e;
  e.cache_dir = get("LOOM_CACHE_DIR");
  if (e.cache_dir.empty()) e.cache_dir = default_cache_dir();
  e.disk_cache = flag("LOOM_DISK_CACHE", true) && !e.cache_dir.empty();
  e.dump_kernels_dir = get("LOOM_DUMP_KERNELS");
  e.debug_passes = flag("LOOM_DEBUG_PASSES", false);
  e.sync_check = flag("LOOM_SYNC_CHECK", false);
  e.nvtx = flag("LOOM_NVTX", false);
  if (const std::string limit = get("LOOM_POOL_LIMIT"); !limit.empty()) {
    try {
      e.pool_limit = parse_bytes(limit);
    } catch (const ValueError& err) {
      throw ValueError(fmt::format("LOOM_POOL_LIMIT={}: {}", limit, err.what()));
    }
  }
  e.fusion = flag("LOOM_FUSION", true);
  for (const char* name : {"LOOM_CUDA_HOME", "CUDA_HOME", "CUDA_PATH"}) {
    e.cuda_home = get(name);
    if (!e.cuda_home.empty()) break;
  }
  e.poison_outputs = flag("LOOM_POISON_OUTPUTS", false);
  e.tf32 = flag("LOOM_TF32", false);
  e.graph_launch = flag("LOOM_GRAPH_LAUNCH", true);
  e.max_kernel_ops = bounded_int("LOOM_MAX_KERNEL_OPS", 256, kMinKernelOps, kMaxKernelOps);
  return e;
}

// The environment as read once: the settings, or the first bad value's error, which every later
// read reports again (the same clear message, naming the variable).
struct Read {
  Env env;
  std::string error;
};

const Read& read_once() {
  static const Read r = [] {
    Read out;
    try {
      out.env = read_env_now();
    } catch (const ValueError& e) {
      out.error = e.what();
    }
    return out;
  }();
  return r;
}

}  // namespace

Env read_env(const EnvLookup& lookup) {
  t_lookup = &lookup;
  try {
    Env e = read_env_now();
    t_lookup = nullptr;
    return e;
  } catch (...) {
    t_lookup = nullptr;
    throw;
  }
}

const Env& env() {
  const Read& r = read_once();
  if (!r.error.empty()) throw ValueError(r.error);
  return r.env;
}

std::size_t parse_bytes(const std::string& text) {
  std::size_t i = 0;
  long double value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    value = value * 10 + (text[i] - '0');
    ++i;
  }
  if (i == 0) {
    throw ValueError(fmt::format("cannot read '{}' as a size in bytes (say 1000000, 512MB or 4GiB)", text));
  }
  const std::string unit = lower(text.substr(i));
  long double mult = 1;
  if (unit.empty() || unit == "b") {
    mult = 1;
  } else if (unit == "kb" || unit == "k") {
    mult = 1e3L;
  } else if (unit == "mb" || unit == "m") {
    mult = 1e6L;
  } else if (unit == "gb" || unit == "g") {
    mult = 1e9L;
  } else if (unit == "tb" || unit == "t") {
    mult = 1e12L;
  } else if (unit == "kib") {
    mult = 1024.0L;
  } else if (unit == "mib") {
    mult = 1024.0L * 1024;
  } else if (unit == "gib") {
    mult = 1024.0L * 1024 * 1024;
  } else if (unit == "tib") {
    mult = 1024.0L * 1024 * 1024 * 1024;
  } else {
    throw ValueError(fmt::format("cannot read '{}' as a size in bytes (unit '{}'; say 512MB or 4GiB)", text, unit));
  }
  const long double bytes = value * mult;
  if (!(bytes < 18446744073709551616.0L)) {
    throw ValueError(fmt::format("'{}' is more bytes than a 64-bit size holds", text));
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace loom::rt
