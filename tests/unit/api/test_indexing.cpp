// Indexing reads and writes against NumPy's own answers (indexing_cases.txt, NumPy 2.5 on the GPU
// machine), evaluated on the host (the reference evaluator; the GPU tests run the same table),
// and the semantics NumPy does not decide: arrays are values (a write rebinds the handle it was
// made through; other handles and earlier views keep the old value).

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>

#include <loom/loom.hpp>

#include "support/indexing_cases.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::WhatContains;
using Catch::Matchers::Contains;

namespace {

const std::string kCases = std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/indexing_cases.txt";

}  // namespace

TEST_CASE("indexing reads and writes give NumPy's values", "[indexing]") {
  int reads = 0, writes = 0, errors = 0, ats = 0, bincounts = 0;
  for (const auto& c : loom::test::indexing_cases(kCases)) {
    INFO(c.line);
    const Array x = loom::test::arange_of(c.shape);
    if (c.kind == "read") {
      const Array r = x.index(c.index);
      CHECK(r.shape() == c.out_shape);
      CHECK(r.to_host<std::int64_t>() == c.want);
      ++reads;
    } else if (c.kind == "write") {
      const Array r = loom::test::apply_write(c, x);
      CHECK(r.shape() == c.shape);
      CHECK(r.to_host<std::int64_t>() == c.want);
      ++writes;
    } else if (c.kind == "at") {
      const Array r = loom::test::apply_at(c, x);
      CHECK(r.shape() == c.shape);
      CHECK(r.to_host<std::int64_t>() == c.want);
      ++ats;
    } else if (c.kind == "bincount") {
      const Array r = loom::test::apply_bincount(c);
      CHECK(loom::name(r.dtype()) == c.dtype);
      CHECK(r.astype(DType::Int64).to_host<std::int64_t>() == c.want);
      ++bincounts;
    } else if (c.kind == "aterror" || c.kind == "bincounterror") {
      const std::string got = loom::test::error_of([&] {
        if (c.kind == "aterror") (void)loom::test::apply_at(c, x).to_host<std::int64_t>();
        else (void)loom::test::apply_bincount(c);
      });
      CHECK(got == c.error_type + "|" + c.error_message);
      ++errors;
    } else {
      REQUIRE(c.error_type == "IndexError");
      CHECK_THROWS_MATCHES(x.index(c.index).to_host<std::int64_t>(), loom::IndexError, WhatContains(c.error_message));
      ++errors;
    }
  }
  CHECK(reads > 100);
  CHECK(writes > 500);
  CHECK(ats > 500);
  CHECK(bincounts == 7);
  CHECK(errors == 10);
}

