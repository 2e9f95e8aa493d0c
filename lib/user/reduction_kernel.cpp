// ReductionKernel (include/loom/kernels.hpp): a kernel generated around the user's map, reduce
// and post-map expressions. One block per output element: each thread folds its share of the
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

constexpr int kThreads = 256;

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

// Offsets loom_o<j> of the inputs at flat index `idx` over the groups whose extents and strides
// are loom_p.<ext>[g] and loom_p.<st>[j][g], added to `base` (an expression per input).
std::string unravel(const std::string& idx, int ngroups, int ns, const std::string& ext, const std::string& st,
                    const std::string& var, const std::string& base) {
  std::string s;
  for (int j = 0; j < ns; ++j) s += fmt::format("      long long {}{} = {};\n", var, j, fmt::format(fmt::runtime(base), j));
  if (ngroups == 0) return s;
  s += fmt::format("      long long {}_r = {};\n", var, idx);
  for (int g = ngroups - 1; g >= 1; --g) {
    s += fmt::format("      {{ const long long c = {0}_r % loom_p.{1}[{2}]; {0}_r /= loom_p.{1}[{2}];", var, ext, g);
    for (int j = 0; j < ns; ++j) s += fmt::format(" {0}{1} += c * loom_p.{2}[{1}][{3}];", var, j, st, g);
    s += " }\n";
  }
  for (int j = 0; j < ns; ++j) s += fmt::format("      {0}{1} += {0}_r * loom_p.{2}[{1}][0];\n", var, j, st);
  return s;
}

std::string red_source(const detail::UserKernelState& s, const RedCall& c, const std::vector<KernelArg>& args) {
  const int kd = static_cast<int>(c.kgroups.size()), rd = static_cast<int>(c.rgroups.size());
  const int ns = static_cast<int>(c.inputs.size());
  std::vector<DType> used = c.types.in_dtypes;
  used.insert(used.end(), c.types.out_dtypes.begin(), c.types.out_dtypes.end());
  used.push_back(c.reduce_type);
  std::string params = "const loom_params_t loom_p", loads, outs;
  int j = 0;
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    const char* ct = detail::user_ctype(c.types.in_dtypes[k]);
    if (args[k].kind() == KernelArg::Kind::Scalar) {
      params += fmt::format(", const {} loom_s{}", ct, k);
      loads += fmt::format("      const {} {} = loom_s{};\n", ct, s.in[k].name, k);
    } else {
      params += fmt::format(", const {}* __restrict__ loom_in{}", ct, k);
      loads += fmt::format("      const {} {} = loom_in{}[loom_o{}];\n", ct, s.in[k].name, k, j++);
    }
  }
  for (std::size_t k = 0; k < s.out.size(); ++k) {
    const char* ct = detail::user_ctype(c.types.out_dtypes[k]);
    params += fmt::format(", {}* __restrict__ loom_out{}", ct, k);
    outs += fmt::format("      {}& {} = loom_out{}[loom_row];\n", ct, s.out[k].name, k);
  }
  const bool has_identity = !s.identity.empty();
  const std::string init = has_identity ? fmt::format("_type_reduce a = (_type_reduce)({});\n      bool loom_has = true;", s.identity)
                                        : "_type_reduce a{};\n      bool loom_has = false;";
  return fmt::format(
      "// loom ReductionKernel {name}: {kd} kept and {rd} reduced dim(s) after collapsing\n{inc}{pre}\n"
      "struct loom_params_t {{ long long n_out, n_red; long long kshape[{kd1}]; long long rshape[{rd1}];"
      " long long kst[{ns1}][{kd1}]; long long rst[{ns1}][{rd1}]; }};\n"
      "extern \"C\" __global__ void __launch_bounds__({threads}) {name}({params}) {{\n{td}"
      "  typedef {rtype} _type_reduce;\n"
      "  __shared__ alignas(16) unsigned char loom_raw_sh[{threads} * sizeof(_type_reduce)];\n"
      "  __shared__ bool loom_sh_has[{threads}];\n"
      "  _type_reduce* loom_sh = reinterpret_cast<_type_reduce*>(loom_raw_sh);\n"
      "  for (long long loom_row = blockIdx.x; loom_row < loom_p.n_out; loom_row += gridDim.x) {{\n"
      "{kofs}      {init}\n"
      "      for (long long loom_j = threadIdx.x; loom_j < loom_p.n_red; loom_j += {threads}) {{\n"
      "{rofs}{loads}"
      "        const _type_reduce b = (_type_reduce)({map});\n"
      "        if (loom_has) {{ a = (_type_reduce)({reduce}); }} else {{ a = b; loom_has = true; }}\n"
      "      }}\n"
      "      loom_sh[threadIdx.x] = a;\n      loom_sh_has[threadIdx.x] = loom_has;\n      __syncthreads();\n"
      "      for (int loom_s = {threads} / 2; loom_s > 0; loom_s >>= 1) {{\n"
      "        if (threadIdx.x < loom_s && loom_sh_has[threadIdx.x + loom_s]) {{\n"
      "          const _type_reduce a = loom_sh[threadIdx.x], b = loom_sh[threadIdx.x + loom_s];\n"
      "          loom_sh[threadIdx.x] = loom_sh_has[threadIdx.x] ? (_type_reduce)({reduce}) : b;\n"
      "          loom_sh_has[threadIdx.x] = true;\n"
      "        }}\n        __syncthreads();\n      }}\n"
      "      if (threadIdx.x == 0) {{\n        const _type_reduce a = loom_sh[0];\n{outs}        {post};\n      }}\n"
      "      __syncthreads();\n  }}\n}}\n",
      fmt::arg("name", s.name), fmt::arg("kd", kd), fmt::arg("rd", rd), fmt::arg("inc", detail::user_includes(used)),
      fmt::arg("pre", s.red.preamble), fmt::arg("kd1", std::max(kd, 1)), fmt::arg("rd1", std::max(rd, 1)),
      fmt::arg("ns1", std::max(ns, 1)), fmt::arg("threads", kThreads), fmt::arg("params", params),
      fmt::arg("td", detail::typedefs(c.types)), fmt::arg("rtype", detail::user_ctype(c.reduce_type)),
      fmt::arg("kofs", unravel("loom_row", kd, ns, "kshape", "kst", "loom_k", "0")),
      fmt::arg("init", init), fmt::arg("rofs", unravel("loom_j", rd, ns, "rshape", "rst", "loom_o", "loom_k{}")),
      fmt::arg("loads", loads), fmt::arg("map", s.map_expr), fmt::arg("reduce", s.reduce_expr), fmt::arg("outs", outs),
      fmt::arg("post", s.post_map_expr));
}

