// RawKernel and RawModule on the GPU: launches against values computed on the host (strided and
// computed inputs arrive C-contiguous, InOut arrays start as copies, scalars by value), CuPy's
// bincount seed example with atomicAdd, templates through name expressions, a module's globals,
// cooperative launches, launches with no outputs, errors, and the module caches.

#include <catch2/catch.hpp>

#include <cstring>

#include <cuda_runtime_api.h>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;

namespace {

const char* kAffine = R"(extern "C" __global__ void affine(const float* x, const double* y, float* z, double a,
                                           long long n, int b) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = (float)(a * x[i] + y[i]) + b;
})";

}  // namespace

TEST_CASE("a raw kernel reads C-contiguous inputs and writes new arrays", "[gpu][kernels]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(161);
  const std::int64_t rows = 300, cols = 257, n = rows * cols;
  const Array base = loom::test::random_array(DType::Float32, {cols, rows}, rng).eval();
  const Array x = base.T();  // strided: copied C-contiguous before the launch
  const Array y = loom::test::random_array(DType::Float64, {rows, cols}, rng) * 2;  // computed first
  const loom::RawKernel k(kAffine, "affine");
  const auto out = k({static_cast<unsigned>((n + 127) / 128)}, {128},
                     {x, y, loom::Out{{rows, cols}, DType::Float32}, 1.5, std::int64_t{n}, 3});
  REQUIRE(out.size() == 1);
  const auto xh = x.to_host<float>();
  const auto yh = y.to_host<double>();
  const auto zh = out[0].to_host<float>();
  REQUIRE(zh.size() == static_cast<std::size_t>(n));
  int bad = 0;
  for (std::size_t i = 0; i < zh.size(); ++i) bad += zh[i] != static_cast<float>(1.5 * xh[i] + yh[i]) + 3;
  CHECK(bad == 0);
  // What the launch writes fuses with what follows (the call is a barrier, its result a leaf).
  CHECK(loom::test::check_gpu(out[0] * 2 + x) == "");
}

TEST_CASE("CuPy's bincount seed example runs as a raw kernel with atomicAdd", "[gpu][kernels]") {
  std::mt19937_64 rng(162);
  const std::int64_t n = 1 << 20, bins = 1000;
  (void)rng;
  const Array v = loom::random::integers(0, bins, {n}, DType::Int32).eval();
  const loom::RawKernel count(R"(extern "C" __global__ void count(const int* x, int n, int* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[x[i]], 1);
})",
                              "count");
  const Array zeros = loom::zeros({bins}, DType::Int32);
  const auto r = count({256}, {256}, {v, static_cast<int>(n), loom::InOut{zeros}});
  REQUIRE(r.size() == 1);
  CHECK(r[0].to_host<std::int32_t>() == loom::bincount(v).astype(DType::Int32).to_host<std::int32_t>());
  CHECK(zeros.to_host<std::int32_t>() == std::vector<std::int32_t>(bins, 0));  // InOut copied it
  // InOut of a computed array starts from its values.
  const auto twice = count({256}, {256}, {v, static_cast<int>(n), loom::InOut{r[0] * 0 + 5}});
  CHECK(twice[0].to_host<std::int32_t>() == (loom::bincount(v).astype(DType::Int32) + 5).to_host<std::int32_t>());
}

