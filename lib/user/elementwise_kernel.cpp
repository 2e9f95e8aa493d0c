// ElementwiseKernel (include/loom/kernels.hpp): each call an Op::User node that fuses with the
// ops around it, or, when it cannot be one (raw arguments, several outputs, loop code, `i`, ...),
// a kernel of its own that codegen writes for the call's dtypes and collapsed dimension count
// (codegen/user_kernel.hpp: a grid-stride loop over the output; a broadcast input read through
// its strides, 0 along broadcast dims; a raw one by the body's own indices).

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

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

// One call, planned: the output shape, the arrays the kernel reads, the collapse of its dims.
struct EwCall {
  Shape shape;
  std::vector<Array> inputs;  // strided ones and raw ones, in parameter order (cast as declared),
                              // then the arrays given for outputs (read as raw: their values)
  std::vector<bool> raw;      // per entry of inputs
  std::vector<Shape> predicted;  // strides of the strided inputs as they will be evaluated
  std::vector<std::vector<int>> groups;
  detail::Resolution types;
  // What the call writes: each output (its shape, and the entry of `inputs` whose values it
  // starts from, -1 for a fresh buffer), then, in a kernel without outputs, its raw arguments
  // (parameter positions), each a copy of the array given.
  std::vector<Shape> out_shapes;
  std::vector<int> out_init;
  std::vector<std::size_t> written_raw;
};

int strided_count(const EwCall& c) {
  return static_cast<int>(std::count(c.raw.begin(), c.raw.end(), false));
}

// An output given as an array: its shape, which a raw one keeps and a strided one gives the loop.
const Shape& given_shape(const KernelArg& a) { return a.kind() == KernelArg::Kind::Out ? a.out().shape : a.array().shape(); }

EwCall plan_call(const detail::UserKernelState& s, const std::vector<KernelArg>& args) {
  EwCall c;
  c.types = detail::resolve(s.in, s.out, args, s.name);
  bool have_shape = false;
  // The outputs' shape: an Out's (or a non-raw array's given for an output), else the strided
  // inputs' broadcast, else `size`, else 0-d.
  for (std::size_t k = s.in.size(); k < args.size(); ++k) {
    if (args[k].kind() == KernelArg::Kind::Array && s.out[k - s.in.size()].raw) continue;
    if (have_shape && given_shape(args[k]) != c.shape) {
      throw ValueError(fmt::format("{}: the outputs given have different shapes", s.name));
    }
    c.shape = given_shape(args[k]);
    have_shape = true;
  }
  bool strided = false;
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    if (args[k].kind() != KernelArg::Kind::Array) continue;
    Array a = args[k].array();
    if (a.dtype() != c.types.in_dtypes[k]) {
      if (s.out.empty() && s.in[k].raw) {  // written: the array must hold the parameter's dtype
        throw DTypeError(fmt::format("{}: raw argument {} is written, so its array must be {}, not {}", s.name,
                                     s.in[k].name, name(c.types.in_dtypes[k]), name(a.dtype())));
      }
      a = a.astype(c.types.in_dtypes[k]);
    }
    c.inputs.push_back(a);
    c.raw.push_back(s.in[k].raw);
    if (s.out.empty() && s.in[k].raw) c.written_raw.push_back(k);
    if (s.in[k].raw) continue;
    if (!have_shape) c.shape = strided ? detail::broadcast_shapes(c.shape, a.shape()) : a.shape();
    strided = true;
  }
  const bool all_raw = !strided && std::any_of(s.in.begin(), s.in.end(), [](const UserParam& p) { return p.raw; });
  if (!have_shape && !strided && (all_raw || s.ew.size >= 0)) {
    if (s.ew.size < 0) throw ValueError(fmt::format("{}: loop size is undecided (every argument is raw: give `size`)", s.name));
    c.shape = Shape{s.ew.size};
  }
  for (std::size_t k = 0; k < s.out.size(); ++k) {
    const bool given = s.in.size() + k < args.size() && args[s.in.size() + k].kind() == KernelArg::Kind::Array;
    c.out_shapes.push_back(given && s.out[k].raw ? given_shape(args[s.in.size() + k]) : c.shape);
    c.out_init.push_back(given ? static_cast<int>(c.inputs.size()) : -1);
    if (given) {
      c.inputs.push_back(args[s.in.size() + k].array());
      c.raw.push_back(true);
    }
  }
  std::vector<Shape> all;
  for (std::size_t j = 0; j < c.inputs.size(); ++j) {
    if (c.raw[j]) continue;
    const Array& a = c.inputs[j];
    if (detail::broadcast_shapes(a.shape(), c.shape) != c.shape) {
      throw ValueError(fmt::format("{}: an input of shape {} does not broadcast to the output shape {}", s.name,
                                   detail::compact(a.shape()), detail::compact(c.shape)));
    }
    c.predicted.push_back(detail::predicted_strides(a));
    all.push_back(detail::broadcast_strides(a.shape(), c.predicted.back(), c.shape));
  }
  all.push_back(contiguous_strides(c.shape));  // the outputs
  c.groups = detail::collapse_groups(c.shape, all);
  return c;
}

