// isin, intersect1d, union1d, setdiff1d and setxor1d (include/loom/sets.hpp), as NumPy defines
// them (numpy/lib/_arraysetops_impl.py), from loom's pieces: sort and searchsorted (lazy
// barriers), gathers and comparisons (fused), unique and flatnonzero / mask reads (eager: their
// counts are the only values read back). Nothing loops over the data on the host but the host
// implementations of those pieces themselves.

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/eval.hpp>
#include <loom/indexing.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sets.hpp>
#include <loom/sorting.hpp>

namespace loom {

namespace {

bool integral(DType t) { return is_integer(t) || is_bool(t); }

// aux[1:] != aux[:-1] (or ==) of a 1-D array of n elements: n - 1 flags, nothing for n < 2.
Array neighbours(const Array& aux, bool same) {
  const std::int64_t n = aux.shape()[0];
  const Array next = aux.slice(0, 1, std::nullopt), prev = aux.slice(0, 0, n > 0 ? n - 1 : 0);
  return same ? equal(next, prev) : not_equal(next, prev);
}

}  // namespace

Array isin(const Array& element, const Array& test_elements, bool assume_unique, bool invert, std::string_view kind) {
  (void)assume_unique;  // the search needs no unique values
  if (kind != "" && kind != "sort" && kind != "table") {
    throw ValueError(fmt::format("Invalid kind: '{}'. Please use None, 'sort' or 'table'.", kind));
  }
  const Array tests = test_elements.ravel();
  if (kind == "table" && !(integral(element.dtype()) && integral(tests.dtype()))) {
    throw ValueError("The 'table' method is only supported for boolean or integer arrays. "
                     "Please select 'sort' or None for kind.");
  }
  if (tests.size() == 0) return full(element.shape(), invert, DType::Bool);
  // Both as arrays in their promoted dtype (NumPy takes a Python number as an int64/float64
  // array here, not as a weak scalar).
  const DType common = promote_types(element.dtype(), tests.dtype());
  if (integral(common) && kind != "sort") {
    // NumPy's table method, which it also picks by itself when the test values span at most 6x
    // the two sizes: a bool table over [min, max] of the tests (their min and max read back),
    // and one fused kernel that reads each element's entry (one read of the elements, one
    // byte written: no sort, no search).
    const Array lo_hi = stack({min(tests).astype(DType::Float64), max(tests).astype(DType::Float64)}).eval();
    const std::vector<double> b = lo_hi.to_host<double>();
    const double span = b[1] - b[0];
    if (span <= 6.0 * static_cast<double>(element.size() + tests.size()) || kind == "table") {
      const auto lo = static_cast<std::int64_t>(b[0]);
      const Array table =
          zeros({static_cast<std::int64_t>(span) + 1}, DType::Bool).at(Index(tests.astype(DType::Int64) - lo)).set(Array(true));
      const Array e64 = element.astype(DType::Int64);
      const Array inside = logical_and(e64 >= lo, e64 <= static_cast<std::int64_t>(b[1]));
      const Array found = logical_and(inside, take(table, where(inside, e64 - lo, Array(std::int64_t{0})), std::nullopt,
                                                   TakeMode::Clip));
      return invert ? logical_not(found) : found;
    }
  }
  const Array e = element.astype(common), sorted_tests = sort(tests.astype(common));
  // The sorted test value at the element's insertion point (clipped: past the end is the last).
  const Array found = take(sorted_tests, searchsorted(sorted_tests, e), std::nullopt, TakeMode::Clip);
  return invert ? not_equal(found, e) : equal(found, e);
}

Intersect1dResult intersect1d(const Array& ar1, const Array& ar2, bool assume_unique, bool return_indices) {
  Array u1 = ar1.ravel(), u2 = ar2.ravel(), index1, index2;
  if (!assume_unique) {
    const UniqueResult r1 = unique(ar1, return_indices), r2 = unique(ar2, return_indices);
    u1 = r1.values;
    u2 = r2.values;
    index1 = r1.index;
    index2 = r2.index;
  }
  // Each side holds a value at most once, so a value in both is two neighbours of the sorted
  // concatenation (the stable argsort puts ar1's first).
  const Array aux = concatenate({u1, u2}).eval();
  const Array perm = return_indices ? argsort(aux).eval() : Array();
  const Array sorted_aux = (return_indices ? take(aux, perm) : sort(aux)).eval();
  const Array at = flatnonzero(neighbours(sorted_aux, true));  // (the count read back)
  Intersect1dResult r;
  r.values = take(sorted_aux, at);
  if (return_indices) {
    r.ar1_indices = take(perm, at);
    r.ar2_indices = take(perm, at + 1) - u1.size();
    if (!assume_unique) {
      r.ar1_indices = take(index1, r.ar1_indices);
      r.ar2_indices = take(index2, r.ar2_indices);
    }
    eval({r.values, r.ar1_indices, r.ar2_indices});
  } else {
    r.values = r.values.eval();
  }
  return r;
}

Array intersect1d(const Array& ar1, const Array& ar2, bool assume_unique) {
  return intersect1d(ar1, ar2, assume_unique, false).values;
}

Array union1d(const Array& ar1, const Array& ar2) { return unique(concatenate({ar1, ar2}, std::nullopt)); }

Array setdiff1d(const Array& ar1, const Array& ar2, bool assume_unique) {
  const Array a = assume_unique ? ar1.ravel() : unique(ar1);
  const Array b = assume_unique ? ar2 : unique(ar2);
  const Array keep = isin(a, b, true, true).eval();
  return a[keep];
}

Array setxor1d(const Array& ar1, const Array& ar2, bool assume_unique) {
  const Array a = assume_unique ? ar1 : unique(ar1), b = assume_unique ? ar2 : unique(ar2);
  const Array aux = concatenate({a, b}, std::nullopt);
  const std::int64_t n = aux.size();
  if (n == 0) return aux.eval();
  // A value in exactly one side differs from both its neighbours in the sorted concatenation.
  const Array s = sort(aux).eval();
  const Array edge = ones(Shape{1}, DType::Bool);
  const Array flag = concatenate({edge, neighbours(s, false), edge});
  const Array keep = logical_and(flag.slice(0, 1, std::nullopt), flag.slice(0, 0, n)).eval();
  return s[keep];
}

}  // namespace loom
