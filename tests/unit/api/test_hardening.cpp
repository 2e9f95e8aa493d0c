// Faults found from outside, each held for its whole class: no recursion per node or per library
// call (evaluation, destruction, code generation), no assignment to temporaries, invalid dtypes
// refused at the API, host memory exhaustion reported as OutOfMemory, printing that reads only
// what it shows, sparse host paths that bounds-check whatever the matrix was built with.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <type_traits>

#include <loom/loom.hpp>

#include "api/format.hpp"
#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_plan.hpp"
#include "codegen/partition.hpp"
#include "runtime/device.hpp"
#include "support/small_stack.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::test::WhatContains;

namespace {

// Runs f on a thread with a small stack (256 KiB): any recursion per node or per call level
// overflows it long before a chain of 10^6.
void on_small_stack(const std::function<void()>& f) { loom::test::on_small_stack(f, 256 * 1024); }

// 10^6 (the bar); LOOM_TEST_CHAIN overrides it for the sanitizer build, whose 10x
// slower host code makes a chain of 10^5 (still far past any stack) the affordable length.
int chain_length() {
  const char* v = std::getenv("LOOM_TEST_CHAIN");
  return v != nullptr ? std::atoi(v) : 1'000'000;
}

struct Chain {
  const char* name;
  std::function<Array()> start;
  std::function<Array(const Array&)> step;
  std::function<void(const Array&)> check;
};

std::vector<Chain> call_chains() {
  const Array one = loom::ones({1, 1});
  const Array base = loom::asarray(std::vector<std::int64_t>{0, 1});
  loom::sparse::csr_matrix a(loom::asarray(std::vector<float>{1.0f}), loom::asarray(std::vector<std::int32_t>{0}),
                             loom::asarray(std::vector<std::int32_t>{0, 1}), {1, 1});
  const auto is = [](double v) {
    return [v](const Array& x) { CHECK(x.astype(DType::Float64).to_host<double>() == std::vector<double>{v}); };
  };
  return {
      {"matmul", [] { return loom::full({1, 1}, 2.0); }, [one](const Array& x) { return loom::matmul(one, x); }, is(2)},
      {"cumsum", [] { return loom::full({1}, 3.0); }, [](const Array& x) { return loom::cumsum(x); }, is(3)},
      {"cumprod", [] { return loom::full({1}, 3.0); }, [](const Array& x) { return loom::cumprod(x); }, is(3)},
      {"sort", [] { return loom::full({1}, 4.0); }, [](const Array& x) { return loom::sort(x); }, is(4)},
      {"argsort", [] { return loom::zeros({1}, DType::Int64); }, [](const Array& x) { return loom::argsort(x); }, is(0)},
      {"lexsort", [] { return loom::zeros({1}, DType::Int64); }, [](const Array& x) { return loom::lexsort({x}); }, is(0)},
      {"searchsorted", [] { return loom::ones({1}, DType::Int64); },
       [base](const Array& x) { return loom::searchsorted(base, x); }, is(1)},
      {"sparse matmul", [] { return loom::full({1}, 5.0f); }, [a](const Array& x) { return a.matmul(x); }, is(5)},
  };
}

}  // namespace

