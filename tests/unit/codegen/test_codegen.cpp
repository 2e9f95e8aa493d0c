// Fusion partitioning, kernel plans, structural keys, golden generated source, and NVRTC
// compilation (for sm_90, no GPU needed) of every kernel the op cases generate.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/op_cases.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;

namespace {

loom::exec::Prepared prepared(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes);
}

std::vector<loom::codegen::KernelSource> sources(const std::vector<Array>& arrays) {
  std::vector<loom::codegen::KernelSource> out;
  for (const loom::codegen::KernelPlan& kp : prepared(arrays).kernels) {
    out.push_back(loom::codegen::emit_kernel(kp));
  }
  return out;
}

std::string key_of(const Array& a) {
  const auto p = prepared({a});
  REQUIRE(p.kernels.size() == 1);
  return p.kernels[0].key;
}

Array softplus(const Array& x) {
  return loom::maximum(0.0f, x) + loom::log1p(loom::exp(-loom::abs(x)));
}

}  // namespace

TEST_CASE("an elementwise chain is one kernel", "[fusion]") {
  const auto seed = prepared({loom::arange(100'000'000).reshape({1000, -1}).T() * 2});
  REQUIRE(seed.kernels.size() == 1);
  CHECK(seed.kernels[0].leaves.size() == 2);  // the arange generator and the scalar 2
  CHECK(seed.kernels[0].shape == Shape{100000, 1000});
  CHECK(seed.kernels[0].path == loom::codegen::Path::Rows);

  const Array x = loom::empty({4096, 16384}, DType::Float32);
  const auto sp = prepared({softplus(x)});
  REQUIRE(sp.kernels.size() == 1);
  CHECK(sp.kernels[0].path == loom::codegen::Path::Flat);  // contiguous dims collapse to one
  CHECK(sp.kernels[0].vec == 4);
  CHECK(sp.kernels[0].leaves.size() == 2);  // x read once, however often it is used
}

TEST_CASE("several outputs of one shape share one kernel, computing shared work once", "[fusion]") {
  const Array x = loom::empty({1024}, DType::Float32);
  const Array e = loom::exp(x);
  const auto p = prepared({e + 1, e * 2});
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels[0].outputs.size() == 2);
  int exps = 0;
  for (const auto& v : p.kernels[0].values) exps += v.op == loom::detail::Op::Exp;
  CHECK(exps == 1);
}

TEST_CASE("work shared by kernels of different shapes is materialized once", "[fusion]") {
  const Array x = loom::empty({64, 32}, DType::Float32);
  const Array e = loom::exp(x);
  const auto p = prepared({e + 1, (e.T() * 2).reshape({-1})});
  CHECK(p.kernels.size() == 3);
  bool noted = false;
  for (const std::string& n : p.plan.notes) noted = noted || n.find("shared by two kernels") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("fusion off runs every op as its own kernel", "[fusion]") {
  loom::set_fusion(false);
  const Array x = loom::empty({1000}, DType::Float32);
  const auto p = prepared({softplus(x)});
  loom::set_fusion(true);
  CHECK(p.kernels.size() == 6);  // abs, negative, exp, log1p, maximum, add
}

TEST_CASE("a graph that grows without eval is cut into bounded kernels", "[fusion]") {
  Array x = loom::empty({100}, DType::Float32);
  for (int i = 0; i < 1000; ++i) x = x + 1.0f;
  const auto p = prepared({x});
  CHECK(p.kernels.size() >= 4);
  for (const auto& k : p.kernels) CHECK(k.values.size() <= 2 * 256 + 4);
  bool noted = false;
  for (const std::string& n : p.plan.notes) noted = noted || n.find("would exceed 256 ops") != std::string::npos;
  CHECK(noted);
  CHECK_THAT(loom::explain_string({x}), Catch::Matchers::Contains("would exceed 256 ops"));
}

TEST_CASE("reshapes of computed arrays fuse, non-viewable reshapes copy first", "[fusion][reshape]") {
  const Array a = loom::empty({64, 48}, DType::Float32);
  // Merging dims of a computed array: the loop is refined so every read stays affine.
  const auto merged = prepared({(a + 1).reshape({-1}) * loom::empty({64 * 48}, DType::Float32)});
  REQUIRE(merged.kernels.size() == 1);
  for (const auto& l : merged.kernels[0].leaves) CHECK_FALSE(l.unravel);
  // A transposed operand below the merge: still one kernel.
  const auto tr = prepared({(a.T() + 1).reshape({-1})});
  REQUIRE(tr.kernels.size() == 1);
  for (const auto& l : tr.kernels[0].leaves) CHECK_FALSE(l.unravel);
  // A reshape NumPy cannot view copies first: two kernels.
  const auto copied = prepared({a.T().reshape({64, 48}) * 2});
  CHECK(copied.kernels.size() == 2);
}

TEST_CASE("a transposed operand goes through shared-memory tiles", "[fusion]") {
  const Array a = loom::empty({512, 256}, DType::Float32);
  const Array b = loom::empty({256, 512}, DType::Float32);
  const auto p = prepared({a + b.T()});
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels[0].path == loom::codegen::Path::Tiled);
  int tiled = 0;
  for (const auto& l : p.kernels[0].leaves) tiled += l.tiled;
  CHECK(tiled == 1);
  CHECK_THAT(sources({a + b.T()})[0].text, Catch::Matchers::Contains("__shared__ float t"));
  // Not for a plain broadcast or contiguous operands.
  CHECK(prepared({a + loom::empty({256}, DType::Float32)}).kernels[0].path == loom::codegen::Path::Rows);
}