// The call as graph nodes that fuse like a built-in reduction, when it can be: the map as an
// Op::User node (the prologue), a ReduceKind::User reduction whose state is a struct made of the
// identity and the reduce expression (so every reduction strategy runs it), and the post-map as
// an Op::User node on the result (the epilogue). It can when there is one output and an identity,
// no NVRTC options, at most 3 arguments, reduced dims, dtypes loom's kernels hold as they are,
// and expressions that use no index (i, _ind, _in_ind, _out_ind, _J) or jump.
// The user's code as the three nodes' ops: map (prologue), state (the reduction), post-map.
detail::UserKernelState::FusedOps fused_ops(const detail::UserKernelState& s, const RedCall& c) {
  const std::string td = detail::typedefs(c.types);
  const char* rt = detail::user_ctype(c.reduce_type);
  const auto user_op = [&](std::string name, std::string expr, std::string preamble) {
    auto op = std::make_shared<detail::UserOp>();
    op->kind = "ReductionKernel";
    op->name = std::move(name);
    op->expr = std::move(expr);
    op->preamble = std::move(preamble);
    op->hash = std::hash<std::string>{}(op->name + '\0' + op->expr + '\0' + op->preamble);
    return std::shared_ptr<const detail::UserOp>(std::move(op));
  };
  // The map: each input element's term, of reduce_type.
  std::string m = fmt::format("{{\n{}    typedef {} _type_reduce;\n", td, rt);
  for (std::size_t k = 0; k < s.in.size(); ++k) {
    m += fmt::format("    const {} {} = @in{}@;\n", detail::user_ctype(c.types.in_dtypes[k]), s.in[k].name, k);
  }
  m += fmt::format("    @out@ = (_type_reduce)({});\n  }}", s.map_expr);
  // The state: loom_reduce.cuh's contract (init, add, merge, shfl_down, result) around the user's
  // identity and reduce expression; named after its text, so equal reductions share one struct.
  const std::string body = fmt::format(
      "{{\n{td}  typedef {rt} _type_reduce;\n  _type_reduce v;\n"
      "  LOOM_FN void init() {{ v = (_type_reduce)({identity}); }}\n"
      "  LOOM_FN void add(_type_reduce x, long long) {{ const _type_reduce a = v, b = x; v = (_type_reduce)({reduce}); }}\n"
      "  LOOM_FN void merge(const @S@& o) {{ add(o.v, 0); }}\n"
      "  LOOM_FN @S@ shfl_down(int d) const {{ @S@ s; s.v = loom::red::shfl_down(v, d); return s; }}\n"
      "  LOOM_FN _type_reduce result() const {{ return v; }}\n}};",
      fmt::arg("td", td), fmt::arg("rt", rt), fmt::arg("identity", s.identity), fmt::arg("reduce", s.reduce_expr));
  const std::string state = fmt::format("loom_red_{}_{:08x}", s.name, std::hash<std::string>{}(body) & 0xffffffffu);
  std::string def = fmt::format("// the reduction state of ReductionKernel {}: a = {} from {}\nstruct {} {}", s.name,
                                s.reduce_expr, s.identity, state, body);
  for (std::size_t at = def.find("@S@"); at != std::string::npos; at = def.find("@S@", at)) def.replace(at, 3, state);
  // The post-map: the output from the result `a`.
  const std::string& y = s.out[0].name;
  std::string post = fmt::format("{{\n{}    typedef {} _type_reduce;\n    const _type_reduce a = @in0@;\n    {} {};\n"
                                 "    {{\n{};\n    }}\n    @out@ = {};\n  }}",
                                 td, rt, detail::user_ctype(c.types.out_dtypes[0]), y, s.post_map_expr, y);
  return {user_op(s.name, std::move(m), s.red.preamble), user_op(state, "", std::move(def)),
          user_op(s.name + "_post", std::move(post), s.red.preamble)};
}

