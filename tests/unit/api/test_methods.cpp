// ndarray's methods on Array (x.sum(), x.std({...}), x.reshape(2, 3), ...) and the reductions'
// keyword arguments by name (loom::sum(x, {.axis = 1, .keepdims = true})): the same values as
// the functions, NumPy's (checked by hand: x = arange(12).reshape(3, 4)).

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

using loom::Array;
using loom::DType;
using I64 = std::vector<std::int64_t>;
using F64 = std::vector<double>;

TEST_CASE("ndarray's methods give the functions' values", "[methods]") {
  const Array x = loom::arange(12).reshape(3, 4);  // no braces
  CHECK(x.shape() == loom::Shape{3, 4});
  CHECK(loom::arange(6).reshape(6).shape() == loom::Shape{6});
  CHECK(x.sum().item<std::int64_t>() == 66);
  CHECK(x.sum(0).to_host<std::int64_t>() == I64{12, 15, 18, 21});
  CHECK(x.sum({0, 1}).item<std::int64_t>() == 66);
  CHECK(x.sum(1, true).shape() == loom::Shape{3, 1});
  CHECK(x.prod(1).to_host<std::int64_t>() == I64{0, 840, 7920});
  CHECK(x.mean(0).to_host<double>() == F64{4, 5, 6, 7});
  CHECK(x.var(1).to_host<double>() == F64{1.25, 1.25, 1.25});
  CHECK(x.std(1, false, 1).to_host<double>()[0] == Approx(std::sqrt(5.0 / 3.0)));
  CHECK(x.min(1).to_host<std::int64_t>() == I64{0, 4, 8});
  CHECK(x.max(0).to_host<std::int64_t>() == I64{8, 9, 10, 11});
  CHECK(x.ptp(1).to_host<std::int64_t>() == I64{3, 3, 3});
  CHECK(x.argmax().item<std::int64_t>() == 11);
  CHECK(x.argmin(1).to_host<std::int64_t>() == I64{0, 0, 0});
  CHECK((x > 5).any(1).to_host<bool>() == std::vector<bool>{false, true, true});
  CHECK((x > 5).all(1).to_host<bool>() == std::vector<bool>{false, false, true});
  CHECK(x.cumsum(1).to_host<std::int64_t>()[3] == 6);
  CHECK(x.cumprod().to_host<std::int64_t>()[3] == 0);
  CHECK(x.clip(Array(2), Array(9)).to_host<std::int64_t>()[0] == 2);
  CHECK((x.astype(DType::Float64) / 4).round(1).to_host<double>()[1] == 0.2);  // half to even
  CHECK(loom::sort(x.flip(1), 1).to_host<std::int64_t>() == x.to_host<std::int64_t>());  // x.sort() sorts in place
  CHECK(x.flip(1).argsort(1).to_host<std::int64_t>()[0] == 3);
  CHECK((x % 5 == 0).nonzero()[1].to_host<std::int64_t>() == I64{0, 1, 2});
  CHECK(x.repeat(2, 0).shape() == loom::Shape{6, 4});
  CHECK(x.take(loom::asarray(I64{1, 3}), 1).to_host<std::int64_t>() == I64{1, 3, 5, 7, 9, 11});
  CHECK(x.diagonal(1).to_host<std::int64_t>() == I64{1, 6, 11});
  CHECK(x.trace().item<std::int64_t>() == 15);
  // loom::all is still the full slice inside an index.
  CHECK(x[{loom::all, 1}].to_host<std::int64_t>() == I64{1, 5, 9});
}

TEST_CASE("fromfunction calls f with the coordinate arrays", "[methods]") {
  // np.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int)
  const Array r = loom::fromfunction([](const std::vector<Array>& c) { return c[0] * 10 + c[1]; }, {2, 3},
                                     DType::Int64);
  CHECK(r.dtype() == DType::Int64);
  CHECK(r.to_host<std::int64_t>() == I64{0, 1, 2, 10, 11, 12});
  // The default dtype is float64, as NumPy's.
  const Array f = loom::fromfunction([](const std::vector<Array>& c) { return c[0] == c[1]; }, {2, 2});
  CHECK(f.to_host<bool>() == std::vector<bool>{true, false, false, true});
  CHECK(loom::fromfunction([](const std::vector<Array>& c) { return c[0] / 2; }, {3}).to_host<double>() ==
        F64{0, 0.5, 1});
}

TEST_CASE("the reductions take NumPy's keyword arguments by name", "[methods]") {
  const Array x = loom::arange(12).reshape({3, 4}).astype(DType::Float64);
  CHECK(loom::sum(x, {.axis = 1, .keepdims = true}).shape() == loom::Shape{3, 1});
  CHECK(loom::sum(x, {.axis = 0, .dtype = DType::Float32}).dtype() == DType::Float32);
  CHECK(loom::var(x, {.axis = 1, .ddof = 1}).to_host<double>() == F64{5.0 / 3, 5.0 / 3, 5.0 / 3});
  CHECK(loom::std(x, {.keepdims = true}).shape() == loom::Shape{1, 1});
  CHECK(x.std({.axis = 0, .ddof = 1}).to_host<double>()[0] == Approx(4.0));
  CHECK(x.mean({.axis = {0, 1}, .keepdims = true}).item<double>() == 5.5);
  CHECK(loom::max(x, {.axis = -1, .keepdims = false}).to_host<double>() == F64{3, 7, 11});
  CHECK(loom::any(x > 10, {.axis = 1, .keepdims = false}).to_host<bool>() == std::vector<bool>{false, false, true});
  CHECK(loom::logsumexp(x, {.axis = 1, .keepdims = true}).shape() == loom::Shape{3, 1});
  // Positional forms keep working: a braced list of numbers is the axes.
  CHECK(loom::sum(x, {0, 1}).item<double>() == 66);
  CHECK(loom::sum(x, 1, true).shape() == loom::Shape{3, 1});
  // NumPy's errors come through.
  CHECK_THROWS_AS(loom::sum(x, {.axis = 2, .keepdims = false}), loom::IndexError);
}
