// concatenate and stack (include/loom/manipulation.hpp): NumPy's checks and dtype promotion, then the inputs
// placed one after the other (lib/api/joining.cpp: a chain of Op::Place nodes that the consuming
// kernel fuses). Each element of such a kernel tests every piece's box, so past 8 inputs:
//   - all of them evaluated (buffers or views of buffers): one barrier call copies them, rows of
//     each input into their columns of the output, up to 64 inputs a launch
//     (runtime/libs/cub/copy_rows.cu: 16 bytes a thread where the alignment allows);
//   - else groups of 8 are joined by kernels of their own first (bench/NOTES.md), and the groups
//     placed as above.

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/manipulation.hpp>
#include <loom/ops.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "graph/node.hpp"
#include "graph/promotion.hpp"
#include "reference/evaluator.hpp"

namespace loom {

namespace {

constexpr std::size_t kMaxPieces = 8;

DType common_dtype(const std::vector<Array>& arrays) {
  DType t = arrays[0].dtype();
  for (std::size_t i = 1; i < arrays.size(); ++i) t = promote_types(t, arrays[i].dtype());
  return t;
}

bool evaluated(const Array& a) { return a.node()->op == detail::Op::Buffer; }

// The output (of `shape`, joined along `axis`) as rows: `outer` rows (the dims before the axis),
// each the inputs' blocks (of the input's size / outer elements) side by side. Inputs of one
// dtype, not empty, with the output's dims before the axis (stack's have no axis dim yet).
Array copy_call(const std::vector<Array>& parts, int axis, const Shape& shape) {
  const DType t = parts[0].dtype();
  const auto item = static_cast<std::int64_t>(itemsize(t));
  std::int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  std::vector<std::int64_t> widths;  // bytes of each input's block in a row
  for (const Array& a : parts) widths.push_back(a.size() / outer * item);
  const std::int64_t pitch = shape.numel() / outer * item;

  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = "concatenate";
  spec->text = fmt::format("loom copy rows ({} inputs, {} row(s)), {}", parts.size(), outer, name(t));
  for (const Array& a : parts) spec->inputs.push_back(a.node());
  spec->outputs = {{t, shape}};
  spec->device = [=](detail::CallContext& ctx) {
    std::vector<algo::RowPiece> pieces;
    std::int64_t at = 0;
    for (std::size_t k = 0; k < widths.size(); ++k) {
      const detail::CallArg& in = ctx.contiguous(static_cast<int>(k));
      pieces.push_back({in.data(), widths[k], at, widths[k]});
      at += widths[k];
    }
    algo::copy_rows_batched(pieces, ctx.out[0], pitch, outer, calls::stream_of(ctx));
  };
  spec->host = [=](std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out) {
    std::byte* dst = out[0].data.data();
    std::int64_t at = 0;
    for (std::size_t k = 0; k < widths.size(); ++k) {
      const std::byte* src = in[k]->data.data();
      for (std::int64_t r = 0; r < outer; ++r) {
        std::memcpy(dst + r * pitch + at, src + r * widths[k], static_cast<std::size_t>(widths[k]));
      }
      at += widths[k];
    }
  };
  return calls::make_call_arrays(spec)[0];
}

// Installed as the library loads: concatenate and stack reach it through detail::join_rows.
[[maybe_unused]] const bool g_installed = (detail::install_join_rows(&copy_call), true);

}  // namespace

Array concatenate(const std::vector<Array>& arrays_in, std::optional<std::int64_t> axis_in) {
  if (arrays_in.empty()) throw ValueError("need at least one array to concatenate");
  std::vector<Array> arrays;
  for (const Array& a : arrays_in) {
    detail::leaf_of(a, "concatenate");  // a handle with no array is an error
    arrays.push_back(axis_in ? a : detail::reshaped(a, {a.size()}));
  }
  const int nd = arrays[0].ndim();
  if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    if (arrays[i].ndim() != nd) {
      throw ValueError(fmt::format("all the input arrays must have same number of dimensions, but the array at "
                                   "index 0 has {} dimension(s) and the array at index {} has {} dimension(s)",
                                   nd, i, arrays[i].ndim()));
    }
  }
  const int axis = detail::normalize_axis(axis_in.value_or(0), nd);
  Shape shape = arrays[0].shape();
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    for (int d = 0; d < nd; ++d) {
      if (d != axis && arrays[i].shape()[d] != shape[d]) {
        throw ValueError(fmt::format("all the input array dimensions except for the concatenation axis must match "
                                     "exactly, but along dimension {}, the array at index 0 has size {} and the "
                                     "array at index {} has size {}",
                                     d, shape[d], i, arrays[i].shape()[d]));
      }
    }
    shape[axis] += arrays[i].shape()[axis];
  }
  const DType t = common_dtype(arrays);
  std::vector<Array> parts;
  for (const Array& a : arrays) {
    if (a.shape()[axis] > 0) parts.push_back(a.dtype() == t ? a : astype(a, t));
  }
  if (parts.empty()) return zeros(shape, t);  // every input empty along the axis
  if (parts.size() > kMaxPieces && shape.numel() > 0 && std::all_of(parts.begin(), parts.end(), evaluated)) {
    return detail::join_rows(parts, axis, shape);
  }
  while (parts.size() > kMaxPieces) {
    std::vector<Array> groups;
    for (std::size_t i = 0; i < parts.size(); i += kMaxPieces) {
      const std::vector<Array> g(parts.begin() + static_cast<std::ptrdiff_t>(i),
                                 parts.begin() + static_cast<std::ptrdiff_t>(std::min(parts.size(), i + kMaxPieces)));
      const Array joined = detail::place_all(g, axis);
      groups.push_back(g.size() == 1 ? joined : Array(detail::make_copy(detail::leaf_of(joined, "concatenate"), true)));
    }
    parts = std::move(groups);
  }
  return detail::place_all(parts, axis);
}

Array stack(const std::vector<Array>& arrays, std::int64_t axis) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const Array& a : arrays) {
    detail::leaf_of(a, "stack");
    if (a.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  }
  const int ax = detail::normalize_axis(axis, arrays[0].ndim() + 1);
  const DType t = common_dtype(arrays);
  const auto ready = [t](const Array& a) { return a.dtype() == t && evaluated(a); };
  if (arrays.size() > kMaxPieces && arrays[0].size() > 0 && std::all_of(arrays.begin(), arrays.end(), ready)) {
    Shape shape = arrays[0].shape();
    shape.insert(ax, static_cast<std::int64_t>(arrays.size()));
    return detail::join_rows(arrays, ax, shape);  // the inputs as they are: no view with the new axis
  }
  std::vector<Array> ex;
  for (const Array& a : arrays) ex.push_back(a.expand_dims(ax));
  return concatenate(ex, ax);
}

}  // namespace loom
