// A user's ReductionKernel as graph nodes: the map an Op::User prologue, a ReduceKind::User
// reduction whose state is a struct of the user's identity and reduce expression, the post-map an
// Op::User epilogue. It runs on every reduction strategy loom picks by layout, fuses with the ops
// before and after it (one kernel), keys on the user's code, and compiles with NVRTC (sm_90)
// without a warning. Calls it cannot express (no identity, float16, NVRTC options, an index in
// the code) stay kernels of their own.

#include <catch2/catch.hpp>

#include <set>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/kernel_plans.hpp"
#include "support/nvrtc_batch.hpp"

using loom::Array;
using loom::DType;

namespace {

using loom::test::plans;

const loom::ReductionKernel& l2norm() {
  static const loom::ReductionKernel k("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  return k;
}

}  // namespace

TEST_CASE("a user reduction runs on every reduction strategy and fuses", "[kernels][codegen]") {
  struct Case {
    loom::Shape shape;
    loom::Axes axis;
  };
  const Case cases[] = {{{64, 4096}, 1},     {{4096, 64}, 0},  {{1 << 20}, loom::Axes()}, {{4096, 33}, 1},
                        {{16, 300, 8}, {0, 2}}, {{8, 8, 4096}, 2}, {{100000, 4}, 1},      {{3, 70000}, 0}};
  loom::test::NvrtcBatch batch;
  std::set<int> strategies;
  for (const Case& c : cases) {
    const Array x = loom::empty(c.shape, DType::Float32);
    const Array y(l2norm()({x}, c.axis));
    const auto kp = plans(y);
    REQUIRE(kp.size() == 1);
    REQUIRE(kp[0].reduce);
    strategies.insert(static_cast<int>(kp[0].reduce->strategy));
    const auto src = loom::codegen::emit_kernel(kp[0]);
    CHECK_THAT(src.text, Catch::Matchers::Contains("struct loom_red_l2norm_"));
    CHECK_THAT(src.text, Catch::Matchers::Contains("(_type_reduce)(x * x)"));
    CHECK_THAT(src.text, Catch::Matchers::Contains("y = sqrt(a)"));
    batch.add(src);
  }
  CHECK(strategies.size() >= 4);  // Rows, ColumnTiles or PerThread, Cooperative, WarpRows
  // Fused with a prologue and an epilogue: one kernel.
  const Array x = loom::empty({64, 4096}, DType::Float32);
  const Array fused = Array(l2norm()({x * 2.0f + 1.0f}, 1)) + 1.0f;
  const auto kp = plans(fused);
  REQUIRE(kp.size() == 1);
  batch.add(loom::codegen::emit_kernel(kp[0]));
  CHECK_THAT(loom::explain_string({fused}), !Catch::Matchers::Contains("ReductionKernel l2norm"));
  // Typed, three arguments (one a scalar), float64 accumulation; integers; keepdims.
  const loom::ReductionKernel dot("T x, T w, T s", "float64 y", "(double)(x * w * s)", "a + b", "y = a", "0", "dot",
                                  {.reduce_type = "float64"});
  const Array d(dot({x, loom::empty({4096}, DType::Float32), 2.0f}, 0, true));
  CHECK(d.shape() == loom::Shape{1, 4096});
  REQUIRE(plans(d).size() == 1);
  batch.add(loom::codegen::emit_kernel(plans(d)[0]));
  const loom::ReductionKernel imax("T x", "T y", "x", "(a > b ? a : b)", "y = a", "-2147483647 - 1", "imax");
  const Array m(imax({loom::empty({300, 500}, DType::Int32)}, 1));
  REQUIRE(plans(m).size() == 1);
  batch.add(loom::codegen::emit_kernel(plans(m)[0]));
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}

TEST_CASE("a user reduction's code is in its kernel's key, its scalars are not", "[kernels][codegen]") {
  const Array x = loom::empty({64, 4096}, DType::Float32);
  const loom::ReductionKernel sum_sq("T x", "T y", "x * x", "a + b", "y = a", "0", "l2norm");
  const loom::ReductionKernel max_sq("T x", "T y", "x * x", "(a > b ? a : b)", "y = a", "0", "l2norm");
  CHECK(plans(Array(sum_sq({x}, 1)))[0].key != plans(Array(max_sq({x}, 1)))[0].key);
  const loom::ReductionKernel scaled("T x, T s", "T y", "x * s", "a + b", "y = a", "0", "scaled");
  CHECK(plans(Array(scaled({x, 2.0f}, 1)))[0].key == plans(Array(scaled({x, 3.0f}, 1)))[0].key);
  // Two calls in one kernel share one state struct.
  const Array two = Array(sum_sq({x}, 1)) + Array(sum_sq({x * 2.0f}, 1));
  const auto kp = plans(two);
  REQUIRE(kp.size() == 1);
  const std::string src = loom::codegen::emit_kernel(kp[0]).text;
  std::size_t n = 0;
  for (std::size_t at = src.find("struct loom_red_l2norm_"); at != std::string::npos; at = src.find("struct loom_red_l2norm_", at + 1)) ++n;
  CHECK(n == 1);
}

TEST_CASE("a user reduction that cannot be graph nodes is a kernel of its own", "[kernels][codegen]") {
  const Array x = loom::empty({64, 100}, DType::Float32);
  const loom::ReductionKernel no_identity("T x", "T y", "x", "(a > b ? a : b)", "y = a", "", "maxk");
  CHECK_THAT(loom::explain_string({Array(no_identity({x}, 1))}), Catch::Matchers::Contains("ReductionKernel maxk"));
  CHECK_THAT(loom::explain_string({Array(l2norm()({loom::empty({64, 100}, DType::Float16)}, 1))}),
             Catch::Matchers::Contains("ReductionKernel l2norm"));
  const loom::ReductionKernel with_options("T x", "T y", "x", "a + b", "y = a", "0", "opts", {.options = {"-DX=1"}});
  CHECK_THAT(loom::explain_string({Array(with_options({x}, 1))}), Catch::Matchers::Contains("ReductionKernel opts"));
  CHECK_THAT(loom::explain_string({Array(l2norm()({x}, 1))}), !Catch::Matchers::Contains("ReductionKernel l2norm"));
  // A reduce expression NVRTC rejects: as nodes, the kernel they join fails to compile (nothing
  // compiles at the call); a kernel of its own fails at the call.
  const loom::ReductionKernel bad("T x", "T y", "x", "a +* b", "y = a", "0", "bad");
  const loom::CacheStats before = loom::cache_stats();
  Array r;
  REQUIRE_NOTHROW(r = Array(bad({x}, 1)) + 1);
  const loom::CacheStats after = loom::cache_stats();
  CHECK(after.compiles + after.disk_hits == before.compiles + before.disk_hits);
  loom::test::NvrtcBatch batch;
  for (const auto& kp : loom::test::plans(r)) batch.add(loom::codegen::emit_kernel(kp));
  REQUIRE(batch.size() == 1);
  CHECK_THROWS_AS(batch.compile_all(), loom::CompileError);
  CHECK_THROWS_WITH(batch.compile_all(), Catch::Matchers::Contains("a +* b"));
  const loom::ReductionKernel bad_own("T x", "T y", "x", "a +* b", "y = a", "", "bad_own");
  CHECK_THROWS_AS(bad_own({x}, 1), loom::CompileError);
  CHECK_THROWS_WITH(bad_own({x}, 1), Catch::Matchers::Contains("a +* b"));
  if (loom::device_count() == 0) {
    CHECK_THROWS_WITH(Array(l2norm()({x}, 1)).eval(),
                      Catch::Matchers::Contains("ReductionKernel l2norm: user CUDA code runs only on a GPU"));
  }
}
