// sort, argsort, lexsort and searchsorted as lazy barrier calls (include/loom/sorting.hpp): the
// sorted axis is moved last with a view, the call sorts contiguous rows (CUB on the GPU: a row per
// block up to 4096 elements, else device-wide radix sorts; the host implementations otherwise),
// and the result is viewed back.

#include <climits>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/sorting.hpp>

#include <fmt/format.h>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "calls/sorting_host.hpp"
#include "graph/node.hpp"
#include "runtime/libs/cub_algorithms.hpp"

namespace loom {

namespace calls {

using detail::CallContext;
using ref::HostArray;

Array move_axis_last(const Array& a, int axis) {
  if (axis == a.ndim() - 1) return a;
  Shape perm;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d != axis) perm.push_back(d);
  }
  perm.push_back(axis);
  return a.transpose(perm);
}

Array move_last_to(const Array& a, int axis) {
  const int last = a.ndim() - 1;
  if (axis == last) return a;
  Shape perm;
  for (int d = 0; d < a.ndim(); ++d) perm.push_back(d < axis ? d : d == axis ? last : d - 1);
  return a.transpose(perm);
}

std::vector<Array> make_call_arrays(std::shared_ptr<detail::CallSpec> spec) {
  std::vector<Array> out;
  for (detail::NodeRef& n : detail::make_call(std::move(spec))) out.emplace_back(std::move(n));
  return out;
}

std::string radix_sort_text(const char* what, std::int64_t rows, std::int64_t length, DType dtype) {
  if (algo::sorts_in_blocks(length)) {
    const algo::BlockSortShape s = algo::kBlockSortShapes[algo::block_sort_shape_index(length)];
    return fmt::format("cub::BlockRadixSort, a row per block ({} threads x {} items, {}-bit radix keys{}), {}",
                       s.threads, s.items, itemsize(dtype) * 8,
                       std::string_view(what) == "SortPairs" ? ", int32 indices" : "", name(dtype));
  }
  const bool segmented = !algo::sorts_row_by_row(rows, length);
  if (!segmented && std::string_view(what) == "SortKeys" && algo::sorts_natively(dtype)) {
    return fmt::format("cub::DeviceRadixSort::SortKeys on {} keys (NaNs moved last)", name(dtype));
  }
  return fmt::format("cub::Device{}RadixSort::{} ({}-bit radix keys), {}", segmented ? "Segmented" : "", what,
                     itemsize(dtype) * 8, name(dtype));
}

std::vector<Array> complex_sort_keys(const Array& z) {
  const Array re = real(z), im = imag(z);
  const Array nan_class = isnan(re).astype(DType::UInt8) * 2 + isnan(im).astype(DType::UInt8);
  return {im, re, nan_class};
}

Array take_flat(const Array& x, const Array& idx) {
  const DType dtype = x.dtype();
  const std::int64_t m = idx.size();
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = "take";
  spec->text = fmt::format("a gather, out[i] = x[idx[i]], {}", name(dtype));
  spec->inputs = {x.node(), idx.node()};
  spec->outputs = {{dtype, idx.shape()}};
  spec->device = [=](CallContext& ctx) {
    algo::take(itemsize(dtype), ctx.contiguous(0).data(), static_cast<const std::int64_t*>(ctx.contiguous(1).data()),
               m, ctx.out[0], stream_of(ctx));
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    const auto* index = reinterpret_cast<const std::int64_t*>(in[1]->data.data());
    for (std::int64_t i = 0; i < m; ++i) copy_element(*in[0], index[i], out[0].data.data(), i);
  };
  return make_call_arrays(spec)[0];
}

}  // namespace calls

