// The schedule of an eval (exec/schedule.hpp): made by a pure function of the graph, it lists
// each library call after the calls it depends on, preceded by the kernels that compute its
// inputs (with the outputs' reductions that read the same work), and the outputs' kernels last;
// explain prints the same steps. Runs nothing, so it is checked here without a GPU too.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "exec/schedule.hpp"

using Catch::Matchers::Contains;
using loom::Array;
using loom::DType;
using loom::exec::Step;

TEST_CASE("a schedule: calls in dependency order, each after its inputs' kernels", "[schedule]") {
  const Array a = loom::empty({64, 32}, DType::Float32);
  const Array b = loom::empty({32, 16}, DType::Float32);
  const Array a2 = a * 2.0f;
  const Array c = loom::matmul(a2, b);             // call 1: its input is computed first
  const Array d = loom::sort(c + 1.0f, 1);        // call 2: reads call 1's output through a kernel
  const Array y = d * 3.0f + loom::sum(a2);       // the outputs: a reduction of call 1's input
  const std::vector<loom::detail::NodeRef> roots{y.node()};
  const loom::exec::Schedule s = loom::exec::make_schedule(roots);
  REQUIRE(s.steps.size() == 5);
  CHECK(s.steps[0].kind == Step::Kind::Kernels);
  CHECK(s.steps[0].call == s.steps[1].call);  // the kernels of matmul's inputs
  CHECK(s.steps[0].shared == 1);              // sum(a * 2) reads the same work: computed with it
  CHECK(s.steps[0].targets.size() == 2);
  CHECK(s.steps[1].kind == Step::Kind::Call);
  CHECK(s.steps[1].call->name == "matmul");
  CHECK(s.steps[2].kind == Step::Kind::Kernels);
  CHECK(s.steps[2].call->name == "sort");
  CHECK(s.steps[2].shared == 0);
  CHECK(s.steps[3].kind == Step::Kind::Call);
  CHECK(s.steps[3].call->name == "sort");
  CHECK(s.steps[4].kind == Step::Kind::Kernels);
  CHECK(s.steps[4].call == nullptr);
  CHECK(s.steps[4].targets == roots);
  const std::string text = loom::exec::to_string(s);
  CHECK_THAT(text, Contains("kernels for the inputs of matmul (1 node(s), 1 reduction(s) of the outputs)\ncall matmul"));
  CHECK_THAT(text, Contains("kernels for the outputs (1 node(s))"));
  // explain prints the same steps: each call, its inputs' kernels, then the outputs' plan.
  const std::string plan = loom::explain_string({y});
  const std::size_t first = plan.find("barrier: library call matmul");
  const std::size_t second = plan.find("barrier: library call sort");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  CHECK_THAT(plan, Contains("its inputs first: 2 kernel(s) (with 1 reduction(s) of the outputs that read the same work)"));
}

TEST_CASE("a schedule without calls is the outputs' kernels, and a call on buffers needs none before it",
          "[schedule]") {
  const Array a = loom::empty({8, 8}, DType::Float64);
  const Array e = loom::exp(a) + 1.0;
  const std::vector<loom::detail::NodeRef> plain{e.node()};
  const loom::exec::Schedule s = loom::exec::make_schedule(plain);
  REQUIRE(s.steps.size() == 1);
  CHECK(s.steps[0].kind == Step::Kind::Kernels);
  const Array m = loom::matmul(a, a) * 2.0;  // both operands read where they lie
  const std::vector<loom::detail::NodeRef> roots{m.node()};
  const loom::exec::Schedule t = loom::exec::make_schedule(roots);
  REQUIRE(t.steps.size() == 2);
  CHECK(t.steps[0].kind == Step::Kind::Call);
  CHECK(t.steps[1].kind == Step::Kind::Kernels);
  if (loom::gpu_available()) return;
  // Evaluated (the host evaluator here), nothing is pending: the schedule is its last step.
  m.eval();
  CHECK(loom::exec::make_schedule(roots).steps.size() == 1);
}

