// RawKernel and RawModule without a GPU: the code compiles with NVRTC at the launch's line (a
// body NVRTC rejects throws there, with the user's code numbered), launch configurations and
// arguments are checked, modules are cached, and evaluating a launch's result says plainly that
// user CUDA code needs a GPU. (Launches on the GPU: tests/gpu/test_raw_kernels_gpu.cpp.)

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

using loom::Array;
using loom::DType;

namespace {

const char* kAdd = R"(extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
})";

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace

TEST_CASE("a raw launch compiles at its line and needs a GPU to run", "[kernels]") {
  if (loom::device_count() > 0) return;  // the GPU tests launch it
  const loom::RawKernel add(kAdd, "add");
  CHECK(add.name() == "add");
  CHECK(add.code() == kAdd);
  const Array x = loom::arange(10).astype(DType::Float32), y = loom::ones({10}, DType::Float32);
  // Compiled (or found on disk) once: at the launch's line.
  const auto built = [] { return loom::cache_stats().compiles + loom::cache_stats().disk_hits; };
  const auto before = built();
  const auto outs = add({1}, {32}, {x, y, loom::Out{{10}, DType::Float32}, 10});
  REQUIRE(outs.size() == 1);
  CHECK(outs[0].shape() == loom::Shape{10});
  CHECK(outs[0].dtype() == DType::Float32);
  CHECK(built() == before + 1);
  // The same code again (another object): the memory cache.
  const loom::RawKernel again(kAdd, "add");
  (void)again({1}, {32}, {x, y, loom::Out{{10}, DType::Float32}, 10});
  CHECK(built() == before + 1);
  CHECK_THROWS_MATCHES(outs[0].eval(), loom::Error,
                       Catch::Matchers::Message("RawKernel add: user CUDA code runs only on a GPU (the host reference "
                                                "evaluator cannot run it)"));
  CHECK_THAT(loom::explain_string({outs[0]}), Catch::Matchers::Contains("RawKernel add <<<(1, 1, 1), (32, 1, 1), 0 B>>>"));
}

TEST_CASE("a raw kernel's errors name it, with the user's code numbered", "[kernels]") {
  const loom::RawKernel bad(R"(extern "C" __global__ void f(float* y) {
  y[0] = undefined_name;
})",
                            "f");
  const Array y = loom::zeros({1}, DType::Float32);
  if (loom::device_count() == 0) {
    const std::string m = message_of([&] { bad({1}, {1}, {loom::InOut{y}}); });
    CHECK_THAT(m, Catch::Matchers::Contains("NVRTC failed to compile"));
    CHECK_THAT(m, Catch::Matchers::Contains("undefined_name"));
    CHECK_THAT(m, Catch::Matchers::Contains("   2 |   y[0] = undefined_name;"));
    CHECK_THROWS_AS(bad({1}, {1}, {loom::InOut{y}}), loom::CompileError);
  }
  const loom::RawKernel add(kAdd, "add");
  CHECK_THROWS_MATCHES(add({0}, {32}, {y}), loom::ValueError,
                       Catch::Matchers::Message("RawKernel add: grid (0, 1, 1) and block (32, 1, 1) must have no zero extent"));
  CHECK_THROWS_MATCHES(add({1}, {64, 32}, {y}), loom::ValueError,
                       Catch::Matchers::Message("RawKernel add: a block of (64, 32, 1) threads is more than CUDA allows "
                                                "(1024 in all, z <= 64)"));
  CHECK_THROWS_MATCHES(add({1, 70000}, {32}, {y}), loom::ValueError,
                       Catch::Matchers::Message("RawKernel add: grid (1, 70000, 1): y and z are at most 65535"));
  CHECK_THROWS_MATCHES(add({1}, {32}, {loom::Out{{-1}, DType::Float32}}), loom::ValueError,
                       Catch::Matchers::Message("RawKernel add: negative dimensions are not allowed"));
  CHECK_THROWS_MATCHES(loom::RawKernel(kAdd, ""), loom::ValueError,
                       Catch::Matchers::Message("RawKernel: the kernel name is empty"));
  CHECK_THROWS_AS(add({1}, {32}, {Array()}), loom::ValueError);  // an empty handle
}

TEST_CASE("a raw module instantiates templates through name expressions", "[kernels]") {
  const loom::RawModule mod(R"(
#include <cooperative_groups.h>
template <class T> __global__ void scale(const T* x, T* y, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * s;
}
extern "C" __global__ void plain(float* y) { y[0] = 1; }
)",
                            {.options = {"-DUNUSED=1"}}, {"scale<float>", "scale<double>"});
  if (loom::device_count() > 0) return;
  const loom::RawKernel f = mod.get_function("scale<float>");
  CHECK(f.name() == "scale<float>");
  const Array x = loom::arange(4).astype(DType::Float32);
  const auto y = f({1}, {32}, {x, loom::Out{{4}, DType::Float32}, 2.0f, 4});
  CHECK(y.size() == 1);
  CHECK_THROWS_AS(mod.get_global("nothing"), loom::Error);
  // A name expression NVRTC cannot instantiate fails to compile.
  const loom::RawModule wrong("template <int N> __global__ void k() {}", {}, {"k<float>"});
  CHECK_THROWS_AS(wrong.get_function("k<float>"), loom::CompileError);
}
