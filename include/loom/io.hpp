#pragma once
// NumPy's .npy and .npz files. .npy (format versions 1.0, 2.0 and 3.0): save writes what np.save writes, byte
// for byte (little endian, C order; version 1.0 unless the header needs more); load reads any
// version, little or big endian, C or Fortran order (a Fortran-order file becomes a strided view,
// no copy). Every loom dtype; bfloat16, which NumPy lacks, as np.save writes ml_dtypes' bfloat16
// (JAX's): descr '<V2', two-byte records, so a V2 file loads as bfloat16. A truncated, corrupt,
// object-dtype or oversized header gives a ValueError naming the file; nothing is read or
// allocated past what the file holds.

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// Writes `a` to `path` (".npy" is appended when the name lacks it, as np.save does).
void save(const std::string& path, const Array& a);
// What np.load gives for an .npz archive (NumPy's NpzFile): the arrays by name (".npy" dropped),
// and `files`, their names in the archive's order. z["x"] of a name not there is an IndexError
// "x is not a file in the archive" (NumPy's KeyError).
class NpzFile : public std::map<std::string, Array> {
 public:
  std::vector<std::string> files;
  const Array& operator[](const std::string& name) const;
  Array& operator[](const std::string& name);
};

// Reads the array in `path` (a .npy file) onto the current device: load(path). load<NpzFile>(path)
// reads an .npz archive (np.load's answer for one); each refuses the other kind of file.
template <class T = Array>
T load(const std::string& path, LOOM_HERE);
template <>
Array load<Array>(const std::string& path, std::source_location caller);
template <>
NpzFile load<NpzFile>(const std::string& path, std::source_location caller);

// .npz archives: one "<name>.npy" member per array, stored (savez) or deflated with zlib
// (savez_compressed); ".npz" is appended when the name lacks it. load_npz reads NumPy's (and
// any zip of .npy members, ZIP64 ones included) and gives the arrays by name (".npy" dropped).
void savez(const std::string& path, const std::vector<std::pair<std::string, Array>>& arrays);
void savez_compressed(const std::string& path, const std::vector<std::pair<std::string, Array>>& arrays);
NpzFile load_npz(const std::string& path, LOOM_HERE);

// NumPy's raw and text files and buffers (lib/io/raw_io.cpp). frombuffer COPIES the bytes to the
// device (NumPy's is a view of the buffer): count items of dtype (-1: all that the bytes after
// offset hold, which must be a whole number of items) from byte `offset`, a 1-d array. Errors are
// NumPy's ValueErrors ("buffer is smaller than requested size", ...). Native byte order.
[[nodiscard]] Array frombuffer(std::span<const std::byte> buffer, DType dtype = DType::Float64, std::int64_t count = -1,
                               std::int64_t offset = 0, LOOM_HERE);
[[nodiscard]] Array frombuffer(const void* data, std::size_t nbytes, DType dtype = DType::Float64,
                               std::int64_t count = -1, std::int64_t offset = 0, LOOM_HERE);
// np.fromfile: sep "" reads binary items (count -1: as many whole items as the file holds after
// `offset` bytes; fewer than count when the file is shorter, as NumPy's); otherwise text: numbers
// separated by sep (a space in sep matches any run of whitespace), up to count, stopping at the
// first text that is not a number followed by sep (NumPy warns there). The file is read whole.
[[nodiscard]] Array fromfile(const std::string& path, DType dtype = DType::Float64, std::int64_t count = -1,
                             const std::string& sep = "", std::int64_t offset = 0, LOOM_HERE);
// ndarray.tofile: the elements in C order; sep "" raw bytes, else text: each element as Python's
// str (format "%s") or through a printf-style format ("%.3f", "%d"), joined by sep. Also a.tofile(...).
void tofile(const Array& a, const std::string& path, const std::string& sep = "", const std::string& format = "%s");

}  // namespace loom
