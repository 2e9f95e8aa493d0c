// More of NumPy's math, logic and differences (ops.hpp, reductions.hpp, sorting.hpp) against
// NumPy's answers (math_cases.txt, tools/gen_math_cases.py): values (nan, inf and -0.0 among
// them), dtypes, shapes, and errors with NumPy's wording; and the fusion each is built for.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <loom/loom.hpp>

#include "support/kernel_count.hpp"
#include "support/math_cases.hpp"

using loom::Array;
using loom::DType;

using loom::test::kernels_of;

TEST_CASE("math, logic and differences give NumPy's values, dtypes and errors", "[math]") {
  const auto [values, errors] = loom::test::check_numpy_table(
      std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/math_cases.txt", loom::test::run_math);
  CHECK(values > 270);
  CHECK(errors > 35);
}

TEST_CASE("the compositions fuse: one kernel each, inputs read once", "[math][fusion]") {
  const Array x = loom::empty({64, 100}, DType::Float32), y = loom::empty({64, 100}, DType::Float32);
  const Array v = loom::empty({64, 100, 3}, DType::Float64), w = loom::empty({64, 100, 3}, DType::Float64);
  CHECK(kernels_of(loom::logaddexp(x, y) * 2.0f) == 1);
  CHECK(kernels_of(loom::sinc(loom::radians(x)) + loom::heaviside(y, Array(0.5f))) == 1);
  CHECK(kernels_of(loom::nan_to_num(x / y)) == 1);
  CHECK(kernels_of(loom::isclose(x, y) & loom::isposinf(x)) == 1);
  CHECK(kernels_of(loom::diff(x * 2.0f, 2, 0)) == 1);
  CHECK(kernels_of(loom::cross(v, w)) == 1);
  CHECK(kernels_of(loom::trapezoid(x, std::nullopt, 0.5, 1)) == 1);
  CHECK(kernels_of(loom::all(loom::isclose(x, y))) == 1);  // allclose's one reduction
}

TEST_CASE("the extras are lazy, keep NumPy's dtypes for weak scalars, and name the op in errors", "[math]") {
  const Array i8 = loom::arange(5).astype(DType::Int8);
  CHECK(loom::heaviside(i8, Array(2)).dtype() == DType::Float16);
  CHECK(loom::angle(i8).dtype() == DType::Float16);
  CHECK(loom::angle(loom::ones({3}, DType::Bool)).dtype() == DType::Float64);
  CHECK(loom::float_power(loom::ones({3}, DType::Complex64), Array(2)).dtype() == DType::Complex128);
  CHECK_THROWS_MATCHES(loom::fabs(loom::ones({2}, DType::Complex64)), loom::DTypeError,
                       Catch::Matchers::Message("ufunc 'fabs' not supported for the input types (complex64), and the "
                                                "inputs could not be safely coerced to any supported types according "
                                                "to the casting rule 'safe'"));
  CHECK_THROWS_MATCHES(loom::logaddexp(loom::ones({2}, DType::Complex64), Array(1.0)), loom::DTypeError,
                       Catch::Matchers::Message("ufunc 'logaddexp' not supported for the input types (complex64, "
                                                "float64), and the inputs could not be safely coerced to any supported "
                                                "types according to the casting rule 'safe'"));
  CHECK_THROWS_MATCHES(loom::isposinf(loom::ones({2}, DType::Complex128)), loom::DTypeError,
                       Catch::Matchers::Message("This operation is not supported for complex128 values because it "
                                                "would be ambiguous."));
  CHECK_THROWS_MATCHES(loom::cross(loom::ones({2}), loom::ones({2})), loom::ValueError,
                       Catch::Matchers::Message("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                                                "they are 2 and 2 dimensional instead."));
  // allclose and friends answer on the host.
  CHECK(loom::allclose(loom::ones({4}), loom::ones({4}) + 1e-9));
  CHECK_FALSE(loom::array_equal(loom::ones({4}), loom::ones({2, 2})));
  CHECK(loom::array_equiv(loom::ones({4}), loom::ones({3, 4})));
}

// A solver's convergence test, many steps: Newton's iteration for sqrt(2) in float64 stops when
// allclose says two steps agree, and the logaddexp accumulation of a log-probability keeps its
// value through 50 steps, as NumPy's loop does.
TEST_CASE("allclose drives a loop to convergence, step by step", "[math]") {
  Array x = loom::full({8}, 1.0);
  int steps = 0;
  for (; steps < 50; ++steps) {
    const Array next = (x + Array(2.0) / x) / Array(2.0);
    const bool done = loom::allclose(next, x, 0.0, 1e-15);
    x = next.eval();
    if (done) break;
  }
  CHECK(steps < 10);
  for (double v : x.to_host<double>()) CHECK(v == Approx(1.4142135623730951).epsilon(1e-15));
  Array acc = loom::full({4}, -std::numeric_limits<double>::infinity());
  for (int k = 0; k < 50; ++k) acc = loom::logaddexp(acc, Array(std::log(0.02))).eval();
  for (double v : acc.to_host<double>()) CHECK(v == Approx(0.0).margin(1e-12));
}
