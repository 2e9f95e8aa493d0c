// loom::matmul: NumPy's gufunc (n?,k),(k,m?)->(n?,m?) as one cuBLAS strided-batched GEMM call
// (a barrier, graph/call.hpp), or as a fused multiply-and-sum for integers and bool.
//
// loom arrays are row-major and cuBLAS is column-major, so the call computes C^T = B^T A^T: a
// row-major operand is, to cuBLAS, already transposed (op N), and a transposed view of a
// contiguous matrix is the matrix itself (op T, or C when it is also conjugated). Operands are
// passed as they lie in memory; only a layout cuBLAS cannot read (no unit stride, or batch dims
// no single stride describes) is copied first, by ctx.contiguous().

#include <loom/blas.hpp>

#include <atomic>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

#include "api/builders.hpp"
#include "calls/blas.hpp"
#include "calls/blas_gemm.hpp"
#include "codegen/ctypes.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"
#include "runtime/env.hpp"
#include "runtime/libs/cublas.hpp"

namespace loom {

namespace {
std::atomic<int> g_tf32{-1};  // -1: not read from LOOM_TF32 yet
}  // namespace

void set_tf32(bool enabled) { g_tf32.store(enabled ? 1 : 0, std::memory_order_relaxed); }

bool tf32_enabled() {
  int v = g_tf32.load(std::memory_order_relaxed);
  if (v < 0) {
    v = rt::env().tf32 ? 1 : 0;
    g_tf32.store(v, std::memory_order_relaxed);
  }
  return v == 1;
}

}  // namespace loom

namespace loom::detail {

namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

// A GEMM operand: the call's input node, and how the matrix operand is read from it.
struct Operand {
  NodeRef node;
  bool swap = false;  // the operand is node with its last two axes swapped
  bool conj = false;  // ... and conjugated
};

// A view that only swaps the last two axes (x.T() of a matrix, swapaxes(-1, -2) of a batch).
bool is_pure_swap(const Node& n) {
  if (n.op != Op::View) return false;
  const IndexMap& m = n.map();
  const int nd = n.shape.size();
  if (nd < 2 || m.in_ndim != nd || m.out_ndim != nd) return false;
  for (int i = 0; i < nd; ++i) {
    const int want = i == nd - 2 ? nd - 1 : (i == nd - 1 ? nd - 2 : i);
    if (m.dim[i] != want || m.coef[i] != 1 || m.offset[i] != 0) return false;
  }
  return true;
}

// The strides the call will see for n: a buffer's own; a computed array's are C-contiguous
// (kernel outputs are); a lazy view's are not known in advance (a view of a buffer, or a copy).
std::optional<Shape> known_strides(const Node& n) {
  if (n.op == Op::Buffer) return n.strides();
  if (n.op == Op::View || n.op == Op::Reshape) return std::nullopt;
  return contiguous_strides(n.shape);
}

MatrixView view_of(const Operand& o, const Shape& strides) {
  MatrixView v{o.node->shape, strides};
  return o.swap ? v.swapped() : v;
}

Shape batch_of(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

// The broadcast batch shape, or ShapeError with NumPy's gufunc wording.
Shape broadcast_batch(const Shape& a, const Shape& b, const Shape& a_orig, const Shape& b_orig) {
  const Shape ba = batch_of(a), bb = batch_of(b);
  const int nd = std::max(ba.size(), bb.size());
  Shape out = Shape::filled(nd, 1);
  for (int i = 0; i < nd; ++i) {
    const int ia = i - (nd - ba.size()), ib = i - (nd - bb.size());
    const std::int64_t ea = ia >= 0 ? ba[ia] : 1, eb = ib >= 0 ? bb[ib] : 1;
    if (ea != eb && ea != 1 && eb != 1) {
      const auto remapped = [](const Shape& orig) {
        std::string s = "(";
        for (int d = 0; d + 2 < orig.size(); ++d) s += fmt::format("{},", orig[d]);
        return s + "newaxis,newaxis)";
      };
      throw ShapeError(fmt::format(
          "operands could not be broadcast together with remapped shapes [original->remapped]: {}->{} {}->{}  "
          "and requested shape ({},{})",
          compact(a_orig), remapped(a_orig), compact(b_orig), remapped(b_orig), a[a.size() - 2], b.back()));
    }
    out[i] = ea == 1 ? eb : ea;
  }
  return out;
}

// Whether an operand's batch dims need materializing to out_batch: neither one matrix for all
// (a stride of 0) nor the full batch (one stride) describes them.
bool needs_broadcast(const Shape& logical, const Shape& out_batch) {
  const Shape b = batch_of(logical);
  if (b.numel() == 1 && out_batch.numel() != 0) return false;
  Shape padded = Shape::filled(out_batch.size() - b.size(), 1);
  for (std::int64_t e : b) padded.push_back(e);
  return !(padded == out_batch);
}

// One operand of the GEMM: a transposed or conjugated view is read by cuBLAS's op flags rather
// than copied; a cast to the common dtype is a kernel feeding the call.
Operand make_operand(const Array& x, int which, DType t, bool conj_wanted, const Shape& logical,
                     const Shape& out_batch) {
  Operand o;
  NodeRef n = leaf_of(x, "matmul");
  const bool matrix = n->shape.size() >= 2;
  if (matrix && is_pure_swap(*n)) {
    n = n->inputs[0];
    o.swap = true;
  }
  if (is_complex(n->dtype) && n->op == Op::Conj) {
    n = n->inputs[0];
    o.conj = true;
    if (matrix && is_pure_swap(*n)) {
      n = n->inputs[0];
      o.swap = !o.swap;
    }
  }
  o.conj ^= conj_wanted && is_complex(n->dtype);
  n = cast_to(n, t);
  if (!matrix) n = Array(n).expand_dims(which == 0 ? 0 : 1).node();
  if (needs_broadcast(logical, out_batch)) {
    Array v(n);
    if (o.swap) v = v.swapaxes(-1, -2);
    if (o.conj) v = loom::conj(v);
    o.swap = o.conj = false;
    Shape to = out_batch;
    to.push_back(logical[logical.size() - 2]);
    to.push_back(logical.back());
    n = v.broadcast_to(to).node();
  }
  o.node = n;
  if (o.conj) {
    // cuBLAS conjugates only with a transpose (op C): a row-major operand is conjugated by a
    // kernel instead.
    const std::optional<Shape> st = known_strides(*n);
    const auto l = st ? matrix_layout(view_of(o, *st), out_batch, true) : std::nullopt;
    if (!l || !l->col_major) {
      o.node = loom::conj(Array(n)).node();
      o.conj = false;
    }
  }
  return o;
}

// "A", "A^T", "A^H" or "copy of A": how cuBLAS will read the operand, for explain().
std::string operand_text(const Operand& o, const char* name, const Shape& out_batch) {
  const Shape st = known_strides(*o.node).value_or(contiguous_strides(o.node->shape));
  const auto l = matrix_layout(view_of(o, st), out_batch, o.conj);
  if (!l) return fmt::format("copy of {}", name);
  return fmt::format("{}{}", name, !l->col_major ? "" : (o.conj ? "^H" : "^T"));
}

// Operand i's layout in the call, copied to C order first when cuBLAS cannot read it.
MatrixLayout layout_in_call(CallContext& ctx, int i, const Operand& o, const Shape& out_batch) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const CallArg& arg = attempt == 0 ? ctx.in[static_cast<std::size_t>(i)] : ctx.contiguous(i);
    MatrixView v{arg.shape, arg.strides};
    if (o.swap) v = v.swapped();
    const auto l = matrix_layout(v, out_batch, o.conj);
    if (l && (!o.conj || l->col_major)) return *l;
  }
  throw InternalError(fmt::format("internal: matmul operand {} has no layout cuBLAS can read", i));
}

