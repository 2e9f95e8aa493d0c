// CuPy's writing idioms of user kernels on the GPU (issue 28, item 10), with outputs poisoned
// first (a value the kernel did not write, and no copy started, shows as 0xff bytes):
//   k(x, y, z)  z preallocated: the kernel writes into (a copy of) z's values, the body may read
//               them or write only some, and z is rebound to the result; handles taken before
//               keep the old values. z[i] given writes into z's region.
//   raw output  given, of its own shape (CuPy's put: data[idx] = v at scattered places).
//   no outputs  the body writes through a raw argument (y[i] = ...), which is rebound.
// (What the calls build and their errors without a GPU: tests/unit/api/test_user_kernel_writes.cpp.)

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using F32 = std::vector<float>;
using F64 = std::vector<double>;

TEST_CASE("an array given for an output is written in place of its values", "[gpu][kernels][writes]") {
  loom::exec::set_poison_outputs(true);
  const Array x = loom::arange(8).astype(DType::Float32), y = loom::full({8}, 2.0f);
  // The body reads z's old values (CuPy's z is a reference into the array).
  const loom::ElementwiseKernel axpy("T x, T y", "T z", "z += x * y", "axpy_into");
  Array z = (loom::arange(8) * 100).astype(DType::Float32).eval();
  const Array before = z;
  const loom::KernelOutputs r = axpy(x, y, z);
  CHECK(z.to_host<float>() == F32{0, 102, 204, 306, 408, 510, 612, 714});
  CHECK(Array(r).to_host<float>() == z.to_host<float>());
  CHECK(before.to_host<float>() == F32{0, 100, 200, 300, 400, 500, 600, 700});  // arrays are values
  // A body that writes some elements leaves the others as they were.
  const loom::ElementwiseKernel some("T x", "T z", "if (x > (T)3) z = x", "write_some");
  Array w = loom::full({8}, -1.0f);  // lazy: evaluated as the kernel's starting values
  (void)some(x, w);
  CHECK(w.to_host<float>() == F32{-1, -1, -1, -1, 4, 5, 6, 7});
  // The inputs broadcast to the output given; a strided (transposed) input reads by strides.
  const loom::ElementwiseKernel sd("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_into");
  const Array m = loom::arange(6).astype(DType::Float64).reshape(3, 2).eval();
  Array out = loom::zeros({2, 3});
  (void)sd(m.T(), loom::array({1.0, 2.0, 3.0}), out);
  CHECK(out.to_host<double>() == F64{1, 0, 1, 0, 1, 4});
  // x[i] given as it is: written into x's region (CuPy writes into the view), the rest kept.
  Array grid = loom::full({2, 8}, 1.0f).eval();
  (void)axpy(x, y, grid[1]);
  CHECK(grid.to_host<float>() == F32{1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9, 11, 13, 15});
  // A const array is read, not rebound: the result is returned.
  const Array zc = loom::full({8}, 5.0f).eval();
  const Array rc = axpy(x, y, zc);
  CHECK(rc.to_host<float>() == F32{5, 7, 9, 11, 13, 15, 17, 19});
  CHECK(zc.to_host<float>() == F32(8, 5.0f));
}

TEST_CASE("a raw output given is written where the body writes, the rest kept", "[gpu][kernels][writes]") {
  loom::exec::set_poison_outputs(true);
  // CuPy's _put_wrap_kernel, with `self` passed as the raw output.
  const loom::ElementwiseKernel put("S ind, raw T vals, int64 n", "raw T data",
                                    "long long k = ind % n; if (k < 0) k += n; data[k] = vals[i % vals.size()]",
                                    "put_wrap");
  Array data = loom::arange(10).astype(DType::Float64).eval();
  const Array before = data;
  (void)put(loom::array({0, -1, 12}), loom::array({7.5, 8.5, 9.5}), std::int64_t{10}, data);
  CHECK(data.to_host<double>() == F64{7.5, 1, 9.5, 3, 4, 5, 6, 7, 8, 8.5});
  CHECK(before.to_host<double>() == F64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // An empty loop still gives the array's values.
  Array kept = loom::arange(4).astype(DType::Float64);
  (void)put(loom::zeros({0}, DType::Int64), loom::array({1.0}), std::int64_t{4}, kept);
  CHECK(kept.to_host<double>() == F64{0, 1, 2, 3});
}

TEST_CASE("a kernel without outputs writes through its raw arguments", "[gpu][kernels][writes]") {
  loom::exec::set_poison_outputs(true);
  const loom::ElementwiseKernel scatter("T x, raw T y", "", "y[i + 1] = x * 2", "scatter_no_out");
  const Array x = loom::arange(4).astype(DType::Float32);
  Array y = loom::full({6}, -1.0f).eval();
  const Array before = y;
  const loom::KernelOutputs r = scatter(x, y);
  CHECK(y.to_host<float>() == F32{-1, 0, 2, 4, 6, -1});
  CHECK(r.output(0).to_host<float>() == y.to_host<float>());
  CHECK(before.to_host<float>() == F32(6, -1.0f));
  // Every argument raw: `size` gives the loop; atomics into a raw argument (a histogram).
  const loom::ElementwiseKernel hist("raw int32 v, raw int32 bins", "", "atomicAdd(&bins[v[i]], 1)", "hist",
                                     {.size = 9});
  const Array v = loom::array({0, 1, 1, 2, 2, 2, 3, 3, 3}, DType::Int32);
  Array bins = loom::zeros({4}, DType::Int32);
  (void)hist(v, bins);
  CHECK(bins.to_host<std::int32_t>() == std::vector<std::int32_t>{1, 2, 3, 3});
  // Written again: the writes build on the first call's values.
  (void)hist(v, bins);
  CHECK(bins.to_host<std::int32_t>() == std::vector<std::int32_t>{2, 4, 6, 6});
}
