// NVRTC compilation to cubin (needs no GPU), and loading/launching a cubin (a real launch where a
// GPU is present, a clean CudaError where none is).

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_support.hpp"

#include <loom/errors.hpp>

#include "runtime/device.hpp"
#include "runtime/hash.hpp"
#include "runtime/module.hpp"
#include "runtime/nvrtc_compile.hpp"

using Catch::Matchers::Contains;
using loom::rt::CompileRequest;
using loom::test::WhatContains;

namespace {

// Catch2 v2's REQUIRE_THROWS_MATCHES needs a matcher of the exception itself; this one matches a
// substring of what(), and composes with &&.

const char* const kAxpy = R"(// out0 = in0 * s0 + in1
extern "C" __global__ void loom_test_axpy_f32(const float* __restrict__ in0,
                                              const float* __restrict__ in1,
                                              float* __restrict__ out0, float s0, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v0 = in0[i];   // load
  const float v1 = in1[i];   // load
  const float v2 = v0 * s0;  // mul
  out0[i] = v2 + v1;         // add
}
)";

bool is_elf(const std::vector<char>& bytes) {
  return bytes.size() > 4 && std::memcmp(bytes.data(), "\x7f" "ELF", 4) == 0;
}

CompileRequest axpy_request() {
  CompileRequest r;
  r.source = kAxpy;
  r.kernel_name = "loom_test_axpy_f32";
  return r;
}

}  // namespace

TEST_CASE("an elementwise kernel compiles to an sm_90 cubin", "[nvrtc]") {
  const auto result = loom::rt::compile_cubin(axpy_request());
  REQUIRE(is_elf(result.cubin));
  REQUIRE(result.cubin.size() > 512);
  REQUIRE(result.compile_ms > 0);
  // The cubin holds the unmangled name the loader will look up.
  const std::string bytes(result.cubin.begin(), result.cubin.end());
  REQUIRE(bytes.find("loom_test_axpy_f32") != std::string::npos);
}

TEST_CASE("other architectures compile, and an unknown one is refused by name", "[nvrtc]") {
  auto r = axpy_request();
  r.cc_major = 8;
  r.cc_minor = 0;
  REQUIRE(is_elf(loom::rt::compile_cubin(r).cubin));
  r.cc_major = 1;
  r.cc_minor = 3;
  REQUIRE_THROWS_MATCHES(loom::rt::compile_cubin(r), loom::CudaError,
                         WhatContains("cannot compile for sm_13") && WhatContains("sm_90"));
}

TEST_CASE("a kernel including cuda_fp16.h compiles with needs_cuda_include", "[nvrtc]") {
  CompileRequest r;
  r.kernel_name = "loom_test_half_scale";
  r.source = R"(#include <cuda_fp16.h>
extern "C" __global__ void loom_test_half_scale(const __half* in0, __half* out0, float s0, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out0[i] = __float2half(__half2float(in0[i]) * s0);
}
)";
  r.needs_cuda_include = true;
  const auto result = loom::rt::compile_cubin(r);
  REQUIRE(is_elf(result.cubin));
  const auto options = loom::rt::compile_options(r);
  REQUIRE(std::find(options.begin(), options.end(), "-I" + loom::rt::cuda_include_dir()) !=
          options.end());
}

TEST_CASE("in-memory headers can be included", "[nvrtc]") {
  const std::string prelude = "#pragma once\n__device__ inline float loom_sq(float x) { return x * x; }\n";
  CompileRequest r;
  r.kernel_name = "loom_test_sq";
  r.source = R"(#include "loom_prelude.cuh"
extern "C" __global__ void loom_test_sq(float* out0) { out0[threadIdx.x] = loom_sq(out0[threadIdx.x]); }
)";
  r.headers.push_back({"loom_prelude.cuh", prelude});
  REQUIRE(is_elf(loom::rt::compile_cubin(r).cubin));
}

TEST_CASE("a syntax error throws CompileError with the log and numbered source", "[nvrtc]") {
  CompileRequest r;
  r.kernel_name = "loom_test_broken";
  r.source = "extern \"C\" __global__ void loom_test_broken(float* out0) {\n"
             "  const float v0 = out0[0];\n"
             "  const float v1 = v0 * ;\n"
             "  out0[0] = v1;\n"
             "}\n";
  try {
    loom::rt::compile_cubin(r);
    FAIL("compile_cubin accepted a syntax error");
  } catch (const loom::CompileError& e) {
    const std::string what = e.what();
    REQUIRE_THAT(what, Contains("NVRTC failed to compile loom_test_broken:"));
    REQUIRE_THAT(what, Contains("loom_test_broken.cu(3): error"));
    REQUIRE_THAT(what, Contains("   3 |   const float v1 = v0 * ;"));
    REQUIRE_THAT(e.log(), Contains("expected an expression"));
    REQUIRE(e.source() == r.source);
  }
  REQUIRE_THROWS_MATCHES(loom::rt::compile_cubin(r), loom::CompileError,
                         WhatContains("NVRTC failed to compile loom_test_broken:") &&
                             WhatContains("   3 |   const float v1 = v0 * ;"));
}

