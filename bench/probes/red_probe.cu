// Probe: which launch shapes bring a float32 sum over 2^26 elements closest to the copy ceiling,
// for all elements, rows (8192^2 over axis 1, 64 rows of 2^20) and columns (8192^2 and
// 2^18 x 256 over axis 0); and what a cudaMemsetAsync of the tickets costs per call.
// Hand-written; informs codegen's choices (bench/NOTES.md). Each variant: event-timed over 50
// back-to-back launches (kernel alone) and wall time with a synchronize after each call (the
// benchmarks' figure), inputs rotated between two 256 MiB buffers.
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/probes/red_probe.cu -o red_probe && ./red_probe
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) {                                                \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                  \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

namespace {

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <int T>
__device__ __forceinline__ float block_sum(float v, float* sh) {
  v = warp_sum(v);
  if (T == 32) return v;
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (l == 0) sh[w] = v;
  __syncthreads();
  v = threadIdx.x < T / 32 ? sh[threadIdx.x] : 0.f;
  if (w == 0) v = warp_sum(v);
  return v;
}

// The last block of `blocks` sharing ticket `t` sums their partials; it resets the ticket, so
// the buffer needs zeroing once, not per launch.
template <int T>
__device__ __forceinline__ bool last_merge(float s, float* part, unsigned* t, int idx, int blocks, float* sh,
                                           float& out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    part[idx] = s;
    __threadfence();
    last = atomicAdd(t, 1u) == (unsigned)blocks - 1;
  }
  __syncthreads();
  if (!last) return false;
  __threadfence();
  float m = 0.f;
  for (int g = threadIdx.x; g < blocks; g += T) m += __ldcg(part + (idx - idx % blocks) + g);
  __syncthreads();
  m = block_sum<T>(m, sh);
  if (threadIdx.x == 0) {
    out = m;
    *t = 0;
  }
  return true;
}

// U 16-byte loads at i + u * T (those below e), all issued before the sum uses them.
template <int T, int U, typename I>
__device__ __forceinline__ float load_sum(const float4* __restrict__ x, I i, I e) {
  float4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) v[u] = i + u * T < e ? x[i + u * T] : make_float4(0, 0, 0, 0);
  float s = 0.f;
#pragma unroll
  for (int u = 0; u < U; ++u) s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  return s;
}

// All of x: block b reads a contiguous chunk, U 16-byte loads in flight per thread.
template <int T, int U>
__global__ void __launch_bounds__(T) full_chunk(const float4* __restrict__ x, long long n4, float* part, unsigned* t,
                                               float* out) {
  __shared__ float sh[32];
  const long long chunk = (n4 + gridDim.x - 1) / gridDim.x;
  const long long b = blockIdx.x * chunk, e = min(n4, b + chunk);
  float s = 0.f;
  for (long long i = b + threadIdx.x; i < e; i += (long long)U * T) {
    s += load_sum<T, U>(x, i, e);
  }
  s = block_sum<T>(s, sh);
  float o;
  if (last_merge<T>(s, part, t, blockIdx.x, gridDim.x, sh, o) && threadIdx.x == 0) *out = o;
}

// All of x: tiles of U*T vectors dealt round-robin over the blocks.
template <int T, int U>
__global__ void __launch_bounds__(T) full_stride(const float4* __restrict__ x, long long n4, float* part, unsigned* t,
                                                float* out) {
  __shared__ float sh[32];
  float s = 0.f;
  for (long long i = (long long)blockIdx.x * U * T + threadIdx.x; i < n4; i += (long long)gridDim.x * U * T) {
    s += load_sum<T, U>(x, i, n4);
  }
  s = block_sum<T>(s, sh);
  float o;
  if (last_merge<T>(s, part, t, blockIdx.x, gridDim.x, sh, o) && threadIdx.x == 0) *out = o;
}

