#include "calls/random_draw.hpp"

#include <fmt/format.h>

#include "graph/call.hpp"
#include "reference/evaluator.hpp"

namespace loom::detail {

namespace {

DType draw_dtype(rt::DrawKind kind) {
  switch (kind) {
    case rt::DrawKind::Bits:
    case rt::DrawKind::Poisson: return DType::UInt32;
    case rt::DrawKind::Normal32: return DType::Float32;
    case rt::DrawKind::Normal64: return DType::Float64;
  }
  return DType::UInt32;
}

}  // namespace

Array make_draw(const char* name, const rt::Draw& d) {
  auto spec = std::make_shared<CallSpec>();
  spec->name = fmt::format("random.{}", name);
  spec->text = fmt::format("{} {}, seed {}, offset {}", rt::curand_function(d.kind), rt::rng_name(d.type), d.seed,
                           rt::curand_offset(d.type, d.kind, d.position));
  if (d.kind == rt::DrawKind::Poisson) spec->text += fmt::format(", lambda {}", d.lambda);
  spec->outputs = {{draw_dtype(d.kind), Shape{static_cast<std::int64_t>(d.n)}}};
  spec->device = [d](CallContext& ctx) { rt::generate_device(d, ctx.device, ctx.stream, ctx.out[0]); };
  spec->host = [d](std::span<const ref::HostArray* const>, std::span<ref::HostArray> out) {
    rt::generate_host(d, out[0].data.data());
  };
  return Array(make_call(std::move(spec))[0]);
}

Array make_sample(const char* name, const rt::SamplerArgs& args, const Array* vec) {
  auto spec = std::make_shared<CallSpec>();
  spec->name = fmt::format("random.{}", name);
  spec->text = fmt::format("loom Philox4x32-10 substreams, {}, seed {}, block {}", rt::sampler_name(args.kind),
                           args.seed, args.block0);
  if (vec) spec->inputs = {vec->astype(DType::Float64).node()};
  const DType dtype = rt::sampler_is_integer(args.kind) ? DType::Int64 : DType::Float64;
  spec->outputs = {{dtype, Shape{rt::sampler_outputs(args)}}};
  spec->device = [args](CallContext& ctx) {
    rt::SamplerArgs a = args;
    if (!ctx.in.empty()) a.vec = static_cast<const double*>(ctx.contiguous(0).data());
    a.out = ctx.out[0];
    rt::sample_device(a, ctx.stream);
  };
  spec->host = [args](std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out) {
    rt::SamplerArgs a = args;
    if (!in.empty()) a.vec = reinterpret_cast<const double*>(in[0]->data.data());
    a.out = out[0].data.data();
    rt::sample_host(a);
  };
  return Array(make_call(std::move(spec))[0]);
}

}  // namespace loom::detail
