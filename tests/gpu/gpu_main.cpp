// Main of the GPU tests: exit 77 (ctest: skipped) when there is no GPU, so a machine without one
// reports them skipped, never passed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <loom/device.hpp>

int main(int argc, char** argv) {
  if (loom::device_count() == 0) {
    std::printf("loom_gpu_tests: no GPU found, skipping (exit 77)\n");
    return 77;
  }
  std::printf("loom_gpu_tests on %s\n", loom::device_info().name.c_str());
  return Catch::Session().run(argc, argv);
}
