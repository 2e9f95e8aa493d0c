// Every elementwise op on every dtype it supports, on the GPU, against the host reference
// evaluator, on fresh random inputs with poisoned outputs; in contiguous, broadcast, transposed
// and strided layouts.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/op_cases.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

// Tolerances: exact ops are exact; transcendental functions differ by a few ulp between CUDA's
// math library and the host's; complex formulas a little more.
double rtol_for(const std::string& op, DType in, DType t) {
  const bool transcendental = op != "add" && op != "subtract" && op != "multiply" &&
                              op != "negative" && op != "positive" && op != "absolute" &&
                              op != "maximum" && op != "minimum" && op != "fmax" && op != "fmin" &&
                              op != "floor" && op != "ceil" && op != "trunc" && op != "rint" &&
                              op != "copysign" && op != "where" && op != "copy" && op != "square" &&
                              op != "real" && op != "imag" && op != "conjugate";
  // |z| of a complex is hypot(re, im): a few ulp apart between CUDA and the host library.
  const bool complex_rounding = loom::is_complex(in) && (op == "multiply" || op == "absolute");
  if (!transcendental && !complex_rounding) return 0;
  if (!transcendental) return in == DType::Complex64 ? 1e-6 : 1e-15;
  // complex64 power: exp(b log a) loses relative precision with |b log a| (float error ~1e-5).
  if (op == "power" && t == DType::Complex64) return 2e-4;
  switch (t) {
    case DType::Float16: return 1e-3;
    case DType::BFloat16: return 8e-3;
    case DType::Float32: return 4e-6;
    case DType::Complex64: return 2e-5;
    case DType::Float64: return 1e-14;
    case DType::Complex128: return 1e-12;
    default: return 0;
  }
}

void run_cases(const Shape& in_shape, const std::vector<DType>& dtypes,
               const std::function<Array(const Array&)>& layout, const char* layout_name,
               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (const loom::test::OpCase& oc : loom::test::op_cases()) {
    for (DType t : dtypes) {
      std::vector<Array> in;
      for (int i = 0; i < oc.arity; ++i) {
        const DType ti = i == 0 && oc.arity == 3 ? DType::Bool : t;
        in.push_back(layout(loom::test::random_array(ti, in_shape, rng, oc.range)));
      }
      const Array r = loom::test::build_case(oc, t, in);
      if (!r.valid()) continue;
      const double rtol = rtol_for(oc.name, t, r.dtype());
      INFO(oc.name << " on " << loom::name(t) << " (" << layout_name << ")");
      CHECK(loom::test::check_gpu(r, rtol, rtol) == "");
      ++checked;
    }
  }
  CHECK(checked > static_cast<int>(dtypes.size()) * 20);
}

}  // namespace

TEST_CASE("every op on every dtype, contiguous, with a vector tail", "[gpu][ops]") {
  run_cases({7, 1031}, loom::test::all_dtypes(), [](const Array& a) { return a; }, "contiguous", 11);
}

TEST_CASE("every op, broadcast, transposed and strided operands", "[gpu][ops][layouts]") {
  const std::vector<DType> some = {DType::Float32, DType::Int64, DType::Float16, DType::Complex128,
                                   DType::Bool, DType::UInt8};
  run_cases({67, 130}, some, [](const Array& a) { return a.T(); }, "transposed", 12);
  run_cases({67, 130}, some,
            [](const Array& a) { return a[{loom::Slice(1, loom::none, 2), loom::Slice(loom::none, loom::none, -3)}]; },
            "strided", 13);
  run_cases({1, 130}, some, [](const Array& a) { return a.broadcast_to({67, 130}); }, "broadcast rows", 14);
}

