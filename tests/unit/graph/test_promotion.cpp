// The dtype rules held against NumPy 2.5's own answers (tests/unit/graph/numpy_tables.inc,
// generated on the GPU machine by tools/gen_numpy_tables.py): promote_types, can_cast, every
// ufunc's result dtype or TypeError for every input dtype (pair), and NEP 50 weak scalars.

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include <loom/loom.hpp>

#include "graph/promotion.hpp"
#include "support/test_support.hpp"

namespace {

struct NumpyUnaryRow {
  const char* name;
  const char* results;
};
struct NumpyBinaryRow {
  const char* name;
  const char* results;
};
#include "unit/graph/numpy_tables.inc"

using loom::DType;
using loom::detail::Op;

DType from_code(char c) {
  const char* p = std::strchr(kNumpyOrder, c);
  REQUIRE(p != nullptr);
  return static_cast<DType>(p - kNumpyOrder);  // kNumpyOrder lists the dtypes in enum order
}

const char* code_of(DType t) {
  static char buf[2];
  buf[0] = kNumpyOrder[static_cast<int>(t)];
  return buf;
}

Op op_named(const std::string& name) {
  for (int i = 0; i < loom::detail::num_ops(); ++i) {
    const Op op = static_cast<Op>(i);
    if (name == loom::detail::op_name(op)) return op;
  }
  FAIL("no op named " << name);
  return Op::Add;
}

// loom's result for an op on operands of the given dtypes, as a NumPy type code ('-': error).
char loom_result(Op op, std::initializer_list<DType> in) {
  try {
    DType c = *in.begin();
    for (DType t : in) c = loom::promote_types(c, t);
    const std::vector<DType> v(in);
    return code_of(loom::detail::resolve_op_types(op, c, v).out)[0];
  } catch (const loom::DTypeError&) {
    return '-';
  }
}

}  // namespace

TEST_CASE("the dtype enum is in NumPy's table order", "[promotion]") {
  REQUIRE(std::strlen(kNumpyOrder) == loom::kNumDTypes);
  CHECK(std::string(kNumpyOrder) == "?bhilBHILeEfdFD");
}

TEST_CASE("promote_types matches NumPy for every pair", "[promotion]") {
  const int n = loom::kNumDTypes;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const DType ta = static_cast<DType>(a), tb = static_cast<DType>(b);
      // ml_dtypes' bfloat16 promotion table is not NumPy's; bfloat16 is held against the ufunc
      // tables below, where it behaves as a float16 of its own (bfloat16 + float16 -> float32).
      if (ta == DType::BFloat16 || tb == DType::BFloat16) continue;
      INFO(loom::name(ta) << " with " << loom::name(tb));
      CHECK(code_of(loom::promote_types(ta, tb))[0] == kNumpyPromote[a * n + b]);
      CHECK(loom::can_cast_safe(ta, tb) == (kNumpyCanCastSafe[a * n + b] == '1'));
    }
  }
}

TEST_CASE("every unary ufunc's result dtype matches NumPy", "[promotion]") {
  for (const NumpyUnaryRow& row : kNumpyUnary) {
    const Op op = op_named(row.name);
    for (int a = 0; a < loom::kNumDTypes; ++a) {
      const DType t = static_cast<DType>(a);
      INFO(row.name << "(" << loom::name(t) << ")");
      CHECK(loom_result(op, {t}) == row.results[a]);
    }
  }
}

TEST_CASE("every binary ufunc's result dtype matches NumPy", "[promotion]") {
  const int n = loom::kNumDTypes;
  for (const NumpyBinaryRow& row : kNumpyBinary) {
    const Op op = op_named(row.name);
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        const DType ta = static_cast<DType>(a), tb = static_cast<DType>(b);
        INFO(row.name << "(" << loom::name(ta) << ", " << loom::name(tb) << ")");
        char want = row.results[a * n + b];
        // ml_dtypes gives bitwise/shift ops no bfloat16 loops and NumPy none for float16: both
        // refuse; logical ops accept any dtype in both.
        CHECK(loom_result(op, {ta, tb}) == want);
      }
    }
  }
}

TEST_CASE("an array with a weak C++ scalar promotes as NEP 50 says", "[promotion]") {
  const int n = loom::kNumDTypes;
  for (int a = 0; a < n; ++a) {
    const DType t = static_cast<DType>(a);
    INFO(loom::name(t));
    const auto with = [&](DType weak) {
      return code_of(loom::detail::common_type({t, false}, {weak, true}).dtype)[0];
    };
    // kNumpyWeak holds, per dtype: * True, + 2, + 2.5, + 2.5j
    CHECK(with(DType::Bool) == kNumpyWeak[a * 4 + 0]);
    CHECK(with(DType::Int64) == kNumpyWeak[a * 4 + 1]);
    // ml_dtypes lifts bfloat16 * 2.5 to float32; loom keeps bfloat16, as NumPy keeps float16.
    if (t == DType::BFloat16) {
      CHECK(with(DType::Float64) == 'E');
    } else {
      CHECK(with(DType::Float64) == kNumpyWeak[a * 4 + 2]);
    }
    CHECK(with(DType::Complex128) == kNumpyWeak[a * 4 + 3]);
  }
}

TEST_CASE("a C++ integer that does not fit the array's dtype is refused", "[promotion]") {
  std::mt19937_64 rng(1);
  for (int a = 0; a < loom::kNumDTypes; ++a) {
    const DType t = static_cast<DType>(a);
    INFO(loom::name(t));
    const loom::Array x = loom::zeros({3}, t);
    const bool numpy_raises = kNumpyOverflow300[a] == '1';
    if (numpy_raises) {
      REQUIRE_THROWS_MATCHES(x + 300, loom::ValueError,
                             loom::test::WhatContains("Python integer 300 out of bounds for " +
                                                      std::string(loom::name(t))));
    } else {
      CHECK_NOTHROW(x + 300);
    }
  }
}

TEST_CASE("weak scalars keep the array's precision end to end", "[promotion]") {
  const loom::Array x32 = loom::zeros({4}, DType::Float32);
  CHECK((x32 * 2.5).dtype() == DType::Float32);
  CHECK((loom::zeros({4}, DType::Int32) * 2.5).dtype() == DType::Float64);
  CHECK((loom::zeros({4}, DType::Int8) + 2).dtype() == DType::Int8);
  CHECK((loom::zeros({4}, DType::Float16) * 2.5f).dtype() == DType::Float16);
  CHECK((loom::zeros({4}, DType::Float32) * std::complex<double>(0, 1)).dtype() == DType::Complex64);
  CHECK(loom::maximum(0.0f, x32).dtype() == DType::Float32);
  CHECK((loom::zeros({2}, DType::Int32) / loom::zeros({2}, DType::Int32)).dtype() == DType::Float64);
  CHECK(loom::sin(loom::zeros({2}, DType::Int32)).dtype() == DType::Float64);
  CHECK(loom::where(loom::zeros({4}, DType::Bool), x32, 0).dtype() == DType::Float32);
  CHECK(loom::result_type(x32, loom::zeros({2}, DType::Float64)) == DType::Float64);
}
