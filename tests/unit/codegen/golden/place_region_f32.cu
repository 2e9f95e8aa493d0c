// loom kernel loom_ew_greater_equal_less_bitwise_and_logical_not_etc_f32_1bdb403e
// out0 = where(bitwise_and(bitwise_and(greater_equal(arange0, s1), less(arange0, s2)), bitwise_and(greater_equal(arange3, s4), less(arange3, s5))), multiply(in6, s7), in8)
// rows loop over 2 dim(s), 32-bit indexing, 1 element(s) per access, 4 per thread a block's width apart
// structural key 1bdb403ee108cb21: scalars, sizes and strides are arguments
#include "loom_core.cuh"

struct Args {
  float* out0;  // float32 output
  long long g0_start;
  long long g0_step;
  long long g0_off;
  long long g0_st0;
  long long s1;  // constant int32
  long long s2;  // constant int32
  long long g3_start;
  long long g3_step;
  long long g3_off;
  long long g3_st0;
  long long s4;  // constant int32
  long long s5;  // constant int32
  const float* in6;  // float32 input
  long long in6_st0;
  double s7;  // constant float32
  const float* in8;  // float32 input
  long long in8_st0;
  long long rows;
  long long inner;
};

// One element: its inputs in, its outputs out.
__device__ __forceinline__ void element(const Args& a, long long p0, long long p3, const float* in6, const float* in8, float& out0) {
  const int v0 = loom::cast<int>((unsigned)a.g0_start + (unsigned)a.g0_step * (unsigned)p0);  // arange0 int32
  const int v1 = (int)a.s1;  // s1 int32
  const bool v2 = v0 >= v1;  // greater_equal
  const int v3 = (int)a.s2;  // s2 int32
  const bool v4 = v0 < v3;  // less
  const bool v5 = v2 & v4;  // bitwise_and
  const int v6 = loom::cast<int>((unsigned)a.g3_start + (unsigned)a.g3_step * (unsigned)p3);  // arange3 int32
  const int v7 = (int)a.s4;  // s4 int32
  const bool v8 = v6 >= v7;  // greater_equal
  const int v9 = (int)a.s5;  // s5 int32
  const bool v10 = v6 < v9;  // less
  const bool v11 = v8 & v10;  // bitwise_and
  const bool v12 = v5 & v11;  // bitwise_and
  const bool v13 = !v12;  // logical_not
  const float v14 = v12 ? *in6 : loom::zero<float>();  // in6 float32
  const float v15 = (float)a.s7;  // s7 float32
  const float v16 = v14 * v15;  // multiply
  const float v17 = v13 ? *in8 : loom::zero<float>();  // in8 float32
  const float v18 = v12 ? v16 : v17;  // where
  out0 = v18;
}

extern "C" __global__ void __launch_bounds__(256)
loom_ew_greater_equal_less_bitwise_and_logical_not_etc_f32_1bdb403e(const __grid_constant__ Args a) {
  const int i = (int)blockIdx.x * blockDim.x * 4 + threadIdx.x;
  if (i >= a.inner) return;
  for (int row = (int)blockIdx.y * blockDim.y + threadIdx.y; row < a.rows; row += (int)gridDim.y * blockDim.y) {
    const int o0 = row;
    const long long q0 = a.g0_off + o0 * (int)a.g0_st0;
    const long long q3 = a.g3_off + o0 * (int)a.g3_st0;
    const float* b6 = a.in6 + o0 * (int)a.in6_st0;
    const float* b8 = a.in8 + o0 * (int)a.in8_st0;
    float* y0 = a.out0 + row * a.inner;
    float z0[4];
    if (i + 3 * (int)blockDim.x < a.inner) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        element(a, (long long)(q0), (long long)(q3 + k), b6 + k, b8 + k, z0[e]);
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
        element(a, (long long)(q0), (long long)(q3 + k), b6 + k, b8 + k, z0[e]);
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
