// Reads of one array a few elements apart (a stencil's neighbours) share one pointer
// (codegen::Leaf::share): the kernel reads them from the lead's row pointer at a constant shift,
// and on the vector path takes their lanes from the lead's vector. Only reads of one storage with
// the same strides share; the fingerprint tells views of one array from views of two. Every
// kernel compiles with NVRTC (sm_90) with no warning.

#include <algorithm>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/fingerprint.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Slice;
using loom::codegen::KernelPlan;
using loom::codegen::LeafKind;

namespace {

std::vector<KernelPlan> plans(const Array& a) {
  const std::vector<loom::detail::NodeRef> nodes{a.node()};
  return loom::exec::prepare(nodes).kernels;
}

// (share, shift) of each buffer leaf, in leaf order.
std::vector<std::pair<int, int>> shares(const KernelPlan& kp) {
  std::vector<std::pair<int, int>> s;
  for (const auto& l : kp.leaves) {
    if (l.kind == LeafKind::Buffer) s.emplace_back(l.share, l.shift);
  }
  return s;
}

int shared(const KernelPlan& kp) {
  const auto s = shares(kp);
  return static_cast<int>(std::count_if(s.begin(), s.end(), [](const auto& p) { return p.first >= 0; }));
}

std::string source(const KernelPlan& kp) {
  return loom::codegen::emit_kernel(kp).text;
}

}  // namespace

TEST_CASE("the heat step's centre, left, right and base reads share one pointer", "[codegen][place]") {
  const Array u = loom::empty({64, 256}, DType::Float32);
  const Array step = loom::test::heat_step(u);  // held: the plan's node table points into its graph
  const auto kp = plans(step);
  REQUIRE(kp.size() == 1);
  // Six reads of u: the centre leads; left (-1), right (+1) and the base outside the boxes (0)
  // share its pointer; the rows above and below (a row apart) keep their own.
  int lead = -1;
  std::vector<int> got_shifts;
  for (int j = 0; j < static_cast<int>(kp[0].leaves.size()); ++j) {
    const auto& l = kp[0].leaves[static_cast<std::size_t>(j)];
    if (l.kind != LeafKind::Buffer || l.share < 0) continue;
    CHECK((lead < 0 || lead == l.share));
    lead = l.share;
    got_shifts.push_back(l.shift);
  }
  std::sort(got_shifts.begin(), got_shifts.end());
  CHECK(got_shifts == std::vector<int>{-1, 0, 1});
  REQUIRE(lead >= 0);
  CHECK(kp[0].leaves[static_cast<std::size_t>(lead)].idx[0].c0 == 0);  // the aligned read leads
  CHECK(shared(kp[0]) == 3);
  // Vectors, though two reads are one element off a vector: their lanes come from the centre's.
  CHECK(kp[0].vec == 4);
  const auto address = [&](const loom::detail::Node* n) -> const void* {
    return loom::detail::buffer_storage(*n)->data();
  };
  void* out = const_cast<void*>(address(kp[0].nodes[static_cast<std::size_t>(kp[0].leaves[static_cast<std::size_t>(lead)].slot)]));
  CHECK(loom::codegen::vector_aligned(kp[0], address, std::span<void* const>(&out, 1)));
  const std::string src = source(kp[0]);
  CHECK_THAT(src, Catch::Matchers::Contains(fmt::format("= b{} + (-1);", lead)));
  CHECK_THAT(src, Catch::Matchers::Contains(fmt::format("= b{} + (1);", lead)));
  CHECK_THAT(src, Catch::Matchers::Contains(fmt::format("x{}.v[3]", lead)));
  CHECK_THAT(loom::codegen::to_string(kp[0]), Catch::Matchers::Contains("pointer -1"));
}

