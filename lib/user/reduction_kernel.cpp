// ReductionKernel (include/loom/kernels.hpp): each call graph nodes that fuse like a built-in
// reduction, or, when it cannot be (several outputs, no identity, NVRTC options, ...), a kernel
// of its own that codegen writes around the user's map, reduce and post-map expressions
// (codegen/user_kernel.hpp): one block per output element; each thread folds its share of the
// reduced elements in index order (element t, t + 256, ...), then the block combines the 256
// partial results in a fixed tree: the same bits every run. Inputs broadcast by strides; the
// kept and the reduced dims are collapsed separately.

#include <functional>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/kernels.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "user/user_kernels.hpp"
#include "user/user_module.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"

namespace loom {

namespace {

using detail::UserParam;

struct RedCall {
  Shape shape;                 // the broadcast input shape
  std::vector<int> kept, red;  // its dims, kept and reduced
  Shape out;                   // the output shape (keepdims as asked)
  std::vector<Array> inputs;   // the array inputs, cast as declared
  std::vector<Shape> predicted;
  std::vector<std::vector<int>> kgroups, rgroups;  // collapsed, as dims of `shape`
  detail::Resolution types;
  DType reduce_type = DType::Float32;
};

// Collapses the dims `dims` (in order) of `shape` over every operand's strides.
std::vector<std::vector<int>> collapse_subset(const Shape& shape, const std::vector<int>& dims, const std::vector<Shape>& strides) {
  Shape sub;
  std::vector<Shape> sst(strides.size());
  for (int d : dims) {
    sub.push_back(shape[d]);
    for (std::size_t j = 0; j < strides.size(); ++j) sst[j].push_back(strides[j][d]);
  }
  std::vector<std::vector<int>> g = detail::collapse_groups(sub, sst);
  for (auto& grp : g) {
    for (int& d : grp) d = dims[static_cast<std::size_t>(d)];
  }
  return g;
}

RedCall plan_call(const detail::UserKernelState& s, const std::vector<KernelArg>& args, const Axes& axis, bool keepdims) {
  RedCall c;
  if (args.size() != s.in.size()) {
    throw ValueError(fmt::format("{}: wrong number of arguments: {} given, {} inputs", s.name, args.size(), s.in.size()));
  }
  c.types = detail::resolve(s.in, s.out, args, s.name);
  if (s.red.reduce_type.empty()) {
    c.reduce_type = c.types.out_dtypes[0];
  } else if (const auto t = detail::parse_params(s.red.reduce_type + " _", s.name)[0]; t.dtype) {
    c.reduce_type = *t.dtype;
  } else if (auto it = c.types.types.find(t.type); it != c.types.types.end()) {
    c.reduce_type = it->second;
  } else {
    throw DTypeError(fmt::format("{}: cannot determine reduce_type {}", s.name, s.red.reduce_type));
  }
  bool any = false;
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    if (s.in[k].raw) throw ValueError(fmt::format("{}: raw parameters are not supported in a ReductionKernel", s.name));
    if (args[k].kind() != KernelArg::Kind::Array) continue;
    Array a = args[k].array();
    if (a.dtype() != c.types.in_dtypes[k]) a = a.astype(c.types.in_dtypes[k]);
    c.shape = any ? detail::broadcast_shapes(c.shape, a.shape()) : a.shape();
    any = true;
    c.inputs.push_back(a);
  }
  const int nd = c.shape.size();
  std::vector<bool> reduced(static_cast<std::size_t>(nd), axis.is_all());
  for (std::int64_t a : axis.list()) {
    const int d = detail::normalize_axis(a, nd);
    if (reduced[static_cast<std::size_t>(d)] && !axis.is_all()) throw ValueError("duplicate value in 'axis'");
    reduced[static_cast<std::size_t>(d)] = true;
  }
  for (int d = 0; d < nd; ++d) {
    (reduced[static_cast<std::size_t>(d)] ? c.red : c.kept).push_back(d);
    if (!reduced[static_cast<std::size_t>(d)]) c.out.push_back(c.shape[d]);
    else if (keepdims) c.out.push_back(1);
  }
  return c;
}

// What the kernel of its own needs besides: the inputs' strides and the collapsed dims.
void plan_layout(RedCall& c) {
  std::vector<Shape> all;
  for (const Array& a : c.inputs) {
    c.predicted.push_back(detail::predicted_strides(a));
    all.push_back(detail::broadcast_strides(a.shape(), c.predicted.back(), c.shape));
  }
  c.kgroups = collapse_subset(c.shape, c.kept, all);
  c.rgroups = collapse_subset(c.shape, c.red, all);
}

RedCall plan_full(const detail::UserKernelState& s, const std::vector<KernelArg>& args, const Axes& axis, bool keepdims) {
  RedCall c = plan_call(s, args, axis, keepdims);
  plan_layout(c);
  return c;
}

// The call as codegen describes a user kernel (codegen/user_kernel.hpp).
codegen::UserReducePlan plan_of(const detail::UserKernelState& s, const RedCall& c, const std::vector<KernelArg>& args) {
  codegen::UserReducePlan p;
  p.name = s.name;
  p.types = detail::user_types(c.types);
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    const codegen::UserArgKind kind = args[k].kind() == KernelArg::Kind::Scalar ? codegen::UserArgKind::Scalar
                                                                                : codegen::UserArgKind::Strided;
    p.in.push_back({kind, s.in[k].name, c.types.in_dtypes[k]});
  }
  for (std::size_t k = 0; k < s.out.size(); ++k) p.out.push_back({s.out[k].name, c.types.out_dtypes[k], false});
  p.reduce_type = c.reduce_type;
  p.map = s.map_expr;
  p.reduce = s.reduce_expr;
  p.post_map = s.post_map_expr;
  p.identity = s.identity;
  p.preamble = s.red.preamble;
  p.kept_dims = static_cast<int>(c.kgroups.size());
  p.reduced_dims = static_cast<int>(c.rgroups.size());
  return p;
}

