#pragma once
// NumPy's answers for indexing reads and writes (tests/unit/api/indexing_cases.txt, written by
// tools/gen_indexing_cases.py), parsed, and run through loom: shared by the host tests and the
// GPU tests (which read the file relative to the repository root, their working directory).

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <loom/loom.hpp>

namespace loom::test {

struct IndexingCase {
  std::string kind;  // read, write, error, at, aterror, bincount, bincounterror
  std::string line;
  Shape shape;
  std::vector<Index> index;
  std::string op;  // write: set, add, ...
  Array value;     // write
  Shape out_shape; // read
  std::vector<std::int64_t> want;
  std::string error_type, error_message;
  // bincount: x, the weights (none: "-"), minlength and the result's dtype
  std::vector<std::int64_t> bins_x;
  std::optional<std::vector<std::int64_t>> weights;
  std::int64_t minlength = 0;
  std::string dtype;
};

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

inline Shape parse_shape(const std::string& s) {
  Shape out;
  if (s.empty()) return out;
  for (const std::string& d : split(s, 'x')) out.push_back(std::stoll(d));
  return out;
}

inline std::vector<std::int64_t> parse_values(const std::string& s) {
  std::vector<std::int64_t> out;
  if (s.empty()) return out;
  for (const std::string& v : split(s, ',')) out.push_back(std::stoll(v));
  return out;
}

inline Array int_array(const Shape& shape, const std::vector<std::int64_t>& values) {
  return asarray(std::span<const std::int64_t>(values), shape);
}

inline Array bool_array(const Shape& shape, const std::vector<std::int64_t>& values) {
  return int_array(shape, values) != 0;
}

// "<shape>:<values>"
inline Array parse_array(const std::string& s, bool mask) {
  const std::size_t colon = s.find(':');
  const Shape shape = parse_shape(s.substr(0, colon));
  const auto values = parse_values(s.substr(colon + 1));
  return mask ? bool_array(shape, values) : int_array(shape, values);
}

inline std::vector<Index> parse_index(const std::string& s) {
  std::vector<Index> out;
  if (s.empty()) return out;
  for (const std::string& e : split(s, ';')) {
    switch (e[0]) {
      case 'n': out.emplace_back(newaxis); break;
      case 'e': out.emplace_back(ellipsis); break;
      case 'i': out.emplace_back(std::stoll(e.substr(1))); break;
      case 's': {
        const auto p = split(e.substr(1), ',');
        const auto opt = [](const std::string& v) -> std::optional<std::int64_t> {
          if (v.empty()) return std::nullopt;
          return std::stoll(v);
        };
        out.emplace_back(Slice(opt(p[0]), opt(p[1]), opt(p[2])));
        break;
      }
      case 'a': out.emplace_back(parse_array(e.substr(1), false)); break;
      case 'm': out.emplace_back(parse_array(e.substr(1), true)); break;
      default: throw std::runtime_error("bad index entry " + e);
    }
  }
  return out;
}

// The lines of a table of NumPy's answers, comments and blank lines left out.
inline std::vector<std::string> data_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}

// Every case of the file; the index field of an empty index is "" between two spaces.
inline std::vector<IndexingCase> indexing_cases(const std::string& path) {
  std::vector<IndexingCase> out;
  for (const std::string& line : data_lines(path)) {
    IndexingCase c;
    c.line = line;
    const auto words = split(line, ' ');
    c.kind = words[0];
    if (c.kind.starts_with("bincount")) {
      c.bins_x = parse_values(words[1]);
      if (words[2] != "-") c.weights = parse_values(words[2]);
      c.minlength = std::stoll(words[3]);
      if (c.kind == "bincount") {
        c.dtype = words[5];
        c.want = parse_values(words.size() > 6 ? words[6] : "");
      }
    }
    if (c.kind == "bincount") {
      out.push_back(std::move(c));
      continue;
    }
    if (c.kind.ends_with("error")) {
      const std::string rest = line.substr(line.find("-> ") + 3);
      c.error_type = rest.substr(0, rest.find('|'));
      c.error_message = rest.substr(rest.find('|') + 1);
    }
    if (c.kind == "bincounterror") {
      out.push_back(std::move(c));
      continue;
    }
    c.shape = parse_shape(words[1]);
    c.index = parse_index(words[2]);
    if (c.kind == "read") {
      c.out_shape = parse_shape(words[4]);
      c.want = parse_values(words.size() > 5 ? words[5] : "");
    } else if (c.kind == "write" || c.kind == "at" || c.kind == "aterror") {
      c.op = words[3];
      c.value = parse_array(words[4], false);
      if (c.kind != "aterror") c.want = parse_values(words[6]);
    }
    out.push_back(std::move(c));
  }
  return out;
}

