// Reduction kernels: what fuses into one kernel (prologue, epilogue, several reductions over one
// domain), the strategy per layout, structural keys, and NVRTC compilation (sm_90, no GPU) of
// every reduction kind on every dtype it takes, in every layout.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::codegen::ReduceStrategy;

namespace {

loom::exec::Prepared prepared(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes);
}

}  // namespace

TEST_CASE("norm, logsumexp and mean+var are one kernel each", "[reduce][fusion]") {
  const Array x = loom::empty({512, 300}, DType::Float32);
  const auto norm = prepared({loom::linalg::norm(x, {}, 1)});
  REQUIRE(norm.kernels.size() == 1);
  REQUIRE(norm.kernels[0].reduce);
  CHECK(norm.kernels[0].reduce->reductions.size() == 1);
  const auto lse = prepared({loom::logsumexp(x, 1)});
  REQUIRE(lse.kernels.size() == 1);
  CHECK(lse.kernels[0].reduce->reductions[0].kind == loom::detail::ReduceKind::LogSumExp);
  const auto mv = prepared({loom::mean(x, 1), loom::var(x, 1)});
  REQUIRE(mv.kernels.size() == 1);
  CHECK(mv.kernels[0].reduce->reductions.size() == 2);
  CHECK(mv.kernels[0].outputs.size() == 2);
  // ptp: max and min of one input in one kernel; an epilogue subtracts them.
  CHECK(prepared({loom::ptp(x, 0)}).kernels.size() == 1);
}

TEST_CASE("softmax-like kernels keep each row in registers: one kernel, one read", "[reduce][fusion]") {
  const Array x = loom::empty({64, 100}, DType::Float32);
  for (const Array& y : {x - loom::max(x, 1, true), loom::softmax(x, 1), loom::log_softmax(x, -1)}) {
    const auto p = prepared({y});
    REQUIRE(p.kernels.size() == 1);
    CHECK(p.kernels[0].reduce->strategy == ReduceStrategy::Rows);
    int cached = 0;
    for (const auto& l : p.kernels[0].leaves) cached += l.cache >= 0;
    CHECK(cached == 1);  // the epilogue's x comes from the registers the prologue filled
  }
  // Not along a leading axis, nor for rows longer than the registers hold: computed first.
  CHECK(prepared({loom::softmax(x, 0)}).kernels.size() == 2);
  CHECK_THAT(loom::explain_string({x - loom::max(x, 0, true)}), Catch::Matchers::Contains("broadcast back"));
  const Array wide = loom::empty({4, 10000}, DType::Float32);
  CHECK(prepared({loom::softmax(wide, 1)}).kernels.size() == 2);
  // A reduction of a reduction: the inner one first.
  CHECK(prepared({loom::sum(x - loom::mean(x, 1, true), 1)}).kernels.size() == 2);
  // Two reductions of materialized reductions in one kernel (a matrix 1-norm twice, as cond(x, 1)
  // computes): each reads the inner result as a buffer (this once failed to partition).
  const Array y = loom::empty({4, 4}, DType::Float32), z = loom::empty({4, 4}, DType::Float32);
  const Array c = loom::max(loom::sum(loom::abs(y), 0)) * loom::max(loom::sum(loom::abs(z), 0));
  CHECK(prepared({c}).kernels.size() == 3);
}

