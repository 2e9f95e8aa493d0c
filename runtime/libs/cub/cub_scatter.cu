// np.add.at, np.minimum.at, ... and np.bincount on the GPU (runtime/libs/cub_algorithms.hpp says
// what scatter_reduce computes). Two ways:
//  - atomics: agg starts at the identity and every value is combined into its position with an
//    atomic (a compare-and-swap loop where CUDA has no atomic for the op); sums into few
//    positions first go through a copy of agg in shared memory per block. Exact for integers in
//    any order; for floating point the order of the additions varies from run to run.
//  - sorted (floating point and complex by default): the (position, value) pairs are sorted by
//    position with the stable radix sort on the position's bits only, each position's run is
//    found by a binary search, and each run is reduced in a fixed order: by a warp when runs are
//    short, by cub::DeviceSegmentedReduce (a block per run) when they are long. The same input
//    gives the same bits every run.
// And ufunc.at as a fold (values cast back after each one): the sorted path's runs of indices,
// folded in order by one thread per position.

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <bit>
#include <limits>
#include <type_traits>

#include "runtime/libs/cub/cub_common.cuh"
#include "runtime/libs/ufunc_at_fold.hpp"

namespace loom::algo {

namespace {

using detail::blocks_for;
using detail::C128;
using detail::C64;
using detail::kThreads;

template <class T> constexpr bool kComplex = std::is_same_v<T, C64> || std::is_same_v<T, C128>;
template <class T> constexpr bool kBool = std::is_same_v<T, std::uint8_t>;  // bool's storage

template <class T> __host__ __device__ bool has_nan(T v) {
  if constexpr (kComplex<T>) return v.re != v.re || v.im != v.im;
  else return v != v;  // NOLINT(misc-redundant-expression): NaN test
}

// NumPy's ufunc on two elements (integers wrap around; minimum and maximum propagate NaN, complex
// ones in NumPy's lexicographic order).
template <ScatterOp Op> struct Combine {
  template <class T> __host__ __device__ T operator()(T a, T b) const {
    if constexpr (kBool<T>) {
      return (Op == ScatterOp::Sum || Op == ScatterOp::Max) ? T(a | b) : T(a & b);
    } else if constexpr (kComplex<T>) {
      if constexpr (Op == ScatterOp::Sum) return T{a.re + b.re, a.im + b.im};
      if constexpr (Op == ScatterOp::Prod) return T{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
      const bool le = a.re < b.re || (a.re == b.re && a.im <= b.im);
      const bool ge = a.re > b.re || (a.re == b.re && a.im >= b.im);
      return ((Op == ScatterOp::Min ? le : ge) || has_nan(a)) ? a : b;
    } else if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      if constexpr (Op == ScatterOp::Sum) return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      if constexpr (Op == ScatterOp::Prod) return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      if constexpr (Op == ScatterOp::Min) return a < b ? a : b;
      return a > b ? a : b;
    } else {
      if constexpr (Op == ScatterOp::Sum) return a + b;
      if constexpr (Op == ScatterOp::Prod) return a * b;
      if constexpr (Op == ScatterOp::Min) return (a < b || has_nan(a)) ? a : b;
      return (a > b || has_nan(a)) ? a : b;
    }
  }
};

template <class T, ScatterOp Op> __host__ __device__ T identity() {
  if constexpr (kComplex<T>) {
    using R = decltype(T{}.re);
    constexpr R inf = std::numeric_limits<R>::infinity();
    if constexpr (Op == ScatterOp::Sum) return T{R(-0.0), R(-0.0)};
    if constexpr (Op == ScatterOp::Prod) return T{R(1), R(0)};
    if constexpr (Op == ScatterOp::Min) return T{inf, inf};
    return T{-inf, -inf};
  } else if constexpr (kBool<T>) {
    return (Op == ScatterOp::Sum || Op == ScatterOp::Max) ? T(0) : T(1);
  } else {
    if constexpr (Op == ScatterOp::Sum) return std::is_floating_point_v<T> ? T(-0.0) : T(0);
    if constexpr (Op == ScatterOp::Prod) return T(1);
    if constexpr (std::is_floating_point_v<T>) {
      return Op == ScatterOp::Min ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    }
    return Op == ScatterOp::Min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
  }
}

template <class T> __host__ __device__ T one() {
  if constexpr (kComplex<T>) return T{1, 0};
  else return T(1);
}

template <class T> __device__ T value_at(const T* values, std::int64_t i) { return values ? values[i] : one<T>(); }

// *p = op(*p, v) by compare-and-swap on the element's bits (4 or 8 bytes).
template <ScatterOp Op, class T> __device__ void cas_combine(T* p, T v) {
  using U = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  static_assert(sizeof(T) == sizeof(U));
  U* word = reinterpret_cast<U*>(p);
  U seen = *word;
  for (;;) {
    const T next = Combine<Op>{}(std::bit_cast<T>(seen), v);
    const U bits = std::bit_cast<U>(next);
    if (bits == seen) return;
    const U before = atomicCAS(word, seen, bits);
    if (before == seen) return;
    seen = before;
  }
}

// *p = op(*p, v) atomically (bools: or and and as plain stores of the one value that changes).
template <ScatterOp Op, class T> __device__ void atomic_combine(T* p, T v) {
  if constexpr (kBool<T>) {
    const bool sets = Op == ScatterOp::Sum || Op == ScatterOp::Max;
    if (sets ? v != 0 : v == 0) *p = sets ? T(1) : T(0);
  } else if constexpr (kComplex<T>) {
    static_assert(Op == ScatterOp::Sum, "complex products, minima and maxima take the sorted path");
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
  } else if constexpr (Op == ScatterOp::Sum) {
    if constexpr (std::is_integral_v<T>) {
      atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
    } else {
      atomicAdd(p, v);
    }
  } else if constexpr ((Op == ScatterOp::Min || Op == ScatterOp::Max) && std::is_integral_v<T>) {
    using A = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    if constexpr (Op == ScatterOp::Min) atomicMin(reinterpret_cast<A*>(p), static_cast<A>(v));
    else atomicMax(reinterpret_cast<A*>(p), static_cast<A>(v));
  } else {
    cas_combine<Op>(p, v);
  }
}

template <class T> __global__ void fill_kernel(T* out, T v, std::int64_t n) {
  LOOM_GRID_STRIDE(i, n) out[i] = v;
}

// Value i's position: pos[i]; with `record` (pos holds the user's unchecked indices into an axis
// of n), counted from the end where negative, and one out of [-n, n) recorded (flag, index,
// extent, axis 0: runtime/device_errors.hpp, raised at the next synchronization) and skipped (-1).
// No fence: the host reads the record after a synchronization with this kernel, whose completion
// makes its writes visible; a __threadfence_system() anywhere in the kernel, even on this path
// that never runs, slowed its atomics into 2^20 positions from 0.87 to 1.21 ms (H100).
__device__ __forceinline__ void record_index_error(std::uint64_t* record, std::int64_t p, std::int64_t n) {
  if (atomicCAS(reinterpret_cast<unsigned long long*>(record), 0ull, 1ull) == 0ull) {
    record[1] = static_cast<std::uint64_t>(p);
    record[2] = static_cast<std::uint64_t>(n);
    record[3] = 0;
  }
}

template <bool Checked, class K>
__device__ __forceinline__ std::int64_t position(const K* pos, std::int64_t i, std::int64_t n, std::uint64_t* record) {
  const auto p = static_cast<std::int64_t>(pos[i]);
  if constexpr (!Checked) {
    return p;
  } else {
    if (p >= -n && p < n) return p < 0 ? p + n : p;
    record_index_error(record, p, n);
    return -1;
  }
}

template <ScatterOp Op, bool Checked, class K, class T>
__global__ void atomic_kernel(const K* pos, const T* values, std::int64_t m, T* agg, bool* hit, std::int64_t n,
                              std::uint64_t* record) {
  LOOM_GRID_STRIDE(i, m) {
    const T v = value_at(values, i);  // (read whether or not the index holds: both loads at once)
    const std::int64_t p = position<Checked>(pos, i, n, record);
    if (Checked && p < 0) continue;
    atomic_combine<Op>(agg + p, v);
    if (hit) hit[p] = true;
  }
}

// Sums into n positions that fit in shared memory: each block sums its share there, then adds its
// nonzero totals to agg (one global atomic per position and block instead of per value).
template <bool Checked, class K, class T>
__global__ void shared_sum_kernel(const K* pos, const T* values, std::int64_t m, T* agg, bool* hit, int n,
                                  std::uint64_t* record) {
  extern __shared__ unsigned char smem[];
  T* bins = reinterpret_cast<T*>(smem);
  unsigned int* seen = reinterpret_cast<unsigned int*>(bins + n);
  for (int b = static_cast<int>(threadIdx.x); b < n; b += static_cast<int>(blockDim.x)) {
    bins[b] = T(0);
    seen[b] = 0;
  }
  __syncthreads();
  LOOM_GRID_STRIDE(i, m) {
    const T v = value_at(values, i);
    const std::int64_t q = position<Checked>(pos, i, n, record);
    if (Checked && q < 0) continue;
    const auto p = static_cast<unsigned int>(q);  // < n: 32-bit shared-memory addressing
    atomic_combine<ScatterOp::Sum>(bins + p, v);
    seen[p] = 1;
  }
  __syncthreads();
  for (int b = static_cast<int>(threadIdx.x); b < n; b += static_cast<int>(blockDim.x)) {
    if (seen[b] == 0) continue;
    atomic_combine<ScatterOp::Sum>(agg + b, bins[b]);
    if (hit) hit[b] = true;
  }
}

constexpr std::size_t kSharedBytes = 40 * 1024;

template <ScatterOp Op, class K, class T>
void scatter_atomic(const K* pos, const T* values, std::int64_t m, T* agg, bool* hit, std::int64_t n,
                    std::uint64_t* record, cudaStream_t stream) {
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(agg, identity<T, Op>(), n);
  LOOM_LAUNCHED("loom scatter fill");
  if (hit) LOOM_CHECK_CUDA(cudaMemsetAsync(hit, 0, static_cast<std::size_t>(n), stream));
  if (m == 0) return;
  constexpr bool kShared = Op == ScatterOp::Sum && !kBool<T> && !kComplex<T>;
  const std::size_t smem = static_cast<std::size_t>(n) * (sizeof(T) + sizeof(unsigned int));
  if (kShared && smem <= kSharedBytes) {
    // Enough blocks to fill the GPU a few times over, each with a long share of the values.
    const unsigned blocks = std::min<unsigned>(blocks_for(m), 1024);
    if (record) shared_sum_kernel<true, K, T><<<blocks, kThreads, smem, stream>>>(pos, values, m, agg, hit, static_cast<int>(n), record);
    else shared_sum_kernel<false, K, T><<<blocks, kThreads, smem, stream>>>(pos, values, m, agg, hit, static_cast<int>(n), record);
    LOOM_LAUNCHED("loom scatter shared sum");
    return;
  }
  if (record) atomic_kernel<Op, true, K, T><<<blocks_for(m), kThreads, 0, stream>>>(pos, values, m, agg, hit, n, record);
  else atomic_kernel<Op, false, K, T><<<blocks_for(m), kThreads, 0, stream>>>(pos, values, m, agg, hit, n, record);
  LOOM_LAUNCHED("loom scatter atomics");
}

// offsets[b] = the first i with keys[i] >= b (keys sorted), for b <= n; hit[b] (when not null):
// keys has b.
template <class K> __global__ void run_bounds_kernel(const K* keys, std::int64_t m, std::int64_t* offsets, bool* hit,
                                                     std::int64_t n) {
  LOOM_GRID_STRIDE(b, n + 1) {
    std::int64_t lo = 0, hi = m;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<std::int64_t>(keys[mid]) < b) lo = mid + 1;
      else hi = mid;
    }
    offsets[b] = lo;
    if (hit && b < n) hit[b] = lo < m && static_cast<std::int64_t>(keys[lo]) == b;
  }
}

