// Main of the GPU tests: exit 77 (ctest: skipped) when there is no GPU, so a machine without one
// reports them skipped, never passed. With LOOM_GPU_TEST_CHILD=disk it runs a fixed workload
// and reports the kernel cache counters in its exit status (the disk-cache test).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <loom/loom.hpp>

namespace {
int disk_cache_child() {
  const loom::Array x = loom::arange(1000).astype(loom::DType::Float32);
  (loom::sqrt(x) * 2.0f + loom::sin(x)).eval();
  (x.reshape({10, 100}).T() - 1.0f).eval();
  const loom::CacheStats s = loom::cache_stats();
  return 10 + (s.compiles > 0 ? 1 : 0) + (s.disk_hits > 0 ? 2 : 0);
}
}  // namespace

int main(int argc, char** argv) {
  if (loom::device_count() == 0) {
    std::printf("loom_gpu_tests: no GPU found, skipping (exit 77)\n");
    return 77;
  }
  if (const char* child = std::getenv("LOOM_GPU_TEST_CHILD"); child && std::string(child) == "disk") {
    return disk_cache_child();
  }
  setenv("LOOM_GPU_TESTS_SELF", argv[0], 1);
  std::printf("loom_gpu_tests on %s\n", loom::device_info().name.c_str());
  return Catch::Session().run(argc, argv);
}
