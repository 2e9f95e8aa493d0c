// Index helpers and bit packing on the GPU: NumPy's answers (index_cases.txt, read from the
// repository root) with outputs poisoned, and each helper on random inputs against the host
// reference evaluator.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/index_cases.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("index helpers, bit packing and raw I/O give NumPy's values on the GPU", "[gpu][index_helpers]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] = loom::test::check_numpy_table("tests/unit/api/index_cases.txt", loom::test::run_index);
  CHECK(values > 140);
  CHECK(errors > 20);
}

TEST_CASE("index helpers on random inputs match the reference", "[gpu][index_helpers]") {
  loom::exec::set_poison_outputs(true);
  std::mt19937_64 rng(611);
  const loom::Shape dims{13, 7, 29};
  const Array flat = loom::remainder(loom::test::random_array(DType::Int64, {40, 50}, rng), Array(13 * 7 * 29)).eval();
  for (const char* order : {"C", "F"}) {
    for (const Array& c : loom::unravel_index(flat, dims, order)) CHECK(loom::test::check_gpu(c) == "");
    const std::vector<Array> c = loom::unravel_index(flat, dims, order);
    CHECK(loom::test::check_gpu(loom::ravel_multi_index(c, dims, "raise", order)) == "");
  }
  const Array r = loom::test::random_array(DType::Int32, {3000}, rng).eval();
  const Array s = loom::test::random_array(DType::Int16, {3000}, rng).eval();
  CHECK(loom::test::check_gpu(loom::ravel_multi_index({r, s}, {1000, 77}, "wrap")) == "");
  CHECK(loom::test::check_gpu(loom::ravel_multi_index({r, s}, {1000, 77}, {"clip", "wrap"}, "F")) == "");
  for (std::int64_t k : {-700, -3, 0, 5, 900}) {
    for (const Array& t : loom::tril_indices(2000, k, 1500)) CHECK(loom::test::check_gpu(t) == "");
    for (const Array& t : loom::triu_indices(1500, k, 2000)) CHECK(loom::test::check_gpu(t) == "");
  }
  for (DType t : {DType::Float32, DType::Int8, DType::Complex64}) {
    Array a = loom::test::random_array(t, {300, 300}, rng).eval();
    loom::fill_diagonal(a, loom::test::random_array(t, {7}, rng).eval());
    CHECK(loom::test::check_gpu(a) == "");
    Array b = loom::test::random_array(t, {40, 40, 40}, rng).eval();
    loom::fill_diagonal(b, Array(3));
    CHECK(loom::test::check_gpu(b) == "");
  }
  // fill_diagonal into an evaluated array that nothing else holds writes into its buffer.
  Array big = loom::zeros({4096, 4096}, DType::Float32).eval();
  const void* before = big.data_ptr();
  loom::fill_diagonal(big, Array(1.0f));
  big = big.eval();
  CHECK(big.data_ptr() == before);
  CHECK(loom::sum(big).item<float>() == 4096.0f);
  const Array x = loom::test::random_array(DType::Int16, {37, 101, 9}, rng).eval();
  const Array u = loom::test::random_array(DType::UInt8, {37, 101, 9}, rng).eval();
  for (const char* order : {"big", "little"}) {
    CHECK(loom::test::check_gpu(loom::packbits(x, std::nullopt, order)) == "");
    CHECK(loom::test::check_gpu(loom::unpackbits(u, std::nullopt, -3, order)) == "");
    for (int axis = 0; axis < 3; ++axis) {
      CHECK(loom::test::check_gpu(loom::packbits(x > 0, axis, order)) == "");
      CHECK(loom::test::check_gpu(loom::unpackbits(u, axis, 11, order)) == "");
    }
  }
}
