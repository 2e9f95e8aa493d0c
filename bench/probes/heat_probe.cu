// Probe: how close a hand-written heat step (5-point stencil inside, zeros on the edges, 4096^2
// float32, a new array) comes to the copy ceiling, and what the generated kernel gives beside it.
// Hand-written; informs codegen's choices (bench/NOTES.md, "The heat kernel's floor"). Each
// variant event-timed over 20 back-to-back launches, median of 7, inputs rotated between two
// 64 MiB buffers; % is of a cudaMemcpy of the same 128 MiB timed the same way (the 1-GiB
// ceiling of the benchmarks is ~5% higher). Every variant's output is compared with the first.
//   nvcc -O3 -arch=sm_90 -std=c++17 -fmad=false bench/probes/heat_probe.cu -o heat_probe && ./heat_probe
// With a generated kernel (its source as loom's `source()` prints it, from its #include line,
// the kernel renamed `generated`; the Args fields as the heat step's plan names them):
//   ... -DGENERATED='"heat.cuh"' -Icodegen/prelude
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#ifdef GENERATED
namespace gen {
#include GENERATED
}
#endif

// One element a thread at a time, 4 a block's width (BW, or blockDim.x when 0) apart; with
// QUAL = __restrict__ the compiler may use the read-only path and reorder loads across stores.
#define SCALAR4(NAME, QUAL)                                                                        \
  template <int BW>                                                                                \
  __global__ void __launch_bounds__(256) NAME(const float* QUAL u, float* QUAL v, int n, int m) { \
    const int w = BW ? BW : (int)blockDim.x;                                                       \
    const int i = (int)blockIdx.x * w * 4 + threadIdx.x;                                           \
    if (i >= m) return;                                                                            \
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < n; row += gridDim.y * blockDim.y) { \
      const float* b = u + row * m;                                                                \
      const bool rin = row > 0 && row < n - 1;                                                     \
      float z[4];                                                                                  \
      if (i + 3 * w < m) {                                                                         \
        _Pragma("unroll") for (int e = 0; e < 4; ++e) {                                            \
          const int k = i + e * w;                                                                 \
          float r = 0.0f;                                                                          \
          if (rin && k > 0 && k < m - 1) {                                                         \
            const float c = b[k];                                                                  \
            r = c + 0.1f * (b[k - m] + b[k + m] + b[k - 1] + b[k + 1] - 4.0f * c);                 \
          }                                                                                        \
          z[e] = r;                                                                                \
        }                                                                                          \
        _Pragma("unroll") for (int e = 0; e < 4; ++e) v[row * m + i + e * w] = z[e];               \
      }                                                                                            \
    }                                                                                              \
  }
SCALAR4(scalar4, )
SCALAR4(scalar4_restrict, __restrict__)

// Four adjacent elements a thread: the rows above and below and the centre as 16-byte loads, the
// left and right neighbours one element each.
__global__ void __launch_bounds__(256) vector4(const float* __restrict__ u, float* __restrict__ v, int n, int m) {
  const int i = ((int)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= m) return;
  for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < n; row += gridDim.y * blockDim.y) {
    const float* b = u + row * m;
    float z[4] = {0, 0, 0, 0};
    if (row > 0 && row < n - 1) {
      if (i > 0 && i + 4 < m) {
        const float4 c = *reinterpret_cast<const float4*>(b + i);
        const float4 up = *reinterpret_cast<const float4*>(b + i - m);
        const float4 dn = *reinterpret_cast<const float4*>(b + i + m);
        const float l = b[i - 1], r = b[i + 4];
        z[0] = c.x + 0.1f * (up.x + dn.x + l + c.y - 4.0f * c.x);
        z[1] = c.y + 0.1f * (up.y + dn.y + c.x + c.z - 4.0f * c.y);
        z[2] = c.z + 0.1f * (up.z + dn.z + c.y + c.w - 4.0f * c.z);
        z[3] = c.w + 0.1f * (up.w + dn.w + c.z + r - 4.0f * c.w);
      } else {
        for (int e = 0; e < 4; ++e) {
          const int k = i + e;
          if (k > 0 && k < m - 1) z[e] = b[k] + 0.1f * (b[k - m] + b[k + m] + b[k - 1] + b[k + 1] - 4.0f * b[k]);
        }
      }
    }
    *reinterpret_cast<float4*>(v + row * m + i) = make_float4(z[0], z[1], z[2], z[3]);
  }
}

