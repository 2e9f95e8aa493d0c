#pragma once
// NumPy's answers for the signatures of issue 30, item 7 (tests/unit/api/signature_cases.txt,
// written by tools/gen_signature_cases.py), run through loom: shared by the host tests and the
// GPU tests (which read the file relative to the repository root).

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <loom/loom.hpp>

#include "support/math_cases.hpp"

namespace loom::test {

// A nested '[' ... ']' argument as np.block's list (an array at the bottom).
inline BlockItem block_item_of(const ManipArg& a) {
  if (a.kind != '[') return BlockItem(a.array);
  std::vector<BlockItem> items;
  for (const ManipArg& x : a.items) items.push_back(block_item_of(x));
  return BlockItem(std::move(items));
}

inline Axes axes_of(const ManipArg& a) {
  if (a.kind == 'n') return Axes{};
  if (a.kind == 'l') return Axes(a.list);
  return Axes(a.i);
}

// <reduction> a axis keepdims where initial [ddof], through ReduceOptions.
inline Array run_reduction(const std::string& f, const std::vector<ManipArg>& g) {
  const ReduceOptions o{.axis = axes_of(g[1]),
                        .keepdims = g[2].i != 0,
                        .ddof = g.size() > 5 ? g[5].i : 0,
                        .where = optional_array(g[3]),
                        .initial = optional_array(g[4])};
  const Array& a = g[0].array;
  if (f == "sum") return sum(a, o);
  if (f == "prod") return prod(a, o);
  if (f == "nansum") return nansum(a, o);
  if (f == "max") return max(a, o);
  if (f == "min") return min(a, o);
  if (f == "mean") return mean(a, o);
  if (f == "nanmean") return nanmean(a, o);
  if (f == "var") return var(a, o);
  if (f == "std") return loom::std(a, o);
  if (f == "any") return any(a, o);
  if (f == "all") return alltrue(a, o);
  if (f == "count_nonzero") return count_nonzero(a, o);
  throw std::runtime_error("no such reduction in the table: " + f);
}

inline TakeMode take_mode(const std::string& w) {
  return w == "wrap" ? TakeMode::Wrap : w == "clip" ? TakeMode::Clip : TakeMode::Raise;
}

inline std::vector<Array> run_signature(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  const auto axis = [&](std::size_t k) { return opt_int(g[k]); };
  if (f == "repeat") return one(repeat(g[0].array, g[1].list, axis(2)));
  if (f == "repeat_device") {
    const Array counts = asarray(std::span<const std::int64_t>(g[1].list));
    return one(repeat(g[0].array, counts, axis(2)));
  }
  if (f == "pad_pair") return one(pad(g[0].array, g[1].pads[0], {.mode = g[2].word}));
  if (f == "pad") {
    std::vector<std::pair<double, double>> sides;
    for (const auto& [b, a] : g[3].pads) sides.emplace_back(static_cast<double>(b), static_cast<double>(a));
    PadOptions o{.mode = g[2].word};
    (o.mode == "constant" ? o.constant_values : o.end_values) = sides;
    return one(pad(g[0].array, g[1].pads, o));
  }
  if (f == "tile") return one(tile(g[0].array, g[1].i));
  if (f == "delete") return one(delete_(g[0].array, g[1].array, axis(2)));
  if (f == "insert") return one(insert(g[0].array, g[1].array, g[2].array, axis(3)));
  if (f == "take_along_axis") {
    const std::optional<std::int64_t> ax = axis(2);
    return one(take_along_axis(g[0].array, g[1].array, ax ? std::optional<int>(static_cast<int>(*ax)) : std::nullopt));
  }
  if (f == "choose") return one(choose(g[0].array, arrays_of(g[1]), take_mode(g[2].word)));
  if (f == "copyto") {
    Array dst = g[0].array;
    copyto(dst, g[1].array, g[2].word, g[3].kind == 'n' ? Array(true) : g[3].array);
    return one(dst);
  }
  if (f == "block") return one(block(block_item_of(g[0])));
  return one(run_reduction(f, g));
}

}  // namespace loom::test