TEST_CASE("x[index] = v writes through the handle, other handles keep the old value", "[indexing]") {
  Array x = loom::arange(12).astype(DType::Float32).reshape({3, 4});
  const Array before = x;              // another handle
  const Array row = x[1];              // a view taken before the write (an IndexRef read)
  const Array col = x[{loom::all, 2}];
  x[{1, loom::Slice(1, 3)}] = 100;
  x[{loom::all, 0}] += Array(loom::arange(3).astype(DType::Float32));
  x[{-1}] *= 2;
  CHECK(x.to_host<float>() == std::vector<float>{0, 1, 2, 3, 5, 100, 100, 7, 20, 18, 20, 22});
  CHECK(before.to_host<float>() == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(row.to_host<float>() == std::vector<float>{4, 5, 6, 7});
  CHECK(col.to_host<float>() == std::vector<float>{2, 6, 10});
  // at(): functional, x unchanged.
  const Array y = x.at({0, 0}).set(-1);
  CHECK(y.to_host<float>()[0] == -1);
  CHECK(x.to_host<float>()[0] == 0);
  // A whole-array update, and a mask write with a scalar.
  x += 1;
  x[x > 50] = 0;
  CHECK(x.to_host<float>() == std::vector<float>{1, 2, 3, 4, 6, 0, 0, 8, 21, 19, 21, 23});
  // The written array is an expression over x's values: one kernel for a chain of writes.
  Array z = loom::zeros({8, 8}, DType::Float32);
  z[{0}] = 1;
  z[{-1}] = 2;
  z[{loom::all, 0}] = 3;
  z[{loom::all, -1}] = 4;
  CHECK(loom::explain_string({z}).find("1 kernel(s)") != std::string::npos);
  const auto zh = z.to_host<float>();
  CHECK(zh[0] == 3);   // the last write wins at the corner
  CHECK(zh[7] == 4);
  CHECK(zh[1] == 1);
  CHECK(zh[57] == 2);
  CHECK(zh[9] == 0);
}

TEST_CASE("x[mask] on a named array is read when used: x[mask] = v builds no read", "[indexing]") {
  Array x = loom::arange(12).astype(DType::Float32).reshape({3, 4});
  // Kept references read x's value when the index was taken, whatever is written after.
  auto kept = x[x > 8];                 // an IndexRef: its read is not built yet
  const Array copied = x[x % 2 == 0];   // an array sharing the deferred read
  x[x > 8] = -1;
  x[x % 2 == 0] += 100;
  CHECK(x.to_host<float>() == std::vector<float>{100, 1, 102, 3, 104, 5, 106, 7, 108, -1, -1, -1});
  CHECK(kept.shape() == loom::Shape{3});
  CHECK(kept.to_host<float>() == std::vector<float>{9, 10, 11});
  CHECK(copied.to_host<float>() == std::vector<float>{0, 2, 4, 6, 8, 10});
  CHECK((kept * 2).to_host<float>() == std::vector<float>{18, 20, 22});
  // A mask of leading dims, and one reference assigned from another.
  Array y = loom::arange(6).reshape({3, 2});
  const Array rows = loom::test::bool_array({3}, {1, 0, 1});
  y[rows] = y[rows] * 10;
  CHECK(y.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 10, 2, 3, 40, 50});
  y[rows] = y[loom::logical_not(rows)];
  CHECK(y.to_host<std::int64_t>() == std::vector<std::int64_t>{2, 3, 2, 3, 2, 3});
  // A reference outlives its array's handle and a rebinding of it: it holds x's value itself.
  Array late;
  {
    Array w = loom::arange(24).reshape({2, 3, 4});
    const Array lead = loom::test::bool_array({2, 3}, {1, 0, 0, 0, 1, 1});
    late = w[lead];  // shape (3, 4): the rows (0, 0), (1, 1), (1, 2)
    w = loom::zeros({2, 3, 4}, DType::Int64);
    w[lead] -= 1;
    CHECK(loom::sum(w).item<std::int64_t>() == -12);
  }
  CHECK(late.shape() == loom::Shape{3, 4});
  CHECK(late.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23});
  // A mask of the wrong shape is refused where the index is taken, with NumPy's words.
  CHECK_THROWS_MATCHES((void)x[loom::zeros({4}, DType::Bool)], loom::IndexError,
                       WhatContains("boolean index did not match indexed array along axis 0; size of axis is 3 but "
                                    "size of corresponding boolean axis is 4"));
  CHECK_THROWS_MATCHES(x[loom::zeros({3, 5}, DType::Bool)] = 1, loom::IndexError,
                       WhatContains("along axis 1; size of axis is 4"));
}

