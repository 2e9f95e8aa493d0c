#pragma once
// Every elementwise op of the table as a test case: how to build it from loom's public API and
// which input values keep it meaningful. The CPU tests compile every kernel these generate; the
// GPU tests run them on every dtype against the reference evaluator.

#include <functional>
#include <string>
#include <vector>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

namespace loom::test {

struct OpCase {
  std::string name;
  int arity;
  std::function<Array(const std::vector<Array>&)> build;
  Range range = Range::Any;
};

inline std::vector<OpCase> op_cases() {
  using V = const std::vector<Array>&;
  std::vector<OpCase> c;
  const auto u = [&](std::string n, Array (*f)(const Array&), Range r = Range::Any) {
    c.push_back({std::move(n), 1, [f](V a) { return f(a[0]); }, r});
  };
  const auto b = [&](std::string n, Array (*f)(const Array&, const Array&), Range r = Range::Any) {
    c.push_back({std::move(n), 2, [f](V a) { return f(a[0], a[1]); }, r});
  };
  u("negative", loom::negative);
  u("positive", loom::positive);
  u("absolute", loom::abs);
  u("sign", loom::sign);
  u("sqrt", loom::sqrt, Range::Positive);
  u("cbrt", loom::cbrt);
  u("square", loom::square, Range::Small);
  u("reciprocal", loom::reciprocal, Range::Positive);
  u("exp", loom::exp, Range::Small);
  u("exp2", loom::exp2, Range::Small);
  u("expm1", loom::expm1, Range::Unit);
  u("log", loom::log, Range::Positive);
  u("log2", loom::log2, Range::Positive);
  u("log10", loom::log10, Range::Positive);
  u("log1p", loom::log1p, Range::Positive);
  u("sin", loom::sin);
  u("cos", loom::cos);
  u("tan", loom::tan, Range::Unit);
  u("arcsin", loom::arcsin, Range::Unit);
  u("arccos", loom::arccos, Range::Unit);
  u("arctan", loom::arctan);
  u("sinh", loom::sinh, Range::Small);
  u("cosh", loom::cosh, Range::Small);
  u("tanh", loom::tanh, Range::Small);
  u("arcsinh", loom::arcsinh);
  u("arccosh", loom::arccosh, Range::Positive);
  u("arctanh", loom::arctanh, Range::Unit);
  u("floor", loom::floor);
  u("ceil", loom::ceil);
  u("trunc", loom::trunc);
  u("rint", loom::rint);
  u("isnan", loom::isnan);
  u("isinf", loom::isinf);
  u("isfinite", loom::isfinite);
  u("logical_not", loom::logical_not);
  u("invert", loom::invert);
  u("real", loom::real);
  u("imag", loom::imag);
  u("conjugate", loom::conj);
  c.push_back({"copy", 1, [](V a) { return a[0].copy(); }, Range::Any});
  b("add", loom::add);
  b("subtract", loom::subtract);
  b("multiply", loom::multiply);
  b("true_divide", loom::true_divide, Range::Positive);
  b("floor_divide", loom::floor_divide, Range::Small);
  b("remainder", loom::remainder, Range::Small);
  b("power", loom::power, Range::Small);
  b("maximum", loom::maximum);
  b("minimum", loom::minimum);
  b("fmax", loom::fmax);
  b("fmin", loom::fmin);
  b("arctan2", loom::arctan2);
  b("hypot", loom::hypot);
  b("copysign", loom::copysign);
  b("equal", loom::equal, Range::Small);
  b("not_equal", loom::not_equal, Range::Small);
  b("less", loom::less, Range::Small);
  b("less_equal", loom::less_equal, Range::Small);
  b("greater", loom::greater, Range::Small);
  b("greater_equal", loom::greater_equal, Range::Small);
  b("logical_and", loom::logical_and, Range::Small);
  b("logical_or", loom::logical_or, Range::Small);
  b("logical_xor", loom::logical_xor, Range::Small);
  b("bitwise_and", loom::bitwise_and);
  b("bitwise_or", loom::bitwise_or);
  b("bitwise_xor", loom::bitwise_xor);
  b("left_shift", loom::left_shift, Range::Small);
  b("right_shift", loom::right_shift, Range::Small);
  c.push_back({"where", 3, [](V a) { return loom::where(a[0], a[1], a[2]); }, Range::Small});
  return c;
}

// The op applied to arrays of dtype t (where: a bool condition first), or an invalid Array when
// NumPy refuses the op for t (the promotion tests check that refusal).
inline Array build_case(const OpCase& oc, DType t, const std::vector<Array>& inputs) {
  try {
    return oc.build(inputs);
  } catch (const DTypeError&) {
    return Array();
  }
}

}  // namespace loom::test
