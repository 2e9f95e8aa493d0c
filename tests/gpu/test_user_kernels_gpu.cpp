// ElementwiseKernel and ReductionKernel on the GPU: CuPy's three seed examples against NumPy's
// answers (tests/gpu/user_kernel_cases.txt, tools/gen_user_kernel_cases.py), fusion with the
// ops around a user kernel (one launch) against the same expression in built-in ops, the
// launches of their own (raw arguments, `i`, `_ind.size()`, several outputs, loop code, float16
// and complex), every reduction layout against built-in reductions, determinism over 10 runs,
// and one compiled kernel for every scalar value.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/indexing_cases.hpp"

using loom::Array;
using loom::DType;

namespace {

std::vector<double> table_row(const std::string& name) {
  for (const std::string& line : loom::test::data_lines("tests/gpu/user_kernel_cases.txt")) {
    if (line.rfind(name + " ", 0) != 0) continue;
    std::vector<double> v;
    for (const std::string& t : loom::test::split(line.substr(name.size() + 1), ',')) v.push_back(std::stod(t));
    return v;
  }
  throw std::runtime_error("no row " + name);
}

const loom::ElementwiseKernel& squared_diff() {
  static const loom::ElementwiseKernel k("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  return k;
}
const loom::ReductionKernel& l2norm() {
  static const loom::ReductionKernel k("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  return k;
}

Array seed_x() { return (loom::arange(1000) * 37 % 101).astype(DType::Float32) / 7.0f - 3.0f; }
Array seed_y() { return (loom::arange(1000) * 53 % 89).astype(DType::Float32) / 5.0f - 4.0f; }

}  // namespace

TEST_CASE("CuPy's three user-kernel examples give NumPy's values", "[gpu][kernels]") {
  loom::exec::set_poison_outputs(true);
  const auto sd = Array(squared_diff()(seed_x(), seed_y())).astype(DType::Float64).to_host<double>();
  CHECK(sd == table_row("squared_diff"));
  const auto l2 = Array(l2norm()({seed_x().reshape({20, 50})}, 1)).astype(DType::Float64).to_host<double>();
  const auto want = table_row("l2norm");
  REQUIRE(l2.size() == want.size());
  for (std::size_t k = 0; k < l2.size(); ++k) CHECK(l2[k] == Approx(want[k]).epsilon(1e-6));
  const loom::RawKernel count(R"(extern "C" __global__ void count(const int* x, int n, int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[x[i]], 1);
})",
                              "count");
  const Array v = (loom::arange(1000) * 7919 % 97).astype(DType::Int32);
  const auto bins = count({4}, {256}, {v, 1000, loom::InOut{loom::zeros({97}, DType::Int32)}})[0];
  CHECK(bins.astype(DType::Float64).to_host<double>() == table_row("bincount"));
}

