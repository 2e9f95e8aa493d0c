#include "codegen/element_emitter.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "codegen/ctypes.hpp"

namespace loom::codegen {

using detail::Op;

namespace {

}  // namespace

const char* path_name(Path p) {
  switch (p) {
    case Path::Flat: return "flat";
    case Path::Rows: return "rows";
    case Path::Unravel: return "unravel";
    case Path::Tiled: return "tiled";
  }
  return "?";
}

std::string leaf_label(const KernelPlan& p, int j) {
  switch (p.leaves[static_cast<std::size_t>(j)].kind) {
    case LeafKind::Buffer:
    case LeafKind::Gathered: return fmt::format("in{}", j);
    case LeafKind::Scalar: return fmt::format("s{}", j);
    case LeafKind::Arange: return fmt::format("arange{}", j);
    case LeafKind::Linspace: return fmt::format("linspace{}", j);
    case LeafKind::Eye: return fmt::format("eye{}", j);
    case LeafKind::Reduced: {
      const int r = p.leaves[static_cast<std::size_t>(j)].reduction;
      return fmt::format("{}({})", detail::reduce_name(p.reduce->reductions[static_cast<std::size_t>(r)].kind), j);
    }
  }
  return "?";
}

namespace {

// The compute dtype of an op: what its inputs were cast to.
DType compute_dtype(const KernelPlan& p, const KValue& v) {
  const int i = v.op == Op::Where ? v.in[1] : v.in[0];
  return i >= 0 ? p.values[static_cast<std::size_t>(i)].dtype : v.dtype;
}

std::string apply_pattern(std::string pat, const std::array<std::string, 3>& args,
                          const std::string& target) {
  std::string out;
  for (std::size_t i = 0; i < pat.size(); ++i) {
    if (pat[i] == '{' && i + 2 < pat.size() && pat[i + 2] == '}') {
      const char c = pat[i + 1];
      if (c >= '0' && c <= '2') {
        out += args[static_cast<std::size_t>(c - '0')];
        i += 2;
        continue;
      }
      if (c == 'T') {
        out += target;
        i += 2;
        continue;
      }
    }
    out += pat[i];
  }
  return out;
}

}  // namespace

std::vector<std::string> prelude_includes(std::initializer_list<const KernelPlan*> plans,
                                          bool& needs_cuda_include) {
  bool half = false, complex = false;
  for (const KernelPlan* p : plans) {
    for (const KValue& v : p->values) {
      half = half || is_half(v.dtype);
      complex = complex || is_complex(v.dtype);
    }
  }
  std::vector<std::string> h{"loom_core.cuh"};
  if (complex) h.push_back("loom_complex.cuh");
  if (half) h.push_back("loom_half.cuh");
  needs_cuda_include = half;
  return h;
}

std::vector<std::string> user_options(std::initializer_list<const KernelPlan*> plans) {
  for (const KernelPlan* p : plans) {
    for (const KValue& v : p->values) {
      if (v.op == Op::User && !v.user->options.empty()) return v.user->options;
    }
  }
  return {};
}

void emit_user_preambles(SourceWriter& w, std::initializer_list<const KernelPlan*> plans) {
  std::vector<const std::string*> seen;
  for (const KernelPlan* p : plans) {
    for (const KValue& v : p->values) {
      if (v.op != Op::User || v.user->preamble.empty()) continue;
      const std::string& pre = v.user->preamble;
      if (std::any_of(seen.begin(), seen.end(), [&](const std::string* s) { return *s == pre; })) continue;
      seen.push_back(&pre);
      w.line("// preamble of {}", v.user->name);
      w.line("{}", pre);
    }
  }
}

namespace {

// Whether `text` names the identifier `id` (not as a part of a longer one: v1 is not in v12).
bool mentions(const std::string& text, const std::string& id) {
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
    const std::size_t end = at + id.size();
    if ((at == 0 || !ident(text[at - 1])) && (end == text.size() || !ident(text[end]))) return true;
  }
  return false;
}

}  // namespace

void emit_args(SourceWriter& w, std::span<const Param> params, const KernelPlan* const plans[2]) {
  w.open_block("struct Args");
  for (const Param& q : params) {
    const KernelPlan& p = *plans[q.section];
    std::string note;
    // Sizes stay out of the source: it must be the same text for every size (decision 3).
    if (q.kind == ParamKind::OutPtr) {
      note = fmt::format("  // {} output", name(p.values[static_cast<std::size_t>(p.outputs[static_cast<std::size_t>(q.index)])].dtype));
    } else if (q.kind == ParamKind::InPtr) {
      note = fmt::format("  // {} input", name(p.leaves[static_cast<std::size_t>(q.index)].dtype));
    } else if (q.kind == ParamKind::ScalarValue && q.sub == 0) {
      note = fmt::format("  // constant {}", name(p.leaves[static_cast<std::size_t>(q.index)].dtype));
    }
    w.line("{} {};{}", q.ctype, q.name, note);
  }
  w.close_block(";");
  w.blank();
}

