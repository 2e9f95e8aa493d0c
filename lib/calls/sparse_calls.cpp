#include "calls/sparse_calls.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>

#include "calls/sparse_host.hpp"
#include "graph/call.hpp"
#include "runtime/libs/cusparse.hpp"

namespace loom::sparse::detail {

namespace {

using loom::detail::CallArg;
using loom::detail::CallContext;
using loom::detail::CallSpec;
using ref::HostArray;
namespace rts = rt::sparse;
using Ins = std::span<const HostArray* const>;
using Outs = std::span<HostArray>;

rts::Format rt_format(Format f) {
  switch (f) {
    case Format::csr: return rts::Format::Csr;
    case Format::csc: return rts::Format::Csc;
    case Format::coo: return rts::Format::Coo;
  }
  return rts::Format::Csr;
}

const char* format_tag(Format f) {
  switch (f) {
    case Format::csr: return "CSR";
    case Format::csc: return "CSC";
    case Format::coo: return "COO";
  }
  return "?";
}

rts::Launch launch_of(CallContext& ctx) {
  return {ctx.device, ctx.stream, [&ctx](std::size_t n) { return ctx.workspace(n); }};
}

// Inputs 0, 1, 2 of every sparse call are major, minor and data, made C-contiguous.
rts::Matrix matrix_of(CallContext& ctx, Format f, const Shape& shape) {
  const CallArg& major = ctx.contiguous(0);
  const CallArg& minor = ctx.contiguous(1);
  const CallArg& data = ctx.contiguous(2);
  return {rt_format(f), shape[0], shape[1], data.shape.numel(), major.data(), minor.data(), data.data(),
          minor.dtype, data.dtype};
}

std::vector<Array> run(std::shared_ptr<CallSpec> spec) {
  std::vector<Array> out;
  for (auto& n : loom::detail::make_call(std::move(spec))) out.emplace_back(std::move(n));
  return out;
}

std::shared_ptr<CallSpec> new_spec(std::string name, std::string text, std::vector<Array> inputs) {
  auto spec = std::make_shared<CallSpec>();
  spec->name = std::move(name);
  spec->text = std::move(text);
  for (const Array& a : inputs) spec->inputs.push_back(a.node());
  return spec;
}

std::string describe(const char* fn, const Operand& a) {
  return fmt::format("{} {}, {} values, {} indices", fn, format_tag(a.format), name(a.data.dtype()),
                     name(a.minor.dtype()));
}

// cuSPARSE's conversions take 32-bit indices: int64 index arrays are narrowed (a fused cast)
// when every index fits, as it does when the dimensions and nnz do.
Array int32_index(const char* who, const Array& a, std::int64_t rows, std::int64_t cols, std::int64_t nnz) {
  if (std::max({rows, cols, nnz}) > INT32_MAX) {
    throw ValueError(fmt::format("{}: cuSPARSE converts with 32-bit indices; this matrix ({}x{}, nnz {}) needs 64",
                                 who, rows, cols, nnz));
  }
  return a.astype(DType::Int32);
}

}  // namespace

Array spmv(const Operand& a, const Array& x) {
  auto spec = new_spec("sparse.matmul", describe("cusparseSpMV", a), {a.major, a.minor, a.data, x});
  spec->outputs = {{a.data.dtype(), Shape{a.shape[0]}}};
  const Format f = a.format;
  const Shape shape = a.shape;
  spec->device = [f, shape](CallContext& ctx) {
    const rts::Matrix m = matrix_of(ctx, f, shape);
    rts::spmv(launch_of(ctx), m, ctx.contiguous(3).data(), ctx.out[0]);
  };
  spec->host = [f, shape](Ins in, Outs out) { host::spmm(f, shape, *in[0], *in[1], *in[2], *in[3], out[0]); };
  return run(std::move(spec))[0];
}

Array spmm(const Operand& a, const Array& b) {
  // The call computes C^T (n, rows) in C order, which is C column-major, from B^T (n, cols) in C
  // order (B column-major: a free view when B was transposed, else a copy by a loom kernel).
  const std::int64_t n = b.shape()[1];
  auto spec = new_spec("sparse.matmul", describe("cusparseSpMM", a), {a.major, a.minor, a.data, b.T()});
  spec->outputs = {{a.data.dtype(), Shape{n, a.shape[0]}}};
  const Format f = a.format;
  const Shape shape = a.shape;
  spec->device = [f, shape, n](CallContext& ctx) {
    const rts::Matrix m = matrix_of(ctx, f, shape);
    rts::spmm(launch_of(ctx), m, n, ctx.contiguous(3).data(), ctx.out[0]);
  };
  spec->host = [f, shape](Ins in, Outs out) { host::spmm(f, shape, *in[0], *in[1], *in[2], *in[3], out[0]); };
  return run(std::move(spec))[0].T();
}

Array to_dense(const Operand& a) {
  auto spec = new_spec("sparse.todense", describe("cusparseSparseToDense", a), {a.major, a.minor, a.data});
  spec->outputs = {{a.data.dtype(), a.shape}};
  const Format f = a.format;
  const Shape shape = a.shape;
  spec->device = [f, shape](CallContext& ctx) { rts::to_dense(launch_of(ctx), matrix_of(ctx, f, shape), ctx.out[0]); };
  spec->host = [f, shape](Ins in, Outs out) { host::to_dense(f, shape, *in[0], *in[1], *in[2], out[0]); };
  return run(std::move(spec))[0];
}

Compressed csr_to_csc(const char* who, const Array& data, const Array& indices, const Array& indptr,
                      std::int64_t rows, std::int64_t cols) {
  const std::int64_t nnz = data.size();
  const Array ptr = int32_index(who, indptr, rows, cols, nnz), ind = int32_index(who, indices, rows, cols, nnz);
  auto spec = new_spec(who, fmt::format("cusparseCsr2cscEx2, {} values", name(data.dtype())), {ptr, ind, data});
  spec->outputs = {{data.dtype(), Shape{nnz}}, {DType::Int32, Shape{nnz}}, {DType::Int32, Shape{cols + 1}}};
  const Shape shape{rows, cols};
  spec->device = [shape](CallContext& ctx) {
    const rts::Matrix m = matrix_of(ctx, Format::csr, shape);
    rts::csr_to_csc(launch_of(ctx), m, ctx.out[2], ctx.out[1], ctx.out[0]);
  };
  spec->host = [cols](Ins in, Outs out) {  // each entry's row, then the entries bucketed by column
    HostArray row{DType::Int32, in[1]->shape, std::vector<std::byte>(in[1]->data.size())};
    host::expand_offsets(*in[0], row);
    host::bucket(*in[1], row, *in[2], cols, out[2], out[1], out[0]);
  };
  auto o = run(std::move(spec));
  return {o[0], o[1], o[2]};
}

Array expand_offsets(const char* who, const Array& indptr, std::int64_t nnz, std::int64_t major) {
  const Array ptr = int32_index(who, indptr, major, 0, nnz);
  auto spec = new_spec(who, "cusparseXcsr2coo", {ptr});
  spec->outputs = {{DType::Int32, Shape{nnz}}};
  spec->device = [nnz, major](CallContext& ctx) {
    rts::expand_offsets(launch_of(ctx), ctx.contiguous(0).data(), nnz, major, ctx.out[0]);
  };
  spec->host = [](Ins in, Outs out) { host::expand_offsets(*in[0], out[0]); };
  return run(std::move(spec))[0];
}

Compressed coo_to_csr(const char* who, const Array& data, const Array& row, const Array& col, std::int64_t rows,
                      std::int64_t cols) {
  const std::int64_t nnz = data.size();
  const Array r = int32_index(who, row, rows, cols, nnz), c = int32_index(who, col, rows, cols, nnz);
  const Array identity = loom::arange(nnz).astype(DType::Int32);  // the sort's starting permutation
  auto spec = new_spec(who, fmt::format("cusparseXcoosortByRow + cusparseGather + cusparseXcoo2csr, {} values",
                                        name(data.dtype())),
                       {r, c, data, identity});
  spec->outputs = {{data.dtype(), Shape{nnz}}, {DType::Int32, Shape{nnz}}, {DType::Int32, Shape{rows + 1}}};
  const Shape shape{rows, cols};
  spec->device = [shape](CallContext& ctx) {
    const rts::Matrix m = matrix_of(ctx, Format::coo, shape);
    rts::coo_to_csr(launch_of(ctx), m, ctx.contiguous(3).data(), ctx.out[2], ctx.out[1], ctx.out[0]);
  };
  spec->host = [rows](Ins in, Outs out) { host::bucket(*in[0], *in[1], *in[2], rows, out[2], out[1], out[0]); };
  auto o = run(std::move(spec));
  return {o[0], o[1], o[2]};
}

Array compress_rows(const char* who, const Array& row, std::int64_t rows, std::int64_t cols) {
  const std::int64_t nnz = row.size();
  auto spec = new_spec(who, "cusparseXcoo2csr", {int32_index(who, row, rows, cols, nnz)});
  spec->outputs = {{DType::Int32, Shape{rows + 1}}};
  spec->device = [nnz, rows](CallContext& ctx) {
    rts::compress_rows(launch_of(ctx), ctx.contiguous(0).data(), nnz, rows, ctx.out[0]);
  };
  spec->host = [rows](Ins in, Outs out) { host::compress_rows(*in[0], rows, out[0]); };
  return run(std::move(spec))[0];
}

Compressed dense_to_csr(const Array& dense, std::int64_t nnz, DType index) {
  const std::int64_t rows = dense.shape()[0], cols = dense.shape()[1];
  auto spec = new_spec("sparse.from_dense",
                       fmt::format("cusparseDenseToSparse, {} values, {} indices", name(dense.dtype()), name(index)),
                       {dense});
  spec->outputs = {{dense.dtype(), Shape{nnz}}, {index, Shape{nnz}}, {index, Shape{rows + 1}}};
  spec->device = [rows, cols, nnz, index](CallContext& ctx) {
    const CallArg& d = ctx.contiguous(0);
    const rts::Matrix out{rts::Format::Csr, rows, cols, nnz, ctx.out[2], ctx.out[1], ctx.out[0], index, d.dtype};
    rts::dense_to_csr(launch_of(ctx), d.data(), out);
  };
  spec->host = [](Ins in, Outs out) { host::dense_to_csr(*in[0], out[0], out[1], out[2]); };
  auto o = run(std::move(spec));
  return {o[0], o[1], o[2]};
}

}  // namespace loom::sparse::detail
