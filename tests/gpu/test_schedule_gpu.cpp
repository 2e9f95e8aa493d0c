// Schedules on the GPU over many steps (exec/schedule.hpp): a loop whose every step has the same
// structure finds its schedule by fingerprint from the second step on, and each step's values are
// the host reference evaluator's for that step's inputs; a call that reads its input in C order
// gets a copy from the step before it, in a loop too.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "exec/schedule.hpp"
#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("a k-means loop of 100 steps: each step's schedule found by fingerprint, values as the reference",
          "[gpu][schedule][loops]") {
  std::mt19937_64 rng(91);
  const std::int64_t n = 20000, dim = 8, k = 16;
  const Array X = loom::test::random_array(DType::Float32, {n, dim}, rng, loom::test::Range::Unit).eval();
  Array C = X[loom::Slice(0, k)].copy().eval();
  loom::exec::set_poison_outputs(true);
  const std::uint64_t hits = loom::exec::schedule_hits();
  const int steps = 100;
  for (int step = 0; step < steps; ++step) {
    const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
    const Array labels = loom::argmin(d, 1);
    const Array onehot = (labels.expand_dims(1) == loom::arange(k)).astype(DType::Float32);
    const Array counts = loom::sum(onehot, 0);
    const Array c_new = loom::matmul(onehot.T(), X) / loom::maximum(counts, 1.0f).expand_dims(1);
    const auto want = loom::test::reference_of(c_new);
    const auto want_l = loom::test::reference_of(labels);
    loom::eval({c_new, labels});
    // Labels may differ where two distances tie to rounding (the GEMM sums in another order).
    const auto got_l = loom::test::device_of(labels);
    const auto* gl = reinterpret_cast<const std::int64_t*>(got_l.data.data());
    const auto* wl = reinterpret_cast<const std::int64_t*>(want_l.data.data());
    std::int64_t differ = 0;
    for (std::int64_t i = 0; i < n; ++i) differ += gl[i] != wl[i];
    INFO("step " << step);
    CHECK(differ < n / 1000);
    if (differ == 0) CHECK(loom::test::compare(loom::test::device_of(c_new), want, 1e-4, 1e-5) == "");
    C = c_new;
  }
  // Found from the third step on: the first two see C as different layouts of memory (a copy of
  // X's rows, then a step's result), so each makes its schedule.
  CHECK(loom::exec::schedule_hits() >= hits + steps - 2);
}

TEST_CASE("a call reading a transposed array in C order, in a loop: copied by the step before it",
          "[gpu][schedule][loops]") {
  std::mt19937_64 rng(92);
  for (DType t : {DType::Float32, DType::Float64, DType::Int32}) {
    Array a = loom::test::random_array(t, {64, 64}, rng, loom::test::Range::Unit).eval();
    loom::exec::set_poison_outputs(true);
    for (int step = 0; step < 10; ++step) {
      // sort reads in C order: a.T() is copied first. Exact arithmetic after it (a cumsum of
      // integers kept small; halves and quarters of floats), so each step must match bit for bit.
      const Array s = loom::sort(a.T(), 1);
      const Array next = loom::is_integer(t) ? loom::cumsum(s, 1) % 1009 : s * 0.5 + a.T() * 0.25;
      INFO(name(t) << " step " << step);
      CHECK(loom::test::check_gpu(next) == "");
      a = next.eval();
    }
  }
}

TEST_CASE("a k-means loop written literally (no eval): one schedule of every step's calls, the reference's values",
          "[gpu][schedule][loops]") {
  std::mt19937_64 rng(93);
  const std::int64_t n = 4000, dim = 8, k = 8;
  const Array X = loom::test::random_array(DType::Float32, {n, dim}, rng, loom::test::Range::Unit).eval();
  Array C = X[loom::Slice(0, k)].copy().eval();
  const int steps = 12;
  for (int step = 0; step < steps; ++step) {  // C = c_new, never evaluated in the loop
    const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
    const Array onehot = (loom::argmin(d, 1).expand_dims(1) == loom::arange(k)).astype(DType::Float32);
    C = loom::matmul(onehot.T(), X) / loom::maximum(loom::sum(onehot, 0), 1.0f).expand_dims(1);
  }
  const std::vector<loom::detail::NodeRef> roots{C.node()};
  const loom::exec::Schedule s = loom::exec::make_schedule(roots);
  int calls = 0;
  for (const loom::exec::Step& st : s.steps) calls += st.kind == loom::exec::Step::Kind::Call;
  CHECK(calls == 2 * steps);  // every step's two GEMMs, in order, in one schedule
  loom::exec::set_poison_outputs(true);
  const auto want = loom::test::reference_of(C);
  const auto got = loom::test::device_of(C);
  // Ties between distances may assign a point differently over 12 steps: the centroids agree to
  // float32 sums' error when no label differed, which the reference's own labels decide.
  CHECK(loom::test::compare(got, want, 1e-3, 1e-4) == "");
}
