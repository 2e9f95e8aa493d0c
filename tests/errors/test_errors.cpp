// User errors are thrown when the node is built, at the user's line, with NumPy's wording and the
// right exception type (DESIGN.md decision 2).

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::test::WhatContains;

TEST_CASE("shape errors name the shapes as NumPy does", "[errors]") {
  const Array a = loom::zeros({3, 4});
  const Array b = loom::zeros({5});
  REQUIRE_THROWS_MATCHES(a + b, loom::ShapeError,
                         WhatContains("operands could not be broadcast together with shapes (3,4) (5,)"));
  REQUIRE_THROWS_MATCHES(loom::where(loom::zeros({2}, loom::DType::Bool), a, 1), loom::ShapeError,
                         WhatContains("(2,) (3,4)"));
  REQUIRE_THROWS_MATCHES(a.broadcast_to({4, 4}), loom::ShapeError,
                         WhatContains("(3,4) and requested shape (4,4)"));
  REQUIRE_THROWS_MATCHES(a.reshape({5, 3}), loom::ValueError,
                         WhatContains("cannot reshape array of size 12 into shape (5,3)"));
  REQUIRE_THROWS_MATCHES(a.reshape({-1, -1}), loom::ValueError,
                         WhatContains("can only specify one unknown dimension"));
  REQUIRE_THROWS_MATCHES(a.reshape({-1, 5}), loom::ValueError,
                         WhatContains("cannot reshape array of size 12 into shape (-1,5)"));
}

TEST_CASE("index and axis errors", "[errors]") {
  const Array a = loom::zeros({3, 4});
  REQUIRE_THROWS_MATCHES(a[3], loom::IndexError,
                         WhatContains("index 3 is out of bounds for axis 0 with size 3"));
  REQUIRE_THROWS_MATCHES(a[-4], loom::IndexError,
                         WhatContains("index -4 is out of bounds for axis 0 with size 3"));
  REQUIRE_THROWS_MATCHES((a[{0, 1, 2}]), loom::IndexError,
                         WhatContains("too many indices for array: array is 2-dimensional, but 3 were indexed"));
  REQUIRE_THROWS_MATCHES(a.transpose({0, 2}), loom::IndexError,
                         WhatContains("axis 2 is out of bounds for array of dimension 2"));
  REQUIRE_THROWS_MATCHES(a.transpose({0, 0}), loom::ValueError, WhatContains("repeated axis in transpose"));
  REQUIRE_THROWS_MATCHES(a.transpose({0}), loom::ValueError, WhatContains("axes don't match array"));
  REQUIRE_THROWS_MATCHES(a.squeeze(0), loom::ValueError,
                         WhatContains("cannot select an axis to squeeze out which has size not equal to one"));
  REQUIRE_THROWS_MATCHES(a.slice(1, 0, 4, 0), loom::ValueError, WhatContains("slice step cannot be zero"));
  REQUIRE_THROWS_MATCHES(a.expand_dims(4), loom::IndexError,
                         WhatContains("axis 4 is out of bounds for array of dimension 3"));
}

TEST_CASE("dtype errors name the ufunc and the input types", "[errors]") {
  const Array f = loom::zeros({2}, loom::DType::Float32);
  const Array i = loom::zeros({2}, loom::DType::Int32);
  const Array b = loom::zeros({2}, loom::DType::Bool);
  const Array c = loom::zeros({2}, loom::DType::Complex64);
  REQUIRE_THROWS_MATCHES(f & i, loom::DTypeError,
                         WhatContains("ufunc 'bitwise_and' not supported for the input types (float32, int32)"));
  REQUIRE_THROWS_MATCHES(loom::cbrt(c), loom::DTypeError,
                         WhatContains("ufunc 'cbrt' not supported for the input types (complex64)"));
  REQUIRE_THROWS_MATCHES(loom::floor_divide(c, c), loom::DTypeError, WhatContains("'floor_divide'"));
  REQUIRE_THROWS_MATCHES(b - b, loom::DTypeError, WhatContains("numpy boolean subtract"));
  REQUIRE_THROWS_MATCHES(-b, loom::DTypeError, WhatContains("The numpy boolean negative"));
  REQUIRE_THROWS_MATCHES(f << 1, loom::DTypeError, WhatContains("'left_shift'"));
  REQUIRE_THROWS_MATCHES(loom::zeros({2}, loom::DType::Int8) + 300, loom::ValueError,
                         WhatContains("Python integer 300 out of bounds for int8"));
  REQUIRE_THROWS_MATCHES(loom::zeros({2}, loom::DType::UInt8) + (-1), loom::ValueError,
                         WhatContains("Python integer -1 out of bounds for uint8"));
  REQUIRE_THROWS_MATCHES(f.to_host<double>(), loom::DTypeError,
                         WhatContains("to_host<float64>: the array has dtype float32"));
}

TEST_CASE("value errors of creation and reading", "[errors]") {
  REQUIRE_THROWS_MATCHES(loom::arange(0, 10, 0), loom::ValueError, WhatContains("step must not be zero"));
  REQUIRE_THROWS_MATCHES(loom::linspace(0, 1, -1), loom::ValueError,
                         WhatContains("Number of samples, -1, must be non-negative."));
  REQUIRE_THROWS_MATCHES(loom::zeros({-1}), loom::ValueError, WhatContains("negative dimensions"));
  REQUIRE_THROWS_MATCHES(loom::zeros({3}).item<double>(), loom::ValueError,
                         WhatContains("can only convert an array of size 1"));
  std::vector<float> v(5);
  REQUIRE_THROWS_MATCHES(loom::asarray(v, {2, 3}), loom::ShapeError,
                         WhatContains("5 values of float32 do not fill shape (2,3)"));
  REQUIRE_THROWS_MATCHES(Array().shape(), loom::ValueError, WhatContains("empty Array handle"));
  REQUIRE_THROWS_MATCHES(Array() + 1, loom::ValueError, WhatContains("empty Array handle"));
  REQUIRE_THROWS_MATCHES(loom::zeros(loom::Shape::filled(16, 1)).expand_dims(0), loom::ValueError,
                         WhatContains("maximum supported dimension for an ndarray is 16, found 17"));
}
