// Sorting, scans and selections on the GPU (CUB) against the host implementations (the reference
// evaluator) and against identities: sorts and index sorts must match exactly (every sort is
// stable, so the answer is unique); scans within a tolerance that grows with the row length
// (CUB adds in a tree order, NumPy left to right); unique / nonzero / masks against host loops.
// Every real dtype; sizes 1, 7, 1000, 2^20+3; several axes; NaNs (both signs), -0.0, infinities.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

std::vector<DType> real_dtypes() {
  std::vector<DType> v;
  for (DType t : loom::test::all_dtypes()) {
    if (!loom::is_complex(t)) v.push_back(t);
  }
  return v;
}

// Small values (many ties); floats also get NaN of both signs, -0.0 and infinities.
Array sort_input(DType t, const Shape& shape, std::mt19937_64& rng) {
  std::vector<std::byte> b = loom::test::random_bytes(t, shape.numel(), rng, loom::test::Range::Small);
  if (loom::is_floating(t)) {
    const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                               -0.0, 0.0, std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()};
    std::uniform_int_distribution<int> pick(0, 15);
    loom::visit_dtype(t, [&]<class T>() {
      if constexpr (std::is_same_v<T, loom::half> || std::is_same_v<T, loom::bfloat16_t> ||
                    std::is_floating_point_v<T>) {
        T* p = reinterpret_cast<T*>(b.data());
        for (std::int64_t i = 0; i < shape.numel(); ++i) {
          const int k = pick(rng);
          if (k < 6) p[i] = static_cast<T>(static_cast<float>(specials[k]));
          if (k < 6 && std::is_same_v<T, double>) p[i] = static_cast<T>(specials[k]);
        }
      }
    });
  }
  return loom::asarray_bytes(b.data(), b.size(), t, shape);
}

std::vector<double> as_doubles(const Array& a) { return a.astype(DType::Float64).to_host<double>(); }
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

const std::vector<Shape>& sizes_1d() {
  static const std::vector<Shape> s = {{1}, {7}, {1000}, {(1 << 20) + 3}};
  return s;
}

}  // namespace

TEST_CASE("gpu sort and argsort match the host exactly, every dtype, size and axis", "[gpu][sorting]") {
  std::mt19937_64 rng(7);
  struct Case {
    Shape shape;
    std::vector<std::optional<int>> axes;
  };
  std::vector<Case> cases;
  for (const Shape& s : sizes_1d()) cases.push_back({s, {-1}});
  cases.push_back({{7, 1000}, {0, 1, std::nullopt}});
  cases.push_back({{1000, 7}, {0, -1}});
  cases.push_back({{3, 70001}, {1}});   // few long rows: one CUB sort per row
  cases.push_back({{65, 70001}, {1}});  // many long rows: segmented
  cases.push_back({{4, 5, 6}, {0, 1, 2}});
  for (DType t : real_dtypes()) {
    for (const Case& c : cases) {
      const Array x = sort_input(t, c.shape, rng);
      for (const auto& ax : c.axes) {
        INFO(loom::name(t) << " " << loom::to_string(c.shape) << " axis " << (ax ? std::to_string(*ax) : "none"));
        CHECK(loom::test::check_gpu(loom::sort(x, ax), 0, 0) == "");
        CHECK(loom::test::check_gpu(loom::argsort(x, ax), 0, 0) == "");
      }
    }
  }
}

