// Selections on the GPU: cub::DeviceSelect::Flagged for boolean masks and np.nonzero, the
// outputs of np.unique, and np.searchsorted (a binary search per value, on radix keys).

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "runtime/libs/complex_order.hpp"
#include "runtime/libs/cub/cub_common.cuh"

namespace loom::algo {

namespace {

using detail::blocks_for;
using detail::kThreads;

struct DimsArg {
  std::int64_t extent[kMaxDims];
  std::int64_t* out[kMaxDims];
  int ndim;
};

// outs[d][j] = index along dim d of flat index flat[j] (C order).
__global__ void unravel_kernel(const std::int64_t* flat, std::int64_t count, DimsArg dims) {
  LOOM_GRID_STRIDE(j, count) {
    std::int64_t f = flat[j];
    for (int d = dims.ndim - 1; d >= 0; --d) {
      dims.out[d][j] = f % dims.extent[d];
      f /= dims.extent[d];
    }
  }
}

// The first j with starts[j] > i (starts is ascending).
__device__ std::int64_t upper_bound(const std::int64_t* starts, std::int64_t count, std::int64_t i) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= i) lo = mid + 1; else hi = mid;
  }
  return lo;
}

template <class U>
__global__ void unique_kernel(const U* in, std::int64_t n, const std::int64_t* perm, const std::int64_t* starts,
                              std::int64_t count, U* values, std::int64_t* index, std::int64_t* counts) {
  LOOM_GRID_STRIDE(j, count) {
    const std::int64_t first = perm[starts[j]];  // stable: the first occurrence in the input
    if (values) values[j] = in[first];
    if (index) index[j] = first;
    if (counts) counts[j] = (j + 1 < count ? starts[j + 1] : n) - starts[j];
  }
}

__global__ void inverse_kernel(const std::int64_t* perm, const std::int64_t* starts, std::int64_t count,
                               std::int64_t n, std::int64_t* inverse) {
  LOOM_GRID_STRIDE(i, n) inverse[perm[i]] = upper_bound(starts, count, i) - 1;
}

template <class U>
__global__ void search_kernel(const U* sorted, std::int64_t n, const U* v, std::int64_t m, bool right,
                              sortkey::Codec c, std::int64_t* out) {
  LOOM_GRID_STRIDE(j, m) {
    const U key = sortkey::encode<U>(v[j], c);
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const U k = sortkey::encode<U>(sorted[mid], c);
      if (right ? k <= key : k < key) lo = mid + 1; else hi = mid;
    }
    out[j] = lo;
  }
}

// The same search on complex values (R: float or double), in NumPy's complex order.
template <class R>
__global__ void search_complex_kernel(const R* sorted, std::int64_t n, const R* v, std::int64_t m, bool right,
                                      std::int64_t* out) {
  LOOM_GRID_STRIDE(j, m) {
    const R qr = v[2 * j], qi = v[2 * j + 1];
    std::int64_t lo = 0, hi = n;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const R sr = sorted[2 * mid], si = sorted[2 * mid + 1];
      // left: go right while sorted[mid] < q; right: while !(q < sorted[mid]).
      const bool after = right ? !complexorder::less(qr, qi, sr, si) : complexorder::less(sr, si, qr, qi);
      if (after) lo = mid + 1; else hi = mid;
    }
    out[j] = lo;
  }
}

// flags[i]: sorted complex value i starts a new unique value (np.unique, equal_nan=True).
template <class R> __global__ void complex_starts_kernel(const R* sorted, bool* flags, std::int64_t n) {
  LOOM_GRID_STRIDE(i, n) {
    flags[i] = i == 0 || !complexorder::same(sorted[2 * i], sorted[2 * i + 1], sorted[2 * i - 2], sorted[2 * i - 1]);
  }
}

template <class U> __global__ void take_kernel(const U* in, const std::int64_t* idx, std::int64_t m, U* out) {
  LOOM_GRID_STRIDE(i, m) out[i] = in[idx[i]];
}

}  // namespace

namespace detail {

void flagged_indices(const bool* flags, std::int64_t n, std::int64_t* out, std::int64_t* d_count,
                     cudaStream_t stream, const Workspace& ws) {
  const thrust::counting_iterator<std::int64_t> first(0);
  LOOM_CUB("cub::DeviceSelect::Flagged", ws, [&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, first, flags, out, d_count, n, stream);
  });
}

