// NumPy's spelling means NumPy's thing (issue 28, items 8 and 9): split with a list cuts at the
// points, x.sort() and x.fill(v) work in place, a named x[i] is an array of its own
// (`y = y * 2` rebinds y and leaves x alone), options named by one field pick the options form
// (GCC 12 included), x.at(idx), loom::nan / inf / pi / e, loom::array({...}), arange with a
// dtype. Values are NumPy 2.5's (/work/.device/1/numpy_probe.txt). What must not compile is
// checked by concepts here and by tests/compile_fail (ctest).

#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>
#include <utility>

#include <loom/loom.hpp>

using loom::Array;
using loom::DType;
using loom::Slice;
using Catch::Matchers::Message;
using I64 = std::vector<std::int64_t>;
using F64 = std::vector<double>;

namespace {

I64 ints(const Array& a) { return a.astype(DType::Int64).to_host<std::int64_t>(); }
F64 doubles(const Array& a) { return a.astype(DType::Float64).to_host<double>(); }

template <class A> concept SortsInPlace = requires(A a) { a.sort(); };
template <class A> concept SortsTemporary = requires { std::declval<A>().sort(); };
template <class A> concept Fills = requires(A a) { a.fill(1); };

}  // namespace

TEST_CASE("a braced list splits at its points, as NumPy's list does", "[manipulation][spelling]") {
  const Array a = loom::arange(6);
  const auto parts = loom::split(a, {2});  // np.split(np.arange(6), [2])
  REQUIRE(parts.size() == 2);
  CHECK(ints(parts[0]) == I64{0, 1});
  CHECK(ints(parts[1]) == I64{2, 3, 4, 5});
  CHECK(loom::split(a, {}).size() == 1);  // no cut
  CHECK(loom::split(a, {1, 4}).size() == 3);
  CHECK(loom::split(a, 2).size() == 2);  // an integer: equal sections
  CHECK(ints(loom::split(a, 2)[0]) == I64{0, 1, 2});
  CHECK(ints(loom::array_split(a, {4})[1]) == I64{4, 5});
  const Array m = loom::arange(24).reshape(2, 3, 4);
  CHECK(loom::hsplit(m, {1})[1].shape() == loom::Shape{2, 2, 4});
  CHECK(loom::vsplit(m, {1})[0].shape() == loom::Shape{1, 3, 4});
  CHECK(loom::dsplit(m, {3})[0].shape() == loom::Shape{2, 3, 3});
  CHECK(loom::hsplit(a, {5})[1].shape() == loom::Shape{1});
}

TEST_CASE("x.sort() sorts x in place, loom::sort(x) returns a sorted array", "[methods][spelling]") {
  static_assert(std::is_void_v<decltype(std::declval<Array&>().sort())>, "NumPy's x.sort() returns None");
  static_assert(SortsInPlace<Array&>);
  static_assert(!SortsInPlace<const Array&>, "a const array cannot be sorted in place");
  static_assert(!SortsTemporary<Array>, "sorting a temporary in place would be lost");
  Array x = loom::array({3, 1, 2});
  const Array before = x;
  x.sort();
  CHECK(ints(x) == I64{1, 2, 3});
  CHECK(ints(before) == I64{3, 1, 2});  // arrays are values: the other handle keeps x's old value
  CHECK(ints(loom::sort(before)) == I64{1, 2, 3});
  Array m = loom::array({{3, 1, 2}, {9, 7, 8}});
  m.sort(0);
  CHECK(ints(m) == I64{3, 1, 2, 9, 7, 8});
  m[1].sort();  // NumPy's m[1].sort(): the row of m, in m
  CHECK(ints(m) == I64{3, 1, 2, 7, 8, 9});
}

TEST_CASE("x.fill(v) sets every element in place, cast as setitem casts", "[methods][spelling]") {
  static_assert(Fills<Array&> && !Fills<const Array&>);
  Array x = loom::zeros({2, 3}, DType::Int32);
  x.fill(2.7);
  CHECK(x.dtype() == DType::Int32);
  CHECK(ints(x) == I64{2, 2, 2, 2, 2, 2});
  x[0].fill(-1);
  CHECK(ints(x) == I64{-1, -1, -1, 2, 2, 2});
  x.fill(Array(loom::ones({1})));  // one element is one value
  CHECK(ints(x) == I64{1, 1, 1, 1, 1, 1});
  CHECK_THROWS_MATCHES(x.fill(loom::ones({3})), loom::ValueError, Message("setting an array element with a sequence."));
}

