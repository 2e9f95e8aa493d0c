// loom kernel loom_ew_sub_greater_equal_less_bitwise_and_etc_f32_81f36d0e
// out0 = where(bitwise_and(bitwise_and(greater_equal(subtract(arange0, s1), s2), less(subtract(arange0, s1), s3)), bitwise_and(greater_equal(subtract(arange4, s5), s6), less(subtract(arange4, s5), s7))), multiply(in8, s9), in10)
// rows loop over 2 dim(s), 32-bit indexing, 1 element(s) per access, 4 per thread a block's width apart
// structural key 81f36d0eccb6746e: scalars, sizes and strides are arguments
#include "loom_core.cuh"

struct Args {
  float* out0;  // float32 output
  long long g0_start;
  long long g0_step;
  long long g0_off;
  long long g0_st0;
  long long s1;  // constant int32
  long long s2;  // constant int32
  long long s3;  // constant int32
  long long g4_start;
  long long g4_step;
  long long g4_off;
  long long g4_st0;
  long long s5;  // constant int32
  long long s6;  // constant int32
  long long s7;  // constant int32
  const float* in8;  // float32 input
  long long in8_st0;
  double s9;  // constant float32
  const float* in10;  // float32 input
  long long in10_st0;
  long long rows;
  long long inner;
};

// One element: its inputs in, its outputs out.
__device__ __forceinline__ void element(const Args& a, long long p0, long long p4, const float* in8, const float* in10, float& out0) {
  const int v0 = loom::cast<int>((unsigned)a.g0_start + (unsigned)a.g0_step * (unsigned)p0);  // arange0 int32
  const int v1 = (int)a.s1;  // s1 int32
  const int v2 = loom::wsub(v0, v1);  // subtract
  const int v3 = (int)a.s2;  // s2 int32
  const bool v4 = v2 >= v3;  // greater_equal
  const int v5 = (int)a.s3;  // s3 int32
  const bool v6 = v2 < v5;  // less
  const bool v7 = v4 & v6;  // bitwise_and
  const int v8 = loom::cast<int>((unsigned)a.g4_start + (unsigned)a.g4_step * (unsigned)p4);  // arange4 int32
  const int v9 = (int)a.s5;  // s5 int32
  const int v10 = loom::wsub(v8, v9);  // subtract
  const int v11 = (int)a.s6;  // s6 int32
  const bool v12 = v10 >= v11;  // greater_equal
  const int v13 = (int)a.s7;  // s7 int32
  const bool v14 = v10 < v13;  // less
  const bool v15 = v12 & v14;  // bitwise_and
  const bool v16 = v7 & v15;  // bitwise_and
  const bool v17 = !v16;  // logical_not
  const float v18 = v16 ? *in8 : loom::zero<float>();  // in8 float32
  const float v19 = (float)a.s9;  // s9 float32
  const float v20 = v18 * v19;  // multiply
  const float v21 = v17 ? *in10 : loom::zero<float>();  // in10 float32
  const float v22 = v16 ? v20 : v21;  // where
  out0 = v22;
}

extern "C" __global__ void __launch_bounds__(256)
loom_ew_sub_greater_equal_less_bitwise_and_etc_f32_81f36d0e(const __grid_constant__ Args a) {
  const int i = (int)blockIdx.x * blockDim.x * 4 + threadIdx.x;
  if (i >= a.inner) return;
  for (int row = (int)blockIdx.y * blockDim.y + threadIdx.y; row < a.rows; row += (int)gridDim.y * blockDim.y) {
    const int o0 = row;
    const long long q0 = a.g0_off + o0 * a.g0_st0;
    const long long q4 = a.g4_off + o0 * a.g4_st0;
    const float* b8 = a.in8 + o0 * a.in8_st0;
    const float* b10 = a.in10 + o0 * a.in10_st0;
    float* y0 = a.out0 + row * a.inner;
    float z0[4];
    if (i + 3 * (int)blockDim.x < a.inner) {
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = i + e * (int)blockDim.x;
        element(a, (long long)(q0), (long long)(q4 + k), b8 + k, b10 + k, z0[e]);
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
        element(a, (long long)(q0), (long long)(q4 + k), b8 + k, b10 + k, z0[e]);
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
