// bench_linalg: cuSOLVER calls through loom::linalg, end to end (graph, call, the info check's
// synchronize, the fused post-processing): solve of a 4096 x 4096 float64 system with one
// right-hand side (getrf + getrs), cholesky of 4096 float64 (potrf), svd of 1024 x 1024
// float32 (gesvd, U and Vh too) and its singular values alone. Inputs are evaluated first; each
// timing is a median of wall times with a synchronize after each call. Prints a table; writes
// JSON to argv[1] (or $OUT/bench_linalg.json).

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;
using loom::DType;
namespace la = loom::linalg;

// A deterministic dense n x n matrix with entries in [-1, 1] (no random generator needed).
Array dense(std::int64_t n, DType t) {
  return loom::sin(loom::arange(n * n).reshape({n, n}).astype(DType::Float64) * 0.7377).astype(t);
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_linalg: no GPU\n");
    return 0;
  }
  std::printf("bench_linalg on %s\n", loom::device_info().name.c_str());
  loom::bench::Report rep("bench_linalg", 0);
  const double n4 = 4096;
  {
    const std::int64_t n = 4096;
    const Array a = (dense(n, DType::Float64) + loom::eye(n) * static_cast<double>(n)).eval();
    const Array b = loom::sin(loom::arange(n).astype(DType::Float64)).eval();
    rep.flops("solve f64 4096 x 4096, 1 rhs", loom::bench::time_ms([&] { la::solve(a, b).eval(); }, 10, 2),
           2.0 / 3.0 * n4 * n4 * n4 + 2 * n4 * n4, false);
    const Array d = dense(n, DType::Float64);
    const Array spd = (d + d.T() + loom::eye(n) * (2.0 * static_cast<double>(n))).eval();
    rep.flops("cholesky f64 4096", loom::bench::time_ms([&] { la::cholesky(spd).eval(); }, 10, 2),
           n4 * n4 * n4 / 3.0, false);
  }
  {
    const std::int64_t n = 1024;
    const double n1 = 1024;
    const Array a = dense(n, DType::Float32).eval();
    // gesvd's flop count with U and V (LAPACK's working note: ~ 22 n^3), 4/3 n^3 without.
    rep.flops("svd f32 1024 (U, S, Vh)", loom::bench::time_ms([&] {
             const auto r = la::svd(a);
             loom::eval(r.U, r.S, r.Vh);
           }, 5, 1),
           22 * n1 * n1 * n1, false);
    rep.flops("svdvals f32 1024", loom::bench::time_ms([&] { la::svdvals(a).eval(); }, 5, 1), 4.0 / 3.0 * n1 * n1 * n1, false);
  }
  {
    // Many small systems (cuBLAS's batched LU: two calls for the whole batch).
    const std::int64_t count = 10000, n = 8;
    const Array a = (loom::sin(loom::arange(count * n * n).reshape({count, n, n}).astype(DType::Float64) * 0.7377) +
                     loom::eye(n) * 8.0)
                        .eval();
    const Array b = loom::ones({count, n, 1}).eval();
    rep.time("solve 10000 systems of 8x8 f64, 1 rhs each", loom::bench::time_ms([&] { la::solve(a, b).eval(); }, 10, 2));
    rep.time("inv of 10000 matrices of 8x8 f64", loom::bench::time_ms([&] { la::inv(a).eval(); }, 10, 2));
  }
  rep.write(argc, argv);
  return 0;
}