template <class U> U* scratch(const Workspace& ws, std::int64_t n) {
  return static_cast<U*>(ws(std::max<std::size_t>(static_cast<std::size_t>(n) * sizeof(U), 1)));
}

// The values sorted by position (stable), the bounds of each position's run, and hit.
template <class K, class T>
const T* sort_runs(const K* pos, const T* values, std::int64_t m, std::int64_t* offsets, bool* hit, std::int64_t n,
                   cudaStream_t stream, const Workspace& ws) {
  K* keys_out = scratch<K>(ws, m);
  T* values_out = scratch<T>(ws, m);
  if (values == nullptr) {
    T* ones = scratch<T>(ws, m);
    fill_kernel<<<blocks_for(m), kThreads, 0, stream>>>(ones, one<T>(), m);
    LOOM_LAUNCHED("loom scatter fill");
    values = ones;
  }
  // Only the bits a position in [0, n) can have (fewer radix passes for fewer positions).
  const int end_bit = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1))));
  LOOM_CUB("cub::DeviceRadixSort::SortPairs", ws, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, pos, keys_out, values, values_out, m, 0, end_bit, stream);
  });
  run_bounds_kernel<<<blocks_for(n + 1), kThreads, 0, stream>>>(keys_out, m, offsets, hit, n);
  LOOM_LAUNCHED("loom scatter run bounds");
  return values_out;
}

