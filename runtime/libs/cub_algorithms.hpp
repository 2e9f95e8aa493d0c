#pragma once
// CUB's device-wide sort, scan and select, compiled ahead by nvcc (runtime/libs/cub/*.cu), behind
// plain C++ entry points for lib/calls. Each takes device pointers, sizes, a stream and a
// workspace allocator: CUB's two-phase temp storage (query the size, then take it from the
// allocator, which is the call's pool workspace). Nothing here synchronizes or allocates with
// cudaMalloc. Arrays are C-contiguous; "rows x length" means the op runs along each row.
//
// Sorts work on radix keys (runtime/libs/sort_key.hpp): one instantiation per key width, not per
// dtype. Complex dtypes have no radix key: the caller sorts them by their parts (a lexsort).

#include <cstdint>
#include <functional>
#include <iterator>
#include <span>

#include <cuda_runtime_api.h>

#include <loom/dtype.hpp>
#include <loom/shape.hpp>

#include "runtime/libs/ufunc_at_fold.hpp"

namespace loom::algo {

// Stream-ordered device memory that stays valid for the work queued on the call's stream.
using Workspace = std::function<void*(std::size_t nbytes)>;

// How rows are sorted: one cub::DeviceRadixSort per row when there are few long rows
// (cub::DeviceSegmentedRadixSort gives each row a single block), else segmented.
inline bool sorts_row_by_row(std::int64_t rows, std::int64_t length) {
  return rows == 1 || (length >= (std::int64_t{1} << 16) && rows <= 64);
}

// Rows of at most kBlockSortMaxLength elements (any number of rows) are sorted a row per block
// in shared memory (cub::BlockRadixSort, runtime/libs/cub/cub_sort_block.cu): one read and one
// write of the data, where the segmented sort gives each row a block too but runs a kernel per
// radix pass (and encodes and decodes in passes of their own). Longer rows take the paths above.
inline constexpr std::int64_t kBlockSortMaxLength = 4096;
inline bool sorts_in_blocks(std::int64_t length) { return length >= 1 && length <= kBlockSortMaxLength; }

// The block shape for rows of `length` (<= kBlockSortMaxLength): threads x items per thread. Few
// shapes, each compiled for every key width, keys-only and with indices (nvcc time counts).
struct BlockSortShape {
  int threads, items;
};
// One warp for rows up to 128 (no block-wide barriers' worth of idle slots for short rows).
inline constexpr BlockSortShape kBlockSortShapes[] = {{32, 4}, {128, 4}, {256, 8}, {512, 8}};
// The index in kBlockSortShapes of the smallest shape that holds a row of `length`.
inline int block_sort_shape_index(std::int64_t length) {
  int k = 0;
  while (k + 1 < static_cast<int>(std::size(kBlockSortShapes)) &&
         length > std::int64_t{kBlockSortShapes[k].threads} * kBlockSortShapes[k].items) {
    ++k;
  }
  return k;
}

// `rows` rows of `width` bytes from src (rows `spitch` bytes apart) to dst (`dpitch` apart): 16
// bytes per thread where the alignment allows (runtime/libs/cub/copy_rows.cu).
void copy_rows(const void* src, std::int64_t spitch, void* dst, std::int64_t dpitch, std::int64_t width,
               std::int64_t rows, cudaStream_t stream);
// Several such copies into one destination, one launch per kMaxRowPieces: row r of piece k
// (`width` bytes at src + r * spitch) goes to dst + r * dpitch + dst_offset.
struct RowPiece {
  const void* src;
  std::int64_t spitch, dst_offset, width;
};
inline constexpr std::size_t kMaxRowPieces = 64;
void copy_rows_batched(std::span<const RowPiece> pieces, void* dst, std::int64_t dpitch, std::int64_t rows,
                       cudaStream_t stream);

// out[i] = in[idx[i]] (elements of itemsize bytes; every index in range).
void take(std::size_t itemsize, const void* in, const std::int64_t* idx, std::int64_t m, void* out,
          cudaStream_t stream);

// Dtypes whose rows sorts_row_by_row sorts on CUB's own key types (no radix-key passes).
inline bool sorts_natively(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Int32 || t == DType::Int64 || t == DType::Bool ||
         t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

// out[r, :] = np.sort(in[r, :]) (NaN last). in and out may not alias.
void sort(DType dtype, const void* in, void* out, std::int64_t rows, std::int64_t length,
          cudaStream_t stream, const Workspace& ws);
// out[r, :] = np.argsort(in[r, :], kind="stable"): int64 indices within each row.
void argsort(DType dtype, const void* in, std::int64_t* out, std::int64_t rows, std::int64_t length,
             cudaStream_t stream, const Workspace& ws);
// np.lexsort: keys[k] holds n elements of dtypes[k]; the last key is the primary one.
void lexsort(std::span<const DType> dtypes, std::span<const void* const> keys, std::int64_t n,
             std::int64_t* out, cudaStream_t stream, const Workspace& ws);

// out[i] = np.searchsorted(sorted, v[i], side): sorted holds n elements, v m, of one dtype.
void searchsorted(DType dtype, const void* sorted, std::int64_t n, const void* v, std::int64_t m,
                  bool right, std::int64_t* out, cudaStream_t stream);

// Inclusive scans along each row; in and out have `dtype`, the accumulation dtype (the caller
// casts first). Integers accumulate with wrap-around; float16/bfloat16 round after every step.
enum class ScanOp { Sum, Prod };
void inclusive_scan(DType dtype, ScanOp op, const void* in, void* out, std::int64_t rows,
                    std::int64_t length, cudaStream_t stream, const Workspace& ws);

// counts[b] = the number of ids[i] == b for b < nbins (int64), ids outside [0, nbins) not
// counted: np.histogram's counts from its bin ids (cub::DeviceHistogram::HistogramEven).
void count_bins(const std::int32_t* ids, std::int64_t m, std::int32_t nbins, std::int64_t* counts, cudaStream_t stream,
                const Workspace& ws);

// np.add.at's accumulation: agg[b] = the reduction by `op` of values[i] over the i < m with
// pos[i] == b (in increasing i), or op's identity where there is none (0, -0.0, 1, the largest or
// the smallest value); hit[b] (when not null): some pos[i] == b. `dtype` is one of
// Int64, UInt64, Bool (Sum is logical or, Prod logical and), Float32, Float64, Complex64,
// Complex128 (Min and Max in NumPy's complex order). pos holds m positions in [0, n): uint32
// when pos32, else int64. values null: every value is 1 (np.bincount without weights).
//
// Integers and bools accumulate with atomics, whose result is exact in any order. Floating point
// does too when `atomic` (fast, order-dependent in the last bits); otherwise (the default) the
// values are sorted by position with a stable radix sort (cub::DeviceRadixSort::SortPairs, on
// the position's bits only) and each position's run is reduced in a fixed order (by a warp,
// or by cub::DeviceSegmentedReduce for long runs): the same bits every run. Complex products, minima and maxima
// always take the sorted path.
//
// With `record` (the atomic path only), pos holds the user's indices (int64) into an axis of n,
// unchecked: each is counted from the end where negative, and one out of [-n, n) is recorded in
// the device's error record (runtime/device_errors.hpp; axis 0) and skipped, as Op::CheckIndex
// does, without a kernel that writes the checked positions first.
enum class ScatterOp { Sum, Prod, Min, Max };
void scatter_reduce(DType dtype, ScatterOp op, const void* pos, bool pos32, const void* values, std::int64_t m,
                    void* agg, bool* hit, std::int64_t n, bool atomic, cudaStream_t stream, const Workspace& ws,
                    std::uint64_t* record = nullptr);
// Runs this long on average (m / n) or longer are reduced a block per run (cub::
// DeviceSegmentedReduce), shorter ones a warp per run.
inline constexpr std::int64_t kScatterBlockRun = 2048;
// Whether scatter_reduce uses atomics for these arguments (for explain()).
bool scatter_uses_atomics(DType dtype, ScatterOp op, bool atomic);

// NumPy's ufunc.at as a fold (runtime/libs/ufunc_at_fold.hpp): held_out[b] is held_in[b] after
// foldat::step with each values[i] whose pos[i] == b, in increasing i. values (m) are of the
// `compute` dtype (an integer, Float32 with `rounding`, Float64, Complex64, Complex128); pos as
// for scatter_reduce. The (position, index) pairs are sorted stably by position
// (cub::DeviceRadixSort::SortPairs), then one thread per position folds its run in order: the
// same bits every run, as slow as the longest run (NumPy's order admits no parallel sum).
void scatter_fold(DType compute, foldat::FoldOp op, foldat::Rounding rounding, DType target, const void* pos,
                  bool pos32, const void* values, std::int64_t m, const std::int64_t* held_in, std::int64_t* held_out,
                  std::int64_t n, cudaStream_t stream, const Workspace& ws);

// cub::DeviceSelect::Flagged: the elements (itemsize bytes each) of `in` whose flag is nonzero,
// in order, into out (sized for them by the caller, who counted the flags).
void select_flagged(std::size_t itemsize, const void* in, const bool* flags, std::int64_t n, void* out,
                    cudaStream_t stream, const Workspace& ws);
// The flat indices of the nonzero flags, then (when ndim > 1) their multi-indices: outs[d][j] is
// the index along dim d of the j-th of `count` selected elements (outs[0] may hold the flat ones).
void nonzero(const bool* flags, const Shape& shape, std::int64_t count, std::span<std::int64_t* const> outs,
             cudaStream_t stream, const Workspace& ws);

// np.unique in two steps around the one read of the count. unique_sort: perm (n) is the stable
// argsort of `in` (flattened), starts (n) the sorted positions where a new value begins, and
// *count_host the number of unique values (the call waits for the stream to read it).
void unique_sort(DType dtype, const void* in, std::int64_t n, std::int64_t* perm, std::int64_t* starts,
                 std::int64_t* count_host, cudaStream_t stream, const Workspace& ws);
// The same for complex values already sorted (NumPy's complex order): starts and *count_host
// from NumPy's unique equality (equal parts, or a NaN in both: np.unique's equal_nan=True).
void unique_starts_complex(DType dtype, const void* sorted, std::int64_t n, std::int64_t* starts,
                           std::int64_t* count_host, cudaStream_t stream, const Workspace& ws);
// Fills the outputs asked for (null: not asked): values (count, the first occurrence's bits),
// index (count), inverse (n), counts (count).
void unique_outputs(std::size_t itemsize, const void* in, std::int64_t n, const std::int64_t* perm,
                    const std::int64_t* starts, std::int64_t count, void* values, std::int64_t* index,
                    std::int64_t* inverse, std::int64_t* counts, cudaStream_t stream);

}  // namespace loom::algo
