// Index helpers, bit packing and raw/text I/O (indexing.hpp, io.hpp) against NumPy's answers
// (index_cases.txt, tools/gen_index_cases.py): values, dtypes, shapes and errors in NumPy's words;
// the kernels each is built from; large triangles against a direct count; files round-tripped
// through a temporary folder.

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <random>
#include <vector>

#include <loom/loom.hpp>

#include "exec/realize.hpp"
#include "support/index_cases.hpp"
#include "support/kernel_count.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::kernels_of;

TEST_CASE("index helpers, bit packing and raw I/O give NumPy's values, dtypes and errors", "[index_helpers]") {
  const auto [values, errors] = loom::test::check_numpy_table(
      std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/index_cases.txt", loom::test::run_index);
  CHECK(values > 140);
  CHECK(errors > 20);
}

TEST_CASE("index helpers fuse: each result is one kernel", "[index_helpers][fusion]") {
  const Array idx = loom::asarray(std::vector<std::int64_t>{0, 5, 11, 7}).eval();
  const std::vector<Array> rc = loom::unravel_index(idx * 1, {3, 4});
  CHECK(kernels_of(rc[0]) == 1);
  CHECK(kernels_of(rc[1] + rc[0]) == 1);
  CHECK(kernels_of(loom::ravel_multi_index({idx, idx * 2}, {7, 6}, "wrap")) == 1);
  CHECK(kernels_of(loom::ravel_multi_index({idx, idx}, {7, 6}, {"clip", "wrap"}, "F")) == 1);
  for (const Array& t : loom::tril_indices(1000, 3, 700)) CHECK(kernels_of(t) == 1);
  for (const Array& t : loom::triu_indices_from(loom::empty({40, 90}), -2)) CHECK(kernels_of(t) == 1);
  const Array x = loom::empty({64, 100}, DType::Int32);
  CHECK(kernels_of(loom::packbits(x > 3, 1)) == 1);
  CHECK(kernels_of(loom::packbits(x, std::nullopt, "little")) == 1);
  const Array u = loom::empty({64, 13}, DType::UInt8);
  CHECK(kernels_of(loom::unpackbits(u, 0) * 2) == 1);
  CHECK(kernels_of(loom::unpackbits(u, std::nullopt, 50, "little")) == 1);
  Array a = loom::zeros({50, 50}, DType::Float32);
  loom::fill_diagonal(a, Array(2.5f));
  CHECK(kernels_of(a) == 1);
  loom::fill_diagonal(a, loom::asarray(std::vector<float>{1, 2, 3}), true);
  CHECK(a.to_host<float>()[51] == 2.0f);
}

TEST_CASE("index helper kernels compile with NVRTC", "[index_helpers][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const auto add = [&](const Array& a) {
    const std::vector<loom::detail::NodeRef> nodes{a.node()};
    for (const auto& kp : loom::exec::prepare(nodes).kernels) batch.add(loom::codegen::emit_kernel(kp));
  };
  const Array idx = loom::empty({40, 7}, DType::Int32);
  for (const char* order : {"C", "F"}) {
    const Array pos = (loom::arange(280).reshape({40, 7}) % 210).astype(DType::Int16);  // (its bounds are read)
    for (const Array& c : loom::unravel_index(pos * 1, {5, 6, 7}, order)) add(c);
    add(loom::ravel_multi_index({idx, idx.T().T(), idx}, {9, 8, 7}, {"wrap", "clip", "wrap"}, order));
  }
  for (const Array& t : loom::tril_indices(300, -4, 200)) add(t);
  for (const Array& t : loom::triu_indices(200, 7)) add(t);
  for (DType t : loom::test::all_dtypes()) {
    Array a = loom::empty({30, 30}, t);
    loom::fill_diagonal(a, loom::empty({4}, t), true);
    add(a);
    if (loom::is_integer(t) || t == DType::Bool) {
      add(loom::packbits(loom::empty({30, 70}, t), 1, "little"));
      add(loom::packbits(loom::empty({30, 70}, t)));
    }
  }
  const Array u = loom::empty({30, 7, 3}, DType::UInt8);
  for (int axis = 0; axis < 3; ++axis) add(loom::unpackbits(u, axis, 17, axis == 1 ? "little" : "big"));
  add(loom::unpackbits(u));
  INFO(batch.size() << " kernels");
  CHECK(batch.size() >= 30);
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}

