#include "codegen/emit_elementwise.hpp"

#include <algorithm>
#include <bit>
#include <functional>

#include <fmt/format.h>

#include "codegen/ctypes.hpp"
#include "codegen/element_emitter.hpp"
#include "codegen/source_writer.hpp"

namespace loom::codegen {

using detail::Op;

std::uint64_t key_digest(const std::string& key) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

namespace {

class Emitter {
 public:
  explicit Emitter(const KernelPlan& p) : p_(p), args_(candidate_params(p)) {
    nd_ = p.shape.size();
    idx_t_ = p.index32 ? "int" : "long long";
  }

  KernelSource run() {
    KernelSource ks;
    ks.name = kernel_name(p_);
    ks.headers = prelude_includes({&p_}, ks.needs_cuda_include);
    ks.options = user_options({&p_});

    w_.line("// loom kernel {}", ks.name);
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("// out{} = {}", o, expression_text(p_, static_cast<int>(o)));
    }
    w_.line("// {} loop over {} dim(s), {}-bit indexing, {} element(s) per access{}", path_name(p_.path),
            nd_, p_.index32 ? 32 : 64, p_.vec,
            p_.unroll > 1 ? fmt::format(", {} per thread a block's width apart", p_.unroll) : "");
    w_.line("// structural key {:016x}: scalars, sizes and strides are arguments",
            key_digest(p_.key));
    for (const std::string& h : ks.headers) w_.line("#include \"{}\"", h);
    emit_user_preambles(w_, {&p_});
    w_.blank();
    const std::size_t args_at = w_.size();  // the Args struct goes here once its fields are known
    ElementEmitter ee(p_, "", w_, args_);
    ee.emit_unravel_helpers();
    ee.emit_element("element", "One element: its inputs in, its outputs out.");
    if (p_.vec > 1 && guarded_leaves() > 0) ee.emit_guards("guards");
    emit_kernel(ks.name);
    ks.text = w_.take();
    ks.params = args_.read();
    SourceWriter args;
    const KernelPlan* plans[2] = {&p_, &p_};
    emit_args(args, ks.params, plans);
    ks.text.insert(args_at, args.str());
    return ks;
  }

 private:
  const Leaf& leaf(int j) const { return p_.leaves[static_cast<std::size_t>(j)]; }
  const KValue& value(int i) const { return p_.values[static_cast<std::size_t>(i)]; }
  // "a.<name>", the field marked read.
  std::string arg(std::string_view name) const { return args_.field(name); }
  // The index expression of affine `sub` of leaf j at inner position `pos`, given the row base
  // (rows path), or the flat/unravelled index.
  std::string affine_at(int j, int sub, const std::string& base, const std::string& pos) const {
    const Affine& a = leaf(j).idx[static_cast<std::size_t>(sub)];
    const std::string st = sub_name(j, sub);
    switch (step_of(a, nd_)) {
      case Step::Zero: return base;
      case Step::Unit: return fmt::format("{} + {}", base, pos);
      case Step::Strided: return fmt::format("{} + ({}) * {}", base, pos, arg(fmt::format("{}_st{}", st, nd_ - 1)));
    }
    return base;
  }

  std::string sub_name(int j, int sub) const {
    const Leaf& l = leaf(j);
    if (l.kind == LeafKind::Buffer) return fmt::format("in{}", j);
    if (l.kind == LeafKind::Eye) return fmt::format("g{}_{}", j, sub == 0 ? "row" : "col");
    return fmt::format("g{}", j);
  }

  // Sum over the outer dims of o_d * stride.
  // With 32-bit indexing every partial sum fits an int (fits_in_32_bits): int products, so a
  // row's pointer is one 32-bit multiply-add from the base, cheap for the compiler to remake per
  // element where it runs short of registers (64-bit ones cost six instructions a pointer).
  std::string outer_sum(int j, int sub, int dims) const {
    std::string s;
    const char* cast = p_.index32 ? "(int)" : "";
    for (int d = 0; d < dims; ++d) {
      s += fmt::format("{}o{} * {}{}", s.empty() ? "" : " + ", d, cast, arg(fmt::format("{}_st{}", sub_name(j, sub), d)));
    }
    return s.empty() ? "0" : s;
  }