// Digit fallback for leaves reached through a reshape whose layout does not factor.
void ElementEmitter::emit_unravel_helpers() {
  for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
    const Leaf& l = leaf(j);
    if (!l.unravel) continue;
    const int k = l.unr->shape.size();
    w_.line("// {}: a C-order index into {} split into digits", leaf_label(p_, j), to_string(l.unr->shape));
    if (l.kind == LeafKind::Buffer || l.kind == LeafKind::Gathered) {
      w_.open_block(fmt::format("__device__ __forceinline__ long long {}u{}_offset(const Args& a, long long L)", pre_, j));
      w_.line("long long off = 0;");
      // The index is in [0, the leaf's size): with a 32-bit plan (which counts that size), its
      // digits come from unsigned 32-bit divisions, several times cheaper than 64-bit ones.
      const char* ut = p_.index32 ? "unsigned" : "long long";
      if (p_.index32) w_.line("unsigned q = (unsigned)L;");
      const char* q = p_.index32 ? "q" : "L";
      for (int d = k - 1; d >= 1; --d) {
        const std::string n = arg(fmt::format("u{}_n{}", j, d));
        w_.line("off += (long long)({} % ({}){}) * {};", q, ut, n, arg(fmt::format("u{}_st{}", j, d)));
        w_.line("{} /= ({}){};", q, ut, n);
      }
      if (k >= 1) w_.line("off += (long long){} * {};", q, arg(fmt::format("u{}_st0", j)));
      w_.line("return off;");
    } else {
      w_.open_block(fmt::format("__device__ __forceinline__ void {}u{}_rc(const Args& a, long long L, long long& r, long long& c)", pre_, j));
      const std::string n1 = arg(fmt::format("u{}_n1", j));
      w_.line("c = L % {};", n1);
      w_.line("r = L / {};", n1);
    }
    w_.close_block();
    w_.blank();
  }
}

std::string ElementEmitter::scalar_expr(int j) const {
  const Leaf& l = leaf(j);
  switch (kind(l.dtype)) {
    case DKind::Bool: return arg(fmt::format("s{}", j)) + " != 0";
    case DKind::Signed:
    case DKind::Unsigned:
    case DKind::Float: return fmt::format("({}){}", register_ctype(l.dtype), arg(fmt::format("s{}", j)));
    case DKind::Complex: {
      const char* comp = l.dtype == DType::Complex64 ? "float" : "double";
      return fmt::format("{}{{({}){}, ({}){}}}", storage_ctype(l.dtype), comp, arg(fmt::format("s{}_re", j)), comp,
                         arg(fmt::format("s{}_im", j)));
    }
  }
  return "";
}

std::string ElementEmitter::generator_expr(int j) const {
  const Leaf& l = leaf(j);
  // The generator's field `part` ("a.g3_start").
  const auto g = [&](const char* part) { return arg(fmt::format("g{}_{}", j, part)); };
  const DType t = l.dtype;
  const std::string tgt = cast_target(t);
  if (l.kind == LeafKind::Eye) {
    return fmt::format("loom::cast<{}>(c{} - r{} == {})", tgt, j, j, g("k"));
  }
  if (l.kind == LeafKind::Linspace) {
    const std::string val =
        fmt::format("(p{0} == {1} ? {2} : __dadd_rn(__dmul_rn((double)p{0}, {3}), {4}))", j, g("last"), g("stop"),
                    g("step"), g("start"));
    if (is_integer(t) || is_bool(t)) return fmt::format("loom::cast<{}>(floor({}))", tgt, val);
    return fmt::format("loom::cast<{}>({})", tgt, val);
  }
  // arange: NumPy fills start + i * delta in the dtype, the second element exactly.
  if (!is_inexact(t) && !is_bool(t) && itemsize(t) <= 4 && p_.index32) {
    // The low 32 bits are all a 32-bit (or narrower) integer keeps: 32-bit arithmetic gives them
    // (positions fit 32 bits in this plan), a few instructions fewer than 64-bit products.
    return fmt::format("loom::cast<{}>((unsigned){} + (unsigned){} * (unsigned)p{})", tgt, g("start"), g("step"), j);
  }
  if (!is_inexact(t)) {
    const char* wide = is_unsigned_int(t) ? "unsigned long long" : "long long";
    return fmt::format("loom::cast<{}>({} + {} * ({})p{})", tgt, g("start"), g("step"), wide, j);
  }
  if (t == DType::Float64) {
    return fmt::format("(p{0} == 1 ? {1} : __dadd_rn({2}, __dmul_rn((double)p{0}, {3})))", j, g("second"), g("start"),
                       g("step"));
  }
  return fmt::format(
      "(p{0} == 1 ? (float){1} : loom::cast<{2}>(__fadd_rn((float){3}, __fmul_rn((float)p{0}, (float){4}))))", j,
      g("second"), tgt, g("start"), g("step"));
}

