// Indexing on the GPU: NumPy's answers (indexing_cases.txt, read from the repository root), and
// gathers and writes of every dtype and layout against the host reference evaluator on random
// inputs, outputs poisoned; a chain of writes is one kernel.

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/indexing_cases.hpp"
#include "support/manipulation_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("indexing reads and writes give NumPy's values on the GPU", "[gpu][indexing]") {
  loom::exec::set_poison_outputs(true);
  int n = 0;
  for (const auto& c : loom::test::indexing_cases("tests/unit/api/indexing_cases.txt")) {
    if (c.kind.ends_with("error")) continue;
    INFO(c.line);
    if (c.kind == "bincount") {
      for (auto how : {loom::Accumulate::Deterministic, loom::Accumulate::Atomic}) {
        CHECK(loom::test::apply_bincount(c, how).astype(DType::Int64).to_host<std::int64_t>() == c.want);
      }
      ++n;
      continue;
    }
    const Array x = loom::test::arange_of(c.shape).eval();
    const Array r = c.kind == "read" ? x.index(c.index)
                    : c.kind == "at" ? loom::test::apply_at(c, x)
                                     : loom::test::apply_write(c, x);
    CHECK(r.to_host<std::int64_t>() == c.want);
    if (c.kind == "at") {  // as float64, sorted and with atomics (the int64 values are exact)
      const loom::test::IndexingCase cf = [&] {
        auto d = c;
        d.value = d.value.astype(DType::Float64);
        return d;
      }();
      for (auto how : {loom::Accumulate::Deterministic, loom::Accumulate::Atomic}) {
        CHECK(loom::test::apply_at(cf, x.astype(DType::Float64), how).astype(DType::Int64).to_host<std::int64_t>() ==
              c.want);
      }
    }
    ++n;
  }
  CHECK(n > 1600);
}

TEST_CASE("the indexing functions give NumPy's values and errors on the GPU", "[gpu][indexing]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] = loom::test::check_numpy_table("tests/unit/api/indexing_function_cases.txt");
  CHECK(values > 50);
  CHECK(errors > 20);
}

TEST_CASE("gathers of every dtype and layout match the reference", "[gpu][indexing]") {
  std::mt19937_64 rng(141);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::test::random_array(t, {300, 70}, rng).eval();
    const Array i = loom::test::random_array(DType::Int64, {5000}, rng, loom::test::Range::Any);
    const Array rows = (loom::abs(i) % 300).eval();       // in range
    const Array cols = (i % 70).eval();                   // negative ones too
    CHECK(loom::test::check_gpu(x[rows]) == "");
    CHECK(loom::test::check_gpu(x[{rows, cols}]) == "");
    CHECK(loom::test::check_gpu(x[{loom::Slice(1, 200, 3), cols.reshape({50, 100})}]) == "");
    CHECK(loom::test::check_gpu(x.T()[{cols, loom::Slice(loom::none, loom::none, -7)}]) == "");  // strided source
    CHECK(loom::test::check_gpu(loom::take(x, i, std::nullopt, loom::TakeMode::Wrap)) == "");
    CHECK(loom::test::check_gpu(loom::take(x, i, 1, loom::TakeMode::Clip)) == "");
    const Array along = (loom::abs(loom::test::random_array(DType::Int64, {300, 9}, rng)) % 70).eval();
    CHECK(loom::test::check_gpu(loom::take_along_axis(x, along, 1)) == "");
    if (!loom::is_bool(t)) {
      CHECK(loom::test::check_gpu(loom::sum(x[rows.reshape({50, 100})], 1)) == "");  // in a reduction
    }
  }
}

TEST_CASE("writes of every dtype match the reference, a chain of them in one kernel", "[gpu][indexing]") {
  std::mt19937_64 rng(142);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    Array x = loom::test::random_array(t, {64, 130}, rng).eval();
    const Array v = loom::test::random_array(t, {62, 128}, rng).eval();
    const Array row = loom::test::random_array(t, {130}, rng).eval();
    x[{loom::Slice(1, -1), loom::Slice(1, -1)}] = v;
    x[{0}] = row;
    x[{loom::all, loom::Slice(0, 130, 7)}] = x[{loom::all, loom::Slice(0, 130, 7)}];  // a no-op write
    x[{-1, loom::Slice(loom::none, loom::none, -1)}] = row;
    if (!loom::is_bool(t)) x[{loom::Slice(10, 20), 5}] += row[loom::Slice(0, 10)];
    x = x.at({x == x[{3, 3}]}).set(v[{0, 0}]);  // a mask write, lazy (x[mask] = v reads x[mask] first)
    loom::reset_cache_stats();
    CHECK(loom::test::check_gpu(x) == "");
    CHECK(loom::cache_stats().launches <= 2);  // the mask's compare reads x[3,3]; the writes are one kernel
  }
}

