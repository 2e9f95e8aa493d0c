// A user's ElementwiseKernel as an Op::User node: it fuses with the ops before and after it and
// into a reduction's prologue (one kernel), its preamble is written once per kernel, the user's
// code is part of the kernel's key, and the kernels compile with NVRTC (sm_90) with no warning.
// Calls that cannot be one node (raw arguments, `i`, several outputs, loop code) are launches of
// their own.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/kernel_plans.hpp"
#include "support/nvrtc_batch.hpp"

using loom::Array;
using loom::DType;

namespace {

using loom::test::plans;

std::string source_of(const loom::codegen::KernelPlan& kp) {
  return loom::codegen::emit_kernel(kp).text;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a user elementwise kernel fuses with the ops around it", "[kernels][codegen]") {
  const loom::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  const Array x = loom::empty({64, 100}, DType::Float32), y = loom::empty({100}, DType::Float32);
  const Array w = loom::empty({64, 100}, DType::Float32);
  // Between two built-in ops: one kernel.
  const Array e = loom::exp(squared_diff(x * 2, y) + 1);
  auto kp = plans(e);
  REQUIRE(kp.size() == 1);
  const std::string src = source_of(kp[0]);
  CHECK_THAT(src, Catch::Matchers::Contains("z = (x - y) * (x - y)"));
  CHECK_THAT(src, Catch::Matchers::Contains("typedef float T;"));
  CHECK_THAT(kp[0].key.size() > 0 ? src : "", Catch::Matchers::Contains("// squared_diff"));
  // Into a reduction's prologue: sum(squared_diff(x, y) * w, 1) is one kernel.
  CHECK(plans(loom::sum(squared_diff(x, y) * w, 1)).size() == 1);
  // Long rows of three vector inputs: batches of 4 loads (8 spilled past 64 registers).
  const Array big = loom::empty({16, 8192}, DType::Float32), big2 = loom::empty({16, 8192}, DType::Float32);
  const Array big3 = loom::empty({16, 8192}, DType::Float32);
  const auto red = plans(loom::sum(squared_diff(big, big2) * big3, 1));
  REQUIRE(red.size() == 1);
  const auto red_src = loom::codegen::emit_kernel(red[0]);
  CHECK_THAT(red_src.text, Catch::Matchers::Contains("const int tile = 4 * 4 * (int)blockDim.x;"));
  loom::test::NvrtcBatch one;
  one.add(red_src);
  REQUIRE_NOTHROW(one.compile_all());
  CHECK_THAT(loom::explain_string({e}), Catch::Matchers::Contains("squared_diff"));
  // Another body with the same structure is another kernel (the code is in the key).
  const loom::ElementwiseKernel sum_sq("T x, T y", "T z", "z = x * x + y * y", "squared_diff");
  const auto other = plans(loom::exp(sum_sq(x * 2, y) + 1));
  REQUIRE(other.size() == 1);
  CHECK(other[0].key != kp[0].key);
  // A scalar is a kernel argument: other values, the same kernel.
  CHECK(plans(squared_diff(x, 2.0f))[0].key == plans(squared_diff(x, 3.0f))[0].key);
}

TEST_CASE("user kernels in one kernel share a preamble, and every dtype compiles", "[kernels][codegen]") {
  const std::string pre = "template <class V> __device__ V cube(V v) { return v * v * v; }";
  const loom::ElementwiseKernel a("T x", "T y", "y = cube(x)", "cube_a", {.preamble = pre});
  const loom::ElementwiseKernel b("T x, T s", "T y", "y = cube(x) + s", "cube_b", {.preamble = pre});
  loom::test::NvrtcBatch batch;
  for (DType t : {DType::Bool, DType::Int8, DType::UInt8, DType::Int32, DType::Int64, DType::UInt64, DType::Float32,
                  DType::Float64}) {
    const Array x = loom::empty({10, 20}, t);
    const Array r = b(a(x), loom::empty({20}, t));
    const auto kp = plans(r);
    REQUIRE(kp.size() == 1);
    const auto src = loom::codegen::emit_kernel(kp[0]);
    CHECK(count(src.text, "__device__ V cube(V v)") == 1);
    batch.add(src);
    if (t != DType::Bool) batch.add(loom::codegen::emit_kernel(plans(loom::sum(a(x), 0))[0]));
  }
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}

TEST_CASE("a user kernel that cannot be one node is a launch of its own", "[kernels][codegen]") {
  const Array x = loom::empty({100}, DType::Float32);
  const loom::ElementwiseKernel with_i("T x", "T y", "y = x + i", "with_i");
  CHECK_THAT(loom::explain_string({with_i(x) * 2}), Catch::Matchers::Contains("ElementwiseKernel with_i"));
  const loom::ElementwiseKernel two("T x", "T y, T z", "y = x; z = -x", "two");
  CHECK_THAT(loom::explain_string({two(x).output(1)}), Catch::Matchers::Contains("ElementwiseKernel two"));
  const loom::ElementwiseKernel half_k("T x", "T y", "y = x", "half_k");
  CHECK_THAT(loom::explain_string({half_k(loom::empty({4}, DType::Float16))}),
             Catch::Matchers::Contains("ElementwiseKernel half_k"));
  const loom::ElementwiseKernel value_named("T v0", "T y", "y = v0", "value_named");
  CHECK_THAT(loom::explain_string({value_named(x)}), Catch::Matchers::Contains("ElementwiseKernel value_named"));
  const loom::ElementwiseKernel fusable("T x", "T y", "y = x", "fusable");
  CHECK_THAT(loom::explain_string({fusable(x)}), !Catch::Matchers::Contains("ElementwiseKernel fusable"));
}

TEST_CASE("a user kernel with NVRTC options shares its kernel only with code compiled alike", "[kernels][codegen]") {
  const loom::ElementwiseKernel tripled("T x", "T y", "y = x * SCALE", "tripled", {.options = {"-DSCALE=3"}});
  const Array x = loom::empty({1000}, DType::Float32);
  CHECK(plans(tripled(x)).size() == 1);  // on a buffer: its own kernel, compiled with -DSCALE=3
  const Array r = loom::exp(tripled(x * 2) + 1);
  const auto kp = plans(r);
  REQUIRE(kp.size() == 3);  // x * 2; the user node; exp(. + 1)
  int with_options = 0;
  for (const auto& k : kp) {
    const auto src = loom::codegen::emit_kernel(k);
    if (src.options.empty()) continue;
    ++with_options;
    CHECK(src.options == std::vector<std::string>{"-DSCALE=3"});
    CHECK_THAT(src.text, Catch::Matchers::Contains("y = x * SCALE"));
    const auto compiled = loom::rt::compile_cubin(loom::exec::compile_request(src, 9, 0));  // NVRTC sees the option
    CHECK(!compiled.cubin.empty());
  }
  CHECK(with_options == 1);
  CHECK_THAT(loom::explain_string({r}), Catch::Matchers::Contains("a user kernel compiled with its own NVRTC options"));
  // The options are the node's: other options, another kernel.
  const loom::ElementwiseKernel other("T x", "T y", "y = x * SCALE", "tripled", {.options = {"-DSCALE=4"}});
  CHECK(plans(tripled(x))[0].key != plans(other(x))[0].key);
  // A kernel of its own says why.
  const loom::ElementwiseKernel with_i("T x", "T y", "y = x + i", "with_i");
  CHECK_THAT(loom::explain_string({with_i(x)}), Catch::Matchers::Contains("a kernel of its own: its body uses `i`"));
}
