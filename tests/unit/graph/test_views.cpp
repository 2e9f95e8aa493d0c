// Views as index maps (DESIGN.md decision 8): shapes and strides as NumPy gives them, maps
// composed when the graph is built, reshape as a view exactly when NumPy's is.

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "graph/index_map.hpp"
#include "graph/node.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::Shape;
using loom::detail::IndexMap;
using loom::detail::Op;

namespace {
Array buffer(const Shape& shape, loom::DType t = loom::DType::Float32) { return loom::empty(shape, t); }
Shape byte_strides(std::initializer_list<std::int64_t> s) { return Shape(s); }
}  // namespace

TEST_CASE("views of buffers have NumPy's shapes and strides", "[views]") {
  const Array x = buffer({3, 4, 5});  // strides (80, 20, 4)
  CHECK(x.strides() == byte_strides({80, 20, 4}));
  CHECK(x.T().shape() == Shape{5, 4, 3});
  CHECK(x.T().strides() == byte_strides({4, 20, 80}));
  CHECK(x.transpose({1, 0, 2}).strides() == byte_strides({20, 80, 4}));
  CHECK(x.swapaxes(0, 2).shape() == Shape{5, 4, 3});
  const Array s = x.slice(2, 1, loom::none, 2);  // x[:, :, 1::2]
  CHECK(s.shape() == Shape{3, 4, 2});
  CHECK(s.strides() == byte_strides({80, 20, 8}));
  const Array f = x.flip(1);
  CHECK(f.strides() == byte_strides({80, -20, 4}));
  CHECK(x.expand_dims(1).shape() == Shape{3, 1, 4, 5});
  CHECK(x.expand_dims(-1).shape() == Shape{3, 4, 5, 1});
  CHECK(buffer({1, 3, 1}).squeeze().shape() == Shape{3});
  CHECK(buffer({1, 3, 1}).squeeze(2).shape() == Shape{1, 3});
  CHECK(x.broadcast_to({2, 3, 4, 5}).strides() == byte_strides({0, 80, 20, 4}));
  CHECK(x[1].shape() == Shape{4, 5});
  CHECK(x[{loom::all, 2}].shape() == Shape{3, 5});
  CHECK(x[{loom::ellipsis, 1}].shape() == Shape{3, 4});
  CHECK(x[{loom::newaxis, loom::ellipsis, loom::newaxis}].shape() == Shape{1, 3, 4, 5, 1});
  CHECK(x[{-1, loom::Slice(loom::none, loom::none, -1)}].strides() == byte_strides({-20, 4}));
  // Views of buffers stay buffers: no node is added for them.
  CHECK(x.T().node()->op == Op::Buffer);
  CHECK(x.T().node()->storage() == x.node()->storage());
}

TEST_CASE("slices follow Python's slice.indices", "[views]") {
  const Array x = buffer({10});
  using loom::Slice;
  using loom::none;
  CHECK(x[Slice(2, 8)].shape() == Shape{6});
  CHECK(x[Slice(-3, none)].shape() == Shape{3});
  CHECK(x[Slice(none, none, 3)].shape() == Shape{4});
  CHECK(x[Slice(none, none, -1)].shape() == Shape{10});
  CHECK(x[Slice(8, 2, -2)].shape() == Shape{3});
  CHECK(x[Slice(5, 5)].shape() == Shape{0});
  CHECK(x[Slice(20, 30)].shape() == Shape{0});
  CHECK(x[Slice(-100, 100)].shape() == Shape{10});
  CHECK(x[Slice(none, -100, -1)].shape() == Shape{10});
  CHECK(x[Slice(3, none, -1)].shape() == Shape{4});
  CHECK(x[Slice(8, 2, -2)].node()->offset() == 8);
}

TEST_CASE("reshape is a view exactly when NumPy's is", "[views][reshape]") {
  const Array x = buffer({4, 6});
  CHECK(x.reshape({2, 2, 6}).node()->op == Op::Buffer);
  CHECK(x.reshape({24}).node()->op == Op::Buffer);
  CHECK(x.reshape({-1, 3}).shape() == Shape{8, 3});
  CHECK(x.T().reshape({24}).node()->op == Op::Reshape);  // needs a copy, as in NumPy
  CHECK(x.T().reshape({24}).node()->in(0).force_materialize);
  CHECK(x.T().reshape({6, 4}).node()->op == Op::Buffer);  // the same shape: nothing to do
  CHECK(x.T().reshape({6, 2, 2}).node()->op == Op::Buffer);  // splitting a dim is a view
  CHECK(x[{loom::all, loom::Slice(0, 6, 2)}].reshape({12}).node()->op == Op::Buffer);
  CHECK(x.broadcast_to({3, 4, 6}).reshape({12, 6}).node()->op == Op::Reshape);  // NumPy copies too
  CHECK(x.broadcast_to({3, 4, 6}).reshape({3, 24}).node()->op == Op::Buffer);
  // Generators reshape as views; so do computed arrays when the reshape only splits dims.
  const Array a = loom::arange(24);
  CHECK(a.reshape({4, 6}).node()->op == Op::View);
  CHECK(a.reshape({4, 6}).T().node()->op == Op::View);  // composed: one view over arange
  CHECK(a.reshape({4, 6}).T().node()->in(0).op == Op::Arange);
  const Array c = x + 1;
  CHECK(c.reshape({2, 2, 6}).node()->op == Op::View);
  CHECK(c.reshape({24}).node()->op == Op::Reshape);  // merging dims of a computed array
}

