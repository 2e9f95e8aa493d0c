// Row copies between pitched layouts (an in-place write's region: lib/calls/indexing.cpp): each
// thread moves 16 bytes where the pointers, pitches and width allow it (cudaMemcpy2DAsync reached
// 42% of the copy ceiling on a 4096^2 float32 region of an 8192^2 array on the H100).

#include <algorithm>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

namespace {

// Words a thread moves per row: all loaded before any is stored (several loads in flight).
constexpr int kUnroll = 4;

template <class W>
__global__ void copy_rows_kernel(const char* src, std::int64_t spitch, char* dst, std::int64_t dpitch, std::int64_t words,
                                 std::int64_t rows) {
  const std::int64_t col0 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x * kUnroll + threadIdx.x;
  for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const W* s = reinterpret_cast<const W*>(src + r * spitch);
    W* d = reinterpret_cast<W*>(dst + r * dpitch);
    W v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t c = col0 + static_cast<std::int64_t>(u) * blockDim.x;
      if (c < words) v[u] = s[c];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t c = col0 + static_cast<std::int64_t>(u) * blockDim.x;
      if (c < words) d[c] = v[u];
    }
  }
}

template <class W>
void launch(const void* src, std::int64_t spitch, void* dst, std::int64_t dpitch, std::int64_t width, std::int64_t rows,
            cudaStream_t stream) {
  const std::int64_t words = width / static_cast<std::int64_t>(sizeof(W));
  const std::int64_t per_block = std::int64_t{detail::kThreads} * kUnroll;
  const dim3 grid(static_cast<unsigned>((words + per_block - 1) / per_block),
                  static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)));
  copy_rows_kernel<W><<<grid, detail::kThreads, 0, stream>>>(static_cast<const char*>(src), spitch,
                                                             static_cast<char*>(dst), dpitch, words, rows);
  LOOM_LAUNCHED("loom copy rows");
}

}  // namespace

void copy_rows(const void* src, std::int64_t spitch, void* dst, std::int64_t dpitch, std::int64_t width,
               std::int64_t rows, cudaStream_t stream) {
  if (width <= 0 || rows <= 0) return;
  const auto bits = reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst) |
                    static_cast<std::uintptr_t>(spitch) | static_cast<std::uintptr_t>(dpitch) |
                    static_cast<std::uintptr_t>(width);
  if (bits % 16 == 0) return launch<uint4>(src, spitch, dst, dpitch, width, rows, stream);
  if (bits % 8 == 0) return launch<std::uint64_t>(src, spitch, dst, dpitch, width, rows, stream);
  if (bits % 4 == 0) return launch<std::uint32_t>(src, spitch, dst, dpitch, width, rows, stream);
  if (bits % 2 == 0) return launch<std::uint16_t>(src, spitch, dst, dpitch, width, rows, stream);
  launch<std::uint8_t>(src, spitch, dst, dpitch, width, rows, stream);
}

}  // namespace loom::algo
