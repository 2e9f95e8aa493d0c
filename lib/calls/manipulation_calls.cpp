// The manipulation functions that need a library call (include/loom/manipulation.hpp): ix_ turns
// bool arrays into their positions (nonzero: a scan and a count, eager as NumPy's).

#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"

namespace loom {

std::vector<Array> ix_(const std::vector<Array>& args) {
  std::vector<Array> out;
  const int nd = static_cast<int>(args.size());
  for (int k = 0; k < nd; ++k) {
    Array x = args[static_cast<std::size_t>(k)];
    if (x.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (x.dtype() == DType::Bool) x = nonzero(x)[0];
    Shape s = Shape::filled(nd, 1);
    s[k] = x.size();
    out.push_back(detail::reshaped(x, s));
  }
  return out;
}

}  // namespace loom
