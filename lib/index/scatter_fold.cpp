// NumPy's ufunc.at as a fold (index/scatter_fold.hpp): one barrier call whose host side applies
// the values in index order and whose device side sorts them by position (stably) and folds each
// position's run in one thread (runtime/libs/cub/cub_scatter.cu, scatter_fold). The step itself,
// its casts included, is one function for both: runtime/libs/ufunc_at_fold.hpp.

#include "index/scatter_fold.hpp"

#include <fmt/format.h>

#include <bit>
#include <complex>

#include <loom/errors.hpp>

#include "calls/call_helpers.hpp"
#include "index/write_helpers.hpp"
#include "reference/evaluator.hpp"
#include "runtime/libs/ufunc_at_fold.hpp"

namespace loom::calls {

namespace {

using foldat::FoldOp;
using foldat::Rounding;
using ref::HostArray;

// The ufunc.at functions' ops (a WriteOp of no ufunc.at function has no fold).
FoldOp fold_op(WriteOp op) {
  if (op == WriteOp::Add) return FoldOp::Add;
  if (op == WriteOp::Subtract) return FoldOp::Subtract;
  if (op == WriteOp::Multiply) return FoldOp::Multiply;
  if (op == WriteOp::Divide) return FoldOp::Divide;
  if (op == WriteOp::Min) return FoldOp::Minimum;
  if (op == WriteOp::Max) return FoldOp::Maximum;
  throw InternalError(fmt::format("internal: {}.at has no fold", ufunc_name(op)));
}

// The dtype the values are read in (float16 and bfloat16 as float32, rounded after each step).
DType compute_dtype(DType loop) { return is_half(loop) ? DType::Float32 : loop; }
Rounding rounding_of(DType loop) {
  if (loop == DType::Float16) return Rounding::Half;
  if (loop == DType::BFloat16) return Rounding::BFloat16;
  return Rounding::None;
}

// The host side: every value in order, into the position it names.
void host_fold(FoldOp op, DType target, Rounding rounding, const HostArray& pos, const HostArray& values,
               const HostArray& held_in, HostArray& held_out) {
  const std::size_t m = pos.numel();
  auto* h = reinterpret_cast<std::int64_t*>(held_out.data.data());
  std::copy_n(reinterpret_cast<const std::int64_t*>(held_in.data.data()), held_in.numel(), h);
  const auto run = [&]<class R>() {
    const auto* v = reinterpret_cast<const R*>(values.data.data());
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t p = pos.dtype == DType::UInt32 ? reinterpret_cast<const std::uint32_t*>(pos.data.data())[i]
                                                         : reinterpret_cast<const std::uint64_t*>(pos.data.data())[i];
      h[p] = foldat::step<R>(op, h[p], v[i], target, rounding);
    }
  };
  visit_dtype(values.dtype, [&]<class T>() {
    if constexpr (std::is_same_v<T, std::complex<float>>) run.template operator()<foldat::Cx<float>>();
    else if constexpr (std::is_same_v<T, std::complex<double>>) run.template operator()<foldat::Cx<double>>();
    else if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) run.template operator()<T>();
    else throw InternalError(fmt::format("internal: a fold of {} values", name(values.dtype)));
  });
}

}  // namespace

bool ufunc_at_folds(DType loop, DType target, WriteOp op) {
  const bool modular = is_integer(loop) && is_integer(target);
  const bool real_part = is_complex(loop) && is_floating(target) && (op == WriteOp::Add || op == WriteOp::Subtract);
  return !modular && !real_part && !same_kind(loop, target);
}

Array fold_at(const Array& x, const Array& pos, const Array& v, WriteOp op, DType loop) {
  const FoldOp fop = fold_op(op);
  if (is_complex(loop) && fop != FoldOp::Add && fop != FoldOp::Subtract && fop != FoldOp::Multiply) {
    throw DTypeError(fmt::format("{}.at: {} values into a {} array are not supported (NumPy's complex {} applied "
                                 "one value at a time); cast the values to {} first",
                                 ufunc_name(op), name(loop), name(x.dtype()), ufunc_name(op), name(x.dtype())));
  }
  if (!is_integer(x.dtype()) && !is_bool(x.dtype())) {
    throw InternalError(fmt::format("internal: a fold into a {} array", name(x.dtype())));
  }
  const std::int64_t m = pos.size(), n = x.size();
  const DType target = x.dtype(), compute = compute_dtype(loop);
  const Rounding rounding = rounding_of(loop);
  // The values as the loop reads them (cast to its dtype first, then to float for the half loops).
  const Array vals = v.astype(loop).astype(compute).broadcast_to(pos.shape()).reshape({m});
  const bool pos32 = n <= (std::int64_t{1} << 32);
  const Array p = pos.reshape({m}).astype(pos32 ? DType::UInt32 : DType::Int64);
  const Array held = x.astype(DType::Int64).reshape({n});  // the target's values (uint64: their bits)
  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = ufunc_name(op);
  const int bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1) - 1))));
  spec->text = fmt::format("cub::DeviceRadixSort::SortPairs on {} position bits + a thread per position applying {} "
                           "in index order in {}, cast back into {} after each value (NumPy's ufunc.at)",
                           bits, ufunc_name(op), name(loop), name(target));
  spec->inputs = {p.node(), vals.node(), held.node()};
  spec->outputs = {{DType::Int64, Shape{n}}};
  spec->device = [=](detail::CallContext& ctx) {
    algo::scatter_fold(compute, fop, rounding, target, ctx.contiguous(0).data(), pos32, ctx.contiguous(1).data(), m,
                       static_cast<const std::int64_t*>(ctx.contiguous(2).data()), static_cast<std::int64_t*>(ctx.out[0]),
                       n, stream_of(ctx), workspace_of(ctx));
  };
  spec->host = [=](std::span<const HostArray* const> in, std::span<HostArray> out) {
    host_fold(fop, target, rounding, *in[0], *in[1], *in[2], out[0]);
  };
  return make_call_arrays(spec)[0].reshape(x.shape()).astype(target);
}

}  // namespace loom::calls