TEST_CASE("gpu sort and argsort of many short rows (a row per block) match the host exactly", "[gpu][sorting]") {
  std::mt19937_64 rng(29);
  // Around each block shape's capacity (128, 512, 2048, 4096) and past the last (4097: segmented).
  const std::int64_t lengths[] = {1, 2, 31, 32, 33, 128, 129, 500, 512, 513, 1024, 2047, 2048, 2049, 4096, 4097};
  for (DType t : real_dtypes()) {
    for (const std::int64_t length : lengths) {
      const std::int64_t rows = length <= 64 ? 3000 : 300;
      const Array x = sort_input(t, Shape{rows, length}, rng);
      INFO(loom::name(t) << " " << rows << " rows x " << length);
      CHECK(loom::test::check_gpu(loom::sort(x), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::argsort(x), 0, 0) == "");
    }
    // Along axis 0 (rows of 33 and 1000 from the columns) and one short row.
    const Array m = sort_input(t, Shape{33, 1000}, rng);
    INFO(loom::name(t) << " (33, 1000)");
    CHECK(loom::test::check_gpu(loom::sort(m, 0), 0, 0) == "");
    CHECK(loom::test::check_gpu(loom::argsort(m, 0), 0, 0) == "");
    CHECK(loom::test::check_gpu(loom::argsort(m.transpose(), 0), 0, 0) == "");
    CHECK(loom::test::check_gpu(loom::argsort(m, loom::none), 0, 0) == "");
    CHECK(loom::test::check_gpu(loom::sort(sort_input(t, Shape{777}, rng)), 0, 0) == "");
  }
  // Rows of NaNs only: NaN keys equal the padding keys, yet every index comes back in order.
  for (DType t : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    for (const std::int64_t length : {std::int64_t{31}, std::int64_t{500}, std::int64_t{2047}, std::int64_t{4095}}) {
      INFO(loom::name(t) << " NaN rows of " << length);
      const Array nans = (loom::zeros(Shape{40, length}, t) / 0).eval();
      CHECK(loom::test::check_gpu(loom::argsort(nans), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::sort(nans), 0, 0) == "");
      // Seven values first, NaNs after: the NaNs keep their order behind the values.
      const Array nan_tail = loom::where(loom::arange(length) < 7, sort_input(t, Shape{40, length}, rng), nans).eval();
      CHECK(loom::test::check_gpu(loom::argsort(nan_tail), 0, 0) == "");
    }
  }
}

TEST_CASE("gpu sort output is ordered and a permutation, argsort keeps ties in order", "[gpu][sorting]") {
  std::mt19937_64 rng(11);
  const Array x = sort_input(DType::Float32, Shape{(1 << 20) + 3}, rng);
  const std::vector<double> in = as_doubles(x), sorted = as_doubles(loom::sort(x));
  const std::vector<std::int64_t> idx = loom::argsort(x).to_host<std::int64_t>();
  REQUIRE(idx.size() == in.size());
  std::vector<char> seen(in.size(), 0);
  bool ok = true;
  for (std::size_t i = 0; i < in.size() && ok; ++i) {
    const auto k = static_cast<std::size_t>(idx[i]);
    ok = k < in.size() && !seen[k] && same(in[k], sorted[i]);
    if (ok) seen[k] = 1;
    if (ok && i > 0) {
      const double a = sorted[i - 1], b = sorted[i];
      ok = std::isnan(b) || (!std::isnan(a) && a <= b);               // ordered, NaN last
      if (ok && (a == b || (std::isnan(a) && std::isnan(b)))) ok = idx[i - 1] < idx[i];  // stable
    }
    if (!ok) FAIL_CHECK("position " << i);
  }
}

TEST_CASE("gpu lexsort and searchsorted match the host", "[gpu][sorting]") {
  std::mt19937_64 rng(13);
  for (const Shape& s : sizes_1d()) {
    const Array k0 = sort_input(DType::Float32, s, rng), k1 = sort_input(DType::Int8, s, rng);
    const Array k2 = sort_input(DType::UInt16, s, rng);
    INFO(loom::to_string(s));
    CHECK(loom::test::check_gpu(loom::lexsort({k0, k1, k2}), 0, 0) == "");
    for (DType t : real_dtypes()) {
      INFO(loom::name(t));
      const Array a = loom::sort(sort_input(t, s, rng));
      const Array v = sort_input(t, Shape{7, 3}, rng);
      CHECK(loom::test::check_gpu(loom::searchsorted(a, v), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::searchsorted(a, v, "right"), 0, 0) == "");
    }
  }
}

namespace {

// Complex values with small integer parts (many ties) and a NaN in either part now and then.
Array complex_input(DType t, std::int64_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> part(-2, 2), pick(0, 9);
  std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto& z : v) z = {pick(rng) == 0 ? nan : part(rng), pick(rng) == 0 ? nan : part(rng)};
  return loom::asarray(v).astype(t);
}

// NumPy's complex order, written out independently of the library's (npysort's CLT).
bool complex_less(std::complex<double> a, std::complex<double> b) {
  const auto nan = [](double x) { return std::isnan(x); };
  if (a.real() < b.real()) return !nan(a.imag()) || nan(b.imag());
  if (a.real() > b.real()) return nan(b.imag()) && !nan(a.imag());
  if (a.real() == b.real() || (nan(a.real()) && nan(b.real()))) {
    return a.imag() < b.imag() || (nan(b.imag()) && !nan(a.imag()));
  }
  return nan(b.real());
}

}  // namespace

