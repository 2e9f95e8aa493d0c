// np.sort on the GPU: elements -> radix keys -> cub keys-only radix sort -> elements, one
// instantiation per key width (1, 2, 4, 8 bytes). Also the small kernels every sort shares.

#include "runtime/libs/cub/cub_radix.cuh"

namespace loom::algo {
namespace detail {

namespace {

template <class U>
__global__ void encode_kernel(const U* in, const std::int64_t* perm, U* out, std::int64_t n, sortkey::Codec c) {
  LOOM_GRID_STRIDE(i, n) out[i] = sortkey::encode<U>(in[perm ? perm[i] : i], c);
}

template <class U> __global__ void decode_kernel(const U* in, U* out, std::int64_t n, sortkey::Codec c) {
  LOOM_GRID_STRIDE(i, n) out[i] = sortkey::decode<U>(in[i], c);
}

__global__ void iota_kernel(std::int64_t* out, std::int64_t n, std::int64_t length) {
  LOOM_GRID_STRIDE(i, n) out[i] = i % length;
}

__global__ void offsets_kernel(int* out, std::int64_t rows, std::int64_t length) {
  LOOM_GRID_STRIDE(i, rows + 1) out[i] = static_cast<int>(i * length);
}

}  // namespace

template <class U>
void encode_keys(const void* in, const std::int64_t* perm, U* out, std::int64_t n, sortkey::Codec c,
                 cudaStream_t stream) {
  if (n == 0) return;
  encode_kernel<U><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const U*>(in), perm, out, n, c);
  LOOM_LAUNCHED("encode_kernel");
}
template void encode_keys<std::uint8_t>(const void*, const std::int64_t*, std::uint8_t*, std::int64_t,
                                        sortkey::Codec, cudaStream_t);
template void encode_keys<std::uint16_t>(const void*, const std::int64_t*, std::uint16_t*, std::int64_t,
                                         sortkey::Codec, cudaStream_t);
template void encode_keys<std::uint32_t>(const void*, const std::int64_t*, std::uint32_t*, std::int64_t,
                                         sortkey::Codec, cudaStream_t);
template void encode_keys<std::uint64_t>(const void*, const std::int64_t*, std::uint64_t*, std::int64_t,
                                         sortkey::Codec, cudaStream_t);

void iota_rows(std::int64_t* out, std::int64_t n, std::int64_t length, cudaStream_t stream) {
  if (n == 0) return;
  iota_kernel<<<blocks_for(n), kThreads, 0, stream>>>(out, n, length);
  LOOM_LAUNCHED("iota_kernel");
}

int* segment_offsets(std::int64_t rows, std::int64_t length, cudaStream_t stream, const Workspace& ws) {
  int* out = static_cast<int*>(ws(static_cast<std::size_t>(rows + 1) * sizeof(int)));
  offsets_kernel<<<blocks_for(rows + 1), kThreads, 0, stream>>>(out, rows, length);
  LOOM_LAUNCHED("offsets_kernel");
  return out;
}

}  // namespace detail

void sort(DType dtype, const void* in, void* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
          const Workspace& ws) {
  const std::int64_t n = rows * length;
  if (n == 0) return;
  if (sorts_in_blocks(length)) {
    const sortkey::Codec c = sortkey::codec_of(dtype, false);
    detail::visit_width(itemsize(dtype), [&]<class U>() {
      if constexpr (sizeof(U) <= 8) detail::block_sort<U>(in, c, static_cast<U*>(out), nullptr, rows, length, stream);
    });
    return;
  }
  if (sorts_row_by_row(rows, length) && detail::sort_native(dtype, in, out, rows, length, stream, ws)) return;
  // The exact bits of -0.0 survive (its key stays below +0.0's: equal values, any order is sorted).
  const sortkey::Codec c = sortkey::codec_of(dtype, false);
  detail::visit_width(itemsize(dtype), [&]<class U>() {
    if constexpr (sizeof(U) <= 8) {
      U* keys = static_cast<U*>(out);  // sorted in place, then decoded in place
      U* alt = static_cast<U*>(ws(static_cast<std::size_t>(n) * sizeof(U)));
      cub::NullType* none = nullptr;
      cub::NullType* none_alt = nullptr;
      detail::encode_keys<U>(in, nullptr, keys, n, c, stream);
      detail::radix_sort<U, cub::NullType>(keys, alt, none, none_alt, rows, length, stream, ws);
      detail::decode_kernel<U><<<detail::blocks_for(n), detail::kThreads, 0, stream>>>(keys, static_cast<U*>(out), n, c);
      LOOM_LAUNCHED("decode_kernel");
    }
  });
}

}  // namespace loom::algo
