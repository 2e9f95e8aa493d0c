// bench_sparse: cuSPARSE through loom::sparse. SpMV of a 1e6 x 1e6 CSR matrix with 1e7 nonzeros
// (10 random columns per row, float32 and float64), SpMM with 8 right-hand sides, and the
// CSR -> CSC conversion; against the copy bandwidth measured in the same run.
// Bytes counted for SpMV: data + indices + indptr + one x gather per nonzero + y.
// Prints a table; writes JSON to argv[1], else to $OUT/bench_sparse.json when $OUT is set.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::bench::time_ms;
namespace sp = loom::sparse;

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_sparse: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  loom::bench::Report rep("bench_sparse", ceiling);
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);

  constexpr std::int64_t n = 1'000'000, per_row = 10, nnz = n * per_row;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int32_t> column(0, static_cast<std::int32_t>(n - 1));
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<std::int32_t> indices(nnz), indptr(n + 1);
  std::vector<float> data(nnz), xh(n);
  for (std::int64_t i = 0; i < n; ++i) {
    indptr[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(i * per_row);
    auto first = indices.begin() + i * per_row;
    for (auto it = first; it != first + per_row; ++it) *it = column(rng);
    std::sort(first, first + per_row);
  }
  indptr[n] = static_cast<std::int32_t>(nnz);
  for (float& v : data) v = value(rng);
  for (float& v : xh) v = value(rng);

  const auto t0 = std::chrono::steady_clock::now();
  const sp::csr_matrix a(loom::asarray(data), loom::asarray(indices), loom::asarray(indptr), {n, n});
  loom::synchronize();
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  rep.time("csr_matrix from host arrays, 1e7 nnz (upload, validation)", build_ms);

  const Array x = loom::asarray(xh);
  for (DType t : {DType::Float32, DType::Float64}) {
    // The values converted once, so the timed product reads buffers only.
    const sp::csr_matrix ae = a.astype(t).apply([](const Array& d) { return d.eval(); });
    const Array xt = x.astype(t).eval();
    const double item = static_cast<double>(loom::itemsize(t));
    const double bytes = item * nnz + 4.0 * nnz + 4.0 * (n + 1) + item * nnz + item * n;
    rep.bandwidth(fmt::format("SpMV CSR 1e6 x 1e6, 1e7 nnz, {}", loom::name(t)), time_ms([&] { ae.matmul(xt).eval(); }),
           bytes);
    if (t == DType::Float32) {
      const Array xm = loom::ones({n, 8}, t).T().copy().T().eval();  // column-major: no copy at the call
      const double mbytes = item * nnz + 4.0 * nnz + 4.0 * (n + 1) + 8 * (item * nnz + item * n);
      rep.bandwidth("SpMM CSR 1e6 x 1e6 @ (1e6, 8), column-major, float32", time_ms([&] { ae.matmul(xm).eval(); }), mbytes);
      const double cbytes = 2 * (item * nnz + 4.0 * nnz) + 4.0 * (n + 1) * 2;
      rep.bandwidth("CSR -> CSC (Csr2cscEx2), 1e7 nnz, float32", time_ms([&] { loom::eval(ae.tocsc().data()); }), cbytes);
    }
  }

  rep.write(argc, argv);
  return 0;
}
