// CUDA source of a reduction kernel (emit_elementwise.hpp's emit_kernel for plans with a
// reduction part). Shape of the source: the header comment, Args (the fields the kernel reads:
// kernel_params trims the rest), `prologue` (the values reduced, at one input element),
// `epilogue` (the outputs, from the reductions' results), and the skeleton of the plan's
// strategy (reduce_strategy.hpp; one file per strategy). This file holds the pieces every
// skeleton shares.

#include <algorithm>

#include <fmt/format.h>

#include "codegen/ctypes.hpp"
#include "codegen/element_emitter.hpp"
#include "codegen/emit_elementwise.hpp"
#include "codegen/reduce_emitter.hpp"
#include "codegen/reduce_strategy.hpp"

namespace loom::codegen {

using detail::ReduceKind;

namespace {

int last_reduced_dim(const ReducePart& r) {
  for (int d = static_cast<int>(r.reduced.size()) - 1; d >= 0; --d) {
    if (r.reduced[static_cast<std::size_t>(d)]) return d;
  }
  return -1;
}

}  // namespace

// The C++ type of a reduction's result (what the epilogue receives).
std::string result_ctype(const ReduceSpec& r) {
  return reduce_info(r.kind).index ? "long long" : register_ctype(r.dtype);
}

// The state struct (graph/reductions.def's state column): loom::red::Sum<float>, loom::red::Any,
// or a ReductionKernel's own, defined by its preamble.
std::string state_type(const ReduceSpec& r) {
  if (r.kind == ReduceKind::User) return r.user->name;
  const detail::ReduceInfo& i = reduce_info(r.kind);
  return i.typed ? fmt::format("{}<{}>", i.state, register_ctype(r.dtype)) : std::string(i.state);
}

ReduceEmitter::ReduceEmitter(const KernelPlan& p)
    : p_(p), r_(*p.reduce), pro_(*p.reduce->prologue), args_(candidate_params(p)) {
  idx_t_ = p.index32 ? "int" : "long long";
}

KernelSource ReduceEmitter::run() {
  KernelSource ks;
  ks.name = kernel_name(p_);
  ks.headers = prelude_includes({&p_, &pro_}, ks.needs_cuda_include);
  ks.headers.push_back("loom_reduce.cuh");
  ks.options = user_options({&p_, &pro_});

  w_.line("// loom kernel {}", ks.name);
  for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
    w_.line("// out{} = {}", o, expression_text(p_, static_cast<int>(o)));
  }
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("//   {}({}) reduces {}", detail::reduce_name(r_.reductions[i].kind), i,
            expression_text(pro_, static_cast<int>(i)));
  }
  w_.line("// {}: {} prologue dim(s) ({} reduced), {}-bit indexing", strategy_def(r_.strategy).comment,
          pro_.shape.size(), std::count(r_.reduced.begin(), r_.reduced.end(), 1),
          p_.index32 ? 32 : 64);
  w_.line("// structural key {:016x}: scalars, sizes and strides are arguments", key_digest(p_.key));
  for (const std::string& h : ks.headers) w_.line("#include \"{}\"", h);
  emit_user_preambles(w_, {&p_, &pro_});
  // User reductions' states (after the user's preambles, which they may call).
  std::vector<const std::string*> states;
  for (const ReduceSpec& s : r_.reductions) {
    if (s.kind != ReduceKind::User) continue;
    const std::string& text = s.user->preamble;
    if (std::any_of(states.begin(), states.end(), [&](const std::string* t) { return *t == text; })) continue;
    states.push_back(&text);
    w_.line("{}", text);
  }
  w_.blank();
  const std::size_t args_at = w_.size();  // the Args struct goes here once its fields are known
  ElementEmitter pe(pro_, "p", w_, args_);
  ElementEmitter ee(p_, "", w_, args_);
  pe.emit_unravel_helpers();
  ee.emit_unravel_helpers();
  pe.emit_element("prologue", "The values reduced, at one element of the input.");
  ee.emit_element("epilogue", "The outputs at one output element, from the reductions' results.");
  name_ = ks.name;
  strategy_def(r_.strategy).skeleton(*this);
  ks.text = w_.take();
  ks.params = args_.read();
  SourceWriter args;
  const KernelPlan* plans[2] = {&p_, &pro_};
  emit_args(args, ks.params, plans);
  ks.text.insert(args_at, args.str());
  return ks;
}

