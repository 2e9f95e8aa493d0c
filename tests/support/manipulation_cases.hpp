#pragma once
// NumPy's answers for array manipulation (tests/unit/api/manipulation_cases.txt, written by
// tools/gen_manipulation_cases.py), parsed and run through loom: shared by the host tests and the
// GPU tests (which read the file relative to the repository root, their working directory).

#include <cmath>
#include <cstdlib>
#include <complex>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "support/indexing_cases.hpp"

namespace loom::test {

// One argument of a call: an array, an int, None, an int list, pad widths, a slice, a word, or
// a list of arguments ('[' ... ']').
struct ManipArg {
  char kind = 'n';  // A V Z f i n l p s m [
  Array array;
  std::int64_t i = 0;
  double f = 0;  // 'f': a C++ double (NumPy's Python float)
  std::vector<std::int64_t> list;
  std::vector<std::pair<std::int64_t, std::int64_t>> pads;
  Slice slice;
  std::string word;
  std::vector<ManipArg> items;
};

struct ManipResult {
  std::string dtype;
  Shape shape;
  std::vector<double> values;
};

struct ManipCase {
  std::string line, fn;
  std::vector<ManipArg> args;
  std::vector<ManipResult> want;  // one, or a list's
  bool list = false;
  std::string error_type, error_message;
};

inline DType dtype_named(const std::string& n) {
  for (int k = 0; k < 16; ++k) {
    const auto t = static_cast<DType>(k);
    if (std::string(name(t)) == n) return t;
  }
  throw std::runtime_error("no dtype " + n);
}

// A number as Python prints it (subnormals too: std::stod throws for those, strtod does not).
inline double to_double(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

inline ManipArg parse_arg(const std::vector<std::string>& tok, std::size_t& at) {
  const std::string t = tok[at++];
  ManipArg a;
  a.kind = t[0];
  if (t == "[") {
    while (tok[at] != "]") a.items.push_back(parse_arg(tok, at));
    ++at;
    return a;
  }
  const std::string rest = t.substr(1);
  switch (a.kind) {
    case 'A': {
      const auto colon = rest.find(':'), atk = rest.find('@');
      const Shape shape = parse_shape(rest.substr(0, colon));
      const DType dt = dtype_named(rest.substr(colon + 1, atk - colon - 1));
      const std::int64_t k = std::stoll(rest.substr(atk + 1));
      a.array = (arange(shape.numel()) + Array(100 * k)).reshape(shape).astype(dt).eval();
      break;
    }
    case 'V': {  // V<shape>:<dtype>:<values>
      const auto c1 = rest.find(':'), c2 = rest.find(':', c1 + 1);
      const Shape shape = parse_shape(rest.substr(0, c1));
      const DType dt = dtype_named(rest.substr(c1 + 1, c2 - c1 - 1));
      std::vector<double> vals;
      for (const std::string& v : split(rest.substr(c2 + 1), ',')) {
        if (!v.empty()) vals.push_back(to_double(v));
      }
      a.array = (vals.empty() ? zeros(shape, DType::Float64) : asarray(std::span<const double>(vals), shape)).astype(dt).eval();
      break;
    }
    case 'Z': {  // Z<shape>:<dtype>:<re>,<im>,...
      const auto c1 = rest.find(':'), c2 = rest.find(':', c1 + 1);
      const Shape shape = parse_shape(rest.substr(0, c1));
      const DType dt = dtype_named(rest.substr(c1 + 1, c2 - c1 - 1));
      std::vector<double> parts;
      for (const std::string& v : split(rest.substr(c2 + 1), ',')) {
        if (!v.empty()) parts.push_back(to_double(v));
      }
      std::vector<std::complex<double>> vals;
      for (std::size_t k = 0; k + 1 < parts.size(); k += 2) vals.emplace_back(parts[k], parts[k + 1]);
      a.array = asarray(std::span<const std::complex<double>>(vals), shape).astype(dt).eval();
      break;
    }
    case 'f': a.f = to_double(rest); break;
    case 'i': a.i = std::stoll(rest); break;
    case 'l': a.list = parse_values(rest); break;
    case 'p':
      for (const std::string& p : split(rest, '/')) {
        const auto v = parse_values(p);
        a.pads.emplace_back(v[0], v[1]);
      }
      break;
    case 's': {
      const auto parts = split(rest, ',');
      const auto opt = [](const std::string& s) { return s.empty() ? std::optional<std::int64_t>() : std::stoll(s); };
      a.slice = Slice(opt(parts[0]), opt(parts[1]), opt(parts[2]));
      break;
    }
    case 'm': a.word = rest; break;
    default: break;
  }
  return a;
}

inline ManipResult parse_result(const std::vector<std::string>& tok, std::size_t& at) {
  ManipResult r;
  r.dtype = tok[at++];
  r.shape = parse_shape(tok[at++]);
  if (at < tok.size() && tok[at] != ";") {
    const std::string vals = tok[at++];
    if (vals.empty()) return r;
    for (const std::string& v : split(vals, ',')) {
      r.values.push_back(v == "nan" ? NAN : v == "inf" ? INFINITY : v == "-inf" ? -INFINITY : to_double(v));
    }
  }
  return r;
}

// Tokens are split at single spaces (split keeps an empty shape as an empty token).
inline std::vector<ManipCase> manipulation_cases(const std::string& path) {
  std::vector<ManipCase> out;
  for (const std::string& line : data_lines(path)) {
    ManipCase c;
    c.line = line;
    const auto arrow = line.find(" -> ");
    std::vector<std::string> call = split(line.substr(0, arrow), ' ');
    c.fn = call[0];
    for (std::size_t at = 1; at < call.size();) c.args.push_back(parse_arg(call, at));
    const std::string res = line.substr(arrow + 4);
    if (res.rfind("error ", 0) == 0) {
      const auto bar = res.find('|');
      c.error_type = res.substr(6, bar - 6);
      c.error_message = res.substr(bar + 1);
    } else {
      const std::vector<std::string> tok = split(res, ' ');
      std::size_t at = 0;
      if (tok[0] == "list") {
        c.list = true;
        const auto n = std::stoll(tok[1]);
        at = 2;
        for (std::int64_t k = 0; k < n; ++k) {
          ++at;  // ';'
          c.want.push_back(parse_result(tok, at));
        }
      } else {
        c.want.push_back(parse_result(tok, at));
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

inline std::vector<Array> arrays_of(const ManipArg& a) {
  std::vector<Array> out;
  for (const ManipArg& x : a.items) out.push_back(x.array);
  return out;
}

inline std::optional<std::int64_t> opt_int(const ManipArg& a) {
  return a.kind == 'n' ? std::optional<std::int64_t>() : a.i;
}

inline Positions positions_of(const ManipArg& a) {
  if (a.kind == 'i') return a.i;
  if (a.kind == 's') return a.slice;
  return a.list;
}

// The call a case names, through loom.
inline std::vector<Array> run_manipulation(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  if (f == "concatenate") return one(concatenate(arrays_of(g[0]), opt_int(g[1])));
  if (f == "stack") return one(stack(arrays_of(g[0]), g[1].i));
  if (f == "hstack") return one(hstack(arrays_of(g[0])));
  if (f == "vstack") return one(vstack(arrays_of(g[0])));
  if (f == "dstack") return one(dstack(arrays_of(g[0])));
  if (f == "column_stack") return one(column_stack(arrays_of(g[0])));
  if (f == "append") return one(append(g[0].array, g[1].array, opt_int(g[2])));
  if (f == "block") {
    if (!g[0].items.empty() && g[0].items[0].kind == '[') {
      std::vector<std::vector<Array>> rows;
      for (const ManipArg& r : g[0].items) rows.push_back(arrays_of(r));
      return one(block(rows));
    }
    return one(block(arrays_of(g[0])));
  }
  const auto splitter = [&](auto fn2, auto fn3) -> std::vector<Array> {
    if (g[1].kind == 'l') return fn3(g[0].array, g[1].list);
    return fn2(g[0].array, g[1].i);
  };
  if (f == "split" || f == "array_split") {
    const bool eq = f == "split";
    if (g[1].kind == 'l') return eq ? split(g[0].array, g[1].list, g[2].i) : array_split(g[0].array, g[1].list, g[2].i);
    return eq ? split(g[0].array, g[1].i, g[2].i) : array_split(g[0].array, g[1].i, g[2].i);
  }
  if (f == "hsplit") return splitter([](const Array& a, std::int64_t s) { return hsplit(a, s); },
                                     [](const Array& a, const std::vector<std::int64_t>& s) { return hsplit(a, s); });
  if (f == "vsplit") return splitter([](const Array& a, std::int64_t s) { return vsplit(a, s); },
                                     [](const Array& a, const std::vector<std::int64_t>& s) { return vsplit(a, s); });
  if (f == "dsplit") return splitter([](const Array& a, std::int64_t s) { return dsplit(a, s); },
                                     [](const Array& a, const std::vector<std::int64_t>& s) { return dsplit(a, s); });
  if (f == "unstack") return unstack(g[0].array, g[1].i);
  if (f == "delete") return one(delete_(g[0].array, positions_of(g[1]), opt_int(g[2])));
  if (f == "insert") return one(insert(g[0].array, positions_of(g[1]), g[2].array, opt_int(g[3])));
  if (f == "tile") return one(tile(g[0].array, g[1].list));
  if (f == "repeat") return one(repeat(g[0].array, g[1].i, opt_int(g[2])));
  if (f == "roll") return one(roll(g[0].array, g[1].i, opt_int(g[2])));
  if (f == "resize") return one(resize(g[0].array, Shape(g[1].list)));
  if (f == "pad") {
    PadOptions o;
    o.mode = g[2].word;
    if (g.size() > 3 && g[3].kind == 'm') {
      o.reflect_type = g[3].word;
    } else if (g.size() > 3) {  // the table's extra argument, by mode
      const auto x = g[3].i;
      if (o.mode == "constant") o.constant_value = static_cast<double>(x);
      else if (o.mode == "linear_ramp") o.end_values = {{static_cast<double>(x), static_cast<double>(x)}};
      else o.stat_length = x;
    }
    return one(pad(g[0].array, g[1].pads, o));
  }
  if (f == "diagonal") return one(diagonal(g[0].array, g[1].i, g[2].i, g[3].i));
  if (f == "diag") return one(diag(g[0].array, g[1].i));
  if (f == "diagflat") return one(diagflat(g[0].array, g[1].i));
  if (f == "trace") return one(g.size() > 1 ? trace(g[0].array, g[1].i, g[2].i, g[3].i) : trace(g[0].array));
  if (f == "tri") return one(tri(g[0].i, g[1].i, g[2].i, dtype_named(g[3].word)));
  if (f == "tril") return one(tril(g[0].array, g[1].i));
  if (f == "triu") return one(triu(g[0].array, g[1].i));
  if (f == "flipud") return one(flipud(g[0].array));
  if (f == "fliplr") return one(fliplr(g[0].array));
  if (f == "rot90") return one(rot90(g[0].array, g[1].i, {g[2].list[0], g[2].list[1]}));
  if (f == "moveaxis") {
    if (g[1].kind == 'l') return one(moveaxis(g[0].array, g[1].list, g[2].list));
    return one(moveaxis(g[0].array, g[1].i, g[2].i));
  }
  if (f == "rollaxis") return one(rollaxis(g[0].array, g[1].i, g[2].i));
  if (f == "atleast_1d") return one(atleast_1d(g[0].array));
  if (f == "atleast_2d") return one(atleast_2d(g[0].array));
  if (f == "atleast_3d") return one(atleast_3d(g[0].array));
  if (f == "broadcast_arrays") return broadcast_arrays(arrays_of(g[0]));
  if (f == "meshgrid") return meshgrid(arrays_of(g[0]), g[1].word, g[2].i != 0);
  if (f == "indices") return one(indices(Shape(g[0].list), dtype_named(g[1].word)));
  if (f == "ix_") return ix_(arrays_of(g[0]));
  if (f == "logspace") {
    return one(logspace(static_cast<double>(g[0].i) / 4, static_cast<double>(g[1].i) / 4, g[2].i, g[3].i != 0,
                        static_cast<double>(g[4].i) / 2));
  }
  if (f == "geomspace") {
    return one(geomspace(static_cast<double>(g[0].i), static_cast<double>(g[1].i), g[2].i, g[3].i != 0));
  }
  if (f == "sliding_window_view") {
    if (g.size() > 2) return one(sliding_window_view(g[0].array, g[1].list, g[2].list));
    return one(sliding_window_view(g[0].array, g[1].list));
  }
  // Indexing functions (indexing_function_cases.txt); those that write give the array written.
  const auto mode_of = [](const std::string& w) {
    return w == "wrap" ? TakeMode::Wrap : w == "clip" ? TakeMode::Clip : TakeMode::Raise;
  };
  const auto axis_or_none = [&](const ManipArg& x) {
    return x.kind == 'n' ? std::optional<int>() : std::optional<int>(static_cast<int>(x.i));
  };
  if (f == "take") return one(take(g[0].array, g[1].array, axis_or_none(g[2]), mode_of(g[3].word)));
  if (f == "take_along_axis") return one(take_along_axis(g[0].array, g[1].array, static_cast<int>(g[2].i)));
  Array x = g.empty() ? Array() : g[0].array;
  if (f == "put") return put(x, g[1].array, g[2].array, mode_of(g[3].word)), one(x);
  if (f == "put_along_axis") return put_along_axis(x, g[1].array, g[2].array, static_cast<int>(g[3].i)), one(x);
  if (f == "putmask") return putmask(x, g[1].array, g[2].array), one(x);
  if (f == "place") return place(x, g[1].array, g[2].array), one(x);
  if (f == "copyto") return copyto(x, g[1].array, g[2].kind == 'n' ? Array(true) : g[2].array), one(x);
  if (f == "compress") return one(compress(g[0].array, g[1].array, axis_or_none(g[2])));
  if (f == "extract") return one(extract(g[0].array, g[1].array));
  if (f == "choose") return one(choose(g[0].array, arrays_of(g[1])));
  if (f == "select") return one(select(arrays_of(g[0]), arrays_of(g[1]), Array(g[2].i)));
  if (f == "argwhere") return one(argwhere(g[0].array));
  throw std::runtime_error("no such function in the table: " + f);
}

// "" when r matches what NumPy gave (dtype, shape, values: exact, floats to 1e-12 relative).
inline std::string check_manip(const Array& r, const ManipResult& w) {
  if (std::string(name(r.dtype())) != w.dtype) return "dtype " + std::string(name(r.dtype())) + " != " + w.dtype;
  if (r.shape() != w.shape) return "shape " + to_string(r.shape()) + " != " + to_string(w.shape);
  std::vector<double> got;
  if (is_complex(r.dtype())) {  // real and imaginary parts, interleaved as the table writes them
    const std::vector<double> re = real(r).astype(DType::Float64).to_host<double>();
    const std::vector<double> im = imag(r).astype(DType::Float64).to_host<double>();
    for (std::size_t k = 0; k < re.size(); ++k) {
      got.push_back(re[k]);
      got.push_back(im[k]);
    }
  } else {
    got = r.astype(DType::Float64).to_host<double>();
  }
  if (got.size() != w.values.size()) return "size";
  // Computed values (pad's ramps and means) may round differently in the last bit (a fused
  // multiply-add); moved values are exact either way.
  const DType part = r.dtype() == DType::Complex64 ? DType::Float32 : r.dtype();
  const double tol = part == DType::Float32 ? 4e-7 : is_half(part) ? 4e-3 : 1e-12;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double a = got[i], b = w.values[i];
    if (std::isnan(a) && std::isnan(b)) continue;
    if (std::isinf(b) && a == b) continue;
    if (!(std::abs(a - b) <= tol * std::max(1.0, std::abs(b)))) {
      return "value " + std::to_string(i) + ": " + std::to_string(a) + " != " + std::to_string(b);
    }
  }
  return "";
}


// Runs every case of a table through loom and checks it against NumPy's answer (values, dtype,
// shape; or the exception's type and message). Gives the numbers of value and error cases.
// NumPy's words for an error, as loom says them: a ufunc without a loop for the input types
// names the types, as loom's errors do ("ufunc 'fabs' not supported for the input types
// (complex128), ... casting rule 'safe'"), where NumPy leaves them out and quotes 'safe' twice.
inline bool same_error(const std::string& got, const std::string& want) {
  const std::string types = "not supported for the input types";
  const auto at = want.find(types), tail = got.find(", and the inputs");
  if (at == std::string::npos || tail == std::string::npos || got.compare(0, at + types.size(), want, 0, at + types.size()) != 0) {
    return got == want;
  }
  std::string w = want.substr(at + types.size());
  for (auto q = w.find("''"); q != std::string::npos; q = w.find("''")) w.replace(q, 2, "'");
  return got.substr(tail) == w;
}

using CaseRunner = std::vector<Array> (*)(const ManipCase&);

// skip: cases not run here (a function that needs a GPU, in the host tests).
inline std::pair<int, int> check_numpy_table(const std::string& path, CaseRunner run = run_manipulation,
                                             bool (*skip)(const ManipCase&) = nullptr) {
  int values = 0, errors = 0;
  for (const auto& c : manipulation_cases(path)) {
    if (skip && skip(c)) continue;
    INFO(c.line);
    if (!c.error_type.empty()) {
      const std::string got = error_of([&] {
        for (const Array& r : run(c)) (void)r.eval();
        synchronize();  // (errors found by a kernel are reported here)
      });
      // An index the GPU checks is reported with where it was found (README: errors found by a
      // kernel); NumPy's words come first.
      const std::string want = c.error_type + "|" + c.error_message;
      const std::string gpu_suffix = " (found on the GPU by the kernel that read the index; reported at the next synchronization)";
      INFO(got);
      CHECK((same_error(got, want) || got == want + gpu_suffix));
      ++errors;
      continue;
    }
    const std::vector<Array> r = run(c);
    REQUIRE(r.size() == c.want.size());
    for (std::size_t k = 0; k < r.size(); ++k) CHECK(check_manip(r[k], c.want[k]) == "");
    ++values;
  }
  return {values, errors};
}

}  // namespace loom::test
