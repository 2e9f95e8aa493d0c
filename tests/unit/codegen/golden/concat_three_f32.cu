// loom kernel loom_ew_greater_equal_logical_not_exp_less_etc_f32_f7f7cf6d
// out0 = where(greater_equal(arange0, s1), exp(in2), where(bitwise_and(greater_equal(arange0, s3), less(arange0, s1)), add(in4, s5), multiply(in6, s7)))
// rows loop over 2 dim(s), 32-bit indexing, 4 element(s) per access
// structural key f7f7cf6d05d6507f: scalars, sizes and strides are arguments
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
  long long s3;  // constant int32
  const float* in4;  // float32 input
  long long in4_st0;
  double s5;  // constant float32
  const float* in6;  // float32 input
  long long in6_st0;
  double s7;  // constant float32
  long long rows;
  long long inner;
};

// One element: its inputs in, its outputs out.
__device__ __forceinline__ void element(const Args& a, long long p0, const float* in2, const float* in4, const float* in6, float& out0) {
  const int v0 = loom::cast<int>((unsigned)a.g0_start + (unsigned)a.g0_step * (unsigned)p0);  // arange0 int32
  const int v1 = (int)a.s1;  // s1 int32
  const bool v2 = v0 >= v1;  // greater_equal
  const float v4 = v2 ? *in2 : loom::zero<float>();  // in2 float32
  const float v5 = loom::exp(v4);  // exp
  const int v6 = (int)a.s3;  // s3 int32
  const bool v7 = v0 >= v6;  // greater_equal
  const bool v8 = v0 < v1;  // less
  const bool v9 = v7 & v8;  // bitwise_and
  const float v11 = v9 ? *in4 : loom::zero<float>();  // in4 float32
  const float v12 = (float)a.s5;  // s5 float32
  const float v13 = v11 + v12;  // add
  const bool v14 = v0 < v6;  // less
  const float v15 = v14 ? *in6 : loom::zero<float>();  // in6 float32
  const float v16 = (float)a.s7;  // s7 float32
  const float v17 = v15 * v16;  // multiply
  const float v18 = v9 ? v13 : v17;  // where
  const float v19 = v2 ? v5 : v18;  // where
  out0 = v19;
}

// Where each guarded read is meaningful: g<k> for the k-th guarded input.
__device__ __forceinline__ void guards(const Args& a, long long p0, bool& g0, bool& g1, bool& g2) {
  const int v0 = loom::cast<int>((unsigned)a.g0_start + (unsigned)a.g0_step * (unsigned)p0);  // arange0 int32
  const int v1 = (int)a.s1;  // s1 int32
  const bool v2 = v0 >= v1;  // greater_equal
  const int v6 = (int)a.s3;  // s3 int32
  const bool v7 = v0 >= v6;  // greater_equal
  const bool v8 = v0 < v1;  // less
  const bool v9 = v7 & v8;  // bitwise_and
  const bool v14 = v0 < v6;  // less
  g0 = v2;
  g1 = v9;
  g2 = v14;
}

extern "C" __global__ void __launch_bounds__(256)
loom_ew_greater_equal_logical_not_exp_less_etc_f32_f7f7cf6d(const __grid_constant__ Args a) {
  const int i = ((int)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= a.inner) return;
  for (int row = (int)blockIdx.y * blockDim.y + threadIdx.y; row < a.rows; row += (int)gridDim.y * blockDim.y) {
    const int o0 = row;
    const long long q0 = a.g0_off + o0 * (int)a.g0_st0;
    const float* b2 = a.in2 + o0 * (int)a.in2_st0;
    const float* b4 = a.in4 + o0 * (int)a.in4_st0;
    const float* b6 = a.in6 + o0 * (int)a.in6_st0;
    float* y0 = a.out0 + row * a.inner;
    if (a.inner - i >= 4) {
      loom::Vec<4, float> z0;
      bool g[4][3];
      #pragma unroll
      for (int e = 0; e < 4; ++e) {
        guards(a, (long long)(q0 + i + e), g[e][0], g[e][1], g[e][2]);
      }
      bool agree = true;
      #pragma unroll
      for (int e = 1; e < 4; ++e) {
        #pragma unroll
        for (int k = 0; k < 3; ++k) agree = agree && g[e][k] == g[0][k];
      }
      if (agree) {
        loom::Vec<4, float> x2{};
        if (g[0][0]) x2 = *reinterpret_cast<const loom::Vec<4, float>*>(b2 + i);
        loom::Vec<4, float> x4{};
        if (g[0][1]) x4 = *reinterpret_cast<const loom::Vec<4, float>*>(b4 + i);
        loom::Vec<4, float> x6{};
        if (g[0][2]) x6 = *reinterpret_cast<const loom::Vec<4, float>*>(b6 + i);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          element(a, (long long)(q0 + i + e), &x2.v[e], &x4.v[e], &x6.v[e], z0.v[e]);
        }
      }
      else {
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          element(a, (long long)(q0 + i + e), b2 + i + e, b4 + i + e, b6 + i + e, z0.v[e]);
        }
      }
      *reinterpret_cast<loom::Vec<4, float>*>(y0 + i) = z0;
      continue;
    }
    for (int k = i; k < a.inner && k < i + 4; ++k) {
      element(a, (long long)(q0 + k), b2 + k, b4 + k, b6 + k, y0[k]);
    }
  }
}
