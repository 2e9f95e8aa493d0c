// loom kernel loom_red_sum_f32_e498799f
// out0 = sum(0)
//   sum(0) reduces in0
// cooperative, a block per output: 2 prologue dim(s) (1 reduced), 32-bit indexing
// structural key e498799f714a20d3: scalars, sizes and strides are arguments
#include "loom_core.cuh"
#include "loom_reduce.cuh"

struct Args {
  float* out0;  // float32 output
  const float* pin0;  // float32 input
  long long pin0_st0;
  long long nk;
  long long nr;
  void* partials0;
  unsigned int* tickets;
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

extern "C" __global__ void __launch_bounds__(256, 4)
loom_red_sum_f32_e498799f(const __grid_constant__ Args a) {
  __shared__ loom::red::Sum<float> sh0[32];
  __shared__ bool last;
  for (int j = blockIdx.y; j < a.nk; j += gridDim.y) {
    const int o0 = j;
    const long long pb0 = (long long)o0 * a.pin0_st0;
    loom::red::Sum<float> s0;
    s0.init();
    const int tile = 8 * 4 * (int)blockDim.x;
    for (int rb = (int)blockIdx.x * tile + 4 * threadIdx.x; rb < a.nr; rb += (int)gridDim.x * tile) {
      loom::Vec<4, float> c0[8];
      // the whole batch in range: no bounds checks
      if (a.nr - rb > (int)7 * (int)(4 * blockDim.x)) {
        #pragma unroll
        for (int k = 0; k < 8; ++k) {
          const int r = rb + (int)k * 4 * blockDim.x;
          const int q1 = r;
          c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + q1));
        }
        #pragma unroll
        for (int k = 0; k < 8; ++k) {
          const int r = rb + (int)k * 4 * blockDim.x;
          #pragma unroll
          for (int e = 0; e < 4; ++e) {
            float x0;
            prologue(a, c0[k].v[e], x0);
            s0.add(x0, r + e);
          }
        }
      }
      else {
        #pragma unroll
        for (int k = 0; k < 8; ++k) {
          const int r = rb + (int)k * 4 * blockDim.x;
          if (r < a.nr) {
            const int q1 = r;
            c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + q1));
          }
        }
        #pragma unroll
        for (int k = 0; k < 8; ++k) {
          const int r = rb + (int)k * 4 * blockDim.x;
          if (r < a.nr) {
            #pragma unroll
            for (int e = 0; e < 4; ++e) {
              float x0;
              prologue(a, c0[k].v[e], x0);
              s0.add(x0, r + e);
            }
          }
        }
      }
    }
    loom::red::block_reduce(s0, sh0);
    if (gridDim.x > 1) {
      if (threadIdx.x == 0) {
        static_cast<loom::red::Sum<float>*>(a.partials0)[(long long)j * gridDim.x + blockIdx.x] = s0;
        last = loom::red::arrive(a.tickets + j) == gridDim.x - 1;
        if (last) a.tickets[j] = 0u;
      }
      __syncthreads();
      if (!last) continue;  // the same for every thread of the block
      s0.init();
      for (unsigned g = threadIdx.x; g < gridDim.x; g += blockDim.x) {
        s0.merge(loom::red::load_partial(static_cast<const loom::red::Sum<float>*>(a.partials0) + (long long)j * gridDim.x + g));
      }
      loom::red::block_reduce(s0, sh0);
    }
    if (threadIdx.x == 0) {
      epilogue(a, s0.result(), a.out0[j]);
    }
  }
}
