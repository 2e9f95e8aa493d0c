// The eager calls of include/loom/sorting.hpp (unique, nonzero, flatnonzero) and boolean-mask
// reads (Array::operator[](mask)): their output sizes depend on the values, so each evaluates
// its inputs, runs, reads the count (one synchronization) and returns evaluated arrays. On the
// GPU through exec::run_eager and CUB; without one on the host, with the same results.

#include <algorithm>
#include <cstring>

#include <loom/device.hpp>
#include <loom/errors.hpp>
#include <loom/creation.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>
#include <loom/sorting.hpp>

#include <fmt/format.h>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "calls/sorting_host.hpp"
#include "exec/calls.hpp"
#include "exec/realize.hpp"
#include "graph/node.hpp"
#include "runtime/cuda_check.hpp"

namespace loom {

namespace {

using detail::CallContext;
using ref::HostArray;

// A new device array of the call's device, written by the work the call queues on its stream.
struct DeviceOut {
  Array array;
  void* data;
};
DeviceOut device_output(const CallContext& ctx, DType dtype, const Shape& shape) {
  const std::size_t nbytes = static_cast<std::size_t>(shape.numel()) * itemsize(dtype);
  std::shared_ptr<detail::Storage> s = exec::device_storage(ctx.device, nbytes);
  if (exec::poison_outputs() && nbytes > 0) {
    LOOM_CHECK_CUDA(cudaMemsetAsync(s->data(), 0xff, nbytes, calls::stream_of(ctx)));
  }
  void* data = s->data();
  return {Array(detail::make_buffer(std::move(s), dtype, shape, contiguous_strides(shape), 0)), data};
}

HostArray host_values(const Array& a) {
  const detail::NodeRef n = a.node();
  return std::move(ref::evaluate(std::span<const detail::NodeRef>(&n, 1), exec::read_storage).front());
}

Array from_host(const void* data, DType dtype, const Shape& shape) {
  return asarray_bytes(data, static_cast<std::size_t>(shape.numel()) * itemsize(dtype), dtype, shape);
}
Array from_host(const std::vector<std::int64_t>& v, const Shape& shape) { return from_host(v.data(), DType::Int64, shape); }

// Nonzero elements as bool flags, evaluated once (the count and the selection both read them).
Array flags_of(const Array& a) { return (a.dtype() == DType::Bool ? a : a != 0).eval(); }

std::int64_t count_of(const Array& flags) { return count_nonzero(flags).item<std::int64_t>(); }

}  // namespace

UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts) {
  const Array x = Array(detail::leaf_of(a, "unique")).ravel();
  const DType dtype = x.dtype();
  const std::int64_t n = x.size();
  UniqueResult r;
  if (!gpu_available()) {
    const HostArray h = host_values(x);
    const calls::HostUnique u = calls::host_unique(h);
    const auto count = static_cast<std::int64_t>(u.starts.size());
    std::vector<std::byte> values(static_cast<std::size_t>(count) * itemsize(dtype));
    std::vector<std::int64_t> index(u.starts.size()), counts(u.starts.size()), inverse(h.numel());
    for (std::size_t j = 0; j < u.starts.size(); ++j) {
      const std::int64_t begin = u.starts[j], end = j + 1 < u.starts.size() ? u.starts[j + 1] : n;
      index[j] = u.perm[static_cast<std::size_t>(begin)];
      counts[j] = end - begin;
      calls::copy_element(h, index[j], values.data(), static_cast<std::int64_t>(j));
      for (std::int64_t i = begin; i < end; ++i) inverse[static_cast<std::size_t>(u.perm[static_cast<std::size_t>(i)])] = static_cast<std::int64_t>(j);
    }
    r.values = from_host(values.data(), dtype, Shape{count});
    if (return_index) r.index = from_host(index, Shape{count});
    if (return_inverse) r.inverse = from_host(inverse, a.shape());
    if (return_counts) r.counts = from_host(counts, Shape{count});
    return r;
  }
  // Complex values sort by their parts (a lazy lexsort and gather, evaluated with the input);
  // others by radix keys inside the call.
  const bool cplx = is_complex(dtype);
  std::vector<detail::NodeRef> inputs{x.node()};
  if (cplx) {
    const Array perm = argsort(x);
    inputs.push_back(perm.node());
    inputs.push_back(calls::take_flat(x, perm).node());
  }
  exec::run_eager(inputs, [&](CallContext& ctx) {
    const detail::CallArg& in = ctx.contiguous(0);
    const cudaStream_t stream = calls::stream_of(ctx);
    auto* starts = static_cast<std::int64_t*>(ctx.workspace(static_cast<std::size_t>(n) * 8));
    std::int64_t count = 0;
    const std::int64_t* perm = nullptr;
    if (cplx) {
      perm = static_cast<const std::int64_t*>(ctx.contiguous(1).data());
      algo::unique_starts_complex(dtype, ctx.contiguous(2).data(), n, starts, &count, stream, calls::workspace_of(ctx));
    } else {
      auto* p = static_cast<std::int64_t*>(ctx.workspace(static_cast<std::size_t>(n) * 8));
      algo::unique_sort(dtype, in.data(), n, p, starts, &count, stream, calls::workspace_of(ctx));
      perm = p;
    }
    const DeviceOut values = device_output(ctx, dtype, Shape{count});
    DeviceOut index{}, inverse{}, counts{};
    if (return_index) index = device_output(ctx, DType::Int64, Shape{count});
    if (return_inverse) inverse = device_output(ctx, DType::Int64, a.shape());
    if (return_counts) counts = device_output(ctx, DType::Int64, Shape{count});
    algo::unique_outputs(itemsize(dtype), in.data(), n, perm, starts, count, values.data,
                         static_cast<std::int64_t*>(index.data), static_cast<std::int64_t*>(inverse.data),
                         static_cast<std::int64_t*>(counts.data), stream);
    r = {values.array, index.array, inverse.array, counts.array};
  });
  return r;
}