TEST_CASE("assigning to a temporary Array does not compile", "[hardening]") {
  // x[...] = v on a temporary compiled and did nothing. Now x[...] on a named array is a write
  // target (IndexRef, which writes into x); on a temporary or a const array it is a plain Array,
  // which cannot be assigned to; chained x[i][j] = v writes into the temporary x[i]: refused.
  STATIC_REQUIRE_FALSE(std::is_assignable_v<Array, Array>);
  STATIC_REQUIRE_FALSE(std::is_assignable_v<Array&&, const Array&>);
  STATIC_REQUIRE_FALSE(std::is_assignable_v<Array, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<Array&>()[0]), loom::IndexRef>);
  STATIC_REQUIRE(std::is_assignable_v<decltype(std::declval<Array&>()[0]), float>);
  STATIC_REQUIRE(std::is_assignable_v<decltype(std::declval<Array&>()[std::declval<const Array&>()]), Array>);
  STATIC_REQUIRE_FALSE(std::is_assignable_v<decltype(std::declval<const Array&>()[0]), float>);
  STATIC_REQUIRE_FALSE(std::is_assignable_v<decltype(std::declval<Array&&>()[0]), float>);
  STATIC_REQUIRE_FALSE(std::is_assignable_v<decltype(std::declval<Array&>()[0][1]), float>);
  // A named IndexRef (auto y = x[i]) is an array of its own: y = v rebinds y, as NumPy rebinds
  // the name (tests/unit/api/test_numpy_spelling.cpp).
  STATIC_REQUIRE(std::is_assignable_v<loom::IndexRef&, float>);
  STATIC_REQUIRE(std::is_assignable_v<Array&, Array>);
  STATIC_REQUIRE(std::is_assignable_v<Array&, float>);
  STATIC_REQUIRE(std::is_nothrow_move_assignable_v<Array>);
  Array x = loom::zeros({2});
  x = loom::ones({2});
  CHECK(x.to_host<double>() == std::vector<double>{1, 1});
}

TEST_CASE("chains of 10^6 library calls evaluate and die without recursion", "[hardening][calls]") {
  if (loom::rt::has_gpu()) return;  // the GPU version is tests/gpu/test_hardening_gpu.cpp
  const int n = chain_length();
  for (const Chain& c : call_chains()) {
    INFO(c.name);
    on_small_stack([&] {
      Array x = c.start();
      for (int i = 0; i < n; ++i) x = c.step(x);
      c.check(x);  // evaluates the whole chain on the host
      x = Array();  // and drops it
    });
  }
}

TEST_CASE("a dropped chain of unevaluated calls or ops dies without recursion", "[hardening]") {
  const int n = chain_length();
  on_small_stack([n] {
    Array x = loom::ones({3});
    for (int i = 0; i < n; ++i) x = loom::cumsum(x);
    x = Array();
    Array y = loom::ones({3});
    for (int i = 0; i < n; ++i) y = y + 1;
    y = Array();
  });
}

TEST_CASE("code generation of a kernel of thousands of ops does not recurse per op", "[hardening][codegen]") {
  on_small_stack([] {
    Array x = loom::ones({1000}, DType::Float32);
    for (int i = 0; i < 5000; ++i) x = (i % 2 ? x * 1.0001f : x + 0.5f);
    const loom::detail::NodeRef roots[] = {x.node()};
    loom::codegen::PartitionOptions opts;
    opts.max_kernel_ops = 4096;  // LOOM_MAX_KERNEL_OPS's largest value
    const loom::codegen::Plan plan = loom::codegen::partition(roots, opts);
    REQUIRE(plan.groups.size() == 2);
    std::size_t longest = 0;
    for (const auto& g : plan.groups) {
      const loom::codegen::KernelPlan kp = loom::codegen::plan_kernel(g, plan.materialized);
      REQUIRE(kp.needs_cut.empty());
      const auto src = loom::codegen::emit_kernel(kp);
      longest = std::max(longest, src.text.size());
    }
    CHECK(longest > 4000 * 20);
    // And the host evaluator, through the same graph.
    CHECK(x.size() == 1000);
    CHECK(std::isfinite(x.to_host<float>()[999]));
  });
}

