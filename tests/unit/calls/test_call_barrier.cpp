// Library calls as barriers (graph/call.hpp): a call's outputs are leaves to fusion, its inputs
// are planned as their own kernels, explain() shows the barrier, and the host evaluator runs
// the call's host implementation. A test call stands in for a library (reverse a 1-D array and
// return its sum as a second output).

#include <catch2/catch.hpp>

#include <cstring>

#include <loom/loom.hpp>

#include "exec/calls.hpp"
#include "exec/realize.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"

using loom::Array;
using loom::DType;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

std::pair<Array, Array> reverse_and_sum(const Array& x) {
  auto spec = std::make_shared<loom::detail::CallSpec>();
  spec->name = "test.reverse";
  spec->text = "a host-only test call";
  spec->inputs = {x.node()};
  spec->outputs = {{DType::Float64, x.shape()}, {DType::Float64, loom::Shape{}}};
  spec->host = [](std::span<const loom::ref::HostArray* const> in, std::span<loom::ref::HostArray> out) {
    const auto* src = reinterpret_cast<const double*>(in[0]->data.data());
    auto* dst = reinterpret_cast<double*>(out[0].data.data());
    double total = 0;
    const std::size_t n = in[0]->numel();
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = src[n - 1 - i];
      total += src[i];
    }
    std::memcpy(out[1].data.data(), &total, sizeof total);
  };
  auto outs = loom::detail::make_call(spec);
  return {Array(outs[0]), Array(outs[1])};
}

}  // namespace

TEST_CASE("a call's outputs are leaves, work around it fuses", "[calls]") {
  const Array x = loom::arange(6).astype(DType::Float64) * 2 + 1;  // fused into the call's input
  auto [rev, total] = reverse_and_sum(x);
  const Array y = loom::exp(rev) * total + 1;
  CHECK(y.node()->has_call);
  CHECK_FALSE(x.node()->has_call);

  const std::string plan = loom::explain_string({y});
  CHECK_THAT(plan, Contains("barrier: library call test.reverse (a host-only test call): float64(6,) -> "
                            "float64(6,) float64()"));
  CHECK_THAT(plan, Contains("its inputs first: 1 kernel(s)"));
  CHECK_THAT(plan, Contains("loom plan: 1 kernel(s)"));
  CHECK_THAT(plan, Contains("output 0 of the library call test.reverse (a barrier)"));

  if (loom::gpu_available()) return;  // the rest runs the host evaluator
  const std::vector<double> got = y.to_host<double>();
  const double t = 1 + 3 + 5 + 7 + 9 + 11;
  REQUIRE(got.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(got[static_cast<std::size_t>(i)] == std::exp(11.0 - 2 * i) * t + 1);
  CHECK(total.item<double>() == t);
}

TEST_CASE("pending calls come once each, and none after they ran", "[calls]") {
  const Array x = loom::arange(4).astype(DType::Float64);
  auto [rev, total] = reverse_and_sum(x);
  auto [rev2, total2] = reverse_and_sum(rev + total);  // a call whose input holds a call
  const Array y = rev2 + total2 + rev;
  std::vector<loom::detail::NodeRef> roots{y.node()};
  CHECK(loom::exec::pending_calls(roots).size() == 2);  // y reads both calls' outputs
  if (loom::gpu_available()) return;
  // rev = [3,2,1,0], total = 6; rev2 = reverse([9,8,7,6]) = [6,7,8,9], total2 = 30.
  CHECK_THAT(y.to_host<double>(), Equals(std::vector<double>{6 + 30 + 3, 7 + 30 + 2, 8 + 30 + 1, 9 + 30 + 0}));
  y.eval();
  CHECK(loom::exec::pending_calls(roots).empty());
}

TEST_CASE("a call without a host implementation names itself", "[calls]") {
  if (loom::gpu_available()) return;
  auto spec = std::make_shared<loom::detail::CallSpec>();
  spec->name = "test.gpu_only";
  spec->text = "cuTest";
  spec->inputs = {loom::arange(3).node()};
  spec->outputs = {{DType::Int64, loom::Shape{3}}};
  const Array y(loom::detail::make_call(spec)[0]);
  CHECK_THROWS_WITH(y.eval(), Contains("test.gpu_only: needs a GPU (cuTest)"));
}
