#pragma once
// NumPy 2.5's own answers on edge cases (tests/unit/api/numpy_edges.txt, written by
// tools/probe_numpy_edges.py on the GPU machine): "label => dtype shape values" for a result,
// "label => !ExceptionType: message" for an error, and "cmul dtype a b => product" lines of bit
// patterns. check_like_numpy() compares a loom array (or error) with the line of a label.

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

namespace loom::test {

// The table file: under the source tree the tests were built from, else under the current
// directory (the GPU machine runs the binaries from a copy of the checkout's root).
inline std::ifstream open_numpy_edges() {
  const std::string rel = "tests/unit/api/numpy_edges.txt";
#ifdef LOOM_SOURCE_DIR
  if (std::ifstream f(std::string(LOOM_SOURCE_DIR) + "/" + rel); f.good()) return f;
#endif
  return std::ifstream(rel);
}

inline const std::map<std::string, std::string>& numpy_edges() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> t;
    std::ifstream f = open_numpy_edges();
    REQUIRE(f.good());
    std::string line;
    while (std::getline(f, line)) {
      const auto at = line.find(" => ");
      if (at == std::string::npos || line.rfind("cmul ", 0) == 0) continue;
      t[line.substr(0, at)] = line.substr(at + 4);
    }
    return t;
  }();
  return table;
}

inline std::string numpy_says(const std::string& label) {
  const auto& t = numpy_edges();
  const auto it = t.find(label);
  if (it == t.end()) FAIL("no NumPy answer recorded for '" << label << "'");
  return it->second;
}

// One Python literal of a tolist(): True/False, an int, a float (nan, inf), a complex
// ("(1+2j)", "0j", "(nan+nanj)").
inline std::complex<double> parse_python_number(std::string s) {
  if (s == "True") return 1;
  if (s == "False") return 0;
  const auto num = [](const std::string& v) -> double {
    if (v == "nan" || v == "+nan" || v == "-nan") return std::nan("");
    if (v == "inf" || v == "+inf") return HUGE_VAL;
    if (v == "-inf") return -HUGE_VAL;
    return std::strtod(v.c_str(), nullptr);
  };
  if (s.size() > 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);  // "(re+imj)"
  if (!s.empty() && s.back() == 'j') {
    s.pop_back();  // drop the j
    // The sign that starts the imaginary part: the last + or - not at the start or after an e.
    for (std::size_t i = s.size(); i-- > 1;) {
      if ((s[i] == '+' || s[i] == '-') && s[i - 1] != 'e') return {num(s.substr(0, i)), num(s.substr(i))};
    }
    return {0.0, num(s)};
  }
  return num(s);
}

// The values of a tolist() text, flattened in C order.
inline std::vector<std::complex<double>> parse_python_list(const std::string& text) {
  std::vector<std::complex<double>> out;
  std::string tok;
  int paren = 0;
  const auto flush = [&] {
    if (!tok.empty()) out.push_back(parse_python_number(tok));
    tok.clear();
  };
  for (char c : text) {
    if (c == '(') ++paren;
    if (c == ')') --paren;
    if (paren == 0 && (c == '[' || c == ']' || c == ',' || c == ' ')) {
      if (c != ' ' || !tok.empty()) flush();
      continue;
    }
    tok += c;
  }
  flush();
  return out;
}

// NumPy's tuple text of a shape: "()", "(3,)", "(2, 3)".
inline std::string python_shape(const Shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

inline std::vector<std::complex<double>> values_of(const Array& a) {
  return visit_dtype(a.dtype(), [&]<class T>() {
    std::vector<std::complex<double>> v;
    for (const auto& x : a.template to_host<T>()) {
      if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        v.emplace_back(x.real(), x.imag());
      } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        v.emplace_back(static_cast<float>(x));
      } else {
        v.emplace_back(static_cast<double>(x));
      }
    }
    return v;
  });
}

inline bool same_number(std::complex<double> a, std::complex<double> b) {
  const auto eq = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return eq(a.real(), b.real()) && eq(a.imag(), b.imag());
}

