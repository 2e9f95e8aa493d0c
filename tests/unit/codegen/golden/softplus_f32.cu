// loom kernel loom_ew_maximum_abs_neg_exp_etc_f32_1dbec496
// out0 = add(maximum(s0, in1), log1p(exp(negative(absolute(in1)))))
// flat loop over 1 dim(s), 32-bit indexing, 4 element(s) per access
// structural key 1dbec496b785b8e4: scalars, sizes and strides are arguments
#include "loom_core.cuh"

struct Args {
  float* out0;  // float32 output
  double s0;  // constant float32
  const float* in1;  // float32 input
  long long n;
};

// One element: its inputs in, its outputs out.
__device__ __forceinline__ void element(const Args& a, float in1, float& out0) {
  const float v0 = (float)a.s0;  // s0 float32
  const float v1 = in1;  // in1 float32
  const float v2 = loom::maximum(v0, v1);  // maximum
  const float v3 = loom::abs(v1);  // absolute
  const float v4 = -v3;  // negative
  const float v5 = loom::exp(v4);  // exp
  const float v6 = loom::log1p(v5);  // log1p
  const float v7 = v2 + v6;  // add
  out0 = v7;
}

extern "C" __global__ void __launch_bounds__(256)
loom_ew_maximum_abs_neg_exp_etc_f32_1dbec496(const __grid_constant__ Args a) {
  const int i = ((int)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= a.n) return;
  const float* b1 = a.in1;
  float* y0 = a.out0;
  if (a.n - i >= 4) {
    const loom::Vec<4, float> x1 = *reinterpret_cast<const loom::Vec<4, float>*>(b1 + i);
    loom::Vec<4, float> z0;
    #pragma unroll
    for (int e = 0; e < 4; ++e) {
      element(a, x1.v[e], z0.v[e]);
    }
    *reinterpret_cast<loom::Vec<4, float>*>(y0 + i) = z0;
    return;
  }
  for (int k = i; k < a.n && k < i + 4; ++k) {
    element(a, b1[k], y0[k]);
  }
}