TEST_CASE("writes cast the value to the array's dtype, in-place ops follow same_kind", "[indexing]") {
  Array xi = loom::arange(5).astype(DType::Int32);
  xi[{1}] = 2.7;  // a C++ float into an int array: truncated, as Python's int() (NumPy's setitem)
  // x[2] += 1.5 is NumPy's in-place add: its float64 result does not cast back 'same_kind'.
  CHECK_THROWS_MATCHES(xi[{2}] += 1.5, loom::DTypeError,
                       WhatContains("Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with "
                                    "casting rule 'same_kind'"));
  xi[{2}] += 1;
  CHECK(xi.dtype() == DType::Int32);
  CHECK(xi.to_host<std::int32_t>() == std::vector<std::int32_t>{0, 2, 3, 3, 4});
  CHECK_THROWS_MATCHES(xi += 1.5, loom::DTypeError,
                       WhatContains("Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with "
                                    "casting rule 'same_kind'"));
  xi += 1;  // a weak int stays int32
  CHECK(xi.dtype() == DType::Int32);
  Array xf = loom::zeros({2, 3}, DType::Float32);
  CHECK_THROWS_MATCHES(xf += loom::zeros({3, 3}, DType::Float32), loom::ShapeError, WhatContains("could not be broadcast"));
  CHECK_THROWS_MATCHES(xf += loom::zeros({2, 2, 3}, DType::Float32), loom::ValueError,
                       WhatContains("non-broadcastable output operand with shape (2,3) doesn't match the broadcast shape (2,2,3)"));
  CHECK_THROWS_MATCHES(xf[{0}] = loom::zeros({4}, DType::Float32), loom::ValueError,
                       WhatContains("could not broadcast input array from shape (4,) into shape (3,)"));
  // A packed mask assignment checks its count.
  CHECK_THROWS_MATCHES(xf.at({xf == 0}).set(loom::zeros({5}, DType::Float32)), loom::ValueError,
                       WhatContains("NumPy boolean array indexing assignment cannot assign 5 input values to the 6 "
                                    "output values where the mask is true"));
  CHECK_THROWS_MATCHES(xf.at({loom::any(xf == 0, 1)}).set(loom::zeros({2, 2}, DType::Float32)), loom::ValueError,
                       WhatContains("could not broadcast input array from shape (2,2) into shape (2,3)"));
  // Integer arrays: NumPy's x[idx] = v and x[idx] += v (the last duplicate wins); the
  // accumulating x.at(idx).add(v) (np.add.at) counts every duplicate.
  Array s = loom::zeros({5}, DType::Float32);
  const Array dup = loom::test::int_array({4}, {1, 3, 1, -1});
  s[dup] = loom::test::int_array({4}, {10, 20, 30, 40}).astype(DType::Float32);
  CHECK(s.to_host<float>() == std::vector<float>{0, 30, 0, 20, 40});
  s[dup] += 1;
  CHECK(s.to_host<float>() == std::vector<float>{0, 31, 0, 21, 41});
  CHECK(s.at({dup}).add(1).to_host<float>() == std::vector<float>{0, 33, 0, 22, 42});
  CHECK_THROWS_MATCHES(s.at({dup}).power(2), loom::IndexError,
                       WhatContains("x.at(integer arrays).power: applying every duplicate in turn is not a reduction"));
  // Indices are checked by the kernel that reads them, and a write's also when nothing reads it:
  // on the host when the write is built, on a GPU at the next synchronization at the latest.
  Array bad = s;
  CHECK_THROWS_MATCHES(([&] {
                         bad[loom::test::int_array({2}, {0, 9})] = 1;
                         (void)bad.to_host<float>();
                       }()),
                       loom::IndexError, WhatContains("index 9 is out of bounds for axis 0 with size 5"));
  CHECK_THROWS_MATCHES(s.at({loom::test::int_array({1}, {-6})}).set(1).to_host<float>(), loom::IndexError,
                       WhatContains("index -6 is out of bounds for axis 0 with size 5"));
  CHECK_THROWS_MATCHES(s[dup] = loom::zeros({3}, DType::Float32), loom::ValueError,
                       WhatContains("shape mismatch: value array of shape (3,) could not be broadcast to indexing "
                                    "result of shape (4,)"));
  Array p = loom::arange(6).astype(DType::Int64);
  loom::put(p, loom::test::int_array({3}, {0, -1, 7}), loom::test::int_array({2}, {9, 8}), loom::TakeMode::Wrap);
  CHECK(p.to_host<std::int64_t>() == std::vector<std::int64_t>{9, 9, 2, 3, 4, 8});
  Array q = loom::test::arange_of({2, 3});
  loom::put_along_axis(q, loom::test::int_array({2, 1}, {2, 0}), Array(std::int64_t{-7}), 1);
  CHECK(q.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 1, -7, -7, 4, 5});
}

TEST_CASE("take and take_along_axis", "[indexing]") {
  const Array a = loom::arange(12).astype(DType::Int64).reshape({3, 4});
  const Array idx = loom::test::int_array({3}, {5, -1, 0});
  CHECK(loom::take(a, idx).to_host<std::int64_t>() == std::vector<std::int64_t>{5, 11, 0});
  CHECK(loom::take(a, loom::test::int_array({2}, {3, -4}), 1).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{3, 0, 7, 4, 11, 8});
  const Array far = loom::test::int_array({3}, {13, -14, 2});
  CHECK(loom::take(a, far, std::nullopt, loom::TakeMode::Wrap).to_host<std::int64_t>() == std::vector<std::int64_t>{1, 10, 2});
  CHECK(loom::take(a, far, std::nullopt, loom::TakeMode::Clip).to_host<std::int64_t>() == std::vector<std::int64_t>{11, 0, 2});
  CHECK_THROWS_MATCHES(loom::take(a, far).to_host<std::int64_t>(), loom::IndexError,
                       WhatContains("index 13 is out of bounds for axis 0 with size 12"));
  CHECK_THROWS_MATCHES(loom::take(loom::zeros({0}, DType::Float32), idx, std::nullopt, loom::TakeMode::Clip),
                       loom::IndexError, WhatContains("cannot do a non-empty take from an empty axes."));
  // take_along_axis: the argsort-style use, and broadcasting along the other axes.
  const Array order = loom::test::int_array({3, 2}, {3, 0, 1, 1, -1, 2});
  CHECK(loom::take_along_axis(a, order, 1).to_host<std::int64_t>() == std::vector<std::int64_t>{3, 0, 5, 5, 11, 10});
  CHECK(loom::take_along_axis(a, loom::test::int_array({1, 4}, {2, 0, 1, 2}), 0).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{8, 1, 6, 11});
  CHECK_THROWS_MATCHES(loom::take_along_axis(a, idx, 0), loom::ValueError,
                       WhatContains("`indices` and `arr` must have the same number of dimensions"));
  // Sources that are generators: a constant stays one value (broadcast), an arange is read at
  // the index.
  CHECK(loom::zeros({5}, DType::Float32)[idx % 5].shape() == loom::Shape{3});
  CHECK(loom::full({5}, 2.5f)[idx % 5].to_host<float>() == std::vector<float>{2.5f, 2.5f, 2.5f});
  CHECK(loom::arange(20)[idx].to_host<std::int64_t>() == std::vector<std::int64_t>{5, 19, 0});
  // The gather's source and index: the index expression fuses into the gather's kernel.
  const Array b = loom::arange(1000).astype(DType::Float32);
  const Array g = b[(loom::arange(10) * 7) % 1000];
  CHECK(g.to_host<float>() == std::vector<float>{0, 7, 14, 21, 28, 35, 42, 49, 56, 63});
  CHECK_THROWS_MATCHES(b[loom::arange(3).astype(DType::Float32)], loom::IndexError,
                       WhatContains("arrays used as indices must be of integer (or boolean) type"));
}