TEST_CASE("generators and views run fused on the GPU", "[gpu][views]") {
  using loom::test::check_gpu;
  std::mt19937_64 rng(21);
  CHECK(check_gpu(loom::arange(1'000'000).reshape({1000, -1}).T() * 2) == "");
  CHECK(check_gpu(loom::arange(12345).astype(DType::Float32) * 0.5f) == "");
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    if (!loom::is_complex(t)) {
      CHECK(check_gpu(loom::arange(loom::Scalar::of(3, false), loom::Scalar::of(250, false),
                                   loom::Scalar::of(7, false), t == DType::Bool ? DType::Int64 : t)) == "");
      CHECK(check_gpu(loom::linspace(-5, 5, 97, true, t)) == "");
      CHECK(check_gpu(loom::linspace(0, 1, 50, false, t)) == "");
    }
    CHECK(check_gpu(loom::eye(33, 65, 3, t)) == "");
    CHECK(check_gpu(loom::eye(33, 65, -2, t).T()) == "");
    CHECK(check_gpu(loom::full({5, 7}, 3, t)) == "");
  }
  CHECK(check_gpu(loom::arange(0.0, 1.0, 0.01)) == "");
  CHECK(check_gpu(loom::arange(0.0, 1.0, 0.01).astype(DType::Float32)) == "");
  const Array x = loom::test::random_array(DType::Float32, {64, 48}, rng);
  CHECK(check_gpu((x + 1).reshape({-1})) == "");
  CHECK(check_gpu((x.T() + 1).reshape({-1})) == "");
  CHECK(check_gpu((x.T() + 1).reshape({16, 3, 64})) == "");
  CHECK(check_gpu((x + 1).reshape({-1})[loom::Slice(3, loom::none, 5)] * 2) == "");  // unravel
  CHECK(check_gpu(x.T().reshape({64, 48}) * 2) == "");  // a copy first
  CHECK(check_gpu(x.flip() - x) == "");
  CHECK(check_gpu(x[{loom::Slice(1, 63), loom::Slice(1, 47)}] * 3) == "");  // misaligned
  CHECK(check_gpu(x[{loom::newaxis, loom::ellipsis, loom::newaxis}] + x.reshape({64, 48, 1})) == "");
  CHECK(check_gpu(loom::eye(6, 8).reshape({-1}) + 1) == "");
  const Array y = loom::test::random_array(DType::Int16, {3, 4, 5, 6}, rng);
  CHECK(check_gpu(y.transpose({2, 0, 3, 1}) + y.transpose({2, 0, 3, 1}).flip(1)) == "");
}

TEST_CASE("reads a few elements apart share a pointer and match the reference on every dtype", "[gpu][shared]") {
  // Neighbour reads of one array (Leaf::share): on the vector path their lanes come from the
  // lead's vector and single elements past its ends; misaligned, the scalar path. Guarded
  // (under a write) and unguarded, with a lead that an unguarded read loads before the guards.
  std::mt19937_64 rng(811);
  using loom::Slice;
  const auto diff = [](const Array& a, int s) {
    const Array hi = a[{Slice(s, loom::none)}], lo = a[{Slice(0, -s)}];
    return loom::is_bool(a.dtype()) ? (hi ^ lo) : (hi - lo + hi);
  };
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::test::random_array(t, {1003}, rng).eval();
    for (int s : {1, 2, 3, 7, 15}) {
      INFO("shift " << s);
      CHECK(loom::test::check_gpu(diff(x, s)) == "");
      CHECK(loom::test::check_gpu(diff(x[{Slice(1, loom::none)}], s)) == "");  // the lead misaligned
    }
    if (loom::is_bool(t)) continue;
    // Under a write: the pieces x[:-2] and x[1:-1] inside the box, x outside it, and x again
    // unguarded (the sum): one storage read four times.
    Array v = x;
    v[{Slice(1, -1)}] = x[{Slice(0, -2)}] + x[{Slice(1, -1)}];
    CHECK(loom::test::check_gpu(v + x) == "");
    CHECK(loom::test::check_gpu(v) == "");
    // Rows of 128 a row stride of 144 apart (vectors), the neighbours along them and across them.
    const Array u = loom::test::random_array(t, {37, 144}, rng).eval();
    const Slice in(1, -1), lo(0, -2), left(0, 128), mid(1, 129), right(2, 130);
    CHECK(loom::test::check_gpu(u[{in, mid}] + u[{in, right}] - u[{in, left}] + u[{lo, mid}]) == "");
  }
  // The executable cache: one graph structure over one array, then over two (the fingerprint
  // tells them apart: a kernel that shares a pointer must not read y through x's).
  const Array a = loom::test::random_array(DType::Float32, {4096}, rng).eval();
  const Array b = loom::test::random_array(DType::Float32, {4096}, rng).eval();
  const auto f = [](const Array& p, const Array& q) { return p[{Slice(1, loom::none)}] * 2 - q[{Slice(0, -1)}]; };
  for (int round = 0; round < 2; ++round) {
    CHECK(loom::test::check_gpu(f(a, a)) == "");
    CHECK(loom::test::check_gpu(f(a, b)) == "");
    CHECK(loom::test::check_gpu(f(b, a)) == "");
    CHECK(loom::test::check_gpu(f(b, b)) == "");
  }
}