// The call as codegen describes a user kernel (codegen/user_kernel.hpp): each parameter's kind
// and dtype, the user's code, the collapsed dims.
codegen::UserElementwisePlan plan_of(const detail::UserKernelState& s, const EwCall& c, const std::vector<KernelArg>& args) {
  codegen::UserElementwisePlan p;
  p.name = s.name;
  p.types = detail::user_types(c.types);
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    const codegen::UserArgKind kind = args[k].kind() == KernelArg::Kind::Scalar ? codegen::UserArgKind::Scalar
                                      : s.in[k].raw                             ? codegen::UserArgKind::Raw
                                                                                : codegen::UserArgKind::Strided;
    p.in.push_back({kind, s.in[k].name, c.types.in_dtypes[k]});
  }
  for (std::size_t k = 0; k < s.out.size(); ++k) p.out.push_back({s.out[k].name, c.types.out_dtypes[k], s.out[k].raw});
  p.body = s.body;
  p.preamble = s.ew.preamble;
  p.loop_prep = s.ew.loop_prep;
  p.after_loop = s.ew.after_loop;
  p.dims = static_cast<int>(c.groups.size());
  return p;
}

// Why the call cannot be an Op::User node that fuses with the ops around it ("" when it can):
// it can with one output, no raw parameter, at most 3 arguments, no loop code or size, dtypes
// loom's kernels hold as they are (bool, integers, float32, float64), and a body that is a
// statement list of its own (no `i`, `_ind`, return, continue, break, goto). NVRTC options are
// kept on the node (its kernel is compiled with them and holds nothing compiled otherwise).
std::string why_own_kernel(const detail::UserKernelState& s, const EwCall& c, const std::vector<KernelArg>& args) {
  if (s.out.empty()) return "no outputs: it writes its raw arguments";
  if (s.out.size() != 1) return "several outputs";
  if (c.out_init[0] >= 0) return "an array given for its output (written in place of its values)";
  if (args.size() > 3) return "more than 3 arguments";
  if (!s.ew.loop_prep.empty() || !s.ew.after_loop.empty()) return "loop_prep or after_loop code";
  if (s.ew.size >= 0) return "a size of its own";
  if (s.out[0].raw || std::any_of(s.in.begin(), s.in.end(), [](const UserParam& p) { return p.raw; })) return "a raw parameter";
  bool dtypes = detail::fusable_dtype(c.types.out_dtypes[0]);
  for (std::size_t k = 0; k < s.in.size(); ++k) dtypes = dtypes && detail::fusable_dtype(c.types.in_dtypes[k]);
  if (!dtypes) return "a dtype other than bool, the integers, float32 and float64";
  for (const char* w : {"i", "_ind", "return", "continue", "break", "goto"}) {
    if (detail::names(s.body, w)) return fmt::format("its body uses `{}`", w);
  }
  if (std::any_of(s.in.begin(), s.in.end(), detail::value_like) || detail::value_like(s.out[0])) {
    return "a parameter named like a generated value (v<k>)";
  }
  return "";
}

Array fused(detail::UserKernelState& s, const EwCall& c, const std::vector<KernelArg>& args, const std::string& sig) {
  const auto ops = s.fused_ops_by(sig, [&] {
    auto op = std::make_shared<detail::UserOp>();
    op->name = s.name;
    op->expr = codegen::user_elementwise_block(plan_of(s, c, args));
    op->preamble = s.ew.preamble;
    op->options = s.ew.options;
    std::string all = op->name + '\0' + op->expr + '\0' + op->preamble;
    for (const std::string& o : op->options) all += '\0' + o;
    op->hash = std::hash<std::string>{}(all);
    return detail::UserKernelState::FusedOps{std::move(op)};
  });
  return Array(detail::make_user(ops[0], c.types.out_dtypes[0], c.shape, detail::fused_inputs(s, c.types.in_dtypes, args, c.shape)));
}

}  // namespace

