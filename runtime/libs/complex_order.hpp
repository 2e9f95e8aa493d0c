#pragma once
// NumPy's order of complex numbers, for the searches and run boundaries that compare complex
// values directly (sorts use radix keys: lib/calls/sorting.cpp). Lexicographic on (real, imag),
// with NaNs last: [R + Rj, R + nanj, nan + Rj, nan + nanj]. Shared by nvcc kernels and the host.

#include "runtime/libs/host_device.hpp"

namespace loom::complexorder {

template <class R> LOOM_HD bool nan(R x) { return x != x; }

// a < b in np.sort's order.
template <class R> LOOM_HD bool less(R ar, R ai, R br, R bi) {
  if (ar < br) return !nan(ai) || nan(bi);
  if (ar > br) return nan(bi) && !nan(ai);
  if (ar == br || (nan(ar) && nan(br))) return ai < bi || (nan(bi) && !nan(ai));
  return nan(br);
}

// np.unique's equality (equal_nan=True): equal parts (-0.0 == +0.0), or a NaN in both.
template <class R> LOOM_HD bool same(R ar, R ai, R br, R bi) {
  const bool a_nan = nan(ar) || nan(ai), b_nan = nan(br) || nan(bi);
  if (a_nan || b_nan) return a_nan && b_nan;
  return ar == br && ai == bi;
}

}  // namespace loom::complexorder
