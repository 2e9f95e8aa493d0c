// Common subexpressions are computed once (issue 13, step 6): structurally equal nodes are one
// node (graph/intern.hpp), and work a library call's inputs share with the requested outputs is
// planned once, with the inputs (exec/calls.hpp, shared_reductions).

#include <catch2/catch.hpp>

#include <string>

#include <loom/loom.hpp>

#include "exec/realize.hpp"
#include "graph/intern.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;

namespace {

loom::exec::Prepared prepared(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes);
}

bool same(const Array& a, const Array& b) { return a.node() == b.node(); }

int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("equal nodes built twice are one node, for every kind that can be", "[cse]") {
  const Array x = loom::empty({4, 6}, DType::Float32), y = loom::empty({4, 6}, DType::Float32);
  // Leaves: constants and generators with equal parameters.
  CHECK(same(Array(2.5), Array(2.5)));
  CHECK(same(loom::full({3}, 7), loom::full({3}, 7)));
  CHECK(same(loom::arange(10), loom::arange(10)));
  CHECK(same(loom::arange(0.0, 1.0, 0.1), loom::arange(0.0, 1.0, 0.1)));
  CHECK(same(loom::linspace(0, 1, 7), loom::linspace(0, 1, 7)));
  CHECK(same(loom::eye(3, 4, 1), loom::eye(3, 4, 1)));
  // Views, reshapes, casts, copies.
  CHECK(same(x.T(), x.T()));
  CHECK(same(x[{loom::Slice(1, 3), 2}], x[{loom::Slice(1, 3), 2}]));
  CHECK(same((x + 1).reshape({6, 4}), (x + 1).reshape({6, 4})));
  CHECK(same(x.astype(DType::Float64), x.astype(DType::Float64)));
  CHECK(same(x.copy(), x.copy()));
  // Unary, binary, ternary ops, chains of them, reductions.
  CHECK(same(loom::exp(x), loom::exp(x)));
  CHECK(same(x * y + 1.0f, x * y + 1.0f));
  CHECK(same(loom::where(x > 0, x, y), loom::where(x > 0, x, y)));
  CHECK(same(loom::max(x, 1, true), loom::max(x, 1, true)));
  CHECK(same(loom::var(x, 0, false, 1), loom::var(x, 0, false, 1)));
  CHECK(same(loom::softmax(x, 1), loom::softmax(x, 1)));
}

TEST_CASE("nodes that differ in anything stay apart", "[cse]") {
  const Array x = loom::empty({4, 6}, DType::Float32), y = loom::empty({4, 6}, DType::Float32);
  CHECK_FALSE(same(x * 2.0f, x * 3.0f));                          // scalar values
  CHECK_FALSE(same(x * 0.0f, x * -0.0f));                         // compared bit for bit
  CHECK_FALSE(same(x * 2.0f, y * 2.0f));                          // inputs
  CHECK_FALSE(same(x + y, y + x));                                // operand order
  CHECK_FALSE(same(x.astype(DType::Float64), x.astype(DType::Int32)));
  CHECK_FALSE(same(loom::sum(x, 0), loom::sum(x, 1)));            // axes
  CHECK_FALSE(same(loom::var(x, 0, false, 0), loom::var(x, 0, false, 1)));  // ddof
  CHECK_FALSE(same(loom::arange(10), loom::arange(11)));
  CHECK_FALSE(same(x[1], x[2]));                                  // view offsets
  // Library calls are never merged (two draws differ), nor two allocations (empty() twice).
  CHECK_FALSE(same(loom::empty({3}), loom::empty({3})));
  CHECK_FALSE(same(loom::random::random({3}), loom::random::random({3})));
  CHECK_FALSE(same(loom::cumsum(x), loom::cumsum(x)));
}

TEST_CASE("a merged node is computed once and its value is right", "[cse]") {
  const auto hits = loom::detail::interned_hits();
  const Array x = loom::arange(12).astype(DType::Float32).reshape({3, 4}).eval();
  // The hand-written log-sum-exp of DESIGN.md: max(m) twice is one reduction.
  const Array lse = loom::max(x, 1, true) + loom::log(loom::sum(loom::exp(x - loom::max(x, 1, true)), 1, true));
  CHECK(loom::detail::interned_hits() > hits);
  const auto p = prepared({lse});
  REQUIRE(p.kernels.size() == 2);  // max first (a reduction inside another's input), then the rest
  REQUIRE(p.kernels[1].reduce);
  CHECK(p.kernels[1].reduce->reductions.size() == 1);  // the sum only: max is read, not recomputed
  const std::string text = loom::explain_string({lse});
  CHECK(count(text, "reduces max(") == 1);
  const auto got = lse.to_host<float>(), want = loom::logsumexp(x, 1, true).to_host<float>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-6));
  // An evaluated array is found again by an equal expression: nothing left to compute.
  const Array held = x * 2.0f + 1.0f;
  held.eval();
  CHECK((x * 2.0f + 1.0f).is_evaluated());
}

TEST_CASE("a k-means step plans the distance chain once, with the barrier that needs it", "[cse][calls]") {
  const Array X = loom::empty({100000, 16}, DType::Float32);
  const Array C = loom::empty({32, 16}, DType::Float32);
  const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
  const Array labels = loom::argmin(d, 1);
  const Array inertia = loom::sum(loom::min(d, 1));
  const Array onehot = (labels.expand_dims(1) == loom::arange(32)).astype(DType::Float32);
  const Array counts = loom::sum(onehot, 0);
  const Array c_new = loom::matmul(onehot.T(), X) / counts.expand_dims(1);
  const std::string text = loom::explain_string({c_new, labels, inertia});
  // The second GEMM's inputs are computed with the outputs' reductions that read the same work:
  // the norms, argmin and min of the distances in one kernel (the chain in its prologue, never
  // materialized), the one-hot matrix, the counts.
  CHECK_THAT(text, Catch::Contains("its inputs first: 5 kernel(s) (with 5 reduction(s) of the outputs"));
  CHECK_THAT(text, Catch::Contains("loom_red_argmin_min_"));
  // Then the outputs read those results: the division, the inertia's sum, and labels as a view.
  CHECK_THAT(text, Catch::Contains("loom plan: 2 kernel(s), 1 view(s) of results"));
  CHECK(count(text, "= subtract(") + count(text, "= add(") == 0);  // the chain is never its own kernel
}