// v from the lane `mask` away (xor) in the warp: elements of 1 to 16 bytes.
template <class T> __device__ T shuffle_xor(T v, int mask) {
  if constexpr (kComplex<T>) {
    return T{__shfl_xor_sync(0xffffffffu, v.re, mask), __shfl_xor_sync(0xffffffffu, v.im, mask)};
  } else if constexpr (sizeof(T) == 1) {
    return static_cast<T>(__shfl_xor_sync(0xffffffffu, static_cast<int>(v), mask));
  } else {
    return __shfl_xor_sync(0xffffffffu, v, mask);
  }
}

// Each position's run (offsets[b], offsets[b + 1]) of the sorted values reduced by one warp, for
// runs too short to fill a block: lane l combines elements l, l + 32, ... in order, then the
// lanes combine in a fixed butterfly. The order depends on the run's length only: deterministic.
template <ScatterOp Op, class T>
__global__ void warp_runs_kernel(const T* sorted, const std::int64_t* offsets, T* agg, std::int64_t n) {
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (blockDim.x / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (std::int64_t b = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; b < n; b += warps) {
    const std::int64_t lo = offsets[b], hi = offsets[b + 1];
    T acc = identity<T, Op>();
    for (std::int64_t i = lo + lane; i < hi; i += 32) acc = Combine<Op>{}(acc, sorted[i]);
    for (int mask = 16; mask > 0; mask /= 2) acc = Combine<Op>{}(acc, shuffle_xor(acc, mask));
    if (lane == 0) agg[b] = acc;
  }
}

template <ScatterOp Op, class K, class T>
void scatter_sorted(const K* pos, const T* values, std::int64_t m, T* agg, bool* hit, std::int64_t n,
                    cudaStream_t stream, const Workspace& ws) {
  std::int64_t* offsets = scratch<std::int64_t>(ws, n + 1);
  const T* sorted = sort_runs(pos, values, m, offsets, hit, n, stream, ws);
  if (m < kScatterBlockRun * n) {
    const std::int64_t blocks = std::min<std::int64_t>((n + kThreads / 32 - 1) / (kThreads / 32), 1 << 20);
    warp_runs_kernel<Op><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(sorted, offsets, agg, n);
    LOOM_LAUNCHED("loom scatter warp runs");
    return;
  }
  LOOM_CUB("cub::DeviceSegmentedReduce::Reduce", ws, [&](void* t, std::size_t& b) {
    return cub::DeviceSegmentedReduce::Reduce(t, b, sorted, agg, n, offsets, offsets + 1, Combine<Op>{},
                                              identity<T, Op>(), stream);
  });
}

template <class T, ScatterOp Op>
void scatter_typed(const void* pos, bool pos32, const void* values, std::int64_t m, void* agg, bool* hit,
                   std::int64_t n, bool atomic, std::uint64_t* record, cudaStream_t stream, const Workspace& ws) {
  const T* v = static_cast<const T*>(values);
  T* out = static_cast<T*>(agg);
  const auto sorted = [&]<class K>(const K* p) {
    if (record) throw std::logic_error("scatter_reduce: unchecked indices on the sorted path");
    scatter_sorted<Op>(p, v, m, out, hit, n, stream, ws);
  };
  const auto run = [&]<class K>(const K* p) {
    constexpr bool kExact = !std::is_floating_point_v<T> && !kComplex<T>;
    if constexpr (kExact || (kComplex<T> && Op != ScatterOp::Sum)) {
      if constexpr (kExact) scatter_atomic<Op>(p, v, m, out, hit, n, record, stream);
      else sorted(p);
    } else {
      if (atomic) scatter_atomic<Op>(p, v, m, out, hit, n, record, stream);
      else sorted(p);
    }
  };
  if (pos32) run(static_cast<const std::uint32_t*>(pos));
  else run(static_cast<const std::uint64_t*>(pos));  // in [0, n) (or checked by `position`): int64's bits
}

template <class T>
void scatter_op(ScatterOp op, const void* pos, bool pos32, const void* values, std::int64_t m, void* agg, bool* hit,
                std::int64_t n, bool atomic, std::uint64_t* record, cudaStream_t stream, const Workspace& ws) {
  switch (op) {
    case ScatterOp::Sum: return scatter_typed<T, ScatterOp::Sum>(pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case ScatterOp::Prod: return scatter_typed<T, ScatterOp::Prod>(pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case ScatterOp::Min: return scatter_typed<T, ScatterOp::Min>(pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case ScatterOp::Max: return scatter_typed<T, ScatterOp::Max>(pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
  }
}

// --- ufunc.at folds (runtime/libs/ufunc_at_fold.hpp) ---

template <class T> __global__ void iota_kernel(T* out, std::int64_t n) {
  LOOM_GRID_STRIDE(i, n) out[i] = static_cast<T>(i);
}

// One thread per position b: its held value after the values of its run, in index order (the
// stable sort keeps each run's indices increasing).
template <class R>
__global__ void fold_runs_kernel(const R* values, const std::int64_t* order, const std::int64_t* offsets,
                                 const std::int64_t* held_in, std::int64_t* held_out, std::int64_t n, foldat::FoldOp op,
                                 DType target, foldat::Rounding rounding) {
  LOOM_GRID_STRIDE(b, n) {
    std::int64_t h = held_in[b];
    for (std::int64_t i = offsets[b]; i < offsets[b + 1]; ++i) h = foldat::step(op, h, values[order[i]], target, rounding);
    held_out[b] = h;
  }
}

template <class R, class K>
void fold_sorted(const K* pos, const R* values, std::int64_t m, const std::int64_t* held_in, std::int64_t* held_out,
                 std::int64_t n, foldat::FoldOp op, DType target, foldat::Rounding rounding, cudaStream_t stream,
                 const Workspace& ws) {
  std::int64_t* iota = scratch<std::int64_t>(ws, m);
  iota_kernel<<<blocks_for(m), kThreads, 0, stream>>>(iota, m);
  LOOM_LAUNCHED("loom scatter fold iota");
  std::int64_t* offsets = scratch<std::int64_t>(ws, n + 1);
  const std::int64_t* order = sort_runs(pos, static_cast<const std::int64_t*>(iota), m, offsets, nullptr, n, stream, ws);
  fold_runs_kernel<<<blocks_for(n), kThreads, 0, stream>>>(values, order, offsets, held_in, held_out, n, op, target,
                                                           rounding);
  LOOM_LAUNCHED("loom scatter fold runs");
}

template <class R>
void fold_typed(const void* pos, bool pos32, const void* values, std::int64_t m, const std::int64_t* held_in,
                std::int64_t* held_out, std::int64_t n, foldat::FoldOp op, DType target, foldat::Rounding rounding,
                cudaStream_t stream, const Workspace& ws) {
  const R* v = static_cast<const R*>(values);
  if (pos32) fold_sorted(static_cast<const std::uint32_t*>(pos), v, m, held_in, held_out, n, op, target, rounding, stream, ws);
  else fold_sorted(static_cast<const std::uint64_t*>(pos), v, m, held_in, held_out, n, op, target, rounding, stream, ws);
}

}  // namespace

void scatter_fold(DType compute, foldat::FoldOp op, foldat::Rounding rounding, DType target, const void* pos,
                  bool pos32, const void* values, std::int64_t m, const std::int64_t* held_in, std::int64_t* held_out,
                  std::int64_t n, cudaStream_t stream, const Workspace& ws) {
  if (n == 0) return;
  if (m == 0) {
    LOOM_CHECK_CUDA(cudaMemcpyAsync(held_out, held_in, static_cast<std::size_t>(n) * sizeof(std::int64_t),
                                    cudaMemcpyDeviceToDevice, stream));
    return;
  }
  const auto run = [&]<class R>() {
    fold_typed<R>(pos, pos32, values, m, held_in, held_out, n, op, target, rounding, stream, ws);
  };
  switch (compute) {
    case DType::Int8: return run.template operator()<std::int8_t>();
    case DType::Int16: return run.template operator()<std::int16_t>();
    case DType::Int32: return run.template operator()<std::int32_t>();
    case DType::Int64: return run.template operator()<std::int64_t>();
    case DType::UInt8: return run.template operator()<std::uint8_t>();
    case DType::UInt16: return run.template operator()<std::uint16_t>();
    case DType::UInt32: return run.template operator()<std::uint32_t>();
    case DType::UInt64: return run.template operator()<std::uint64_t>();
    case DType::Float32: return run.template operator()<float>();
    case DType::Float64: return run.template operator()<double>();
    case DType::Complex64: return run.template operator()<foldat::Cx<float>>();
    case DType::Complex128: return run.template operator()<foldat::Cx<double>>();
    case DType::Bool:
    case DType::Float16:
    case DType::BFloat16: break;
  }
  throw std::logic_error("scatter_fold: unexpected compute dtype");
}

bool scatter_uses_atomics(DType dtype, ScatterOp op, bool atomic) {
  if (!is_inexact(dtype)) return true;
  if (is_complex(dtype) && op != ScatterOp::Sum) return false;
  return atomic;
}

void scatter_reduce(DType dtype, ScatterOp op, const void* pos, bool pos32, const void* values, std::int64_t m,
                    void* agg, bool* hit, std::int64_t n, bool atomic, cudaStream_t stream, const Workspace& ws,
                    std::uint64_t* record) {
  if (n == 0) return;
  switch (dtype) {
    case DType::Bool: return scatter_op<std::uint8_t>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::Int64: return scatter_op<std::int64_t>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::UInt64: return scatter_op<std::uint64_t>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::Float32: return scatter_op<float>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::Float64: return scatter_op<double>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::Complex64: return scatter_op<C64>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    case DType::Complex128: return scatter_op<C128>(op, pos, pos32, values, m, agg, hit, n, atomic, record, stream, ws);
    default: throw std::logic_error("scatter_reduce: unexpected accumulation dtype");
  }
}

}  // namespace loom::algo
