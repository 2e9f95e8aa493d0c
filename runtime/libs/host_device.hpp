#pragma once
// LOOM_HD: a function compiled for both sides, for the few headers shared by nvcc's translation
// units and the host code (sort keys, complex order).

#if defined(__CUDACC__)
#define LOOM_HD __host__ __device__ __forceinline__
#else
#define LOOM_HD inline
#endif