  std::string lin_of(int j, const std::string& inner) const {
    std::string s = arg(fmt::format("u{}_lin", j));
    for (int d = 0; d < nd_; ++d) {
      const std::string o = (d == nd_ - 1) ? inner : fmt::format("o{}", d);
      s += fmt::format(" + (long long)({}) * {}", o, arg(fmt::format("u{}_lin_st{}", j, d)));
    }
    return s;
  }

  // The element call at inner position `pos` (scalar path): loads and positions inline; output o
  // goes to y<o>[out_index], or to z<o>[out_index] when `staged` (the unrolled loop stores later).
  void emit_scalar_call(const std::string& pos, const std::string& out_index, bool staged = false) {
    std::vector<std::string> args{"a"};
    for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
      const Leaf& l = leaf(j);
      if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered) continue;  // no argument
      if (l.unravel) {
        if (l.kind == LeafKind::Buffer) {  // guarded: the address, read where the guard holds
          const std::string at = fmt::format("u{}_offset(a, {})", j, lin_of(j, pos));
          const std::string in = arg(fmt::format("in{}", j));
          args.push_back(l.guard >= 0 ? fmt::format("{} + {}", in, at) : fmt::format("{}[{}]", in, at));
        } else {
          w_.line("long long r{0}, c{0};", j);
          w_.line("u{0}_rc(a, {1}, r{0}, c{0});", j, lin_of(j, pos));
          args.push_back(fmt::format("r{}", j));
          args.push_back(fmt::format("c{}", j));
        }
        continue;
      }
      const int subs = l.kind == LeafKind::Eye ? 2 : 1;
      for (int sub = 0; sub < subs; ++sub) {
        if (l.tiled) {
          args.push_back(fmt::format("t{}[threadIdx.x][k]", j));
        } else if (l.kind == LeafKind::Buffer) {
          const std::string at = buffer_index(j, pos);
          args.push_back(l.guard >= 0 ? fmt::format("{} + {}", ptr_name(j), at) : fmt::format("{}[{}]", ptr_name(j), at));
        } else {
          args.push_back(fmt::format("(long long)({})", affine_at(j, sub, base_name(j, sub), pos)));
        }
      }
    }
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      args.push_back(fmt::format("{}[{}]", staged ? fmt::format("z{}", o) : out_ptr(o), out_index));
    }
    w_.line("element({});", fmt::join(args, ", "));
  }

  // p_.unroll elements a block's width apart from `first` (below `end`): every element computed
  // into registers, then stored (no store between two elements' loads).
  void emit_unrolled(const std::string& first, const std::string& end) {
    const int u = p_.unroll;
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("{} z{}[{}];", storage_ctype(value(p_.outputs[o]).dtype), o, u);
    }
    // All in range (the common case): no bounds check between two elements' loads, so they are
    // all in flight at once; else the same with checks.
    for (int checked = 0; checked < 2; ++checked) {
      if (checked == 0) {
        w_.open_block(fmt::format("if ({0} + {1} * ({2})blockDim.x < {3})", first, u - 1, idx_t_, end));
      } else {
        w_.open_block("else");
      }
      for (int phase = 0; phase < 2; ++phase) {
        w_.line("#pragma unroll");
        w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", u));
        if (checked || phase == 1 || reads_inner()) w_.line("const {0} k = {1} + e * ({0})blockDim.x;", idx_t_, first);
        if (checked) w_.line("if (k >= {}) break;", end);
        if (phase == 0) {
          emit_scalar_call("k", "e", true);
        } else {
          for (std::size_t o = 0; o < p_.outputs.size(); ++o) w_.line("{}[k] = z{}[e];", out_ptr(o), o);
        }
        w_.close_block();
      }
      w_.close_block();
    }
  }

  // For buffers the row base is folded into the pointer; this is the index after it.
  std::string buffer_index(int j, const std::string& pos) const {
    switch (step_of(leaf(j).idx[0], nd_)) {
      case Step::Zero: return "0";
      case Step::Unit: return pos;
      case Step::Strided: return fmt::format("({}) * {}", pos, arg(fmt::format("in{}_st{}", j, nd_ - 1)));
    }
    return "0";
  }

  std::string base_name(int j, int sub) const {
    const Leaf& l = leaf(j);
    if (l.kind == LeafKind::Buffer) return fmt::format("b{}", j);
    return fmt::format("q{}{}", j, sub == 1 ? "c" : "");
  }
  std::string ptr_name(int j) const { return fmt::format("b{}", j); }
  std::string out_ptr(std::size_t o) const { return fmt::format("y{}", o); }

  // Declares the per-row (or per-element) bases: pointers for buffers, positions for generators.
  void emit_bases(int outer_dims, const std::string& out_base) {
    for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
      const Leaf& l = leaf(j);
      if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered || l.unravel || l.tiled) continue;
      if (l.kind == LeafKind::Buffer) {
        if (l.share >= 0) continue;  // below, from its lead's
        const std::string off = outer_sum(j, 0, outer_dims);
        w_.line("const {}* {} = {}{};", storage_ctype(l.dtype), ptr_name(j), arg(fmt::format("in{}", j)),
                off == "0" ? "" : " + " + off);
        continue;
      }
      const int subs = l.kind == LeafKind::Eye ? 2 : 1;
      for (int sub = 0; sub < subs; ++sub) {
        const std::string off = l.kind == LeafKind::Eye ? arg(fmt::format("{}_off", sub_name(j, sub)))
                                                        : arg(fmt::format("g{}_off", j));
        w_.line("const long long {} = {} + {};", base_name(j, sub), off, outer_sum(j, sub, outer_dims));
      }
    }
    for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
      const Leaf& l = leaf(j);
      if (l.kind != LeafKind::Buffer || l.share < 0 || l.tiled) continue;
      w_.line("const {}* {} = {}{};", storage_ctype(l.dtype), ptr_name(j), ptr_name(l.share),
              l.shift == 0 ? "" : fmt::format(" + ({})", l.shift));
    }
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("{}* {} = {}{};", storage_ctype(value(p_.outputs[o]).dtype), out_ptr(o), arg(fmt::format("out{}", o)),
              out_base == "0" ? "" : " + " + out_base);
    }
  }

  int guarded_leaves() const {
    int n = 0;
    for (const Leaf& l : p_.leaves) n += l.guard >= 0;
    return n;
  }

  // The arguments of lane e of a vector at inner position `i`: unguarded buffers from their
  // vectors, guarded ones as `guarded(j)` gives them (none when empty), generators' positions.
  std::vector<std::string> lane_args(const std::string& i, const std::function<std::string(int)>& guarded) const {
    std::vector<std::string> args{"a"};
    const std::string pos = fmt::format("{} + e", i);
    for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
      const Leaf& l = leaf(j);
      if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered) continue;
      if (l.kind == LeafKind::Buffer) {
        if (l.guard < 0) {
          args.push_back(step_of(l.idx[0], nd_) == Step::Unit ? fmt::format("x{}.v[e]", j) : fmt::format("x{}", j));
        } else if (std::string g = guarded(j); !g.empty()) {
          args.push_back(std::move(g));
        }
        continue;
      }
      const int subs = l.kind == LeafKind::Eye ? 2 : 1;
      for (int sub = 0; sub < subs; ++sub) args.push_back(fmt::format("(long long)({})", affine_at(j, sub, base_name(j, sub), pos)));
    }
    return args;
  }

  void emit_lanes(const std::string& i, const std::function<std::string(int)>& guarded) {
    const int v = p_.vec;
    w_.line("#pragma unroll");
    w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", v));
    std::vector<std::string> args = lane_args(i, guarded);
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) args.push_back(fmt::format("z{}.v[e]", o));
    w_.line("element({});", fmt::join(args, ", "));
    w_.close_block();
  }

  // The vector body at inner position `i` (all buffers unit or zero step).
  void emit_vector_body(const std::string& i) {
    const int v = p_.vec;
    const int n = static_cast<int>(p_.leaves.size());
    const auto unit = [&](int j) { return step_of(leaf(j).idx[0], nd_) == Step::Unit; };
    const auto vec_t = [&](int j) { return fmt::format("loom::Vec<{}, {}>", v, storage_ctype(leaf(j).dtype)); };
    const auto load = [&](int j) { return fmt::format("*reinterpret_cast<const {}*>({} + {})", vec_t(j), ptr_name(j), i); };
    // Guard slots (g[e][slot]); for each lead of shared reads (Leaf::share), whether its vector is
    // loaded before the guards (an unguarded read of it), else the slots of the unshifted reads
    // whose guards load it.
    std::vector<int> slot(static_cast<std::size_t>(n), -1);
    int ng = 0;
    for (int j = 0; j < n; ++j) {
      if (leaf(j).guard >= 0) slot[static_cast<std::size_t>(j)] = ng++;
    }
    std::vector<std::uint8_t> early(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<int>> loads_by(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
      const Leaf& l = leaf(j);
      if (l.kind != LeafKind::Buffer || !unit(j) || l.shift != 0) continue;
      const auto lead = static_cast<std::size_t>(l.share >= 0 ? l.share : j);
      if (l.guard < 0) early[lead] = 1;
      else loads_by[lead].push_back(slot[static_cast<std::size_t>(j)]);
    }
    // A shared read's lanes: its lead's vector's, and single elements past that vector's ends
    // (read where `guard` holds, else zero).
    const auto member_lanes = [&](int j, const std::string& guard) {
      const Leaf& l = leaf(j);
      w_.line("{} x{};", vec_t(j), j);
      for (int e = 0; e < v; ++e) {
        const int src = e + l.shift;
        const std::string at = fmt::format("{}[{} + ({})]", ptr_name(l.share), i, src);
        if (src >= 0 && src < v) w_.line("x{}.v[{}] = x{}.v[{}];", j, e, l.share, src);
        else if (guard.empty()) w_.line("x{}.v[{}] = {};", j, e, at);
        else w_.line("x{}.v[{}] = {} ? {} : loom::zero<{}>();", j, e, guard, at, storage_ctype(l.dtype));
      }
    };
    for (int j = 0; j < n; ++j) {
      const Leaf& l = leaf(j);
      if (l.kind != LeafKind::Buffer || (l.guard >= 0 && !(unit(j) && early[static_cast<std::size_t>(j)]))) continue;
      if (unit(j) && l.share >= 0) continue;  // below, from its lead's vector
      if (unit(j)) w_.line("const {} x{} = {};", vec_t(j), j, load(j));
      else w_.line("const {} x{} = {}[0];", storage_ctype(l.dtype), j, ptr_name(j));
    }
    for (int j = 0; j < n; ++j) {
      const Leaf& l = leaf(j);
      if (l.kind != LeafKind::Buffer || l.guard >= 0 || l.share < 0 || !unit(j)) continue;
      member_lanes(j, "");
    }
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("loom::Vec<{}, {}> z{};", v, storage_ctype(value(p_.outputs[o]).dtype), o);
    }
    const auto scalar_ptr = [&](int j) {
      return fmt::format("{} + {}", ptr_name(j), buffer_index(j, fmt::format("{} + e", i)));
    };
    if (ng == 0) {
      emit_lanes(i, scalar_ptr);
    } else {
      // Guarded reads: where every lane's guards agree (a vector wholly inside or outside each
      // box), one 16-byte load of each guarded input whose guard holds, none of the others;
      // else each lane reads its own elements where its guards hold.
      w_.line("bool g[{}][{}];", v, ng);
      w_.line("#pragma unroll");
      w_.open_block(fmt::format("for (int e = 0; e < {}; ++e)", v));
      std::vector<std::string> args = lane_args(i, [](int) { return std::string(); });
      for (int k = 0; k < ng; ++k) args.push_back(fmt::format("g[e][{}]", k));
      w_.line("guards({});", fmt::join(args, ", "));
      w_.close_block();
      w_.line("bool agree = true;");
      w_.line("#pragma unroll");
      w_.open_block(fmt::format("for (int e = 1; e < {}; ++e)", v));
      w_.line("#pragma unroll");
      w_.line("for (int k = 0; k < {}; ++k) agree = agree && g[e][k] == g[0][k];", ng);
      w_.close_block();
      w_.open_block("if (agree)");
      // A lead's vector is zero where not loaded, and its shared reads copy their lanes whatever
      // their guards (the element function selects): predicated copies held the heat step's
      // kernel at 56 registers, plain ones 40 (52.7 us against 59.8 on the H100).
      for (int pass = 0; pass < 2; ++pass) {  // leads and unshared reads, then shared ones
        for (int j = 0; j < n; ++j) {
          const Leaf& l = leaf(j);
          if (l.guard < 0 || !unit(j) || (pass == 0) != (l.share < 0) || early[static_cast<std::size_t>(j)]) continue;
          if (pass == 1) {
            member_lanes(j, fmt::format("g[0][{}]", slot[static_cast<std::size_t>(j)]));
            continue;
          }
          std::vector<std::string> cond;
          for (int k : loads_by[static_cast<std::size_t>(j)]) cond.push_back(fmt::format("g[0][{}]", k));
          w_.line("{} x{}{{}};", vec_t(j), j);
          w_.line("if ({}) x{} = {};", fmt::join(cond, " || "), j, load(j));
        }
      }
      emit_lanes(i, [&](int j) { return unit(j) ? fmt::format("&x{}.v[e]", j) : ptr_name(j); });
      w_.close_block();
      w_.open_block("else");
      emit_lanes(i, scalar_ptr);
      w_.close_block();
    }
    for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
      w_.line("*reinterpret_cast<loom::Vec<{0}, {1}>*>({2} + {3}) = z{4};", v,
              storage_ctype(value(p_.outputs[o]).dtype), out_ptr(o), i, o);
    }
  }

  void emit_kernel(const std::string& name) {
    const int v = p_.vec;
    const std::string it = idx_t_;
    w_.line("extern \"C\" __global__ void __launch_bounds__(256)");
    w_.open_block(fmt::format("{}(const __grid_constant__ Args a)", name));
    switch (p_.path) {
      case Path::Flat: {
        if (p_.unroll > 1) {
          w_.line("const {0} i = ({0})blockIdx.x * blockDim.x * {1} + threadIdx.x;", it, p_.unroll);
          w_.line("if (i >= {}) return;", arg("n"));
          emit_bases(0, "0");
          emit_unrolled("i", arg("n"));
          break;
        }
        w_.line("const {0} i = (({0})blockIdx.x * blockDim.x + threadIdx.x) * {1};", it, v);
        w_.line("if (i >= {}) return;", arg("n"));
        emit_bases(0, "0");
        if (v > 1) {
          w_.open_block(fmt::format("if ({} - i >= {})", arg("n"), v));
          emit_vector_body("i");
          w_.line("return;");
          w_.close_block();
        }
        w_.open_block(fmt::format("for ({0} k = i; k < {2} && k < i + {1}; ++k)", it, v, arg("n")));
        emit_scalar_call("k", "k");
        w_.close_block();
        break;
      }
      case Path::Rows: {
        if (p_.unroll > 1) {
          w_.line("const {0} i = ({0})blockIdx.x * blockDim.x * {1} + threadIdx.x;", it, p_.unroll);
        } else {
          w_.line("const {0} i = (({0})blockIdx.x * blockDim.x + threadIdx.x) * {1};", it, v);
        }
        w_.line("if (i >= {}) return;", arg("inner"));
        w_.open_block(fmt::format(
            "for ({0} row = ({0})blockIdx.y * blockDim.y + threadIdx.y; row < {1}; row += ({0})gridDim.y * blockDim.y)",
            it, arg("rows")));
        if (p_.fast_rows != 0) {
          emit_row_order("row");
          emit_bases(nd_ - 1, "orow * " + arg("inner"));
        } else {
          emit_unravel("row", nd_ - 1, reads_outer());
          emit_bases(nd_ - 1, "row * " + arg("inner"));
        }
        if (p_.unroll > 1) {
          emit_unrolled("i", arg("inner"));
          w_.close_block();
          break;
        }
        if (v > 1) {
          w_.open_block(fmt::format("if ({} - i >= {})", arg("inner"), v));
          emit_vector_body("i");
          w_.line("continue;");
          w_.close_block();
        }
        w_.open_block(fmt::format("for ({0} k = i; k < {2} && k < i + {1}; ++k)", it, v, arg("inner")));
        emit_scalar_call("k", "k");
        w_.close_block();
        w_.close_block();
        break;
      }
      case Path::Tiled: {
        // A 32x32 tile of the output per block. Transposed operands are first read along their
        // contiguous dim (down the rows) into shared memory, then read back across it.
        for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
          if (leaf(j).tiled) w_.line("__shared__ {} t{}[32][33];", storage_ctype(leaf(j).dtype), j);
        }
        w_.line("const {0} r0 = ({0})blockIdx.y * 32, c0 = ({0})blockIdx.x * 32;", it);
        w_.line("#pragma unroll");
        w_.open_block("for (int k = threadIdx.y; k < 32; k += 8)");
        w_.line("const {0} r = r0 + threadIdx.x, c = c0 + k;", it);
        for (int j = 0; j < static_cast<int>(p_.leaves.size()); ++j) {
          if (!leaf(j).tiled) continue;
          w_.line("if (r < {} && c < {}) t{}[k][threadIdx.x] = {}[r * {} + c * {}];", arg("rows"), arg("inner"), j,
                  arg(fmt::format("in{}", j)), arg(fmt::format("in{}_st0", j)), arg(fmt::format("in{}_st1", j)));
        }
        w_.close_block();
        w_.line("__syncthreads();");
        w_.line("#pragma unroll");
        w_.open_block("for (int k = threadIdx.y; k < 32; k += 8)");
        w_.line("const {0} row = r0 + k, col = c0 + threadIdx.x;", it);
        w_.line("if (row >= {} || col >= {}) continue;", arg("rows"), arg("inner"));
        w_.line("const {} o0 = row;", it);
        emit_bases(1, "row * " + arg("inner"));
        emit_scalar_call("col", "col");
        w_.close_block();
        break;
      }
      case Path::Unravel: {
        w_.line("const {0} l = ({0})blockIdx.x * blockDim.x + threadIdx.x;", it);
        w_.line("if (l >= {}) return;", arg("n"));
        emit_unravel("l", nd_, reads_inner());
        emit_bases(nd_ - 1, "0");
        emit_scalar_call(fmt::format("o{}", nd_ - 1), "l");
        break;
      }
    }
    w_.close_block();
  }

  // Whether the outer coordinates are read (per-row bases, unravelled leaves), and whether the
  // inner position is (a leaf stepping along the inner dim, or unravelled).
  bool reads_outer() const {
    for (const Leaf& l : p_.leaves) {
      if (l.kind != LeafKind::Scalar && l.kind != LeafKind::Gathered) return true;
    }
    return false;
  }
  bool reads_inner() const {
    for (const Leaf& l : p_.leaves) {
      if (l.kind == LeafKind::Scalar || l.kind == LeafKind::Gathered) continue;
      if (l.unravel || l.tiled) return true;
      for (int sub = 0; sub < l.num_idx; ++sub) {
        if (step_of(l.idx[static_cast<std::size_t>(sub)], nd_) != Step::Zero) return true;
      }
    }
    return false;
  }

  // o0..o(dims-1) from a linear index over the first `dims` iteration dims: the outer ones when
  // read, the last when `last` (no dead locals).
  void emit_unravel(const std::string& linear, int dims, bool last) {
    const bool outer = reads_outer();
    if (!outer && !last) return;
    if (dims == 1) {
      w_.line("const {} o0 = {};", idx_t_, linear);
      return;
    }
    w_.line("{} r = {};", p_.index32 ? "unsigned" : idx_t_, linear);
    for (int d = dims - 1; d >= 1; --d) {
      emit_digit(d, d == dims - 1 ? last : outer);
      if (!outer && d == dims - 1) break;  // only the last was wanted
      w_.line("r = {};", p_.index32 ? fmt::format("rq{}", d) : fmt::format("r / ({}){}", idx_t_, arg(fmt::format("n{}", d))));
    }
    if (outer) w_.line("const {} o0 = r;", idx_t_);
  }

  // Digit d of `r` (o<d>, when `want`), and in 32-bit plans its quotient by a multiply and
  // a shift (divisor_word; rq<d>) instead of a division by a value known only at run time.
  void emit_digit(int d, bool want) {
    if (!p_.index32) {
      if (want) w_.line("const {0} o{1} = r % ({0}){2};", idx_t_, d, arg(fmt::format("n{}", d)));
      return;
    }
    w_.line("const unsigned rq{0} = {1} ? __umulhi(r, (unsigned){1}) >> (unsigned)({1} >> 32) : r;", d,
            arg(fmt::format("n{}_dm", d)));
    if (want) w_.line("const int o{0} = (int)(r - rq{0} * (unsigned){1});", d, arg(fmt::format("n{}", d)));
  }

  // The outer coordinates of row `linear` of a reordered row loop (KernelPlan::fast_rows): the
  // fast dims' digits first, then the others', and `orow`, the row's place in the C-order output.
  void emit_row_order(const std::string& linear) {
    const int dims = nd_ - 1;
    std::vector<int> order;  // fastest first
    for (int pass = 0; pass < 2; ++pass) {
      for (int d = dims - 1; d >= 0; --d) {
        if (((p_.fast_rows >> d) & 1u) == (pass == 0 ? 1u : 0u)) order.push_back(d);
      }
    }
    w_.line("// rows visited with dims {} fastest: those that read the same operand rows run together",
            fmt::join(std::vector<int>(order.begin(), order.begin() + std::popcount(p_.fast_rows)), ", "));
    w_.line("{} r = {};", p_.index32 ? "unsigned" : idx_t_, linear);
    for (std::size_t k = 0; k + 1 < order.size(); ++k) {
      emit_digit(order[k], true);
      w_.line("r = {};", p_.index32 ? fmt::format("rq{}", order[k])
                                    : fmt::format("r / ({}){}", idx_t_, arg(fmt::format("n{}", order[k]))));
    }
    w_.line("const {} o{} = r;", idx_t_, order.back());
    std::string lin = "o0";
    for (int d = 1; d < dims; ++d) lin = fmt::format("({}) * ({}){} + o{}", lin, idx_t_, arg(fmt::format("n{}", d)), d);
    w_.line("const {} orow = {};", idx_t_, lin);
  }

  const KernelPlan& p_;
  mutable KernelArgs args_;  // asked for every field the source reads
  int nd_ = 0;
  std::string idx_t_;
  SourceWriter w_;
};

}  // namespace

