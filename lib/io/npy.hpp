#pragma once
// .npy bytes in memory (lib/io/npy.cpp), for save/load and for the members of .npz archives
// (lib/io/npz.cpp).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <loom/array.hpp>

namespace loom::detail {

// a's elements in C order, as bytes (evaluated and read back).
std::vector<std::byte> element_bytes(const Array& a);
// What np.save writes for `a`.
std::vector<std::byte> npy_bytes(const Array& a);
// The array in `file` (a whole .npy); errors name `path`.
Array npy_parse(std::span<const std::byte> file, const std::string& path);
std::vector<std::byte> read_file(const std::string& path, const char* op);
void write_file(const std::string& path, std::span<const std::byte> bytes, const char* op);

}  // namespace loom::detail