TEST_CASE("a requested view of a computed array needs no kernel of its own", "[fusion]") {
  const Array a = loom::empty({8, 4}, DType::Float32);
  const Array e = loom::exp(a);
  const auto p = prepared({e, e.T()});
  CHECK(p.kernels.size() == 1);
  CHECK(p.plan.view_roots.size() == 1);
}

TEST_CASE("structural keys ignore scalars and sizes, and see everything else", "[keys]") {
  const Array a = loom::empty({1000}, DType::Float32);
  const Array b = loom::empty({3000}, DType::Float32);
  CHECK(key_of(a * 0.5f + 1) == key_of(b * 0.25f + 7));
  CHECK(key_of(a * 0.5f + 1) != key_of(a * 0.5f - 1));
  CHECK(key_of(a * 0.5f) != key_of(loom::empty({1000}, DType::Float64) * 0.5));
  CHECK(key_of(a * 0.5f) != key_of(a.reshape({10, 100}).T() * 0.5f));
  const Array m1 = loom::empty({100, 200}, DType::Float32);
  const Array m2 = loom::empty({300, 700}, DType::Float32);
  CHECK(key_of(m1.T() + 1) == key_of(m2.T() + 1));
  CHECK(key_of(m1 + loom::empty({200}, DType::Float32)) == key_of(m2 + loom::empty({700}, DType::Float32)));
  CHECK(key_of(m1 + loom::empty({200}, DType::Float32)) != key_of(m1 + loom::empty({100, 1}, DType::Float32)));
  // Identical graphs give byte-identical source.
  CHECK(sources({softplus(a)})[0].text == sources({softplus(b)})[0].text);
}

TEST_CASE("generated source matches the golden file", "[golden]") {
  const Array x = loom::empty({4096, 16}, DType::Float32);
  const std::string got = sources({softplus(x)})[0].text;
  const std::string path = std::string(LOOM_SOURCE_DIR) + "/tests/unit/codegen/golden/softplus_f32.cu";
  if (std::getenv("LOOM_UPDATE_GOLDEN")) {
    std::ofstream(path) << got;
  }
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream want;
  want << in.rdbuf();
  CHECK(got == want.str());
  CHECK_THAT(got, Catch::Matchers::Contains("const float v3 = loom::abs(v1);  // absolute"));
}

