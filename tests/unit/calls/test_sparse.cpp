// loom::sparse without a GPU: construction and scipy's validation (exception type and message),
// shapes and dtypes, transposes over the same arrays, conversions, to_dense and products on the
// host path against small hand-computed matrices, and the plan around the SpMV barrier.

#include <catch2/catch.hpp>

#include <complex>
#include <vector>

#include <loom/loom.hpp>

#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::test::WhatContains;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
namespace sp = loom::sparse;

namespace {

// A = [[1, 0, 2, 0],
//      [0, 0, 3, 0],
//      [4, 5, 0, 6]]
const std::vector<double> kDense = {1, 0, 2, 0, 0, 0, 3, 0, 4, 5, 0, 6};
const std::vector<double> kData = {1, 2, 3, 4, 5, 6};
const std::vector<std::int64_t> kIndices = {0, 2, 2, 0, 1, 3};
const std::vector<std::int64_t> kIndptr = {0, 2, 3, 6};

sp::csr_matrix example() {
  return sp::csr_matrix(loom::asarray(kData), loom::asarray(kIndices), loom::asarray(kIndptr), {3, 4});
}

std::vector<std::int32_t> ints(const Array& a) { return a.to_host<std::int32_t>(); }
std::vector<double> doubles(const Array& a) { return a.to_host<double>(); }

}  // namespace

TEST_CASE("csr_matrix from arrays: shape, dtypes, nnz, values", "[sparse]") {
  const sp::csr_matrix a = example();
  CHECK(a.shape() == Shape{3, 4});
  CHECK(a.ndim() == 2);
  CHECK(a.nnz() == 6);
  CHECK(a.dtype() == DType::Float64);
  CHECK(a.format() == sp::Format::csr);
  CHECK(a.index_dtype() == DType::Int32);  // int64 input narrowed, as scipy does when indices fit
  CHECK(a.indptr().dtype() == DType::Int32);
  CHECK_THAT(ints(a.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 3}));
  CHECK_THAT(doubles(a.todense()), Equals(kDense));
  CHECK(a.toarray().shape() == Shape{3, 4});
}

TEST_CASE("from a dense array: CSR, CSC and COO", "[sparse]") {
  const Array dense = loom::asarray(kDense).reshape({3, 4});
  const sp::csr_matrix r(dense);
  CHECK(r.nnz() == 6);
  CHECK_THAT(doubles(r.data()), Equals(kData));
  CHECK_THAT(ints(r.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 3}));
  CHECK_THAT(ints(r.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 6}));

  const sp::csc_matrix c(dense);
  CHECK(c.shape() == Shape{3, 4});
  CHECK_THAT(doubles(c.data()), Equals(std::vector<double>{1, 4, 5, 2, 3, 6}));
  CHECK_THAT(ints(c.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 2}));
  CHECK_THAT(ints(c.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 5, 6}));
  CHECK_THAT(doubles(c.todense()), Equals(kDense));

  const sp::coo_matrix o(dense);
  CHECK_THAT(ints(o.row()), Equals(std::vector<std::int32_t>{0, 0, 1, 2, 2, 2}));
  CHECK_THAT(ints(o.col()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 3}));
  CHECK_THAT(doubles(o.todense()), Equals(kDense));

  const sp::csr_matrix z(loom::zeros({2, 3}, DType::Float32));
  CHECK(z.nnz() == 0);
  CHECK_THAT(ints(z.indptr()), Equals(std::vector<std::int32_t>{0, 0, 0}));
  CHECK_THAT(z.todense().to_host<float>(), Equals(std::vector<float>(6, 0.0f)));
}

