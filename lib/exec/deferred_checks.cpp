#include "exec/deferred_checks.hpp"

#include <atomic>
#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>

#include "exec/realize.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/device_errors.hpp"

namespace loom::exec {

namespace {

struct Deferred {
  std::weak_ptr<const detail::Node> ran;
  detail::NodeRef check;
  int device;
};

struct Registry {
  std::mutex mu;
  std::vector<Deferred> kept;
  std::size_t prune_at = 64;  // kept.size() at which evaluated writes are dropped
  std::atomic<std::size_t> count{0};  // kept.size(), read without the lock after every eval
};

Registry& registry() {
  static auto* r = new Registry();  // never destroyed: writes may be built during exit
  return *r;
}

bool evaluated(const Deferred& d) {
  const detail::NodeRef r = d.ran.lock();
  return r && r->realized();
}

thread_local bool t_running = false;

// raise_device_errors runs the kept checks before it reads the device's error record.
const bool g_hooked = [] {
  rt::set_deferred_checks(&run_deferred_checks);
  return true;
}();

}  // namespace

void defer_check(const detail::NodeRef& ran, const detail::NodeRef& check) {
  if (!rt::has_gpu()) {  // the host evaluator is synchronous: the check runs now (NumPy's line)
    const detail::NodeRef one[] = {check};
    realize(one);
    return;
  }
  Registry& reg = registry();
  const int device = rt::current_device();
  const std::lock_guard lock(reg.mu);
  if (reg.kept.size() >= reg.prune_at) {  // amortized: a loop that evaluates each step keeps few
    std::erase_if(reg.kept, evaluated);
    reg.prune_at = 2 * std::max<std::size_t>(reg.kept.size(), 32);
  }
  reg.kept.push_back({ran, check, device});
  reg.count.store(reg.kept.size(), std::memory_order_relaxed);
}

void note_evaluated() {
  Registry& reg = registry();
  if (reg.count.load(std::memory_order_relaxed) == 0) return;
  const std::lock_guard lock(reg.mu);
  std::erase_if(reg.kept, evaluated);
  reg.count.store(reg.kept.size(), std::memory_order_relaxed);
}

void run_deferred_checks(int device) {
  if (t_running || in_realize()) return;
  std::vector<detail::NodeRef> checks;
  {
    Registry& reg = registry();
    const std::lock_guard lock(reg.mu);
    std::erase_if(reg.kept, [&](const Deferred& d) {
      if (d.device != device || (device >= 0 && device != rt::current_device())) return false;
      if (!evaluated(d)) checks.push_back(d.check);
      return true;
    });
    reg.count.store(reg.kept.size(), std::memory_order_relaxed);
  }
  if (checks.empty()) return;
  t_running = true;
  struct Reset {
    ~Reset() { t_running = false; }
  } reset;
  realize(checks);  // (on the host: raises at once)
  if (device >= 0) LOOM_CHECK_CUDA(cudaStreamSynchronize(rt::current_stream(device)));
}

}  // namespace loom::exec
