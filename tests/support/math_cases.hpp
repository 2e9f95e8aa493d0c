#pragma once
// NumPy's answers for the math, logic and difference functions (tests/unit/api/math_cases.txt,
// written by tools/gen_math_cases.py), run through loom: shared by the host tests and the GPU
// tests (which read the file relative to the repository root).

#include <optional>
#include <stdexcept>
#include <vector>

#include <loom/loom.hpp>

#include "support/manipulation_cases.hpp"

namespace loom::test {

// An argument that NumPy takes as a number or an array: a C++ double or int (weak), or the array.
inline Array value_of(const ManipArg& a) {
  if (a.kind == 'f') return Array(a.f);
  if (a.kind == 'i') return Array(a.i);
  return a.array;
}
inline std::optional<Array> optional_array(const ManipArg& a) {
  if (a.kind == 'n') return std::nullopt;
  return value_of(a);
}
inline std::optional<double> optional_double(const ManipArg& a) {
  if (a.kind == 'n') return std::nullopt;
  return a.kind == 'i' ? static_cast<double>(a.i) : a.f;
}
inline double number(const ManipArg& a) { return a.kind == 'i' ? static_cast<double>(a.i) : a.f; }

inline std::vector<Array> run_math(const ManipCase& c) {
  const auto& g = c.args;
  const std::string& f = c.fn;
  const auto one = [](Array a) { return std::vector<Array>{std::move(a)}; };
  const auto x = [&](std::size_t k) { return value_of(g[k]); };
  if (f == "isclose") return one(isclose(x(0), x(1), number(g[2]), number(g[3]), g[4].i != 0));
  if (f == "allclose") return one(Array(allclose(x(0), x(1), number(g[2]), number(g[3]), g[4].i != 0)));
  if (f == "array_equal") return one(Array(array_equal(x(0), x(1), g[2].i != 0)));
  if (f == "array_equiv") return one(Array(array_equiv(x(0), x(1))));
  if (f == "radians") return one(radians(x(0)));
  if (f == "degrees") return one(degrees(x(0)));
  if (f == "deg2rad") return one(deg2rad(x(0)));
  if (f == "rad2deg") return one(rad2deg(x(0)));
  if (f == "fabs") return one(fabs(x(0)));
  if (f == "sinc") return one(sinc(x(0)));
  if (f == "fix") return one(fix(x(0)));
  if (f == "signbit") return one(signbit(x(0)));
  if (f == "isreal") return one(isreal(x(0)));
  if (f == "iscomplex") return one(iscomplex(x(0)));
  if (f == "isneginf") return one(isneginf(x(0)));
  if (f == "isposinf") return one(isposinf(x(0)));
  if (f == "real_if_close") return one(real_if_close(x(0)));
  if (f == "angle") return one(angle(x(0), g[1].i != 0));
  if (f == "nan_to_num") return one(nan_to_num(x(0), number(g[1]), optional_double(g[2]), optional_double(g[3])));
  if (f == "heaviside") return one(heaviside(x(0), x(1)));
  if (f == "logaddexp") return one(logaddexp(x(0), x(1)));
  if (f == "logaddexp2") return one(logaddexp2(x(0), x(1)));
  if (f == "float_power") return one(float_power(x(0), x(1)));
  if (f == "spacing") return one(spacing(x(0)));
  if (f == "modf" || f == "frexp") {
    const auto [p, q] = f == "modf" ? modf(x(0)) : frexp(x(0));
    return {p, q};
  }
  if (f == "nextafter") return one(nextafter(x(0), x(1)));
  if (f == "fmod") return one(fmod(x(0), x(1)));
  if (f == "ldexp") return one(ldexp(x(0), x(1)));
  if (f == "gcd") return one(gcd(x(0), x(1)));
  if (f == "lcm") return one(lcm(x(0), x(1)));
  if (f == "asin") return one(asin(x(0)));
  if (f == "acos") return one(acos(x(0)));
  if (f == "atan") return one(atan(x(0)));
  if (f == "asinh") return one(asinh(x(0)));
  if (f == "acosh") return one(acosh(x(0)));
  if (f == "atanh") return one(atanh(x(0)));
  if (f == "atan2") return one(atan2(x(0), x(1)));
  if (f == "pow") return one(pow(x(0), x(1)));
  if (f == "bitwise_invert") return one(bitwise_invert(x(0)));
  if (f == "bitwise_left_shift") return one(bitwise_left_shift(x(0), x(1)));
  if (f == "bitwise_right_shift") return one(bitwise_right_shift(x(0), x(1)));
  if (f == "concat") return one(concat(arrays_of(g[0]), opt_int(g[1])));
  if (f == "permute_dims") return one(permute_dims(x(0), Shape(g[1].list)));
  if (f == "matrix_transpose") return one(matrix_transpose(x(0)));
  if (f == "diff") {
    return one(diff(x(0), static_cast<int>(g[1].i), static_cast<int>(g[2].i), optional_array(g[3]), optional_array(g[4])));
  }
  if (f == "ediff1d") return one(ediff1d(x(0), optional_array(g[1]), optional_array(g[2])));
  if (f == "cross") {
    return one(cross(x(0), x(1), static_cast<int>(g[2].i), static_cast<int>(g[3].i), static_cast<int>(g[4].i)));
  }
  if (f == "trapezoid") return one(trapezoid(x(0), optional_array(g[1]), number(g[2]), static_cast<int>(g[3].i)));
  if (f == "bartlett") return one(bartlett(g[0].i));
  if (f == "blackman") return one(blackman(g[0].i));
  if (f == "hamming") return one(hamming(g[0].i));
  if (f == "hanning") return one(hanning(g[0].i));
  if (f == "polyval") return one(polyval(x(0), x(1)));
  if (f == "polyder") return one(polyder(x(0), static_cast<int>(g[1].i)));
  if (f == "polyint") return one(polyint(x(0), static_cast<int>(g[1].i), number(g[2])));
  if (f == "histogram" || f == "histogram_bin_edges") {
    std::optional<std::pair<double, double>> range;
    if (g[2].kind != 'n') range = std::pair{number(g[2]), number(g[3])};
    if (f == "histogram_bin_edges") return one(histogram_bin_edges(x(0), g[1].i, range));
    HistogramOptions o;
    o.range = range;
    o.weights = optional_array(g[4]);
    o.density = g[5].i != 0;
    const auto [n, edges] = g[1].kind == 'i' ? histogram(x(0), g[1].i, o) : histogram(x(0), x(1), o);
    return {n, edges};
  }
  if (f == "digitize") return one(digitize(x(0), x(1), g[2].i != 0));
  const auto axis = [&](const ManipArg& a) { return a.kind == 'n' ? std::optional<int>() : static_cast<int>(a.i); };
  const auto dtype = [&](const ManipArg& a) { return a.kind == 'n' ? std::optional<DType>() : dtype_named(a.word); };
  if (f == "cumulative_sum") return one(cumulative_sum(x(0), axis(g[1]), dtype(g[2]), g[3].i != 0));
  if (f == "cumulative_prod") return one(cumulative_prod(x(0), axis(g[1]), dtype(g[2]), g[3].i != 0));
  throw std::runtime_error("no such function in the math table: " + f);
}

}  // namespace loom::test