// Whether the prologue's code reads the coordinates of its dims: at the per-output bases (kept
// dims; unravelled leaves read them in the call), in the loads, or in the call (reduced dims).
bool ReduceEmitter::prologue_reads_coords(Reads where) const {
  for (const Leaf& l : pro_.leaves) {
    const bool indexed = l.kind != LeafKind::Scalar && l.kind != LeafKind::Reduced && l.kind != LeafKind::Gathered;
    switch (where) {
      case Reads::Bases: if (indexed) return true; break;
      case Reads::Loads: if (l.kind == LeafKind::Buffer && !l.unravel) return true; break;
      case Reads::Call: if (indexed && (l.unravel || l.kind != LeafKind::Buffer)) return true; break;
    }
  }
  return false;
}

// Whether the epilogue reads its coordinates e<d>: leaves other than scalars, the reductions'
// results and (row-resident) the prologue's registers.
bool ReduceEmitter::epilogue_reads_coords() const {
  for (const Leaf& l : p_.leaves) {
    if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Reduced || l.kind == LeafKind::Gathered) continue;
    if (l.kind == LeafKind::Buffer && l.cache >= 0) continue;
    return true;
  }
  return false;
}

// Declares the coordinates of `linear` over the prologue dims of one class (the kept ones only
// where the bases read them; emit_batch decides for the reduced ones).
void ReduceEmitter::unravel_class(const std::string& linear, std::uint8_t cls) {
  if (cls == 0 && !prologue_reads_coords(Reads::Bases)) return;
  std::vector<int> dims;
  for (int d = 0; d < pro_.shape.size(); ++d) {
    if (r_.reduced[static_cast<std::size_t>(d)] == cls) dims.push_back(d);
  }
  if (dims.empty()) return;
  if (dims.size() == 1) {
    w_.line("const {} {} = {};", idx_t_, coord(dims[0]), linear);
    return;
  }
  const std::string t = cls ? "tr" : "tk";
  w_.line("{} {} = {};", idx_t_, t, linear);
  for (std::size_t i = dims.size() - 1; i >= 1; --i) {
    const std::string n = arg(fmt::format("pn{}", dims[i]));
    w_.line("const {0} {1} = {2} % ({0}){3};", idx_t_, coord(dims[i]), t, n);
    w_.line("{} /= ({}){};", t, idx_t_, n);
  }
  w_.line("const {} {} = {};", idx_t_, coord(dims[0]), t);
}

// sum of coord(d) * a.<name>_st<d> over the dims of class `cls` (all dims when cls < 0).
// unit_dim: a dim whose stride the key fixes at 1 (its coordinate enters as it is).
std::string ReduceEmitter::affine_sum(const std::string& name, int cls, int ndim,
                                      const std::function<std::string(int)>& coords, int unit_dim) const {
  std::string s;
  for (int d = 0; d < ndim; ++d) {
    if (cls >= 0 && r_.reduced[static_cast<std::size_t>(d)] != cls) continue;
    if (d == unit_dim) {
      s += fmt::format("{}{}", s.empty() ? "" : " + ", coords(d));
    } else {
      s += fmt::format("{}(long long){} * {}", s.empty() ? "" : " + ", coords(d), arg(fmt::format("{}_st{}", name, d)));
    }
  }
  return s.empty() ? "0" : s;
}

// The last reduced dim, when prologue leaf j steps through it with stride 1 (in the key).
int ReduceEmitter::unit_reduced_dim(int j) const {
  const int d = last_reduced_dim(r_);
  if (d < 0) return -1;
  const Leaf& l = pro_.leaves[static_cast<std::size_t>(j)];
  return l.idx[0].c[static_cast<std::size_t>(d)] == 1 ? d : -1;
}

// Per-output bases of the prologue leaves (their kept part), before the reduced loop.
void ReduceEmitter::emit_prologue_bases() {
  const int nd = pro_.shape.size();
  const auto c = [&](int d) { return coord(d); };
  for (int j = 0; j < static_cast<int>(pro_.leaves.size()); ++j) {
    const Leaf& l = pro_.leaves[static_cast<std::size_t>(j)];
    if (l.unravel || l.kind == LeafKind::Scalar || l.kind == LeafKind::Reduced || l.kind == LeafKind::Gathered) continue;
    if (l.kind == LeafKind::Buffer) {
      w_.line("const long long pb{} = {};", j, affine_sum(fmt::format("pin{}", j), 0, nd, c));
    } else if (l.kind == LeafKind::Eye) {
      w_.line("const long long pb{0}r = {2} + {1};", j, affine_sum(fmt::format("pg{}_row", j), 0, nd, c),
              arg(fmt::format("pg{}_row_off", j)));
      w_.line("const long long pb{0}c = {2} + {1};", j, affine_sum(fmt::format("pg{}_col", j), 0, nd, c),
              arg(fmt::format("pg{}_col_off", j)));
    } else {
      w_.line("const long long pb{0} = {2} + {1};", j, affine_sum(fmt::format("pg{}", j), 0, nd, c),
              arg(fmt::format("pg{}_off", j)));
    }
  }
}