TEST_CASE("an unknown option is a CompileError naming it", "[nvrtc]") {
  auto r = axpy_request();
  r.extra_options.push_back("--no-such-option");
  REQUIRE_THROWS_MATCHES(loom::rt::compile_cubin(r), loom::CompileError,
                         WhatContains("--no-such-option"));
}

TEST_CASE("compile options: the arch, the standard, fmad, no fast math", "[nvrtc]") {
  auto r = axpy_request();
  r.cc_major = 8;
  r.cc_minor = 6;
  r.extra_options = {"-lineinfo"};
  const auto options = loom::rt::compile_options(r);
  REQUIRE(options == std::vector<std::string>{"--gpu-architecture=sm_86", "-std=c++17",
                                              "-default-device", "--fmad=false", "-lineinfo"});
  REQUIRE(std::none_of(options.begin(), options.end(),
                       [](const std::string& o) { return o.find("fast") != std::string::npos; }));
}

TEST_CASE("nvrtc_version and cuda_include_dir", "[nvrtc]") {
  const std::string v = loom::rt::nvrtc_version();
  REQUIRE(v.find('.') != std::string::npos);
  REQUIRE(std::stoi(v) >= 12);
  const std::string dir = loom::rt::cuda_include_dir();
  REQUIRE_FALSE(dir.empty());
}

TEST_CASE("number_lines right-aligns line numbers", "[nvrtc]") {
  REQUIRE(loom::rt::number_lines("a\nb\n") == "   1 | a\n   2 | b\n");
  REQUIRE(loom::rt::number_lines("x") == "   1 | x\n");
}

TEST_CASE("hash128 and Hasher", "[nvrtc]") {
  const auto a = loom::rt::hash128("abc");
  REQUIRE(a == loom::rt::hash128("abc"));
  REQUIRE_FALSE(a == loom::rt::hash128("abd"));
  REQUIRE(a.hex().size() == 32);
  REQUIRE(a.hex().find_first_not_of("0123456789abcdef") == std::string::npos);
  loom::rt::Hasher h1, h2, h3;
  h1.add("ab").add("c");
  h2.add("a").add("bc");
  h3.add("ab").add("c");
  REQUIRE_FALSE(h1.digest() == h2.digest());  // fields are length-prefixed
  REQUIRE(h1.digest() == h3.digest());
  loom::rt::Hasher n1, n2;
  n1.add(std::uint64_t{1});
  n2.add(2);
  REQUIRE_FALSE(n1.digest() == n2.digest());
}

TEST_CASE("loading and launching a compiled cubin", "[nvrtc][module]") {
  const auto result = loom::rt::compile_cubin(axpy_request());
  if (!loom::rt::has_gpu()) {
    // No device: a clean CudaError that names the kernel, never a crash.
    REQUIRE_THROWS_MATCHES(loom::rt::load_kernel(result.cubin, "loom_test_axpy_f32"),
                           loom::CudaError, WhatContains("loom_test_axpy_f32"));
    return;
  }
  const auto& props = loom::rt::device_props(0);
  auto r = axpy_request();
  r.cc_major = props.cc_major;
  r.cc_minor = props.cc_minor;
  const auto native = loom::rt::compile_cubin(r);
  REQUIRE_THROWS_MATCHES(loom::rt::load_kernel(native.cubin, "no_such_kernel"), loom::CudaError,
                         WhatContains("cudaLibraryGetKernel") && WhatContains("no_such_kernel"));
  auto k = loom::rt::load_kernel(native.cubin, "loom_test_axpy_f32");
  REQUIRE(k.kernel != nullptr);

  constexpr int n = 1000;
  std::vector<float> a(n), b(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  void *da = nullptr, *db = nullptr, *dout = nullptr;  // the pool is not under test here
  REQUIRE(cudaMalloc(&da, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&db, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dout, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemset(dout, 0xff, n * sizeof(float)) == cudaSuccess);  // poison: NaN
  float s0 = 3.0f;
  int count = n;
  void* args[] = {&da, &db, &dout, &s0, &count};
  loom::rt::launch(k, dim3((n + 255) / 256), dim3(256), args, 0, nullptr);
  REQUIRE(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == a[i] * 3.0f + b[i]);
  // Too many threads per block: the launch status is reported with the kernel's name.
  REQUIRE_THROWS_MATCHES(loom::rt::launch(k, dim3(1), dim3(4096), args, 0, nullptr),
                         loom::CudaError, WhatContains("cudaLaunchKernel") &&
                                              WhatContains("loom_test_axpy_f32"));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
  loom::rt::unload(k);
  REQUIRE(k.library == nullptr);
  loom::rt::unload(k);  // twice is harmless
}
