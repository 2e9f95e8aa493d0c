// loom kernel loom_red_variance_f32_3185350f
// out0 = variance(0)
//   variance(0) reduces in0
// warp rows, a group of a warp's lanes per output: 2 prologue dim(s) (1 reduced), 32-bit indexing
// structural key 3185350ff318f3ec: scalars, sizes and strides are arguments
#include "loom_core.cuh"
#include "loom_reduce.cuh"

struct Args {
  float* out0;  // float32 output
  const float* pin0;  // float32 input
  long long pin0_st0;
  long long nk;
  long long nr;
  long long ddof0;
  long long lanes;
};

// The values reduced, at one element of the input.
__device__ __forceinline__ void prologue(const Args& a, float in0, float& out0) {
  const float v0 = in0;  // in0 float32
  out0 = v0;
}

// The outputs at one output element, from the reductions' results.
__device__ __forceinline__ void epilogue(const Args& a, float red0, float& out0) {
  const float v0 = red0;  // variance(0) float32
  out0 = v0;
}

extern "C" __global__ void __launch_bounds__(256)
loom_red_variance_f32_3185350f(const __grid_constant__ Args a) {
  const int lanes = (int)a.lanes;             // lanes per row: a power of two <= 32
  const int t = threadIdx.x & (lanes - 1);   // this lane's place in its row
  const int sub = (threadIdx.x & 31) / lanes;  // this lane's row in the warp's step
  const long long rows_per_warp = 32 / lanes;
  const long long warp = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  const long long step = (long long)gridDim.x * (blockDim.x >> 5) * rows_per_warp;
  // The loop is the same for every lane of a warp: all of them reach the shuffles.
  for (long long jw = warp * rows_per_warp; jw < a.nk; jw += step) {
    const int j = (int)(jw + sub);
    const int o0 = j;
    const long long pb0 = (long long)o0 * a.pin0_st0;
    loom::red::Variance<float> s0;
    s0.init();
    if (j < a.nk) {
      for (int rb = (int)t * 4; rb < a.nr; rb += 4 * 4 * lanes) {
        loom::Vec<4, float> c0[4];
        // the whole batch in range: no bounds checks
        if (a.nr - rb > (int)3 * (int)(4 * lanes)) {
          #pragma unroll
          for (int k = 0; k < 4; ++k) {
            const int r = rb + (int)k * 4 * lanes;
            const int q1 = r;
            c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + q1));
          }
          #pragma unroll
          for (int k = 0; k < 4; ++k) {
            const int r = rb + (int)k * 4 * lanes;
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
          for (int k = 0; k < 4; ++k) {
            const int r = rb + (int)k * 4 * lanes;
            if (r < a.nr) {
              const int q1 = r;
              c0[k] = *reinterpret_cast<const loom::Vec<4, float>*>(a.pin0 + (pb0 + q1));
            }
          }
          #pragma unroll
          for (int k = 0; k < 4; ++k) {
            const int r = rb + (int)k * 4 * lanes;
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
    }
    // The group's lanes combined in a fixed order: lane t merges lane t + d.
    for (int d = lanes >> 1; d > 0; d >>= 1) {
      s0.merge(s0.shfl_down(d));
    }
    if (t == 0 && j < a.nk) {
      epilogue(a, s0.result(a.ddof0), a.out0[j]);
    }
  }
}