TEST_CASE("index maps compose and reshape like strided layouts", "[views][index_map]") {
  // reshape_strides is NumPy's _attempt_nocopy_reshape.
  using loom::detail::reshape_strides;
  CHECK(reshape_strides({4, 6}, {6, 1}, {24}) == Shape{1});
  CHECK(reshape_strides({4, 6}, {6, 1}, {2, 12}) == Shape{12, 1});
  CHECK(!reshape_strides({4, 6}, {1, 4}, {24}).has_value());
  CHECK(reshape_strides({4, 6}, {1, 4}, {4, 2, 3}) == Shape{1, 12, 4});
  CHECK(reshape_strides({2, 1, 3}, {3, 3, 1}, {6}) == Shape{1});
  CHECK(reshape_strides({3, 4}, {0, 1}, {3, 2, 2}) == Shape{0, 2, 1});
  CHECK(!reshape_strides({3, 4}, {0, 1}, {12}).has_value());
  // Composition: transpose of a transpose is the identity.
  IndexMap t;
  t.out_ndim = t.in_ndim = 2;
  t.dim = {1, 0};
  t.coef = {1, 1};
  CHECK(loom::detail::compose(t, t) == IndexMap::identity(2));
  // A slice with step 2 and offset 1, then a flip.
  IndexMap s;
  s.out_ndim = s.in_ndim = 1;
  s.dim[0] = 0;
  s.coef[0] = 2;
  s.offset[0] = 1;
  IndexMap f;
  f.out_ndim = f.in_ndim = 1;
  f.dim[0] = 0;
  f.coef[0] = -1;
  f.offset[0] = 4;
  const IndexMap sf = loom::detail::compose(f, s);  // first flip (o -> 4 - o), then slice
  std::int64_t o = 1, in = 0;
  sf.apply(&o, &in);
  CHECK(in == 1 + 2 * (4 - 1));
}

TEST_CASE("broadcasting follows NumPy", "[views][broadcast]") {
  CHECK(loom::broadcast_shapes({3, 1}, {4}) == Shape{3, 4});
  CHECK(loom::broadcast_shapes({5, 1, 4}, {3, 1}) == Shape{5, 3, 4});
  CHECK(loom::broadcast_shapes({}, {2, 2}) == Shape{2, 2});
  CHECK(loom::broadcast_shapes({0}, {1}) == Shape{0});
  CHECK((buffer({3, 1}) + buffer({4})).shape() == Shape{3, 4});
  const Array b = buffer({4}).broadcast_to({3, 4});
  CHECK(b.strides() == byte_strides({0, 4}));
}

TEST_CASE("creation functions build generator nodes that allocate nothing", "[views][creation]") {
  CHECK(loom::zeros({3, 4}).node()->op == Op::View);
  CHECK(loom::zeros({3, 4}).node()->in(0).op == Op::Constant);
  CHECK(loom::zeros({3, 4}).dtype() == loom::DType::Float64);
  CHECK(loom::full({2}, 7).dtype() == loom::DType::Int64);
  CHECK(loom::full({2}, 7.5f).dtype() == loom::DType::Float32);
  CHECK(loom::full({2}, 7, loom::DType::UInt8).dtype() == loom::DType::UInt8);
  CHECK(loom::arange(10).dtype() == loom::DType::Int64);
  CHECK(loom::arange(0.0, 1.0, 0.25).shape() == Shape{4});
  CHECK(loom::arange(10, 0, -3).shape() == Shape{4});
  CHECK(loom::arange(5, 2).shape() == Shape{0});
  CHECK(loom::arange(0.0, 1.0, 0.1).shape() == Shape{10});
  CHECK(loom::linspace(0, 1, 5).shape() == Shape{5});
  CHECK(loom::eye(3, 4, 1).shape() == Shape{3, 4});
  CHECK(loom::identity(3).node()->op == Op::Eye);
  CHECK(loom::zeros_like(buffer({2, 3}, loom::DType::Int16)).dtype() == loom::DType::Int16);
}