TEST_CASE("putmask, place, copyto, select, choose, compress, extract, argwhere", "[indexing]") {
  // Values as NumPy gives them (tools/probe_indexing_functions.py prints the same).
  using V = std::vector<std::int64_t>;
  const Array a = loom::test::arange_of({3, 4});
  Array x = a;
  loom::putmask(x, x % 3 == 0, loom::test::int_array({5}, {-1, -2, -3, -4, -5}));
  CHECK(x.to_host<std::int64_t>() == V{-1, 1, 2, -4, 4, 5, -2, 7, 8, -5, 10, 11});
  CHECK(a.to_host<std::int64_t>()[0] == 0);  // a value: a keeps its own
  x = a;
  loom::place(x, x % 5 == 1, loom::test::int_array({2}, {100, 200}));
  CHECK(x.to_host<std::int64_t>() == V{0, 100, 2, 3, 4, 5, 200, 7, 8, 9, 10, 100});
  Array f = a.astype(DType::Float32);
  loom::copyto(f, loom::test::int_array({4}, {9, 8, 7, 6}).astype(DType::Int32), a > 5);
  CHECK(f.to_host<float>() == std::vector<float>{0, 1, 2, 3, 4, 5, 7, 6, 9, 8, 7, 6});
  CHECK(loom::select({a < 3, a > 8}, {a, -a}, 42).to_host<std::int64_t>() == V{0, 1, 2, 42, 42, 42, 42, 42, 42, -9, -10, -11});
  const Array pick = loom::test::int_array({4}, {0, 1, 2, 0}).broadcast_to({3, 4});
  CHECK(loom::choose(pick, {a, a * 10, Array(std::int64_t{-1})}).to_host<std::int64_t>() ==
        V{0, 10, -1, 3, 4, 50, -1, 7, 8, 90, -1, 11});
  const Array c3 = loom::test::bool_array({3}, {1, 0, 1});
  CHECK(loom::compress(c3, a, 0).to_host<std::int64_t>() == V{0, 1, 2, 3, 8, 9, 10, 11});
  CHECK(loom::compress(loom::test::bool_array({2}, {0, 1}), a).to_host<std::int64_t>() == V{1});
  CHECK(loom::extract(a % 4 == 1, a).to_host<std::int64_t>() == V{1, 5, 9});
  const Array w = loom::argwhere(a % 5 == 0);
  CHECK(w.shape() == loom::Shape{3, 2});
  CHECK(w.to_host<std::int64_t>() == V{0, 0, 1, 1, 2, 2});
  // NumPy's errors.
  Array i32 = loom::zeros({3}, DType::Int32);
  CHECK_THROWS_MATCHES(loom::copyto(i32, loom::ones({3}, DType::Float64)), loom::DTypeError,
                       WhatContains("Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'"));
  CHECK_THROWS_MATCHES(loom::choose(loom::test::int_array({2}, {0, 3}), {loom::arange(2), loom::arange(2)}),
                       loom::ValueError, WhatContains("invalid entry in choice array"));
  Array z = loom::zeros({3}, DType::Float64);
  CHECK_THROWS_MATCHES(loom::place(z, z == 0, loom::zeros({0}, DType::Float64)), loom::ValueError,
                       WhatContains("Cannot insert from an empty array!"));
  CHECK_THROWS_MATCHES(loom::putmask(z, loom::zeros({4}, DType::Bool), z), loom::ValueError,
                       WhatContains("putmask: mask and data must be the same size"));
}

