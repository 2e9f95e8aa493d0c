// The parameter list of a generated kernel, the packing of its values, and its launch shape.
// The emitter declares the fields from kernel_params(); exec packs them with pack_params(): one
// list, so the struct layout on both sides agrees by construction.

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "codegen/ctypes.hpp"
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

std::vector<Param> kernel_params(const KernelPlan& p) {
  std::vector<Param> ps;
  const int nd = p.shape.size();
  const auto add = [&](ParamKind k, int index, int dim, int sub, std::string name, std::string ctype) {
    ps.push_back(Param{k, index, dim, sub, std::move(name), std::move(ctype), 1});
  };
  for (std::size_t o = 0; o < p.outputs.size(); ++o) {
    const DType t = p.values[static_cast<std::size_t>(p.outputs[o])].dtype;
    add(ParamKind::OutPtr, static_cast<int>(o), 0, 0, fmt::format("out{}", o),
        fmt::format("{}*", storage_ctype(t)));
  }
  // Strides of one affine index: all outer dims, and the inner one unless the key fixes it.
  const auto strides = [&](int j, int sub, const Affine& a, const std::string& prefix) {
    for (int d = 0; d < nd; ++d) {
      const bool inner = d == nd - 1;
      if (inner && step_of(a, nd) != Step::Strided) continue;
      add(ParamKind::LeafStride, j, d, sub, fmt::format("{}_st{}", prefix, d), "long long");
    }
  };
  for (std::size_t jj = 0; jj < p.leaves.size(); ++jj) {
    const Leaf& l = p.leaves[jj];
    const int j = static_cast<int>(jj);
    switch (l.kind) {
      case LeafKind::Buffer:
        add(ParamKind::InPtr, j, 0, 0, fmt::format("in{}", j),
            fmt::format("const {}*", storage_ctype(l.dtype)));
        if (!l.unravel) strides(j, 0, l.idx[0], fmt::format("in{}", j));
        break;
      case LeafKind::Scalar:
        if (is_complex(l.dtype)) {
          add(ParamKind::ScalarValue, j, 0, 0, fmt::format("s{}_re", j), "double");
          add(ParamKind::ScalarValue, j, 0, 1, fmt::format("s{}_im", j), "double");
        } else {
          add(ParamKind::ScalarValue, j, 0, 0, fmt::format("s{}", j), scalar_ctype(l.dtype));
        }
        break;
      case LeafKind::Arange:
      case LeafKind::Linspace: {
        const std::string g = fmt::format("g{}", j);
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
        const std::string g = fmt::format("g{}", j);
        add(ParamKind::EyeK, j, 0, 0, g + "_k", "long long");
        if (!l.unravel) {
          add(ParamKind::LeafOffset, j, 0, 0, g + "_row_off", "long long");
          strides(j, 0, l.idx[0], g + "_row");
          add(ParamKind::LeafOffset, j, 0, 1, g + "_col_off", "long long");
          strides(j, 1, l.idx[1], g + "_col");
        }
        break;
      }
    }
    if (l.unravel) {
      const std::string u = fmt::format("u{}", j);
      add(ParamKind::UnravelLinC0, j, 0, 0, u + "_lin", "long long");
      for (int d = 0; d < nd; ++d) add(ParamKind::UnravelLinStride, j, d, 0, fmt::format("{}_lin_st{}", u, d), "long long");
      for (int k = 0; k < l.unr->shape.size(); ++k) {
        add(ParamKind::UnravelExtent, j, k, 0, fmt::format("{}_n{}", u, k), "long long");
        if (l.kind == LeafKind::Buffer) add(ParamKind::UnravelStride, j, k, 0, fmt::format("{}_st{}", u, k), "long long");
      }
    }
  }
  switch (p.path) {
    case Path::Flat: add(ParamKind::Numel, 0, 0, 0, "n", "long long"); break;
    case Path::Rows:
    case Path::Tiled:
      add(ParamKind::Rows, 0, 0, 0, "rows", "long long");
      add(ParamKind::Inner, 0, 0, 0, "inner", "long long");
      for (int d = 1; d + 1 < nd; ++d) add(ParamKind::Extent, 0, d, 0, fmt::format("n{}", d), "long long");
      break;
    case Path::Unravel:
      add(ParamKind::Numel, 0, 0, 0, "n", "long long");
      for (int d = 1; d < nd; ++d) add(ParamKind::Extent, 0, d, 0, fmt::format("n{}", d), "long long");
      break;
  }
  return ps;
}