namespace {

using detail::CallContext;
using ref::HostArray;

// The array to sort as rows along its last axis, and where that axis came from.
struct Rows {
  Array a;   // the axis moved last (or flattened)
  int axis;  // where the result's last axis goes back to; -1: it stays flat
  std::int64_t length() const { return a.ndim() == 0 ? 1 : a.shape()[a.ndim() - 1]; }
  std::int64_t rows() const { return length() == 0 ? 0 : a.size() / length(); }
  Array back(const Array& r) const { return axis < 0 ? r : calls::move_last_to(r, axis); }
};

Rows as_rows(const char* op, const Array& a, std::optional<int> axis) {
  const Array x(detail::leaf_of(a, op));
  if (!axis) return {x.ravel(), -1};
  const int ax = detail::normalize_axis(*axis, x.ndim());
  return {calls::move_axis_last(x, ax), ax};
}

// Complex rows: a lexsort of the flattened rows by their parts (calls::complex_sort_keys), with
// the row number as the primary key, then the values gathered (sort) or the flat indices made
// indices within each row (argsort).
Array sort_complex(const Rows& r, bool indices) {
  const std::int64_t rows = r.rows(), length = r.length(), n = r.a.size();
  const Array flat = r.a.reshape({-1});
  std::vector<Array> keys = calls::complex_sort_keys(flat);
  if (rows > 1) {
    const DType row_dtype = rows <= INT32_MAX ? DType::Int32 : DType::Int64;
    keys.push_back(arange(Scalar::of(std::int64_t{0}, false), Scalar::of(rows, false), Scalar::of(std::int64_t{1}, false),
                          row_dtype)
                       .reshape({rows, 1})
                       .broadcast_to(Shape{rows, length})
                       .reshape({-1}));
  }
  const Array perm = n == 0 ? Array(zeros(Shape{0}, DType::Int64)) : lexsort(keys);
  const Array out = indices ? perm % length : calls::take_flat(flat, perm);
  return out.reshape(r.a.shape());
}

Array sort_call(const char* op, const Array& a, std::optional<int> axis, bool indices) {
  const Rows r = as_rows(op, a, axis);
  const std::int64_t rows = r.rows(), length = r.length();
  if (is_complex(r.a.dtype())) return r.back(sort_complex(r, indices));
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = op;
  spec->text = calls::radix_sort_text(indices ? "SortPairs" : "SortKeys", rows, length, r.a.dtype());
  spec->inputs = {r.a.node()};
  spec->outputs = {{indices ? DType::Int64 : r.a.dtype(), r.a.shape()}};
  spec->device = [=](CallContext& ctx) {
    const detail::CallArg& in = ctx.contiguous(0);
    if (indices) {
      algo::argsort(in.dtype, in.data(), static_cast<std::int64_t*>(ctx.out[0]), rows, length,
                    calls::stream_of(ctx), calls::workspace_of(ctx));
    } else {
      algo::sort(in.dtype, in.data(), ctx.out[0], rows, length, calls::stream_of(ctx), calls::workspace_of(ctx));
    }
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    if (indices) {
      calls::host_argsort(*in[0], reinterpret_cast<std::int64_t*>(out[0].data.data()), length);
    } else {
      calls::host_sort(*in[0], out[0], length);
    }
  };
  return r.back(calls::make_call_arrays(spec)[0]);
}

}  // namespace

Array sort(const Array& a, std::optional<int> axis) { return sort_call("sort", a, axis, false); }
Array argsort(const Array& a, std::optional<int> axis) { return sort_call("argsort", a, axis, true); }