TEST_CASE("calls declare the layouts they read: a C-order copy is a step before the call, not a "
          "kernel inside it",
          "[schedule]") {
  const Array a = loom::empty({32, 16}, DType::Float32);
  // sort reads its input in C order: a transposed buffer is copied by the step before it.
  const Array s = loom::sort(a.T(), 1);
  const std::vector<loom::detail::NodeRef> sorted{s.node()};
  const loom::exec::Schedule t = loom::exec::make_schedule(sorted);
  REQUIRE(t.steps.size() == 3);
  CHECK(t.steps[0].kind == Step::Kind::Kernels);
  REQUIRE(t.steps[0].targets.size() == 1);
  CHECK(t.steps[0].targets[0]->force_materialize);  // the copy
  CHECK(t.steps[1].kind == Step::Kind::Call);
  CHECK(t.steps[1].inputs[0] == t.steps[0].targets[0]);  // the call reads the copy
  CHECK(t.steps[1].call->inputs[0] != t.steps[1].inputs[0]);
  // A C-order buffer is read where it lies.
  const Array s2 = loom::sort(a, 1);
  const std::vector<loom::detail::NodeRef> plain{s2.node()};
  const loom::exec::Schedule u = loom::exec::make_schedule(plain);
  REQUIRE(u.steps.size() == 2);
  CHECK(u.steps[0].kind == Step::Kind::Call);
  CHECK(u.steps[0].inputs[0] == u.steps[0].call->inputs[0]);
  // matmul reads its operands through their strides (op flags): no copy of a.T().
  const Array m = loom::matmul(a.T(), a);
  const std::vector<loom::detail::NodeRef> mm{m.node()};
  const loom::exec::Schedule v = loom::exec::make_schedule(mm);
  REQUIRE(v.steps.size() == 2);
  CHECK(v.steps[0].kind == Step::Kind::Call);
  CHECK(v.steps[0].inputs == v.steps[0].call->inputs);
  if (loom::gpu_available()) return;
  // The host evaluator gives NumPy's answer either way.
  const Array x = loom::arange(6).astype(DType::Float32).reshape({2, 3});
  CHECK(loom::sort(x.T() * -1.0f, 1).to_host<float>() == std::vector<float>{-3, 0, -4, -1, -5, -2});
}

namespace {

struct KStep {
  Array c_new, labels, inertia;
};

KStep kmeans_step(const Array& X, const Array& C) {
  const Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
  const Array labels = loom::argmin(d, 1);
  const Array onehot = (labels.expand_dims(1) == loom::arange(C.shape()[0])).astype(loom::float32);
  const Array c_new = loom::matmul(onehot.T(), X) / loom::maximum(loom::sum(onehot, 0), 1.0f).expand_dims(1);
  return {c_new, labels, loom::sum(loom::min(d, 1))};
}

// Steps equal: kinds, the nodes they compute and read (C-order copies compared by what they
// copy), the calls they run.
void check_same(const loom::exec::Schedule& a, const loom::exec::Schedule& b) {
  REQUIRE(a.steps.size() == b.steps.size());
  const auto same_node = [](const loom::detail::NodeRef& x, const loom::detail::NodeRef& y) {
    if (x == y) return true;
    return x->force_materialize && y->force_materialize && x->inputs[0] == y->inputs[0];
  };
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    const Step& x = a.steps[i];
    const Step& y = b.steps[i];
    CHECK(x.kind == y.kind);
    CHECK(x.call == y.call);
    CHECK(x.shared == y.shared);
    REQUIRE(x.targets.size() == y.targets.size());
    for (std::size_t j = 0; j < x.targets.size(); ++j) CHECK(same_node(x.targets[j], y.targets[j]));
    REQUIRE(x.inputs.size() == y.inputs.size());
    for (std::size_t j = 0; j < x.inputs.size(); ++j) CHECK(same_node(x.inputs[j], y.inputs[j]));
  }
}

}  // namespace

TEST_CASE("a repeated structure finds its schedule by fingerprint, rebuilt on the new graph's nodes",
          "[schedule]") {
  loom::exec::clear_schedules();
  const Array X = loom::empty({1000, 16}, DType::Float32);
  Array C = loom::empty({32, 16}, DType::Float32);
  const std::uint64_t hits = loom::exec::schedule_hits();
  for (int step = 0; step < 3; ++step) {
    const KStep s = kmeans_step(X, C);
    const std::vector<loom::detail::NodeRef> roots{s.c_new.node(), s.labels.node(), s.inertia.node()};
    const loom::exec::Schedule made = loom::exec::make_schedule(roots);
    const loom::exec::Schedule found = loom::exec::find_or_make_schedule(roots);
    check_same(made, found);
    CHECK(loom::exec::schedule_hits() == hits + static_cast<std::uint64_t>(step));  // the first one makes it
    C = loom::empty({32, 16}, DType::Float32);  // a new graph of the same structure each step
  }
  // A copy the schedule adds (sort of a transposed buffer) is made once, read by the call.
  for (int i = 0; i < 2; ++i) {
    const Array a = loom::empty({32, 16}, DType::Float32);
    const Array s = loom::sort(a.T(), 1) + 1.0f;
    const std::vector<loom::detail::NodeRef> roots{s.node()};
    const loom::exec::Schedule found = loom::exec::find_or_make_schedule(roots);
    REQUIRE(found.steps.size() == 3);
    CHECK(found.steps[0].targets[0] == found.steps[1].inputs[0]);
    CHECK(found.steps[0].targets[0]->force_materialize);
    check_same(loom::exec::make_schedule(roots), found);
  }
  // Another structure (a different layout: no copy needed) is another schedule.
  const Array b = loom::empty({16, 32}, DType::Float32);
  const Array t = loom::sort(b, 1) + 1.0f;
  const std::vector<loom::detail::NodeRef> troots{t.node()};
  const std::uint64_t before = loom::exec::schedule_hits();
  CHECK(loom::exec::find_or_make_schedule(troots).steps.size() == 2);
  CHECK(loom::exec::schedule_hits() == before);
}