TEST_CASE("conversions between formats", "[sparse]") {
  const sp::csr_matrix a = example();
  const sp::csc_matrix c = a.tocsc();
  CHECK(c.shape() == Shape{3, 4});
  CHECK_THAT(doubles(c.data()), Equals(std::vector<double>{1, 4, 5, 2, 3, 6}));
  CHECK_THAT(ints(c.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 2}));
  CHECK_THAT(ints(c.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 5, 6}));

  const sp::csr_matrix back = c.tocsr();
  CHECK_THAT(doubles(back.data()), Equals(kData));
  CHECK_THAT(ints(back.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 0, 1, 3}));
  CHECK_THAT(ints(back.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 6}));

  const sp::coo_matrix o = a.tocoo();
  CHECK_THAT(ints(o.row()), Equals(std::vector<std::int32_t>{0, 0, 1, 2, 2, 2}));
  CHECK(o.col().node() != nullptr);
  CHECK_THAT(ints(c.tocoo().col()), Equals(std::vector<std::int32_t>{0, 0, 1, 2, 2, 3}));
  CHECK_THAT(doubles(c.tocoo().todense()), Equals(kDense));

  // A COO made from CSR knows its row order: tocsr rebuilds only the row pointers.
  const sp::csr_matrix again = o.tocsr();
  CHECK(again.data().node() == a.data().node());
  CHECK_THAT(loom::explain_string({again.indptr()}), Contains("(cusparseXcoo2csr)"));
  CHECK_THAT(ints(again.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 6}));
  CHECK_THAT(loom::explain_string({o.T().tocsr().indptr()}), Contains("cusparseXcoosortByRow"));

  // An unsorted COO with the entries of A: CSR sorts by row, stable within a row.
  const sp::coo_matrix u(loom::asarray(std::vector<double>{6, 3, 1, 4, 2, 5}),
                         {loom::asarray(std::vector<std::int32_t>{2, 1, 0, 2, 0, 2}),
                          loom::asarray(std::vector<std::int32_t>{3, 2, 0, 0, 2, 1})},
                         {3, 4});
  const sp::csr_matrix ur = u.tocsr();
  CHECK_THAT(ints(ur.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 6}));
  CHECK_THAT(ints(ur.indices()), Equals(std::vector<std::int32_t>{0, 2, 2, 3, 0, 1}));
  CHECK_THAT(doubles(ur.data()), Equals(std::vector<double>{1, 2, 3, 6, 4, 5}));
  CHECK_THAT(doubles(ur.todense()), Equals(kDense));
  const sp::csc_matrix uc = u.tocsc();
  CHECK_THAT(ints(uc.indptr()), Equals(std::vector<std::int32_t>{0, 2, 3, 5, 6}));
  CHECK_THAT(doubles(uc.todense()), Equals(kDense));
  CHECK_THAT(doubles(u.todense()), Equals(kDense));
}

TEST_CASE("empty matrices convert and multiply", "[sparse]") {
  const auto i = [](std::vector<std::int32_t> v) { return loom::asarray(v); };
  const sp::csr_matrix a(loom::asarray(std::vector<double>{}), i({}), i({0, 0, 0, 0}), {3, 0});
  CHECK(a.todense().shape() == Shape{3, 0});
  CHECK_THAT(ints(a.tocsc().indptr()), Equals(std::vector<std::int32_t>{0}));
  CHECK_THAT(ints(a.tocoo().tocsr().indptr()), Equals(std::vector<std::int32_t>{0, 0, 0, 0}));
  CHECK_THAT(doubles(a.matmul(loom::zeros({0}))), Equals(std::vector<double>{0, 0, 0}));
  CHECK_THAT(doubles(a.matmul(loom::zeros({0, 2})).copy()), Equals(std::vector<double>(6, 0.0)));
  const sp::csc_matrix e(loom::zeros({0, 4}));
  CHECK(e.nnz() == 0);
  CHECK_THAT(ints(e.indptr()), Equals(std::vector<std::int32_t>{0, 0, 0, 0, 0}));
  CHECK_THAT(ints(e.tocsr().indptr()), Equals(std::vector<std::int32_t>{0}));
  CHECK(e.matmul(loom::ones({4})).shape() == Shape{0});
}

