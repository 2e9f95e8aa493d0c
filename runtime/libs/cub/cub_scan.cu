// np.cumsum / np.cumprod on the GPU: cub::DeviceScan::InclusiveScan for one row, and
// InclusiveScanByKey with the row number as key (computed, never stored) for several. One
// instantiation per accumulation type: every integer dtype accumulates in uint64 (wrap-around
// sums and products have the same low bits in any width, signed or not).

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <loom/errors.hpp>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

namespace {

using detail::C128;
using detail::C64;

// One step of the accumulation, as NumPy rounds it: float16/bfloat16 computed in float and
// rounded after every step; complex products by the schoolbook formula.
template <ScanOp Op> struct Step {
  template <class T> __device__ __forceinline__ T apply(T a, T b) const {
    if constexpr (Op == ScanOp::Sum) return a + b; else return a * b;
  }
  __device__ __forceinline__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return apply(a, b); }
  __device__ __forceinline__ float operator()(float a, float b) const { return apply(a, b); }
  __device__ __forceinline__ double operator()(double a, double b) const { return apply(a, b); }
  __device__ __forceinline__ __half operator()(__half a, __half b) const {
    return __float2half_rn(apply(__half2float(a), __half2float(b)));
  }
  __device__ __forceinline__ __nv_bfloat16 operator()(__nv_bfloat16 a, __nv_bfloat16 b) const {
    return __float2bfloat16_rn(apply(__bfloat162float(a), __bfloat162float(b)));
  }
  template <class C>
    requires(std::is_same_v<C, C64> || std::is_same_v<C, C128>)
  __device__ __forceinline__ C operator()(C a, C b) const {
    if constexpr (Op == ScanOp::Sum) {
      return C{a.re + b.re, a.im + b.im};
    } else {
      return C{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
  }
};

struct RowOf {
  std::int64_t length;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / length; }
};

template <class T, ScanOp Op>
void scan(const void* in_v, void* out_v, std::int64_t rows, std::int64_t length, cudaStream_t stream,
          const Workspace& ws) {
  const auto* in = static_cast<const T*>(in_v);
  auto* out = static_cast<T*>(out_v);
  const std::int64_t n = rows * length;
  if (rows == 1) {
    LOOM_CUB("cub::DeviceScan::InclusiveScan", ws, [&](void* t, std::size_t& b) {
      return cub::DeviceScan::InclusiveScan(t, b, in, out, Step<Op>{}, n, stream);
    });
    return;
  }
  const auto row = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), RowOf{length});
  LOOM_CUB("cub::DeviceScan::InclusiveScanByKey", ws, [&](void* t, std::size_t& b) {
    return cub::DeviceScan::InclusiveScanByKey(t, b, row, in, out, Step<Op>{}, n, cuda::std::equal_to<>{}, stream);
  });
}

template <ScanOp Op>
void scan_dtype(DType dtype, const void* in, void* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
                const Workspace& ws) {
  switch (dtype) {
    case DType::Int64:
    case DType::UInt64: return scan<std::uint64_t, Op>(in, out, rows, length, stream, ws);
    case DType::Float16: return scan<__half, Op>(in, out, rows, length, stream, ws);
    case DType::BFloat16: return scan<__nv_bfloat16, Op>(in, out, rows, length, stream, ws);
    case DType::Float32: return scan<float, Op>(in, out, rows, length, stream, ws);
    case DType::Float64: return scan<double, Op>(in, out, rows, length, stream, ws);
    case DType::Complex64: return scan<C64, Op>(in, out, rows, length, stream, ws);
    case DType::Complex128: return scan<C128, Op>(in, out, rows, length, stream, ws);
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32: break;
  }
  throw ValueError("internal: no GPU scan accumulates in " + std::string(name(dtype)));
}

}  // namespace

void inclusive_scan(DType dtype, ScanOp op, const void* in, void* out, std::int64_t rows, std::int64_t length,
                    cudaStream_t stream, const Workspace& ws) {
  if (rows * length == 0) return;
  if (op == ScanOp::Sum) {
    scan_dtype<ScanOp::Sum>(dtype, in, out, rows, length, stream, ws);
  } else {
    scan_dtype<ScanOp::Prod>(dtype, in, out, rows, length, stream, ws);
  }
}

}  // namespace loom::algo