TEST_CASE("gpu complex sort, argsort, lexsort, searchsorted and unique in NumPy's order", "[gpu][sorting]") {
  std::mt19937_64 rng(23);
  using C = std::complex<double>;
  for (DType t : {DType::Complex64, DType::Complex128}) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1000}, std::int64_t{(1 << 20) + 3}}) {
      INFO(loom::name(t) << " n=" << n);
      const Array x = complex_input(t, n, rng);
      CHECK(loom::test::check_gpu(loom::sort(x), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::argsort(x), 0, 0) == "");
      const Array v = complex_input(t, 21, rng);
      const Array s = loom::sort(x).eval();
      CHECK(loom::test::check_gpu(loom::searchsorted(s, v), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::searchsorted(s, v, "right"), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::lexsort({loom::test::random_array(DType::Int8, Shape{n}, rng,
                                                                          loom::test::Range::Small),
                                                 x}),
                                  0, 0) == "");

      // unique against an independent host computation.
      const std::vector<C> in = x.astype(DType::Complex128).to_host<C>();
      std::vector<std::int64_t> perm(in.size());
      for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
      std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
        return complex_less(in[static_cast<std::size_t>(a)], in[static_cast<std::size_t>(b)]);
      });
      const auto has_nan = [](C z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
      std::vector<std::int64_t> index, counts, inverse(in.size());
      for (std::size_t i = 0; i < perm.size(); ++i) {
        const C cur = in[static_cast<std::size_t>(perm[i])];
        const C prev = i > 0 ? in[static_cast<std::size_t>(perm[i - 1])] : cur;
        const bool same = i > 0 && (has_nan(cur) || has_nan(prev) ? has_nan(cur) && has_nan(prev) : cur == prev);
        if (!same) {
          index.push_back(perm[i]);
          counts.push_back(0);
        }
        ++counts.back();
        inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(index.size()) - 1;
      }
      const loom::UniqueResult u = loom::unique(x, true, true, true);
      CHECK(u.index.to_host<std::int64_t>() == index);
      CHECK(u.counts.to_host<std::int64_t>() == counts);
      CHECK(u.inverse.to_host<std::int64_t>() == inverse);
      const std::vector<C> vals = u.values.astype(DType::Complex128).to_host<C>();
      bool ok = vals.size() == index.size();
      for (std::size_t j = 0; ok && j < vals.size(); ++j) {
        const C want = in[static_cast<std::size_t>(index[j])];
        ok = (vals[j].real() == want.real() || (std::isnan(vals[j].real()) && std::isnan(want.real()))) &&
             (vals[j].imag() == want.imag() || (std::isnan(vals[j].imag()) && std::isnan(want.imag())));
      }
      CHECK(ok);
    }
    const Array m = complex_input(t, 7 * 1000, rng).reshape({7, 1000});
    for (const std::optional<int> ax : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
      INFO(loom::name(t) << " (7,1000) axis " << (ax ? std::to_string(*ax) : "none"));
      CHECK(loom::test::check_gpu(loom::sort(m, ax), 0, 0) == "");
      CHECK(loom::test::check_gpu(loom::argsort(m, ax), 0, 0) == "");
    }
  }
}

TEST_CASE("gpu cumsum and cumprod match the reference evaluator", "[gpu][scan]") {
  std::mt19937_64 rng(17);
  std::vector<DType> dtypes = real_dtypes();
  dtypes.push_back(DType::Complex64);
  dtypes.push_back(DType::Complex128);
  for (DType t : dtypes) {
    for (const Shape& shape : {Shape{1}, Shape{7}, Shape{1000}, Shape{(1 << 20) + 3}, Shape{7, 1000}, Shape{3, 4, 5}}) {
      // 16-bit floats hold small integers exactly, so any order of additions gives NumPy's sums.
      const bool half = loom::is_half(t);
      if (half && shape.numel() > 1000) continue;
      for (const bool prod : {false, true}) {
        const loom::test::Range range = !loom::is_inexact(t) || half ? loom::test::Range::Small
                                        : prod                       ? loom::test::Range::Unit
                                                                     : loom::test::Range::Any;
        Array x = loom::test::random_array(t, shape, rng, range);
        if (half) x = loom::clip(x, -1, 1);  // partial sums stay small integers; products +-1 or 0
        for (const std::optional<int> ax : {std::optional<int>(), std::optional<int>(0), std::optional<int>(-1)}) {
          const Array r = prod ? loom::cumprod(x, ax) : loom::cumsum(x, ax);
          const std::int64_t n = ax ? shape[*ax < 0 ? shape.size() - 1 : *ax] : shape.numel();
          double eps = 0;
          if (loom::is_inexact(r.dtype()) && !half) {
            eps = (r.dtype() == DType::Float64 || r.dtype() == DType::Complex128) ? 2.3e-16 : 1.2e-7;
          }
          const double rtol = 16 * eps * std::sqrt(static_cast<double>(n)) + 4 * eps;
          const double atol = prod ? 1e-30 : 4 * eps * static_cast<double>(n) * 10;
          INFO(loom::name(t) << " " << loom::to_string(shape) << (prod ? " cumprod" : " cumsum") << " axis "
                             << (ax ? std::to_string(*ax) : "none"));
          CHECK(loom::test::check_gpu(r, rtol, atol) == "");
        }
      }
    }
  }
}

