// More of NumPy's math, logic and differences on the GPU: NumPy's answers (math_cases.txt, read
// from the repository root) with outputs poisoned, and the compositions of every float dtype on
// random inputs against the host reference evaluator, each one kernel.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/math_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("math, logic and differences give NumPy's values on the GPU", "[gpu][math]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] = loom::test::check_numpy_table("tests/unit/api/math_cases.txt", loom::test::run_math);
  CHECK(values > 270);
  CHECK(errors > 35);
}

TEST_CASE("the compositions of every float dtype match the reference, one kernel each", "[gpu][math]") {
  std::mt19937_64 rng(307);
  for (DType t : {DType::Float16, DType::Float32, DType::Float64}) {
    INFO(loom::name(t));
    const Array a = loom::test::random_array(t, {33, 70}, rng).eval();
    const Array b = loom::test::random_array(t, {33, 70}, rng).eval();
    const Array v = loom::test::random_array(t, {33, 70, 3}, rng).eval();
    for (const Array& r : {loom::logaddexp(a, b), loom::logaddexp2(a, b), loom::sinc(a), loom::radians(b),
                           loom::heaviside(a, b), loom::nan_to_num(a / b), loom::isclose(a, b, 0.1, 0.0),
                           loom::signbit(a), loom::diff(a, 2, 1), loom::cross(v, v.flip(2)),
                           loom::trapezoid(a, std::nullopt, 0.5, 0)}) {
      loom::reset_cache_stats();
      CHECK(loom::test::check_gpu(r) == "");
      CHECK(loom::cache_stats().launches == 1);
    }
  }
}
