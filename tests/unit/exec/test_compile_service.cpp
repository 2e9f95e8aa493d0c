// The compile service (lib/exec/compile_service.hpp): one memory map in front of the disk cache
// and NVRTC for generated and user code alike; clear_memory_cache forgets it. Runs without a GPU
// (NVRTC needs none; nothing is loaded).

#include <catch2/catch.hpp>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "exec/compile_service.hpp"
#include "runtime/env.hpp"

namespace {

loom::rt::CompileRequest request(const std::string& body) {
  loom::rt::CompileRequest req;
  req.source = "extern \"C\" __global__ void loom_test_service(float* x) { " + body + " }";
  req.kernel_name = "loom_test_service";
  req.user_code = true;
  return req;
}

}  // namespace

TEST_CASE("the compile service compiles a source once and forgets it when the memory cache is cleared",
          "[exec][compile]") {
  using loom::exec::CacheState;
  const loom::rt::CompileRequest req = request("x[threadIdx.x] *= 2.5f;");
  loom::exec::clear_modules();
  const auto compiles = loom::exec::counters().compiles.load();
  CacheState first = CacheState::Memory, second = CacheState::Compile;
  const auto a = loom::exec::compile(req, "test", &first);
  CHECK(first != CacheState::Memory);
  const auto b = loom::exec::compile(req, "test", &second);
  CHECK(second == CacheState::Memory);
  CHECK(a == b);  // one module for one source, options and architecture
  CHECK(loom::exec::probe(req) == CacheState::Memory);
  CHECK(loom::exec::counters().compiles.load() <= compiles + 1);

  // Another architecture or option is another module.
  loom::rt::CompileRequest other = req;
  other.extra_options = {"-DLOOM_TEST_OPTION=1"};
  CHECK(loom::exec::compile(other) != a);

  // clear_memory_cache clears the service too: the next ask goes to the disk (or to NVRTC).
  loom::clear_memory_cache();
  CHECK(loom::exec::probe(req) == (loom::rt::env().disk_cache ? CacheState::Disk : CacheState::Compile));
  CacheState third = CacheState::Memory;
  (void)loom::exec::compile(req, "test", &third);
  CHECK(third == (loom::rt::env().disk_cache ? CacheState::Disk : CacheState::Compile));
}

TEST_CASE("the compile service reports NVRTC's error for a source it cannot compile", "[exec][compile]") {
  const loom::rt::CompileRequest req = request("undeclared_name();");
  CHECK_THROWS_AS(loom::exec::compile(req), loom::CompileError);
  // Nothing is remembered for it.
  CHECK(loom::exec::probe(req) == loom::exec::CacheState::Compile);
}