TEST_CASE("gpu unique, nonzero and masks agree with host loops", "[gpu][eager]") {
  std::mt19937_64 rng(19);
  for (DType t : real_dtypes()) {
    for (const Shape& s : {Shape{1}, Shape{7}, Shape{1000}, Shape{(1 << 20) + 3}, Shape{30, 40}}) {
      INFO(loom::name(t) << " " << loom::to_string(s));
      const Array x = sort_input(t, s, rng);
      const std::vector<double> in = as_doubles(x);
      const std::size_t n = in.size();

      // unique: values ascending and distinct; values[inverse] == x; index is the first
      // occurrence; counts add up.
      const loom::UniqueResult u = loom::unique(x, true, true, true);
      const std::vector<double> vals = as_doubles(u.values);
      const auto index = u.index.to_host<std::int64_t>(), inverse = u.inverse.to_host<std::int64_t>(),
                 counts = u.counts.to_host<std::int64_t>();
      CHECK(u.inverse.shape() == s);
      bool ok = index.size() == vals.size() && counts.size() == vals.size() && inverse.size() == n;
      for (std::size_t j = 1; ok && j < vals.size(); ++j) {
        ok = std::isnan(vals[j]) ? !std::isnan(vals[j - 1]) : !std::isnan(vals[j - 1]) && vals[j - 1] < vals[j];
      }
      CHECK(ok);
      std::vector<std::int64_t> tally(vals.size(), 0);
      for (std::size_t i = 0; ok && i < n; ++i) {
        const auto j = static_cast<std::size_t>(inverse[i]);
        ok = j < vals.size() && same(in[i], vals[j]) && static_cast<std::int64_t>(i) >= index[j];
        if (ok) ++tally[j];
      }
      CHECK(ok);
      for (std::size_t j = 0; ok && j < vals.size(); ++j) {
        ok = tally[j] == counts[j] && same(in[static_cast<std::size_t>(index[j])], vals[j]);
      }
      CHECK(ok);

      // nonzero / flatnonzero / x[mask] against a loop.
      std::vector<std::int64_t> flat;
      std::vector<double> picked;
      for (std::size_t i = 0; i < n; ++i) {
        if (in[i] != 0) flat.push_back(static_cast<std::int64_t>(i));  // NaN != 0
        if (in[i] > 0) picked.push_back(in[i]);
      }
      CHECK(loom::flatnonzero(x).to_host<std::int64_t>() == flat);
      const std::vector<Array> nz = loom::nonzero(x);
      REQUIRE(nz.size() == static_cast<std::size_t>(s.size()));
      const auto last = nz.back().to_host<std::int64_t>();
      std::vector<std::int64_t> want_last;
      for (std::int64_t f : flat) want_last.push_back(f % s[s.size() - 1]);
      CHECK(last == want_last);
      const std::vector<double> got = as_doubles(x[x > 0]);
      CHECK(got == picked);
    }
  }
  // A mask over the leading dims picks rows.
  const Array m = loom::arange(12).reshape({3, 4}).astype(DType::Float32);
  const Array rows = m[loom::asarray(std::vector<bool>{true, false, true})];
  CHECK(rows.shape() == Shape{2, 4});
  CHECK(rows.to_host<float>() == std::vector<float>{0, 1, 2, 3, 8, 9, 10, 11});
}
