#pragma once
// NumPy's .npy and .npz files. .npy (format versions 1.0, 2.0 and 3.0): save writes what np.save writes, byte
// for byte (little endian, C order; version 1.0 unless the header needs more); load reads any
// version, little or big endian, C or Fortran order (a Fortran-order file becomes a strided view,
// no copy). Every loom dtype; bfloat16, which NumPy lacks, as np.save writes ml_dtypes' bfloat16
// (JAX's): descr '<V2', two-byte records, so a V2 file loads as bfloat16. A truncated, corrupt,
// object-dtype or oversized header gives a ValueError naming the file; nothing is read or
// allocated past what the file holds.

#include <map>
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

}  // namespace loom
