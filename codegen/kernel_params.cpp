// The parameter list of a generated kernel, the packing of its values, and its launch shape.
// The emitter declares the fields from kernel_params(); exec packs them with pack_params(): one
// list, so the struct layout on both sides agrees by construction.

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "codegen/ctypes.hpp"
#include "codegen/emit_elementwise.hpp"
#include "codegen/kernel_plan.hpp"

namespace loom::codegen {

using detail::Op;

namespace {

std::string scalar_ctype(DType t) {
  switch (kind(t)) {
    case DKind::Bool:
    case DKind::Signed: return "long long";
    case DKind::Unsigned: return "unsigned long long";
    case DKind::Float:
    case DKind::Complex: return "double";
  }
  return "long long";
}

}  // namespace

namespace {

// The parameters of a plan's leaves, named with `prefix` (section 1, a reduction's prologue:
// "p"). all_strides: every dim's stride is an argument (reduction kernels); otherwise the inner
// dim's only when the key does not fix it (0 or 1).
void leaf_params(std::vector<Param>& ps, const KernelPlan& p, int section, const std::string& pre,
                 bool all_strides) {
  const int nd = p.shape.size();
  const auto add = [&](ParamKind k, int index, int dim, int sub, std::string name, std::string ctype) {
    ps.push_back(Param{k, index, dim, sub, section, std::move(name), std::move(ctype), 1});
  };
  const auto strides = [&](int j, int sub, const Affine& a, const std::string& prefix) {
    for (int d = 0; d < nd; ++d) {
      const bool inner = d == nd - 1;
      if (!all_strides && inner && step_of(a, nd) != Step::Strided) continue;
      add(ParamKind::LeafStride, j, d, sub, fmt::format("{}_st{}", prefix, d), "long long");
    }
  };
  for (std::size_t jj = 0; jj < p.leaves.size(); ++jj) {
    const Leaf& l = p.leaves[jj];
    const int j = static_cast<int>(jj);
    switch (l.kind) {
      case LeafKind::Buffer:
        add(ParamKind::InPtr, j, 0, 0, fmt::format("{}in{}", pre, j),
            fmt::format("const {}*", storage_ctype(l.dtype)));
        if (!l.unravel) strides(j, 0, l.idx[0], fmt::format("{}in{}", pre, j));
        break;
      case LeafKind::Scalar:
        if (is_complex(l.dtype)) {
          add(ParamKind::ScalarValue, j, 0, 0, fmt::format("{}s{}_re", pre, j), "double");
          add(ParamKind::ScalarValue, j, 0, 1, fmt::format("{}s{}_im", pre, j), "double");
        } else {
          add(ParamKind::ScalarValue, j, 0, 0, fmt::format("{}s{}", pre, j), scalar_ctype(l.dtype));
        }
        break;
      case LeafKind::Arange:
      case LeafKind::Linspace: {
        const std::string g = fmt::format("{}g{}", pre, j);
        const std::string vt = l.kind == LeafKind::Linspace ? "double" : scalar_ctype(l.dtype);
        add(ParamKind::GenStart, j, 0, 0, g + "_start", vt);
        add(ParamKind::GenStep, j, 0, 0, g + "_step", vt);
        if (l.kind == LeafKind::Linspace) {
          add(ParamKind::GenStop, j, 0, 0, g + "_stop", "double");
          add(ParamKind::GenLast, j, 0, 0, g + "_last", "long long");
        } else if (is_inexact(l.dtype)) {
          add(ParamKind::GenStop, j, 0, 0, g + "_second", "double");  // NumPy's second value
        }
        add(ParamKind::LeafOffset, j, 0, 0, g + "_off", "long long");
        strides(j, 0, l.idx[0], g);
        break;
      }
      case LeafKind::Eye: {
        const std::string g = fmt::format("{}g{}", pre, j);
        add(ParamKind::EyeK, j, 0, 0, g + "_k", "long long");
        if (!l.unravel) {
          add(ParamKind::LeafOffset, j, 0, 0, g + "_row_off", "long long");
          strides(j, 0, l.idx[0], g + "_row");
          add(ParamKind::LeafOffset, j, 0, 1, g + "_col_off", "long long");
          strides(j, 1, l.idx[1], g + "_col");
        }
        break;
      }
      case LeafKind::Reduced: break;  // a value the kernel computes: no argument
      case LeafKind::Gathered:
        add(ParamKind::InPtr, j, 0, 0, fmt::format("{}in{}", pre, j), fmt::format("const {}*", storage_ctype(l.dtype)));
        break;
    }
    if (l.unravel) {
      const std::string u = fmt::format("{}u{}", pre, j);
      add(ParamKind::UnravelLinC0, j, 0, 0, u + "_lin", "long long");
      for (int d = 0; d < nd; ++d) add(ParamKind::UnravelLinStride, j, d, 0, fmt::format("{}_lin_st{}", u, d), "long long");
      for (int k = 0; k < l.unr->shape.size(); ++k) {
        add(ParamKind::UnravelExtent, j, k, 0, fmt::format("{}_n{}", u, k), "long long");
        if (l.kind == LeafKind::Buffer || l.kind == LeafKind::Gathered) add(ParamKind::UnravelStride, j, k, 0, fmt::format("{}_st{}", u, k), "long long");
      }
    }
  }
}

void output_params(std::vector<Param>& ps, const KernelPlan& p) {
  for (std::size_t o = 0; o < p.outputs.size(); ++o) {
    const DType t = p.values[static_cast<std::size_t>(p.outputs[o])].dtype;
    ps.push_back(Param{ParamKind::OutPtr, static_cast<int>(o), 0, 0, 0, fmt::format("out{}", o),
                       fmt::format("{}*", storage_ctype(t)), 1});
  }
}

// A reduction kernel: outputs, epilogue leaves, prologue leaves, sizes, workspace.
std::vector<Param> reduce_params(const KernelPlan& p) {
  std::vector<Param> ps;
  const ReducePart& r = *p.reduce;
  const auto add = [&](ParamKind k, int index, int dim, std::string name, std::string ctype) {
    ps.push_back(Param{k, index, dim, 0, 0, std::move(name), std::move(ctype), 1});
  };
  output_params(ps, p);
  leaf_params(ps, p, 0, "", true);
  leaf_params(ps, *r.prologue, 1, "p", true);
  add(ParamKind::NumKept, 0, 0, "nk", "long long");
  add(ParamKind::NumReduced, 0, 0, "nr", "long long");
  for (int d = 0; d < r.prologue->shape.size(); ++d) {
    add(ParamKind::PrologueExtent, 0, d, fmt::format("pn{}", d), "long long");
  }
  for (int d = r.strategy == ReduceStrategy::Rows ? 0 : 1; d < p.shape.size(); ++d) {
    add(ParamKind::Extent, 0, d, fmt::format("n{}", d), "long long");
  }
  for (std::size_t i = 0; i < r.reductions.size(); ++i) {
    if (r.reductions[i].kind == detail::ReduceKind::Variance) {
      add(ParamKind::Ddof, static_cast<int>(i), 0, fmt::format("ddof{}", i), "long long");
    }
    add(ParamKind::Partials, static_cast<int>(i), 0, fmt::format("partials{}", i), "void*");
  }
  add(ParamKind::Tickets, 0, 0, "tickets", "unsigned int*");
  add(ParamKind::ErrorRecord, 0, 0, "err", "unsigned long long*");
  add(ParamKind::Chunk, 0, 0, "chunk", "long long");
  if (r.strategy == ReduceStrategy::WarpRows || r.strategy == ReduceStrategy::ColumnTiles) {
    add(ParamKind::Lanes, 0, 0, "lanes", "long long");
  }
  return ps;
}

}  // namespace

std::vector<Param> candidate_params(const KernelPlan& p) {
  if (p.reduce) return reduce_params(p);
  std::vector<Param> ps;
  const int nd = p.shape.size();
  const auto add = [&](ParamKind k, int index, int dim, int sub, std::string name, std::string ctype) {
    ps.push_back(Param{k, index, dim, sub, 0, std::move(name), std::move(ctype), 1});
  };
  output_params(ps, p);
  leaf_params(ps, p, 0, "", false);
  switch (p.path) {
    case Path::Flat: add(ParamKind::Numel, 0, 0, 0, "n", "long long"); break;
    case Path::Rows:
    case Path::Tiled:
      add(ParamKind::Rows, 0, 0, 0, "rows", "long long");
      add(ParamKind::Inner, 0, 0, 0, "inner", "long long");
      // (n0 only where a reordered row loop reads it: fields the source does not read are dropped)
      for (int d = 0; d + 1 < nd; ++d) {
        add(ParamKind::Extent, 0, d, 0, fmt::format("n{}", d), "long long");
        add(ParamKind::ExtentDivisor, 0, d, 0, fmt::format("n{}_dm", d), "long long");
      }
      break;
    case Path::Unravel:
      add(ParamKind::Numel, 0, 0, 0, "n", "long long");
      for (int d = 1; d < nd; ++d) {
        add(ParamKind::Extent, 0, d, 0, fmt::format("n{}", d), "long long");
        add(ParamKind::ExtentDivisor, 0, d, 0, fmt::format("n{}_dm", d), "long long");
      }
      break;
  }
  add(ParamKind::ErrorRecord, 0, 0, 0, "err", "unsigned long long*");
  return ps;
}

// A kernel carries only the arguments its source reads (the row-resident softmax kernel reads 5
// of 16 candidates). The source depends on the plan's key alone, so the list does too.
std::vector<Param> kernel_params(const KernelPlan& p) { return emit_kernel(p).params; }

StaticArgs pack_static(const KernelPlan& p, std::span<const Param> params, int splits, const SlotOf& slot_of) {
  StaticArgs a;
  a.words.reserve(params.size());
  const auto i64 = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  const int nd = p.shape.size();
  for (const Param& q : params) {
    const KernelPlan& lp = q.section == 1 ? *p.reduce->prologue : p;
    const auto leaf = [&]() -> const Leaf& { return lp.leaves[static_cast<std::size_t>(q.index)]; };
    const auto node = [&](int slot) { return lp.nodes[static_cast<std::size_t>(slot)]; };
    // A word filled in on every call: a pointer, or a value the fingerprint does not fix.
    const auto patch = [&](const Node* node, std::int64_t byte_offset = 0) {
      a.patches.push_back(ArgPatch{q.kind, static_cast<int>(a.words.size()), q.index, q.sub,
                                   node ? slot_of(node) : -1, byte_offset});
      a.words.push_back(0);
    };
    switch (q.kind) {
      case ParamKind::OutPtr:
      case ParamKind::Partials:
      case ParamKind::Tickets:
      case ParamKind::ErrorRecord: patch(nullptr); break;
      case ParamKind::InPtr:
        patch(node(leaf().slot), leaf().idx[0].c0 * static_cast<std::int64_t>(itemsize(leaf().dtype)));
        break;
      case ParamKind::ScalarValue:
      case ParamKind::GenStart:
      case ParamKind::GenStep:
      case ParamKind::GenStop:
      case ParamKind::GenLast:
      case ParamKind::EyeK: patch(node(leaf().slot)); break;
      case ParamKind::Ddof: patch(p.nodes[static_cast<std::size_t>(p.reduce->reductions[static_cast<std::size_t>(q.index)].slot)]); break;
      case ParamKind::LeafStride:
        a.words.push_back(i64(leaf().idx[static_cast<std::size_t>(q.sub)].c[static_cast<std::size_t>(q.dim)]));
        break;
      case ParamKind::LeafOffset: a.words.push_back(i64(leaf().idx[static_cast<std::size_t>(q.sub)].c0)); break;
      case ParamKind::UnravelLinC0: a.words.push_back(i64(leaf().unr->lin.c0)); break;
      case ParamKind::UnravelLinStride: a.words.push_back(i64(leaf().unr->lin.c[static_cast<std::size_t>(q.dim)])); break;
      case ParamKind::UnravelExtent: a.words.push_back(i64(leaf().unr->shape[q.dim])); break;
      case ParamKind::UnravelStride: a.words.push_back(i64(leaf().unr->strides[q.dim])); break;
      case ParamKind::Numel: a.words.push_back(i64(p.numel)); break;
      case ParamKind::Rows: a.words.push_back(i64(p.numel / p.shape[nd - 1])); break;
      case ParamKind::Inner: a.words.push_back(i64(p.shape[nd - 1])); break;
      case ParamKind::Extent: a.words.push_back(i64(p.shape[q.dim])); break;
      case ParamKind::ExtentDivisor: a.words.push_back(divisor_word(p.shape[q.dim])); break;
      case ParamKind::NumKept: a.words.push_back(i64(p.reduce->nk)); break;
      case ParamKind::NumReduced: a.words.push_back(i64(p.reduce->nr)); break;
      case ParamKind::PrologueExtent: a.words.push_back(i64(p.reduce->prologue->shape[q.dim])); break;
      case ParamKind::Chunk: {
        const std::int64_t n = std::max(splits, 1);
        const std::int64_t v = p.reduce->vec;  // a block's range starts on a vector
        a.words.push_back(i64((p.reduce->nr + n * v - 1) / (n * v) * v));
        break;
      }
      case ParamKind::Lanes: a.words.push_back(i64(reduce_lanes(*p.reduce))); break;
    }
  }
  return a;
}

void apply_patches(std::span<std::uint64_t> words, std::span<const ArgPatch> patches,
                   std::span<const Node* const> slots, const DataOf& data_of,
                   std::span<void* const> outputs, const Workspace& ws) {
  const auto i64 = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  const auto f64 = [](double v) { return std::bit_cast<std::uint64_t>(v); };
  // A Scalar as the kernel reads it: an integer word, or a double.
  const auto scalar_word = [&](const Scalar& s, int sub) -> std::uint64_t {
    switch (kind(s.dtype)) {
      case DKind::Bool:
      case DKind::Signed: return i64(s.i);
      case DKind::Unsigned: return s.u;
      case DKind::Float: return f64(s.f);
      case DKind::Complex: return f64(sub == 0 ? s.c.real() : s.c.imag());
    }
    return 0;
  };
  for (const ArgPatch& a : patches) {
    const Node* n = a.slot >= 0 ? slots[static_cast<std::size_t>(a.slot)] : nullptr;
    std::uint64_t& w = words[static_cast<std::size_t>(a.word)];
    switch (a.kind) {
      case ParamKind::OutPtr: w = reinterpret_cast<std::uintptr_t>(outputs[static_cast<std::size_t>(a.index)]); break;
      case ParamKind::Partials:
        w = ws.partials ? reinterpret_cast<std::uintptr_t>(ws.partials) + static_cast<std::uintptr_t>(a.index) * ws.partial_stride : 0;
        break;
      case ParamKind::Tickets: w = reinterpret_cast<std::uintptr_t>(ws.tickets); break;
      case ParamKind::ErrorRecord: w = reinterpret_cast<std::uintptr_t>(ws.error_record); break;
      case ParamKind::InPtr:
        w = reinterpret_cast<std::uintptr_t>(static_cast<const char*>(data_of(n)) + a.byte_offset);
        break;
      case ParamKind::ScalarValue: w = scalar_word(n->value, a.sub); break;
      case ParamKind::GenStart: w = scalar_word(n->value, 0); break;
      case ParamKind::GenStep: w = scalar_word(n->value2(), 0); break;
      case ParamKind::GenStop: w = f64(n->value3().f); break;
      case ParamKind::GenLast: w = i64(n->k() ? n->shape[0] - 1 : -1); break;
      case ParamKind::EyeK:
      case ParamKind::Ddof: w = i64(n->k()); break;
      case ParamKind::LeafStride:
      case ParamKind::LeafOffset:
      case ParamKind::UnravelLinC0:
      case ParamKind::UnravelLinStride:
      case ParamKind::UnravelExtent:
      case ParamKind::UnravelStride:
      case ParamKind::Numel:
      case ParamKind::Rows:
      case ParamKind::Inner:
      case ParamKind::Extent:
      case ParamKind::ExtentDivisor:
      case ParamKind::NumKept:
      case ParamKind::NumReduced:
      case ParamKind::PrologueExtent:
      case ParamKind::Chunk:
      case ParamKind::Lanes: throw InternalError("internal: a fixed kernel argument was listed as a patch");
    }
  }
}

std::vector<std::uint64_t> pack_params(const KernelPlan& p, std::span<const Param> params,
                                       const DataOf& data_of, std::span<void* const> outputs,
                                       const Workspace& ws) {
  std::vector<const Node*> slots;
  StaticArgs a = pack_static(p, params, ws.splits, [&](const Node* n) {
    slots.push_back(n);
    return static_cast<int>(slots.size()) - 1;
  });
  apply_patches(a.words, a.patches, slots, data_of, outputs, ws);
  return std::move(a.words);
}

LaunchDims reduce_launch_dims(const KernelPlan& p, int sm_count, int blocks_per_sm);  // reduce_plan.cpp

std::uint64_t divisor_word(std::int64_t d) {
  if (d <= 1) return 0;
  if (d >= (std::int64_t{1} << 31)) throw InternalError("internal: a 32-bit plan's extent past 2^31");
  // Granlund and Montgomery: with l = ceil(log2 d) and p = 31 + l, m = ceil(2^p / d) < 2^32 and
  // x / d = (x * m) >> p for every x < 2^31.
  int l = 0;
  while ((std::int64_t{1} << l) < d) ++l;
  const int p = 31 + l;
  const std::uint64_t m = ((std::uint64_t{1} << p) + static_cast<std::uint64_t>(d) - 1) / static_cast<std::uint64_t>(d);
  return m | (static_cast<std::uint64_t>(p - 32) << 32);
}

std::uint32_t divide_by_word(std::uint32_t x, std::uint64_t word) {
  if (word == 0) return x;
  const auto hi = static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) * static_cast<std::uint32_t>(word)) >> 32);
  return hi >> static_cast<std::uint32_t>(word >> 32);
}