TEST_CASE("a named x[i] is an array of its own: y = y * 2 rebinds y, x[i] = v writes x", "[indexing][spelling]") {
  Array x = loom::arange(6.0);
  auto y = x[Slice(1, 3)];  // an IndexRef: NumPy's y = x[1:3]
  y = y * 2;                // NumPy rebinds the name y; x keeps its values
  CHECK(doubles(y) == F64{2, 4});
  CHECK(doubles(x) == F64{0, 1, 2, 3, 4, 5});
  y = 7;
  CHECK(doubles(y) == F64{7});
  CHECK(doubles(x) == F64{0, 1, 2, 3, 4, 5});
  auto z = x[{Slice(0, 2)}];
  y = z;  // one named reference assigned another: a value, no write
  CHECK(doubles(y) == F64{0, 1});
  y[0] = 10;  // writes into y, a value of its own
  CHECK(doubles(y) == F64{10, 1});
  CHECK(doubles(x) == F64{0, 1, 2, 3, 4, 5});
  x[Slice(1, 3)] = 9;  // the expression itself still writes into x
  x[{Slice(3, 5)}] += 1;
  CHECK(doubles(x) == F64{0, 9, 9, 4, 5, 5});
  auto w = x[x > 8.0];  // a mask reference, named and rebound
  w = w + 1;
  CHECK(doubles(w) == F64{10, 10});
  CHECK(doubles(x) == F64{0, 9, 9, 4, 5, 5});
}

TEST_CASE("options named by one field pick the options form (GCC 12 included)", "[reductions][spelling]") {
  const Array x = loom::arange(12.0).reshape(3, 4);
  CHECK(loom::sum(x, {.axis = 0}).shape() == loom::Shape{4});
  CHECK(doubles(loom::sum(x, {.axis = 1})) == F64{6, 22, 38});
  CHECK(loom::sum(x, {.keepdims = true}).shape() == loom::Shape{1, 1});
  CHECK(doubles(loom::max(x, {.axis = -1})) == F64{3, 7, 11});
  CHECK(loom::mean(x, {.axis = {0, 1}}).item<double>() == 5.5);
  // np.std(x, ddof=1) and np.var(x, axis=0, ddof=1)
  CHECK(x.std({.ddof = 1}).item<double>() == Approx(3.605551275463989));
  CHECK(loom::std(x, {.ddof = 1}).item<double>() == Approx(3.605551275463989));
  CHECK(doubles(loom::var(x, {.axis = 0, .ddof = 1})) == F64{16, 16, 16, 16});
  CHECK(x.var({.ddof = 1}).item<double>() == Approx(13.0));
  CHECK(x.sum({.axis = 0}).shape() == loom::Shape{4});
  CHECK(x.min({.axis = 1}).shape() == loom::Shape{3});
  CHECK(x.mean({.dtype = DType::Float32}).dtype() == DType::Float32);
  CHECK(loom::count_nonzero(x, {.axis = 0}).shape() == loom::Shape{4});
  CHECK(loom::logsumexp(x, {.axis = 1}).shape() == loom::Shape{3});
  // The positional forms keep their meaning: an integer, a list, every axis.
  CHECK(loom::sum(x, 1).shape() == loom::Shape{3});
  CHECK(loom::sum(x, {0, 1}).shape() == loom::Shape{});
  CHECK_THROWS_MATCHES(loom::sum(Array(1.0), {0}), loom::IndexError,
                       Message("axis 0 is out of bounds for array of dimension 0"));
  CHECK(loom::sum(Array(1.0), 0).item<double>() == 1.0);
  CHECK(x.sum().item<double>() == 66.0);
}

TEST_CASE("x.at(idx) takes one index without braces", "[indexing][spelling]") {
  const Array x = loom::zeros({5});
  const Array idx = loom::array({1, 3, 1});
  CHECK(doubles(x.at(idx).add(1)) == F64{0, 2, 0, 1, 0});  // every duplicate counts, as np.add.at
  CHECK(doubles(x.at(4).set(7)) == F64{0, 0, 0, 0, 7});
  CHECK(doubles(x.at(Slice(0, 2)).set(1)) == F64{1, 1, 0, 0, 0});
  CHECK(doubles(x.at({idx}).add(1)) == F64{0, 2, 0, 1, 0});
  CHECK(doubles(x) == F64{0, 0, 0, 0, 0});
}

