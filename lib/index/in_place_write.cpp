// In-place writes (lib/api/builders.hpp, detail::write_in_place): x[region] = v into x's own
// buffer when nothing else can see it, so the write moves the region's bytes, not the array's.
// The region's values are evaluated (one kernel, or none) and copied in by rows
// (runtime/libs/cub/copy_rows.cu). When it cannot, the caller writes lazily and explain() says why.

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "index/write_helpers.hpp"
#include "storage/storage.hpp"
#include "graph/node.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/libs/cub_algorithms.hpp"

namespace loom {

namespace {

// x's buffer when a write may go into it: on a GPU, evaluated, C-contiguous from its start, and
// held by nothing but x's handle (and `snapshot`, the IndexRef's own read of x[index], when
// nothing else holds that). Then no handle, view or pending expression can see the old values.
// Else null, and why not.
struct SoleBuffer {
  std::shared_ptr<detail::Storage> storage;
  const char* why_not = "";
};
SoleBuffer sole_buffer(const Array& x, const Array* snapshot) {
  if (!rt::has_gpu()) return {nullptr, "no GPU"};
  if (!x.valid()) return {nullptr, "an empty handle"};
  const detail::Node& n = *x.node();
  std::shared_ptr<detail::Storage> s;
  Shape strides;
  std::int64_t offset = 0;
  if (const detail::Realized* r = n.realized()) {
    s = r->storage;
    strides = r->strides;
    offset = r->offset;
  } else if (n.op == detail::Op::Buffer) {
    s = n.storage();
    strides = n.strides();
    offset = n.offset();
  }
  if (!s) return {nullptr, "x is not evaluated: the write fuses into the expression that computes it"};
  if (s->borrowed()) return {nullptr, "x's memory is not loom's (from_pointer, from_dlpack)"};
  if (s->on_host() || offset != 0 || !is_c_contiguous(n.shape, strides)) {
    return {nullptr, "x is a view, or not C-contiguous"};
  }
  const char* shared = "another handle, a view taken before, or a pending expression holds x's buffer";
  if (x.node().use_count() != 1) return {nullptr, shared};
  long holders = 2;  // x's node and `s`
  if (snapshot && snapshot->valid() && detail::buffer_storage(*snapshot->node()) == s.get()) {
    if (snapshot->node().use_count() != 1) return {nullptr, shared};
    ++holders;
  }
  if (s.use_count() != holders) return {nullptr, shared};
  return {s, ""};
}

// A region of a C-contiguous array as a box: element offset, extents and (positive) element
// strides, dims of one dropped and neighbours that run on merged.
struct Box {
  std::int64_t offset = 0;
  std::vector<std::int64_t> shape, strides;
};
std::optional<Box> region_box(const Shape& xshape, const detail::BasicIndex& b) {
  const Shape cs = contiguous_strides(xshape);
  Box box;
  for (int k = 0; k < b.map.in_ndim; ++k) box.offset += b.map.offset[k] * cs[k];
  for (int i = 0; i < b.map.out_ndim; ++i) {
    if (b.shape[i] == 1 || b.map.dim[i] < 0) continue;
    const std::int64_t st = cs[b.map.dim[i]] * b.map.coef[i];
    if (st <= 0) return std::nullopt;  // a reversed slice: written lazily
    if (!box.shape.empty() && box.strides.back() == st * b.shape[i]) {
      box.shape.back() *= b.shape[i];
      box.strides.back() = st;
      continue;
    }
    box.shape.push_back(b.shape[i]);
    box.strides.push_back(st);
  }
  return box;
}

// Copies the C-contiguous region values `src` into the box of dst (elements of `item` bytes): a
// copy of rows (of the innermost run) per index of the outer dims.
void copy_into_box(const void* src, void* dst, const Box& box, std::size_t item, cudaStream_t stream) {
  const int nd = static_cast<int>(box.shape.size());
  const std::int64_t inner = nd >= 1 && box.strides[static_cast<std::size_t>(nd - 1)] == 1 ? box.shape.back() : 1;
  const int rows_dim = inner > 1 ? nd - 2 : nd - 1;  // the dim the row copy steps down
  const std::int64_t rows = rows_dim >= 0 ? box.shape[static_cast<std::size_t>(rows_dim)] : 1;
  const std::int64_t pitch = rows_dim >= 0 ? box.strides[static_cast<std::size_t>(rows_dim)] : inner;  // one row: any pitch >= its width
  std::int64_t outer = 1;
  for (int d = 0; d < rows_dim; ++d) outer *= box.shape[static_cast<std::size_t>(d)];
  const auto* s = static_cast<const char*>(src);
  auto* t = static_cast<char*>(dst);
  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off = box.offset, rest = o;
    for (int d = rows_dim - 1; d >= 0; --d) {
      off += (rest % box.shape[static_cast<std::size_t>(d)]) * box.strides[static_cast<std::size_t>(d)];
      rest /= box.shape[static_cast<std::size_t>(d)];
    }
    const auto it = static_cast<std::int64_t>(item);
    algo::copy_rows(s + o * rows * inner * it, inner * it, t + off * it, pitch * it, inner * it, rows, stream);
  }
}

// Most row copies one in-place write issues (more: the write stays a lazy where over x).
constexpr std::int64_t kMaxBoxCopies = 1024;

}  // namespace

namespace detail {

std::string write_in_place(Array& x, std::span<const Index> idx, const Array& v, WriteOp op, const Array* snapshot) {
  for (const Index& e : idx) {
    if (std::holds_alternative<IndexArray>(e.value())) return "the index has integer arrays or a mask";
  }
  const SoleBuffer sole = sole_buffer(x, snapshot);
  if (!sole.storage) return sole.why_not;
  const std::shared_ptr<detail::Storage>& buf = sole.storage;
  const BasicIndex b = basic_index(x.shape(), idx);
  const std::optional<Box> box = region_box(x.shape(), b);
  if (!box) return "a reversed slice";
  std::int64_t copies = 1;
  for (std::size_t d = 0; d + 2 < box->shape.size(); ++d) copies *= box->shape[d];
  if (copies > kMaxBoxCopies) return fmt::format("the region takes more than {} row copies", kMaxBoxCopies);
  const Array fitted = calls::fit_value(v, b.shape);  // NumPy's broadcast error
  if (b.shape.numel() == 0) return "";
  // The region's new values, C-contiguous: v itself when it is that already, else one kernel
  // (the cast, the broadcast, and for op= the read of the region, fused).
  Array vals = op == WriteOp::Set ? fitted : calls::combine(op, x.index(idx), fitted);
  if (vals.dtype() != x.dtype()) vals = astype(vals, x.dtype());
  if (vals.shape() != b.shape) vals = vals.broadcast_to(b.shape);
  // (eval() gives a buffer node: its layout is the node's own)
  Array ready = vals.node()->op == detail::Op::Buffer ? vals : vals.eval();
  if (!is_c_contiguous(ready.shape(), ready.node()->strides())) ready = Array(detail::make_copy(ready.node(), true)).eval();
  const detail::Storage* src = detail::buffer_storage(*ready.node());
  const std::int64_t src_offset = ready.node()->offset();
  const cudaStream_t stream = rt::current_stream(buf->placement().index);
  exec::order_after_last_use(*buf, stream);
  exec::order_after_last_use(*src, stream);
  const std::size_t item = itemsize(x.dtype());
  copy_into_box(static_cast<const char*>(src->data()) + src_offset * static_cast<std::int64_t>(item), buf->data(), *box,
                item, stream);
  return "";
}

}  // namespace detail

}  // namespace loom