rt::GemmOp op_of(const MatrixLayout& l, bool conj) {
  if (!l.col_major) return rt::GemmOp::N;
  return conj ? rt::GemmOp::C : rt::GemmOp::T;
}

Array gemm_call(const Operand& a, const Operand& b, DType t, const Shape& out_batch, std::int64_t m,
                std::int64_t n, std::int64_t k) {
  const bool tf32 = tf32_enabled();
  const std::int64_t batch = out_batch.numel();
  auto spec = std::make_shared<CallSpec>();
  spec->name = "matmul";
  std::string batch_text = fmt::format("{} batch{}", batch, batch == 1 ? "" : "es");
  for (const auto& [o, name] : {std::pair{&a, "A"}, std::pair{&b, "B"}}) {
    const Shape st = known_strides(*o->node).value_or(contiguous_strides(o->node->shape));
    const auto l = matrix_layout(view_of(*o, st), out_batch, o->conj);
    if (batch > 1 && l && l->batch_stride == 0) batch_text += fmt::format(", {} broadcast", name);
  }
  spec->text = fmt::format("cublasGemmStridedBatchedEx ({}, {}) {} compute {}, {}", operand_text(b, "B", out_batch),
                           operand_text(a, "A", out_batch), codegen::short_name(t), rt::gemm_compute_name(t, tf32),
                           batch_text);
  spec->inputs = {a.node, b.node};
  spec->layouts = {detail::InputLayout::AsItLies, detail::InputLayout::AsItLies};  // strides as op flags
  Shape out_shape = out_batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  spec->outputs = {{t, out_shape}};
  const bool swap_a = a.swap, conj_a = a.conj, swap_b = b.swap, conj_b = b.conj;
  spec->device = [=, oa = Operand{nullptr, swap_a, conj_a}, ob = Operand{nullptr, swap_b, conj_b}](CallContext& ctx) {
    if (m == 0 || n == 0 || batch == 0) return;
    // An empty sum (k == 0) reads no operand: run_gemm zero-fills C.
    const MatrixLayout la = k > 0 ? layout_in_call(ctx, 0, oa, out_batch) : MatrixLayout{};
    const MatrixLayout lb = k > 0 ? layout_in_call(ctx, 1, ob, out_batch) : MatrixLayout{};
    // Column-major C^T (n x m) = op(B) (n x k) * op(A) (k x m).
    rt::Gemm g;
    g.dtype = t;
    g.tf32 = tf32;
    g.m = n;
    g.n = m;
    g.k = k;
    g.batch = batch;
    g.a = ctx.in[1].data();
    g.op_a = op_of(lb, conj_b);
    g.lda = lb.ld;
    g.stride_a = lb.batch_stride;
    g.b = ctx.in[0].data();
    g.op_b = op_of(la, conj_a);
    g.ldb = la.ld;
    g.stride_b = la.batch_stride;
    g.c = ctx.out[0];
    g.ldc = n;
    g.stride_c = m * n;
    const std::size_t ws_bytes = k > 0 ? rt::gemm_workspace_bytes(ctx.device) : 0;
    rt::run_gemm(ctx.device, ctx.stream, g, k > 0 ? ctx.workspace(ws_bytes) : nullptr, ws_bytes);
  };
  spec->host = [=](std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out) {
    MatrixView va{in[0]->shape, contiguous_strides(in[0]->shape)};
    MatrixView vb{in[1]->shape, contiguous_strides(in[1]->shape)};
    host_gemm(t, in[0]->data.data(), swap_a ? va.swapped() : va, conj_a, in[1]->data.data(),
              swap_b ? vb.swapped() : vb, conj_b, out_batch, out[0].data.data());
  };
  return Array(make_call(std::move(spec))[0]);
}

