// Row copies between pitched layouts (an in-place write's region: lib/index/indexing.cpp; a
// concatenation of many evaluated arrays, up to 64 pieces a launch: lib/calls/joining_calls.cpp): each
// thread moves 16 bytes where the pointers, pitches and width allow it (cudaMemcpy2DAsync reached
// 42% of the copy ceiling on a 4096^2 float32 region of an 8192^2 array on the H100).

#include <algorithm>
#include <span>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

namespace {

// Words a thread moves per row: all loaded before any is stored (several loads in flight).
constexpr int kUnroll = 4;

struct Piece {
  const char* src;
  std::int64_t spitch;      // bytes between the piece's rows
  std::int64_t dst_offset;  // bytes from the start of each destination row
  std::int64_t words;       // per row
};
struct Batch {
  Piece p[kMaxRowPieces];
};

// blockIdx.z: the piece; blockIdx.x: a run of columns; rows strided over blockIdx.y.
template <class W>
__global__ void copy_rows_kernel(const __grid_constant__ Batch b, char* dst, std::int64_t dpitch, std::int64_t rows) {
  const Piece& pc = b.p[blockIdx.z];
  const std::int64_t col0 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x * kUnroll + threadIdx.x;
  if (col0 >= pc.words) return;
  for (std::int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    const W* s = reinterpret_cast<const W*>(pc.src + r * pc.spitch);
    W* d = reinterpret_cast<W*>(dst + pc.dst_offset + r * dpitch);
    W v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t c = col0 + static_cast<std::int64_t>(u) * blockDim.x;
      if (c < pc.words) v[u] = s[c];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t c = col0 + static_cast<std::int64_t>(u) * blockDim.x;
      if (c < pc.words) d[c] = v[u];
    }
  }
}

template <class W>
void launch(std::span<const RowPiece> pieces, void* dst, std::int64_t dpitch, std::int64_t rows, cudaStream_t stream) {
  Batch b{};
  std::int64_t most = 0;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const std::int64_t words = pieces[k].width / static_cast<std::int64_t>(sizeof(W));
    b.p[k] = {static_cast<const char*>(pieces[k].src), pieces[k].spitch, pieces[k].dst_offset, words};
    most = std::max(most, words);
  }
  const std::int64_t per_block = std::int64_t{detail::kThreads} * kUnroll;
  const dim3 grid(static_cast<unsigned>((most + per_block - 1) / per_block),
                  static_cast<unsigned>(std::min<std::int64_t>(rows, 65535)), static_cast<unsigned>(pieces.size()));
  copy_rows_kernel<W><<<grid, detail::kThreads, 0, stream>>>(b, static_cast<char*>(dst), dpitch, rows);
  LOOM_LAUNCHED("loom copy rows");
}

}  // namespace

void copy_rows_batched(std::span<const RowPiece> pieces, void* dst, std::int64_t dpitch, std::int64_t rows,
                       cudaStream_t stream) {
  if (rows <= 0) return;
  for (std::size_t at = 0; at < pieces.size(); at += kMaxRowPieces) {
    const auto batch = pieces.subspan(at, std::min<std::size_t>(kMaxRowPieces, pieces.size() - at));
    // The widest word every piece's pointers, pitches and widths allow.
    auto bits = reinterpret_cast<std::uintptr_t>(dst) | static_cast<std::uintptr_t>(dpitch);
    std::int64_t most = 0;
    for (const RowPiece& p : batch) {
      bits |= reinterpret_cast<std::uintptr_t>(p.src) | static_cast<std::uintptr_t>(p.spitch) |
              static_cast<std::uintptr_t>(p.dst_offset) | static_cast<std::uintptr_t>(p.width);
      most = std::max(most, p.width);
    }
    if (most <= 0) continue;
    if (bits % 16 == 0) launch<uint4>(batch, dst, dpitch, rows, stream);
    else if (bits % 8 == 0) launch<std::uint64_t>(batch, dst, dpitch, rows, stream);
    else if (bits % 4 == 0) launch<std::uint32_t>(batch, dst, dpitch, rows, stream);
    else if (bits % 2 == 0) launch<std::uint16_t>(batch, dst, dpitch, rows, stream);
    else launch<std::uint8_t>(batch, dst, dpitch, rows, stream);
  }
}

void copy_rows(const void* src, std::int64_t spitch, void* dst, std::int64_t dpitch, std::int64_t width,
               std::int64_t rows, cudaStream_t stream) {
  if (width <= 0) return;
  const RowPiece one{src, spitch, 0, width};
  copy_rows_batched(std::span<const RowPiece>(&one, 1), dst, dpitch, rows, stream);
}

}  // namespace loom::algo
