// Compile-path costs: cold NVRTC compiles of generated-looking elementwise kernels (f32, and f16
// with cuda_fp16.h), disk-cache store and warm load, and, with a GPU, loading a cubin and getting
// its kernel. Usage: bench_compile [out.json] [num_compiles]. PERF.md targets: cold compile
// <= 80 ms median, warm disk-cache load <= 0.2 ms.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "runtime/device.hpp"
#include "runtime/disk_cache.hpp"
#include "runtime/module.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Stats {
  std::string name;
  int n = 0;
  double median_ms = 0, p95_ms = 0, min_ms = 0, max_ms = 0;
};

Stats summarize(std::string name, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  Stats s;
  s.name = std::move(name);
  s.n = static_cast<int>(ms.size());
  const std::size_t n = ms.size();
  s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  s.p95_ms = ms[std::min(n - 1, static_cast<std::size_t>(0.95 * static_cast<double>(n)))];
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  return s;
}

// What codegen emits for `maximum(0, x * s0) + log1p(exp(-abs(y))) ...`: one const per node, a
// 64-bit grid-stride loop. `salt` changes the name and a comment, so no two sources are equal.
loom::rt::CompileRequest elementwise_kernel(int salt, bool half, int cc_major, int cc_minor) {
  const std::string t = half ? "__half" : "float";
  const std::string suffix = half ? "f16" : "f32";
  const std::string name =
      fmt::format("loom_ew_mul_max_abs_neg_exp_log1p_add_sqrt_{}_{:08x}", suffix, 0x7f3a0000 + salt);
  const std::string load0 = half ? "__half2float(in0[i])" : "in0[i]";
  const std::string load1 = half ? "__half2float(in1[i])" : "in1[i]";
  const std::string store = half ? "__float2half(v9)" : "v9";
  std::string src;
  if (half) src += "#include <cuda_fp16.h>\n";
  src += fmt::format(R"(// {name}
// out0 = sqrt(maximum(0, in0 * s0) + log1p(exp(-abs(in1)))) (bench salt {salt})
extern "C" __global__ void {name}(const {t}* __restrict__ in0, const {t}* __restrict__ in1,
                                  {t}* __restrict__ out0, float s0, long long n) {{
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {{
    const float v0 = {load0};  // load in0
    const float v1 = {load1};  // load in1
    const float v2 = v0 * s0;  // mul
    const float v3 = fmaxf(0.0f, v2);  // maximum
    const float v4 = fabsf(v1);  // abs
    const float v5 = -v4;  // neg
    const float v6 = expf(v5);  // exp
    const float v7 = log1pf(v6);  // log1p
    const float v8 = v3 + v7;  // add
    const float v9 = sqrtf(v8);  // sqrt
    out0[i] = {store};  // store out0
  }}
}}
)",
                     fmt::arg("name", name), fmt::arg("salt", salt), fmt::arg("t", t),
                     fmt::arg("load0", load0), fmt::arg("load1", load1),
                     fmt::arg("store", store));
  loom::rt::CompileRequest r;
  r.source = std::move(src);
  r.kernel_name = name;
  r.cc_major = cc_major;
  r.cc_minor = cc_minor;
  r.needs_cuda_include = half;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "";
  const int num_compiles = argc > 2 ? std::max(3, std::atoi(argv[2])) : 21;
  const bool gpu = loom::rt::has_gpu();
  int cc_major = 9, cc_minor = 0;
  std::string device = "none (compiling for sm_90)";
  if (gpu) {
    const auto& p = loom::rt::device_props(0);
    cc_major = p.cc_major;
    cc_minor = p.cc_minor;
    device = fmt::format("{} (sm_{}{})", p.name, cc_major, cc_minor);
  }
  std::vector<Stats> rows;
  int salt = 0;

  // The first compile in a process also pays for loading NVRTC's builtins.
  const auto first = loom::rt::compile_cubin(elementwise_kernel(salt++, false, cc_major, cc_minor));
  rows.push_back(summarize("first compile in process (f32)", {first.compile_ms}));

  for (const bool half : {false, true}) {
    std::vector<double> ms;
    for (int i = 0; i < num_compiles; ++i) {
      const auto t0 = Clock::now();
      const auto r = loom::rt::compile_cubin(elementwise_kernel(salt++, half, cc_major, cc_minor));
      ms.push_back(ms_since(t0));
      if (r.cubin.empty()) return 1;
    }
    rows.push_back(summarize(half ? "cold compile, f16 + cuda_fp16.h" : "cold compile, f32", ms));
  }

  // Disk cache on a fresh directory: store distinct keys, then load + verify them (page cache
  // warm, as on a second run of a program).
  const auto request = elementwise_kernel(salt++, false, cc_major, cc_minor);
  const auto cubin = loom::rt::compile_cubin(request).cubin;
  const std::string dir =
      fmt::format("{}/loom-bench-diskcache-{}", std::filesystem::temp_directory_path().string(),
                  static_cast<long long>(Clock::now().time_since_epoch().count()));
  {
    loom::rt::DiskCache cache(dir);
    constexpr int kEntries = 200;
    std::vector<loom::rt::Hash128> keys;
    for (int i = 0; i < kEntries; ++i) keys.push_back(loom::rt::hash128(fmt::format("entry {}", i)));
    std::vector<double> store_ms, load_ms, key_ms;
    for (const auto& k : keys) {
      const auto t0 = Clock::now();
      cache.store(k, cubin);
      store_ms.push_back(ms_since(t0));
    }
    const auto options = loom::rt::compile_options(request);
    const std::string version = loom::rt::nvrtc_version();
    for (int rep = 0; rep < 3; ++rep) {
      for (const auto& k : keys) {
        auto t0 = Clock::now();
        const auto key = loom::rt::disk_key(request.source, request.headers, version,
                                            cc_major, cc_minor, options);
        key_ms.push_back(ms_since(t0));
        (void)key;
        t0 = Clock::now();
        const auto got = cache.load(k);
        load_ms.push_back(ms_since(t0));
        if (!got || got->size() != cubin.size()) {
          std::fprintf(stderr, "disk cache load failed\n");
          return 1;
        }
      }
    }
    rows.push_back(summarize(fmt::format("disk cache store ({} B cubin)", cubin.size()), store_ms));
    rows.push_back(summarize("disk cache warm load + verify", load_ms));
    rows.push_back(summarize("disk key (hash source + options)", key_ms));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);

  if (gpu) {
    (void)cudaFree(nullptr);  // create the context outside the timings
    std::vector<double> ms;
    for (int i = 0; i < 100; ++i) {
      const auto t0 = Clock::now();
      auto k = loom::rt::load_kernel(cubin, request.kernel_name);
      ms.push_back(ms_since(t0));
      loom::rt::unload(k);
    }
    rows.push_back(summarize("cudaLibraryLoadData + GetKernel", ms));
  }

  std::printf("loom bench_compile: NVRTC %s, %u host threads, device: %s\n",
              loom::rt::nvrtc_version().c_str(), std::thread::hardware_concurrency(),
              device.c_str());
  std::printf("%-36s %5s %10s %10s %10s %10s\n", "case", "n", "median ms", "p95 ms", "min ms",
              "max ms");
  for (const Stats& s : rows) {
    std::printf("%-36s %5d %10.4f %10.4f %10.4f %10.4f\n", s.name.c_str(), s.n, s.median_ms,
                s.p95_ms, s.min_ms, s.max_ms);
  }
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << fmt::format("{{\n  \"bench\": \"compile\",\n  \"nvrtc\": \"{}\",\n  \"host_threads\": {},\n"
                       "  \"device\": \"{}\",\n  \"results\": [\n",
                       loom::rt::nvrtc_version(), std::thread::hardware_concurrency(), device);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Stats& s = rows[i];
      out << fmt::format("    {{\"case\": \"{}\", \"n\": {}, \"median_ms\": {:.5f}, \"p95_ms\": "
                         "{:.5f}, \"min_ms\": {:.5f}, \"max_ms\": {:.5f}}}{}\n",
                         s.name, s.n, s.median_ms, s.p95_ms, s.min_ms, s.max_ms,
                         i + 1 < rows.size() ? "," : "");
    }
    out << "  ]\n}\n";
  }
  return 0;
}