TEST_CASE("a user elementwise kernel fuses and matches built-in ops", "[gpu][kernels]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(171);
  for (DType t : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Int8}) {
    INFO(loom::name(t));
    const Array x = loom::test::random_array(t, {300, 257}, rng, loom::test::Range::Small).eval();
    const Array y = loom::test::random_array(t, {257}, rng, loom::test::Range::Small).eval();
    const Array w = loom::test::random_array(t, {300, 257}, rng, loom::test::Range::Small).eval();
    // One launch: the user's code between built-in ops; the values of the built-in form.
    const Array sd = squared_diff()(x.T().T() * 2, y);
    loom::reset_cache_stats();
    const Array got = (sd + w).eval();
    CHECK(loom::cache_stats().launches == 1);
    const Array d = x * 2 - y;
    CHECK(loom::test::device_of(got).data == loom::test::device_of(d * d + w).data);
    if (loom::is_integer(t)) continue;
    loom::reset_cache_stats();
    const Array s = loom::sum(Array(squared_diff()(x, y)) * w, 1).eval();
    CHECK(loom::cache_stats().launches == 1);
    const Array e = x - y;
    CHECK(loom::test::compare(loom::test::device_of(s), loom::test::device_of(loom::sum(e * e * w, 1)), 1e-5, 1e-5) == "");
  }
  // Rows long enough for 16-byte vectors: three vector inputs take batches of 4 (a batch of 8
  // spilled); against the host reference, and the user kernel against the built-in form.
  {
    const Array a = loom::test::random_array(DType::Float32, {64, 4100}, rng).eval();
    const Array b = loom::test::random_array(DType::Float32, {64, 4100}, rng).eval();
    const Array c = loom::test::random_array(DType::Float32, {64, 4100}, rng).eval();
    const Array d = a - b;
    CHECK(loom::test::check_gpu(loom::sum(d * d * c, 1), 1e-4, 1e-4) == "");
    CHECK(loom::test::compare(loom::test::device_of(loom::sum(Array(squared_diff()(a, b)) * c, 1)),
                              loom::test::device_of(loom::sum(d * d * c, 1)), 0, 0) == "");
  }
  // A transposed operand and a scalar, fused.
  const Array m = loom::test::random_array(DType::Float32, {64, 33}, rng).eval();
  const Array r = squared_diff()(m.T(), 0.5f);
  const Array z = m.T() - 0.5f;
  CHECK(loom::test::device_of(r).data == loom::test::device_of(z * z).data);
}

TEST_CASE("user elementwise kernels of their own: raw arguments, i, several outputs, loop code", "[gpu][kernels]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(172);
  const loom::ElementwiseKernel k("T x, raw T table, int32 shift", "T y, float64 w",
                                  "y = x + table[(i + shift) % table.size()]; w = (double)_ind.size() + acc",
                                  "with_extras", {.loop_prep = "int acc = 1;", .after_loop = "(void)acc;"});
  const Array x = loom::test::random_array(DType::Float32, {6, 50}, rng).eval();
  const Array table = loom::test::random_array(DType::Float32, {7}, rng).eval();
  const loom::KernelOutputs r = k(x.T(), table * 2, 3);  // a strided input, a computed raw one
  REQUIRE(r.count() == 2);
  const auto xh = x.T().to_host<float>();
  const auto th = (table * 2).to_host<float>();
  const auto yh = r.output(0).to_host<float>();
  int bad = 0;
  for (std::size_t i = 0; i < yh.size(); ++i) bad += yh[i] != xh[i] + th[(i + 3) % 7];
  CHECK(bad == 0);
  CHECK(r.output(1).to_host<double>() == std::vector<double>(300, 301.0));
  // float16 and complex64 run as launches of their own; broadcasting by strides.
  const loom::ElementwiseKernel axpy("T x, T y, T a", "T z", "z = a * x + y", "axpy");
  for (DType t : {DType::Float16, DType::Complex64}) {
    const Array a = loom::test::random_array(t, {40, 1}, rng).eval();
    const Array b = loom::test::random_array(t, {30}, rng).eval();
    const Array got = axpy(a, b, loom::full({}, 2.0, t).eval());
    CHECK(got.shape() == loom::Shape{40, 30});
    CHECK(loom::test::compare(loom::test::device_of(got), loom::test::device_of(a * 2 + b), 1e-3, 1e-3) == "");
  }
  // Every argument raw: `size` gives the loop.
  const loom::ElementwiseKernel rev("raw T x", "T y", "y = x[x.size() - 1 - i]", "reverse", {.size = 7});
  CHECK(Array(rev(table)).to_host<float>() == table.flip(0).to_host<float>());
}