TEST_CASE("transpose reuses the arrays", "[sparse]") {
  const sp::csr_matrix a = example();
  const sp::csc_matrix t = a.T();
  CHECK(t.shape() == Shape{4, 3});
  CHECK(t.indices().node() == a.indices().node());
  CHECK(t.indptr().node() == a.indptr().node());
  CHECK(t.data().node() == a.data().node());
  CHECK_THAT(doubles(t.todense()), Equals(doubles(loom::asarray(kDense).reshape({3, 4}).T().copy())));
  CHECK(t.transpose().shape() == Shape{3, 4});
  const sp::coo_matrix o = a.tocoo();
  CHECK(o.T().row().node() == o.col().node());
  CHECK_THAT(doubles(o.T().todense()), Equals(doubles(t.todense())));
}

TEST_CASE("products with vectors and matrices, every format", "[sparse]") {
  const sp::csr_matrix a = example();
  const Array x = loom::asarray(std::vector<double>{1, 2, 3, 4});
  const std::vector<double> ax = {7, 9, 38};
  CHECK(a.matmul(x).shape() == Shape{3});
  CHECK_THAT(doubles(a.matmul(x)), Equals(ax));
  CHECK_THAT(doubles(a.tocsc().matmul(x)), Equals(ax));
  CHECK_THAT(doubles(a.tocoo().dot(x)), Equals(ax));
  CHECK_THAT(doubles(a * x), Equals(ax));
  CHECK_THAT(doubles(sp::matmul(a, x)), Equals(ax));

  // X = [[1, 0], [2, 1], [3, 0], [4, -1]]: A X = [[7, 0], [9, 0], [38, -1]]
  const Array xm = loom::asarray(std::vector<double>{1, 0, 2, 1, 3, 0, 4, -1}).reshape({4, 2});
  const std::vector<double> axm = {7, 0, 9, 0, 38, -1};
  CHECK(a.matmul(xm).shape() == Shape{3, 2});
  CHECK_THAT(doubles(a.matmul(xm).copy()), Equals(axm));
  CHECK_THAT(doubles(a.tocsc().matmul(xm).copy()), Equals(axm));
  CHECK_THAT(doubles(a.tocoo().matmul(xm).copy()), Equals(axm));
  CHECK_THAT(doubles(a.matmul(xm.T().copy().T()).copy()), Equals(axm));  // a column-major operand
  // A^T y for y of 3: the CSC view of the same arrays.
  CHECK_THAT(doubles(a.T().matmul(loom::asarray(std::vector<double>{1, 1, 1}))),
             Equals(std::vector<double>{5, 5, 5, 6}));
}

TEST_CASE("product dtypes follow promotion, float32 and complex values", "[sparse]") {
  const sp::csr_matrix a = example().astype(DType::Float32);
  CHECK(a.dtype() == DType::Float32);
  const Array x32 = loom::asarray(std::vector<float>{1, 2, 3, 4});
  CHECK(a.matmul(x32).dtype() == DType::Float32);
  CHECK_THAT(a.matmul(x32).to_host<float>(), Equals(std::vector<float>{7, 9, 38}));
  CHECK(a.matmul(loom::asarray(std::vector<double>{1, 2, 3, 4})).dtype() == DType::Float64);
  CHECK(a.matmul(loom::asarray(std::vector<std::int32_t>{1, 2, 3, 4})).dtype() == DType::Float64);

  using C = std::complex<float>;
  const sp::csr_matrix ac = a * C(0, 1);  // i A
  CHECK(ac.dtype() == DType::Complex64);
  const std::vector<C> y = ac.matmul(x32).to_host<C>();
  REQUIRE(y.size() == 3);
  CHECK(y[2] == C(0, 38));
}

