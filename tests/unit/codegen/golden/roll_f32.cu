// loom kernel loom_ew_greater_equal_logical_not_less_where_etc_f32_81efeb6e
// out0 = multiply(where(greater_equal(arange0, s1), in2, in3), s4)
// rows loop over 2 dim(s), 32-bit indexing, 1 element(s) per access, 4 per thread a block's width apart
// structural key 81efeb6eab0a2ce4: scalars, sizes and strides are arguments
#include "loom_core.cuh"

struct Args {
  float* out0;  // float32 output
  long long g0_start;
  long long g0_step;
  long long g0_off;
  long long g0_st0;
  long long s1;  // constant int32
  const float* in2;  // float32 input
  long long in2_st0;
  const float* in3;  // float32 input
  long long in3_st0;
  double s4;  // constant float32
  long long rows;
  long long inner;
};

// One element: its inputs in, its outputs out.
__device__ __forceinline__ void element(const Args& a, long long p0, const float* in2, const float* in3, float& out0) {
  const int v0 = loom::cast<int>((unsigned)a.g0_start + (unsigned)a.g0_step * (unsigned)p0);  // arange0 int32
  const int v1 = (int)a.s1;  // s1 int32
  const bool v2 = v0 >= v1;  // greater_equal
  const float v4 = v2 ? *in2 : loom::zero<float>();  // in2 float32
  const bool v5 = v0 < v1;  // less
  const float v6 = v5 ? *in3 : loom::zero<float>();  // in3 float32
  const float v7 = v2 ? v4 : v6;  // where
  const float v8 = (float)a.s4;  // s4 float32
  const float v9 = v7 * v8;  // multiply
  out0 = v9;
}

extern "C" __global__ void __launch_bounds__(256)
loom_ew_greater_equal_logical_not_less_where_etc_f32_81efeb6e(const __grid_constant__ Args a) {
  const int i = (int)blockIdx.x * blockDim.x * 4 + threadIdx.x;
  if (i >= a.inner) return;
  for (int row = (int)blockIdx.y * blockDim.y + threadIdx.y; row < a.rows; row += (int)gridDim.y * blockDim.y) {
    const int o0 = row;
    const long long q0 = a.g0_off + o0 * (int)a.g0_st0;
    const float* b2 = a.in2 + o0 * (int)a.in2_st0;
    const float* b3 = a.in3 + o0 * (int)a.in3_st0;
    float* y0 = a.out0 + row * a.inner;
    float z0[4];
    if (i + 3 * (int)blockDim.x < a.inner) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        element(a, (long long)(q0 + k), b2 + k, b3 + k, z0[e]);
      }
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        y0[k] = z0[e];
      }
    }
    else {
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        if (k >= a.inner) break;
        element(a, (long long)(q0 + k), b2 + k, b3 + k, z0[e]);
      }
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        if (k >= a.inner) break;
        y0[k] = z0[e];
      }
    }
  }
}