// Rows of n4 vectors: block per row (grid-stride over rows), U loads in flight per thread.
template <int T, int U>
__global__ void __launch_bounds__(T) rows_block(const float4* __restrict__ x, int rows, int n4, float* out) {
  __shared__ float sh[32];
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    const float4* row = x + (long long)r * n4;
    float s = 0.f;
    for (int i = threadIdx.x; i < n4; i += U * T) {
      s += load_sum<T, U>(row, i, n4);
    }
    s = block_sum<T>(s, sh);
    if (threadIdx.x == 0) out[r] = s;
    __syncthreads();
  }
}

// Rows: a warp per row, 8 warps a block.
template <int U>
__global__ void __launch_bounds__(256) rows_warp(const float4* __restrict__ x, int rows, int n4, float* out) {
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  for (int r = blockIdx.x * 8 + w; r < rows; r += gridDim.x * 8) {
    const float4* row = x + (long long)r * n4;
    float s = 0.f;
    for (int i = l; i < n4; i += U * 32) {
      s += load_sum<32, U>(row, i, n4);
    }
    s = warp_sum(s);
    if (l == 0) out[r] = s;
  }
}

// Long rows split: blockIdx.y a row, blockIdx.x a chunk of it.
template <int T, int U>
__global__ void __launch_bounds__(T) rows_split(const float4* __restrict__ x, int n4, float* part, unsigned* t,
                                               float* out) {
  __shared__ float sh[32];
  const float4* row = x + (long long)blockIdx.y * n4;
  const int chunk = (n4 + gridDim.x - 1) / gridDim.x;
  const int b = blockIdx.x * chunk, e = min(n4, b + chunk);
  float s = 0.f;
  for (int i = b + threadIdx.x; i < e; i += U * T) {
    s += load_sum<T, U>(row, i, e);
  }
  s = block_sum<T>(s, sh);
  float o;
  if (last_merge<T>(s, part, t + blockIdx.y, blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, sh, o) &&
      threadIdx.x == 0)
    out[blockIdx.y] = o;
}

// Columns: a block is 32 lanes x 8 row slots over 128 adjacent columns (a float4 per lane);
// blockIdx.y splits the rows; the last block of a tile merges. U row steps in flight.
template <int U, bool kMerge>
__global__ void __launch_bounds__(256) cols_tile(const float* __restrict__ x, int rows, int cols, float4* part,
                                                 unsigned* t, float* out) {
  __shared__ float4 sh[8][32];
  __shared__ bool last;
  const int l = threadIdx.x % 32, s = threadIdx.x / 32;
  const int c = blockIdx.x * 128 + l * 4;
  const int chunk = (rows + gridDim.y - 1) / gridDim.y;
  const int rb = blockIdx.y * chunk, re = min(rows, rb + chunk);
  float4 acc = make_float4(0, 0, 0, 0);
  for (int r = rb + s; r < re; r += 8 * U) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      v[u] = r + 8 * u < re ? *reinterpret_cast<const float4*>(x + (long long)(r + 8 * u) * cols + c)
                            : make_float4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < U; ++u) acc.x += v[u].x, acc.y += v[u].y, acc.z += v[u].z, acc.w += v[u].w;
  }
  sh[s][l] = acc;
  __syncthreads();
  if (s == 0) {
#pragma unroll
    for (int k = 1; k < 8; ++k) acc.x += sh[k][l].x, acc.y += sh[k][l].y, acc.z += sh[k][l].z, acc.w += sh[k][l].w;
  }
  if (gridDim.y == 1) {
    if (s == 0) *reinterpret_cast<float4*>(out + c) = acc;
    return;
  }
  const int tiles4 = cols / 4;
  if (s == 0) part[(long long)blockIdx.y * tiles4 + c / 4] = acc;
  if (!kMerge) return;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(t + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  float4 m = make_float4(0, 0, 0, 0);
  for (int g = s; g < (int)gridDim.y; g += 8) {
    const float4 p = __ldcg(part + (long long)g * tiles4 + c / 4);
    m.x += p.x, m.y += p.y, m.z += p.z, m.w += p.w;
  }
  __syncthreads();
  sh[s][l] = m;
  __syncthreads();
  if (s == 0) {
#pragma unroll
    for (int k = 1; k < 8; ++k) m.x += sh[k][l].x, m.y += sh[k][l].y, m.z += sh[k][l].z, m.w += sh[k][l].w;
    *reinterpret_cast<float4*>(out + c) = m;
    if (l == 0) t[blockIdx.x] = 0;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ceiling_gbs = 0;
cudaEvent_t ev0, ev1;

// f(k) launches on stream 0 with input set k.
void measure(const char* name, double bytes, const std::function<void(int)>& f) {
  for (int i = 0; i < 3; ++i) f(i % 2);
  CK(cudaDeviceSynchronize());
  CK(cudaGetLastError());
  std::vector<double> wall;
  for (int i = 0; i < 20; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f(i % 2);
    CK(cudaDeviceSynchronize());
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  const int reps = 50;
  CK(cudaEventRecord(ev0));
  for (int i = 0; i < reps; ++i) f(i % 2);
  CK(cudaEventRecord(ev1));
  CK(cudaEventSynchronize(ev1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, ev0, ev1));
  const double w = median(wall), g = ms / reps;
  std::printf("%-44s wall %8.4f ms %6.1f%% | gpu %8.4f ms %6.1f%%\n", name, w, 100 * bytes / w / 1e6 / ceiling_gbs, g,
              100 * bytes / g / 1e6 / ceiling_gbs);
}

int sm_count() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  return p.multiProcessorCount;
}

template <typename K>
int occupancy(K kernel, int threads) {
  int b = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, 0));
  return b;
}

}  // namespace