TEST_CASE("a reduction kernel matches built-in reductions on every layout, the same bits every run",
          "[gpu][kernels]") {
  std::mt19937_64 rng(173);
  const Array x = loom::test::random_array(DType::Float32, {300, 257}, rng).eval();
  const auto norm = [](const Array& a, loom::Axes ax, bool keep) { return loom::sqrt(loom::sum(a * a, ax, keep)); };
  struct Case {
    Array in;
    loom::Axes axis;
    bool keep;
  };
  const std::vector<Case> cases{{x, 1, false},  {x, 0, false},       {x, {}, false},     {x, 1, true},
                                {x.T(), 1, false}, {x * 2 + 1, 0, true}, {x.reshape({3, 100, 257}), {0, 2}, false}};
  for (const Case& c : cases) {
    const Array got = Array(l2norm()({c.in}, c.axis, c.keep)).eval();
    const Array want = norm(c.in, c.axis, c.keep);
    CHECK(got.shape() == want.shape());
    CHECK(loom::test::compare(loom::test::device_of(got), loom::test::device_of(want), 1e-5, 1e-6) == "");
  }
  const auto first = Array(l2norm()({x}, 0)).to_host<float>();
  for (int run = 0; run < 10; ++run) CHECK(Array(l2norm()({x}, 0)).to_host<float>() == first);
  // A broadcast second input and a scalar; float64 accumulation of float32 terms.
  const loom::ReductionKernel dot("T x, T w, T s", "float64 y", "(double)(x * w * s)", "a + b", "y = a", "0", "dot",
                                  {.reduce_type = "float64"});
  const Array w = loom::test::random_array(DType::Float32, {257}, rng).eval();
  const Array d = dot({x, w, 2.0f}, 1);
  CHECK(d.dtype() == DType::Float64);
  CHECK(loom::test::compare(loom::test::device_of(d),
                            loom::test::device_of(loom::sum((x * w * 2.0f).astype(DType::Float64), 1)), 1e-9, 1e-9) == "");
  // No identity: max over an axis.
  const loom::ReductionKernel maxk("T x", "T y", "x", "(a > b ? a : b)", "y = a", "", "maxk");
  CHECK(Array(maxk({x}, 1)).to_host<float>() == loom::max(x, 1).to_host<float>());
}

// The fused path: the layouts that pick each reduction strategy (rows, warp rows, column tiles,
// per-thread columns, cooperative with split blocks), a prologue and an epilogue in the same
// kernel, against built-in ops with poisoned outputs; split reductions the same bits every run.
TEST_CASE("a user reduction runs on loom's strategies, fused, the same bits every run", "[gpu][kernels]") {
  std::mt19937_64 rng(331);
  struct Case {
    loom::Shape shape;
    loom::Axes axis;
  };
  const Case cases[] = {{{64, 4096}, 1},        {{4096, 64}, 0},   {{1 << 20}, loom::Axes()}, {{4096, 33}, 1},
                        {{16, 300, 8}, {0, 2}}, {{8, 8, 4096}, 2}, {{100000, 4}, 1},          {{3, 70000}, 0}};
  for (const Case& c : cases) {
    const Array x = loom::test::random_array(DType::Float32, c.shape, rng).eval();
    loom::reset_cache_stats();
    const Array got = (Array(l2norm()({x * 0.5f + 1.0f}, c.axis)) * 2.0f).eval();
    CHECK(loom::cache_stats().launches == 1);
    const Array want = loom::sqrt(loom::sum((x * 0.5f + 1.0f) * (x * 0.5f + 1.0f), c.axis)) * 2.0f;
    CHECK(got.shape() == want.shape());
    CHECK(loom::test::compare(loom::test::device_of(got), loom::test::device_of(want), 1e-5, 1e-6) == "");
    const auto first = got.to_host<float>();
    for (int run = 0; run < 10; ++run) {
      CHECK((Array(l2norm()({x * 0.5f + 1.0f}, c.axis)) * 2.0f).to_host<float>() == first);
    }
  }
  // Integers (wrapping sums as NumPy's) and an empty reduction (the identity, then the post-map).
  const loom::ReductionKernel isum("T x", "int64 y", "(long long)x", "a + b", "y = a + 1", "0", "isum",
                                   {.reduce_type = "int64"});
  const Array xi = loom::test::random_array(DType::Int32, {500, 300}, rng).eval();
  CHECK(Array(isum({xi}, 0)).to_host<std::int64_t>() == (loom::sum(xi.astype(DType::Int64), 0) + 1).to_host<std::int64_t>());
  CHECK(Array(isum({loom::zeros({4, 0}, DType::Int32)}, 1)).to_host<std::int64_t>() == std::vector<std::int64_t>(4, 1));
}