TEST_CASE("a raw module gives template instances, globals and cooperative launches", "[gpu][kernels]") {
  const loom::RawModule mod(R"(
#include <cooperative_groups.h>
__device__ int hits;
__device__ float table[4] = {1, 2, 3, 4};
template <class T> __global__ void scale(const T* x, T* y, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * s;
}
extern "C" __global__ void touch() { atomicAdd(&hits, 1); }
extern "C" __global__ void two_phase(float* y, float* z, int n) {
  namespace cg = cooperative_groups;
  cg::grid_group g = cg::this_grid();
  int i = g.thread_rank();
  if (i < n) y[i] = i;
  g.sync();
  if (i < n) z[i] = y[i] + y[(i + 1) % n];
}
)",
                            {.enable_cooperative_groups = true}, {"scale<float>", "scale<double>"});
  const Array xf = loom::arange(100).astype(DType::Float32);
  const Array xd = loom::arange(100).astype(DType::Float64);
  const auto yf = mod.get_function("scale<float>")({1}, {128}, {xf, loom::Out{{100}, DType::Float32}, 0.5f, 100});
  const auto yd = mod.get_function("scale<double>")({1}, {128}, {xd, loom::Out{{100}, DType::Float64}, 3.0, 100});
  CHECK(yf[0].to_host<float>() == (xf * 0.5f).to_host<float>());
  CHECK(yd[0].to_host<double>() == (xd * 3.0).to_host<double>());
  // A launch with no outputs runs at once: its effect is on the module's global.
  const loom::DeviceSymbol hits = mod.get_global("hits");
  CHECK(hits.nbytes == sizeof(int));
  CHECK(mod.get_function("touch")({4}, {32}, {}).empty());
  loom::synchronize();
  int h = 0;
  REQUIRE(cudaMemcpy(&h, hits.ptr, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h == 128);
  CHECK(mod.get_global("table").nbytes == 4 * sizeof(float));
  // Cooperative: a grid-wide barrier between the two phases.
  const int n = 4 * 256;
  // (The second phase writes another array: reading y while it is written would race.)
  const auto y = mod.get_function("two_phase")({4}, {256}, {loom::Out{{n}, DType::Float32}, loom::Out{{n}, DType::Float32}, n});
  const auto yh = y[1].to_host<float>();
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += yh[static_cast<std::size_t>(i)] != static_cast<float>(i + (i + 1) % n);
  CHECK(bad == 0);
  CHECK_THROWS_MATCHES(mod.get_function("nothing"), loom::ValueError,
                       Catch::Matchers::Message("RawModule: the module has no kernel named 'nothing'"));
  CHECK_THROWS_MATCHES(mod.get_global("nothing"), loom::ValueError,
                       Catch::Matchers::Message("RawModule: the module has no __device__ variable named 'nothing'"));
  CHECK(mod.get_function("touch").num_regs() > 0);
  CHECK(mod.get_function("touch").max_threads_per_block() >= 256);
}

TEST_CASE("raw kernels compile once for every launch and scalar", "[gpu][kernels]") {
  const loom::RawKernel k(kAffine, "affine");
  const Array x = loom::ones({64}, DType::Float32), y = loom::ones({64}, DType::Float64);
  (void)k({1}, {64}, {x, y, loom::Out{{64}, DType::Float32}, 1.0, std::int64_t{64}, 0})[0].eval();
  const auto before = loom::cache_stats().compiles;
  for (int s = 0; s < 5; ++s) {
    const auto z = k({1}, {64}, {x, y, loom::Out{{64}, DType::Float32}, double(s), std::int64_t{64}, s});
    CHECK(z[0].to_host<float>() == std::vector<float>(64, static_cast<float>(s + 1 + s)));
  }
  const loom::RawKernel same(kAffine, "affine");
  (void)same({1}, {64}, {x, y, loom::Out{{64}, DType::Float32}, 1.0, std::int64_t{64}, 0})[0].eval();
  CHECK(loom::cache_stats().compiles == before);
  // Errors at the launch's line on the GPU too.
  const loom::RawKernel wrong_name(kAffine, "affine2");
  CHECK_THROWS_MATCHES(wrong_name({1}, {64}, {x}), loom::ValueError,
                       Catch::Matchers::Message("RawKernel affine2: the module has no kernel named 'affine2'"));
  const loom::RawKernel bad("extern \"C\" __global__ void f() { nope(); }", "f");
  CHECK_THROWS_AS(bad({1}, {1}, {}), loom::CompileError);
}

TEST_CASE("clear_memory_cache unloads user kernels too, and a kernel still held loads again", "[gpu][kernels]") {
  const loom::RawKernel k(kAffine, "affine");
  const Array x = loom::ones({64}, DType::Float32), y = loom::ones({64}, DType::Float64);
  const auto run = [&](int b) {
    return k({1}, {64}, {x, y, loom::Out{{64}, DType::Float32}, 2.0, std::int64_t{64}, b})[0].to_host<float>();
  };
  CHECK(run(1) == std::vector<float>(64, 4.0f));
  const auto generated = (x * 3 + 1).to_host<float>();  // a generated kernel beside it
  loom::clear_memory_cache();
  // The kernel still held loads its module again (it was unloaded); the generated kernel comes
  // back from the disk cache (or NVRTC when it is off), not from memory: the service forgot it.
  const auto before = loom::cache_stats();
  CHECK(run(2) == std::vector<float>(64, 5.0f));
  CHECK((x * 3 + 1).to_host<float>() == generated);
  const auto after = loom::cache_stats();
  CHECK(after.disk_hits + after.compiles >= before.disk_hits + before.compiles + 1);
}