void read_run_starts(const bool* flags, std::int64_t n, std::int64_t* starts, std::int64_t* count_host,
                     cudaStream_t stream, const Workspace& ws) {
  auto* d_count = static_cast<std::int64_t*>(ws(sizeof(std::int64_t)));
  flagged_indices(flags, n, starts, d_count, stream, ws);
  LOOM_CHECK_CUDA(cudaMemcpyAsync(count_host, d_count, sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream));
  LOOM_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace detail

void select_flagged(std::size_t itemsize, const void* in, const bool* flags, std::int64_t n, void* out,
                    cudaStream_t stream, const Workspace& ws) {
  if (n == 0) return;
  auto* d_count = static_cast<std::int64_t*>(ws(sizeof(std::int64_t)));
  detail::visit_width(itemsize, [&]<class U>() {
    LOOM_CUB("cub::DeviceSelect::Flagged", ws, [&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, static_cast<const U*>(in), flags, static_cast<U*>(out), d_count, n,
                                        stream);
    });
  });
}

void nonzero(const bool* flags, const Shape& shape, std::int64_t count, std::span<std::int64_t* const> outs,
             cudaStream_t stream, const Workspace& ws) {
  const std::int64_t n = shape.numel();
  if (n == 0 || count == 0) return;
  auto* d_count = static_cast<std::int64_t*>(ws(sizeof(std::int64_t)));
  const bool flat_only = shape.size() == 1;
  auto* flat = flat_only ? outs[0] : static_cast<std::int64_t*>(ws(static_cast<std::size_t>(count) * 8));
  detail::flagged_indices(flags, n, flat, d_count, stream, ws);
  if (flat_only) return;
  DimsArg dims{};
  dims.ndim = shape.size();
  for (int d = 0; d < dims.ndim; ++d) {
    dims.extent[d] = shape[d];
    dims.out[d] = outs[static_cast<std::size_t>(d)];
  }
  unravel_kernel<<<blocks_for(count), kThreads, 0, stream>>>(flat, count, dims);
  LOOM_LAUNCHED("unravel_kernel");
}

void unique_outputs(std::size_t itemsize, const void* in, std::int64_t n, const std::int64_t* perm,
                    const std::int64_t* starts, std::int64_t count, void* values, std::int64_t* index,
                    std::int64_t* inverse, std::int64_t* counts, cudaStream_t stream) {
  if (count == 0) return;
  detail::visit_width(itemsize, [&]<class U>() {
    unique_kernel<U><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const U*>(in), n, perm, starts, count,
                                                                  static_cast<U*>(values), index, counts);
    LOOM_LAUNCHED("unique_kernel");
  });
  if (inverse) {
    inverse_kernel<<<blocks_for(n), kThreads, 0, stream>>>(perm, starts, count, n, inverse);
    LOOM_LAUNCHED("inverse_kernel");
  }
}

void searchsorted(DType dtype, const void* sorted, std::int64_t n, const void* v, std::int64_t m, bool right,
                  std::int64_t* out, cudaStream_t stream) {
  if (m == 0) return;
  if (is_complex(dtype)) {
    const auto launch = [&]<class R>() {
      search_complex_kernel<R><<<blocks_for(m), kThreads, 0, stream>>>(static_cast<const R*>(sorted), n,
                                                                        static_cast<const R*>(v), m, right, out);
      LOOM_LAUNCHED("search_complex_kernel");
    };
    if (dtype == DType::Complex64) launch.operator()<float>(); else launch.operator()<double>();
    return;
  }
  const sortkey::Codec c = sortkey::codec_of(dtype, true);
  detail::visit_width(itemsize(dtype), [&]<class U>() {
    if constexpr (sizeof(U) <= 8) {
      search_kernel<U><<<blocks_for(m), kThreads, 0, stream>>>(static_cast<const U*>(sorted), n,
                                                                static_cast<const U*>(v), m, right, c, out);
      LOOM_LAUNCHED("search_kernel");
    }
  });
}

void unique_starts_complex(DType dtype, const void* sorted, std::int64_t n, std::int64_t* starts,
                           std::int64_t* count_host, cudaStream_t stream, const Workspace& ws) {
  *count_host = 0;
  if (n == 0) return;
  bool* flags = static_cast<bool*>(ws(static_cast<std::size_t>(n)));
  const auto launch = [&]<class R>() {
    complex_starts_kernel<R><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const R*>(sorted), flags, n);
    LOOM_LAUNCHED("complex_starts_kernel");
  };
  if (dtype == DType::Complex64) launch.operator()<float>(); else launch.operator()<double>();
  detail::read_run_starts(flags, n, starts, count_host, stream, ws);
}

void take(std::size_t itemsize, const void* in, const std::int64_t* idx, std::int64_t m, void* out,
          cudaStream_t stream) {
  if (m == 0) return;
  detail::visit_width(itemsize, [&]<class U>() {
    take_kernel<U><<<blocks_for(m), kThreads, 0, stream>>>(static_cast<const U*>(in), idx, m, static_cast<U*>(out));
    LOOM_LAUNCHED("take_kernel");
  });
}

}  // namespace loom::algo
