// Issue 28, item 3: a C++ number written into an integer array is checked as NumPy 2 checks a
// Python scalar (OverflowError -> ValueError, NaN -> ValueError), on every write path; x[i] op= v
// follows NumPy's same_kind rule for the op. Arrays (strong values) still cast unsafely, as
// NumPy's setitem of an array does. Expected words: NumPy 2.5 (tools/probe_hardening_numpy.py).

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <vector>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::all;
using loom::Array;
using loom::DType;
using loom::Slice;
using loom::test::WhatContains;

namespace {

Array i8() { return loom::zeros({4}, DType::Int8); }
Array ints(DType t) { return loom::zeros({4}, t); }
Array index01() { return loom::asarray(std::vector<std::int64_t>{0, 1}); }

}  // namespace

TEST_CASE("a C++ integer out of an integer array's range is refused by every write", "[writes][errors]") {
  const auto oob = WhatContains("Python integer 300 out of bounds for int8");
  Array x = i8();
  REQUIRE_THROWS_MATCHES((x[{0}] = 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] = 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[{loom::Index(index01())}] = 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[{loom::Index(index01())}] += 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[x == 0] = 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[{0}] += 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(x.at({0}).set(300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(x.at({loom::Index(index01())}).add(300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(loom::put(x, index01(), 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(loom::putmask(x, x == 0, 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(loom::place(x, x == 0, 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(loom::copyto(x, 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES(loom::insert(x, std::int64_t{0}, 300), loom::ValueError, oob);
  REQUIRE_THROWS_MATCHES((x[{0}] = -129), loom::ValueError, WhatContains("Python integer -129 out of bounds for int8"));
  Array u = ints(DType::UInt8);
  REQUIRE_THROWS_MATCHES((u[{0}] = -1), loom::ValueError, WhatContains("Python integer -1 out of bounds for uint8"));
  REQUIRE_THROWS_MATCHES((u[{loom::Index(index01())}] = -1), loom::ValueError,
                         WhatContains("Python integer -1 out of bounds for uint8"));
  // Nothing was written by the refused writes.
  CHECK(x.to_host<std::int8_t>() == std::vector<std::int8_t>{0, 0, 0, 0});
  CHECK(u.to_host<std::uint8_t>() == std::vector<std::uint8_t>{0, 0, 0, 0});
}

TEST_CASE("a C++ float written into an integer array is truncated and must fit, NaN and inf are refused",
          "[writes][errors]") {
  Array x = i8();
  REQUIRE_THROWS_MATCHES((x[{0}] = 300.0), loom::ValueError, WhatContains("Python integer 300 out of bounds for int8"));
  REQUIRE_THROWS_MATCHES((x[{0}] = 1e10), loom::ValueError,
                         WhatContains("Python integer 10000000000 out of bounds for int8"));
  Array u = ints(DType::UInt8);
  REQUIRE_THROWS_MATCHES((u[{0}] = -1.0), loom::ValueError, WhatContains("Python integer -1 out of bounds for uint8"));
  Array y = ints(DType::Int64);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto no_nan = WhatContains("cannot convert float NaN to integer");
  REQUIRE_THROWS_MATCHES((y[{0}] = nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES((y[{loom::Index(index01())}] = nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES((y[y == 0] = nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES(loom::put(y, index01(), nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES(loom::insert(y, std::int64_t{0}, nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES(y.at({1}).set(nan), loom::ValueError, no_nan);
  REQUIRE_THROWS_MATCHES((y[{0}] = inf), loom::ValueError, WhatContains("cannot convert float infinity to integer"));
  REQUIRE_THROWS_MATCHES((y[{0}] = 1e30), loom::ValueError, WhatContains("Python int too large to convert to C long"));
  CHECK(y.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 0, 0, 0});
  // In range: truncated toward zero, as Python's int().
  x[{0}] = 100.9;
  x[{1}] = -7.5;
  u[{0}] = -0.5;  // int(-0.5) == 0
  CHECK(x.to_host<std::int8_t>() == std::vector<std::int8_t>{100, -7, 0, 0});
  CHECK(u.to_host<std::uint8_t>() == std::vector<std::uint8_t>{0, 0, 0, 0});
  // Floats into floats round (to inf, as NumPy); bool takes anything.
  Array h = ints(DType::Float16);
  h[{0}] = 1e10;
  CHECK(std::isinf(h.astype(DType::Float32).to_host<float>()[0]));
  Array b = ints(DType::Bool);
  b[{0}] = 300;
  CHECK(b.to_host<bool>()[0]);
}

TEST_CASE("arrays written into integer arrays cast unsafely, as NumPy's setitem of an array", "[writes]") {
  Array x = i8();
  x[{Slice(0, 2)}] = loom::asarray(std::vector<std::int64_t>{300, 1});
  CHECK(x.to_host<std::int8_t>() == std::vector<std::int8_t>{44, 1, 0, 0});
  // The sum of an in-range op= wraps, as NumPy's in-place add does.
  Array y = i8();
  y[{Slice(1, 3)}] += 100;
  y[{Slice(1, 3)}] += 100;
  CHECK(y.to_host<std::int8_t>() == std::vector<std::int8_t>{0, -56, -56, 0});
}

TEST_CASE("x[i] op= v follows NumPy's same_kind rule for the op's result", "[writes][errors]") {
  Array x = ints(DType::Int32);
  const auto refused = [](const char* ufunc, const char* from) {
    return WhatContains(std::string("Cannot cast ufunc '") + ufunc + "' output from dtype('" + from +
                        "') to dtype('int32') with casting rule 'same_kind'");
  };
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] += 1.5), loom::DTypeError, refused("add", "float64"));
  REQUIRE_THROWS_MATCHES((x[{loom::Index(index01())}] += 1.5), loom::DTypeError, refused("add", "float64"));
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] *= 1.5), loom::DTypeError, refused("multiply", "float64"));
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] /= 2), loom::DTypeError, refused("divide", "float64"));
  REQUIRE_THROWS_MATCHES((x[x == 0] += 0.5), loom::DTypeError, refused("add", "float64"));
  REQUIRE_THROWS_MATCHES((x[{Slice(1, 3)}] += loom::asarray(std::vector<double>{1.5, 2.0})), loom::DTypeError,
                         refused("add", "float64"));
  CHECK(x.to_host<std::int32_t>() == std::vector<std::int32_t>{0, 0, 0, 0});
  // Allowed: the same kind (int64 values into int32 wrap-cast, as NumPy).
  x[{Slice(1, 3)}] -= 1;
  x[{Slice(1, 3)}] += loom::asarray(std::vector<std::int64_t>{1, 2});
  CHECK(x.to_host<std::int32_t>() == std::vector<std::int32_t>{0, 0, 1, 0});
  Array b = ints(DType::Bool);
  REQUIRE_THROWS_MATCHES((b[{Slice(1, 3)}] += 1), loom::DTypeError,
                         WhatContains("Cannot cast ufunc 'add' output from dtype('int64') to dtype('bool')"));
}

TEST_CASE("a complex C++ number written into a real array is refused", "[writes][errors]") {
  Array x = ints(DType::Float32);
  REQUIRE_THROWS_AS((x[{0}] = std::complex<double>(1, 1)), loom::DTypeError);
  Array y = ints(DType::Int32);
  REQUIRE_THROWS_AS((y[{0}] = std::complex<double>(1, 0)), loom::DTypeError);
}

TEST_CASE("an index out of bounds in a write nothing evaluates is still reported", "[writes][errors]") {
  // Issue 28, item 5: `z[idx] = 1; z = zeros({2});` never computes the write. On the host the
  // check runs when the write is built; on a GPU at the next synchronization.
  const Array bad = loom::asarray(std::vector<std::int64_t>{1, 5});
  const auto oob = WhatContains("index 5 is out of bounds for axis 0 with size 2");
  const auto dropped = [&](const std::function<void(Array&)>& write) {
    Array z = loom::zeros({2});
    write(z);
    z = loom::zeros({2});  // the write's value is dropped unevaluated
    loom::synchronize();
    (void)loom::ones({1}).to_host<double>();
  };
  REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { z[{loom::Index(bad)}] = 1.0; }), loom::IndexError, oob);
  REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { z[{loom::Index(bad)}] += 1.0; }), loom::IndexError, oob);
  REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { loom::put(z, bad, 1.0); }), loom::IndexError,
                         WhatContains("out of bounds"));
  REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { loom::add_at(z, loom::Index(bad), 1.0); }), loom::IndexError, oob);
  REQUIRE_THROWS_MATCHES(dropped([&](Array& z) { z = z.at({loom::Index(bad)}).add(1.0); }), loom::IndexError, oob);
  // In bounds: nothing is raised, later reads are clean.
  Array z = loom::zeros({2});
  z[{loom::Index(loom::asarray(std::vector<std::int64_t>{1, -2}))}] = 3.0;
  z = loom::zeros({2});
  loom::synchronize();
  CHECK(loom::ones({1}).to_host<double>() == std::vector<double>{1.0});
}