TEST_CASE("tril and triu indices of large and skewed grids match a direct count", "[index_helpers]") {
  for (std::int64_t n : {1, 7, 300}) {
    for (std::int64_t m : {1, 5, 257}) {
      for (std::int64_t k : {-400, -9, -1, 0, 2, 31, 400}) {
        for (bool upper : {false, true}) {
          INFO(n << " " << m << " " << k << " " << upper);
          std::vector<std::int64_t> rows, cols;
          for (std::int64_t i = 0; i < n; ++i) {
            for (std::int64_t j = 0; j < m; ++j) {
              if (upper ? j >= i + k : j <= i + k) rows.push_back(i), cols.push_back(j);
            }
          }
          const std::vector<Array> rc = upper ? loom::triu_indices(n, k, m) : loom::tril_indices(n, k, m);
          CHECK(rc[0].to_host<std::int64_t>() == rows);
          CHECK(rc[1].to_host<std::int64_t>() == cols);
        }
      }
    }
  }
}

TEST_CASE("unravel_index and ravel_multi_index undo each other on random positions", "[index_helpers]") {
  std::mt19937_64 rng(5);
  const loom::Shape dims{5, 7, 3, 11};
  std::vector<std::int64_t> flat(500);
  for (auto& v : flat) v = static_cast<std::int64_t>(rng() % 1155);
  const Array f = loom::asarray(flat).reshape({20, 25});
  for (const char* order : {"C", "F"}) {
    const std::vector<Array> c = loom::unravel_index(f, dims, order);
    CHECK(loom::ravel_multi_index(c, dims, "raise", order).reshape({-1}).to_host<std::int64_t>() == flat);
  }
}

TEST_CASE("packbits and unpackbits undo each other along every axis", "[index_helpers]") {
  std::mt19937_64 rng(6);
  std::vector<std::uint8_t> bits(3 * 19 * 5);
  for (auto& b : bits) b = static_cast<std::uint8_t>(rng() % 2);
  const Array x = loom::asarray(bits, {3, 19, 5});
  for (int axis = 0; axis < 3; ++axis) {
    for (const char* order : {"big", "little"}) {
      const Array p = loom::packbits(x, axis, order);
      const Array back = loom::unpackbits(p, axis, x.shape()[axis], order);
      CHECK(back.to_host<std::uint8_t>() == bits);
    }
  }
}

TEST_CASE("tofile and fromfile round-trip binary and text files, frombuffer reads host bytes", "[index_helpers]") {
  const auto dir = loom::test::index_case_dir();
  const std::string bin = (dir / "a.bin").string(), txt = (dir / "a.txt").string();
  const Array a = (loom::arange(12).astype(DType::Float32) * 0.5f - 2.0f).reshape({3, 4});
  loom::tofile(a.T(), bin);  // C order of the transposed view
  CHECK(loom::fromfile(bin, DType::Float32).to_host<float>() == a.T().copy().reshape({-1}).to_host<float>());
  CHECK(std::filesystem::file_size(bin) == 48);
  CHECK(loom::fromfile(bin, DType::Float32, 3, "", 8).to_host<float>() == std::vector<float>{2.0f, -1.5f, 0.5f});
  a.tofile(txt, ", ");
  CHECK(loom::fromfile(txt, DType::Float32, -1, ",").to_host<float>() == a.reshape({-1}).to_host<float>());
  loom::tofile(loom::asarray(std::vector<std::int64_t>{-5, 12, 7}), txt, "\n", "%4d");
  CHECK(loom::fromfile(txt, DType::Int64, -1, " ").to_host<std::int64_t>() == std::vector<std::int64_t>{-5, 12, 7});
  const std::vector<std::int32_t> host{7, -8, 9};
  CHECK(loom::frombuffer(host.data(), host.size() * 4, DType::Int32).to_host<std::int32_t>() == host);
  CHECK(loom::frombuffer(std::as_bytes(std::span(host)), DType::Int16, 2, 4).to_host<std::int16_t>() ==
        std::vector<std::int16_t>{-8, -1});
  CHECK_THROWS_AS(loom::fromfile((dir / "missing.bin").string()), loom::ValueError);
  CHECK_THROWS_WITH(loom::fromfile(txt, DType::Int64, -1, ",", 4), "'offset' argument only permitted for binary files");
  CHECK(loom::asanyarray(a).node() == a.node());
  std::filesystem::remove_all(dir);
}
