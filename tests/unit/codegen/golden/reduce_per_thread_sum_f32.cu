// loom kernel loom_red_sum_f32_bb4441b2
// out0 = sum(0)
//   sum(0) reduces in0
// per-thread, a thread per output: 2 prologue dim(s) (1 reduced), 32-bit indexing
// structural key bb4441b24d6d01f3: scalars, sizes and strides are arguments
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
  long long chunk;
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
loom_red_sum_f32_bb4441b2(const __grid_constant__ Args a) {
  const int j = (int)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= a.nk) return;
  const int o0 = j;
  const long long pb0 = (long long)o0 * a.pin0_st0;
  loom::red::Sum<float> s0;
  s0.init();
  const int r_begin = (int)blockIdx.y * a.chunk;
  const int r_end = a.nr - r_begin < a.chunk ? (int)a.nr : r_begin + (int)a.chunk;
  for (int rb = r_begin; rb < r_end; rb += 8) {
    float c0[8];
    // the whole batch in range: no bounds checks
    if (r_end - rb > (int)7 * (int)(1)) {
      #pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int r = rb + (int)k * 1;
        const int q1 = r;
        c0[k] = a.pin0[pb0 + q1];
      }
      #pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int r = rb + (int)k * 1;
        float x0;
        prologue(a, c0[k], x0);
        s0.add(x0, r);
      }
    }
    else {
      #pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int r = rb + (int)k * 1;
        if (r < r_end) {
          const int q1 = r;
          c0[k] = a.pin0[pb0 + q1];
        }
      }
      #pragma unroll
      for (int k = 0; k < 8; ++k) {
        const int r = rb + (int)k * 1;
        if (r < r_end) {
          float x0;
          prologue(a, c0[k], x0);
          s0.add(x0, r);
        }
      }
    }
  }
  if (gridDim.y > 1) {
    static_cast<loom::red::Sum<float>*>(a.partials0)[(long long)j * gridDim.y + blockIdx.y] = s0;
    if (loom::red::arrive(a.tickets + j) != gridDim.y - 1) return;
    a.tickets[j] = 0u;
    s0.init();
    #pragma unroll 4
    for (unsigned g = 0; g < gridDim.y; ++g) {
      s0.merge(loom::red::load_partial(static_cast<const loom::red::Sum<float>*>(a.partials0) + (long long)j * gridDim.y + g));
    }
  }
  epilogue(a, s0.result(), a.out0[j]);
}