TEST_CASE("every kernel the op cases generate compiles with NVRTC for sm_90", "[nvrtc][codegen]") {
  std::mt19937_64 rng(7);
  loom::test::NvrtcBatch batch;
  const auto add = [&](const std::vector<Array>& arrays) {
    for (auto kp : prepared(arrays).kernels) {
      batch.add(loom::codegen::emit_kernel(kp));
      if (kp.vec > 1) {
        loom::codegen::drop_vectors(kp);
        batch.add(loom::codegen::emit_kernel(kp));
      }
    }
  };
  for (const loom::test::OpCase& oc : loom::test::op_cases()) {
    for (DType t : loom::test::all_dtypes()) {
      std::vector<Array> in;
      for (int i = 0; i < oc.arity; ++i) in.push_back(loom::empty({6, 70}, i == 0 && oc.arity == 3 ? DType::Bool : t));
      const Array r = loom::test::build_case(oc, t, in);
      if (!r.valid()) continue;
      add({r});
    }
  }
  // Layouts: broadcast, transposed, sliced, flipped, reshaped, 64-bit shapes, generators.
  const Array m = loom::empty({6, 70}, DType::Float32);
  add({m + loom::empty({70}, DType::Float32)});
  add({m + loom::empty({6, 1}, DType::Float32)});
  add({m.T() * 2});
  add({m[{loom::Slice(loom::none, loom::none, 2), loom::Slice(1, loom::none, 3)}] - 1});
  add({m.flip(1) + m});
  add({(m + 1).reshape({-1}) + loom::empty({420}, DType::Float32)});
  add({loom::arange(100).reshape({10, 10}).T() * 2});
  add({loom::linspace(0, 1, 33, true, DType::Float32) + 1});
  add({loom::eye(5, 7, 1, DType::Float16) * 3});
  add({loom::arange(0.0, 1.0, 0.01).astype(DType::BFloat16)});
  add({loom::zeros({3, 5}, DType::Complex128) + std::complex<double>(1, 2)});
  add({m.T().reshape({2, 3, 70}) + 1});
  add({loom::empty({70, 130}, DType::Float16) + loom::empty({130, 70}, DType::Float16).T()});  // tiled
  add({loom::empty({200, 100}, DType::Complex64).T() * loom::empty({100, 200}, DType::Complex64)});
  add({loom::empty({3, 4, 5, 6}, DType::Int16).transpose({2, 0, 3, 1}) + 1});
  add({loom::empty({100, 3}, DType::Float64) * loom::empty({3}, DType::Float64)});
  // Placed pieces in vectors (each vector's guards computed first, then one load or none), and
  // a tile of a 16 MiB operand whose rows are visited broadcast dims first.
  for (DType t : loom::test::all_dtypes()) {
    const Array p = loom::empty({8, 64}, t), q = loom::empty({8, 32}, t);
    add({loom::concatenate({p, q, p.flip(0)}, 1)});
    Array w = p;
    w[{loom::all, loom::Slice(1, 3)}] = 1;
    add({w});
  }
  add({loom::tile(loom::empty({2, 1024, 2048}, DType::Float32), {2, 1, 2}) + 1});
  INFO(batch.size() << " kernels");
  CHECK(batch.size() > 500);
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");  // no dead locals, nothing else NVRTC warns of
  CHECK(batch.compiled() == batch.size());
}

TEST_CASE("32-bit unravelling divides by a multiply and a shift, exactly", "[codegen]") {
  using loom::codegen::divide_by_word;
  using loom::codegen::divisor_word;
  std::mt19937_64 rng(11);
  std::vector<std::int64_t> divisors{1, 2, 3, 5, 7, 10, 100, 641, 4095, 4096, 4097, 65535, 65536, 65537, 1000003};
  for (int k = 1; k < 31; ++k) {
    divisors.push_back(std::int64_t{1} << k);
    divisors.push_back((std::int64_t{1} << k) - 1);
    divisors.push_back((std::int64_t{1} << k) + 1);
  }
  for (int k = 0; k < 2000; ++k) divisors.push_back(2 + static_cast<std::int64_t>(rng() % ((std::uint64_t{1} << 31) - 2)));
  std::int64_t wrong = 0;
  for (std::int64_t d : divisors) {
    if (d >= (std::int64_t{1} << 31)) continue;
    const std::uint64_t w = divisor_word(d);
    std::vector<std::uint32_t> xs{0, 1, 0x7fffffffu, 0x7ffffffeu};
    for (std::int64_t q : {std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, (std::int64_t{1} << 31) / d}) {
      for (std::int64_t e : {-1, 0, 1}) {
        const std::int64_t x = q * d + e;
        if (x >= 0 && x < (std::int64_t{1} << 31)) xs.push_back(static_cast<std::uint32_t>(x));
      }
    }
    for (int k = 0; k < 200; ++k) xs.push_back(static_cast<std::uint32_t>(rng() & 0x7fffffffu));
    for (std::uint32_t x : xs) wrong += divide_by_word(x, w) != x / static_cast<std::uint64_t>(d);
  }
  CHECK(wrong == 0);
  CHECK(divisor_word(1) == 0);
  CHECK_THROWS_AS(divisor_word(std::int64_t{1} << 31), loom::InternalError);
}
