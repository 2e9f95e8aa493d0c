#pragma once
// What the CUB translation units share: CUB's two-phase calls with status checks, launch sizes
// for the small kernels written here, and the unsigned type of each radix key width.

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "runtime/cuda_check.hpp"
#include "runtime/libs/cub_algorithms.hpp"
#include "runtime/libs/sort_key.hpp"

namespace loom::algo::detail {

inline constexpr int kThreads = 256;

// Grid-stride kernels: enough blocks to fill the GPU, capped so the grid always fits.
inline unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, 1 << 20));
}

#define LOOM_GRID_STRIDE(i, n)                                                                   \
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

inline void check_launch(const char* kernel, const char* file, int line) {
  const cudaError_t st = cudaGetLastError();
  if (st != cudaSuccess) ::loom::rt::throw_cuda_error(static_cast<int>(st), kernel, file, line);
}
#define LOOM_LAUNCHED(name) ::loom::algo::detail::check_launch(name, __FILE__, __LINE__)

// One CUB algorithm, two phases: f(nullptr, bytes) asks for the temp size, f(temp, bytes) runs.
// The status each phase returns is reported with the algorithm's name.
template <class F> void cub_call(const char* name, const Workspace& ws, F&& f, const char* file, int line) {
  std::size_t bytes = 0;
  cudaError_t st = f(nullptr, bytes);
  if (st != cudaSuccess) ::loom::rt::throw_cuda_error(static_cast<int>(st), name, file, line);
  void* temp = ws(std::max<std::size_t>(bytes, 1));
  st = f(temp, bytes);
  if (st != cudaSuccess) ::loom::rt::throw_cuda_error(static_cast<int>(st), name, file, line);
}
#define LOOM_CUB(name, ws, f) ::loom::algo::detail::cub_call(name, ws, f, __FILE__, __LINE__)

// Complex elements as CUB moves and combines them (std::complex's layout).
struct alignas(8) C64 {
  float re, im;
};
struct alignas(16) C128 {
  double re, im;
};

template <int Bytes> struct UnsignedOf;
template <> struct UnsignedOf<1> { using type = std::uint8_t; };
template <> struct UnsignedOf<2> { using type = std::uint16_t; };
template <> struct UnsignedOf<4> { using type = std::uint32_t; };
template <> struct UnsignedOf<8> { using type = std::uint64_t; };
struct alignas(16) Bits128 {
  std::uint64_t lo, hi;
};
template <> struct UnsignedOf<16> { using type = Bits128; };

// Calls f.template operator()<U>() with U the unsigned type of `bytes` (1, 2, 4, 8 or 16).
template <class F> void visit_width(std::size_t bytes, F&& f) {
  switch (bytes) {
    case 1: f.template operator()<std::uint8_t>(); return;
    case 2: f.template operator()<std::uint16_t>(); return;
    case 4: f.template operator()<std::uint32_t>(); return;
    case 8: f.template operator()<std::uint64_t>(); return;
    default: f.template operator()<Bits128>(); return;
  }
}

// Keys of `in` (elements of U's width) into out: out[i] = encode(in[perm ? perm[i] : i]).
template <class U>
void encode_keys(const void* in, const std::int64_t* perm, U* out, std::int64_t n, sortkey::Codec c,
                 cudaStream_t stream);
// Rows of sorts_in_blocks length, a row per block: keys_out (when not null) gets the sorted
// elements (decoded), idx_out (when not null) the stable argsort within each row. c encodes.
template <class U>
void block_sort(const void* in, sortkey::Codec c, U* keys_out, std::int64_t* idx_out, std::int64_t rows,
                std::int64_t length, cudaStream_t stream);
// np.sort of rows on CUB's own key types (runtime/libs/cub/cub_sort_native.cu), for the dtypes
// it instantiates; false for the others (the caller sorts them through radix keys).
bool sort_native(DType dtype, const void* in, void* out, std::int64_t rows, std::int64_t length, cudaStream_t stream,
                 const Workspace& ws);
// out[i] = i % length (the index of each element within its row).
void iota_rows(std::int64_t* out, std::int64_t n, std::int64_t length, cudaStream_t stream);
// np.unique's run starts: the indices i < n with flags[i] set (a new value begins) into starts,
// and their number into *count_host: the one synchronization of np.unique (the count sizes its
// outputs).
void read_run_starts(const bool* flags, std::int64_t n, std::int64_t* starts, std::int64_t* count_host,
                     cudaStream_t stream, const Workspace& ws);
// The indices i < n with flags[i] set, in order, into out; their number into *d_count (device).
void flagged_indices(const bool* flags, std::int64_t n, std::int64_t* out, std::int64_t* d_count,
                     cudaStream_t stream, const Workspace& ws);

}  // namespace loom::algo::detail
