#pragma once
// NumPy's constants (np.nan, np.inf, np.pi, np.e, np.euler_gamma) as C++ doubles: weak scalars
// like any C++ number (x_f32 * loom::pi stays float32).
//
// Under `using namespace loom`, a bare `nan` names both loom::nan and C's ::nan(const char*)
// (from <math.h>): the compiler reports the ambiguity instead of silently taking the function;
// write loom::nan (or `using loom::nan;`).

#include <limits>

namespace loom {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();  // np.nan
inline constexpr double inf = std::numeric_limits<double>::infinity();  // np.inf
inline constexpr double pi = 3.141592653589793;                          // np.pi
inline constexpr double e = 2.718281828459045;                           // np.e
inline constexpr double euler_gamma = 0.5772156649015329;                // np.euler_gamma

}  // namespace loom