// The call as graph nodes that fuse like a built-in reduction: the map as an Op::User node (the
// prologue), a ReduceKind::User reduction whose state is a struct made of the identity and the
// reduce expression (so every reduction strategy runs it), and the post-map as an Op::User node
// on the result (the epilogue): their ops, in that order.
detail::UserKernelState::FusedOps fused_ops(const detail::UserKernelState& s, const RedCall& c,
                                            const std::vector<KernelArg>& args) {
  const codegen::UserReduceBlocks b = codegen::user_reduce_blocks(plan_of(s, c, args));
  const auto user_op = [&](std::string name, std::string expr, std::string preamble) {
    auto op = std::make_shared<detail::UserOp>();
    op->kind = "ReductionKernel";
    op->name = std::move(name);
    op->expr = std::move(expr);
    op->preamble = std::move(preamble);
    op->hash = std::hash<std::string>{}(op->name + '\0' + op->expr + '\0' + op->preamble);
    return std::shared_ptr<const detail::UserOp>(std::move(op));
  };
  return {user_op(s.name, b.map, s.red.preamble), user_op(b.state_name, "", b.state),
          user_op(s.name + "_post", b.post_map, s.red.preamble)};
}

// It can be nodes when there is one output and an identity, no NVRTC options, at most 3
// arguments, reduced dims, dtypes loom's kernels hold as they are, and expressions that use no
// index (i, _ind, _in_ind, _out_ind, _J) or jump. Why it cannot ("" when it can):
std::string why_own_kernel(const detail::UserKernelState& s, const RedCall& c, const std::vector<KernelArg>& args) {
  if (s.out.size() != 1) return "several outputs";
  if (s.identity.empty()) return "no identity";
  if (!s.red.options.empty()) return "NVRTC options";
  if (args.size() > 3) return "more than 3 arguments";
  if (c.red.empty()) return "no reduced axis";
  bool dtypes = detail::fusable_dtype(c.types.out_dtypes[0]) && detail::fusable_dtype(c.reduce_type);
  for (std::size_t k = 0; k < s.in.size(); ++k) dtypes = dtypes && detail::fusable_dtype(c.types.in_dtypes[k]);
  if (!dtypes) return "a dtype other than bool, the integers, float32 and float64";
  if (std::any_of(s.in.begin(), s.in.end(), detail::value_like) || detail::value_like(s.out[0]) || s.out[0].name == "a") {
    return "a parameter named like a generated value (v<k>, or an output `a`)";
  }
  for (const std::string* text : {&s.map_expr, &s.reduce_expr, &s.post_map_expr, &s.identity}) {
    for (const char* w : {"i", "_ind", "_in_ind", "_out_ind", "_J", "return", "continue", "break", "goto"}) {
      if (detail::names(*text, w)) return fmt::format("its code uses `{}`", w);
    }
  }
  return "";
}

