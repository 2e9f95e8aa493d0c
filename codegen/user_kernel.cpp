#include "codegen/user_kernel.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "codegen/ctypes.hpp"
#include "codegen/source_writer.hpp"

namespace loom::codegen {

const char* user_ctype(DType t) {
  if (t == DType::Complex64) return "cuda::std::complex<float>";
  if (t == DType::Complex128) return "cuda::std::complex<double>";
  return storage_ctype(t);
}

namespace {

int count_strided(const std::vector<UserArg>& in) {
  return static_cast<int>(std::count_if(in.begin(), in.end(), [](const UserArg& a) { return a.kind == UserArgKind::Strided; }));
}

// The headers the dtypes the code names need (each also needs the CUDA include directory).
void emit_includes(SourceWriter& w, const std::vector<UserArg>& in, const std::vector<UserOut>& out, const DType* extra) {
  std::vector<DType> used;
  for (const UserArg& a : in) used.push_back(a.dtype);
  for (const UserOut& o : out) used.push_back(o.dtype);
  if (extra != nullptr) used.push_back(*extra);
  const auto any = [&](auto pred) { return std::any_of(used.begin(), used.end(), pred); };
  if (any([](DType t) { return t == DType::Float16; })) w.line("#include <cuda_fp16.h>");
  if (any([](DType t) { return t == DType::BFloat16; })) w.line("#include <cuda_bf16.h>");
  if (any([](DType t) { return is_complex(t); })) w.line("#include <cuda/std/complex>");
}

bool needs_cuda_include(const std::vector<UserArg>& in, const std::vector<UserOut>& out) {
  const auto wide = [](DType t) { return t == DType::Float16 || t == DType::BFloat16 || is_complex(t); };
  return std::any_of(in.begin(), in.end(), [&](const UserArg& a) { return wide(a.dtype); }) ||
         std::any_of(out.begin(), out.end(), [&](const UserOut& o) { return wide(o.dtype); });
}

void emit_typedefs(SourceWriter& w, const std::vector<UserType>& types) {
  for (const UserType& t : types) w.line("typedef {} {};", user_ctype(t.dtype), t.name);
}

// Adds the user's code as it is written, after a line saying whose it is (nothing when empty).
void emit_user_code(SourceWriter& w, const std::string& what, const std::string& code) {
  if (code.empty()) return;
  w.line("// {}", what);
  w.line("{}", code);
}

// "loom_o<j> += <digit> * loom_p.<st>[j][g]" for every strided input j: the offsets at the flat
// index `idx` unravelled over `groups` collapsed dims (extents loom_p.<ext>[g]), added to what
// each offset starts from.
void emit_unravel(SourceWriter& w, const std::string& idx, int groups, int inputs, const std::string& ext,
                  const std::string& st, const std::string& var) {
  if (groups == 0 || inputs == 0) return;
  if (groups == 1) {
    for (int j = 0; j < inputs; ++j) w.line("{0}{1} += {2} * loom_p.{3}[{1}][0];", var, j, idx, st);
    return;
  }
  w.line("long long {}_r = {};", var, idx);
  for (int g = groups - 1; g >= 1; --g) {
    w.open_block("");
    w.line("const long long loom_c = {0}_r % loom_p.{1}[{2}];", var, ext, g);
    w.line("{0}_r /= loom_p.{1}[{2}];", var, ext, g);
    for (int j = 0; j < inputs; ++j) w.line("{0}{1} += loom_c * loom_p.{2}[{1}][{3}];", var, j, st, g);
    w.close_block();
  }
  for (int j = 0; j < inputs; ++j) w.line("{0}{1} += {0}_r * loom_p.{2}[{1}][0];", var, j, st);
}

}  // namespace

UserParamsLayout user_params_layout(const UserElementwisePlan& plan) {
  UserParamsLayout l;
  l.dims1 = std::max(plan.dims, 1);
  const int ns1 = std::max(count_strided(plan.in), 1);
  l.shape = 1;
  l.strides = l.shape + static_cast<std::size_t>(l.dims1);
  l.words = l.strides + static_cast<std::size_t>(ns1 * l.dims1);
  return l;
}

UserParamsLayout user_params_layout(const UserReducePlan& plan) {
  UserParamsLayout l;
  l.kept1 = std::max(plan.kept_dims, 1);
  l.reduced1 = std::max(plan.reduced_dims, 1);
  const int ns1 = std::max(count_strided(plan.in), 1);
  l.kshape = 2;
  l.rshape = l.kshape + static_cast<std::size_t>(l.kept1);
  l.kstrides = l.rshape + static_cast<std::size_t>(l.reduced1);
  l.rstrides = l.kstrides + static_cast<std::size_t>(ns1 * l.kept1);
  l.words = l.rstrides + static_cast<std::size_t>(ns1 * l.reduced1);
  return l;
}

KernelSource emit_user_elementwise(const UserElementwisePlan& plan) {
  const int nd = plan.dims, ns = count_strided(plan.in);
  const UserParamsLayout layout = user_params_layout(plan);
  SourceWriter w;
  w.line("// loom ElementwiseKernel {}: {} collapsed dim(s)", plan.name, nd);
  emit_includes(w, plan.in, plan.out, nullptr);
  emit_user_code(w, "preamble", plan.preamble);
  w.line("struct loom_ind_t { long long n; __device__ long long size() const { return n; } };");
  w.open_block("template <class V> struct loom_raw_t");
  w.line("V* p;");
  w.line("long long n;");
  w.line("__device__ V& operator[](long long k) const { return p[k]; }");
  w.line("__device__ long long size() const { return n; }");
  w.close_block(";");
  w.line("struct loom_params_t {{ long long n; long long shape[{0}]; long long st[{1}][{0}]; }};", layout.dims1,
         std::max(ns, 1));
  // The parameters, and what the loop reads of each element.
  std::string params = "const loom_params_t loom_p";
  std::vector<std::string> raw_views, element;
  int strided = 0;
  for (std::size_t k = 0; k < plan.in.size(); ++k) {
    const UserArg& a = plan.in[k];
    const char* ct = user_ctype(a.dtype);
    switch (a.kind) {
      case UserArgKind::Scalar:
        params += fmt::format(", const {} loom_s{}", ct, k);
        element.push_back(fmt::format("const {} {} = loom_s{};", ct, a.name, k));
        break;
      case UserArgKind::Raw: {
        // Read-only (as CuPy's), except in a kernel without outputs, which writes its raw arguments.
        const std::string vt = plan.out.empty() ? std::string(ct) : fmt::format("const {}", ct);
        params += fmt::format(", {}* loom_raw{}, long long loom_rawn{}", vt, k, k);
        raw_views.push_back(fmt::format("const loom_raw_t<{}> {}{{loom_raw{}, loom_rawn{}}};", vt, a.name, k, k));
        break;
      }
      case UserArgKind::Strided:
        params += fmt::format(", const {}* __restrict__ loom_in{}", ct, k);
        element.push_back(fmt::format("const {} {} = loom_in{}[loom_o{}];", ct, a.name, k, strided++));
        break;
    }
  }
  for (std::size_t k = 0; k < plan.out.size(); ++k) {
    const UserOut& o = plan.out[k];
    const char* ct = user_ctype(o.dtype);
    params += fmt::format(", {}* __restrict__ loom_out{}", ct, k);
    if (o.raw) {  // its own size: an array given for it keeps its shape
      params += fmt::format(", long long loom_outn{}", k);
      raw_views.push_back(fmt::format("const loom_raw_t<{}> {}{{loom_out{}, loom_outn{}}};", ct, o.name, k, k));
    } else {
      element.push_back(fmt::format("{}& {} = loom_out{}[i];", ct, o.name, k));
    }
  }
  w.open_block(fmt::format("extern \"C\" __global__ void {}({})", plan.name, params));
  emit_typedefs(w, plan.types);
  w.line("const loom_ind_t _ind{loom_p.n};");
  for (const std::string& v : raw_views) w.line("{}", v);
  emit_user_code(w, "loop_prep", plan.loop_prep);
  w.open_block("for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < loom_p.n;"
               " i += (long long)gridDim.x * blockDim.x)");
  // Each strided input's offset: the flat index unravelled over the collapsed dims.
  for (int j = 0; j < ns; ++j) w.line("long long loom_o{} = 0;", j);
  emit_unravel(w, "i", nd, ns, "shape", "st", "loom_o");
  for (const std::string& e : element) w.line("{}", e);
  w.open_block("");
  w.line("{};", plan.body);
  w.close_block();
  w.close_block();
  emit_user_code(w, "after_loop", plan.after_loop);
  w.close_block();
  KernelSource src;
  src.name = plan.name;
  src.text = w.take();
  src.needs_cuda_include = needs_cuda_include(plan.in, plan.out);
  return src;
}

KernelSource emit_user_reduce(const UserReducePlan& plan) {
  const int kd = plan.kept_dims, rd = plan.reduced_dims, ns = count_strided(plan.in);
  const UserParamsLayout layout = user_params_layout(plan);
  const int threads = kUserReduceThreads;
  SourceWriter w;
  w.line("// loom ReductionKernel {}: {} kept and {} reduced dim(s) after collapsing", plan.name, kd, rd);
  emit_includes(w, plan.in, plan.out, &plan.reduce_type);
  emit_user_code(w, "preamble", plan.preamble);
  w.line("struct loom_params_t {{ long long n_out, n_red; long long kshape[{0}]; long long rshape[{1}];"
         " long long kst[{2}][{0}]; long long rst[{2}][{1}]; }};",
         layout.kept1, layout.reduced1, std::max(ns, 1));
  std::string params = "const loom_params_t loom_p";
  std::vector<std::string> loads, outs;
  int j = 0;
  for (std::size_t k = 0; k < plan.in.size(); ++k) {
    const UserArg& a = plan.in[k];
    const char* ct = user_ctype(a.dtype);
    if (a.kind == UserArgKind::Scalar) {
      params += fmt::format(", const {} loom_s{}", ct, k);
      loads.push_back(fmt::format("const {} {} = loom_s{};", ct, a.name, k));
    } else {
      params += fmt::format(", const {}* __restrict__ loom_in{}", ct, k);
      loads.push_back(fmt::format("const {} {} = loom_in{}[loom_o{}];", ct, a.name, k, j++));
    }
  }
  for (std::size_t k = 0; k < plan.out.size(); ++k) {
    const char* ct = user_ctype(plan.out[k].dtype);
    params += fmt::format(", {}* __restrict__ loom_out{}", ct, k);
    outs.push_back(fmt::format("{}& {} = loom_out{}[loom_row];", ct, plan.out[k].name, k));
  }
  w.open_block(fmt::format("extern \"C\" __global__ void __launch_bounds__({}) {}({})", threads, plan.name, params));
  emit_typedefs(w, plan.types);
  w.line("typedef {} _type_reduce;", user_ctype(plan.reduce_type));
  w.line("__shared__ alignas(16) unsigned char loom_raw_sh[{} * sizeof(_type_reduce)];", threads);
  w.line("__shared__ bool loom_sh_has[{}];", threads);
  w.line("_type_reduce* loom_sh = reinterpret_cast<_type_reduce*>(loom_raw_sh);");
  w.open_block("for (long long loom_row = blockIdx.x; loom_row < loom_p.n_out; loom_row += gridDim.x)");
  // The kept index's offsets, then each reduced element's from them.
  for (int i = 0; i < ns; ++i) w.line("long long loom_k{} = 0;", i);
  emit_unravel(w, "loom_row", kd, ns, "kshape", "kst", "loom_k");
  if (plan.identity.empty()) {
    w.line("_type_reduce a{};");
    w.line("bool loom_has = false;");
  } else {
    w.line("_type_reduce a = (_type_reduce)({});", plan.identity);
    w.line("bool loom_has = true;");
  }
  w.open_block(fmt::format("for (long long loom_j = threadIdx.x; loom_j < loom_p.n_red; loom_j += {})", threads));
  for (int i = 0; i < ns; ++i) w.line("long long loom_o{0} = loom_k{0};", i);
  emit_unravel(w, "loom_j", rd, ns, "rshape", "rst", "loom_o");
  for (const std::string& l : loads) w.line("{}", l);
  w.line("const _type_reduce b = (_type_reduce)({});", plan.map);
  w.line("if (loom_has) {{ a = (_type_reduce)({}); }} else {{ a = b; loom_has = true; }}", plan.reduce);
  w.close_block();
  // The block's partial results combined in a fixed tree.
  w.line("loom_sh[threadIdx.x] = a;");
  w.line("loom_sh_has[threadIdx.x] = loom_has;");
  w.line("__syncthreads();");
  w.open_block(fmt::format("for (int loom_s = {} / 2; loom_s > 0; loom_s >>= 1)", threads));
  w.open_block("if (threadIdx.x < loom_s && loom_sh_has[threadIdx.x + loom_s])");
  w.line("const _type_reduce a = loom_sh[threadIdx.x], b = loom_sh[threadIdx.x + loom_s];");
  w.line("loom_sh[threadIdx.x] = loom_sh_has[threadIdx.x] ? (_type_reduce)({}) : b;", plan.reduce);
  w.line("loom_sh_has[threadIdx.x] = true;");
  w.close_block();
  w.line("__syncthreads();");
  w.close_block();
  w.open_block("if (threadIdx.x == 0)");
  w.line("const _type_reduce a = loom_sh[0];");
  for (const std::string& o : outs) w.line("{}", o);
  w.line("{};", plan.post_map);
  w.close_block();
  w.line("__syncthreads();");
  w.close_block();
  w.close_block();
  KernelSource src;
  src.name = plan.name;
  src.text = w.take();
  src.needs_cuda_include = needs_cuda_include(plan.in, plan.out) || plan.reduce_type == DType::Float16 ||
                           plan.reduce_type == DType::BFloat16 || is_complex(plan.reduce_type);
  return src;
}

namespace {

std::string typedef_lines(const std::vector<UserType>& types) {
  std::string s;
  for (const UserType& t : types) s += fmt::format("  typedef {} {};\n", user_ctype(t.dtype), t.name);
  return s;
}

std::string input_lines(const std::vector<UserArg>& in) {
  std::string s;
  for (std::size_t k = 0; k < in.size(); ++k) {
    s += fmt::format("    const {} {} = @in{}@;\n", user_ctype(in[k].dtype), in[k].name, k);
  }
  return s;
}

}  // namespace

// A block of statements, not a lambda: NVRTC inlines a block wherever the element function goes,
// a lambda's call it may not.
std::string user_elementwise_block(const UserElementwisePlan& plan) {
  const UserOut& y = plan.out.at(0);
  return fmt::format("{{\n{}{}    {} {};\n    {{\n{};\n    }}\n    @out@ = {};\n  }}", typedef_lines(plan.types),
                     input_lines(plan.in), user_ctype(y.dtype), y.name, plan.body, y.name);
}

UserReduceBlocks user_reduce_blocks(const UserReducePlan& plan) {
  UserReduceBlocks b;
  const std::string td = typedef_lines(plan.types);
  const char* rt = user_ctype(plan.reduce_type);
  b.map = fmt::format("{{\n{}    typedef {} _type_reduce;\n{}    @out@ = (_type_reduce)({});\n  }}", td, rt,
                      input_lines(plan.in), plan.map);
  // The state: loom_reduce.cuh's contract (init, add, merge, shfl_down, result) around the user's
  // identity and reduce expression; named after its text, so equal reductions share one struct.
  const std::string body = fmt::format(
      "{{\n{td}  typedef {rt} _type_reduce;\n  _type_reduce v;\n"
      "  LOOM_FN void init() {{ v = (_type_reduce)({identity}); }}\n"
      "  LOOM_FN void add(_type_reduce x, long long) {{ const _type_reduce a = v, b = x; v = (_type_reduce)({reduce}); }}\n"
      "  LOOM_FN void merge(const @S@& o) {{ add(o.v, 0); }}\n"
      "  LOOM_FN @S@ shfl_down(int d) const {{ @S@ s; s.v = loom::red::shfl_down(v, d); return s; }}\n"
      "  LOOM_FN _type_reduce result() const {{ return v; }}\n}};",
      fmt::arg("td", td), fmt::arg("rt", rt), fmt::arg("identity", plan.identity), fmt::arg("reduce", plan.reduce));
  b.state_name = fmt::format("loom_red_{}_{:08x}", plan.name, std::hash<std::string>{}(body) & 0xffffffffu);
  b.state = fmt::format("// the reduction state of ReductionKernel {}: a = {} from {}\nstruct {} {}", plan.name,
                        plan.reduce, plan.identity, b.state_name, body);
  for (std::size_t at = b.state.find("@S@"); at != std::string::npos; at = b.state.find("@S@", at)) {
    b.state.replace(at, 3, b.state_name);
  }
  const UserOut& y = plan.out.at(0);
  b.post_map = fmt::format("{{\n{}    typedef {} _type_reduce;\n    const _type_reduce a = @in0@;\n    {} {};\n"
                           "    {{\n{};\n    }}\n    @out@ = {};\n  }}",
                           td, rt, user_ctype(y.dtype), y.name, plan.post_map, y.name);
  return b;
}

}  // namespace loom::codegen
