// Probe: which launch shape reaches the copy ceiling for a streaming elementwise kernel
// (y = x * 2 + 1, float32, 2^26), and how a transposed operand fares tiled through shared memory
// (out = a + b.T, 8192^2). Hand-written; informs codegen's choices (bench/NOTES.md).
//   nvcc -O3 -arch=sm_90 bench/probes/ew_probe.cu -o ew_probe && ./ew_probe
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

template <int U>
__global__ void __launch_bounds__(256) ew_unroll(const float4* __restrict__ x, float4* __restrict__ y, long long n4) {
  const long long base = (long long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long i = base + (long long)u * blockDim.x;
    if (i < n4) v[u] = x[i];
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const long long i = base + (long long)u * blockDim.x;
    if (i < n4) y[i] = make_float4(v[u].x * 2.f + 1.f, v[u].y * 2.f + 1.f, v[u].z * 2.f + 1.f, v[u].w * 2.f + 1.f);
  }
}

__global__ void __launch_bounds__(256) ew_stride(const float4* __restrict__ x, float4* __restrict__ y, long long n4) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    const float4 v = x[i];
    y[i] = make_float4(v.x * 2.f + 1.f, v.y * 2.f + 1.f, v.z * 2.f + 1.f, v.w * 2.f + 1.f);
  }
}

// out[r][c] = a[r][c] + b[c][r]: naive (b read with stride n).
__global__ void add_t_naive(const float* a, const float* b, float* out, int n) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n) out[(long long)r * n + c] = a[(long long)r * n + c] + b[(long long)c * n + r];
}

// Tiled: a 32x32 tile of b read coalesced along its rows into shared memory, read back
// transposed. Block 32 x 8, each thread 4 rows.
template <int TILE, int ROWS>
__global__ void add_t_tiled(const float* a, const float* b, float* out, int n) {
  __shared__ float t[TILE][TILE + 1];
  const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
  for (int k = threadIdx.y; k < TILE; k += ROWS) {
    const int r = bx + k, c = by + threadIdx.x;  // b[r][c]: row index along out's columns
    if (r < n && c < n) t[k][threadIdx.x] = b[(long long)r * n + c];
  }
  __syncthreads();
  for (int k = threadIdx.y; k < TILE; k += ROWS) {
    const int r = by + k, c = bx + threadIdx.x;
    if (r < n && c < n) out[(long long)r * n + c] = a[(long long)r * n + c] + t[threadIdx.x][k];
  }
}

float time_ms(cudaEvent_t e0, cudaEvent_t e1) { float ms; cudaEventElapsedTime(&ms, e0, e1); return ms; }

template <class F> float bench(F f) {
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int i = 0; i < 3; ++i) f(i);
  std::vector<float> t;
  for (int i = 0; i < 20; ++i) { cudaEventRecord(e0); f(i); cudaEventRecord(e1); cudaEventSynchronize(e1); t.push_back(time_ms(e0, e1)); }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const long long n = 1ll << 26, n4 = n / 4;
  float *x[2], *y[2];
  for (int k = 0; k < 2; ++k) { CK(cudaMalloc(&x[k], n * 4)); CK(cudaMalloc(&y[k], n * 4)); cudaMemset(x[k], 0, n * 4); }
  const double bytes = 8.0 * n;
  const float copy = bench([&](int i) { cudaMemcpyAsync(y[i & 1], x[i & 1], n * 4, cudaMemcpyDeviceToDevice); });
  printf("%-44s %8.4f ms %7.1f GB/s\n", "cudaMemcpy 256 MiB", copy, bytes / copy / 1e6);
  auto row = [&](const char* name, float ms) { printf("%-44s %8.4f ms %7.1f GB/s %6.1f%%\n", name, ms, bytes / ms / 1e6, 100.0 * copy / ms); };
  row("unroll 1, block 256", bench([&](int i) { ew_unroll<1><<<(n4 + 255) / 256, 256>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  row("unroll 2, block 256", bench([&](int i) { ew_unroll<2><<<(n4 + 511) / 512, 256>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  row("unroll 4, block 256", bench([&](int i) { ew_unroll<4><<<(n4 + 1023) / 1024, 256>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  row("unroll 8, block 256", bench([&](int i) { ew_unroll<8><<<(n4 + 2047) / 2048, 256>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  row("unroll 1, block 128", bench([&](int i) { ew_unroll<1><<<(n4 + 127) / 128, 128>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  row("unroll 4, block 128", bench([&](int i) { ew_unroll<4><<<(n4 + 511) / 512, 128>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  for (int waves : {4, 8, 16, 32}) {
    char name[64]; snprintf(name, sizeof name, "grid-stride, %d blocks/SM of 256", waves);
    row(name, bench([&](int i) { ew_stride<<<sms * waves, 256>>>((float4*)x[i & 1], (float4*)y[i & 1], n4); }));
  }
  // Transposed operand, 8192^2: a, b read once, out written once.
  const int m = 8192;
  const double tbytes = 12.0 * m * m;
  auto trow = [&](const char* name, float ms) { printf("%-44s %8.4f ms %7.1f GB/s %6.1f%%\n", name, ms, tbytes / ms / 1e6, 100.0 * (tbytes / ms) / (bytes / copy)); };
  float* out; CK(cudaMalloc(&out, 4ll * m * m));
  trow("a + b.T naive 32x8", bench([&](int i) { add_t_naive<<<dim3(m / 32, m / 8), dim3(32, 8)>>>(x[i & 1], x[1 - (i & 1)], out, m); }));
  trow("a + b.T tiled 32x32, block 32x8", bench([&](int i) { add_t_tiled<32, 8><<<dim3(m / 32, m / 32), dim3(32, 8)>>>(x[i & 1], x[1 - (i & 1)], out, m); }));
  trow("a + b.T tiled 64x64, block 64x8", bench([&](int i) { add_t_tiled<64, 8><<<dim3(m / 64, m / 64), dim3(64, 8)>>>(x[i & 1], x[1 - (i & 1)], out, m); }));
  trow("a + b.T tiled 32x32, block 32x16", bench([&](int i) { add_t_tiled<32, 16><<<dim3(m / 32, m / 32), dim3(32, 16)>>>(x[i & 1], x[1 - (i & 1)], out, m); }));
  CK(cudaDeviceSynchronize());
  return 0;
}