TEST_CASE("a dtype outside the enum is refused where it enters, naming the op", "[hardening][errors]") {
  const auto bad = static_cast<DType>(99);
  const auto invalid = WhatContains("invalid dtype (loom::DType value 99");
  REQUIRE_THROWS_MATCHES(loom::zeros({2}, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::empty({2}, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::full({2}, 1.0, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::ones({2}).astype(bad), loom::DTypeError, invalid);
  const std::vector<std::byte> bytes(16);
  REQUIRE_THROWS_MATCHES(loom::asarray_bytes(bytes.data(), bytes.size(), bad, {2}), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::arange(loom::Scalar::of(0, true), loom::Scalar::of(3, true),
                                      loom::Scalar::of(1, true), bad),
                         loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::linspace(0, 1, 5, true, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::eye(3, 3, 0, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::sum(loom::ones({2}), {}, false, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::mean(loom::ones({2}), {}, false, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::cumsum(loom::ones({2}), 0, bad), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::promote_types(bad, DType::Float32), loom::DTypeError, invalid);
  REQUIRE_THROWS_MATCHES(loom::random::random({2}, bad), loom::DTypeError, invalid);
}

TEST_CASE("item() of a float outside the integer type's range is an error, not undefined", "[hardening]") {
  CHECK_THROWS_MATCHES(Array(1e20).item<std::int32_t>(), loom::ValueError,
                       WhatContains("cannot convert the value 1e+20 to int32"));
  CHECK_THROWS_MATCHES(Array(-1.0).item<std::uint8_t>(), loom::ValueError, WhatContains("to uint8"));
  CHECK_THROWS_MATCHES(Array(std::nan("")).item<std::int64_t>(), loom::ValueError, WhatContains("to int64"));
  CHECK_THROWS_MATCHES(Array(9.3e18).item<std::int64_t>(), loom::ValueError, WhatContains("to int64"));
  CHECK(Array(-9.2e18).item<std::int64_t>() == -9200000000000000000LL);
  CHECK(Array(-0.5).item<std::uint8_t>() == 0);  // truncates into range
  CHECK(Array(255.9).item<std::uint8_t>() == 255);
  CHECK(Array(-128.9).item<std::int8_t>() == -128);
  CHECK(Array(-9223372036854775808.0).item<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
  CHECK(Array(3.7f).astype(DType::Float32).item<std::int32_t>() == 3);
  CHECK(Array(std::complex<double>(2.5, 1)).item<std::int16_t>() == 2);
  CHECK(Array(1e20).item<float>() == 1e20f);
  CHECK(Array(std::int64_t{1} << 40).item<std::int32_t>() == 0);  // integers wrap, as static_cast
}

TEST_CASE("host memory exhaustion is OutOfMemory", "[hardening]") {
  if (loom::rt::has_gpu()) return;  // the device pool's OutOfMemory is tested on the GPU
#ifndef __SANITIZE_ADDRESS__  // AddressSanitizer aborts where operator new would throw bad_alloc
  REQUIRE_THROWS_AS(loom::zeros({std::int64_t{1000000000000000}}).eval(), loom::OutOfMemory);
  REQUIRE_THROWS_AS((loom::ones({1000000, 1}).matmul(loom::ones({1, 1000000}))).eval(), loom::OutOfMemory);
#endif
  REQUIRE_THROWS_AS(loom::empty({std::int64_t{1} << 50}), loom::OutOfMemory);
}

TEST_CASE("printing a large lazy array computes only the elements it shows", "[hardening][format]") {
  // The same text as formatting every element, for summarized shapes of 1 to 4 dims.
  const std::vector<loom::Shape> shapes = {{5000}, {1001}, {40, 60}, {2, 700}, {7, 1, 300}, {9, 8, 7, 6}};
  for (const loom::Shape& s : shapes) {
    INFO(loom::to_string(s));
    const Array x = (loom::arange(s.numel()).reshape(s).astype(DType::Float32) * 0.5f - 3.0f);
    const auto all = x.to_host<float>();
    CHECK(loom::to_string(x) == loom::detail::format_array_repr(all.data(), DType::Float32, s));
  }
  // 10^10 elements: printed at once, without computing (or holding) them.
  const auto t0 = std::chrono::steady_clock::now();
  const std::string big = loom::to_string(loom::ones({100000, 100000}) + 1);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(big ==
        "array([[2., 2., 2., ..., 2., 2., 2.],\n"
        "       [2., 2., 2., ..., 2., 2., 2.],\n"
        "       [2., 2., 2., ..., 2., 2., 2.],\n"
        "       ...,\n"
        "       [2., 2., 2., ..., 2., 2., 2.],\n"
        "       [2., 2., 2., ..., 2., 2., 2.],\n"
        "       [2., 2., 2., ..., 2., 2., 2.]], shape=(100000, 100000))");
}

TEST_CASE("sparse host paths check indices whatever the matrix was built with", "[hardening][sparse]") {
  namespace sp = loom::sparse;
  const auto i32 = [](std::vector<std::int32_t> v) { return loom::asarray(v); };
  const Array data = loom::asarray(std::vector<float>{1, 2, 3});
  // check_contents = false skips the checks when the matrix is built (as in scipy)...
  const sp::csr_matrix bad_col(data, i32({0, 7, 1}), i32({0, 2, 3}), {2, 3}, false);
  const sp::csr_matrix neg_col(data, i32({0, -1, 1}), i32({0, 2, 3}), {2, 3}, false);
  const sp::csr_matrix bad_ptr(data, i32({0, 1, 1}), i32({0, 3, 2}), {2, 3}, false);
  const sp::csr_matrix long_ptr(data, i32({0, 1, 1}), i32({0, 2, 9}), {2, 3}, false);
  const sp::coo_matrix bad_row(data, {i32({0, 5, 1}), i32({0, 1, 2})}, {2, 3}, false);
  // ...and every host path that reads them checks, with scipy's words.
  if (loom::rt::has_gpu()) return;
  CHECK_THROWS_MATCHES(bad_col.todense().eval(), loom::ValueError, WhatContains("column index values must be < 3"));
  CHECK_THROWS_MATCHES(neg_col.todense().eval(), loom::ValueError, WhatContains("index values must be >= 0"));
  CHECK_THROWS_MATCHES(bad_ptr.todense().eval(), loom::ValueError, WhatContains("non-decreasing"));
  CHECK_THROWS_MATCHES(long_ptr.todense().eval(), loom::ValueError, WhatContains("last value of index pointer"));
  CHECK_THROWS_MATCHES(bad_row.todense().eval(), loom::ValueError, WhatContains("row index values must be < 2"));
  CHECK_THROWS_MATCHES(bad_col.tocsc().todense().eval(), loom::ValueError, WhatContains("index values must be < 3"));
  CHECK_THROWS_MATCHES(bad_ptr.tocsc().todense().eval(), loom::ValueError, WhatContains("non-decreasing"));
  CHECK_THROWS_MATCHES(bad_row.tocsr().todense().eval(), loom::ValueError, WhatContains("index values must be < 2"));
  CHECK_THROWS_MATCHES(bad_col.matmul(loom::ones({3}, DType::Float32)).eval(), loom::ValueError,
                       WhatContains("column index values must be < 3"));
}

TEST_CASE("internal invariants are checked in every build, as InternalError", "[hardening][errors]") {
  // A factory called against its contract (lib/api never does): not an assert that Release
  // compiles away, but an InternalError naming the check and where it failed.
  const loom::detail::NodeRef x = loom::ones({2, 3}).node();
  CHECK_THROWS_MATCHES(loom::detail::make_elementwise(loom::detail::Op::Add, DType::Float64, {3, 2}, x, x),
                       loom::InternalError, WhatContains("an elementwise input has the op's shape"));
  CHECK_THROWS_MATCHES(loom::detail::make_reshape(x, {7}), loom::InternalError,
                       WhatContains("a reshape keeps the element count"));
  loom::detail::IndexMap two = loom::detail::IndexMap::identity(2), three = loom::detail::IndexMap::identity(3);
  CHECK_THROWS_MATCHES(loom::detail::compose(two, three), loom::InternalError, WhatContains("index_map.cpp"));
}