namespace {

// np.<op>.at on random data, every duplicate counted: the GPU against the reference (which goes
// through the positions in order, as NumPy); sums in another order differ in the last bits.
std::string check_at(const char* op, Array x, const std::vector<loom::Index>& idx, const Array& v,
                     loom::Accumulate how) {
  const std::string o = op;
  const std::span<const loom::Index> s(idx);
  if (o == "add") loom::add_at(x, s, v, how);
  else if (o == "subtract") loom::subtract_at(x, s, v, how);
  else if (o == "multiply") loom::multiply_at(x, s, v, how);
  else if (o == "divide") loom::divide_at(x, s, v, how);
  else if (o == "minimum") loom::minimum_at(x, s, v, how);
  else loom::maximum_at(x, s, v, how);
  const double tol = 20 * loom::test::tolerance(x.dtype());
  return loom::test::check_gpu(x, tol, tol);
}

}  // namespace

TEST_CASE("ufunc.at of every dtype and op matches the reference, sorted and with atomics", "[gpu][indexing]") {
  std::mt19937_64 rng(143);
  for (DType t : loom::test::all_dtypes()) {
    const Array x = loom::test::random_array(t, {2000}, rng).eval();
    const Array x2 = loom::test::random_array(t, {300, 7}, rng).eval();
    const Array i = loom::test::random_array(DType::Int64, {30000}, rng, loom::test::Range::Any);
    const Array pos = (i % 2000).eval();                  // negative ones too, ~15 per position
    const Array rows = (loom::abs(i[loom::Slice(0, 3000)]) % 300).eval();
    const Array v = loom::test::random_array(t, {30000}, rng).eval();
    const Array vu = loom::test::random_array(t, {30000}, rng, loom::test::Range::Unit).eval();
    const Array v2 = loom::test::random_array(t, {3000, 7}, rng).eval();
    const Array vp = loom::test::random_array(t, {30000}, rng, loom::test::Range::Positive).eval();
    const Array few = (loom::abs(pos) % 8).eval();  // ~3750 values per position: a block per run
    for (const char* op : {"add", "subtract", "multiply", "divide", "minimum", "maximum"}) {
      const std::string o = op;
      if (loom::is_bool(t) && (o == "subtract" || o == "divide")) continue;  // NumPy's TypeErrors
      for (auto how : {loom::Accumulate::Deterministic, loom::Accumulate::Atomic}) {
        INFO(loom::name(t) << " " << op << (how == loom::Accumulate::Atomic ? " atomic" : ""));
        const Array& val = o == "multiply" || o == "divide" ? vu : v;
        CHECK(check_at(op, x, {pos}, val, how) == "");
        CHECK(check_at(op, x2, {rows, loom::all}, v2, how) == "");               // rows of values
        CHECK(check_at(op, x2, {rows, 3}, val[loom::Slice(0, 3000)], how) == "");
        CHECK(check_at(op, x[loom::Slice(0, 8)], {few}, o == "multiply" || o == "divide" ? vu : vp, how) == "");
      }
    }
  }
}

