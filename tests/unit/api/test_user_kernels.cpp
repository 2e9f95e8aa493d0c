// ElementwiseKernel and ReductionKernel without a GPU: parameter lists, placeholder resolution
// and its errors (CuPy's rules), output shapes and dtypes, the generated source (a kernel of its
// own compiled by NVRTC at the call's line, a node's with the kernel it joins), and the plain
// error when a result is evaluated without a GPU.
// (Values on the GPU: tests/gpu/test_user_kernels_gpu.cpp.)

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "support/kernel_plans.hpp"
#include "support/nvrtc_batch.hpp"

using loom::Array;
using loom::DType;

namespace {

const loom::ElementwiseKernel& squared_diff() {
  static const loom::ElementwiseKernel k("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  return k;
}

}  // namespace

TEST_CASE("an elementwise kernel resolves placeholders and broadcasts", "[kernels]") {
  const Array x = loom::empty({4, 1}, DType::Float32), y = loom::empty({5}, DType::Float32);
  const Array z = squared_diff()(x, y);
  CHECK(z.shape() == loom::Shape{4, 5});
  CHECK(z.dtype() == DType::Float32);
  const std::string src = squared_diff().source({x, y});
  CHECK_THAT(src, Catch::Matchers::Contains("typedef float T;"));
  CHECK_THAT(src, Catch::Matchers::Contains("extern \"C\" __global__ void squared_diff("));
  CHECK_THAT(src, Catch::Matchers::Contains("z = (x - y) * (x - y)"));
  // A scalar takes the placeholder's dtype (one kernel for every value).
  const Array d = loom::empty({3}, DType::Float64);
  CHECK(squared_diff()(d, 2).dtype() == DType::Float64);
  CHECK(squared_diff().source({d, 2}) == squared_diff().source({d, 7}));
  // Only scalars: their C++ types (int: int32), a 0-d output.
  const Array s = squared_diff()(3, 4);
  CHECK(s.dtype() == DType::Int32);
  CHECK(s.ndim() == 0);
  // Contiguous operands collapse to one dim; a transposed one does not.
  const Array m = loom::empty({6, 7}, DType::Float32).eval();
  CHECK_THAT(squared_diff().source({m, m}), Catch::Matchers::Contains("1 collapsed dim(s)"));
  CHECK_THAT(squared_diff().source({m, m.T().T()}), Catch::Matchers::Contains("1 collapsed dim(s)"));
  const Array sq = loom::empty({5, 5}, DType::Float32).eval();
  CHECK_THAT(squared_diff().source({sq, sq.T()}), Catch::Matchers::Contains("2 collapsed dim(s)"));
  if (loom::device_count() == 0) {
    CHECK_THROWS_MATCHES(z.eval(), loom::Error,
                         Catch::Matchers::Message("ElementwiseKernel squared_diff: user CUDA code runs only on a GPU (the "
                                                  "host reference evaluator cannot run it)"));
  }
}

TEST_CASE("an elementwise kernel's errors follow CuPy's rules", "[kernels]") {
  const Array f = loom::empty({3}, DType::Float32), i = loom::empty({3}, DType::Int32);
  CHECK_THROWS_MATCHES(squared_diff()(f, i), loom::DTypeError,
                       Catch::Matchers::Message("squared_diff: type placeholder T is float32 (from x) but int32 (from y)"));
  CHECK_THROWS_MATCHES(squared_diff()(f), loom::ValueError,
                       Catch::Matchers::Message("squared_diff: wrong number of arguments: 1 given, 2 inputs (and 1 outputs)"));
  CHECK_THROWS_WITH(squared_diff()(f, loom::empty({4}, DType::Float32)), Catch::Matchers::Contains("operands could not be broadcast together"));
  CHECK_THROWS_MATCHES(loom::ElementwiseKernel("T x,", "T y", "y = x"), loom::ValueError,
                       Catch::Matchers::Message("kernel: syntax error in parameter ''"));
  CHECK_THROWS_MATCHES(loom::ElementwiseKernel("T x, T x", "T y", "y = x"), loom::ValueError,
                       Catch::Matchers::Message("kernel: duplicated parameter name 'x'"));
  CHECK_THROWS_MATCHES(loom::ElementwiseKernel("T x", "T y", "y = x", "bad name"), loom::ValueError,
                       Catch::Matchers::Message("ElementwiseKernel: the name 'bad name' is not a C++ identifier"));
  const loom::ElementwiseKernel to_u("T x", "U y", "y = x", "to_u");
  CHECK_THROWS_MATCHES(to_u(f), loom::DTypeError,
                       Catch::Matchers::Message("to_u: cannot determine the type of y (placeholder U is bound by no argument)"));
  // An Out resolves it and gives the shape.
  const Array u = to_u(f, loom::Out{{3}, DType::Int64});
  CHECK(u.dtype() == DType::Int64);
  const loom::ElementwiseKernel raw_only("raw T x", "T y", "y = x[i]", "raw_only");
  CHECK_THROWS_MATCHES(raw_only(f), loom::ValueError,
                       Catch::Matchers::Message("raw_only: loop size is undecided (every argument is raw: give `size`)"));
  CHECK_THROWS_MATCHES(raw_only(2.0f), loom::ValueError,
                       Catch::Matchers::Message("raw_only: raw parameter x needs an array, not a scalar"));
  const loom::ElementwiseKernel sized("raw T x", "T y", "y = x[x.size() - 1 - i]", "reverse", {.size = 3});
  CHECK(sized(f).shape() == loom::Shape{3});
  // Typed parameters cast their arrays.
  const loom::ElementwiseKernel typed("float64 x, int32 n", "float64 y", "y = x * n", "typed");
  CHECK(typed(i, 3).dtype() == DType::Float64);
}

TEST_CASE("a body NVRTC rejects fails where its kernel compiles, and nothing compiles that does not run",
          "[kernels]") {
  const Array f = loom::empty({3}, DType::Float32);
  // A graph node: nothing compiles at the call (the node's code compiles with the kernel it
  // joins), and that kernel's compile throws CompileError showing the body.
  const loom::ElementwiseKernel bad("T x", "T y", "y = x +* 2", "bad");
  const loom::CacheStats before = loom::cache_stats();
  Array y;
  REQUIRE_NOTHROW(y = loom::exp(bad(f)));
  const loom::CacheStats after = loom::cache_stats();
  CHECK(after.compiles + after.disk_hits == before.compiles + before.disk_hits);
  loom::test::NvrtcBatch batch;
  for (const auto& kp : loom::test::plans(y)) batch.add(loom::codegen::emit_kernel(kp));
  REQUIRE(batch.size() == 1);
  CHECK_THROWS_AS(batch.compile_all(), loom::CompileError);
  CHECK_THROWS_WITH(batch.compile_all(), Catch::Matchers::Contains("y = x +* 2"));
  // A kernel of its own (here: raw arguments) compiles at the call's line, GPU or not.
  const loom::ElementwiseKernel bad_raw("T x, raw T t", "T y", "y = x +* t[0]", "bad_raw");
  CHECK_THROWS_AS(bad_raw(f, f), loom::CompileError);
  CHECK_THROWS_WITH(bad_raw(f, f), Catch::Matchers::Contains("y = x +* t[0]"));
}

TEST_CASE("an elementwise kernel compiles with raw arguments, preamble and loop code", "[kernels]") {
  const loom::ElementwiseKernel k("T x, raw T table, int32 shift", "T y, T w",
                                  "y = twice(x) + table[(i + shift) % table.size()]; w = (T)_ind.size(); acc += 1",
                                  "with_extras",
                                  {.preamble = "template <class V> __device__ V twice(V v) { return v + v; }",
                                   .loop_prep = "int acc = 0;",
                                   .after_loop = "(void)acc;"});
  const Array x = loom::empty({10}, DType::Float32), t = loom::empty({4}, DType::Float32);
  const loom::KernelOutputs r = k(x, t, 1);
  REQUIRE(r.count() == 2);
  CHECK(r.output(1).shape() == loom::Shape{10});
  CHECK(r.outputs()[0].node() == r.node());  // the first output is the array itself
  CHECK_THROWS_MATCHES(r.output(2), loom::IndexError, Catch::Matchers::Message("output 2 of a kernel with 2 output(s)"));
  for (DType dt : {DType::Bool, DType::Int8, DType::UInt64, DType::Float16, DType::BFloat16, DType::Complex64,
                   DType::Complex128}) {
    const loom::ElementwiseKernel copy("T x", "T y", "y = x", "copy_any");
    CHECK(copy(loom::empty({3}, dt)).dtype() == dt);  // compiles for every dtype
  }
}

TEST_CASE("a reduction kernel reduces over the axes asked", "[kernels]") {
  const loom::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const Array x = loom::empty({3, 4, 5}, DType::Float32);
  CHECK((l2norm({x})).shape() == loom::Shape{});
  CHECK((l2norm({x}, 1)).shape() == loom::Shape{3, 5});
  CHECK((l2norm({x}, {0, 2}, true)).shape() == loom::Shape{1, 4, 1});
  CHECK((l2norm({x}, -1)).dtype() == DType::Float32);
  const std::string src = l2norm.source({x}, -1);
  CHECK_THAT(src, Catch::Matchers::Contains("1 kept and 1 reduced dim(s) after collapsing"));
  CHECK_THAT(src, Catch::Matchers::Contains("const _type_reduce b = (_type_reduce)(x * x);"));
  CHECK_THAT(src, Catch::Matchers::Contains("y = sqrt(a);"));
  CHECK_THROWS_WITH(l2norm({x}, 3), Catch::Matchers::Contains("axis 3 is out of bounds"));
  CHECK_THROWS_MATCHES(l2norm({x}, {1, 1}), loom::ValueError, Catch::Matchers::Message("duplicate value in 'axis'"));
  const loom::ReductionKernel no_identity("T x", "T y", "x", "max(a, b)", "y = a", "", "maxk");
  CHECK_THROWS_MATCHES(no_identity({loom::empty({0}, DType::Float32)}), loom::ValueError,
                       Catch::Matchers::Message("zero-size array to reduction operation maxk which has no identity"));
  CHECK((no_identity({loom::empty({2, 0}, DType::Float32)}, 0)).shape() == loom::Shape{0});
  const loom::ReductionKernel typed("T x, T w", "float64 y", "x * w", "a + b", "y = a", "0", "dot",
                                    {.reduce_type = "float64"});
  CHECK((typed({loom::empty({8}, DType::Float32), 2.0f})).dtype() == DType::Float64);
  if (loom::device_count() == 0) {
    CHECK_THROWS_WITH((l2norm({x})).eval(), Catch::Matchers::Contains("runs only on a GPU"));
  }
}
