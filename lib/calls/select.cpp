// calls::sorted_at (lib/calls/select.hpp): a barrier call that selects elements of sorted rows
// (algo::row_select on the GPU; the host sorts each row and picks), or the sort and a gather.

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/manipulation.hpp>
#include <loom/sorting.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "calls/select.hpp"
#include "calls/sorting_host.hpp"
#include "graph/node.hpp"
#include "runtime/libs/cub_algorithms.hpp"
#include "runtime/libs/row_select.hpp"

namespace loom::calls {


Array sorted_at(const Array& rows_in, const std::vector<std::int64_t>& positions) {
  const Array x(detail::leaf_of(rows_in, "select"));
  const DType t = x.dtype();
  const std::int64_t length = x.shape()[x.ndim() - 1];
  const std::int64_t rows = length == 0 ? 0 : x.size() / length;
  const auto np = static_cast<std::int64_t>(positions.size());
  if (is_complex(t) || np == 0 || np > algo::kMaxSelectPositions || !algo::selects_in_blocks(itemsize(t), length)) {
    const Array sorted = sort(x, -1);
    std::vector<Array> parts;
    for (std::int64_t p : positions) parts.push_back(sorted.slice(-1, p, p + 1));
    return concatenate(parts, -1);
  }
  algo::SelectPositions pos;
  pos.count = static_cast<int>(np);
  for (std::int64_t j = 0; j < np; ++j) pos.at[j] = positions[static_cast<std::size_t>(j)];
  Shape out_shape = x.shape();
  out_shape[out_shape.size() - 1] = np;
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = "select";
  spec->text = fmt::format("a radix select per row in shared memory ({} of {} sorted positions), {}", np, length, name(t));
  spec->inputs = {x.node()};
  spec->outputs = {{t, out_shape}};
  spec->device = [=](detail::CallContext& ctx) {
    const detail::CallArg& in = ctx.contiguous(0);
    algo::row_select(in.dtype, in.data(), rows, length, pos, ctx.out[0], stream_of(ctx));
  };
  spec->host = [=](std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out) {
    ref::HostArray sorted = *in[0];
    host_sort(*in[0], sorted, length);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t j = 0; j < np; ++j) {
        copy_element(sorted, r * length + positions[static_cast<std::size_t>(j)], out[0].data.data(), r * np + j);
      }
    }
  };
  return make_call_arrays(spec)[0];
}

}  // namespace loom::calls