TEST_CASE("ufunc.at and bincount are deterministic by default, at 1024 and 2^20 positions", "[gpu][indexing]") {
  std::mt19937_64 rng(144);
  const std::int64_t m = std::int64_t{1} << 22;
  const Array i = loom::test::random_array(DType::Int64, {m}, rng, loom::test::Range::Any).eval();
  const Array w = loom::test::random_array(DType::Float32, {m}, rng).eval();
  for (std::int64_t bins : {std::int64_t{1024}, std::int64_t{1} << 20}) {
    INFO(bins);
    const Array pos = (loom::abs(i) % bins).eval();
    const Array x0 = loom::zeros({bins}, DType::Float32).eval();
    std::vector<std::byte> first, first_bins;
    for (int run = 0; run < 10; ++run) {
      Array x = x0;
      loom::add_at(x, pos, w);
      const Array b = loom::bincount(pos, w.astype(DType::Float64));
      const std::vector<float> xs = x.to_host<float>();
      const std::vector<double> bs = b.to_host<double>();
      const std::vector<std::byte> xb(reinterpret_cast<const std::byte*>(xs.data()),
                                      reinterpret_cast<const std::byte*>(xs.data() + xs.size()));
      const std::vector<std::byte> bb(reinterpret_cast<const std::byte*>(bs.data()),
                                      reinterpret_cast<const std::byte*>(bs.data() + bs.size()));
      if (run == 0) {
        first = xb;
        first_bins = bb;
        Array xr = x0;
        loom::add_at(xr, pos, w);
        CHECK(loom::test::check_gpu(xr, 1e-3, 5e-3) == "");  // and right (the reference sums 4096 values in order)
      } else {
        CHECK(xb == first);
        CHECK(bb == first_bins);
      }
    }
    // Counts (integers: atomics, exact) and the atomic float path against the reference.
    CHECK(loom::test::check_gpu(loom::bincount(pos)) == "");
    Array xa = x0;
    loom::add_at(xa, pos, w, loom::Accumulate::Atomic);
    CHECK(loom::test::check_gpu(xa, 1e-3, 5e-3) == "");
  }
}

TEST_CASE("x.at(int array).add accumulates duplicates and fuses with what follows", "[gpu][indexing]") {
  std::mt19937_64 rng(145);
  const Array x = loom::test::random_array(DType::Float32, {500, 40}, rng).eval();
  const Array idx = (loom::abs(loom::test::random_array(DType::Int64, {900}, rng)) % 500).eval();
  const Array v = loom::test::random_array(DType::Float32, {900, 40}, rng).eval();
  const Array y = loom::exp(x.at({idx}).add(v) * 0.1f);
  CHECK(loom::test::check_gpu(y, 1e-4, 1e-4) == "");
  CHECK(loom::test::check_gpu(loom::sum(x.at({idx}).max(v), 1), 1e-4, 1e-4) == "");
}

TEST_CASE("an index out of bounds is found by the kernel and raised at the next synchronization", "[gpu][indexing]") {
  using Catch::Matchers::Contains;
  const Array x = loom::arange(10).astype(DType::Float32).eval();
  const Array i = (loom::arange(5).astype(DType::Int64) * 3).eval();  // 0 3 6 9 12
  const auto raises = [](const std::function<void()>& f, const std::string& what) {
    try {
      f();
      loom::synchronize();
    } catch (const loom::IndexError& e) {
      return std::string(e.what()).find(what) != std::string::npos &&
             std::string(e.what()).find("reported at the next synchronization") != std::string::npos;
    }
    return false;
  };
  CHECK(raises([&] { (void)x[i].eval(); }, "index 12 is out of bounds for axis 0 with size 10"));
  CHECK_NOTHROW(loom::synchronize());  // reported once
  CHECK(x[i % 10].to_host<float>() == std::vector<float>{0, 3, 6, 9, 2});
  // Computed indices, in a reduction, in take, take_along_axis, put and add_at.
  // (one index out of bounds in each: which of several a kernel records first is not fixed)
  CHECK(raises([&] { (void)loom::sum(x[loom::floor_divide(i - 22, 2)]).item<float>(); },
               "index -11 is out of bounds for axis 0 with size 10"));
  CHECK(raises([&] { (void)loom::take(x, i).to_host<float>(); }, "index 12 is out of bounds for axis 0 with size 10"));
  const Array x2 = x.reshape({2, 5}).eval();
  const Array j = loom::where(i == 12, 7, i % 5);  // 0 3 1 4 7
  CHECK(raises([&] { (void)loom::take_along_axis(x2, j.reshape({1, 5}), 1).to_host<float>(); },
               "index 7 is out of bounds for axis 1 with size 5"));
  CHECK(raises([&] {
          Array y = x;
          loom::put(y, i, Array(1.0f));
          (void)y.to_host<float>();
        }, "index 12 is out of bounds for axis 0 with size 10"));
  CHECK(raises([&] {
          Array y = x;
          loom::add_at(y, i, Array(1.0f), loom::Accumulate::Atomic);
          (void)y.to_host<float>();
        }, "index 12 is out of bounds for axis 0 with size 10"));
  CHECK(raises([&] { (void)x2[{loom::all, j}].to_host<float>(); }, "index 7 is out of bounds for axis 1 with size 5"));
  // add_at's atomics into a 1-d array read the indices themselves (no kernel checks them first):
  // negative ones count from the end, and one out of bounds is raised the same way (integer sums
  // take the atomics in the default mode too).
  Array z = x;
  loom::add_at(z, i - 10, Array(1.0f), loom::Accumulate::Atomic);  // at -10 -7 -4 -1 2
  CHECK(z.to_host<float>() == std::vector<float>{1, 1, 3, 4, 4, 5, 7, 7, 8, 10});
  CHECK(raises([&] {
          Array zi = loom::arange(10).eval();
          loom::add_at(zi, loom::where(i == 12, -11, i - 10), Array(std::int64_t{5}));
          (void)zi.to_host<std::int64_t>();
        }, "index -11 is out of bounds for axis 0 with size 10"));
  // In bounds, nothing is raised and the record stays clear.
  CHECK(x2[{loom::all, i % 5}].to_host<float>() == std::vector<float>{0, 3, 1, 4, 2, 5, 8, 6, 9, 7});
  CHECK_NOTHROW(loom::synchronize());
}