Array unique(const Array& a) { return unique(a, false, false, false).values; }

std::vector<Array> nonzero(const Array& a) {
  const Array x(detail::leaf_of(a, "nonzero"));
  if (x.ndim() == 0) {
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. "
                     "If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  }
  const Shape shape = x.shape();
  const Array flags = flags_of(x);
  std::vector<Array> out;
  if (!gpu_available()) {
    const HostArray h = host_values(flags);
    std::vector<std::vector<std::int64_t>> idx(static_cast<std::size_t>(shape.size()));
    const Shape strides = contiguous_strides(shape);
    for (std::size_t i = 0; i < h.numel(); ++i) {
      if (h.data[i] == std::byte{0}) continue;
      for (int d = 0; d < shape.size(); ++d) {
        idx[static_cast<std::size_t>(d)].push_back(static_cast<std::int64_t>(i) / strides[d] % shape[d]);
      }
    }
    for (const auto& v : idx) out.push_back(from_host(v, Shape{static_cast<std::int64_t>(v.size())}));
    return out;
  }
  const std::int64_t count = count_of(flags);
  exec::run_eager({flags.node()}, [&](CallContext& ctx) {
    std::vector<std::int64_t*> ptrs;
    for (int d = 0; d < shape.size(); ++d) {
      const DeviceOut o = device_output(ctx, DType::Int64, Shape{count});
      out.push_back(o.array);
      ptrs.push_back(static_cast<std::int64_t*>(o.data));
    }
    algo::nonzero(static_cast<const bool*>(ctx.contiguous(0).data()), shape, count, ptrs, calls::stream_of(ctx),
                  calls::workspace_of(ctx));
  });
  return out;
}

Array flatnonzero(const Array& a) { return nonzero(Array(detail::leaf_of(a, "flatnonzero")).ravel())[0]; }

calls::MaskDims calls::mask_dims(const Array& x, const Array& m) {
  if (m.ndim() > x.ndim()) {
    throw IndexError(fmt::format("too many indices for array: array is {}-dimensional, but {} were indexed",
                                 x.ndim(), m.ndim()));
  }
  MaskDims r{{}, m.shape()};
  for (int d = 0; d < x.ndim(); ++d) {
    if (d < m.ndim() && m.shape()[d] != x.shape()[d]) {
      throw IndexError(fmt::format("boolean index did not match indexed array along axis {}; size of axis is {} "
                                   "but size of corresponding boolean axis is {}",
                                   d, x.shape()[d], m.shape()[d]));
    }
    if (d >= m.ndim()) {
      r.trailing.push_back(x.shape()[d]);
      r.padded.push_back(1);
    }
  }
  return r;
}

Array Array::operator[](const Array& mask) const& {
  if (is_integer(mask.dtype())) return index(std::vector<Index>{Index(mask)});  // a gather
  const Array x(detail::leaf_of(*this, "boolean index"));
  const Array m(detail::leaf_of(mask, "boolean index"));
  if (m.dtype() != DType::Bool) throw IndexError("arrays used as indices must be of integer (or boolean) type");
  if (m.ndim() == 0) return x.expand_dims(0)[m.reshape({1})];  // NumPy: x[True] is x[newaxis]
  const auto [inner, mask_full] = calls::mask_dims(x, m);
  // The mask over every element of x (a broadcast view; the call makes it contiguous).
  const Array flags = m.reshape(mask_full).broadcast_to(x.shape());
  const DType dtype = x.dtype();
  const std::size_t item = loom::itemsize(dtype);
  if (!gpu_available()) {
    const HostArray hx = host_values(x), hf = host_values(flags);
    std::vector<std::byte> out;
    for (std::size_t i = 0; i < hx.numel(); ++i) {
      if (hf.data[i] != std::byte{0}) out.insert(out.end(), hx.data.begin() + i * item, hx.data.begin() + (i + 1) * item);
    }
    const HostArray hm = host_values(m);
    Shape shape{static_cast<std::int64_t>(std::count_if(hm.data.begin(), hm.data.end(), [](std::byte b) { return b != std::byte{0}; }))};
    for (std::int64_t e : inner) shape.push_back(e);
    return from_host(out.data(), dtype, shape);
  }
  Shape shape{count_of(m)};
  for (std::int64_t e : inner) shape.push_back(e);
  Array result;
  exec::run_eager({x.node(), flags.node()}, [&](CallContext& ctx) {
    const DeviceOut o = device_output(ctx, dtype, shape);
    const void* in = ctx.contiguous(0).data();
    const auto* f = static_cast<const bool*>(ctx.contiguous(1).data());
    algo::select_flagged(item, in, f, x.size(), o.data, calls::stream_of(ctx), calls::workspace_of(ctx));
    result = o.array;
  });
  return result;
}

}  // namespace loom
