// The row-copy call of concatenate and stack (lib/api/joining.cpp builds the joins: a chain of
// Op::Place nodes that the consuming kernel fuses). Each element of such a kernel tests every
// piece's box, so past 8 inputs that are all evaluated (buffers or views of buffers) one barrier
// call copies them, rows of each input into their columns of the output, up to 64 inputs a
// launch (runtime/libs/cub/copy_rows.cu: 16 bytes a thread where the alignment allows). It is
// installed as the library loads and reached through detail::join_rows.

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

}  // namespace loom
