// Gathers in generated kernels (Op::Gather): the source is a leaf read at the index value inside
// the element function, through its strides when its layout is not C-contiguous; the index
// fuses with what computes it; a computed source is materialized first. Every kernel compiles
// with NVRTC (sm_90) with no warning, and equal keys give the same source.

#include <algorithm>
#include <map>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/kernel_plans.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;

namespace {

std::vector<loom::codegen::KernelPlan> plans(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes).kernels;
}

int gathered_leaves(const loom::codegen::KernelPlan& kp) {
  int n = 0;
  for (const auto& l : kp.leaves) n += l.kind == loom::codegen::LeafKind::Gathered;
  if (kp.reduce) n += gathered_leaves(*kp.reduce->prologue);
  return n;
}

}  // namespace

TEST_CASE("a gather is one kernel with its index computation", "[codegen][gather]") {
  const Array x = loom::empty({1000}, DType::Float32);
  const Array i = loom::zeros({64}, DType::Int64);
  // x[(i * 3) % 1000] * 2: index arithmetic, gather and the multiply in one kernel.
  const auto one = plans({x[(i * 3) % 1000] * 2});
  REQUIRE(one.size() == 1);
  CHECK(gathered_leaves(one[0]) == 1);
  const std::string src = loom::codegen::emit_kernel(one[0]).text;
  CHECK_THAT(src, Catch::Matchers::Contains("// gather float32"));
  CHECK_THAT(src, Catch::Matchers::Contains("a.in0[(long long)v"));
  // An elementwise source is read at the gathered positions in the same kernel ((x + 1)[i] is
  // x[i] + 1); a reduction's result is materialized by a kernel of its own first.
  CHECK(plans({(x + 1)[i]}).size() == 1);
  CHECK(plans({loom::sum(x.reshape({100, 10}), 1)[i % 100]}).size() == 2);
  // A transposed source is read through its strides (no copy), as its storage read flat at
  // offset + sum(coordinate * stride): no unravelling of the layout in the kernel.
  const Array m = loom::empty({40, 70}, DType::Float64).T();
  const auto t = plans({m[loom::zeros({5}, DType::Int64)]});
  REQUIRE(t.size() == 1);
  CHECK(gathered_leaves(t[0]) == 1);
  for (const auto& l : t[0].leaves) {
    if (l.kind == loom::codegen::LeafKind::Gathered) {
      CHECK_FALSE(l.unravel);
      CHECK(t[0].nodes[static_cast<std::size_t>(l.slot)]->shape == loom::Shape{2800});
    }
  }
  // Inside a reduction's prologue: sum(x[i]) is one kernel.
  const auto r = plans({loom::sum(x[i])});
  REQUIRE(r.size() == 1);
  CHECK(gathered_leaves(r[0]) == 1);
  CHECK_THAT(loom::explain_string({x[i]}), Catch::Matchers::Contains("buffer read at computed positions (gather)"));
}

TEST_CASE("gather kernels compile for every dtype and layout, keys decide the source", "[codegen][gather][nvrtc]") {
  loom::test::NvrtcBatch batch;
  std::map<std::string, std::string> by_key;
  const auto add = [&](const std::vector<Array>& arrays) {
    for (const auto& kp : plans(arrays)) {
      const auto s = loom::codegen::emit_kernel(kp);
      const auto [it, fresh] = by_key.emplace(kp.key, s.text);
      CHECK(it->second == s.text);
      batch.add(s);
    }
  };
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    for (std::int64_t n : {100, 3000}) {
      const Array x = loom::empty({n / 10, 10}, t);
      const Array i = loom::zeros({n / 20}, DType::Int64);
      add({x[i]});                                       // rows: an index and an arange
      add({x[{loom::all, loom::zeros({3}, DType::Int64)}]});
      add({x.T()[i % 10]});                              // strided source
      add({loom::take(x, i, std::nullopt, loom::TakeMode::Wrap)});
      if (!loom::is_bool(t)) add({loom::sum(x[i], 1)});  // in a reduction prologue
    }
  }
  // Writes: a region, a mask, a chain.
  Array z = loom::empty({64, 64}, DType::Float32);
  z[{loom::Slice(1, -1), loom::Slice(1, -1)}] = loom::empty({62, 62}, DType::Float32);
  z[{0}] = 1;
  z[{loom::all, loom::Slice(0, 64, 3)}] += loom::empty({22}, DType::Float32);
  add({z});
  INFO(batch.size() << " kernels");
  CHECK(batch.size() > 60);
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}

TEST_CASE("a gather from a generator computes the generator into a buffer first", "[codegen][gather]") {
  // take(linspace(...), idx) (histogram's edges at each element's bin): the linspace has no
  // memory to gather from, so it is a kernel of its own and the gather reads its buffer.
  const Array idx = loom::zeros({1000}, DType::Int64);
  const auto kp = loom::test::plans(loom::take(loom::linspace(-1.0, 1.0, 257), idx) * 2.0);
  REQUIRE(kp.size() == 2);
  REQUIRE(kp[0].leaves.size() == 1);
  CHECK(kp[0].leaves[0].kind == loom::codegen::LeafKind::Linspace);
  const auto gathered = std::count_if(kp[1].leaves.begin(), kp[1].leaves.end(), [](const loom::codegen::Leaf& l) {
    return l.kind == loom::codegen::LeafKind::Gathered;
  });
  CHECK(gathered == 1);
}
