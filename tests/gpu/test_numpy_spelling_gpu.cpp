// NumPy's spellings of issue 28 (items 8 and 9) on the GPU, against the host reference evaluator
// and NumPy 2.5's values (/work/.device/1/numpy_probe.txt), outputs poisoned: arange with a
// dtype (the first two values stored in it, the rest added in it and wrapping: the generated
// kernel's 32- and 64-bit integer paths), x.sort() and x[i].sort() in place, x.fill(v), and
// loom::array's values. (The same without a GPU: tests/unit/api/test_numpy_spelling.cpp.)

#include <catch2/catch.hpp>

#include <functional>
#include <utility>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"

using loom::Array;
using loom::DType;
using I64 = std::vector<std::int64_t>;

namespace {
I64 ints(const Array& a) { return a.astype(DType::Int64).to_host<std::int64_t>(); }
}  // namespace

TEST_CASE("arange with a dtype on the GPU is NumPy's fill", "[gpu][spelling]") {
  // Each built fresh for its check: the reference evaluates the graph, the GPU the same graph.
  const std::vector<std::pair<const char*, std::function<Array()>>> cases = {
      {"arange(300, int8)", [] { return loom::arange(300, DType::Int8); }},
      {"arange(0.5, 4, 1.5, int64)", [] { return loom::arange(0.5, 4, 1.5, DType::Int64); }},
      {"arange(1.5, int32)", [] { return loom::arange(1.5, DType::Int32); }},
      {"arange(5, float32)", [] { return loom::arange(5, DType::Float32); }},
      {"arange(0, 70000, 3, uint16)", [] { return loom::arange(0, 70000, 3, DType::UInt16); }},
      {"arange(10, -10, -3, int16)", [] { return loom::arange(10, -10, -3, DType::Int16); }},
      {"arange(3, complex64)", [] { return loom::arange(3, DType::Complex64); }},
      {"arange(2, bool)", [] { return loom::arange(2, DType::Bool); }},
  };
  for (const auto& [what, make] : cases) {
    INFO(what);
    CHECK(loom::test::check_gpu(make()) == "");
  }
  const I64 wrapped = ints(loom::arange(300, DType::Int8));
  CHECK(wrapped[127] == 127);
  CHECK(wrapped[128] == -128);
  CHECK(wrapped[299] == 43);
  CHECK(ints(loom::arange(0.5, 4, 1.5, DType::Int64)) == I64{0, 2, 4});
  CHECK(ints(loom::arange(1.5, DType::Int32)) == I64{0, 1});
  // Fused into a consumer, the same values.
  CHECK(ints(loom::arange(300, DType::Int8) * 1) == wrapped);
}

TEST_CASE("x.sort(), x[i].sort() and x.fill(v) work in place on the GPU", "[gpu][spelling]") {
  loom::exec::set_poison_outputs(true);
  Array x = loom::array({5, 3, 9, 1, 7}).eval();
  const Array before = x;
  x.sort();
  CHECK(ints(x) == I64{1, 3, 5, 7, 9});
  CHECK(ints(before) == I64{5, 3, 9, 1, 7});
  Array m = loom::array({{3, 1, 2}, {9, 7, 8}}).eval();
  m[1].sort();
  CHECK(ints(m) == I64{3, 1, 2, 7, 8, 9});
  m.fill(4);
  CHECK(ints(m) == I64(6, 4));
  m[0].fill(-2.5);  // cast as setitem: -2
  CHECK(ints(m) == I64{-2, -2, -2, 4, 4, 4});
  const Array f = loom::array({{1.5, 2}, {3, 4}}, DType::Float32);
  CHECK(loom::test::check_gpu(f * 2) == "");
}
