// NumPy's signatures (issue 30, item 7) on the GPU: NumPy's answers (signature_cases.txt, read
// from the repository root) with outputs poisoned; and random inputs against the host reference
// evaluator: reductions with where= and initial= across dtypes and axes, repeat with host and
// device counts, pad with constants per side, choose's modes, take_along_axis with axis none.

#include <catch2/catch.hpp>

#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/signature_cases.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

// Values in [-20, 20] (unsigned: [0, 40]) of dtype t, evaluated.
Array random_values(const Shape& shape, DType t, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> v(loom::is_unsigned_int(t) ? 0 : -20, 20);
  std::vector<double> out(static_cast<std::size_t>(shape.numel()));
  for (double& x : out) x = v(rng) / (loom::is_floating(t) ? 4.0 : 1.0);
  return loom::asarray(std::span<const double>(out), shape).astype(t).eval();
}

Array random_mask(const Shape& shape, std::mt19937_64& rng) {
  std::bernoulli_distribution keep(0.6);
  std::vector<double> out(static_cast<std::size_t>(shape.numel()));
  for (double& x : out) x = keep(rng) ? 1.0 : 0.0;
  return loom::asarray(std::span<const double>(out), shape).astype(DType::Bool).eval();
}

const DType kDTypes[] = {DType::Int8, DType::Int32, DType::Int64, DType::UInt8, DType::Float32, DType::Float64};

}  // namespace

TEST_CASE("NumPy's signatures give NumPy's values on the GPU", "[gpu][signatures]") {
  loom::exec::set_poison_outputs(true);
  const auto [values, errors] =
      loom::test::check_numpy_table("tests/unit/api/signature_cases.txt", loom::test::run_signature);
  CHECK(values > 60);
  CHECK(errors > 20);
}

TEST_CASE("gpu reductions with where= and initial= match the reference evaluator", "[gpu][signatures]") {
  std::mt19937_64 rng(7);
  const Shape shape{37, 129};
  for (DType t : kDTypes) {
    const Array x = random_values(shape, t, rng);
    const Array keep = random_mask(shape, rng), cols = random_mask({129}, rng);
    for (const loom::Axes& axis : {loom::Axes{}, loom::Axes(0), loom::Axes(1)}) {
      INFO(std::string(loom::name(t)));
      CHECK(loom::test::check_gpu(loom::sum(x, {.axis = axis, .where = keep})) == "");
      CHECK(loom::test::check_gpu(loom::sum(x, {.axis = axis, .where = cols, .initial = 3})) == "");
      CHECK(loom::test::check_gpu(loom::prod(x.astype(DType::Float64) / 16.0, {.axis = axis, .where = keep})) == "");
      CHECK(loom::test::check_gpu(loom::max(x, {.axis = axis, .where = keep, .initial = 1})) == "");
      CHECK(loom::test::check_gpu(loom::min(x, {.axis = axis, .keepdims = true, .where = cols, .initial = 9})) == "");
      CHECK(loom::test::check_gpu(loom::mean(x, {.axis = axis, .where = keep})) == "");
      CHECK(loom::test::check_gpu(loom::var(x, {.axis = axis, .ddof = 1, .where = keep}), 1e-5, 1e-6) == "");
      CHECK(loom::test::check_gpu(loom::std(x, {.axis = axis, .where = cols}), 1e-5, 1e-6) == "");
      CHECK(loom::test::check_gpu(loom::any(x, {.axis = axis, .where = keep})) == "");
      CHECK(loom::test::check_gpu(loom::alltrue(x, {.axis = axis, .where = keep})) == "");
    }
  }
}

TEST_CASE("gpu repeat, pad, choose and take_along_axis in NumPy's signatures match the reference", "[gpu][signatures]") {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> count(0, 4);
  for (DType t : kDTypes) {
    INFO(std::string(loom::name(t)));
    const Array x = random_values({53, 17}, t, rng);
    std::vector<std::int64_t> counts(53);
    for (auto& c : counts) c = count(rng);
    CHECK(loom::test::check_gpu(loom::repeat(x, counts, 0) * 2) == "");
    const Array device_counts = loom::asarray(std::span<const std::int64_t>(counts));
    const Array r = loom::repeat(x, device_counts, 0);
    CHECK(loom::test::check_gpu(r) == "");
    CHECK(r.shape() == loom::repeat(x, counts, 0).shape());
    CHECK(loom::test::check_gpu(loom::pad(x, {2, 3}, {.constant_values = {{-1.0, 4.0}, {7.0, 1.0}}})) == "");
    CHECK(loom::test::check_gpu(loom::tile(x, 3)) == "");
    const Array pick = random_values({53, 17}, DType::Int32, rng);
    for (loom::TakeMode m : {loom::TakeMode::Wrap, loom::TakeMode::Clip}) {
      CHECK(loom::test::check_gpu(loom::choose(pick, {x, x * 2, x.T().T() + 1}, m)) == "");
    }
    const Array flat = loom::remainder(loom::abs(random_values({200}, DType::Int64, rng)), 53 * 17);
    CHECK(loom::test::check_gpu(loom::take_along_axis(x, flat, std::nullopt)) == "");
  }
}
