// np.sort of one row, or of a few long ones, on CUB's own key types: cub::DeviceRadixSort reads
// the input where it is and writes the sorted row to the output, with no radix-key passes before
// or after (2^26 float32: two passes of 512 MiB fewer). CUB orders -0.0 and +0.0 as equal and
// NaNs by their bits, which puts every NaN with its sign bit set first; when a row has any, a
// fix-up moves them to the end as NumPy has them. Whether it must is known only on the device, so
// the fix-up kernels read that count and return at once when it is zero (no synchronization).

#include <cub/device/device_radix_sort.cuh>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

namespace {

using detail::kThreads;

// Grid of the fix-up kernels: small, so that returning at once costs little.
constexpr unsigned kFixBlocks = 512;

template <class T> __device__ bool negative_nan(T x) {
  using U = typename detail::UnsignedOf<sizeof(T)>::type;
  constexpr U high = U(1) << (sizeof(U) * 8 - 1);
  constexpr U inf = sizeof(T) == 4 ? U(0x7F800000u) : U(0x7FF0000000000000ull);
  const U bits = cuda::std::bit_cast<U>(x);
  return (bits & high) && (bits & ~high) > inf;
}

// *count = the length of the row's leading run of sign-bit NaNs (a binary search: one thread).
template <class T> __global__ void count_negative_nans_kernel(const T* row, std::int64_t length, std::int64_t* count) {
  std::int64_t lo = 0, hi = length;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (negative_nan(row[mid])) lo = mid + 1; else hi = mid;
  }
  *count = lo;
}

// dst[i] = src[(i + k) % length]: the k leading NaNs go last (rotate), or dst = src (copy back).
template <class T>
__global__ void move_nans_kernel(const T* src, T* dst, std::int64_t length, const std::int64_t* count, bool rotate) {
  const std::int64_t k = *count;
  if (k == 0) return;
  LOOM_GRID_STRIDE(i, length) {
    std::int64_t j = rotate ? i + k : i;
    if (j >= length) j -= length;
    dst[i] = src[j];
  }
}

template <class T>
void sort_rows_native(const T* in, T* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
                      const Workspace& ws) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  std::size_t bytes = 0;
  LOOM_CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, length, 0, int(sizeof(T) * 8), stream));
  // The temp storage (which holds CUB's alternate keys) doubles as the fix-up's scratch row.
  const std::size_t row_bytes = static_cast<std::size_t>(length) * sizeof(T);
  void* temp = ws(std::max(bytes, kFloat ? row_bytes : std::size_t{1}));
  auto* count = kFloat ? static_cast<std::int64_t*>(ws(sizeof(std::int64_t))) : nullptr;
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* src = in + r * length;
    T* dst = out + r * length;
    std::size_t b = bytes;
    LOOM_CHECK_CUDA(cub::DeviceRadixSort::SortKeys(temp, b, src, dst, length, 0, int(sizeof(T) * 8), stream));
    if constexpr (kFloat) {
      T* scratch = static_cast<T*>(temp);
      const unsigned blocks = std::min(detail::blocks_for(length), kFixBlocks);
      count_negative_nans_kernel<T><<<1, 1, 0, stream>>>(dst, length, count);
      LOOM_LAUNCHED("count_negative_nans_kernel");
      move_nans_kernel<T><<<blocks, kThreads, 0, stream>>>(dst, scratch, length, count, true);
      LOOM_LAUNCHED("move_nans_kernel");
      move_nans_kernel<T><<<blocks, kThreads, 0, stream>>>(scratch, dst, length, count, false);
      LOOM_LAUNCHED("move_nans_kernel");
    }
  }
}

template <class T> bool sort_as(const void* in, void* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
                                const Workspace& ws) {
  sort_rows_native<T>(static_cast<const T*>(in), static_cast<T*>(out), rows, length, stream, ws);
  return true;
}

}  // namespace

namespace detail {

bool sort_native(DType dtype, const void* in, void* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
                 const Workspace& ws) {
  switch (dtype) {
    case DType::Float32: return sort_as<float>(in, out, rows, length, stream, ws);
    case DType::Float64: return sort_as<double>(in, out, rows, length, stream, ws);
    case DType::Int32: return sort_as<std::int32_t>(in, out, rows, length, stream, ws);
    case DType::Int64: return sort_as<std::int64_t>(in, out, rows, length, stream, ws);
    case DType::Bool:
    case DType::UInt8: return sort_as<std::uint8_t>(in, out, rows, length, stream, ws);
    case DType::UInt16: return sort_as<std::uint16_t>(in, out, rows, length, stream, ws);
    case DType::UInt32: return sort_as<std::uint32_t>(in, out, rows, length, stream, ws);
    case DType::UInt64: return sort_as<std::uint64_t>(in, out, rows, length, stream, ws);
    case DType::Int8:
    case DType::Int16:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Complex64:
    case DType::Complex128: break;  // through radix keys (fewer instantiations to compile)
  }
  return false;
}

}  // namespace detail

}  // namespace loom::algo