// The call as graph nodes that fuse like a built-in reduction, when it can be: the map as an
// Op::User node (the prologue), a ReduceKind::User reduction whose state is a struct made of the
// identity and the reduce expression (so every reduction strategy runs it), and the post-map as
// an Op::User node on the result (the epilogue). It can when there is one output and an identity,
// no NVRTC options, at most 3 arguments, reduced dims, dtypes loom's kernels hold as they are,
// and expressions that use no index (i, _ind, _in_ind, _out_ind, _J) or jump.
// Why the call cannot be graph nodes ("" when it can).
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
  const auto ops = s.fused_ops_by(sig, [&] { return fused_ops(s, c); });
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
  return red_source(*state_, plan_full(*state_, args, axis, keepdims), args);
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
    const std::string sig = fmt::format("{}|fused|{}", detail::signature_of(c.types, args), static_cast<int>(c.reduce_type));
    // The expressions' errors at this line: the kernel of its own for some layout, compiled once
    // (the kernel the nodes join compiles later).
    const auto module = st->module_by(sig, [&] {
      RedCall full = c;
      plan_layout(full);
      return red_source(*st, full, args);
    }, st->red.options);
    module->compile_only();
    return KernelOutputs({fused(*st, c, args, sig)});
  }
  plan_layout(c);
  const std::string sig = fmt::format("{}|{}|{}|{}|{}", detail::signature_of(c.types, args), c.kgroups.size(),
                                      c.rgroups.size(), c.inputs.size(), static_cast<int>(c.reduce_type));
  const auto module = st->module_by(sig, [&] { return red_source(*st, c, args); }, st->red.options);
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
  spec->device = [st, c, scalars, n_red, module](detail::CallContext& ctx) {
    const std::int64_t n_out = c.out.numel();
    if (n_out == 0) return;
    const int kd1 = std::max<int>(static_cast<int>(c.kgroups.size()), 1), rd1 = std::max<int>(static_cast<int>(c.rgroups.size()), 1);
    const int ns1 = std::max<int>(static_cast<int>(c.inputs.size()), 1);
    std::vector<long long> p(static_cast<std::size_t>(2 + kd1 + rd1 + ns1 * (kd1 + rd1)), 0);
    p[0] = n_out;
    p[1] = n_red;
    const auto extent = [&](const std::vector<int>& grp) {
      long long e = 1;
      for (int d : grp) e *= c.shape[d];
      return e;
    };
    for (std::size_t g = 0; g < c.kgroups.size(); ++g) p[2 + g] = extent(c.kgroups[g]);
    for (std::size_t g = 0; g < c.rgroups.size(); ++g) p[static_cast<std::size_t>(2 + kd1) + g] = extent(c.rgroups[g]);
    const std::size_t kst = static_cast<std::size_t>(2 + kd1 + rd1), rst = kst + static_cast<std::size_t>(ns1 * kd1);
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
      for (std::size_t g = 0; g < c.kgroups.size(); ++g) p[kst + j * static_cast<std::size_t>(kd1) + g] = b[c.kgroups[g].back()];
      for (std::size_t g = 0; g < c.rgroups.size(); ++g) p[rst + j * static_cast<std::size_t>(rd1) + g] = b[c.rgroups[g].back()];
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
    rt::launch(kern, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), argv.data(), 0, calls::stream_of(ctx));
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