inline bool has_int_array(const std::vector<Index>& index) {
  for (const Index& e : index) {
    if (const auto* a = std::get_if<IndexArray>(&e.value()); a && is_integer(Array(a->node).dtype())) return true;
  }
  return false;
}

// x[index] = v through at(); x[index] op= v through at() too, except with integer arrays, where
// NumPy's x[idx] op= v (the last duplicate wins) is the operator on x[idx].
inline Array apply_write(const IndexingCase& c, Array x) {
  if (c.op == "set") return x.at(c.index).set(c.value);
  if (has_int_array(c.index)) {
    IndexRef target(x, c.index);
    if (c.op == "add") std::move(target) += c.value;
    else if (c.op == "max") x = x.at(c.index).set(maximum(x.index(c.index), c.value));
    else throw std::runtime_error("bad op " + c.op);
    return x;
  }
  if (c.op == "add") return x.at(c.index).add(c.value);
  if (c.op == "subtract") return x.at(c.index).subtract(c.value);
  if (c.op == "multiply") return x.at(c.index).multiply(c.value);
  if (c.op == "min") return x.at(c.index).min(c.value);
  if (c.op == "max") return x.at(c.index).max(c.value);
  throw std::runtime_error("bad op " + c.op);
}

// np.<op>.at(x, index, value): the loom function of that name (Accumulate how).
inline Array apply_at(const IndexingCase& c, Array x, Accumulate how = Accumulate::Deterministic) {
  const std::span<const Index> idx(c.index);
  if (c.op == "add") add_at(x, idx, c.value, how);
  else if (c.op == "subtract") subtract_at(x, idx, c.value, how);
  else if (c.op == "multiply") multiply_at(x, idx, c.value, how);
  else if (c.op == "minimum") minimum_at(x, idx, c.value, how);
  else if (c.op == "maximum") maximum_at(x, idx, c.value, how);
  else throw std::runtime_error("bad ufunc " + c.op);
  return x;
}

// np.bincount of a bincount case.
inline Array apply_bincount(const IndexingCase& c, Accumulate how = Accumulate::Deterministic) {
  const Array x = int_array({static_cast<std::int64_t>(c.bins_x.size())}, c.bins_x);
  std::optional<Array> w;
  if (c.weights) w = int_array({static_cast<std::int64_t>(c.weights->size())}, *c.weights).astype(DType::Float64);
  return bincount(x, w, c.minlength, how);
}

// "<NumPy's exception name>|<message>" of what f throws, "no error" when it returns.
template <class F> std::string error_of(F&& f) {
  try {
    f();
  } catch (const IndexError& e) {
    return std::string("IndexError|") + e.what();
  } catch (const ValueError& e) {
    return std::string("ValueError|") + e.what();
  } catch (const DTypeError& e) {
    return std::string("TypeError|") + e.what();
  } catch (const ShapeError& e) {  // NumPy's ValueError
    return std::string("ValueError|") + e.what();
  }
  return "no error";
}

inline Array arange_of(const Shape& shape) {
  return arange(shape.numel()).astype(DType::Int64).reshape(shape);
}

}  // namespace loom::test
