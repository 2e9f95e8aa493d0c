#pragma once
// NumPy's constants (np.inf, ...) as C++ doubles.

#include <limits>

namespace loom {

inline constexpr double inf = std::numeric_limits<double>::infinity();  // np.inf

}  // namespace loom