Array lexsort(const std::vector<Array>& keys) {
  if (keys.empty()) throw ValueError("need sequence of keys with len > 0 in lexsort");
  auto spec = std::make_shared<detail::CallSpec>();
  std::vector<DType> dtypes;
  for (const Array& k : keys) {
    const Array x(detail::leaf_of(k, "lexsort"));
    if (x.ndim() != 1) {
      throw ShapeError(fmt::format("lexsort: keys must be 1-D (got a key of shape {})", detail::compact(x.shape())));
    }
    if (x.shape() != keys[0].shape()) throw ShapeError("all keys need to be the same shape");
    // A complex key is its parts in NumPy's complex order, least significant first.
    for (const Array& part : is_complex(x.dtype()) ? calls::complex_sort_keys(x) : std::vector<Array>{x}) {
      spec->inputs.push_back(part.node());
      dtypes.push_back(part.dtype());
    }
  }
  const std::int64_t n = keys[0].size();
  spec->name = "lexsort";
  spec->text = fmt::format("{} keys, cub::DeviceRadixSort::SortPairs per key (stable)", dtypes.size());
  spec->outputs = {{DType::Int64, Shape{n}}};
  spec->device = [=](CallContext& ctx) {
    std::vector<const void*> ptrs;
    for (std::size_t k = 0; k < dtypes.size(); ++k) ptrs.push_back(ctx.contiguous(static_cast<int>(k)).data());
    algo::lexsort(dtypes, ptrs, n, static_cast<std::int64_t*>(ctx.out[0]), calls::stream_of(ctx),
                  calls::workspace_of(ctx));
  };
  spec->host = [](std::span<const HostArray* const> in, std::span<HostArray> out) {
    calls::host_lexsort(in, reinterpret_cast<std::int64_t*>(out[0].data.data()));
  };
  return calls::make_call_arrays(spec)[0];
}

Array searchsorted(const Array& a, const Array& v, std::string_view side) {
  if (side != "left" && side != "right") {
    throw ValueError(fmt::format("searchsorted: side must be 'left' or 'right' (got '{}')", side));
  }
  const bool right = side == "right";
  const Array sa(detail::leaf_of(a, "searchsorted")), sv(detail::leaf_of(v, "searchsorted"));
  if (sa.ndim() != 1) {
    throw ValueError(fmt::format("searchsorted: a must be 1-D (got shape {})", detail::compact(sa.shape())));
  }
  // A C++ number takes a's dtype (NEP 50's weak scalar); arrays meet in their common dtype.
  const DType common = sv.node()->weak ? sa.dtype() : promote_types(sa.dtype(), sv.dtype());
  const Array ca = sa.astype(common), cv = sv.astype(common);
  const std::int64_t n = ca.size(), m = cv.size();
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = "searchsorted";
  spec->text = fmt::format("a binary search per value (side={}), {}", side, name(common));
  spec->inputs = {ca.node(), cv.node()};
  spec->outputs = {{DType::Int64, cv.shape()}};
  spec->device = [=](CallContext& ctx) {
    const void* sorted = ctx.contiguous(0).data();
    const void* values = ctx.contiguous(1).data();
    algo::searchsorted(common, sorted, n, values, m, right, static_cast<std::int64_t*>(ctx.out[0]),
                       calls::stream_of(ctx));
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    calls::host_searchsorted(*in[0], *in[1], right, reinterpret_cast<std::int64_t*>(out[0].data.data()));
  };
  return calls::make_call_arrays(spec)[0];
}

}  // namespace loom

namespace loom {

namespace {

// np.partition's checks: kth counted from the end when negative, each within the axis.
void check_kth(const Array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  const std::int64_t n = axis ? a.shape()[detail::normalize_axis(*axis, a.ndim())] : a.size();
  for (std::int64_t k : kth) {
    const std::int64_t at = k < 0 ? k + n : k;
    if (at < 0 || at >= n) throw ValueError(fmt::format("kth(={}) out of bounds ({})", at, n));
  }
}

}  // namespace

// A stable sort is a partition for every kth: CUB (of CUDA 13.0) has no select-k or top-k, and its
// segmented radix sort is what a select would cost at these sizes.
Array partition(const Array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(a, kth, axis);
  return sort(a, axis);
}
Array partition(const Array& a, std::int64_t kth, std::optional<int> axis) {
  return partition(a, std::vector<std::int64_t>{kth}, axis);
}
Array argpartition(const Array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis) {
  check_kth(a, kth, axis);
  return argsort(a, axis);
}
Array argpartition(const Array& a, std::int64_t kth, std::optional<int> axis) {
  return argpartition(a, std::vector<std::int64_t>{kth}, axis);
}

}  // namespace loom
