// The engine's plans on the GPU: common subexpressions computed once (hash-consed nodes, work a
// barrier's inputs share with the outputs), with the reference's values.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("a k-means step: values as the reference, the distance chain computed once", "[gpu][engine]") {
  std::mt19937_64 rng(90);
  const std::int64_t n = 100000, dim = 16, k = 32;
  const Array X = loom::test::random_array(DType::Float32, {n, dim}, rng, loom::test::Range::Unit).eval();
  const Array C = X[loom::Slice(0, k)].copy().eval();
  const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
  const Array labels = loom::argmin(d, 1);
  const Array inertia = loom::sum(loom::min(d, 1));
  const Array onehot = (labels.expand_dims(1) == loom::arange(k)).astype(DType::Float32);
  const Array counts = loom::sum(onehot, 0);
  const Array c_new = loom::matmul(onehot.T(), X) / loom::maximum(counts, 1.0f).expand_dims(1);
  // The reference first (it does not evaluate the graph), then one eval of all three.
  const auto want_c = loom::test::reference_of(c_new), want_l = loom::test::reference_of(labels),
             want_i = loom::test::reference_of(inertia);
  loom::exec::set_poison_outputs(true);
  loom::reset_cache_stats();
  loom::eval({c_new, labels, inertia});
  // 5 kernels with the second GEMM's inputs (the norms, argmin + min, the one-hot, the counts),
  // 2 after it (the division, the inertia's sum); labels is a view of argmin's result.
  CHECK(loom::cache_stats().launches == 7);
  // Labels may differ where two distances tie to rounding (the GEMM sums in another order than
  // the host): allow a few, and the centroids and inertia within float32 sums' error.
  const auto got_l = loom::test::device_of(labels);
  const auto* gl = reinterpret_cast<const std::int64_t*>(got_l.data.data());
  const auto* wl = reinterpret_cast<const std::int64_t*>(want_l.data.data());
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < n; ++i) differ += gl[i] != wl[i];
  CHECK(differ < n / 1000);
  if (differ == 0) CHECK(loom::test::compare(loom::test::device_of(c_new), want_c, 1e-4, 1e-5) == "");
  CHECK(loom::test::compare(loom::test::device_of(inertia), want_i, 1e-4, 0) == "");
}

TEST_CASE("log-sum-exp written by hand: max computed once", "[gpu][engine]") {
  std::mt19937_64 rng(91);
  const Array m = loom::test::random_array(DType::Float32, {300, 700}, rng);
  const Array lse = loom::max(m, 1, true) + loom::log(loom::sum(loom::exp(m - loom::max(m, 1, true)), 1, true));
  const auto want = loom::test::reference_of(lse);
  loom::reset_cache_stats();
  const auto got = loom::test::device_of(lse);
  CHECK(loom::cache_stats().launches == 2);
  CHECK(loom::test::compare(got, want, 1e-5, 1e-5) == "");
}
