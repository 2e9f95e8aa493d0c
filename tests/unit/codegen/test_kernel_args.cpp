// The arguments builder (codegen/kernel_args.hpp): a kernel's Args struct holds exactly the
// fields its source reads, gathered as the emitters write them, with one emission per kernel.
// The oracle here is the source itself: every `a.<field>` it holds is a parameter and every
// parameter is read, across elementwise paths, generators, gathers, region writes, reductions
// of every strategy and their prologue and epilogue leaves.

#include <cctype>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_args.hpp"
#include "support/kernel_plans.hpp"

using loom::Array;
using loom::DType;

namespace {

// The fields a source reads: every `a.<name>` not preceded by an identifier or a dot.
std::set<std::string> fields_in(const std::string& text) {
  std::set<std::string> read;
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find("a."); at != std::string::npos; at = text.find("a.", at + 2)) {
    if (at > 0 && (ident(text[at - 1]) || text[at - 1] == '.')) continue;
    std::size_t end = at + 2;
    while (end < text.size() && ident(text[end])) ++end;
    if (end > at + 2) read.insert(text.substr(at + 2, end - at - 2));
  }
  return read;
}

}  // namespace

TEST_CASE("a kernel's parameters are exactly the fields its source reads", "[codegen][args]") {
  const Array x = loom::empty({64, 48}, DType::Float32);
  const Array y = loom::empty({48}, DType::Float32);
  const Array c = loom::empty({32, 64, 8}, DType::Float64);
  const Array idx = loom::zeros({100}, DType::Int64);
  const std::vector<std::vector<Array>> cases = {
      {x * 2.0f + y},                                    // flat, a broadcast, scalars
      {x.T() + 1.0f},                                    // tiled (a transposed operand)
      {loom::arange(100) * 3 + loom::linspace(0.0, 1.0, 100)},  // generators
      {loom::eye(8, 8, 1) * 5.0},                          // eye
      {x.reshape({-1})[idx] * 2.0f},                     // gather
      {loom::concatenate({x, x * 2.0f}, 0)},             // region writes (guards)
      {loom::sum(x, 0)},                                 // column reduction
      {loom::sum(x, 1)},                                 // row reduction
      {loom::var(c, 1)},                                 // variance: ddof
      {loom::exp(x - loom::max(x, 1, true)) / loom::sum(loom::exp(x - loom::max(x, 1, true)), 1, true)},  // softmax
      {loom::argmax(c, 2)},                              // middle axes
      {loom::sum(c.transpose({2, 0, 1}), 0) + 1.0},      // a strided prologue, an epilogue
      {loom::sum(c)},                                    // everything (split)
  };
  int kernels = 0;
  for (const auto& arrays : cases) {
    for (const auto& kp : loom::test::plans(arrays)) {
      const loom::codegen::KernelSource src = loom::codegen::emit_kernel(kp);
      std::set<std::string> params;
      for (const auto& p : src.params) params.insert(p.name);
      INFO(src.text);
      CHECK(params == fields_in(src.text));
      CHECK(src.params.size() == params.size());  // each once
      CHECK(loom::codegen::kernel_params(kp).size() == src.params.size());
      ++kernels;
    }
  }
  CHECK(kernels >= 13);
}

TEST_CASE("the arguments builder: fields asked for, held reads, unknown names", "[codegen][args]") {
  using loom::codegen::KernelArgs;
  using loom::codegen::Param;
  using loom::codegen::ParamKind;
  std::vector<Param> cands{{ParamKind::Numel, 0, 0, 0, 0, "n", "long long", 1},
                           {ParamKind::InPtr, 0, 0, 0, 0, "in0", "const float*", 1},
                           {ParamKind::ScalarValue, 1, 0, 0, 0, "s1", "double", 1}};
  KernelArgs args(cands);
  CHECK(args.field("s1") == "a.s1");
  KernelArgs::Held dropped, kept;
  args.hold(&dropped);
  CHECK(args.field("in0") == "a.in0");  // in a line that is then dropped
  args.hold(&kept);
  CHECK(args.field("n") == "a.n");
  args.hold(nullptr);
  args.keep(kept);
  const std::vector<Param> read = args.read();
  REQUIRE(read.size() == 2);
  CHECK(read[0].name == "n");  // in candidate order, not the order asked
  CHECK(read[1].name == "s1");
  CHECK_THROWS_WITH(args.field("in7"),
                    "internal: a kernel reads the argument in7, which its plan does not have");
}

TEST_CASE("a plan names nodes by slot, and its source never reads them", "[codegen][args]") {
  // Every kind of leaf and value: the source emitted with the plan's node table cleared is
  // byte-identical (emission reads slots, reductions and user ops, never the graph), and every
  // leaf's and reduction's slot names a node of the table.
  const Array x = loom::empty({64, 48}, DType::Float32);
  const Array y = loom::empty({48}, DType::Float32);
  const Array idx = loom::zeros({100}, DType::Int64);
  const loom::ElementwiseKernel cube("T x", "T y", "y = x * x * x", "cube_slots");
  const loom::ReductionKernel sumsq("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_slots");
  const std::vector<std::vector<Array>> cases = {
      {x * 2.0f + y, x - y},
      {x.T() + 1.0f},
      {loom::arange(100) * 3 + loom::linspace(0.0, 1.0, 100), loom::eye(8, 8, 1) * 5.0},
      {x.reshape({-1})[idx] * 2.0f},
      {loom::concatenate({x, x * 2.0f}, 0)},
      {loom::exp(x - loom::max(x, 1, true)) / loom::sum(loom::exp(x - loom::max(x, 1, true)), 1, true)},
      {loom::var(x, 0) + loom::mean(x, 0)},
      {cube(x) + 1.0f, Array(sumsq({x}, 1)) * 2.0f},
  };
  int kernels = 0;
  for (const auto& arrays : cases) {
    for (auto kp : loom::test::plans(arrays)) {
      const auto check_slots = [](const loom::codegen::KernelPlan& p) {
        for (const auto& l : p.leaves) {
          REQUIRE(l.slot >= 0);
          REQUIRE(static_cast<std::size_t>(l.slot) < p.nodes.size());
          CHECK(p.nodes[static_cast<std::size_t>(l.slot)] != nullptr);
        }
      };
      check_slots(kp);
      if (kp.reduce) {
        check_slots(*kp.reduce->prologue);
        for (const auto& r : kp.reduce->reductions) CHECK(kp.nodes[static_cast<std::size_t>(r.slot)]->op == loom::detail::Op::Reduce);
      }
      const std::string text = loom::codegen::emit_kernel(kp).text;
      std::fill(kp.nodes.begin(), kp.nodes.end(), nullptr);
      if (kp.reduce) {
        auto pro = std::make_shared<loom::codegen::KernelPlan>(*kp.reduce->prologue);
        std::fill(pro->nodes.begin(), pro->nodes.end(), nullptr);
        auto part = std::make_shared<loom::codegen::ReducePart>(*kp.reduce);
        part->prologue = pro;
        kp.reduce = part;
      }
      CHECK(loom::codegen::emit_kernel(kp).text == text);
      ++kernels;
    }
  }
  CHECK(kernels >= 9);
}
