// The fingerprint of a graph (what the executable cache is keyed on), and the
// kernel arguments split into fixed words and per-call patches.

#include <bit>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/kernel_plan.hpp"
#include "exec/fingerprint.hpp"
#include "exec/realize.hpp"
#include "graph/node.hpp"

using loom::Array;
using loom::DType;

namespace {

loom::exec::Fingerprint fp(const Array& a, int device = 0) {
  const loom::detail::NodeRef r[] = {a.node()};
  return loom::exec::fingerprint(r, true, 256, device);
}

}  // namespace

TEST_CASE("the fingerprint holds structure, not values or data", "[fingerprint]") {
  const Array x = loom::empty({64, 32}, DType::Float32), y = loom::empty({64, 32}, DType::Float32);
  // Scalar values and which buffer: the same fingerprint.
  CHECK(fp(loom::sum(x * 2.0f, 1)).bytes == fp(loom::sum(y * 3.0f, 1)).bytes);
  // Op, dtype, shape, axis, layout, device: another.
  const std::string base = fp(loom::sum(x * 2.0f, 1)).bytes;
  CHECK(fp(loom::sum(x + 2.0f, 1)).bytes != base);
  CHECK(fp(loom::sum(x.astype(DType::Float64) * 2.0, 1)).bytes != base);
  CHECK(fp(loom::sum(x.reshape({32, 64}) * 2.0f, 1)).bytes != base);
  CHECK(fp(loom::sum(x * 2.0f, 0)).bytes != base);
  CHECK(fp(loom::sum(x.T() * 2.0f, 1)).bytes != base);
  CHECK(fp(loom::sum(x * 2.0f, 1), 1).bytes != base);
  // Nodes are numbered in traversal order, each once: the output first.
  const Array sq = x * x;
  const Array t = sq + sq;
  const loom::exec::Fingerprint f = fp(t);
  REQUIRE(f.nodes.size() == 3);  // add, mul, x
  CHECK(f.nodes[0] == t.node().get());
  CHECK(f.nodes[1] == sq.node().get());
}

TEST_CASE("the fingerprint holds the alignment of each input's data (vector accesses)", "[fingerprint]") {
  // Two buffers of one shape and layout whose data are 16-byte and 4-byte aligned.
  alignas(64) static float data[2048];
  const auto buffer_at = [](float* p) {
    auto storage = std::make_shared<loom::detail::Storage>(p, 1024 * sizeof(float),
                                                           loom::Placement{loom::DeviceKind::Host, -1}, nullptr);
    return Array(loom::detail::make_buffer(storage, DType::Float32, {1024}, {1}, 0));
  };
  const Array a16 = buffer_at(data), b16 = buffer_at(data + 4), a4 = buffer_at(data + 1);
  CHECK(fp(a16 * 2.0f).bytes == fp(b16 * 2.0f).bytes);
  CHECK(fp(a16 * 2.0f).bytes != fp(a4 * 2.0f).bytes);
  // Views one and four elements into a buffer: their maps differ anyway.
  const Array x = loom::empty({4096}, DType::Float32);
  const Array at0 = x[{loom::Slice(0, 1024)}], at4 = x[{loom::Slice(4, 1028)}], at1 = x[{loom::Slice(1, 1025)}];
  // Plans settle vectors from it: 16-byte accesses at offset 0 and 4, none at offset 1.
  const auto vec_of = [](const Array& e) {
    const loom::detail::NodeRef r[] = {e.node()};
    return loom::exec::prepare(r).kernels[0].vec;
  };
  CHECK(vec_of(at0 * 2.0f) == 4);
  CHECK(vec_of(at4 * 2.0f) == 4);
  CHECK(vec_of(at1 * 2.0f) == 1);
  CHECK(vec_of(a16 * 2.0f) == 4);
  CHECK(vec_of(a4 * 2.0f) == 1);
}

TEST_CASE("kernel arguments: fixed words, and patches for pointers and scalar values", "[fingerprint]") {
  const Array x = loom::empty({1000}, DType::Float32);
  const Array e = x * 0.5f + 2.0f;
  const loom::detail::NodeRef r[] = {e.node()};
  const loom::exec::Prepared p = loom::exec::prepare(r);
  const auto& kp = p.kernels[0];
  const auto params = loom::codegen::kernel_params(kp);
  std::vector<const loom::detail::Node*> slots;
  const loom::codegen::StaticArgs st = loom::codegen::pack_static(kp, params, 1, [&](const loom::detail::Node* n) {
    slots.push_back(n);
    return static_cast<int>(slots.size()) - 1;
  });
  REQUIRE(st.words.size() == params.size());
  // The output and input pointers and the two scalars are patched; the size is fixed.
  int outs = 0, ins = 0, scalars = 0;
  for (const loom::codegen::ArgPatch& a : st.patches) {
    CHECK(st.words[static_cast<std::size_t>(a.word)] == 0);
    outs += a.kind == loom::codegen::ParamKind::OutPtr;
    ins += a.kind == loom::codegen::ParamKind::InPtr;
    // Nodes by slot: the input's and the scalars' (no pointer in a patch).
    if (a.kind == loom::codegen::ParamKind::OutPtr) {
      CHECK(a.slot == -1);
    } else {
      CHECK((a.slot >= 0 && a.slot < static_cast<int>(slots.size())));
    }
    scalars += a.kind == loom::codegen::ParamKind::ScalarValue;
  }
  CHECK(outs == 1);
  CHECK(ins == 1);
  CHECK(scalars == 2);
  CHECK(st.patches.size() == 4);
  // Patched, the words equal pack_params' in one step.
  float out_storage[4];
  void* outs_ptr[] = {out_storage};
  const auto data_of = [](const loom::detail::Node* nd) -> const void* {
    return loom::detail::buffer_storage(*nd)->data();
  };
  std::vector<std::uint64_t> words = st.words;
  loom::codegen::apply_patches(words, st.patches, slots, data_of, outs_ptr, {});
  CHECK(words == loom::codegen::pack_params(kp, params, data_of, outs_ptr));
  // The scalars are written as the kernel reads them (doubles for float values).
  int found = 0;
  for (const loom::codegen::ArgPatch& a : st.patches) {
    if (a.kind != loom::codegen::ParamKind::ScalarValue) continue;
    const double v = std::bit_cast<double>(words[static_cast<std::size_t>(a.word)]);
    found += v == 0.5 || v == 2.0;
  }
  CHECK(found == 2);
}