ElementwiseKernel::ElementwiseKernel(std::string in_params, std::string out_params, std::string operation,
                                     std::string name, ElementwiseOptions options)
    : state_(std::make_shared<detail::UserKernelState>()) {
  if (!std::all_of(name.begin(), name.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }) ||
      name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    throw ValueError(fmt::format("ElementwiseKernel: the name '{}' is not a C++ identifier", name));
  }
  state_->name = std::move(name);
  state_->in = detail::parse_params(in_params, state_->name);
  state_->out = detail::parse_params(out_params, state_->name);  // none: it writes its raw arguments
  for (const UserParam& o : state_->out) {
    for (const UserParam& i : state_->in) {
      if (i.name == o.name) throw ValueError(fmt::format("{}: duplicated parameter name '{}'", state_->name, o.name));
    }
  }
  state_->body = std::move(operation);
  state_->ew = std::move(options);
}

const std::string& ElementwiseKernel::name() const { return state_->name; }

std::string ElementwiseKernel::source(const std::vector<KernelArg>& args) const {
  return codegen::emit_user_elementwise(plan_of(*state_, plan_call(*state_, args), args)).text;
}

KernelOutputs ElementwiseKernel::operator()(const std::vector<KernelArg>& args) const {
  const auto st = state_;
  const EwCall c = plan_call(*st, args);
  const std::string sig = fmt::format("{}|{}|{}", detail::signature_of(c.types, args), c.groups.size(), strided_count(c));
  const std::string why = why_own_kernel(*st, c, args);
  // A node: its code compiles with the kernel it joins (a body NVRTC rejects throws CompileError
  // at the eval that compiles it).
  if (why.empty()) return KernelOutputs({fused(*st, c, args, sig)});
  const codegen::UserElementwisePlan plan = plan_of(*st, c, args);
  const auto module = st->module_by(sig, [&] { return codegen::emit_user_elementwise(plan).text; }, st->ew.options);
  module->check_compiles();  // at this line: NVRTC's errors (and, on a GPU, a wrong name)
  if (rt::has_gpu()) (void)module->kernel(st->name, st->name);
  if (st->out.empty() && c.written_raw.empty()) return KernelOutputs({});  // writes nothing anyone sees

  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = st->name;
  spec->text = fmt::format("ElementwiseKernel {} ({} dim(s) after collapsing; a kernel of its own: {})", st->name,
                           c.groups.size(), why);
  for (std::size_t j = 0; j < c.inputs.size(); ++j) {
    spec->inputs.push_back(detail::leaf_of(c.inputs[j], "ElementwiseKernel"));
    // Strided parameters are read through their strides (as predicted); raw ones in C order.
    spec->layouts.push_back(c.raw[j] ? detail::InputLayout::Contiguous : detail::InputLayout::AsItLies);
  }
  const std::size_t nout = st->out.size();
  for (std::size_t k = 0; k < nout; ++k) spec->outputs.push_back({c.types.out_dtypes[k], c.out_shapes[k]});
  // A raw argument a kernel without outputs writes: its entry of c.inputs (they are in order).
  std::vector<int> raw_entry(st->in.size(), -1);
  for (std::size_t k = 0, entry = 0; k < st->in.size(); ++k) {
    if (args[k].kind() == KernelArg::Kind::Scalar) continue;
    if (std::find(c.written_raw.begin(), c.written_raw.end(), k) != c.written_raw.end()) {
      raw_entry[k] = static_cast<int>(entry);
      spec->outputs.push_back({c.types.in_dtypes[k], c.inputs[entry].shape()});
    }
    ++entry;
  }
  // Scalars' bytes in their parameter's dtype, in parameter order.
  std::vector<std::vector<unsigned char>> scalars(st->in.size());
  for (std::size_t k = 0; k < st->in.size(); ++k) {
    if (args[k].kind() == KernelArg::Kind::Scalar) scalars[k] = detail::scalar_bytes(args[k].value(), c.types.in_dtypes[k]);
  }
  std::vector<bool> is_scalar;
  for (std::size_t k = 0; k < st->in.size(); ++k) is_scalar.push_back(args[k].kind() == KernelArg::Kind::Scalar);
  const codegen::UserParamsLayout layout = codegen::user_params_layout(plan);
  spec->device = [st, c, scalars, is_scalar, raw_entry, module, layout](detail::CallContext& ctx) {
    // What the kernel writes in place of arrays starts from their values (CuPy writes into the
    // arrays themselves): copied first, loop or not.
    const std::size_t nout = st->out.size();
    for (std::size_t k = 0; k < nout; ++k) {
      if (c.out_init[k] >= 0) detail::copy_input_into(ctx, c.out_init[k], ctx.out[k]);
    }
    std::vector<void*> written(st->in.size(), nullptr);
    for (std::size_t k = 0, j = 0; k < st->in.size(); ++k) {
      if (raw_entry[k] < 0) continue;
      written[k] = ctx.out[nout + j++];
      detail::copy_input_into(ctx, raw_entry[k], written[k]);
    }
    const std::int64_t n = c.shape.numel();
    if (n == 0) return;
    const int nd = static_cast<int>(c.groups.size());
    std::vector<long long> params(layout.words, 0);
    params[0] = n;
    for (int g = 0; g < nd; ++g) {
      long long e = 1;
      for (int d : c.groups[static_cast<std::size_t>(g)]) e *= c.shape[d];
      params[layout.shape + static_cast<std::size_t>(g)] = e;
    }
    std::vector<void*> ptrs(st->in.size() + nout, nullptr);
    std::vector<long long> raw_n(st->in.size() + nout, 0);
    std::vector<std::vector<unsigned char>> values = scalars;
    std::vector<void*> argv{params.data()};
    int in = 0, strided = 0;
    for (std::size_t k = 0; k < st->in.size(); ++k) {
      if (is_scalar[k]) {
        argv.push_back(values[k].data());
        continue;
      }
      const int idx = in++;
      if (st->in[k].raw) {
        const detail::CallArg& a = ctx.contiguous(idx);
        ptrs[k] = written[k] ? written[k] : const_cast<void*>(a.data());
        raw_n[k] = a.shape.numel();
        argv.push_back(&ptrs[k]);
        argv.push_back(&raw_n[k]);
        continue;
      }
      const detail::CallArg* a = &ctx.in[static_cast<std::size_t>(idx)];
      const Shape& want = c.predicted[static_cast<std::size_t>(strided)];
      if (a->strides != want) a = &ctx.contiguous(idx);
      if (a->strides != want) throw InternalError(fmt::format("{}: an input's layout changed before the launch", st->name));
      const Shape b = detail::broadcast_strides(a->shape, a->strides, c.shape);
      for (int g = 0; g < nd; ++g) {
        params[layout.strides + static_cast<std::size_t>(strided * layout.dims1 + g)] = b[c.groups[static_cast<std::size_t>(g)].back()];
      }
      ptrs[k] = const_cast<void*>(a->data());
      argv.push_back(&ptrs[k]);
      ++strided;
    }
    for (std::size_t k = 0; k < nout; ++k) {
      const std::size_t at = st->in.size() + k;
      ptrs[at] = ctx.out[k];
      argv.push_back(&ptrs[at]);
      if (st->out[k].raw) {
        raw_n[at] = c.out_shapes[k].numel();
        argv.push_back(&raw_n[at]);
      }
    }
    const rt::LoadedKernel kern = module->kernel(st->name, st->name);
    const std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, std::int64_t{1} << 30);
    rt::launch(kern, dim3(static_cast<unsigned>(blocks)), dim3(256), argv.data(), 0, calls::stream_of(ctx));
  };
  const std::string what = st->name;
  spec->host = [what](std::span<const ref::HostArray* const>, std::span<ref::HostArray>) {
    throw Error(fmt::format("ElementwiseKernel {}: user CUDA code runs only on a GPU (the host reference evaluator "
                            "cannot run it)",
                            what));
  };
  std::vector<Array> outs = calls::make_call_arrays(spec);
  // Writes go back to the arrays they were made through: named ones rebound, x[i] written into x.
  for (std::size_t k = 0; k < nout && st->in.size() + k < args.size(); ++k) args[st->in.size() + k].write_back(outs[k]);
  for (std::size_t j = 0; j < c.written_raw.size(); ++j) args[c.written_raw[j]].write_back(outs[nout + j]);
  return KernelOutputs(std::move(outs));
}

}  // namespace loom
