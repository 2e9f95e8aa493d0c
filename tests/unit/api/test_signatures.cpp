// NumPy's signatures for existing functions (issue 30, item 7) against NumPy's answers
// (signature_cases.txt, tools/gen_signature_cases.py): values, dtypes and errors; the C++
// spellings NumPy's calls become (braced lists, an int, a pair, nested blocks, named options);
// and the fusion each keeps: a where= is one reduction kernel, a repeat or pad of known size
// stays lazy and feeds its consumer.

#include <catch2/catch.hpp>

#include <filesystem>

#include <loom/loom.hpp>

#include "support/kernel_count.hpp"
#include "support/signature_cases.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::kernels_of;

namespace {

const std::string kCases = std::string(LOOM_SOURCE_DIR) + "/tests/unit/api/signature_cases.txt";

std::vector<std::int64_t> ints(const Array& a) { return a.astype(DType::Int64).to_host<std::int64_t>(); }

}  // namespace

TEST_CASE("NumPy's signatures give NumPy's values, dtypes and errors", "[signatures]") {
  const auto [values, errors] = loom::test::check_numpy_table(kCases, loom::test::run_signature);
  CHECK(values > 60);
  CHECK(errors > 20);
}

TEST_CASE("NumPy's calls spelled in C++: braced lists, an int, a pair", "[signatures]") {
  const Array a = loom::arange(6);
  CHECK(ints(loom::delete_(a, {2, 5})) == std::vector<std::int64_t>{0, 1, 3, 4});
  CHECK(ints(loom::delete_(a, {2})) == std::vector<std::int64_t>{0, 1, 3, 4, 5});
  CHECK(ints(loom::delete_(a, 2)) == std::vector<std::int64_t>{0, 1, 3, 4, 5});
  CHECK(ints(loom::insert(a, {1, 1}, Array(9))) == std::vector<std::int64_t>{0, 9, 9, 1, 2, 3, 4, 5});
  CHECK(ints(loom::delete_(a, a > 3)) == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(ints(loom::repeat(loom::arange(3), {2, 0, 1})) == std::vector<std::int64_t>{0, 0, 2});
  CHECK(ints(loom::tile(loom::arange(2), 3)) == std::vector<std::int64_t>{0, 1, 0, 1, 0, 1});
  const Array p = loom::pad(loom::arange(4).reshape({2, 2}), {1, 2});
  CHECK(p.shape() == loom::Shape{5, 5});
  CHECK(loom::pad(loom::arange(4).reshape({2, 2}), {{1, 2}, {0, 0}}).shape() == loom::Shape{5, 2});
  CHECK(loom::pad(loom::arange(4).reshape({2, 2}), 1).shape() == loom::Shape{4, 4});
  const Array idx = loom::test::int_array({2}, {3, 0});
  CHECK(ints(loom::take_along_axis(a.reshape({2, 3}), idx, std::nullopt)) == std::vector<std::int64_t>{3, 0});
  CHECK(ints(loom::take_along_axis(a, idx)) == std::vector<std::int64_t>{3, 0});  // axis -1, as NumPy 2.3
  Array dst = loom::zeros({3}, DType::Int32);
  loom::copyto(dst, loom::ones({3}, DType::Float64), "unsafe");
  CHECK(ints(dst) == std::vector<std::int64_t>{1, 1, 1});
  loom::copyto(dst, loom::full({3}, loom::Scalar::of(7.0, false), DType::Float64), "unsafe", a.slice(0, 0, 3) > 0);
  CHECK(ints(dst) == std::vector<std::int64_t>{1, 7, 7});
  CHECK_THROWS_AS(loom::copyto(dst, loom::ones({3}, DType::Float64)), loom::DTypeError);  // same_kind, the default
}

TEST_CASE("block of any depth from nested braces", "[signatures]") {
  const Array a = loom::arange(4).reshape({2, 2}), b = loom::arange(2).reshape({2, 1}), c = loom::arange(3).reshape({1, 3});
  CHECK(loom::block({{a, b}, {c}}).shape() == loom::Shape{3, 3});
  CHECK(loom::block({{{a}}, {{a}}}).shape() == loom::Shape{2, 2, 2});
  CHECK(loom::block({a, b}).shape() == loom::Shape{2, 3});
  const std::vector<std::vector<Array>> rows{{a, b}, {c}};  // the old spellings still convert
  CHECK(loom::block(rows).shape() == loom::Shape{3, 3});
  CHECK(loom::block(std::vector<Array>{a, b}).shape() == loom::Shape{2, 3});
  CHECK_THROWS_WITH(loom::block({{a, b}, c}),
                    "List depths are mismatched. First element was at depth 2, but there is an element at depth 1 (arrays[1])");
}

TEST_CASE("where= and initial= on the reductions, by name, fused", "[signatures]") {
  const Array x = loom::arange(12).reshape({3, 4}).astype(DType::Float32);
  const Array keep = (x > 2.0f) & (x < 9.0f);
  const Array s = loom::sum(x, {.axis = 1, .where = keep});
  CHECK(kernels_of(s) == 1);  // the where is the reduction's prologue
  CHECK(ints(s) == std::vector<std::int64_t>{3, 4 + 5 + 6 + 7, 8});
  CHECK(ints(x.sum({.axis = 0, .initial = 100})) == std::vector<std::int64_t>{112, 115, 118, 121});
  CHECK(loom::max(x, {.where = keep, .initial = -1}).item<float>() == 8.0f);
  CHECK(loom::mean(x, {.axis = 1, .where = keep}).to_host<float>() == std::vector<float>{3.0f, 5.5f, 8.0f});
  CHECK(kernels_of(loom::mean(x, {.axis = 1, .where = keep})) == 1);
  CHECK_THROWS_AS(loom::mean(x, {.initial = 1}), loom::DTypeError);
  CHECK_THROWS_WITH(loom::min(x, {.where = keep}),
                    "reduction operation 'minimum' does not have an identity, so to use a where mask one has to specify 'initial'");
}

TEST_CASE("repeat and pad of known size stay lazy and fuse into what reads them", "[signatures][fusion]") {
  const Array x = loom::arange(6).astype(DType::Float32).eval();
  CHECK(kernels_of(loom::repeat(x, {1, 0, 2, 1, 1, 3}) * 2 + 1) == 1);
  CHECK(kernels_of(loom::pad(x * 2, {1, 2}, {.constant_values = {{-1.0, 5.0}}}) + 1) == 1);
  CHECK(kernels_of(loom::choose(loom::arange(6) % 4, {x, x * 2, x * 3}, loom::TakeMode::Wrap)) == 1);
}

TEST_CASE("load<NpzFile> reads an .npz archive as np.load does", "[signatures]") {
  const auto dir = std::filesystem::temp_directory_path() / "loom_sig_npz";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "two.npz").string();
  loom::savez(path, {{"b", loom::arange(3)}, {"a", loom::ones({2}, DType::Float32)}});
  const loom::NpzFile z = loom::load<loom::NpzFile>(path);
  CHECK(z.files == std::vector<std::string>{"b", "a"});
  CHECK(ints(z["b"]) == std::vector<std::int64_t>{0, 1, 2});
  CHECK(z["a"].dtype() == DType::Float32);
  CHECK_THROWS_WITH(z["c"], "c is not a file in the archive");
  CHECK_THROWS_WITH(loom::load(path), Catch::Matchers::Contains("load<loom::NpzFile>"));
  const std::string one = (dir / "one.npy").string();
  loom::save(one, loom::arange(2));
  CHECK(ints(loom::load<Array>(one)) == std::vector<std::int64_t>{0, 1});
  CHECK_THROWS_AS(loom::load<loom::NpzFile>(one), loom::ValueError);
}