TEST_CASE("ufunc.at and bincount: dtypes, NumPy's errors, deterministic or atomic", "[indexing]") {
  using loom::test::int_array;
  const Array idx = int_array({5}, {0, 2, 0, -1, 0});
  // float64: sums, products, NaN-propagating minima; divide is x / (v1 * v2 ...).
  Array f = loom::arange(4).astype(DType::Float64);
  loom::add_at(f, idx, 0.5);
  CHECK(f.to_host<double>() == std::vector<double>{1.5, 1, 2.5, 3.5});
  loom::divide_at(f, idx, 2.0);
  CHECK(f.to_host<double>() == std::vector<double>{1.5 / 8, 1, 1.25, 1.75});
  Array g = loom::arange(4).astype(DType::Float32);
  loom::minimum_at(g, int_array({2}, {3, 3}), loom::asarray(std::vector<float>{NAN, -1.0f}));
  CHECK(std::isnan(g.to_host<float>()[3]));
  loom::maximum_at(g, {1}, 7.0f);  // a tuple index without arrays: an ordinary write
  CHECK(g.to_host<float>()[1] == 7.0f);
  // bool: add is or, multiply is and; subtract is NumPy's TypeError.
  Array b = loom::zeros({3}, DType::Bool);
  loom::add_at(b, int_array({2}, {1, 1}), Array(true));
  CHECK(b.to_host<bool>() == std::vector<bool>{false, true, false});
  CHECK_THROWS_MATCHES(loom::subtract_at(b, idx, Array(true)), loom::DTypeError,
                       WhatContains("numpy boolean subtract, the `-` operator, is not supported"));
  // Integers wrap around as NumPy's (int64 values into uint8 too). NumPy truncates float values
  // into an int array after each one: applied one at a time (ufunc.at as a fold, tested below).
  Array i8 = loom::full({2}, 100, DType::Int8);
  loom::add_at(i8, int_array({3}, {1, 1, 1}), Array(std::int8_t{100}));
  CHECK(i8.to_host<std::int8_t>() == std::vector<std::int8_t>{100, static_cast<std::int8_t>(400 % 256 - 256)});
  loom::add_at(i8, int_array({2}, {0, 1}), 1.5);
  CHECK(i8.to_host<std::int8_t>() == std::vector<std::int8_t>{101, -110});
  Array u8 = loom::full({2}, 1, DType::UInt8);
  loom::add_at(u8, int_array({2}, {0, 0}), int_array({1}, {300}));  // NumPy: 601 % 256
  CHECK(u8.to_host<std::uint8_t>() == std::vector<std::uint8_t>{89, 1});
  loom::subtract_at(u8, int_array({3}, {1, 1, 1}), Array(std::uint8_t{1}));
  CHECK(u8.to_host<std::uint8_t>() == std::vector<std::uint8_t>{89, 254});
  Array f_bad = f;
  // (on the host the check runs at once; on a GPU at the next synchronization at the latest)
  CHECK_THROWS_MATCHES(([&] {
                         loom::add_at(f_bad, int_array({1}, {4}), 1.0);
                         (void)f_bad.to_host<double>();
                       }()),
                       loom::IndexError, WhatContains("index 4 is out of bounds for axis 0 with size 4"));
  // x.at(idx).add leaves x as it was; both ways give NumPy's values on the host.
  const Array x = loom::zeros({3}, DType::Float32);
  const Array y = x.at({int_array({3}, {2, 2, 0})}).add(1.0f, loom::Accumulate::Atomic);
  CHECK(y.to_host<float>() == std::vector<float>{1, 0, 2});
  CHECK(x.to_host<float>() == std::vector<float>{0, 0, 0});
  // explain names the way: sorted for floats, atomics for integers (exact) or when asked.
  Array e = loom::zeros({10}, DType::Float32);
  loom::add_at(e, idx, 1.0f);
  CHECK_THAT(loom::explain_string({e}), Contains("cub::DeviceRadixSort::SortPairs on 4 position bits + a warp per "
                                                 "position (sum) at 10 positions, float32 (deterministic)"));
  Array few = loom::zeros({2}, DType::Float64);
  loom::add_at(few, loom::zeros({5000}, DType::Int64), 1.0);  // long runs: a block each
  CHECK_THAT(loom::explain_string({few}), Contains("SortPairs on 1 position bits + "
                                                   "cub::DeviceSegmentedReduce::Reduce (sum) at 2 positions"));
  CHECK(few.to_host<double>() == std::vector<double>{5000, 0});
  CHECK_THAT(loom::explain_string({loom::bincount(idx + 1)}),
             Contains("atomic sum at 4 positions, int64 (exact in any order)"));
  // bincount: NumPy's dtypes and errors.
  CHECK(loom::bincount(int_array({3}, {1, 1, 3}).astype(DType::UInt8)).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{0, 2, 0, 1});
  CHECK(loom::bincount(int_array({2}, {1, 0}) != 0, loom::asarray(std::vector<float>{0.5f, 2})).to_host<double>() ==
        std::vector<double>{2, 0.5});
  CHECK_THROWS_MATCHES(loom::bincount(loom::asarray(std::vector<double>{1, 2})), loom::DTypeError,
                       WhatContains("Cannot cast array data from dtype('float64') to dtype('int64') according to the "
                                    "rule 'safe'"));
  CHECK_THROWS_MATCHES(loom::bincount(int_array({2, 2}, {1, 2, 3, 4})), loom::ValueError,
                       WhatContains("object too deep for desired array"));
  CHECK_THROWS_MATCHES(loom::bincount(int_array({2}, {1, 2}), loom::asarray(std::vector<std::complex<double>>{1, 2})),
                       loom::DTypeError, WhatContains("from dtype('complex128') to dtype('float64')"));
}