TEST_CASE("random stencils over views of one array match the reference", "[gpu][shared]") {
  // Sums of 2..5 windows of u a few rows and columns apart, alone, written into u's interior
  // (guarded reads: the windows inside the box, u outside it) and added to u again (unguarded
  // beside guarded): shared pointers with every shift, lead and alignment the planner may meet.
  std::mt19937_64 rng(4242);
  using loom::Slice;
  const std::vector<DType> types{DType::Int8, DType::Int16, DType::UInt8, DType::Int32, DType::Int64,
                                 DType::Float16, DType::Float32, DType::Float64, DType::Complex64};
  for (int c = 0; c < 120; ++c) {
    const DType t = types[rng() % types.size()];
    const std::int64_t rows = 4 + static_cast<std::int64_t>(rng() % 30), cols = 6 + static_cast<std::int64_t>(rng() % 300);
    const std::int64_t r = rows - 2, w = cols - 4;  // the windows' shape
    const Array u = loom::test::random_array(t, {rows, cols}, rng).eval();
    const auto window = [&] {
      const std::int64_t r0 = static_cast<std::int64_t>(rng() % 3), c0 = static_cast<std::int64_t>(rng() % 5);
      return u[{Slice(r0, r0 + r), Slice(c0, c0 + w)}];
    };
    Array sum = window();
    const int terms = 2 + static_cast<int>(rng() % 4);
    for (int k = 1; k < terms; ++k) sum = (rng() % 2) ? sum + window() : sum - window();
    INFO("case " << c << ": " << loom::name(t) << " " << rows << " x " << cols << ", " << terms << " windows");
    switch (rng() % 3) {
      case 0: CHECK(loom::test::check_gpu(sum) == ""); break;
      case 1: {
        Array v = u;
        v[{Slice(1, 1 + r), Slice(2, 2 + w)}] = sum;
        CHECK(loom::test::check_gpu(v) == "");
        break;
      }
      default: {
        Array v = u;
        v[{Slice(1, 1 + r), Slice(2, 2 + w)}] = sum;
        CHECK(loom::test::check_gpu(v + u) == "");
      }
    }
  }
}

TEST_CASE("64-bit indexing past 2^31 elements", "[gpu][large]") {
  // 2^31 + 5 int8 elements: the kernel must take the 64-bit path and write the last ones.
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  const Array a = (loom::arange(n) % 7).astype(DType::Int8);
  const Array e = a.eval();
  const Array tail = e[loom::Slice(n - 5, loom::none)];
  const std::vector<std::int8_t> t = tail.to_host<std::int8_t>();
  for (int i = 0; i < 5; ++i) CHECK(t[static_cast<std::size_t>(i)] == static_cast<std::int8_t>((n - 5 + i) % 7));
}
