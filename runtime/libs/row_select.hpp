#pragma once
// The elements at given positions of sorted rows, selected without sorting (runtime/libs/cub/
// row_select.cu): a block per row holds the row's radix keys in shared memory.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include <loom/dtype.hpp>

namespace loom::algo {

// Rows up to this many bytes fit in one block's shared memory (the 48 KiB every GPU gives a
// block without opting in, less the histogram): 11520 float32 or 5760 float64 elements.
inline constexpr std::int64_t kSelectMaxBytes = 45 * 1024;
inline constexpr int kMaxSelectPositions = 16;

// Sorted positions, each in [0, length): a kernel argument.
struct SelectPositions {
  std::int64_t at[kMaxSelectPositions] = {};
  int count = 0;
};

bool selects_in_blocks(std::size_t itemsize, std::int64_t length);

// out[r * pos.count + j] = np.sort(in[r, :])[pos.at[j]] (NaN last; -0.0 before +0.0), for rows
// that selects_in_blocks; any dtype but complex.
void row_select(DType dtype, const void* in, std::int64_t rows, std::int64_t length, const SelectPositions& pos,
                void* out, cudaStream_t stream);

}  // namespace loom::algo