LaunchDims launch_dims(const KernelPlan& p, int sm_count, int blocks_per_sm) {
  if (p.reduce) return reduce_launch_dims(p, sm_count, blocks_per_sm);
  LaunchDims d;
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const std::int64_t max_grid = (std::int64_t{1} << 31) - 1;
  const int nd = p.shape.size();
  if (p.path == Path::Tiled) {  // 32x32 tiles, 32 x 8 threads: each thread 4 rows of a tile
    d.block_x = 32;
    d.block_y = 8;
    d.grid_x = static_cast<unsigned>(ceil_div(p.shape[1], 32));
    d.grid_y = static_cast<unsigned>(ceil_div(p.shape[0], 32));
    return d;
  }
  if (p.path == Path::Rows) {
    const std::int64_t inner = p.shape[nd - 1];
    const std::int64_t chunks = ceil_div(inner, std::int64_t{p.vec} * p.unroll);
    // An operand read across rows (a transposed one) wants neighbouring rows in one block:
    // 32 x 8 threads share its sectors in L1 (bench/NOTES.md: 74% of copy vs 45% at 256 x 1).
    bool across = false;
    for (const Leaf& l : p.leaves) {
      across = across || (l.kind == LeafKind::Buffer && !l.unravel && step_of(l.idx[0], nd) == Step::Strided);
    }
    // Short rows (a vector or a few): a warp spans several rows, each thread its own.
    std::int64_t bx = across ? 32 : 1;
    while (!across && bx < 256 && bx < chunks) bx *= 2;
    d.block_x = static_cast<unsigned>(bx);
    d.block_y = static_cast<unsigned>(256 / bx);
    d.grid_x = static_cast<unsigned>(std::min(ceil_div(chunks, bx), max_grid));
    const std::int64_t rows = p.numel / inner;
    d.grid_y = static_cast<unsigned>(std::min<std::int64_t>(ceil_div(rows, d.block_y), 65535));
    return d;
  }
  const std::int64_t chunks = ceil_div(std::max<std::int64_t>(p.numel, 1), std::int64_t{p.vec} * p.unroll);
  d.block_x = 256;
  const std::int64_t grid = ceil_div(chunks, 256);
  if (grid > max_grid) {
    throw ValueError(fmt::format("array of {} elements is too large for one launch", p.numel));
  }
  d.grid_x = static_cast<unsigned>(grid);
  return d;
}

}  // namespace loom::codegen