// A read that happens only where its guard holds (below a Place), else the type's zero.
std::string ElementEmitter::guarded(const KValue& v, const std::string& reg, const std::string& e) const {
  if (v.guard < 0) return e;
  return fmt::format("v{} ? {} : loom::zero<{}>()", v.guard, e, reg);
}

std::string ElementEmitter::load_expr(const Leaf& l, const std::string& x) const {
  if (l.dtype == DType::Float16) return fmt::format("__half2float({})", x);
  if (l.dtype == DType::BFloat16) return fmt::format("__bfloat162float({})", x);
  return x;
}

std::string ElementEmitter::store_expr(DType t, const std::string& v) const {
  if (t == DType::Float16) return fmt::format("__float2half_rn({})", v);
  if (t == DType::BFloat16) return fmt::format("__float2bfloat16_rn({})", v);
  return v;
}

void ElementEmitter::emit_element(const std::string& fn, const std::string& comment) {
  emit_function(fn, comment, false);
}

void ElementEmitter::emit_guards(const std::string& fn) {
  emit_function(fn, "Where each guarded read is meaningful: g<k> for the k-th guarded input.", true);
}

void ElementEmitter::emit_function(const std::string& fn, const std::string& comment, bool guards) {
  std::vector<std::string> args{"const Args& a"};
  std::vector<int> guard_of;  // guards: the guard value of each guarded leaf
  for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
    const Leaf& l = leaf(j);
    switch (l.kind) {
      case LeafKind::Buffer:  // a guarded one arrives as a pointer, read only where its guard holds
        if (guards && l.guard >= 0) {
          guard_of.push_back(l.guard);
          break;
        }
        args.push_back(fmt::format("{}{}{} in{}", l.guard >= 0 ? "const " : "", storage_ctype(l.dtype),
                                   l.guard >= 0 ? "*" : "", j));
        break;
      case LeafKind::Scalar:
      case LeafKind::Gathered: break;  // read inside, at its index
      case LeafKind::Arange:
      case LeafKind::Linspace: args.push_back(fmt::format("long long p{}", j)); break;
      case LeafKind::Eye:
        args.push_back(fmt::format("long long r{}", j));
        args.push_back(fmt::format("long long c{}", j));
        break;
      case LeafKind::Reduced:
        args.push_back(fmt::format("{} red{}", register_ctype(l.dtype), l.reduction));
        break;
    }
  }
  for (std::size_t o = 0; o < p_.outputs.size() && !guards; ++o) {
    args.push_back(fmt::format("{}& out{}", storage_ctype(value(p_.outputs[o]).dtype), o));
  }
  for (std::size_t k = 0; k < guard_of.size(); ++k) args.push_back(fmt::format("bool& g{}", k));
  w_.line("// {}", comment);
  w_.open_block(fmt::format("__device__ __forceinline__ void {}({})", fn, fmt::join(args, ", ")));
  // One line per value, then only those an output needs: an op may not read an input (isnan
  // of an integer is false), and a value nothing reads is a dead local.
  const int nv = static_cast<int>(p_.values.size());
  std::vector<std::string> lines(static_cast<std::size_t>(nv));
  std::vector<std::string> exprs(static_cast<std::size_t>(nv));
  // The fields each line reads count only if the line is kept.
  std::vector<KernelArgs::Held> reads(static_cast<std::size_t>(nv));
  struct Release {
    KernelArgs& args;
    ~Release() { args.hold(nullptr); }
  } release{args_};
  for (int i = 0; i < nv; ++i) {
    args_.hold(&reads[static_cast<std::size_t>(i)]);
    const KValue& v = value(i);
    const std::string reg = register_ctype(v.dtype);
    if (v.op == Op::Gather) {  // the source at the index's value
      const Leaf& l = leaf(v.leaf);
      const std::string at = fmt::format("(long long)v{}", v.in[0]);
      const std::string pos = l.unravel ? fmt::format("{}u{}_offset(a, {})", pre_, v.leaf, at) : at;
      std::string e = guarded(v, reg, load_expr(l, fmt::format("{}[{}]", arg(fmt::format("in{}", v.leaf)), pos)));
      lines[static_cast<std::size_t>(i)] = fmt::format("const {} v{} = {};  // gather {}", reg, i, e, name(v.dtype));
      exprs[static_cast<std::size_t>(i)] = std::move(e);
      continue;
    }
    if (v.op == Op::User) {  // the user's block: "@in<k>@" is input k's value, "@out@" the result
      std::string e = v.user->expr;
      const auto put = [&e](const std::string& mark, const std::string& val) {
        for (std::size_t at = e.find(mark); at != std::string::npos; at = e.find(mark, at + val.size())) {
          e.replace(at, mark.size(), val);
        }
      };
      for (int k = 0; k < 3; ++k) put(fmt::format("@in{}@", k), fmt::format("v{}", v.in[static_cast<std::size_t>(k)]));
      put("@out@", fmt::format("v{}", i));
      lines[static_cast<std::size_t>(i)] = fmt::format("{} v{};  // {}\n  {}", reg, i, v.user->name, e);
      exprs[static_cast<std::size_t>(i)] = std::move(e);
      continue;
    }
    if (v.leaf >= 0) {
      const Leaf& l = leaf(v.leaf);
      std::string e;
      switch (l.kind) {
        case LeafKind::Buffer:
          e = l.guard >= 0 ? guarded(v, reg, load_expr(l, fmt::format("*in{}", v.leaf))) : load_expr(l, fmt::format("in{}", v.leaf));
          break;
        case LeafKind::Scalar: e = scalar_expr(v.leaf); break;
        case LeafKind::Reduced: e = fmt::format("red{}", l.reduction); break;
        case LeafKind::Arange:
        case LeafKind::Linspace:
        case LeafKind::Eye: e = generator_expr(v.leaf); break;
        case LeafKind::Gathered: break;  // a Gather value, above
      }
      lines[static_cast<std::size_t>(i)] = fmt::format("const {} v{} = {};  // {} {}", reg, i, e, leaf_label(p_, v.leaf), name(v.dtype));
      continue;
    }
    std::array<std::string, 3> in;
    for (int k = 0; k < 3; ++k) {
      if (v.in[static_cast<std::size_t>(k)] >= 0) in[static_cast<std::size_t>(k)] = fmt::format("v{}", v.in[static_cast<std::size_t>(k)]);
    }
    const detail::OpInfo& info = detail::op_info(v.op);
    const DType ct = compute_dtype(p_, v);
    const bool int_like = is_bool(ct) || is_integer(ct);
    const std::string pat = int_like && info.cuda_int[0] != '\0' ? info.cuda_int : info.cuda;
    std::string e = apply_pattern(pat, in, cast_target(v.dtype));
    if (is_half(v.dtype) && v.op != Op::Cast) {
      e = fmt::format("loom::cast<{}>({})", cast_target(v.dtype), e);  // round as NumPy does
    }
    if (v.op == Op::CheckIndex) {
      (void)args_.field("err");  // its pattern (ops.def) records a bad index in a.err
      e = guarded(v, reg, e);
    }
    lines[static_cast<std::size_t>(i)] = fmt::format("const {} v{} = {};  // {}", reg, i, e, info.name);
    exprs[static_cast<std::size_t>(i)] = std::move(e);
  }
  args_.hold(nullptr);
  std::vector<std::uint8_t> live(static_cast<std::size_t>(nv), 0);
  for (int o : guards ? guard_of : p_.outputs) live[static_cast<std::size_t>(o)] = 1;
  for (int i = nv - 1; i >= 0; --i) {
    if (!live[static_cast<std::size_t>(i)]) continue;
    if (value(i).guard >= 0) live[static_cast<std::size_t>(value(i).guard)] = 1;
    for (int k : value(i).in) {
      if (k >= 0 && mentions(exprs[static_cast<std::size_t>(i)], fmt::format("v{}", k))) live[static_cast<std::size_t>(k)] = 1;
    }
  }
  for (int i = 0; i < nv; ++i) {
    if (!live[static_cast<std::size_t>(i)]) continue;
    w_.line("{}", lines[static_cast<std::size_t>(i)]);
    args_.keep(reads[static_cast<std::size_t>(i)]);
  }
  for (std::size_t o = 0; o < p_.outputs.size() && !guards; ++o) {
    const int i = p_.outputs[o];
    w_.line("out{} = {};", o, store_expr(value(i).dtype, fmt::format("v{}", i)));
  }
  for (std::size_t k = 0; k < guard_of.size(); ++k) w_.line("g{} = v{};", k, guard_of[k]);
  w_.close_block();
  w_.blank();
}


}  // namespace loom::codegen
