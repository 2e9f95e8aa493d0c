// bench_kmeans: one k-means step as NumPy users write it (100000 x 16 points, 32 clusters,
// float32): squared distances by |x|^2 - 2 x.c + |c|^2 (a GEMM), labels by argmin, the inertia by
// min, new centroids by a one-hot GEMM, evaluated as eval(C_new, labels, inertia). Prints the
// wall time per step (synchronized, median of 20), the kernels and library calls one step
// launches, and the bytes a step must move at least; writes JSON to argv[1] if given.
// Uses only the public API, so the same file builds against any version of loom.

#include <cstdio>
#include <fstream>
#include <vector>

#include <loom/loom.hpp>

#include "bench_util.hpp"

namespace {

using loom::Array;

struct Step {
  Array c_new, labels, inertia;
};

Step kmeans_step(const Array& X, const Array& C) {
  const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
  const Array labels = loom::argmin(d, 1);
  const Array inertia = loom::sum(loom::min(d, 1));
  const Array onehot = (labels.expand_dims(1) == loom::arange(C.shape()[0])).astype(loom::float32);
  const Array counts = loom::sum(onehot, 0);
  const Array c_new = loom::matmul(onehot.T(), X) / loom::maximum(counts, 1.0f).expand_dims(1);
  return {c_new, labels, inertia};
}

}  // namespace

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_kmeans: no GPU\n");
    return 0;
  }
  const std::int64_t n = 100000, dim = 16, k = 32;
  loom::random::seed(7);
  const Array X = loom::random::standard_normal({n, dim}, loom::float32).eval();
  const Array C = X[loom::Slice(0, k)].copy().eval();
  // Warm-up: compiles every kernel.
  {
    const Step s = kmeans_step(X, C);
    loom::eval({s.c_new, s.labels, s.inertia});
  }
  loom::synchronize();
  loom::reset_cache_stats();
  {
    const Step s = kmeans_step(X, C);
    loom::eval({s.c_new, s.labels, s.inertia});
  }
  loom::synchronize();
  const auto launches = loom::cache_stats().launches;
  const double ms = loom::bench::time_ms([&] {
    const Step s = kmeans_step(X, C);
    loom::eval({s.c_new, s.labels, s.inertia});
  });
  // The least a step moves: X read for the distances and for the second GEMM, the labels written.
  const double bytes = 2.0 * 4 * n * dim + 8.0 * n;
  std::printf("device %s\n", loom::device_info().name.c_str());
  std::printf("k-means step, %lld x %lld points, %lld clusters, f32: %.4f ms, %llu kernel launches (+2 GEMMs), "
              "%.1f GB/s of the least traffic\n",
              static_cast<long long>(n), static_cast<long long>(dim), static_cast<long long>(k), ms,
              static_cast<unsigned long long>(launches), bytes / ms / 1e6);
  if (argc > 1) {
    std::ofstream out(argv[1]);
    out << "{\"case\": \"kmeans step 100000x16, 32 clusters, f32\", \"ms\": " << ms << ", \"kernels\": " << launches
        << "}\n";
  }
  return 0;
}
