#pragma once
// Evaluating several arrays in one plan, inspecting plans and kernels, the fusion switch, and
// the kernel caches' counters.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// Evaluates all arrays in one plan: a subexpression they share is computed once. `where`: as
// Array::eval's (the variadic form records no line: each array's own, else unknown).
void eval(const std::vector<Array>& arrays, std::source_location where = std::source_location::current());
template <class... A> void eval(const Array& first, const A&... rest) {
  eval(std::vector<Array>{first, rest...}, std::source_location());
}

// The plan eval() would run: kernels (name, key, inputs, outputs, cache state), where fusion
// stopped and why. Generates source but compiles and runs nothing.
std::string explain_string(const std::vector<Array>& arrays);
void explain(const Array& a);  // prints to std::cout
void explain(const std::vector<Array>& arrays, std::ostream& os);
// The CUDA source of every kernel eval() would run, in order.
std::string source(const std::vector<Array>& arrays);

// Fusion on (default) or off: off runs every operation as its own kernel, as an eager library
// would, so programs can be benchmarked both ways. LOOM_FUSION=0 turns it off at start.
void set_fusion(bool enabled);
bool fusion_enabled();

struct CacheStats {
  std::uint64_t compiles = 0;      // NVRTC compilations
  std::uint64_t memory_hits = 0;   // kernels found in the in-memory cache
  std::uint64_t disk_hits = 0;     // cubins loaded from the disk cache
  std::uint64_t disk_writes = 0;
  std::uint64_t disk_rejected = 0; // entries found corrupt or stale, recompiled
  std::uint64_t launches = 0;
  // Time spent on kernel cache misses, in milliseconds (summed over all misses).
  double source_ms = 0;       // generating source and its disk key
  double disk_load_ms = 0;    // reading and verifying cached cubins
  double compile_ms = 0;      // NVRTC
  double module_load_ms = 0;  // loading cubins into the context (cudaLibraryLoadData)
};
CacheStats cache_stats();
void reset_cache_stats();
void clear_memory_cache();  // unloads every kernel; the disk cache stays
std::string cache_dir();    // $LOOM_CACHE_DIR, or ~/.cache/loom

}  // namespace loom
