// cumsum and cumprod as lazy barrier calls (include/loom/sorting.hpp): the input is cast to the
// accumulation dtype and its axis moved last (both fuse into the kernel that materializes the
// call's input), CUB scans the rows, and the result is viewed back (and cast to a narrower
// integer dtype when one was asked for).

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/sorting.hpp>

#include <fmt/format.h>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "calls/sorting_host.hpp"
#include "graph/node.hpp"

namespace loom {

namespace {

using detail::CallContext;
using ref::HostArray;

// NumPy's accumulation dtype when none is given (numpy 2 on Linux): bool and signed ints give
// int64, unsigned ints uint64, the rest keep theirs.
DType default_accumulation(DType t) {
  if (is_bool(t) || is_signed_int(t)) return DType::Int64;
  if (is_unsigned_int(t)) return DType::UInt64;
  return t;
}

// What the scan runs in: integers (and bool) in 64 bits, whose wrap-around keeps the low bits
// of any narrower result; the rest as asked.
DType scan_dtype(DType t) {
  if (is_bool(t) || is_signed_int(t)) return DType::Int64;
  if (is_unsigned_int(t)) return DType::UInt64;
  return t;
}

Array scan_call(const char* op, algo::ScanOp kind, const Array& a, std::optional<int> axis,
                std::optional<DType> dtype) {
  // NumPy scans a 0-d array given an axis as its one-element ravel (axis 0 or -1 only).
  const Array x = a.ndim() == 0 && axis ? a.reshape({1}) : Array(detail::leaf_of(a, op));
  if (dtype) detail::check_dtype(*dtype, op);
  const DType result = dtype ? *dtype : default_accumulation(x.dtype());
  const DType acc = scan_dtype(result);
  if (is_complex(x.dtype()) && !is_complex(acc)) {
    throw DTypeError(fmt::format("{}: cannot cast {} to {} (the imaginary part would be lost)", op,
                                 name(x.dtype()), name(result)));
  }
  const int ax = axis ? detail::normalize_axis(*axis, x.ndim()) : -1;
  const Array rows_view = axis ? calls::move_axis_last(x, ax).astype(acc) : x.ravel().astype(acc);
  const std::int64_t length = rows_view.ndim() == 0 ? 1 : rows_view.shape()[rows_view.ndim() - 1];
  const std::int64_t rows = length == 0 ? 0 : rows_view.size() / length;

  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = op;
  spec->text = fmt::format("cub::DeviceScan::{} ({}), {}", rows > 1 ? "InclusiveScanByKey" : "InclusiveScan",
                           kind == algo::ScanOp::Sum ? "sum" : "product", name(acc));
  spec->inputs = {rows_view.node()};
  spec->outputs = {{acc, rows_view.shape()}};
  spec->device = [=](CallContext& ctx) {
    const detail::CallArg& in = ctx.contiguous(0);
    algo::inclusive_scan(acc, kind, in.data(), ctx.out[0], rows, length, calls::stream_of(ctx),
                         calls::workspace_of(ctx));
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    calls::host_scan(*in[0], out[0], kind, length);
  };
  Array r = calls::make_call_arrays(spec)[0];
  if (axis) r = calls::move_last_to(r, ax);
  return r.astype(result);
}

}  // namespace

Array cumsum(const Array& a, std::optional<int> axis, std::optional<DType> dtype) {
  return scan_call("cumsum", algo::ScanOp::Sum, a, axis, dtype);
}
Array cumprod(const Array& a, std::optional<int> axis, std::optional<DType> dtype) {
  return scan_call("cumprod", algo::ScanOp::Prod, a, axis, dtype);
}

namespace {

// NumPy 2's _cumulative_func: a 0-d input is one element; axis is required past 1-d; with
// include_initial the identity comes first along the axis.
Array cumulative(const char* op, algo::ScanOp kind, double identity, const Array& a, std::optional<int> axis,
                 std::optional<DType> dtype, bool include_initial) {
  const Array x = a.ndim() == 0 ? a.reshape({1}) : a;
  if (!axis) {
    if (x.ndim() >= 2) {
      throw ValueError("For arrays which have more than one dimension ``axis`` argument is required.");
    }
    axis = 0;
  }
  const Array r = scan_call(op, kind, x, axis, dtype);
  if (!include_initial) return r;
  const int ax = detail::normalize_axis(*axis, r.ndim());
  Shape first = r.shape();
  first[ax] = 1;
  return concatenate({full(first, identity, r.dtype()), r}, ax);
}

}  // namespace

Array cumulative_sum(const Array& a, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative("cumulative_sum", algo::ScanOp::Sum, 0.0, a, axis, dtype, include_initial);
}
Array cumulative_prod(const Array& a, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative("cumulative_prod", algo::ScanOp::Prod, 1.0, a, axis, dtype, include_initial);
}

}  // namespace loom
