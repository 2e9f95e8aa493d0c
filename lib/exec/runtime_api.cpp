// The parts of the public API that run things: Array::eval and reading values, eval() of many
// arrays, printing, storage for new arrays, the fusion switch and the cache counters.

#include <algorithm>
#include <cstring>
#include <new>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/eval.hpp>

#include "api/builders.hpp"
#include "api/format.hpp"
#include "exec/kernel_cache.hpp"
#include "exec/realize.hpp"
#include "graph/site.hpp"
#include "reference/evaluator.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"

namespace loom {

namespace exec {
void set_fusion_impl(bool on);
}  // namespace exec

Array Array::eval(std::source_location where) const {
  const detail::SiteScope site(where);
  const detail::NodeRef& n = node();
  if (!n) throw ValueError("eval: an empty Array handle");
  const detail::NodeRef one[] = {n};
  exec::realize(one);
  return Array(detail::as_leaf(n));
}

void eval(const std::vector<Array>& arrays, std::source_location where) {
  const detail::SiteScope site(where);
  std::vector<detail::NodeRef> nodes;
  for (const Array& a : arrays) {
    if (!a.valid()) throw ValueError("eval: an empty Array handle");
    nodes.push_back(a.node());
  }
  exec::realize(nodes);
}

std::vector<std::byte> Array::host_bytes(const std::source_location& where) const {
  const detail::NodeRef leaf = detail::as_leaf(eval(where).node());
  try {
    ref::HostArray h = ref::gather(*leaf->storage(), leaf->dtype, leaf->shape, leaf->strides(),
                                   leaf->offset(), exec::read_storage);
    return std::move(h.data);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(fmt::format("out of host memory copying an array of shape {} ({}) to the host",
                                  detail::compact(shape()), name(dtype())),
                      nbytes());
  }
}

Scalar Array::item_scalar(const std::source_location& where) const {
  if (size() != 1) {
    throw ValueError(fmt::format("can only convert an array of size 1 to a C++ scalar (this one "
                                 "has shape {})",
                                 detail::compact(shape())));
  }
  const std::vector<std::byte> b = host_bytes(where);
  Scalar s;
  s.dtype = dtype();
  visit_dtype(dtype(), [&]<class T>() {
    T v;
    std::memcpy(&v, b.data(), sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      s.i = v ? 1 : 0;
    } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
      s.f = static_cast<float>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      s.f = v;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      s.i = v;
    } else if constexpr (std::is_integral_v<T>) {
      s.u = v;
      s.i = static_cast<std::int64_t>(v);
    } else {
      s.c = std::complex<double>(v.real(), v.imag());
    }
  });
  return s;
}

Placement Array::device() const {
  const detail::Node& n = checked();
  if (n.op == detail::Op::Buffer && n.storage()) return n.storage()->placement();
  if (auto r = n.realized()) return r->storage->placement();
  if (rt::has_gpu()) return {DeviceKind::GPU, rt::current_device()};
  return {DeviceKind::Host, -1};
}

std::string to_string(const Array& a) {
  const detail::PrintOptions options;
  const Shape& shape = a.shape();
  const Shape shown = detail::shown_shape(shape, options);
  if (shown == shape) {
    const std::vector<std::byte> bytes = a.host_bytes();
    return detail::format_array_repr(bytes.data(), a.dtype(), shape);
  }
  // A summarized print shows edgeitems from each end of the long axes: evaluate only those
  // corners (one slice per combination of ends, evaluated together in one plan), and pack them
  // into the block the formatter reads.
  std::vector<int> cut;  // the summarized axes
  for (int d = 0; d < shape.size(); ++d) {
    if (shown[d] != shape[d]) cut.push_back(d);
  }
  const std::size_t item = a.itemsize();
  const Shape packed_strides = contiguous_strides(shown);
  std::vector<std::byte> packed(static_cast<std::size_t>(shown.numel()) * item);
  const std::size_t corners = std::size_t{1} << cut.size();
  constexpr std::size_t kBatch = 256;  // corners evaluated per plan
  for (std::size_t first = 0; first < corners; first += kBatch) {
    std::vector<Array> blocks;
    std::vector<Shape> origins;  // where each block starts in the packed block
    for (std::size_t c = first; c < std::min(corners, first + kBatch); ++c) {
      std::vector<Index> index;
      Shape origin = Shape::filled(shape.size(), 0);
      for (int d = 0, k = 0; d < shape.size(); ++d) {
        if (k < static_cast<int>(cut.size()) && cut[static_cast<std::size_t>(k)] == d) {
          const std::int64_t half = shown[d] / 2;
          const bool tail = ((c >> k) & 1u) != 0;
          index.emplace_back(tail ? Slice(shape[d] - half, none) : Slice(0, half));
          origin[d] = tail ? half : 0;
          ++k;
        } else {
          index.emplace_back(all);
        }
      }
      Array block = detail::basic_view(a, index);
      // The host evaluator computes every node at its own shape: move the corner's view down
      // to the leaves first (a fused GPU kernel reads only the corner anyway).
      if (!rt::has_gpu() && block.node()->op == detail::Op::View) {
        const detail::Node& v = *block.node();
        block = Array(detail::sink_view(v.inputs[0], v.map(), v.shape));
      }
      blocks.push_back(block);
      origins.push_back(origin);
    }
    eval(blocks);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      const std::vector<std::byte> bytes = blocks[b].host_bytes();
      const Shape& bs = blocks[b].shape();
      Shape idx = Shape::filled(bs.size(), 0);
      for (std::size_t e = 0; e * item < bytes.size(); ++e) {
        std::int64_t dst = 0;
        for (int d = 0; d < bs.size(); ++d) dst += (origins[b][d] + idx[d]) * packed_strides[d];
        std::memcpy(packed.data() + static_cast<std::size_t>(dst) * item, bytes.data() + e * item, item);
        for (int d = bs.size() - 1; d >= 0; --d) {
          if (++idx[d] < bs[d]) break;
          idx[d] = 0;
        }
      }
    }
  }
  return detail::format_array_repr_packed(packed.data(), a.dtype(), shape, options, true);
}

std::ostream& operator<<(std::ostream& os, const Array& a) { return os << to_string(a); }

void set_fusion(bool enabled) { exec::set_fusion_impl(enabled); }
bool fusion_enabled() { return exec::fusion_enabled_impl(); }

CacheStats cache_stats() {
  const exec::Counters& c = exec::counters();
  CacheStats s;
  s.compiles = c.compiles.load();
  s.memory_hits = c.memory_hits.load();
  s.disk_hits = c.disk_hits.load();
  s.disk_writes = c.disk_writes.load();
  s.disk_rejected = c.disk_rejected.load();
  s.launches = c.launches.load();
  s.source_ms = static_cast<double>(c.source_ns.load()) * 1e-6;
  s.disk_load_ms = static_cast<double>(c.disk_load_ns.load()) * 1e-6;
  s.compile_ms = static_cast<double>(c.compile_ns.load()) * 1e-6;
  s.module_load_ms = static_cast<double>(c.module_load_ns.load()) * 1e-6;
  return s;
}

void reset_cache_stats() {
  exec::Counters& c = exec::counters();
  c.compiles = 0;
  c.memory_hits = 0;
  c.disk_hits = 0;
  c.disk_writes = 0;
  c.disk_rejected = 0;
  c.launches = 0;
  c.source_ns = 0;
  c.disk_load_ns = 0;
  c.compile_ns = 0;
  c.module_load_ns = 0;
}

void clear_memory_cache() { exec::clear_memory_cache(); }
std::string cache_dir() { return rt::env().cache_dir; }

}  // namespace loom
