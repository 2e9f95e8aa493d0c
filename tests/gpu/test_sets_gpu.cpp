// The set functions on the GPU: NumPy's answers (sets_cases.txt, read from the repository root)
// with outputs poisoned; isin on random inputs against the host reference evaluator; the eager
// functions (their host path does not run where there is a GPU) against set computations written
// here on doubles. Small value ranges give many repeats and overlaps; floats get NaN and -0.0.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/sets_cases.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

using Values = std::vector<double>;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// n values of dtype t in a small range (unsigned: 0..40, else -20..20); floats: 1 in 8 a NaN,
// zeros of both signs.
Array small_values(DType t, std::int64_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> v(loom::is_unsigned_int(t) ? 0 : -20, 20), pick(0, 7);
  Values out(static_cast<std::size_t>(n));
  for (double& x : out) {
    x = v(rng);
    if (loom::is_floating(t) && pick(rng) == 0) x = kNaN;
    if (loom::is_floating(t) && x == 0 && pick(rng) < 4) x = -0.0;
  }
  return loom::asarray(out).astype(t).eval();
}

Values doubles(const Array& a) { return a.astype(DType::Float64).to_host<double>(); }
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
bool same(const Values& a, const Values& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) { return same(x, y); });
}

// np.unique of doubles: sorted, -0.0 == 0.0, the NaNs last (one, or each with equal_nan off).
Values uniq(Values v, bool equal_nan = true) {
  const auto nans = std::count_if(v.begin(), v.end(), [](double x) { return std::isnan(x); });
  std::erase_if(v, [](double x) { return std::isnan(x); });
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  for (std::int64_t k = 0; k < (equal_nan ? std::min<std::int64_t>(nans, 1) : nans); ++k) v.push_back(kNaN);
  return v;
}
bool has(const Values& v, double x) { return std::find(v.begin(), v.end(), x) != v.end(); }  // NaN: never
Values keep(const Values& v, auto pred) {
  Values out;
  std::copy_if(v.begin(), v.end(), std::back_inserter(out), pred);
  return out;
}
Values joined(Values a, const Values& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const DType kDTypes[] = {DType::Int8, DType::Int32, DType::Int64, DType::UInt16, DType::Float32, DType::Float64};

}  // namespace

TEST_CASE("set functions give NumPy's values on the GPU", "[gpu][sets]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] = loom::test::check_numpy_table("tests/unit/api/sets_cases.txt", loom::test::run_sets);
  CHECK(values > 280);
  CHECK(errors >= 7);
}

TEST_CASE("gpu isin matches the reference evaluator and a search by hand", "[gpu][sets]") {
  std::mt19937_64 rng(41);
  for (DType t : kDTypes) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{(1 << 20) + 3}}) {
      INFO(loom::name(t) << " n=" << n);
      const Array x = small_values(t, n, rng), tests = small_values(DType::Int16, 9, rng);
      for (bool invert : {false, true}) {
        const Array r = loom::isin(x * 2, tests, false, invert);
        CHECK(loom::test::check_gpu(r) == "");
        const Values xs = doubles(x * 2), ts = doubles(tests);
        const auto got = r.astype(DType::Int8).to_host<std::int8_t>();
        bool ok = got.size() == xs.size();
        for (std::size_t i = 0; ok && i < xs.size(); ++i) ok = (got[i] != 0) == (has(ts, xs[i]) != invert);
        CHECK(ok);
      }
    }
  }
}

TEST_CASE("gpu intersect1d, union1d, setdiff1d, setxor1d agree with sets by hand", "[gpu][sets]") {
  std::mt19937_64 rng(43);
  for (DType t : kDTypes) {
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{300}, std::int64_t{(1 << 20) + 3}}) {
      INFO(loom::name(t) << " n=" << n);
      const Array a = small_values(t, n, rng), b = small_values(DType::Float32, 50, rng);
      const Values ua = uniq(doubles(a)), ub = uniq(doubles(b));
      const Values common = keep(ua, [&](double x) { return has(ub, x); });
      const loom::Intersect1dResult r = loom::intersect1d(a, b, false, true);
      CHECK(same(doubles(r.values), common));
      CHECK(same(doubles(loom::take(a, r.ar1_indices)), common));
      CHECK(same(doubles(loom::take(b, r.ar2_indices)), common));
      CHECK(same(doubles(loom::union1d(a, b)), uniq(joined(doubles(a), doubles(b)))));
      CHECK(same(doubles(loom::setdiff1d(a, b)), keep(ua, [&](double x) { return !has(ub, x); })));
      const Values xor_ab = uniq(joined(keep(ua, [&](double x) { return !has(ub, x); }),
                                        keep(ub, [&](double x) { return !has(ua, x); })), false);
      CHECK(same(doubles(loom::setxor1d(a, b)), xor_ab));
    }
  }
}

TEST_CASE("gpu unique_all with every NaN its own value, and unique along an axis", "[gpu][sets]") {
  std::mt19937_64 rng(47);
  for (DType t : kDTypes) {
    INFO(loom::name(t));
    const Array x = small_values(t, (1 << 16) + 5, rng);
    const Values xs = doubles(x);
    const loom::UniqueAllResult u = loom::unique_all(x);
    const Values vals = doubles(u.values);
    CHECK(same(vals, uniq(xs, false)));
    const auto index = u.indices.to_host<std::int64_t>(), inverse = u.inverse_indices.to_host<std::int64_t>(),
               counts = u.counts.to_host<std::int64_t>();
    std::vector<std::int64_t> tally(vals.size(), 0), first(vals.size(), -1);
    bool ok = inverse.size() == xs.size() && index.size() == vals.size();
    for (std::size_t i = 0; ok && i < xs.size(); ++i) {
      const auto j = static_cast<std::size_t>(inverse[i]);
      ok = j < vals.size() && same(vals[j], xs[i]) && ++tally[j] > 0;
      if (ok && first[j] < 0) first[j] = static_cast<std::int64_t>(i);
    }
    CHECK(ok);
    CHECK(tally == counts);
    CHECK(first == index);

    // Rows of three small values: lexicographic, against a map of rows.
    const Array m = (small_values(DType::Int64, 3000, rng) % 3).astype(t).reshape({1000, 3}).eval();
    const Values ms = doubles(m);
    std::map<Values, std::pair<std::int64_t, std::int64_t>> rows;  // first index, count
    for (std::int64_t i = 0; i < 1000; ++i) {
      const Values row(ms.begin() + 3 * i, ms.begin() + 3 * i + 3);
      ++rows.try_emplace(row, i, 0).first->second.second;
    }
    const loom::UniqueResult r =
        loom::unique(m, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
    Values want_values;
    std::vector<std::int64_t> want_index, want_counts;
    for (const auto& [row, ic] : rows) {
      want_values.insert(want_values.end(), row.begin(), row.end());
      want_index.push_back(ic.first);
      want_counts.push_back(ic.second);
    }
    CHECK(same(doubles(r.values), want_values));
    CHECK(r.index.to_host<std::int64_t>() == want_index);
    CHECK(r.counts.to_host<std::int64_t>() == want_counts);
    CHECK(same(doubles(loom::take(r.values, r.inverse, 0)), ms));
  }
}