std::vector<std::uint64_t> pack_params(const KernelPlan& p, std::span<const Param> params,
                                       const DataOf& data_of, std::span<void* const> outputs) {
  std::vector<std::uint64_t> words;
  words.reserve(params.size());
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
  const int nd = p.shape.size();
  for (const Param& q : params) {
    const Leaf* l = q.kind == ParamKind::OutPtr || q.kind == ParamKind::Numel ||
                            q.kind == ParamKind::Rows || q.kind == ParamKind::Inner ||
                            q.kind == ParamKind::Extent
                        ? nullptr
                        : &p.leaves[static_cast<std::size_t>(q.index)];
    switch (q.kind) {
      case ParamKind::OutPtr:
        words.push_back(reinterpret_cast<std::uintptr_t>(outputs[static_cast<std::size_t>(q.index)]));
        break;
      case ParamKind::InPtr: {
        const auto* base = static_cast<const char*>(data_of(l->node));
        words.push_back(reinterpret_cast<std::uintptr_t>(
            base + l->idx[0].c0 * static_cast<std::int64_t>(itemsize(l->dtype))));
        break;
      }
      case ParamKind::LeafStride:
        words.push_back(i64(l->idx[static_cast<std::size_t>(q.sub)].c[static_cast<std::size_t>(q.dim)]));
        break;
      case ParamKind::LeafOffset: words.push_back(i64(l->idx[static_cast<std::size_t>(q.sub)].c0)); break;
      case ParamKind::ScalarValue: words.push_back(scalar_word(l->node->value, q.sub)); break;
      case ParamKind::GenStart: words.push_back(scalar_word(l->node->value, 0)); break;
      case ParamKind::GenStep: words.push_back(scalar_word(l->node->value2(), 0)); break;
      case ParamKind::GenStop: words.push_back(f64(l->node->value3().f)); break;
      case ParamKind::GenLast:
        words.push_back(i64(l->node->k() ? l->node->shape[0] - 1 : -1));
        break;
      case ParamKind::EyeK: words.push_back(i64(l->node->k())); break;
      case ParamKind::UnravelLinC0: words.push_back(i64(l->unr->lin.c0)); break;
      case ParamKind::UnravelLinStride: words.push_back(i64(l->unr->lin.c[static_cast<std::size_t>(q.dim)])); break;
      case ParamKind::UnravelExtent: words.push_back(i64(l->unr->shape[q.dim])); break;
      case ParamKind::UnravelStride: words.push_back(i64(l->unr->strides[q.dim])); break;
      case ParamKind::Numel: words.push_back(i64(p.numel)); break;
      case ParamKind::Rows: words.push_back(i64(p.numel / p.shape[nd - 1])); break;
      case ParamKind::Inner: words.push_back(i64(p.shape[nd - 1])); break;
      case ParamKind::Extent: words.push_back(i64(p.shape[q.dim])); break;
    }
  }
  return words;
}

LaunchDims launch_dims(const KernelPlan& p, int sm_count) {
  (void)sm_count;
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
    const std::int64_t chunks = ceil_div(inner, p.vec);
    // An operand read across rows (a transposed one) wants neighbouring rows in one block:
    // 32 x 8 threads share its sectors in L1 (bench/NOTES.md: 74% of copy vs 45% at 256 x 1).
    bool across = false;
    for (const Leaf& l : p.leaves) {
      across = across || (l.kind == LeafKind::Buffer && !l.unravel && step_of(l.idx[0], nd) == Step::Strided);
    }
    std::int64_t bx = 32;
    while (!across && bx < 256 && bx < chunks) bx *= 2;
    d.block_x = static_cast<unsigned>(bx);
    d.block_y = static_cast<unsigned>(256 / bx);
    d.grid_x = static_cast<unsigned>(std::min(ceil_div(chunks, bx), max_grid));
    const std::int64_t rows = p.numel / inner;
    d.grid_y = static_cast<unsigned>(std::min<std::int64_t>(ceil_div(rows, d.block_y), 65535));
    return d;
  }
  const std::int64_t chunks = ceil_div(std::max<std::int64_t>(p.numel, 1), p.vec);
  d.block_x = 256;
  const std::int64_t grid = ceil_div(chunks, 256);
  if (grid > max_grid) {
    throw ValueError(fmt::format("array of {} elements is too large for one launch", p.numel));
  }
  d.grid_x = static_cast<unsigned>(grid);
  return d;
}

}  // namespace loom::codegen