TEST_CASE("ufunc.at of float values into integer arrays casts back after each value, as NumPy 2.5", "[indexing]") {
  using loom::test::int_array;
  const auto i32 = [](std::vector<std::int32_t> v) { return loom::asarray(v); };
  const auto sevens = [&] { return i32({7, 7, 7, 7}); };
  // NumPy 2.5's answers: one value at a time in index order, each result truncated back.
  Array a = i32({0, 0, 0, 0});
  loom::add_at(a, int_array({3}, {0, 0, 1}), 1.5);
  CHECK(a.to_host<std::int32_t>() == std::vector<std::int32_t>{2, 1, 0, 0});
  Array d = sevens();
  loom::divide_at(d, int_array({3}, {0, 0, 1}), 2);
  CHECK(d.to_host<std::int32_t>() == std::vector<std::int32_t>{1, 3, 7, 7});
  d = sevens();
  loom::divide_at(d, int_array({1}, {0}), 2.5);
  CHECK(d.to_host<std::int32_t>() == std::vector<std::int32_t>{2, 7, 7, 7});
  Array m = sevens();
  loom::multiply_at(m, int_array({2}, {0, 1}), 1.5);
  CHECK(m.to_host<std::int32_t>() == std::vector<std::int32_t>{10, 10, 7, 7});
  Array s = sevens();
  loom::subtract_at(s, int_array({2}, {0, 1}), 0.5);
  CHECK(s.to_host<std::int32_t>() == std::vector<std::int32_t>{6, 6, 7, 7});
  Array mx = sevens();
  loom::maximum_at(mx, int_array({2}, {0, 1}), 7.5);
  CHECK(mx.to_host<std::int32_t>() == std::vector<std::int32_t>{7, 7, 7, 7});
  Array nan32 = i32({0, 0, 0, 0});
  loom::add_at(nan32, int_array({1}, {0}), std::nan(""));
  CHECK(nan32.to_host<std::int32_t>() == std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 0, 0, 0});
  Array b = loom::zeros({4}, DType::Bool);
  loom::add_at(b, int_array({1}, {0}), 1.5);
  CHECK(b.to_host<bool>() == std::vector<bool>{true, false, false, false});
  Array i8 = loom::zeros({4}, DType::Int8);
  loom::add_at(i8, int_array({1}, {0}), 300);  // a C++ integer read in the loop's int8, unsafely
  CHECK(i8.to_host<std::int8_t>() == std::vector<std::int8_t>{44, 0, 0, 0});
  Array i8b = loom::zeros({4}, DType::Int8);
  loom::add_at(i8b, int_array({2}, {0, 0}), 100);
  CHECK(i8b.to_host<std::int8_t>() == std::vector<std::int8_t>{-56, 0, 0, 0});
  Array f32 = loom::zeros({4}, DType::Float32);
  loom::add_at(f32, int_array({1}, {0}), Array(std::complex<double>(0, 1)));
  CHECK(f32.to_host<float>() == std::vector<float>{0, 0, 0, 0});
  // NaN into the other integer types, as NumPy's x86-64 casts give it (cvttsd2si's most negative
  // value, of which narrower types keep the low bits; uint64 through gcc's two ranges).
  const auto nan_into = [](DType t) {
    Array x = loom::zeros({2}, t);
    loom::add_at(x, int_array({1}, {1}), std::nan(""));
    return x.astype(DType::UInt64).to_host<std::uint64_t>()[1];
  };
  CHECK(nan_into(DType::Int64) == std::uint64_t{1} << 63);
  CHECK(nan_into(DType::UInt64) == std::uint64_t{1} << 63);
  CHECK(nan_into(DType::Int8) == 0);
  CHECK(nan_into(DType::UInt32) == 0);
  Array u8 = loom::zeros({2}, DType::UInt8);
  loom::add_at(u8, int_array({2}, {0, 1}), -1.0);  // -1 into uint8: its low byte
  CHECK(u8.to_host<std::uint8_t>() == std::vector<std::uint8_t>{255, 255});
  // A float16 loop rounds each result to float16 first: 255 + 0.99 is 256 in float16, and 256
  // into uint8 keeps its low byte, 0 (NumPy's uint8 + float16 loop; the same casts as above).
  Array u8h = loom::asarray(std::vector<std::uint8_t>{255});
  loom::add_at(u8h, int_array({1}, {0}), loom::asarray(std::vector<float>{0.99f}).astype(DType::Float16));
  CHECK(u8h.to_host<std::uint8_t>() == std::vector<std::uint8_t>{0});
  // Complex values: the real part of each result (add, subtract, multiply); divide, minimum and
  // maximum of complex values are refused.
  Array c = i32({0, 3});
  loom::add_at(c, int_array({2}, {0, 0}), Array(std::complex<double>(1.5, 2)));
  loom::multiply_at(c, int_array({1}, {1}), Array(std::complex<double>(0.5, 1)));
  CHECK(c.to_host<std::int32_t>() == std::vector<std::int32_t>{2, 1});
  CHECK_THROWS_MATCHES(loom::divide_at(c, int_array({1}, {0}), Array(std::complex<double>(1, 1))), loom::DTypeError,
                       WhatContains("divide.at: complex128 values into a int32 array are not supported"));
  // Into bool: the loop's integers, each result != 0 (uint8: 1 + 255 wraps to 0 first).
  Array flags = loom::asarray(std::vector<bool>{true, false});
  loom::add_at(flags, int_array({1}, {0}), loom::asarray(std::vector<std::uint8_t>{255}));
  CHECK(flags.to_host<bool>() == std::vector<bool>{false, false});
  // A basic index: each position once, cast back as NumPy does (NaN into int32 included).
  Array sl = i32({0, 0, 0, 0});
  loom::add_at(sl, {loom::Slice(1, 3)}, std::nan(""));
  CHECK(sl.to_host<std::int32_t>() ==
        std::vector<std::int32_t>{0, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::min(), 0});
  // 2-d, rows of duplicates, and an index out of bounds (checked as the positions are read).
  Array g = loom::zeros({3, 2}, DType::Int64);
  loom::add_at(g, int_array({3}, {2, 0, 2}), loom::asarray(std::vector<double>{0.6, 0.6}));
  CHECK(g.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 0, 0, 0, 0, 0});
  loom::subtract_at(g, int_array({3}, {2, 0, 2}), loom::asarray(std::vector<double>{1.5, -2.5}));
  CHECK(g.to_host<std::int64_t>() == std::vector<std::int64_t>{-1, 2, 0, 0, -2, 4});
  Array bad = i32({0, 0});
  loom::add_at(bad, int_array({1}, {5}), 1.5);
  CHECK_THROWS_MATCHES(bad.to_host<std::int32_t>(), loom::IndexError,
                       WhatContains("index 5 is out of bounds for axis 0 with size 2"));
  // explain names the fold; x.at(idx).add keeps NumPy's in-place rule and refuses.
  Array e = i32({0, 0});
  loom::add_at(e, int_array({2}, {1, 1}), 0.5);
  CHECK_THAT(loom::explain_string({e}), Catch::Matchers::Contains("a thread per position applying add in index order in "
                                                                  "float64, cast back into int32 after each value"));
  CHECK_THROWS_MATCHES(i32({0, 0}).at({int_array({2}, {0, 0})}).add(1.5), loom::DTypeError,
                       WhatContains("Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with "
                                    "casting rule 'same_kind'"));
  CHECK_THROWS_MATCHES(i32({0, 0}).at({loom::Slice(0, 1)}).add(1.5), loom::DTypeError,
                       WhatContains("Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with "
                                    "casting rule 'same_kind'"));
}

