#include "runtime/memory_hooks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "runtime/pool.hpp"

namespace loom::rt {

std::atomic<int> g_memory_hooks{0};

namespace {

struct Registry {
  std::mutex mutex;
  std::uint64_t next_id = 1;
  std::vector<std::pair<std::uint64_t, std::shared_ptr<MemoryHook::Callback>>> hooks;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: frees run during static destruction
  return *r;
}

}  // namespace

namespace {

// True on a thread while its hooks run: what a callback allocates or frees through loom is not
// reported again (a hook that allocates would otherwise call itself until the stack overflows).
thread_local bool t_in_hook = false;

struct InHook {
  InHook() { t_in_hook = true; }
  ~InHook() { t_in_hook = false; }
  InHook(const InHook&) = delete;
  InHook& operator=(const InHook&) = delete;
};

}  // namespace

void notify_memory(const MemoryEvent& e) noexcept {
  if (t_in_hook) return;
  const InHook guard;
  std::vector<std::shared_ptr<MemoryHook::Callback>> now;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (const auto& h : r.hooks) now.push_back(h.second);
  }
  for (const auto& cb : now) {
    try {
      (*cb)(e);
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "loom: a MemoryHook callback threw: %s\n", ex.what());
    } catch (...) {
      std::fprintf(stderr, "loom: a MemoryHook callback threw\n");
    }
  }
}

}  // namespace loom::rt

namespace loom {

MemoryHook::MemoryHook(Callback callback) {
  rt::Registry& r = rt::registry();
  std::lock_guard lock(r.mutex);
  id_ = r.next_id++;
  r.hooks.emplace_back(id_, std::make_shared<Callback>(std::move(callback)));
  rt::g_memory_hooks.fetch_add(1, std::memory_order_relaxed);
}

MemoryHook::~MemoryHook() {
  rt::Registry& r = rt::registry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.hooks, [&](const auto& h) { return h.first == id_; });
  rt::g_memory_hooks.fetch_sub(1, std::memory_order_relaxed);
}

struct MemoryProfile::State {
  std::mutex mutex;
  // (file, line, function) -> figures. Keys are the strings source_location points at (static).
  std::map<std::tuple<std::string, std::uint32_t, std::string>, Line> lines;
};

MemoryProfile::MemoryProfile() : state_(std::make_shared<State>()) {
  hook_ = std::make_unique<MemoryHook>([s = state_](const MemoryEvent& e) {
    if (e.kind != MemoryEvent::Kind::Alloc) return;
    const bool known = e.where.line() != 0;
    std::tuple<std::string, std::uint32_t, std::string> key{known ? e.where.file_name() : "(unknown)", e.where.line(),
                                                            known ? e.where.function_name() : ""};
    std::lock_guard lock(s->mutex);
    Line& l = s->lines[key];
    if (l.num_allocs == 0) std::tie(l.file, l.line, l.function) = key;
    l.used_bytes += e.rounded_bytes;
    l.acquired_bytes += e.acquired_bytes;
    ++l.num_allocs;
  });
}

MemoryProfile::~MemoryProfile() = default;

void MemoryProfile::stop() { hook_.reset(); }

std::vector<MemoryProfile::Line> MemoryProfile::lines() const {
  std::vector<Line> out;
  {
    std::lock_guard lock(state_->mutex);
    for (const auto& kv : state_->lines) out.push_back(kv.second);
  }
  std::stable_sort(out.begin(), out.end(), [](const Line& a, const Line& b) {
    return std::tie(b.used_bytes, b.acquired_bytes) < std::tie(a.used_bytes, a.acquired_bytes);
  });
  return out;
}

std::string MemoryProfile::to_string() const {
  const std::vector<Line> ls = lines();
  std::string s = fmt::format("{:>12} {:>12} {:>7}  {}\n", "used", "acquired", "allocs", "line");
  std::size_t used = 0, acquired = 0;
  std::uint64_t n = 0;
  for (const Line& l : ls) {
    std::string where = l.line != 0 ? fmt::format("{}:{}", l.file, l.line) : l.file;
    if (!l.function.empty()) where += fmt::format("  ({})", l.function);
    s += fmt::format("{:>12} {:>12} {:>7}  {}\n", rt::format_bytes(l.used_bytes), rt::format_bytes(l.acquired_bytes),
                     l.num_allocs, where);
    used += l.used_bytes;
    acquired += l.acquired_bytes;
    n += l.num_allocs;
  }
  s += fmt::format("{:>12} {:>12} {:>7}  total\n", rt::format_bytes(used), rt::format_bytes(acquired), n);
  return s;
}

}  // namespace loom