TEST_CASE("NumPy's constants", "[creation][spelling]") {
  STATIC_REQUIRE(std::is_same_v<decltype(loom::nan), const double>);
  CHECK(std::isnan(loom::nan));
  CHECK(loom::inf == HUGE_VAL);
  CHECK(loom::pi == 3.141592653589793);  // np.pi, np.e
  CHECK(loom::e == 2.718281828459045);
  const Array f = loom::ones({2}, DType::Float32);
  CHECK((f * loom::pi).dtype() == DType::Float32);  // weak, as NumPy's Python floats
  CHECK(std::isnan((f * loom::nan).to_host<float>()[0]));
}

TEST_CASE("loom::array of a literal list is np.array's", "[creation][spelling]") {
  const Array a = loom::array({0, 3, 5});
  CHECK(a.dtype() == DType::Int64);
  CHECK(a.shape() == loom::Shape{3});
  CHECK(ints(a) == I64{0, 3, 5});
  CHECK(loom::array({1, 2.5}).dtype() == DType::Float64);
  CHECK(loom::array({1.5f, 2.0f}).dtype() == DType::Float64);  // as Python floats
  CHECK(loom::array({true, false}).dtype() == DType::Bool);
  CHECK(loom::array({true, 2}).dtype() == DType::Int64);
  CHECK(loom::array({std::complex<double>(1, 2)}).dtype() == DType::Complex128);
  const Array m = loom::array({{1, 2, 3}, {4, 5, 6}});
  CHECK(m.shape() == loom::Shape{2, 3});
  CHECK(ints(m) == I64{1, 2, 3, 4, 5, 6});
  CHECK(loom::array({{1.0}, {2.0}}).shape() == loom::Shape{2, 1});
  const Array f = loom::array({1, 2}, DType::Float32);
  CHECK(f.dtype() == DType::Float32);
  CHECK(doubles(f) == F64{1, 2});
  CHECK(ints(loom::array({1.5, -2.7}, DType::Int32)) == I64{1, -2});
  CHECK(ints(loom::array({255, 0}, DType::UInt8)) == I64{255, 0});
  CHECK_THROWS_MATCHES(loom::array({300, 1}, DType::Int8), loom::ValueError,
                       Message("Python integer 300 out of bounds for int8"));
  CHECK_THROWS_MATCHES(loom::array({{1, 2}, {3}}), loom::ValueError,
                       Message("setting an array element with a sequence. The requested array has an inhomogeneous "
                               "shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part."));
}

TEST_CASE("arange takes a dtype, as NumPy's arange(..., dtype=)", "[creation][spelling]") {
  const Array a = loom::arange(5, DType::Float32);  // np.arange(5, dtype=np.float32)
  CHECK(a.dtype() == DType::Float32);
  CHECK(doubles(a) == F64{0, 1, 2, 3, 4});
  const Array b = loom::arange(0, 5, 2, DType::Int8);
  CHECK(b.dtype() == DType::Int8);
  CHECK(ints(b) == I64{0, 2, 4});
  CHECK(ints(loom::arange(1.5, DType::Int32)) == I64{0, 1});
  CHECK(loom::arange(1.5, DType::Int32).dtype() == DType::Int32);
  CHECK(ints(loom::arange(2, 5, DType::Int16)) == I64{2, 3, 4});
  // NumPy stores start and start + step, then adds their difference: arange(0.5, 4, 1.5) as
  // integers is [0, 2, 4], not [0, 1, 2].
  CHECK(ints(loom::arange(0.5, 4, 1.5, DType::Int64)) == I64{0, 2, 4});
  // Integers wrap past the dtype's end, as NumPy's fill does.
  const I64 wrapped = ints(loom::arange(300, DType::Int8));
  REQUIRE(wrapped.size() == 300);
  CHECK(wrapped[127] == 127);
  CHECK(wrapped[128] == -128);
  CHECK(wrapped[299] == 43);
  CHECK_THROWS_MATCHES(loom::arange(-1, 5, DType::UInt8), loom::ValueError,
                       Message("Python integer -1 out of bounds for uint8"));
  CHECK(ints(loom::arange(2, DType::Bool)) == I64{0, 1});
  CHECK_THROWS_MATCHES(loom::arange(5, DType::Bool), loom::DTypeError,
                       Message("arange() is only supported for booleans when the result has at most length 2."));
  const Array c = loom::arange(3, DType::Complex64);
  CHECK(c.dtype() == DType::Complex64);
  CHECK(doubles(loom::real(c)) == F64{0, 1, 2});
  CHECK(loom::arange(10).dtype() == DType::Int64);  // without a dtype, as before
  CHECK(loom::arange(2.0).dtype() == DType::Float64);
}
