// loom kernel loom_red_sum_f32_7aef03f0
// out0 = sum(0)
//   sum(0) reduces in0
// column tiles, a block of columns x row slots: 2 prologue dim(s) (1 reduced), 32-bit indexing
// structural key 7aef03f05bd227c8: scalars, sizes and strides are arguments
#include "loom_core.cuh"
#include "loom_reduce.cuh"

struct Args {
  float* out0;  // float32 output
  const float* pin0;  // float32 input
  long long pin0_st0;
  long long pin0_st1;
  long long nk;
  long long nr;
  void* partials0;
  unsigned int* tickets;
  long long chunk;
  long long lanes;
};

// The values reduced, at one element of the input.
__device__ __forceinline__ void prologue(const Args& a, float in0, float& out0) {
  const float v0 = in0;  // in0 float32
  out0 = v0;
}

// The outputs at one output element, from the reductions' results.
__device__ __forceinline__ void epilogue(const Args& a, float red0, float& out0) {
  const float v0 = red0;  // sum(0) float32
  out0 = v0;
}

extern "C" __global__ void __launch_bounds__(256)
loom_red_sum_f32_7aef03f0(const __grid_constant__ Args a) {
  // One state per (warp, column) when row slots combine: 32 bytes each at most.
  __shared__ __align__(16) unsigned char tile[8 * 32 * 32];
  static_assert(sizeof(loom::red::Sum<float>) <= 32, "a state fits its tile slot");
  loom::red::Sum<float>* const sh0 = reinterpret_cast<loom::red::Sum<float>*>(tile);  // reduction 0's turn
  __shared__ bool last;
  const int lanes = (int)a.lanes;          // threads along a row: a power of two <= 32
  const int tx = threadIdx.x & (lanes - 1);  // this thread's place in the tile's row
  const int ty = threadIdx.x / lanes;        // its row slot
  const int slots = blockDim.x / lanes;
  // 4 adjacent columns per thread (one 16-byte load a row), a state each.
  const int j0 = ((int)blockIdx.x * lanes + tx) * 4;
  const int o1 = j0;
  const long long pb0 = (long long)o1 * a.pin0_st1;
  loom::red::Sum<float> s0;
  s0.init();
  loom::red::Sum<float> s0v[4];
  #pragma unroll
  for (int e = 0; e < 4; ++e) s0v[e].init();
  const int r_begin = (int)blockIdx.y * a.chunk;
  const int r_end = a.nr - r_begin < a.chunk ? (int)a.nr : r_begin + (int)a.chunk;
  if (j0 < a.nk) {
    for (int rb = r_begin + ty; rb < r_end; rb += 4 * slots) {
      loom::Vec<4, float> c0[4];
      // the whole batch in range: no bounds checks
      if (r_end - rb > (int)3 * (int)(slots)) {
        #pragma unroll
        for (int k = 0; k < 4; ++k) {
          const int r = rb + (int)k * slots;
          const int q0 = r;
          c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + (long long)q0 * a.pin0_st0));
        }
        #pragma unroll
        for (int k = 0; k < 4; ++k) {
          const int r = rb + (int)k * slots;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            float x0;
            prologue(a, c0[k].v[e], x0);
            s0v[e].add(x0, r);
          }
        }
      }
      else {
        #pragma unroll
        for (int k = 0; k < 4; ++k) {
          const int r = rb + (int)k * slots;
          if (r < r_end) {
            const int q0 = r;
            c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + (long long)q0 * a.pin0_st0));
          }
        }
        #pragma unroll
        for (int k = 0; k < 4; ++k) {
          const int r = rb + (int)k * slots;
          if (r < r_end) {
            #pragma unroll
            for (int e = 0; e < 4; ++e) {
              float x0;
              prologue(a, c0[k].v[e], x0);
              s0v[e].add(x0, r);
            }
          }
        }
      }
    }
  }
  if constexpr (sizeof(loom::red::Sum<float>) * 4 <= 32) {
    for (int d = 16; d >= lanes; d >>= 1) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) s0v[e].merge(s0v[e].shfl_down(d));
    }
    if ((threadIdx.x & 31) < lanes) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) sh0[((threadIdx.x >> 5) * lanes + tx) * 4 + e] = s0v[e];
    }
    __syncthreads();
    if (threadIdx.x < lanes) {
      for (int w = 1; w < (int)(blockDim.x >> 5); ++w) {
        #pragma unroll
        for (int e = 0; e < 4; ++e) s0v[e].merge(sh0[(w * lanes + tx) * 4 + e]);
      }
    }
    __syncthreads();  // the tile is reused
  }
  else {
    #pragma unroll
    for (int e = 0; e < 4; ++e) {
      s0 = s0v[e];
      for (int d = 16; d >= lanes; d >>= 1) s0.merge(s0.shfl_down(d));
      if ((threadIdx.x & 31) < lanes) sh0[(threadIdx.x >> 5) * lanes + tx] = s0;
      __syncthreads();
      if (threadIdx.x < lanes) {
        for (int w = 1; w < (int)(blockDim.x >> 5); ++w) s0.merge(sh0[w * lanes + tx]);
      }
      __syncthreads();  // the tile is reused
      s0v[e] = s0;
    }
  }
  if (gridDim.y > 1) {
    if (threadIdx.x < lanes && j0 < a.nk) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) static_cast<loom::red::Sum<float>*>(a.partials0)[(long long)blockIdx.y * a.nk + j0 + e] = s0v[e];
    }
    __syncthreads();  // the block's partials written before thread 0 arrives (and releases them)
    if (threadIdx.x == 0) {
      last = loom::red::arrive(a.tickets + blockIdx.x) == gridDim.y - 1;
      if (last) a.tickets[blockIdx.x] = 0u;  // for the next launch: tickets are zeroed once
    }
    __syncthreads();
    if (!last) return;  // the same for every thread of the block
    #pragma unroll
    for (int e = 0; e < 4; ++e) s0v[e].init();
    if (j0 < a.nk) {
      const loom::red::Sum<float>* part = static_cast<const loom::red::Sum<float>*>(a.partials0) + j0;
      constexpr int mb0 = sizeof(loom::red::Sum<float>) <= 8 || 4 == 1 ? 8 : 2;  // partials in flight per column
      for (unsigned g0 = ty; g0 < gridDim.y; g0 += mb0 * slots) {
        loom::red::Sum<float> m[mb0][4];
        #pragma unroll
        for (int k = 0; k < mb0; ++k) {
          const unsigned g = g0 + k * slots;
          if (g >= gridDim.y) break;
          #pragma unroll
          for (int e = 0; e < 4; ++e) m[k][e] = loom::red::load_partial(part + (long long)g * a.nk + e);
        }
        #pragma unroll
        for (int k = 0; k < mb0; ++k) {
          const unsigned g = g0 + k * slots;
          if (g >= gridDim.y) break;
          #pragma unroll
          for (int e = 0; e < 4; ++e) s0v[e].merge(m[k][e]);
        }
      }
    }
    if constexpr (sizeof(loom::red::Sum<float>) * 4 <= 32) {
      for (int d = 16; d >= lanes; d >>= 1) {
        #pragma unroll
        for (int e = 0; e < 4; ++e) s0v[e].merge(s0v[e].shfl_down(d));
      }
      if ((threadIdx.x & 31) < lanes) {
        #pragma unroll
        for (int e = 0; e < 4; ++e) sh0[((threadIdx.x >> 5) * lanes + tx) * 4 + e] = s0v[e];
      }
      __syncthreads();
      if (threadIdx.x < lanes) {
        for (int w = 1; w < (int)(blockDim.x >> 5); ++w) {
          #pragma unroll
          for (int e = 0; e < 4; ++e) s0v[e].merge(sh0[(w * lanes + tx) * 4 + e]);
        }
      }
      __syncthreads();  // the tile is reused
    }
    else {
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        s0 = s0v[e];
        for (int d = 16; d >= lanes; d >>= 1) s0.merge(s0.shfl_down(d));
        if ((threadIdx.x & 31) < lanes) sh0[(threadIdx.x >> 5) * lanes + tx] = s0;
        __syncthreads();
        if (threadIdx.x < lanes) {
          for (int w = 1; w < (int)(blockDim.x >> 5); ++w) s0.merge(sh0[w * lanes + tx]);
        }
        __syncthreads();  // the tile is reused
        s0v[e] = s0;
      }
    }
  }
  if (threadIdx.x < lanes && j0 < a.nk) {
    #pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int j = j0 + (int)e;
      s0 = s0v[e];
      epilogue(a, s0.result(), a.out0[j]);
    }
  }
}
