// bench_sampling: loom::random's sampling functions on 2^26 elements, each as eval() of the
// user's expression, against the copy ceiling measured in the same run. choice(2^26, 2^20,
// replace=False): one draw of 2^27 words, the 64-bit keys (fused), a radix sort of 2^26 keys and
// the first 2^20 indices; GB/s counts the keys written and read once by the sort's input and the
// 2^20 int64 results (a sort moves the keys several times, so its % of copy is a floor). Gamma
// and binomial: the counter-based sampler kernel (GB/s: the 8-byte outputs). CuPy and PyTorch on
// the same cases: bench/peers_sampling.py. Writes JSON to argv[1] (or $OUT/bench_sampling.json).

#include <cstdio>

#include <loom/loom.hpp>

#include "bench_util.hpp"

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_sampling: no GPU\n");
    return 0;
  }
  using loom::bench::time_ms;
  const double ceiling = loom::bench::copy_ceiling_gbs();
  loom::bench::Report rep("bench_sampling", ceiling);
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  const std::int64_t n = std::int64_t{1} << 26, k = std::int64_t{1} << 20;
  const double out8 = 8.0 * static_cast<double>(n);
  loom::random::Generator g(1234);
  rep.bandwidth("choice(2^26, 2^20, replace=False) (int64)",
                time_ms([&] { g.choice(n, {k}, false).eval(); }), 2 * out8 + 8.0 * static_cast<double>(k));
  rep.bandwidth("choice(2^26, 2^20) with replacement (int64)", time_ms([&] { g.choice(n, {k}).eval(); }),
                16.0 * static_cast<double>(k));
  rep.bandwidth("permutation(2^26) (int64)", time_ms([&] { g.permutation(n).eval(); }), 2 * out8);
  rep.bandwidth("standard_gamma(2.5) 2^26 float64", time_ms([&] { g.standard_gamma(2.5, {n}).eval(); }), out8);
  rep.bandwidth("standard_gamma(0.5) 2^26 float64", time_ms([&] { g.standard_gamma(0.5, {n}).eval(); }), out8);
  rep.bandwidth("gamma(2.5, 3) 2^26 float32", time_ms([&] { g.gamma(2.5, 3, {n}).astype(loom::float32).eval(); }),
                out8 / 2);
  rep.bandwidth("binomial(100, 0.3) 2^26 (int64, BTRS)", time_ms([&] { g.binomial(100, 0.3, {n}).eval(); }), out8);
  rep.bandwidth("binomial(20, 0.1) 2^26 (int64, inversion)", time_ms([&] { g.binomial(20, 0.1, {n}).eval(); }),
                out8);
  rep.bandwidth("laplace(0, 1) 2^26 float64", time_ms([&] { g.laplace(0, 1, {n}).eval(); }), out8);
  rep.write(argc, argv);
  return 0;
}
