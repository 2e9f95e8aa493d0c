// The elements at given positions of each row in np.sort's order (NaN last), without sorting:
// a block per row loads the row's radix keys (runtime/libs/sort_key.hpp) into shared memory and
// narrows each position's key one byte at a time, most significant first, by a 256-bin histogram
// of the keys that still match (warp-aggregated shared-memory atomics: one add per distinct bin
// per warp, so rows whose keys share their top byte do not serialize). The median and quantiles
// of rows that fit in shared memory read them once from global memory.

#include "runtime/libs/cub/cub_common.cuh"
#include "runtime/libs/row_select.hpp"

namespace loom::algo {

namespace {

constexpr int kSelectThreads = 512;

template <class U>
__global__ void __launch_bounds__(kSelectThreads)
    row_select_kernel(const U* in, sortkey::Codec c, std::int64_t length, SelectPositions pos, U* out) {
  extern __shared__ unsigned char smem[];
  U* keys = reinterpret_cast<U*>(smem);
  __shared__ unsigned hist[256];
  __shared__ U s_prefix;
  __shared__ unsigned s_rank;
  const std::int64_t row = blockIdx.x;
  const U* src = in + row * length;
  const int n = static_cast<int>(length);
  for (int i = static_cast<int>(threadIdx.x); i < n; i += blockDim.x) keys[i] = sortkey::encode<U>(src[i], c);
  const unsigned lane = threadIdx.x & 31u;
  for (int j = 0; j < pos.count; ++j) {
    U prefix = 0, mask = 0;
    unsigned rank = static_cast<unsigned>(pos.at[j]);
    for (int shift = static_cast<int>(sizeof(U)) * 8 - 8; shift >= 0; shift -= 8) {
      for (int b = static_cast<int>(threadIdx.x); b < 256; b += blockDim.x) hist[b] = 0;
      __syncthreads();
      // (every thread of a warp runs the same number of rounds: the match below needs all lanes)
      const int rounds = (n + static_cast<int>(blockDim.x) - 1) / static_cast<int>(blockDim.x);
      for (int r = 0; r < rounds; ++r) {
        const int i = r * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x);
        unsigned bin = 256;
        if (i < n) {
          const U key = keys[i];
          if (static_cast<U>(key & mask) == prefix) bin = static_cast<unsigned>((key >> shift) & 0xFF);
        }
        const unsigned same = __match_any_sync(0xFFFFFFFFu, bin);
        if (bin < 256 && (__ffs(same) - 1) == static_cast<int>(lane)) atomicAdd(&hist[bin], __popc(same));
      }
      __syncthreads();
      if (threadIdx.x < 32) {
        // Each lane sums 8 bins; the lane whose range holds the rank finds the byte.
        unsigned local[8], sum = 0;
        for (int t = 0; t < 8; ++t) sum += (local[t] = hist[lane * 8 + t]);
        unsigned incl = sum;
        for (int o = 1; o < 32; o <<= 1) {
          const unsigned v = __shfl_up_sync(0xFFFFFFFFu, incl, o);
          if (lane >= static_cast<unsigned>(o)) incl += v;
        }
        const unsigned excl = incl - sum;
        if (rank >= excl && rank < incl) {
          unsigned cum = excl;
          int d = 0;
          for (; d < 7 && rank >= cum + local[d]; ++d) cum += local[d];
          s_prefix = static_cast<U>(prefix | (static_cast<U>(lane * 8 + d) << shift));
          s_rank = rank - cum;
        }
      }
      __syncthreads();
      prefix = s_prefix;
      rank = s_rank;
      mask = static_cast<U>(mask | (static_cast<U>(0xFF) << shift));
    }
    if (threadIdx.x == 0) out[row * pos.count + j] = sortkey::decode<U>(prefix, c);
    __syncthreads();
  }
}

}  // namespace

bool selects_in_blocks(std::size_t itemsize, std::int64_t length) {
  return length >= 1 && static_cast<std::int64_t>(itemsize) * length <= kSelectMaxBytes;
}

void row_select(DType dtype, const void* in, std::int64_t rows, std::int64_t length, const SelectPositions& pos,
                void* out, cudaStream_t stream) {
  if (rows == 0 || pos.count == 0) return;
  const sortkey::Codec c = sortkey::codec_of(dtype, false);
  const std::size_t smem = static_cast<std::size_t>(length) * itemsize(dtype);
  const int threads = static_cast<int>(std::min<std::int64_t>(kSelectThreads, (length + 31) / 32 * 32));
  detail::visit_width(itemsize(dtype), [&]<class U>() {
    if constexpr (sizeof(U) <= 8) {
      row_select_kernel<U><<<static_cast<unsigned>(rows), threads, smem, stream>>>(static_cast<const U*>(in), c, length,
                                                                                   pos, static_cast<U*>(out));
      LOOM_LAUNCHED("row_select_kernel");
    }
  });
}

}  // namespace loom::algo