TEST_CASE("elementwise operations on the stored values", "[sparse]") {
  const sp::csr_matrix a = example();
  CHECK_THAT(doubles((a * 2).data()), Equals(std::vector<double>{2, 4, 6, 8, 10, 12}));
  CHECK_THAT(doubles((0.5 * a).data()), Equals(std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3}));
  CHECK_THAT(doubles((a / 2).data()), Equals(std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3}));
  CHECK_THAT(doubles((-a).todense()), Equals(doubles(-loom::asarray(kDense))));
  CHECK_THAT(doubles(sp::abs(-a).data()), Equals(kData));
  CHECK_THAT(doubles(a.apply([](const Array& d) { return loom::square(d); }).data()),
             Equals(std::vector<double>{1, 4, 9, 16, 25, 36}));
  CHECK((a * 2).indices().node() == a.indices().node());  // the structure is shared
  CHECK(a.astype(DType::Complex128).dtype() == DType::Complex128);
  CHECK(sp::abs(a.astype(DType::Complex64)).dtype() == DType::Float32);
  CHECK((a.tocsc() * 3.0).format() == sp::Format::csc);
  CHECK((a.tocoo() / 4.0).format() == sp::Format::coo);
  CHECK_THROWS_MATCHES(a.astype(DType::Int32), loom::DTypeError,
                       WhatContains("csr_matrix.apply: data dtype int32 is not supported"));
  CHECK_THROWS_MATCHES(a.apply([](const Array& d) { return d[loom::Slice(0, 2)]; }), loom::ShapeError,
                       WhatContains("csr_matrix.apply: new data of shape (2,) for a matrix that stores (6,) values"));
}