namespace {

const void* buffer_of(const Array& a) {
  const loom::detail::Storage* s = loom::detail::buffer_storage(*a.node());
  return s ? s->data() : nullptr;
}

}  // namespace

TEST_CASE("a write into a buffer nothing else holds goes in place and moves the region only", "[gpu][indexing]") {
  std::mt19937_64 rng(146);
  for (DType t : {DType::Float32, DType::Int8, DType::Complex128, DType::Bool}) {
    INFO(loom::name(t));
    const Array start = loom::test::random_array(t, {40, 30, 20}, rng).eval();
    const Array region = loom::test::random_array(t, {10, 20}, rng).eval();
    // What the lazy path gives (another handle holds the start: no in-place write).
    Array lazy = start;
    lazy[{3, loom::Slice(5, 15), loom::all}] = region;
    lazy[{loom::Slice(0, 40, 3), 7, loom::Slice(1, 19, 2)}] = region[{loom::Slice(0, 9), 0}];
    lazy[{-1}] = region[0][0];
    const std::vector<std::byte> want = loom::test::device_of(lazy).data;
    // The same writes on a copy that nothing else holds: in place, the buffer kept.
    Array x = start.copy().eval();
    const void* before = buffer_of(x);
    loom::reset_cache_stats();
    x[{3, loom::Slice(5, 15), loom::all}] = region;  // evaluated already: no generated kernel, a row copy
    CHECK(loom::cache_stats().launches == 0);
    x[{loom::Slice(0, 40, 3), 7, loom::Slice(1, 19, 2)}] = region[{loom::Slice(0, 9), 0}];
    x[{-1}] = region[0][0];  // a broadcast value: one kernel makes the region's values
    CHECK(buffer_of(x) == before);
    CHECK(loom::test::device_of(x).data == want);
    CHECK(buffer_of(x) == before);
  }
  // op= reads the region in the kernel that makes its values; a reversed slice stays lazy.
  Array y = loom::arange(24).astype(DType::Float64).reshape({4, 6}).copy().eval();
  const void* yb = buffer_of(y);
  y[{loom::Slice(1, 3), loom::Slice(2, 5)}] += 100;
  CHECK(buffer_of(y) == yb);
  y[{0, loom::Slice(loom::none, loom::none, -1)}] = loom::arange(6).astype(DType::Float64);
  CHECK(buffer_of(y) != yb);  // a new value (lazy), and explain says why
  CHECK_THAT(loom::explain_string({y}), Catch::Matchers::Contains("(a write: a new array, not in place (a reversed slice))"));
  CHECK(y.to_host<double>() == std::vector<double>{5, 4, 3, 2, 1, 0, 6, 7, 108, 109, 110, 11,
                                                   12, 13, 114, 115, 116, 17, 18, 19, 20, 21, 22, 23});
  // Handles and views taken before a write keep the old values: then the write is not in place.
  Array z = loom::zeros({3, 4}, DType::Float32).copy().eval();
  const Array row = z[1];
  const Array other = z;
  z[{1, loom::Slice(0, 2)}] = 5;
  CHECK_THAT(loom::explain_string({z}),
             Catch::Matchers::Contains("not in place (another handle, a view taken before, or a pending expression holds "
                                       "x's buffer)"));
  CHECK(row.to_host<float>() == std::vector<float>{0, 0, 0, 0});
  CHECK(other.to_host<float>() == std::vector<float>(12, 0.0f));
  CHECK(z.to_host<float>() == std::vector<float>{0, 0, 0, 0, 5, 5, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("x[mask] = v on a named array reads no x[mask] first: the writes are one kernel", "[gpu][indexing]") {
  std::mt19937_64 rng(149);
  for (DType t : {DType::Float32, DType::Int16, DType::Float64}) {
    INFO(loom::name(t));
    const Array start = loom::test::random_array(t, {300, 70}, rng).eval();
    const Array once = loom::where(start < 0, 0, start);
    const Array want = loom::where(once > 1, once * 2, once).eval();
    Array y = start;
    loom::reset_cache_stats();
    y[y < 0] = 0;
    y[y > 1] *= 2;
    y.eval();
    CHECK(loom::cache_stats().launches == 1);  // was a count, a synchronization and a compaction per write
    CHECK(loom::test::device_of(y).data == loom::test::device_of(want).data);
    // A reference kept before the write reads the old values when used.
    Array z = start;
    auto kept = z[z < 0];
    z[z < 0] = 1;
    CHECK(loom::test::device_of(kept).data == loom::test::device_of(start[start < 0]).data);
    CHECK(loom::all(z >= 0).item<bool>());
  }
}

TEST_CASE("a heat step of every dtype is one kernel whose guarded reads match the reference", "[gpu][indexing][place]") {
  std::mt19937_64 rng(147);
  const loom::Slice in(1, -1), lo(0, -2), hi(2, loom::none);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    // Rows of 67 (no vector alignment) and of 256; u is shared, so the writes make a new array.
    for (const loom::Shape& s : {loom::Shape{33, 67}, loom::Shape{9, 256}}) {
      const Array u = loom::test::random_array(t, s, rng).eval();
      const Array edge = loom::test::random_array(t, {s[1]}, rng).eval();
      Array v = u;
      if (loom::is_bool(t)) {
        v[{in, in}] = u[{lo, in}] ^ u[{hi, in}] ^ u[{in, lo}] ^ u[{in, hi}];
      } else {
        v[{in, in}] = u[{lo, in}] + u[{hi, in}] + u[{in, lo}] - u[{in, hi}] * u[{in, in}];
        v[{loom::Slice(2, 5), loom::Slice(3, -3)}] -= u[{loom::Slice(0, 3), loom::Slice(6, loom::none)}];
      }
      v[{0}] = edge;
      v[{-1}] = edge[0];
      v[{loom::all, 0}] = u[{loom::all, -1}];
      loom::reset_cache_stats();
      CHECK(loom::test::check_gpu(v, 1e-5, 1e-5) == "");
      CHECK(loom::cache_stats().launches == 1);
      // The written array feeding a reduction (the write is computed first), and a write of a
      // reduction's result.
      if (!loom::is_bool(t)) {
        CHECK(loom::test::check_gpu(loom::sum(v.astype(DType::Float64), 1), 1e-9, 1e-6) == "");
        Array w = u;
        w[{1, loom::Slice(2, 9)}] = loom::max(u, 0)[loom::Slice(0, 7)];
        CHECK(loom::test::check_gpu(w) == "");
      }
    }
  }
}

TEST_CASE("bincount of every integer dtype on the GPU, and INT64_MAX refused", "[gpu][indexing]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(146);
  // NumPy 2.5 casts any integer array to intp: uint64 and the narrow types count as int64 does.
  for (DType t : {DType::UInt64, DType::UInt32, DType::UInt8, DType::Int8, DType::Int16, DType::Bool}) {
    INFO(loom::name(t));
    const Array r = loom::test::random_array(t, {5000}, rng, loom::test::Range::Small);  // [-8, 8] or [0, 8]
    const Array x = (loom::is_signed_int(t) ? loom::abs(r) : r).eval();
    const Array w = loom::test::random_array(DType::Float64, {5000}, rng).eval();
    for (auto how : {loom::Accumulate::Deterministic, loom::Accumulate::Atomic}) {
      CHECK(loom::test::check_gpu(loom::bincount(x, std::nullopt, 3, how)) == "");
      CHECK(loom::test::check_gpu(loom::bincount(x, w, 0, how), 1e-12, 1e-9) == "");  // ~1000 sums of [-10, 10]
    }
  }
  CHECK(loom::bincount(loom::asarray(std::vector<std::uint64_t>{0, 2, 2})).to_host<std::int64_t>() ==
        std::vector<std::int64_t>{1, 0, 2});
  CHECK_THROWS_MATCHES(loom::bincount(loom::asarray(std::vector<std::uint64_t>{std::uint64_t{1} << 63})),
                       loom::ValueError, loom::test::WhatContains("'list' argument must have no negative elements"));
  // max + 1 would wrap: a ValueError, never a write outside the output.
  const Array top = loom::asarray(std::vector<std::int64_t>{0, std::numeric_limits<std::int64_t>::max()});
  for (std::int64_t minlength : {0, 3}) {
    CHECK_THROWS_MATCHES(loom::bincount(top, std::nullopt, minlength), loom::ValueError,
                         loom::test::WhatContains("bincount: array is too big"));
  }
}

TEST_CASE("ufunc.at of float values into integer arrays folds in index order on the GPU", "[gpu][indexing]") {
  // One value at a time per position, cast back after each (NumPy's ufunc.at): the GPU's sorted
  // runs folded by a thread each against the reference's loop in index order, bit for bit.
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(147);
  const Array i = loom::test::random_array(DType::Int64, {20000}, rng, loom::test::Range::Any).eval();
  const Array pos = (i % 1000).eval();            // negative ones too, ~20 per position
  const Array few = (loom::abs(i) % 5).eval();    // ~4000 per position: long runs
  for (DType t : {DType::Int8, DType::UInt8, DType::Int32, DType::Int64, DType::UInt64, DType::Bool}) {
    const Array x = loom::test::random_array(t, {1000}, rng, loom::test::Range::Small).eval();
    for (DType vt : {DType::Float16, DType::Float32, DType::Float64, DType::Complex64}) {
      const Array v = loom::test::random_array(vt, {20000}, rng, loom::test::Range::Small).eval();
      const Array vu = (loom::test::random_array(vt, {20000}, rng, loom::test::Range::Unit) + 1.5).astype(vt).eval();
      for (const char* op : {"add", "subtract", "multiply", "divide", "minimum", "maximum"}) {
        const std::string o = op;
        if (loom::is_complex(vt) && (o == "divide" || o == "minimum" || o == "maximum")) continue;  // refused
        if (loom::is_bool(t) && o == "subtract") continue;  // NumPy's TypeError
        INFO(loom::name(t) << " " << op << " " << loom::name(vt));
        const Array& val = o == "multiply" || o == "divide" ? vu : v;
        CHECK(check_at(op, x, {pos}, val, loom::Accumulate::Deterministic) == "");
        CHECK(check_at(op, x[loom::Slice(0, 5)], {few}, val, loom::Accumulate::Atomic) == "");
      }
    }
  }
  // NumPy's answers, on the GPU.
  Array a = loom::zeros({4}, DType::Int32);
  loom::add_at(a, loom::test::int_array({3}, {0, 0, 1}), 1.5);
  CHECK(a.to_host<std::int32_t>() == std::vector<std::int32_t>{2, 1, 0, 0});
  Array d = loom::full({4}, 7, DType::Int32);
  loom::divide_at(d, loom::test::int_array({3}, {0, 0, 1}), 2);
  CHECK(d.to_host<std::int32_t>() == std::vector<std::int32_t>{1, 3, 7, 7});
  Array n = loom::zeros({4}, DType::Int32);
  loom::add_at(n, loom::test::int_array({1}, {0}), std::nan(""));
  CHECK(n.to_host<std::int32_t>()[0] == std::numeric_limits<std::int32_t>::min());
  Array i8 = loom::zeros({4}, DType::Int8);
  loom::add_at(i8, loom::test::int_array({1}, {0}), 300);
  CHECK(i8.to_host<std::int8_t>()[0] == 44);
}
