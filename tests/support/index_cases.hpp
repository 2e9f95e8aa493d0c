#pragma once
// NumPy's answers for the index helpers, bit packing and the raw/text I/O helpers
// (tests/unit/api/index_cases.txt, written by tools/gen_index_cases.py), run through loom: shared
// by the host tests and the GPU tests. Files go through a temporary folder: fromfile's argument is
// the file's bytes, tofile's result the bytes it wrote; a separator's '_' is a space.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <loom/loom.hpp>

#include "support/math_cases.hpp"

namespace loom::test {

// A folder of this process's own under the system's temporary one.
inline std::filesystem::path index_case_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("loom_index_cases_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::vector<std::uint8_t> bytes_of(const Array& a) { return a.astype(DType::UInt8).to_host<std::uint8_t>(); }

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline std::string separator_of(const ManipArg& a) {
  std::string s = a.word;
  for (char& c : s) c = c == '_' ? ' ' : c;
  return s;
}

inline std::vector<Array> run_index(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  const auto x = [&](std::size_t k) { return value_of(g[k]); };
  const auto axis = [](const ManipArg& a) { return a.kind == 'n' ? std::optional<int>() : static_cast<int>(a.i); };
  if (f == "unravel_index") return unravel_index(x(0), Shape(g[1].list), g[2].word);
  if (f == "ravel_multi_index") {
    ClipModes modes(g[2].word);
    if (g[2].kind == '[') {
      modes.modes.clear();
      for (const ManipArg& m : g[2].items) modes.modes.push_back(m.word);
    }
    return one(ravel_multi_index(arrays_of(g[0]), Shape(g[1].list), modes, g[3].word));
  }
  if (f == "fill_diagonal") {
    Array a = x(0);
    fill_diagonal(a, x(1), g[2].i != 0);
    return one(a);
  }
  if (f == "diag_indices") return diag_indices(g[0].i, g[1].i);
  if (f == "diag_indices_from") return diag_indices_from(x(0));
  if (f == "tril_indices") return tril_indices(g[0].i, g[1].i, opt_int(g[2]));
  if (f == "triu_indices") return triu_indices(g[0].i, g[1].i, opt_int(g[2]));
  if (f == "tril_indices_from") return tril_indices_from(x(0), g[1].i);
  if (f == "triu_indices_from") return triu_indices_from(x(0), g[1].i);
  if (f == "packbits") return one(packbits(x(0), axis(g[1]), g[2].word));
  if (f == "unpackbits") return one(unpackbits(x(0), axis(g[1]), opt_int(g[2]), g[3].word));
  if (f == "asanyarray") return one(asanyarray(x(0)));
  if (f == "frombuffer") {
    const std::vector<std::uint8_t> b = bytes_of(x(0));
    return one(frombuffer(std::as_bytes(std::span(b)), dtype_named(g[1].word), g[2].i, g[3].i));
  }
  if (f == "fromfile") {
    const auto path = index_case_dir() / "in.bin";
    const std::vector<std::uint8_t> b = bytes_of(x(0));
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    return one(fromfile(path.string(), dtype_named(g[1].word), g[2].i, separator_of(g[3]), g[4].i));
  }
  if (f == "tofile") {
    const auto path = index_case_dir() / "out.bin";
    tofile(x(0), path.string(), separator_of(g[1]), g[2].word);
    const std::vector<std::uint8_t> b = read_bytes(path);
    return one(asarray(b));
  }
  throw std::runtime_error("no such function in the index helpers' table: " + f);
}

}  // namespace loom::test
