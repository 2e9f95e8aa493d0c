// np.sort and np.argsort of many short rows (sorts_in_blocks), a row per block: the row's radix
// keys are encoded as they are loaded, sorted in shared memory by cub::BlockRadixSort (stable),
// and written back decoded (sort) or as int64 indices (argsort): one read and one write of the
// data, one kernel. One instantiation per key width, keys-only or with indices, and block shape
// (kBlockSortShapes).
//
// Slots past the row's end hold the all-ones key, which is also every NaN's key: the sort is
// stable and the padding sits after the real elements in the blocked arrangement it sorts
// (slot = thread * items + item), so NaNs stay before the padding and the first `length` sorted
// slots are the row.

#include <cub/block/block_exchange.cuh>
#include <cub/block/block_radix_sort.cuh>

#include <climits>
#include <type_traits>
#include <utility>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo::detail {

namespace {

// At least 1024 threads resident per SM (64 registers a thread): a block waits on its barriers
// between radix passes, and the other resident blocks hide it.
template <class U, bool Indices, int Threads, int Items>
__global__ void __launch_bounds__(Threads, 1024 / Threads)
    block_sort_kernel(const U* in, sortkey::Codec c, U* keys_out, std::int64_t* idx_out, std::int64_t rows,
                      int length) {
  // Indices within a row fit an int (length <= kBlockSortMaxLength): half the shared memory of int64.
  using Value = std::conditional_t<Indices, int, cub::NullType>;
  using Exchange = cub::BlockExchange<U, Threads, Items>;
  using Sort = cub::BlockRadixSort<U, Threads, Items, Value>;
  __shared__ union {
    typename Exchange::TempStorage exchange;
    typename Sort::TempStorage sort;
  } temp;
  constexpr U kPad = static_cast<U>(~U(0));
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const std::int64_t at = row * length;
    // Striped loads (coalesced), then the blocked arrangement BlockRadixSort ranks stably.
    U keys[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = j * Threads + static_cast<int>(threadIdx.x);
      keys[j] = i < length ? sortkey::encode<U>(in[at + i], c) : kPad;
    }
    Exchange(temp.exchange).StripedToBlocked(keys);
    __syncthreads();  // the sort reuses the exchange's shared memory
    if constexpr (Indices) {
      int idx[Items];
#pragma unroll
      for (int j = 0; j < Items; ++j) idx[j] = static_cast<int>(threadIdx.x) * Items + j;
      Sort(temp.sort).SortBlockedToStriped(keys, idx, 0, kBits);
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = j * Threads + static_cast<int>(threadIdx.x);
        if (i < length) idx_out[at + i] = idx[j];
      }
    } else {
      Sort(temp.sort).SortBlockedToStriped(keys, 0, kBits);
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = j * Threads + static_cast<int>(threadIdx.x);
        if (i < length) keys_out[at + i] = sortkey::decode<U>(keys[j], c);
      }
    }
    __syncthreads();  // the next row's exchange reuses the shared memory
  }
}

template <class U, bool Indices, int K>
void launch_shape(const U* in, sortkey::Codec c, U* keys_out, std::int64_t* idx_out, std::int64_t rows,
                  std::int64_t length, cudaStream_t stream) {
  constexpr int kThreadsK = kBlockSortShapes[K].threads, kItemsK = kBlockSortShapes[K].items;
  const auto grid = static_cast<unsigned>(std::min<std::int64_t>(rows, INT_MAX));
  block_sort_kernel<U, Indices, kThreadsK, kItemsK>
      <<<grid, kThreadsK, 0, stream>>>(in, c, keys_out, idx_out, rows, static_cast<int>(length));
  LOOM_LAUNCHED("block_sort_kernel");
}

template <class U, bool Indices, std::size_t... K>
void launch(std::index_sequence<K...>, const U* in, sortkey::Codec c, U* keys_out, std::int64_t* idx_out,
            std::int64_t rows, std::int64_t length, cudaStream_t stream) {
  const int k = block_sort_shape_index(length);
  ((k == static_cast<int>(K) ? launch_shape<U, Indices, static_cast<int>(K)>(in, c, keys_out, idx_out, rows, length,
                                                                              stream)
                             : void()),
   ...);
}

}  // namespace

template <class U>
void block_sort(const void* in, sortkey::Codec c, U* keys_out, std::int64_t* idx_out, std::int64_t rows,
                std::int64_t length, cudaStream_t stream) {
  if (rows * length == 0) return;
  constexpr auto kShapes = std::make_index_sequence<std::size(kBlockSortShapes)>();
  const U* keys = static_cast<const U*>(in);
  if (idx_out) {
    launch<U, true>(kShapes, keys, c, nullptr, idx_out, rows, length, stream);
  } else {
    launch<U, false>(kShapes, keys, c, keys_out, nullptr, rows, length, stream);
  }
}

template void block_sort<std::uint8_t>(const void*, sortkey::Codec, std::uint8_t*, std::int64_t*, std::int64_t,
                                       std::int64_t, cudaStream_t);
template void block_sort<std::uint16_t>(const void*, sortkey::Codec, std::uint16_t*, std::int64_t*, std::int64_t,
                                        std::int64_t, cudaStream_t);
template void block_sort<std::uint32_t>(const void*, sortkey::Codec, std::uint32_t*, std::int64_t*, std::int64_t,
                                        std::int64_t, cudaStream_t);
template void block_sort<std::uint64_t>(const void*, sortkey::Codec, std::uint64_t*, std::int64_t*, std::int64_t,
                                        std::int64_t, cudaStream_t);

}  // namespace loom::algo::detail
