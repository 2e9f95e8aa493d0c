// CuPy's idioms of writing user kernels, without a GPU (issue 28, item 10): an array given for an
// ElementwiseKernel's output (`k(x, y, z)`, z preallocated) and a kernel without outputs that
// writes through a raw argument. Both are writes: the named array is rebound to the written
// values (arrays are values; other handles keep the old ones). Here: what the call builds,
// CuPy's checks, the generated source, and the host path's plain error when a written result
// is evaluated (as for every user kernel). Values: tests/gpu/test_user_kernel_writes_gpu.cpp.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

using loom::Array;
using loom::DType;
using Catch::Matchers::Contains;
using Catch::Matchers::Message;

namespace {

const loom::ElementwiseKernel& squared_diff() {
  static const loom::ElementwiseKernel k("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  return k;
}

}  // namespace

TEST_CASE("an array given for an output is written and rebound", "[kernels][writes]") {
  const Array x = loom::empty({3, 4}, DType::Float32), y = loom::empty({4}, DType::Float32);
  Array z = loom::zeros({3, 4}, DType::Float32);
  const Array before = z;
  const loom::KernelOutputs r = squared_diff()(x, y, z);
  CHECK(z.node() != before.node());  // z holds what the kernel wrote
  CHECK(z.node() == r.node());       // and it is the result, as CuPy returns z
  CHECK(z.shape() == loom::Shape{3, 4});
  CHECK(z.dtype() == DType::Float32);
  CHECK(before.to_host<float>() == std::vector<float>(12, 0.0f));  // the old value, unchanged
  // In a vector of arguments too.
  Array z2 = loom::zeros({3, 4}, DType::Float32);
  const Array before2 = z2;
  (void)squared_diff()({x, y, z2});
  CHECK(z2.node() != before2.node());
  // A const (or temporary) array is read, not rebound: the result is returned.
  const Array zc = loom::zeros({3, 4}, DType::Float32);
  const Array rc = squared_diff()(x, y, zc);
  CHECK(rc.node() != zc.node());
  CHECK(zc.to_host<float>() == std::vector<float>(12, 0.0f));
  CHECK(squared_diff()(x, y, loom::zeros({3, 4}, DType::Float32)).shape() == loom::Shape{3, 4});
  // x[i] given as it is: written into x's region, as CuPy writes into a view.
  Array rows = loom::zeros({2, 3, 4}, DType::Float32);
  const Array rows_before = rows;
  (void)squared_diff()(x, y, rows[1]);
  CHECK(rows.node() != rows_before.node());
  CHECK(rows.shape() == loom::Shape{2, 3, 4});
  // A non-raw output array gives the loop's shape: the inputs broadcast to it (as CuPy's).
  Array big = loom::zeros({2, 3, 4}, DType::Float32);
  (void)squared_diff()(x, y, big);
  CHECK(big.shape() == loom::Shape{2, 3, 4});
  if (loom::device_count() == 0) {
    CHECK_THROWS_MATCHES(z.eval(), loom::Error,
                         Message("ElementwiseKernel squared_diff: user CUDA code runs only on a GPU (the host "
                                 "reference evaluator cannot run it)"));
  }
}

TEST_CASE("an array given for an output follows CuPy's checks", "[kernels][writes]") {
  const Array x = loom::empty({4}, DType::Float32);
  Array z64 = loom::zeros({4}, DType::Float64);
  CHECK_THROWS_MATCHES(squared_diff()(x, x, z64), loom::DTypeError,
                       Message("squared_diff: type placeholder T is float32 (from x) but float64 (from z)"));
  const loom::ElementwiseKernel typed("T x", "float32 y", "y = x", "typed");
  CHECK_THROWS_MATCHES(typed(x, z64), loom::DTypeError,
                       Message("typed: output y is float32, but the array given for it is float64"));
  Array short_z = loom::zeros({3}, DType::Float32);
  CHECK_THROWS_MATCHES(squared_diff()(x, x, short_z), loom::ShapeError,
                       Message("operands could not be broadcast together with shapes (4,) (3,) "));
  CHECK_THROWS_MATCHES(squared_diff()(x, x, 2.0f), loom::ValueError,
                       Message("squared_diff: argument 2 (output z) must be a loom::Out or an array"));
  // A placeholder that only the output binds takes the array's dtype.
  const loom::ElementwiseKernel to_u("T x", "U y", "y = x", "to_u");
  Array u = loom::zeros({4}, DType::Int16);
  (void)to_u(x, u);
  CHECK(u.dtype() == DType::Int16);
  // ReductionKernel takes its inputs only (as before).
  const loom::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  Array out = loom::zeros({}, DType::Float32);
  CHECK_THROWS_MATCHES(l2norm({x, out}), loom::ValueError,
                       Message("l2norm: wrong number of arguments: 2 given, 1 inputs"));
}

TEST_CASE("a raw output given keeps its own shape, the loop is the inputs'", "[kernels][writes]") {
  // CuPy's put: data[idx] = v, written at scattered places of a preallocated array.
  const loom::ElementwiseKernel put("T v, int64 idx", "raw T data", "data[idx] = v", "put_kernel");
  const Array v = loom::empty({3}, DType::Float64), idx = loom::array({0, 4, 9});
  Array data = loom::zeros({10});
  const loom::KernelOutputs r = put(v, idx, data);
  CHECK(data.shape() == loom::Shape{10});
  CHECK(data.node() == r.node());
  const std::string src = put.source({v, idx, data});
  CHECK_THAT(src, Contains("long long loom_outn0"));
  CHECK_THAT(src, Contains("const loom_raw_t<double> data{loom_out0, loom_outn0};"));
}

TEST_CASE("a kernel without outputs writes its raw arguments, rebinding them", "[kernels][writes]") {
  const loom::ElementwiseKernel scatter("T x, raw T y", "", "y[i] = x * 2", "scatter");
  const Array x = loom::empty({4}, DType::Float32);
  Array y = loom::zeros({6}, DType::Float32);
  const Array before = y;
  const loom::KernelOutputs r = scatter(x, y);
  REQUIRE(r.count() == 1);  // the raw arguments written, in order
  CHECK(y.node() == r.node());
  CHECK(y.node() != before.node());
  CHECK(y.shape() == loom::Shape{6});
  CHECK(y.dtype() == DType::Float32);
  CHECK(before.to_host<float>() == std::vector<float>(6, 0.0f));
  // Written raw arguments are the kernel's to write: a non-const pointer.
  CHECK_THAT(scatter.source({x, y}), Contains("const loom_raw_t<float> y{loom_raw1, loom_rawn1};"));
  CHECK_THAT(scatter.source({x, y}), Contains("float* loom_raw1"));
  // Every argument raw: `size` gives the loop, as CuPy's.
  const loom::ElementwiseKernel iota("raw T y", "", "y[i] = (T)i", "iota", {.size = 3});
  Array w = loom::zeros({5}, DType::Int32);
  (void)iota(w);
  CHECK(w.shape() == loom::Shape{5});
  // A written raw argument keeps its dtype: a typed parameter must be it.
  const loom::ElementwiseKernel typed("float32 x, raw float32 y", "", "y[i] = x", "typed_raw");
  Array y64 = loom::zeros({4});
  CHECK_THROWS_MATCHES(typed(x, y64), loom::DTypeError,
                       Message("typed_raw: raw argument y is written, so its array must be float32, not float64"));
  // Nothing raw: nothing anyone could see is written.
  const loom::ElementwiseKernel nothing("T x", "", "(void)x", "nothing");
  CHECK(nothing(x).count() == 0);
  if (loom::device_count() == 0) {
    CHECK_THROWS_WITH(y.eval(), Contains("ElementwiseKernel scatter: user CUDA code runs only on a GPU"));
  }
}

TEST_CASE("raw arguments of a kernel with outputs are read-only, as CuPy's", "[kernels][writes]") {
  const loom::ElementwiseKernel look("T x, raw T table", "T y", "y = x + table[i % table.size()]", "look");
  const Array x = loom::empty({4}, DType::Float32), t = loom::empty({2}, DType::Float32);
  CHECK_THAT(look.source({x, t}), Contains("const loom_raw_t<const float> table{loom_raw1, loom_rawn1};"));
  if (loom::device_count() == 0) {  // compiled at the call's line (NVRTC needs no GPU)
    const loom::ElementwiseKernel writes("T x, raw T table", "T y", "table[i] = x; y = x", "writes_raw");
    CHECK_THROWS_AS(writes(x, t), loom::CompileError);
  }
}