TEST_CASE("construction validates structure and contents", "[sparse][errors]") {
  const auto d = [](std::vector<double> v) { return loom::asarray(v); };
  const auto i = [](std::vector<std::int32_t> v) { return loom::asarray(v); };
  const Array data = d(kData);
  const Array ind = loom::asarray(kIndices);
  using loom::ValueError;
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, ind, i({0, 2, 6}), {3, 4}), ValueError,
                       WhatContains("csr_matrix: index pointer size (3) should be (4)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, i({0, 2, 2}), i({0, 2, 3, 6}), {3, 4}), ValueError,
                       WhatContains("csr_matrix: indices and data should have the same size (3 and 6)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, ind, i({1, 2, 3, 6}), {3, 4}), ValueError,
                       WhatContains("csr_matrix: index pointer should start with 0 (found 1)"));
  CHECK_THROWS_MATCHES(
      sp::csr_matrix(data, ind, i({0, 2, 3, 5}), {3, 4}), ValueError,
      WhatContains("last value of index pointer (5) should equal the size of the index and data arrays (6)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, ind, i({0, 4, 3, 6}), {3, 4}), ValueError,
                       WhatContains("csr_matrix: index pointer values must form a non-decreasing sequence"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, i({0, 2, 2, 0, 1, 4}), loom::asarray(kIndptr), {3, 4}), ValueError,
                       WhatContains("csr_matrix: column index values must be < 4 (found 4)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, i({0, 2, -2, 0, 1, 3}), loom::asarray(kIndptr), {3, 4}), ValueError,
                       WhatContains("csr_matrix: column index values must be >= 0 (found -2)"));
  CHECK_THROWS_MATCHES(sp::csc_matrix(data, i({0, 2, 2, 0, 1, 3}), i({0, 2, 3, 5, 6}), {3, 4}), ValueError,
                       WhatContains("csc_matrix: row index values must be < 3 (found 3)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data.reshape({2, 3}), ind, loom::asarray(kIndptr), {3, 4}), ValueError,
                       WhatContains("data, indices, and indptr should be 1-D"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, ind, loom::asarray(kIndptr), {3, 4, 1}), ValueError,
                       WhatContains("csr_matrix: invalid shape (3, 4, 1)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(i({1, 2, 3, 4, 5, 6}), ind, loom::asarray(kIndptr), {3, 4}), loom::DTypeError,
                       WhatContains("csr_matrix: data dtype int32 is not supported"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(data, ind.astype(DType::Float64), loom::asarray(kIndptr), {3, 4}),
                       loom::DTypeError, WhatContains("csr_matrix: indices must be integers, not float64"));
  // Without the content checks nothing is read back, and nothing is found.
  CHECK_NOTHROW(sp::csr_matrix(data, ind, i({1, 2, 3, 6}), {3, 4}, false));
  // nnz = 0 and empty dimensions are valid.
  CHECK(sp::csr_matrix(d({}), i({}), i({0, 0, 0}), {2, 5}).nnz() == 0);
  CHECK(sp::csr_matrix(d({}), i({}), i({0}), {0, 5}).shape() == Shape{0, 5});

  const auto coo = [&](std::vector<std::int32_t> r, std::vector<std::int32_t> c) {
    return sp::coo_matrix(d({1, 2, 3}), {i(r), i(c)}, {3, 4});
  };
  CHECK(coo({0, 2, 1}, {3, 0, 3}).nnz() == 3);
  CHECK_THROWS_MATCHES(coo({0, 3, 1}, {3, 0, 3}), ValueError,
                       WhatContains("coo_matrix: row index exceeds matrix dimensions (found 3, shape (3, 4))"));
  CHECK_THROWS_MATCHES(coo({0, 2, 1}, {4, 0, 3}), ValueError,
                       WhatContains("coo_matrix: column index exceeds matrix dimensions (found 4, shape (3, 4))"));
  CHECK_THROWS_MATCHES(coo({0, -1, 1}, {3, 0, 3}), ValueError,
                       WhatContains("coo_matrix: negative row index found (-1)"));
  CHECK_THROWS_MATCHES(coo({0, 1, 1}, {3, -5, 3}), ValueError,
                       WhatContains("coo_matrix: negative column index found (-5)"));
  CHECK_THROWS_MATCHES(sp::coo_matrix(d({1, 2}), {i({0, 1, 2}), i({0, 1, 2})}, {3, 4}), ValueError,
                       WhatContains("coo_matrix: row, column, and data array must all be the same length (3, 3, 2)"));
  CHECK_THROWS_MATCHES(sp::csr_matrix(loom::arange(6).astype(DType::Float64)), ValueError,
                       WhatContains("csr_matrix: expected a 2-D array, got shape (6,)"));
}

TEST_CASE("matmul checks shapes and dtypes", "[sparse][errors]") {
  const sp::csr_matrix a = example();
  CHECK_THROWS_MATCHES(a.matmul(loom::ones({3})), loom::ShapeError,
                       WhatContains("csr_matrix.matmul: dimension mismatch: (3, 4) @ (3,)"));
  CHECK_THROWS_MATCHES(a.tocsc().matmul(loom::ones({5, 2})), loom::ShapeError,
                       WhatContains("csc_matrix.matmul: dimension mismatch: (3, 4) @ (5, 2)"));
  CHECK_THROWS_MATCHES(a.matmul(loom::ones({4, 2, 2})), loom::ShapeError,
                       WhatContains("the dense operand must be 1-D or 2-D, got shape (4, 2, 2)"));
  CHECK_THROWS_MATCHES(a * Array(2.0), loom::ShapeError, WhatContains("got shape ()"));
}

TEST_CASE("relu(A @ x + b) is one SpMV barrier and one fused kernel", "[sparse][calls]") {
  const sp::csr_matrix a = example().astype(DType::Float32);
  const Array x = loom::asarray(std::vector<float>{1, -2, 3, -4});
  const Array b = loom::asarray(std::vector<float>{1, 1, -100});
  const Array y = loom::maximum(a.matmul(x) + b, 0.0f);
  const std::string plan = loom::explain_string({y});
  CHECK_THAT(plan, Contains("barrier: library call sparse.matmul (cusparseSpMV CSR, float32 values, int32 indices)"));
  CHECK_THAT(plan, Contains("loom plan: 1 kernel(s)"));
  CHECK_THAT(plan, Contains("output 0 of the library call sparse.matmul (a barrier)"));
  // A x = [1 + 6, 9, 4 - 10 - 24] = [7, 9, -30]
  CHECK_THAT(y.to_host<float>(), Equals(std::vector<float>{8, 10, 0}));
  // SpMM: the operand is fed as a column-major copy, the result read through a transposed view.
  const Array z = a.matmul(loom::ones({4, 3}, DType::Float32)) * 2.0f;
  CHECK_THAT(loom::explain_string({z}), Contains("cusparseSpMM CSR"));
  CHECK_THAT(z.copy().to_host<float>(), Equals(std::vector<float>{6, 6, 6, 6, 6, 6, 30, 30, 30}));
}
