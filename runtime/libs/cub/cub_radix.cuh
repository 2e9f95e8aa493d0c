#pragma once
// The radix sort driver shared by the keys-only and the key-value translation units: how rows
// are cut into CUB calls and where the sorted data ends up.
//
// Rows of sorts_in_blocks length never come here (cub_sort_block.cu), except lexsort's and
// unique's single rows. One row, or a few long ones (sorts_row_by_row): cub::DeviceRadixSort per
// row (64-bit sizes). Otherwise DeviceSegmentedRadixSort, in batches whose sizes fit its int arguments.

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <climits>

#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo::detail {

// offsets[k] = k * length for k <= rows (int: DeviceSegmentedRadixSort's offset type here).
int* segment_offsets(std::int64_t rows, std::int64_t length, cudaStream_t stream, const Workspace& ws);

// Sorts keys (with values when V is std::int64_t; cub::NullType: keys only). On return, keys and
// values point at the buffers holding the result (a swap with alt when CUB left it there).
template <class U, class V>
void radix_sort(U*& keys, U*& keys_alt, V*& values, V*& values_alt, std::int64_t rows, std::int64_t length,
                cudaStream_t stream, const Workspace& ws) {
  constexpr bool kPairs = !std::is_same_v<V, cub::NullType>;
  constexpr int kEndBit = static_cast<int>(sizeof(U) * 8);
  if (rows * length == 0) return;
  // Sorts rows [first, first + count); true when the result is in the alternate buffers.
  const auto sort_rows = [&](std::int64_t first, std::int64_t count) {
    const std::int64_t at = first * length, n = count * length;
    cub::DoubleBuffer<U> kb(keys + at, keys_alt + at);
    cub::DoubleBuffer<V> vb;
    if constexpr (kPairs) vb = cub::DoubleBuffer<V>(values + at, values_alt + at);
    if (count == 1) {
      LOOM_CUB(kPairs ? "cub::DeviceRadixSort::SortPairs" : "cub::DeviceRadixSort::SortKeys", ws,
               [&](void* t, std::size_t& b) {
                 if constexpr (kPairs) {
                   return cub::DeviceRadixSort::SortPairs(t, b, kb, vb, n, 0, kEndBit, stream);
                 } else {
                   return cub::DeviceRadixSort::SortKeys(t, b, kb, n, 0, kEndBit, stream);
                 }
               });
    } else {
      const int* off = segment_offsets(count, length, stream, ws);
      const int ni = static_cast<int>(n), ns = static_cast<int>(count);
      LOOM_CUB(kPairs ? "cub::DeviceSegmentedRadixSort::SortPairs" : "cub::DeviceSegmentedRadixSort::SortKeys",
               ws, [&](void* t, std::size_t& b) {
                 if constexpr (kPairs) {
                   return cub::DeviceSegmentedRadixSort::SortPairs(t, b, kb, vb, ni, ns, off, off + 1, 0, kEndBit,
                                                                   stream);
                 } else {
                   return cub::DeviceSegmentedRadixSort::SortKeys(t, b, kb, ni, ns, off, off + 1, 0, kEndBit, stream);
                 }
               });
    }
    return kb.selector == 1;
  };
  const std::int64_t batch = sorts_row_by_row(rows, length) ? 1 : std::max<std::int64_t>(1, INT_MAX / length);
  if (batch >= rows) {
    if (sort_rows(0, rows)) {
      std::swap(keys, keys_alt);
      if constexpr (kPairs) std::swap(values, values_alt);
    }
    return;
  }
  // Several calls: each call's result is brought back to the primary buffers.
  for (std::int64_t first = 0; first < rows; first += batch) {
    const std::int64_t count = std::min(batch, rows - first);
    if (!sort_rows(first, count)) continue;
    const std::int64_t at = first * length, n = count * length;
    LOOM_CHECK_CUDA(cudaMemcpyAsync(keys + at, keys_alt + at, static_cast<std::size_t>(n) * sizeof(U),
                                    cudaMemcpyDeviceToDevice, stream));
    if constexpr (kPairs) {
      LOOM_CHECK_CUDA(cudaMemcpyAsync(values + at, values_alt + at, static_cast<std::size_t>(n) * sizeof(V),
                                      cudaMemcpyDeviceToDevice, stream));
    }
  }
}

}  // namespace loom::algo::detail