// Loads of the prologue's buffers at reduced index r into registers c<j>[slot].
void ReduceEmitter::emit_prologue_loads(const std::string& slot) {
  const int nd = pro_.shape.size();
  const auto c = [&](int d) { return coord(d); };
  for (int j = 0; j < static_cast<int>(pro_.leaves.size()); ++j) {
    const Leaf& l = pro_.leaves[static_cast<std::size_t>(j)];
    if (l.kind != LeafKind::Buffer || l.unravel) continue;
    const std::string at = fmt::format("pb{} + {}", j, affine_sum(fmt::format("pin{}", j), 1, nd, c, unit_reduced_dim(j)));
    if (vec_ > 1) {
      w_.line("c{0}[{1}] = *reinterpret_cast<const loom::Vec<{2}, {3}>*>({5} + ({4}));", j, slot, vec_,
              storage_ctype(l.dtype), at, arg(fmt::format("pin{}", j)));
    } else {
      w_.line("c{}[{}] = {}[{}];", j, slot, arg(fmt::format("pin{}", j)), at);
    }
  }
}

// The prologue call at the current coordinates, its buffers read from registers c<j>[slot].
void ReduceEmitter::emit_prologue_call(const std::string& slot) {
  const int nd = pro_.shape.size();
  const auto c = [&](int d) { return coord(d); };
  std::vector<std::string> args{"a"};
  for (int j = 0; j < static_cast<int>(pro_.leaves.size()); ++j) {
    const Leaf& l = pro_.leaves[static_cast<std::size_t>(j)];
    if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered) continue;  // no argument
    if (l.unravel) {
      std::string lin = arg(fmt::format("pu{}_lin", j));
      for (int d = 0; d < nd; ++d) lin += fmt::format(" + (long long){} * {}", coord(d), arg(fmt::format("pu{}_lin_st{}", j, d)));
      if (l.kind == LeafKind::Buffer) {
        args.push_back(fmt::format("{2}[pu{0}_offset(a, {1})]", j, lin, arg(fmt::format("pin{}", j))));
      } else {
        w_.line("long long r{0}, c{0};", j);
        w_.line("pu{0}_rc(a, {1}, r{0}, c{0});", j, lin);
        args.push_back(fmt::format("r{}", j));
        args.push_back(fmt::format("c{}", j));
      }
      continue;
    }
    if (l.kind == LeafKind::Buffer) {
      args.push_back(fmt::format("c{}[{}]{}", j, slot, vec_ > 1 ? ".v[e]" : ""));
    } else if (l.kind == LeafKind::Eye) {
      args.push_back(fmt::format("pb{0}r + {1}", j, affine_sum(fmt::format("pg{}_row", j), 1, nd, c)));
      args.push_back(fmt::format("pb{0}c + {1}", j, affine_sum(fmt::format("pg{}_col", j), 1, nd, c)));
    } else {
      args.push_back(fmt::format("pb{0} + {1}", j, affine_sum(fmt::format("pg{}", j), 1, nd, c)));
    }
  }
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    const DType t = pro_.values[static_cast<std::size_t>(r_.reductions[i].input)].dtype;
    w_.line("{} x{};", storage_ctype(t), i);
    args.push_back(fmt::format("x{}", i));
  }
  w_.line("prologue({});", fmt::join(args, ", "));
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    if (kept_vec_) {  // element e of the vector is column j0 + e: its own state
      w_.line("s{0}v[e].add(x{0}, r);", i);
    } else {
      w_.line("s{0}.add(x{0}, r{1});", i, vec_ > 1 ? " + e" : "");
    }
  }
}

void ReduceEmitter::declare_caches(int count) {
  for (int j = 0; j < static_cast<int>(pro_.leaves.size()); ++j) {
    const Leaf& l = pro_.leaves[static_cast<std::size_t>(j)];
    if (l.kind != LeafKind::Buffer || l.unravel) continue;
    if (vec_ > 1) {
      w_.line("loom::Vec<{}, {}> c{}[{}];", vec_, storage_ctype(l.dtype), j, count);
    } else {
      w_.line("{} c{}[{}];", storage_ctype(l.dtype), j, count);
    }
  }
}