TEST_CASE("the strategy follows the layout", "[reduce]") {
  const Array x = loom::empty({256, 512}, DType::Float32);
  CHECK(prepared({loom::sum(x, 1)}).kernels[0].reduce->strategy == ReduceStrategy::Cooperative);
  CHECK(prepared({loom::sum(x, 0)}).kernels[0].reduce->strategy == ReduceStrategy::PerThread);
  CHECK(prepared({loom::sum(x)}).kernels[0].reduce->strategy == ReduceStrategy::Cooperative);
  CHECK(prepared({loom::sum(x.T(), 1)}).kernels[0].reduce->strategy == ReduceStrategy::PerThread);
  const Array y = loom::empty({8, 16, 32}, DType::Float32);
  const auto mid = prepared({loom::sum(y, 1)});
  CHECK(mid.kernels[0].reduce->strategy == ReduceStrategy::PerThread);
  CHECK(mid.kernels[0].reduce->nk == 8 * 32);
  CHECK(mid.kernels[0].reduce->nr == 16);
  // Contiguous reduced dims collapse to one.
  CHECK(prepared({loom::sum(y, {1, 2})}).kernels[0].reduce->prologue->shape == loom::Shape{8, 512});
}

TEST_CASE("reduction keys ignore sizes and scalars", "[reduce][keys]") {
  const auto key = [](const Array& a) { return prepared({a}).kernels[0].key; };
  const Array a = loom::empty({100, 200}, DType::Float32);
  const Array b = loom::empty({300, 700}, DType::Float32);
  CHECK(key(loom::sum(a * 2.0f, 1)) == key(loom::sum(b * 3.0f, 1)));
  CHECK(key(loom::sum(a, 1)) != key(loom::sum(a, 0)));
  CHECK(key(loom::sum(a, 1)) != key(loom::max(a, 1)));
  CHECK(key(loom::var(a, 1)) == key(loom::var(b, 1, false, 1)));  // ddof is an argument
}

TEST_CASE("every reduction kernel compiles with NVRTC for sm_90", "[reduce][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const auto add = [&](const std::vector<Array>& arrays) {
    for (const auto& kp : prepared(arrays).kernels) {
      batch.add(loom::codegen::emit_kernel(kp, loom::codegen::kernel_params(kp)));
    }
  };
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::empty({40, 70}, t);
    add({loom::sum(x, 1)});
    add({loom::sum(x, 0)});
    add({loom::sum(x)});
    add({loom::prod(x, 1)});
    add({loom::max(x, 1), loom::min(x, 1)});
    add({loom::argmax(x, 1)});
    add({loom::argmin(x, 0)});
    add({loom::any(x, 1), loom::alltrue(x, 1)});
    add({loom::count_nonzero(x, 0)});
    if (!loom::is_bool(t)) add({loom::ptp(x, 1)});
    add({loom::mean(x, 1), loom::var(x, 1), loom::std(x, 0)});
    if (loom::is_floating(t)) {
      add({loom::nanmax(x, 1), loom::nanmin(x, 0), loom::nansum(x, 1), loom::nanmean(x, 0)});
      add({loom::logsumexp(x, 1)});
      add({loom::softmax(x, 1), loom::log_softmax(x, 0)});
      add({loom::softmax(x, 1)});
      add({x - loom::mean(x, 1, true) * loom::std(x, 1, true)});
    }
    add({loom::linalg::norm(x, {}, 1)});
  }
  // Layouts: middle axis, several axes, transposed, strided, broadcast, generator input, 64-bit.
  const Array y = loom::empty({6, 50, 70}, DType::Float32);
  add({loom::sum(y, 1)});
  add({loom::sum(y, {0, 2})});
  add({loom::max(y.transpose({2, 0, 1}), {1, 2})});
  add({loom::sum(y[{loom::Slice(loom::none, loom::none, 2)}], 2)});
  add({loom::sum(loom::empty({70}, DType::Float32).broadcast_to({50, 70}), 0)});
  add({loom::sum(loom::arange(1000).reshape({10, 100}) * 3, 1)});
  add({loom::sqrt(loom::sum(y * y, 2)) + loom::empty({6, 50}, DType::Float32)});
  add({loom::average(loom::empty({30, 40}, DType::Float64), 1, loom::empty({40}, DType::Float64))});
  add({loom::sum((y + 1).reshape({-1}))});
  INFO(batch.size() << " kernels");
  CHECK(batch.size() > 150);
  REQUIRE_NOTHROW(batch.compile_all());
}