int main() {
  const long long n = 1LL << 26, bytes = 4 * n;
  float *x[2], *out, *part;
  unsigned* tick;
  CK(cudaMalloc(&x[0], bytes));
  CK(cudaMalloc(&x[1], bytes));
  CK(cudaMalloc(&out, 1 << 20));
  CK(cudaMalloc(&part, 64 << 20));
  CK(cudaMalloc(&tick, 1 << 20));
  CK(cudaMemset(tick, 0, 1 << 20));
  CK(cudaMemset(x[0], 0x3c, bytes));  // 0.0116 as float: finite, not zero
  CK(cudaMemset(x[1], 0x3d, bytes));
  CK(cudaEventCreate(&ev0));
  CK(cudaEventCreate(&ev1));
  {
    float* c = nullptr;
    CK(cudaMalloc(&c, 1LL << 30));
    std::vector<double> t;
    float* d = nullptr;
    CK(cudaMalloc(&d, 1LL << 30));
    for (int i = 0; i < 23; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      CK(cudaMemcpyAsync(d, c, 1LL << 30, cudaMemcpyDeviceToDevice));
      CK(cudaDeviceSynchronize());
      if (i >= 3) t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    ceiling_gbs = 2.0 * (1LL << 30) / median(t) / 1e6;
    CK(cudaFree(c));
    CK(cudaFree(d));
  }
  const int sms = sm_count();
  std::printf("SMs %d, copy ceiling %.1f GB/s\n", sms, ceiling_gbs);
  const long long n4 = n / 4;
  const auto* x4 = reinterpret_cast<const float4* const*>(x);
  char name[128];

  std::printf("\nall of 2^26 (occupancy: blocks per SM)\n");
  measure("empty launch + sync", 0, [&](int) { full_chunk<256, 4><<<1, 256>>>(x4[0], 0, part, tick, out); });
  measure("memsetAsync 4 bytes", 0, [&](int) { CK(cudaMemsetAsync(tick + 1000, 0, 4)); });
  auto full = [&](auto kernel, const char* what, int T) {
    const int occ = occupancy(kernel, T);
    for (int bps : {1, 2, 4, occ, 2 * occ}) {
      std::snprintf(name, sizeof name, "%s grid %d (%d/SM, occ %d)", what, bps * sms, bps, occ);
      measure(name, bytes, [&](int k) { kernel<<<bps * sms, T>>>(x4[k], n4, part, tick, out); });
    }
  };
  full(full_chunk<256, 4>, "chunk T256 U4", 256);
  full(full_chunk<256, 8>, "chunk T256 U8", 256);
  full(full_chunk<512, 4>, "chunk T512 U4", 512);
  full(full_chunk<1024, 2>, "chunk T1024 U2", 1024);
  full(full_stride<256, 4>, "stride T256 U4", 256);
  full(full_stride<256, 8>, "stride T256 U8", 256);
  full(full_stride<512, 4>, "stride T512 U4", 512);
  measure("chunk T256 U8 1056 + memset each call", bytes, [&](int k) {
    CK(cudaMemsetAsync(tick + 4096, 0, 4));
    full_chunk<256, 8><<<8 * sms, 256>>>(x4[k], n4, part, tick, out);
  });

  std::printf("\nrows: 8192 x 8192 over axis 1\n");
  const int rows = 8192, r4 = 8192 / 4;
  auto rowsb = [&](auto kernel, const char* what, int T) {
    const int occ = occupancy(kernel, T);
    for (int grid : {rows, occ * sms, 2 * occ * sms}) {
      std::snprintf(name, sizeof name, "%s grid %d (occ %d)", what, grid, occ);
      measure(name, bytes, [&](int k) { kernel<<<grid, T>>>(x4[k], rows, r4, out); });
    }
  };
  rowsb(rows_block<256, 8>, "block T256 U8", 256);
  rowsb(rows_block<256, 4>, "block T256 U4", 256);
  rowsb(rows_block<512, 4>, "block T512 U4", 512);
  rowsb(rows_block<1024, 2>, "block T1024 U2", 1024);
  for (int grid : {rows / 8, sms * 4, sms * 8}) {
    std::snprintf(name, sizeof name, "warp U8 grid %d", grid);
    measure(name, bytes, [&](int k) { rows_warp<8><<<grid, 256>>>(x4[k], rows, r4, out); });
    std::snprintf(name, sizeof name, "warp U4 grid %d", grid);
    measure(name, bytes, [&](int k) { rows_warp<4><<<grid, 256>>>(x4[k], rows, r4, out); });
  }

  std::printf("\nrows: 64 x 2^20 over axis 1\n");
  for (int split : {8, 16, 33, 66}) {
    std::snprintf(name, sizeof name, "split T256 U8 x %d", split);
    measure(name, bytes, [&](int k) { rows_split<256, 8><<<dim3(split, 64), 256>>>(x4[k], 1 << 18, part, tick, out); });
    std::snprintf(name, sizeof name, "split T512 U4 x %d", split);
    measure(name, bytes, [&](int k) { rows_split<512, 4><<<dim3(split, 64), 512>>>(x4[k], 1 << 18, part, tick, out); });
  }

  std::printf("\ncolumns over axis 0\n");
  for (int cols : {8192, 256, 2048, 16384}) {
    const int rws = static_cast<int>(n / cols), tiles = cols / 128;
    for (int want : {sms * 4, sms * 6, sms * 8, sms * 16}) {
      const int splits = std::max(1, std::min(want / tiles, rws / 64));
      for (int u : {2, 4}) {
        std::snprintf(name, sizeof name, "%d x %d tiles %d splits %d U%d", rws, cols, tiles, splits, u);
        auto* kern = u == 2 ? cols_tile<2, true> : cols_tile<4, true>;
        measure(name, bytes, [&](int k) {
          kern<<<dim3(tiles, splits), 256>>>(x[k], rws, cols, reinterpret_cast<float4*>(part), tick, out);
        });
      }
      std::snprintf(name, sizeof name, "%d x %d splits %d U4, no merge", rws, cols, splits);
      measure(name, bytes, [&](int k) {
        cols_tile<4, false><<<dim3(tiles, splits), 256>>>(x[k], rws, cols, reinterpret_cast<float4*>(part), tick, out);
      });
    }
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