TEST_CASE("a user kernel with NVRTC options runs compiled with them, between built-in ops", "[gpu][kernels]") {
  std::mt19937_64 rng(77);
  const loom::ElementwiseKernel tripled("T x", "T y", "y = x * SCALE", "tripled", {.options = {"-DSCALE=3"}});
  const Array x = loom::test::random_array(DType::Float32, {1000, 37}, rng).eval();
  const Array got = loom::exp(Array(tripled(x * 0.25f)) + 1.0f).eval();
  const Array want = loom::exp(x * 0.25f * 3.0f + 1.0f);
  CHECK(loom::test::compare(loom::test::device_of(got), loom::test::device_of(want), 1e-6, 1e-6) == "");
  const Array t = x.T();  // a strided view of a buffer: read in place by the user kernel
  CHECK(Array(tripled(t)).to_host<float>() == (t * 3.0f).to_host<float>());
}

TEST_CASE("user kernels compile once for every scalar value", "[gpu][kernels]") {
  const Array x = loom::ones({64}, DType::Float32).eval();
  const loom::ElementwiseKernel scale("T x, T s", "T y", "y = x * s", "scale_by");
  const loom::ElementwiseKernel scale_own("T x, T s", "T y", "y = x * s", "scale_own", {.options = {"-DOWN"}});
  (void)Array(scale(x, 7.0f)).eval();  // (1 and 0 may be other kernels: constants loom folds)
  (void)Array(scale_own(x, 7.0f)).eval();
  const auto built = [] { return loom::cache_stats().compiles + loom::cache_stats().disk_hits; };
  const auto before = built();
  for (int s = 2; s < 6; ++s) {
    CHECK(Array(scale(x, float(s))).to_host<float>() == std::vector<float>(64, float(s)));
    CHECK(Array(scale_own(x, float(s))).to_host<float>() == std::vector<float>(64, float(s)));
  }
  CHECK(built() == before);
}

TEST_CASE("a user kernel that is a node compiles once, with the kernel it joins, and a body NVRTC rejects fails there",
          "[gpu][kernels]") {
  const Array x = loom::arange(1000, DType::Float32).eval();
  const loom::ElementwiseKernel cube("T x", "T y", "y = x * x * x", "cube_once");
  const loom::ReductionKernel sumsq("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_once");
  const auto built = [] { return loom::cache_stats().compiles + loom::cache_stats().disk_hits; };
  // The calls compile nothing; the eval compiles one kernel each (nothing that does not run).
  const auto at_start = built();
  const Array c = loom::exp(cube(x) * 1e-9f);
  const Array s = Array(sumsq({x})) + 1;
  CHECK(built() == at_start);
  const std::vector<float> cv = c.to_host<float>();
  CHECK(built() == at_start + 1);
  CHECK(s.to_host<float>()[0] == Approx(332833500.0 + 1).epsilon(1e-5));
  CHECK(built() == at_start + 2);
  for (int k : {0, 7, 999}) CHECK(cv[static_cast<std::size_t>(k)] == Approx(std::exp(1e-9 * k * k * k)).epsilon(1e-6));
  // A body NVRTC rejects: the call is built, its eval throws CompileError showing the body.
  const loom::ElementwiseKernel bad("T x", "T y", "y = x +* 2", "bad_node");
  Array b;
  REQUIRE_NOTHROW(b = bad(x) + 1);
  CHECK_THROWS_AS(b.eval(), loom::CompileError);
  CHECK_THROWS_WITH(b.eval(), Catch::Matchers::Contains("y = x +* 2"));
  const loom::ReductionKernel bad_red("T x", "T y", "x", "a +* b", "y = a", "0", "bad_red_node");
  Array r;
  REQUIRE_NOTHROW(r = Array(bad_red({x})) * 2);
  CHECK_THROWS_AS(r.eval(), loom::CompileError);
}