TEST_CASE("bincount takes every integer dtype as NumPy 2.5 does, uint64 too", "[indexing]") {
  using loom::test::int_array;
  const Array u64 = int_array({3}, {0, 2, 2}).astype(DType::UInt64);
  CHECK(loom::bincount(u64).dtype() == DType::Int64);
  CHECK(loom::bincount(u64).to_host<std::int64_t>() == std::vector<std::int64_t>{1, 0, 2});
  CHECK(loom::bincount(u64, loom::asarray(std::vector<double>{1, 2, 3})).to_host<double>() ==
        std::vector<double>{1, 0, 5});
  // NumPy casts to intp unsafely: 2^63 and more wrap to negative values.
  for (const std::uint64_t big : {std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
    const Array x = loom::asarray(std::vector<std::uint64_t>{1, big});
    CHECK_THROWS_MATCHES(loom::bincount(x), loom::ValueError, WhatContains("'list' argument must have no negative elements"));
  }
  CHECK(loom::bincount(int_array({2}, {0, 2}).astype(DType::UInt32)).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{1, 0, 1});
  CHECK(loom::bincount(int_array({2}, {0, 2}).astype(DType::Int8)).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{1, 0, 1});
  CHECK(loom::bincount(int_array({2}, {0, 2}).astype(DType::UInt8), std::nullopt, 5).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{1, 0, 1, 0, 0});
  CHECK_THROWS_MATCHES(loom::bincount(loom::asarray(std::vector<float>{1, 2})), loom::DTypeError,
                       WhatContains("Cannot cast array data from dtype('float32') to dtype('int64') according to the "
                                    "rule 'safe'"));
}

TEST_CASE("bincount of INT64_MAX is a ValueError, never a write outside its output", "[indexing]") {
  // NumPy's max + 1 wraps here and it writes out of bounds (its answers, [] and [0, 0, 0], come with
  // a corrupted heap): loom refuses the 2^63 bins as too big, with and without minlength or weights.
  const Array x = loom::asarray(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()});
  const char* why = "bincount: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
                    "size. (the largest value, 9223372036854775807, asks for 2**63 bins)";
  CHECK_THROWS_MATCHES(loom::bincount(x), loom::ValueError, WhatContains(why));
  CHECK_THROWS_MATCHES(loom::bincount(x, std::nullopt, 3), loom::ValueError, WhatContains(why));
  CHECK_THROWS_MATCHES(loom::bincount(x, loom::ones({1})), loom::ValueError, WhatContains(why));
  const Array u = loom::asarray(std::vector<std::uint64_t>{(std::uint64_t{1} << 63) - 1, 0});
  CHECK_THROWS_MATCHES(loom::bincount(u, std::nullopt, 3), loom::ValueError, WhatContains(why));
  // Lengths that fit int64 but not in bytes: NumPy's "array is too big", before any counting.
  CHECK_THROWS_MATCHES(loom::bincount(loom::asarray(std::vector<std::int64_t>{std::int64_t{1} << 61})), loom::ValueError,
                       WhatContains("bincount: array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                                    "maximum possible size. (shape (2305843009213693953,), dtype int64)"));
}

TEST_CASE("put and place take a C++ number as the value", "[indexing]") {
  Array y = loom::arange(5).astype(DType::Float32);
  loom::put(y, loom::test::int_array({2}, {1, -1}), Array(7.0f));
  CHECK(y.to_host<float>() == std::vector<float>{0, 7, 2, 3, 7});
  loom::place(y, y > 5, Array(1.5f));
  CHECK(y.to_host<float>() == std::vector<float>{0, 1.5f, 2, 3, 1.5f});
}

TEST_CASE("explain says why a write is not in place", "[indexing]") {
  Array x = loom::zeros({4, 5}, DType::Float32);
  x[{1, loom::Slice(1, 3)}] = 2;
  const std::string e = loom::explain_string({x});
  if (loom::gpu_available()) {
    CHECK_THAT(e, Contains("(a write: a new array, not in place (x is not evaluated: the write fuses into the "
                           "expression that computes it))"));
  } else {
    CHECK_THAT(e, Contains("(a write: a new array, not in place (no GPU))"));
  }
  Array y = x;
  y[{loom::test::int_array({2}, {0, 0})}] = 1;
  CHECK_THAT(loom::explain_string({y}), Contains("not in place (the index has integer arrays or a mask)"));
}
