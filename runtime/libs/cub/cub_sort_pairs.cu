// Stable index sorts on the GPU (np.argsort, np.lexsort, the sort inside np.unique): radix keys
// with int64 indices as values, cub::DeviceRadixSort::SortPairs (stable), one instantiation per
// key width. -0.0 and +0.0 get one key here, so they keep their order as equal values must.

#include "runtime/libs/cub/cub_radix.cuh"

namespace loom::algo {

namespace {

using detail::blocks_for;
using detail::kThreads;

template <class U> U* scratch(const Workspace& ws, std::int64_t n) {
  return static_cast<U*>(ws(static_cast<std::size_t>(n) * sizeof(U)));
}

// Sorts (keys of `in`, or of in[perm[i]] when gather) with perm as the values; perm ends sorted
// in place, and the sorted keys are returned (in workspace).
template <class U>
const U* sort_perm(const void* in, bool gather, sortkey::Codec c, std::int64_t* perm, std::int64_t rows,
                   std::int64_t length, cudaStream_t stream, const Workspace& ws) {
  const std::int64_t n = rows * length;
  U* keys = scratch<U>(ws, n);
  U* keys_alt = scratch<U>(ws, n);
  std::int64_t* values = perm;
  std::int64_t* values_alt = scratch<std::int64_t>(ws, n);
  detail::encode_keys<U>(in, gather ? perm : nullptr, keys, n, c, stream);
  detail::radix_sort<U, std::int64_t>(keys, keys_alt, values, values_alt, rows, length, stream, ws);
  if (values != perm) {
    LOOM_CHECK_CUDA(cudaMemcpyAsync(perm, values, static_cast<std::size_t>(n) * sizeof(std::int64_t),
                                    cudaMemcpyDeviceToDevice, stream));
  }
  return keys;
}

// flags[i]: sorted key i starts a new value.
template <class U> __global__ void run_starts_kernel(const U* keys, bool* flags, std::int64_t n) {
  LOOM_GRID_STRIDE(i, n) flags[i] = i == 0 || keys[i] != keys[i - 1];
}

}  // namespace

void argsort(DType dtype, const void* in, std::int64_t* out, std::int64_t rows, std::int64_t length,
             cudaStream_t stream, const Workspace& ws) {
  if (rows * length == 0) return;
  const sortkey::Codec c = sortkey::codec_of(dtype, true);
  if (sorts_in_blocks(length)) {
    detail::visit_width(itemsize(dtype), [&]<class U>() {
      if constexpr (sizeof(U) <= 8) detail::block_sort<U>(in, c, nullptr, out, rows, length, stream);
    });
    return;
  }
  detail::iota_rows(out, rows * length, length, stream);
  detail::visit_width(itemsize(dtype), [&]<class U>() {
    if constexpr (sizeof(U) <= 8) sort_perm<U>(in, false, c, out, rows, length, stream, ws);
  });
}

void lexsort(std::span<const DType> dtypes, std::span<const void* const> keys, std::int64_t n, std::int64_t* out,
             cudaStream_t stream, const Workspace& ws) {
  if (n == 0) return;
  detail::iota_rows(out, n, n, stream);
  // Least significant key first: each stable pass keeps the order the previous keys made.
  for (std::size_t k = 0; k < keys.size(); ++k) {
    detail::visit_width(itemsize(dtypes[k]), [&]<class U>() {
      if constexpr (sizeof(U) <= 8) sort_perm<U>(keys[k], true, sortkey::codec_of(dtypes[k], true), out, 1, n, stream, ws);
    });
  }
}

void unique_sort(DType dtype, const void* in, std::int64_t n, std::int64_t* perm, std::int64_t* starts,
                 std::int64_t* count_host, cudaStream_t stream, const Workspace& ws) {
  *count_host = 0;
  if (n == 0) return;
  bool* flags = scratch<bool>(ws, n);
  detail::iota_rows(perm, n, n, stream);
  detail::visit_width(itemsize(dtype), [&]<class U>() {
    if constexpr (sizeof(U) <= 8) {
      const U* sorted = sort_perm<U>(in, false, sortkey::codec_of(dtype, true), perm, 1, n, stream, ws);
      run_starts_kernel<U><<<blocks_for(n), kThreads, 0, stream>>>(sorted, flags, n);
      LOOM_LAUNCHED("run_starts_kernel");
    }
  });
  detail::read_run_starts(flags, n, starts, count_host, stream, ws);
}

}  // namespace loom::algo