// `batch` elements at r = first + k * step (k < batch, r < end): first every load, back to back
// (a load behind a bounds check and the previous element's arithmetic would wait for it), then
// the arithmetic. A batch wholly in range takes a copy with no bounds checks: with them, ptxas
// once scheduled the first vector's adds before the other loads, and the kernel ran at 93% of a
// probe's speed (sum over axis 1 vs the same kernel squaring, bench/NOTES.md).
void ReduceEmitter::emit_batch(const std::string& first, const std::string& step, const std::string& end, int batch) {
  const auto body = [&](bool checked) {
    for (int phase = 0; phase < 2; ++phase) {
      if (phase == 0 && !prologue_reads_coords(Reads::Loads)) continue;  // nothing to load
      w_.line("#pragma unroll");
      w_.open_block(fmt::format("for (int k = 0; k < {}; ++k)", batch));
      w_.line("const {0} r = {1} + ({0})k * {2};", idx_t_, first, step);
      if (checked) w_.open_block(fmt::format("if (r < {})", end));
      if (prologue_reads_coords(phase == 0 ? Reads::Loads : Reads::Call)) unravel_class("r", 1);
      if (phase == 0) {
        emit_prologue_loads("k");
      } else if (vec_ > 1) {  // the elements of one vector (consecutive in the last dim)
        w_.line("#pragma unroll");
        w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", vec_));
        emit_prologue_call("k");
        w_.close_block();
      } else {
        emit_prologue_call("k");
      }
      if (checked) w_.close_block();
      w_.close_block();
    }
  };
  if (batch == 1) {
    body(true);
    return;
  }
  w_.line("// the whole batch in range: no bounds checks");
  w_.open_block(fmt::format("if ({0} - {1} > ({2}){3} * ({2})({4}))", end, first, idx_t_, batch - 1, step));
  body(false);
  w_.close_block();
  w_.open_block("else");
  body(true);
  w_.close_block();
}

// Declares e<d> for the epilogue dims of one class from `linear` (row-resident kernels).
void ReduceEmitter::unravel_epilogue_class(const std::string& linear, std::uint8_t cls) {
  if (!epilogue_reads_coords()) return;
  std::vector<int> dims;
  for (int d = 0; d < p_.shape.size(); ++d) {
    if (r_.epilogue_reduced[static_cast<std::size_t>(d)] == cls) dims.push_back(d);
  }
  if (dims.empty()) return;
  const std::string t = cls ? "te_r" : "te_k";
  w_.line("{} {} = {};", idx_t_, t, linear);
  for (std::size_t i = dims.size() - 1; i >= 1; --i) {
    const std::string n = arg(fmt::format("n{}", dims[i]));
    w_.line("const {0} e{1} = {2} % ({0}){3};", idx_t_, dims[i], t, n);
    w_.line("{} /= ({}){};", t, idx_t_, n);
  }
  w_.line("const {} e{} = {};", idx_t_, dims[0], t);
}