int main() {
  const int n = 4096, m = 4096;
  const size_t count = (size_t)n * m;
  float *u[2], *out;
  for (auto& p : u) cudaMalloc(&p, count * 4);
  cudaMalloc(&out, count * 4);
  std::vector<float> h(count), ref(count), got(count);
  for (size_t k = 0; k < count; ++k) h[k] = (float)((k * 2654435761u) % 1000) / 1000.0f;
  for (auto& p : u) cudaMemcpy(p, h.data(), count * 4, cudaMemcpyHostToDevice);
  cudaEvent_t a0, a1;
  cudaEventCreate(&a0);
  cudaEventCreate(&a1);
  const auto timeit = [&](auto launch) {
    for (int w = 0; w < 3; ++w) launch(0);
    std::vector<float> ts;
    for (int t = 0; t < 7; ++t) {
      cudaEventRecord(a0);
      for (int r = 0; r < 20; ++r) launch(r & 1);
      cudaEventRecord(a1);
      cudaEventSynchronize(a1);
      float ms = 0;
      cudaEventElapsedTime(&ms, a0, a1);
      ts.push_back(ms * 1000 / 20);
    }
    std::sort(ts.begin(), ts.end());
    return ts[3];
  };
  const double copy_us = timeit([&](int s) { cudaMemcpyAsync(out, u[s], count * 4, cudaMemcpyDeviceToDevice); });
  std::printf("cudaMemcpy of 128 MiB (read + write): %.2f us\n", copy_us);
  bool first = true;
  const auto report = [&](const char* name, double us) {
    cudaMemcpy(got.data(), out, count * 4, cudaMemcpyDeviceToHost);
    if (first) ref = got;
    first = false;
    double diff = 0;
    for (size_t k = 0; k < count; ++k) diff = std::max(diff, (double)std::fabs(got[k] - ref[k]));
    std::printf("%-44s %8.2f us %6.1f%% of the copy  max diff %.3g  %s\n", name, us, 100 * copy_us / us, diff,
                cudaGetErrorString(cudaGetLastError()));
  };
  const dim3 block(256), rows4(m / 1024, n);
  report("scalar, 4 a thread, width 256, restrict", timeit([&](int s) { scalar4_restrict<256><<<rows4, block>>>(u[s], out, n, m); }));
  report("scalar, 4 a thread, width 256", timeit([&](int s) { scalar4<256><<<rows4, block>>>(u[s], out, n, m); }));
  report("scalar, 4 a thread, width blockDim.x, restrict", timeit([&](int s) { scalar4_restrict<0><<<rows4, block>>>(u[s], out, n, m); }));
  report("scalar, 4 a thread, width blockDim.x", timeit([&](int s) { scalar4<0><<<rows4, block>>>(u[s], out, n, m); }));
  report("16-byte vectors, neighbours lane by lane", timeit([&](int s) { vector4<<<rows4, block>>>(u[s], out, n, m); }));
#ifdef GENERATED
  gen::Args args[2]{};
  for (int s = 0; s < 2; ++s) {  // the heat step's plan: column and row aranges, 5 boxes, 6 reads of u
    gen::Args& a = args[s];
    a.out0 = out;
    a.g0_step = 1;
    a.s1 = m - 1;
    a.s3 = 1;
    a.g4_step = 1;
    a.g4_st0 = 1;
    a.s5 = n - 1;
    a.s6 = 1;
    a.s8 = 0.1f;
    a.s13 = 4.0;
    a.in7 = u[s];  // the centre; its left and right neighbours and the base share its pointer
    a.in9 = u[s] - m;
    a.in10 = u[s] + m;
    a.in7_st0 = a.in9_st0 = a.in10_st0 = m;
    a.rows = n;
    a.inner = m;
  }
  report("generated", timeit([&](int s) { gen::generated<<<rows4, block>>>(args[s]); }));
#endif
  return 0;
}