Array fused(detail::UserKernelState& s, const RedCall& c, const std::vector<KernelArg>& args, const std::string& sig) {
  const auto ops = s.fused_ops_by(sig, [&] { return fused_ops(s, c, args); });
  std::uint32_t axes = 0;
  for (int d : c.red) axes |= 1u << d;
  const detail::NodeRef mapped = detail::make_user(ops[0], c.reduce_type, c.shape,
                                                   detail::fused_inputs(s, c.types.in_dtypes, args, c.shape));
  const detail::NodeRef reduced = detail::make_user_reduce(mapped, axes, ops[1]);
  const Array out(detail::make_user(ops[2], c.types.out_dtypes[0], reduced->shape, {reduced}));
  return out.shape() == c.out ? out : out.reshape(c.out);
}

}  // namespace

ReductionKernel::ReductionKernel(std::string in_params, std::string out_params, std::string map_expr,
                                 std::string reduce_expr, std::string post_map_expr, std::string identity,
                                 std::string name, ReductionKernelOptions options)
    : state_(std::make_shared<detail::UserKernelState>()) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
      !std::all_of(name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; })) {
    throw ValueError(fmt::format("ReductionKernel: the name '{}' is not a C++ identifier", name));
  }
  state_->name = std::move(name);
  state_->in = detail::parse_params(in_params, state_->name);
  state_->out = detail::parse_params(out_params, state_->name);
  if (state_->in.empty() || state_->out.empty()) {
    throw ValueError(fmt::format("{}: a ReductionKernel needs input and output parameters", state_->name));
  }
  state_->map_expr = std::move(map_expr);
  state_->reduce_expr = std::move(reduce_expr);
  state_->post_map_expr = std::move(post_map_expr);
  state_->identity = std::move(identity);
  state_->red = std::move(options);
}

const std::string& ReductionKernel::name() const { return state_->name; }

std::string ReductionKernel::source(const std::vector<KernelArg>& args, Axes axis, bool keepdims) const {
  return codegen::emit_user_reduce(plan_of(*state_, plan_full(*state_, args, axis, keepdims), args)).text;
}