// The epilogue for output j (its coordinates unravelled over the output's dims). Row-resident:
// element r of row j, coordinates already declared, cached leaves from registers.
void ReduceEmitter::emit_epilogue(const std::string& j, bool rows) {
  const int ne = p_.shape.size();
  if (rows || !epilogue_reads_coords()) {
    // e<d> declared by unravel_epilogue_class, or not read
  } else if (ne <= 1) {
    w_.line("const {} e0 = {};", idx_t_, j);
  } else {
    w_.line("{} te = {};", idx_t_, j);
    for (int d = ne - 1; d >= 1; --d) {
      const std::string n = arg(fmt::format("n{}", d));
      w_.line("const {0} e{1} = te % ({0}){2};", idx_t_, d, n);
      w_.line("te /= ({}){};", idx_t_, n);
    }
    w_.line("const {} e0 = te;", idx_t_);
  }
  const auto e = [&](int d) { return fmt::format("e{}", d); };
  std::vector<std::string> args{"a"};
  // Arguments in the order of the epilogue's leaves (its element function's parameters).
  for (int k = 0; k < static_cast<int>(p_.leaves.size()); ++k) {
    const Leaf& l = p_.leaves[static_cast<std::size_t>(k)];
    switch (l.kind) {
      case LeafKind::Scalar:
      case LeafKind::Gathered: break;  // no argument
      case LeafKind::Reduced: {
        const int i = l.reduction;
        if (rows) {
          args.push_back(fmt::format("res{}", i));
        } else if (r_.reductions[static_cast<std::size_t>(i)].kind == ReduceKind::Variance) {
          args.push_back(fmt::format("s{}.result({})", i, arg(fmt::format("ddof{}", i))));
        } else {
          args.push_back(fmt::format("s{}.result()", i));
        }
        break;
      }
      case LeafKind::Buffer:
        if (l.cache >= 0) {
          args.push_back(fmt::format("c{}[k]{}", l.cache, vec_ > 1 ? ".v[e]" : ""));
        } else if (l.unravel) {
          std::string lin = arg(fmt::format("u{}_lin", k));
          for (int d = 0; d < ne; ++d) lin += fmt::format(" + (long long)e{} * {}", d, arg(fmt::format("u{}_lin_st{}", k, d)));
          args.push_back(fmt::format("{2}[u{0}_offset(a, {1})]", k, lin, arg(fmt::format("in{}", k))));
        } else {
          args.push_back(fmt::format("{}[{}]", arg(fmt::format("in{}", k)), affine_sum(fmt::format("in{}", k), -1, ne, e)));
        }
        break;
      case LeafKind::Eye:
        args.push_back(fmt::format("{} + {}", arg(fmt::format("g{}_row_off", k)), affine_sum(fmt::format("g{}_row", k), -1, ne, e)));
        args.push_back(fmt::format("{} + {}", arg(fmt::format("g{}_col_off", k)), affine_sum(fmt::format("g{}_col", k), -1, ne, e)));
        break;
      case LeafKind::Arange:
      case LeafKind::Linspace:
        args.push_back(fmt::format("{} + {}", arg(fmt::format("g{}_off", k)), affine_sum(fmt::format("g{}", k), -1, ne, e)));
        break;
    }
  }
  for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
    if (rows && vec_ > 1) {  // element e of the vector the row-resident kernel stores
      args.push_back(fmt::format("ov{}.v[e]", o));
    } else {
      const std::string out = arg(fmt::format("out{}", o));
      args.push_back(rows ? fmt::format("{}[(long long){} * {} + r]", out, j, arg("nr")) : fmt::format("{}[{}]", out, j));
    }
  }
  w_.line("epilogue({});", fmt::join(args, ", "));
}

void ReduceEmitter::emit_states() {
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("{} s{};", state_type(r_.reductions[i]), i);
    w_.line("s{}.init();", i);
  }
}

// Blocks that split one output's reduction: each writes its partial state; the last to
// arrive (a ticket per output) combines them in block order. `part` names this block's slice.
void ReduceEmitter::emit_split_combine(const std::string& j, const std::string& slices, const std::string& part,
                                       bool whole_block) {
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("static_cast<{0}*>({5})[(long long){2} * {3} + {4}] = s{1};", state_type(r_.reductions[i]), i, j, slices,
            part, arg(fmt::format("partials{}", i)));
  }
  // Every other block has taken its ticket: the last resets it for the next launch (the
  // tickets are zeroed once, not before each launch).
  if (whole_block) {
    w_.line("last = loom::red::arrive({} + {}) == {} - 1;", arg("tickets"), j, slices);
    w_.line("if (last) {}[{}] = 0u;", arg("tickets"), j);
    return;
  }
  w_.line("if (loom::red::arrive({} + {}) != {} - 1) return;", arg("tickets"), j, slices);
  w_.line("{}[{}] = 0u;", arg("tickets"), j);
}

// The partials of output j merged in a fixed order: by the whole block (each thread a
// strided share, then the block reduction) or by one thread. The last arrival's acquire
// (loom::red::arrive) makes them visible: no fence here.
void ReduceEmitter::emit_merge_partials(const std::string& j, const std::string& slices, bool whole_block) {
  for (std::size_t i = 0; i < r_.reductions.size(); ++i) {
    w_.line("s{}.init();", i);
    if (whole_block) {
      w_.open_block(fmt::format("for (unsigned g = threadIdx.x; g < {}; g += blockDim.x)", slices));
    } else {
      w_.line("#pragma unroll 4");
      w_.open_block(fmt::format("for (unsigned g = 0; g < {}; ++g)", slices));
    }
    w_.line("s{0}.merge(loom::red::load_partial(static_cast<const {1}*>({4}) + (long long){2} * {3} + g));", i,
            state_type(r_.reductions[i]), j, slices, arg(fmt::format("partials{}", i)));
    w_.close_block();
    if (whole_block) w_.line("loom::red::block_reduce(s{0}, sh{0});", i);
  }
}

void ReduceEmitter::begin_kernel(const std::string& launch_bounds) {
  w_.line("extern \"C\" __global__ void {}", launch_bounds);
  w_.open_block(fmt::format("{}(const __grid_constant__ Args a)", name_));
}

void ReduceEmitter::end_kernel() { w_.close_block(); }

KernelSource emit_reduce(const KernelPlan& plan) {
  return ReduceEmitter(plan).run();
}

}  // namespace loom::codegen
