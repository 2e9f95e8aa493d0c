#pragma once
// NumPy's answers for the set functions (tests/unit/api/sets_cases.txt, written by
// tools/gen_sets_cases.py), run through loom: shared by the host tests and the GPU tests (which
// read the file relative to the repository root).

#include <optional>
#include <stdexcept>
#include <vector>

#include <loom/loom.hpp>

#include "support/math_cases.hpp"

namespace loom::test {

inline std::optional<int> axis_arg(const ManipArg& a) {
  return a.kind == 'n' ? std::optional<int>() : std::optional<int>(static_cast<int>(a.i));
}

// The arrays a unique call gives, in NumPy's order: the values, then those asked for.
inline std::vector<Array> unique_arrays(const UniqueResult& r) {
  std::vector<Array> out{r.values};
  for (const Array* a : {&r.index, &r.inverse, &r.counts}) {
    if (a->valid()) out.push_back(*a);
  }
  return out;
}

inline std::vector<Array> run_sets(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  const auto x = [&](std::size_t k) { return value_of(g[k]); };
  const auto flag = [&](std::size_t k) { return g[k].i != 0; };
  if (f == "unique") {
    const UniqueResult r = unique(x(0), {.return_index = flag(1),
                                         .return_inverse = flag(2),
                                         .return_counts = flag(3),
                                         .axis = axis_arg(g[4]),
                                         .equal_nan = flag(5),
                                         .sorted = flag(6)});
    return unique_arrays(r);
  }
  if (f == "unique_all") {
    const UniqueAllResult r = unique_all(x(0));
    return {r.values, r.indices, r.inverse_indices, r.counts};
  }
  if (f == "unique_counts") {
    const UniqueCountsResult r = unique_counts(x(0));
    return {r.values, r.counts};
  }
  if (f == "unique_inverse") {
    const UniqueInverseResult r = unique_inverse(x(0));
    return {r.values, r.inverse_indices};
  }
  if (f == "unique_values") return one(unique_values(x(0)));
  if (f == "isin") return one(isin(x(0), x(1), flag(2), flag(3), g[4].kind == 'n' ? "" : g[4].word));
  if (f == "intersect1d") {
    if (!flag(3)) return one(intersect1d(x(0), x(1), flag(2)));
    const Intersect1dResult r = intersect1d(x(0), x(1), flag(2), true);
    return {r.values, r.ar1_indices, r.ar2_indices};
  }
  if (f == "union1d") return one(union1d(x(0), x(1)));
  if (f == "setdiff1d") return one(setdiff1d(x(0), x(1), flag(2)));
  if (f == "setxor1d") return one(setxor1d(x(0), x(1), flag(2)));
  throw std::runtime_error("no such function in the sets table: " + f);
}

}  // namespace loom::test