TEST_CASE("only reads of one storage with equal strides within a vector share", "[codegen]") {
  const Array x = loom::empty({1000}, DType::Float32), y = loom::empty({1000}, DType::Float32);
  const Slice head(0, -1), tail(1, loom::none);
  // x[1:] - x[:-1]: the read at offset 0 leads, the other is one element on.
  auto kp = plans(x[{tail}] - x[{head}]);
  REQUIRE(kp.size() == 1);
  CHECK(shares(kp[0]) == std::vector<std::pair<int, int>>{{1, 1}, {-1, 0}});
  // Two arrays of the same layout: no sharing.
  CHECK(shared(plans(x[{tail}] - y[{head}])[0]) == 0);
  // A shift of a whole vector (4 float32) or more: its own, aligned, vector.
  CHECK(shared(plans(x[{Slice(4, loom::none)}] - x[{Slice(0, -4)}])[0]) == 0);
  CHECK(shared(plans(x[{Slice(3, loom::none)}] - x[{Slice(0, -3)}])[0]) == 1);
  // int8 vectors are 16 wide: a shift of 15 still shares.
  const Array b = loom::empty({1000}, DType::Int8);
  CHECK(shared(plans(b[{Slice(15, loom::none)}] + b[{Slice(0, -15)}])[0]) == 1);
  // Different strides (a transposed read beside a plain one) do not share.
  const Array m = loom::empty({64, 64}, DType::Float32);
  CHECK(shared(plans(m + m.T())[0]) == 0);
  // A shifted read whose guard no unshifted read has keeps its own pointer: in a 1-d write,
  // x[:-2] and x[2:] are read inside the box and x itself outside it.
  Array v = x;
  v[{Slice(1, -1)}] = x[{Slice(0, -2)}] + x[{Slice(2, loom::none)}];
  kp = plans(v);
  REQUIRE(kp.size() == 1);
  CHECK(shared(kp[0]) == 0);
}

TEST_CASE("the fingerprint tells views of one array from views of two", "[fingerprint]") {
  const Array x = loom::empty({1000}, DType::Float32), y = loom::empty({1000}, DType::Float32);
  const Slice head(0, -1), tail(1, loom::none);
  const auto fp = [](const Array& a) {
    const loom::detail::NodeRef r[] = {a.node()};
    return loom::exec::fingerprint(r, true, 256, 0).bytes;
  };
  CHECK(fp(x[{tail}] - x[{head}]) != fp(x[{tail}] - y[{head}]));
  CHECK(fp(x[{tail}] - x[{head}]) == fp(y[{tail}] - y[{head}]));
  CHECK(fp(x[{tail}] - y[{head}]) == fp(y[{tail}] - x[{head}]));
  // Past 64 storages (numbered through a map): the same answers.
  std::vector<Array> xs, ys;
  for (int k = 0; k < 70; ++k) {
    xs.push_back(loom::empty({8}, DType::Float32));
    ys.push_back(loom::empty({8}, DType::Float32));
  }
  // sum over k of v[k][1:] - v[k][:-1], the last head read from another array when `cross`
  const auto chain = [&](const std::vector<Array>& v, const std::vector<Array>* cross) {
    Array a = v[0][{tail}] - v[0][{head}];
    for (std::size_t k = 1; k < 70; ++k) a = a + v[k][{tail}] - (k == 69 && cross ? (*cross)[k] : v[k])[{head}];
    return a;
  };
  CHECK(fp(chain(xs, nullptr)) == fp(chain(ys, nullptr)));
  CHECK(fp(chain(xs, nullptr)) != fp(chain(xs, &ys)));
}

TEST_CASE("kernels with shared reads compile for every dtype", "[codegen][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const Slice head(0, -1), tail(1, loom::none);
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::empty({1000}, t);
    const Array u = loom::empty({16, 64}, t);
    const Array d = t == DType::Bool ? (x[{tail}] ^ x[{head}]) : (x[{tail}] - x[{head}]);
    const Array h = t == DType::Bool ? u : loom::test::heat_step(u);
    for (const Array& a : {d, h}) {
      for (const KernelPlan& kp : plans(a)) batch.add(loom::codegen::emit_kernel(kp));
    }
  }
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");
}