// Integers and bool: NumPy's result dtype, no cuBLAS; sum(a[..., :, :, newaxis] *
// b[..., newaxis, :, :], axis=-2) (bool: any of and), one fused reduction.
Array integer_matmul(const Array& a, const Array& b, DType t) {
  const Array x = astype(a, t).expand_dims(-1);
  const Array y = astype(b, t).expand_dims(-3);
  if (t == DType::Bool) return any(logical_and(x, y), -2);
  return sum(x * y, -2, false, t);
}

}  // namespace

Array matmul_impl(const Array& a, const Array& b, bool conj_a) {
  const NodeRef na = leaf_of(a, "matmul"), nb = leaf_of(b, "matmul");
  for (int i = 0; i < 2; ++i) {
    const Shape& s = (i == 0 ? na : nb)->shape;
    if (s.empty()) {
      throw ShapeError(fmt::format(
          "matmul: Input operand {} does not have enough dimensions (has 0, gufunc core with signature {} requires 1)",
          i, kSignature));
    }
  }
  const bool a_vec = na->shape.size() == 1, b_vec = nb->shape.size() == 1;
  // The operands as matrices: a 1-D a is a row, a 1-D b a column.
  const Shape la = a_vec ? Shape{1, na->shape[0]} : na->shape;
  const Shape lb = b_vec ? Shape{nb->shape[0], 1} : nb->shape;
  const std::int64_t k = la.back(), kb = lb[lb.size() - 2];
  if (k != kb) {
    throw ShapeError(fmt::format(
        "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {} (size {} is "
        "different from {})",
        kSignature, kb, k));
  }
  const Shape out_batch = broadcast_batch(la, lb, na->shape, nb->shape);
  const DType t = promote_types(na->dtype, nb->dtype);

  Array c;
  if (!is_inexact(t)) {
    c = integer_matmul(a_vec ? Array(na).expand_dims(0) : Array(na), b_vec ? Array(nb).expand_dims(1) : Array(nb), t);
  } else {
    const Operand oa = make_operand(Array(na), 0, t, conj_a, la, out_batch);
    const Operand ob = make_operand(Array(nb), 1, t, false, lb, out_batch);
    c = gemm_call(oa, ob, t, out_batch, la[la.size() - 2], lb.back(), k);
  }
  if (b_vec) c = c.squeeze(c.ndim() - 1);
  if (a_vec) c = c.squeeze(c.ndim() - (b_vec ? 1 : 2));
  return c;
}

}  // namespace loom::detail

namespace loom {

Array matmul(const Array& a, const Array& b) { return detail::matmul_impl(a, b, false); }
Array Array::matmul(const Array& b) const { return loom::matmul(*this, b); }

}  // namespace loom