KernelOutputs ReductionKernel::operator()(const std::vector<KernelArg>& args, Axes axis, bool keepdims) const {
  const auto st = state_;
  RedCall c = plan_call(*st, args, axis, keepdims);
  std::int64_t n_red = 1;
  for (int d : c.red) n_red *= c.shape[d];
  if (n_red == 0 && st->identity.empty() && c.out.numel() > 0) {
    throw ValueError(fmt::format("zero-size array to reduction operation {} which has no identity", st->name));
  }
  const std::string why = why_own_kernel(*st, c, args);
  if (why.empty()) {
    // Nodes: the user's code compiles with the kernel it joins (an expression NVRTC rejects
    // throws CompileError at the eval that compiles it).
    const std::string sig = fmt::format("{}|fused|{}", detail::signature_of(c.types, args), static_cast<int>(c.reduce_type));
    return KernelOutputs({fused(*st, c, args, sig)});
  }
  plan_layout(c);
  const std::string sig = fmt::format("{}|{}|{}|{}|{}", detail::signature_of(c.types, args), c.kgroups.size(),
                                      c.rgroups.size(), c.inputs.size(), static_cast<int>(c.reduce_type));
  const codegen::UserReducePlan plan = plan_of(*st, c, args);
  const codegen::UserParamsLayout layout = codegen::user_params_layout(plan);
  const auto module = st->module_by(sig, [&] { return codegen::emit_user_reduce(plan).text; }, st->red.options);
  module->check_compiles();
  if (rt::has_gpu()) (void)module->kernel(st->name, st->name);

  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = st->name;
  spec->text = fmt::format("ReductionKernel {} ({} kept, {} reduced dim(s) after collapsing; a block per output; "
                           "a kernel of its own: {})",
                           st->name, c.kgroups.size(), c.rgroups.size(), why);
  for (const Array& a : c.inputs) {
    spec->inputs.push_back(detail::leaf_of(a, "ReductionKernel"));
    spec->layouts.push_back(detail::InputLayout::AsItLies);  // read through their (predicted) strides
  }
  for (DType t : c.types.out_dtypes) spec->outputs.push_back({t, c.out});
  std::vector<std::vector<unsigned char>> scalars(st->in.size());
  for (std::size_t k = 0; k < st->in.size(); ++k) {
    if (args[k].kind() == KernelArg::Kind::Scalar) scalars[k] = detail::scalar_bytes(args[k].value(), c.types.in_dtypes[k]);
  }
  spec->device = [st, c, scalars, n_red, module, layout](detail::CallContext& ctx) {
    const std::int64_t n_out = c.out.numel();
    if (n_out == 0) return;
    std::vector<long long> p(layout.words, 0);
    p[0] = n_out;
    p[1] = n_red;
    const auto extent = [&](const std::vector<int>& grp) {
      long long e = 1;
      for (int d : grp) e *= c.shape[d];
      return e;
    };
    for (std::size_t g = 0; g < c.kgroups.size(); ++g) p[layout.kshape + g] = extent(c.kgroups[g]);
    for (std::size_t g = 0; g < c.rgroups.size(); ++g) p[layout.rshape + g] = extent(c.rgroups[g]);
    const std::size_t kd1 = static_cast<std::size_t>(layout.kept1), rd1 = static_cast<std::size_t>(layout.reduced1);
    std::vector<void*> ptrs(c.inputs.size() + st->out.size(), nullptr);
    std::vector<std::vector<unsigned char>> values = scalars;
    std::vector<void*> argv{p.data()};
    std::size_t j = 0;
    for (std::size_t k = 0; k < st->in.size(); ++k) {
      if (!values[k].empty()) {
        argv.push_back(values[k].data());
        continue;
      }
      const int idx = static_cast<int>(j);
      const detail::CallArg* a = &ctx.in[j];
      if (a->strides != c.predicted[j]) a = &ctx.contiguous(idx);
      if (a->strides != c.predicted[j]) throw InternalError(fmt::format("{}: an input's layout changed before the launch", st->name));
      const Shape b = detail::broadcast_strides(a->shape, a->strides, c.shape);
      for (std::size_t g = 0; g < c.kgroups.size(); ++g) p[layout.kstrides + j * kd1 + g] = b[c.kgroups[g].back()];
      for (std::size_t g = 0; g < c.rgroups.size(); ++g) p[layout.rstrides + j * rd1 + g] = b[c.rgroups[g].back()];
      ptrs[j] = const_cast<void*>(a->data());
      argv.push_back(&ptrs[j]);
      ++j;
    }
    for (std::size_t k = 0; k < st->out.size(); ++k) {
      ptrs[c.inputs.size() + k] = ctx.out[k];
      argv.push_back(&ptrs[c.inputs.size() + k]);
    }
    const rt::LoadedKernel kern = module->kernel(st->name, st->name);
    const std::int64_t blocks = std::min<std::int64_t>(n_out, std::int64_t{1} << 30);
    rt::launch(kern, dim3(static_cast<unsigned>(blocks)), dim3(codegen::kUserReduceThreads), argv.data(), 0, calls::stream_of(ctx));
  };
  const std::string what = st->name;
  spec->host = [what](std::span<const ref::HostArray* const>, std::span<ref::HostArray>) {
    throw Error(fmt::format("ReductionKernel {}: user CUDA code runs only on a GPU (the host reference evaluator "
                            "cannot run it)",
                            what));
  };
  return KernelOutputs(calls::make_call_arrays(spec));
}

}  // namespace loom