std::string expression_text(const KernelPlan& p, int output) {
  std::string out;
  // Iterative rendering would be tidier; plans are small (bounded by max_kernel_ops).
  std::function<void(int, int)> render = [&](int i, int depth) {
    if (out.size() > 240) return;
    const KValue& v = p.values[static_cast<std::size_t>(i)];
    if (v.leaf >= 0) {
      out += leaf_label(p, v.leaf);
      return;
    }
    if (depth > 24) {
      out += "...";
      return;
    }
    out += v.op == Op::Cast ? fmt::format("astype<{}>", name(v.dtype))
           : v.op == Op::User ? v.user->name
                              : std::string(detail::op_name(v.op));
    out += "(";
    for (int k = 0; k < 3 && v.in[static_cast<std::size_t>(k)] >= 0; ++k) {
      if (k) out += ", ";
      render(v.in[static_cast<std::size_t>(k)], depth + 1);
    }
    out += ")";
  };
  render(p.outputs[static_cast<std::size_t>(output)], 0);
  if (out.size() > 240) out = out.substr(0, 240) + "...";
  return out;
}

std::string kernel_name(const KernelPlan& p) {
  std::vector<std::string> ops;
  if (p.reduce) {
    for (const ReduceSpec& r : p.reduce->reductions) {
      const std::string n = detail::reduce_name(r.kind);
      if (std::find(ops.begin(), ops.end(), n) == ops.end()) ops.push_back(n);
    }
  }
  for (const KValue& v : p.values) {
    if (v.leaf >= 0 || v.op == Op::Cast || v.op == Op::Reduce) continue;
    std::string n = v.op == Op::User ? v.user->name : detail::op_name(v.op);
    if (n == "multiply") n = "mul";
    if (n == "subtract") n = "sub";
    if (n == "true_divide") n = "div";
    if (n == "absolute") n = "abs";
    if (n == "negative") n = "neg";
    if (std::find(ops.begin(), ops.end(), n) == ops.end()) ops.push_back(n);
  }
  if (ops.empty()) {
    for (const Leaf& l : p.leaves) {
      const char* n = l.kind == LeafKind::Buffer ? "copy" : l.kind == LeafKind::Scalar ? "fill"
                      : l.kind == LeafKind::Arange ? "arange" : l.kind == LeafKind::Linspace ? "linspace" : "eye";
      if (std::find(ops.begin(), ops.end(), n) == ops.end()) ops.push_back(n);
    }
  }
  if (ops.size() > 4) {
    ops.resize(4);
    ops.push_back("etc");
  }
  const DType t = p.values[static_cast<std::size_t>(p.outputs.front())].dtype;
  return fmt::format("loom_{}_{}_{}_{:08x}", p.reduce ? "red" : "ew", fmt::join(ops, "_"), short_name(t),
                     static_cast<std::uint32_t>(key_digest(p.key) >> 32));
}

KernelSource emit_elementwise(const KernelPlan& plan) {
  return Emitter(plan).run();
}

KernelSource emit_kernel(const KernelPlan& plan) {
  return plan.reduce ? emit_reduce(plan) : emit_elementwise(plan);
}

}  // namespace loom::codegen