// Checks that `make()` gives what NumPy gave for `label`: the same dtype, shape and values, or
// (NumPy raised) a loom::Error whose message contains NumPy's message. signed_zeros: -0.0 and 0.0
// differ too.
inline void check_like_numpy(const std::string& label, const std::function<Array()>& make, bool signed_zeros = false) {
  const std::string want = numpy_says(label);
  INFO("case " << label << " => " << want);
  if (want[0] == '!') {
    const std::string message = want.substr(want.find(": ") + 2);
    try {
      const Array r = make();
      r.eval();
      FAIL("loom returned " << to_string(r) << " where NumPy raised");
    } catch (const loom::Error& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(message));
    }
    return;
  }
  const Array r = make();
  const auto sp1 = want.find(' ');
  const auto sp2 = want.find(')', sp1) + 1;
  CHECK(std::string(name(r.dtype())) == want.substr(0, sp1));
  CHECK(python_shape(r.shape()) == want.substr(sp1 + 1, sp2 - sp1 - 1));
  const auto expect = parse_python_list(want.substr(sp2 + 1));
  const auto got = values_of(r);
  REQUIRE(got.size() == expect.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": loom " << got[i] << ", NumPy " << expect[i]);
    CHECK(same_number(got[i], expect[i]));
    if (signed_zeros && !std::isnan(expect[i].real())) {  // (a NaN's sign: tolist() prints none)
      CHECK(std::signbit(got[i].real()) == std::signbit(expect[i].real()));
    }
  }
}

// power of arrays by an exponent known when the graph is built, against NumPy's answers (its
// float32 and float64 loops take a fast path for a scalar exponent: 0.5 is sqrt, -1 is 1 / x,
// 1 is x, 2 is x * x): the labels of numpy_edges.txt and loom's expression for each.
inline std::vector<std::pair<std::string, std::function<Array()>>> power_cases() {
  const double inf = HUGE_VAL;
  const auto f64 = [](std::vector<double> v) { return asarray(v); };
  return {
      {"power(f32[-inf,-1,-0,0,4,inf,nan], 0.5)",
       [=] { return power(f64({-inf, -1.0, -0.0, 0.0, 4.0, inf, std::nan("")}).astype(DType::Float32), 0.5); }},
      {"power(f64[-inf,-1,-0,4], float64(0.5))",
       [=] { return power(f64({-inf, -1.0, -0.0, 4.0}), full({}, 0.5, DType::Float64)); }},
      {"power(f64[-inf,0,3], 2.0)", [=] { return power(f64({-inf, 0.0, 3.0}), 2.0); }},
      {"power(f64[-inf,0,3], -1.0)", [=] { return power(f64({-inf, 0.0, 3.0}), -1.0); }},
      {"power(f64[-inf,0,3], 1.0)", [=] { return power(f64({-inf, 0.0, 3.0}), 1.0); }},
      {"power(f64[-inf,-0,3], -0.5)", [=] { return power(f64({-inf, -0.0, 3.0}), -0.5); }},
      {"power(f64[-8,-0,3], 1/3)", [=] { return power(f64({-8.0, -0.0, 3.0}), 1.0 / 3); }},
      {"power(i64[1,4], 0.5)", [] { return power(asarray(std::vector<std::int64_t>{1, 4}), 0.5); }},
      {"power(i32[2,4], 2)", [] { return power(asarray(std::vector<std::int32_t>{2, 4}), 2); }},
  };
}

// The cmul lines: complex products with NumPy's bits (dtype, then a, b and the product as hex).
struct ComplexProduct {
  DType dtype;
  std::uint64_t ar, ai, br, bi, re, im;
};
inline std::vector<ComplexProduct> numpy_complex_products() {
  std::vector<ComplexProduct> out;
  std::ifstream f = open_numpy_edges();
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("cmul ", 0) != 0) continue;
    char dt[16] = {};
    char hex[6][17] = {};
    if (std::sscanf(line.c_str(), "cmul %15s %16s %16s %16s %16s => %16s %16s", dt, hex[0], hex[1], hex[2],
                    hex[3], hex[4], hex[5]) != 7) {
      continue;
    }
    const auto h = [&](int i) { return std::strtoull(hex[i], nullptr, 16); };
    out.push_back({std::string(dt) == "complex64" ? DType::Complex64 : DType::Complex128, h(0), h(1), h(2),
                   h(3), h(4), h(5)});
  }
  return out;
}

}  // namespace loom::test
