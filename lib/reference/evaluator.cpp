#include "reference/evaluator.hpp"
#include "graph/check.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "reference/host_ops.hpp"
#include "reference/reduce_ref.hpp"

namespace loom::ref {

using ::loom::detail::Node;
using ::loom::detail::NodeRef;
using ::loom::detail::Op;

namespace {

// The type a dtype is computed in on the host: float for the 16-bit floats.
template <class T> struct Compute { using type = T; };
template <> struct Compute<half> { using type = float; };
template <> struct Compute<bfloat16_t> { using type = float; };
template <class T> using compute_t = typename Compute<T>::type;

template <class T> T* typed(HostArray& a) { return reinterpret_cast<T*>(a.data.data()); }
template <class T> const T* typed(const HostArray& a) { return reinterpret_cast<const T*>(a.data.data()); }

HostArray make(DType dtype, const Shape& shape) {
  HostArray a;
  a.dtype = dtype;
  a.shape = shape;
  a.data.resize(static_cast<std::size_t>(shape.numel()) * itemsize(dtype));
  return a;
}

// Calls f(linear index, multi-index) for every element of `shape` in C order.
template <class F> void for_each_index(const Shape& shape, F&& f) {
  const std::int64_t n = shape.numel();
  std::array<std::int64_t, kMaxDims> idx{};
  for (std::int64_t i = 0; i < n; ++i) {
    f(i, idx.data());
    for (int d = shape.size() - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < shape[d]) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
}

// Converts computed values (type R) into the output dtype.
template <class R> void store_all(const std::vector<R>& vals, HostArray& out) {
  visit_dtype(out.dtype, [&]<class O>() {
    O* dst = typed<O>(out);
    for (std::size_t i = 0; i < vals.size(); ++i) dst[i] = cast_value<O>(vals[i]);
  });
}

template <class F> void apply_unary(const HostArray& a, HostArray& out) {
  visit_dtype(a.dtype, [&]<class T>() {
    using C = compute_t<T>;
    const T* src = typed<T>(a);
    using R = decltype(F{}(C{}));
    std::vector<R> vals(out.numel());
    const std::size_t sa = a.numel() == 1 ? 0 : 1;  // a 0-d constant is read for every element
    for (std::size_t i = 0; i < vals.size(); ++i) vals[i] = F{}(static_cast<C>(src[i * sa]));
    store_all(vals, out);
  });
}

template <class F> void apply_binary(const HostArray& a, const HostArray& b, HostArray& out) {
  visit_dtype(a.dtype, [&]<class T>() {
    using C = compute_t<T>;
    const T* x = typed<T>(a);
    const T* y = typed<T>(b);
    using R = decltype(F{}(C{}, C{}));
    std::vector<R> vals(out.numel());
    const std::size_t sa = a.numel() == 1 ? 0 : 1, sb = b.numel() == 1 ? 0 : 1;
    for (std::size_t i = 0; i < vals.size(); ++i) {
      vals[i] = F{}(static_cast<C>(x[i * sa]), static_cast<C>(y[i * sb]));
    }
    store_all(vals, out);
  });
}

void apply_where(const HostArray& c, const HostArray& a, const HostArray& b, HostArray& out) {
  const std::size_t item = itemsize(out.dtype);
  const bool* cond = typed<bool>(c);
  const auto step = [](const HostArray& h) { return h.numel() == 1 ? std::size_t{0} : std::size_t{1}; };
  for (std::size_t i = 0; i < out.numel(); ++i) {
    const bool pick = cond[i * step(c)];
    const HostArray& src = pick ? a : b;
    std::memcpy(out.data.data() + i * item, src.data.data() + i * step(src) * item, item);
  }
}

void cast_array(const HostArray& a, HostArray& out) {
  visit_dtype(a.dtype, [&]<class From>() {
    const From* src = typed<From>(a);
    const std::size_t sa = a.numel() == 1 ? 0 : 1;
    visit_dtype(out.dtype, [&]<class To>() {
      To* dst = typed<To>(out);
      for (std::size_t i = 0; i < out.numel(); ++i) dst[i] = cast_value<To>(src[i * sa]);
    });
  });
}

void fill_constant(const Scalar& v, HostArray& out) {
  visit_dtype(out.dtype, [&]<class T>() {
    T x{};
    switch (kind(v.dtype)) {
      case DKind::Bool:
      case DKind::Signed: x = cast_value<T>(v.i); break;
      case DKind::Unsigned: x = cast_value<T>(v.u); break;
      case DKind::Float: x = cast_value<T>(v.f); break;
      case DKind::Complex: x = cast_value<T>(v.c); break;
    }
    T* dst = typed<T>(out);
    for (std::size_t i = 0; i < out.numel(); ++i) dst[i] = x;
  });
}

// arange as NumPy fills it: integers exactly; floats as start + i * delta in the dtype's
// compute precision (float up to float32), the second element exactly as given.
void fill_arange(const Node& n, HostArray& out) {
  const std::int64_t count = n.shape[0];
  visit_dtype(out.dtype, [&]<class T>() {
    T* dst = typed<T>(out);
    for (std::int64_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<T, double>) {
        dst[i] = i == 1 ? n.value3().f : n.value.f + static_cast<double>(i) * n.value2().f;
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half> ||
                           std::is_same_v<T, bfloat16_t>) {
        const float v = i == 1 ? static_cast<float>(n.value3().f)
                               : static_cast<float>(n.value.f) +
                                     static_cast<float>(i) * static_cast<float>(n.value2().f);
        dst[i] = cast_value<T>(v);
      } else if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
        dst[i] = cast_value<T>(n.value.u + n.value2().u * static_cast<std::uint64_t>(i));
      } else if constexpr (std::is_integral_v<T>) {
        const auto v = static_cast<std::int64_t>(static_cast<std::uint64_t>(n.value.i) +
                                                 static_cast<std::uint64_t>(n.value2().i) *
                                                     static_cast<std::uint64_t>(i));
        dst[i] = cast_value<T>(v);
      } else {
        dst[i] = T{};  // complex arange is refused when the node is built
      }
    }
  });
}

void fill_linspace(const Node& n, HostArray& out) {
  const std::int64_t count = n.shape[0];
  const std::int64_t last = n.k() ? count - 1 : -1;
  const bool integral = !is_inexact(out.dtype);
  visit_dtype(out.dtype, [&]<class T>() {
    T* dst = typed<T>(out);
    for (std::int64_t i = 0; i < count; ++i) {
      double v = i == last ? n.value3().f : static_cast<double>(i) * n.value2().f + n.value.f;
      if (integral) v = std::floor(v);
      dst[i] = cast_value<T>(v);
    }
  });
}

void fill_eye(const Node& n, HostArray& out) {
  visit_dtype(out.dtype, [&]<class T>() {
    T* dst = typed<T>(out);
    for_each_index(n.shape, [&](std::int64_t i, const std::int64_t* o) {
      dst[i] = cast_value<T>(o[1] - o[0] == n.k());
    });
  });
}

HostArray view_of(const HostArray& in, const ::loom::detail::IndexMap& map, const Shape& shape) {
  HostArray out = make(in.dtype, shape);
  const std::size_t item = itemsize(in.dtype);
  const Shape cs = contiguous_strides(in.shape);
  std::array<std::int64_t, kMaxDims> src{};
  for_each_index(shape, [&](std::int64_t i, const std::int64_t* o) {
    map.apply(o, src.data());
    std::int64_t lin = 0;
    for (int k = 0; k < in.shape.size(); ++k) lin += src[static_cast<std::size_t>(k)] * cs[k];
    std::memcpy(out.data.data() + static_cast<std::size_t>(i) * item,
                in.data.data() + static_cast<std::size_t>(lin) * item, item);
  });
  return out;
}

template <int Arity, class F>
void apply_n(const std::vector<const HostArray*>& in, HostArray& out) {
  if constexpr (Arity == 1) {
    apply_unary<F>(*in[0], out);
  } else if constexpr (Arity == 2) {
    apply_binary<F>(*in[0], *in[1], out);
  } else if constexpr (std::is_same_v<F, ref::CheckIndex>) {
    const auto* idx = typed<std::int64_t>(*in[0]);
    const std::int64_t n = typed<std::int64_t>(*in[1])[0], axis = typed<std::int64_t>(*in[2])[0];
    auto* dst = typed<std::int64_t>(out);
    for (std::size_t i = 0; i < out.numel(); ++i) dst[i] = F{}(idx[i], n, axis);
  } else {
    apply_where(*in[0], *in[1], *in[2], out);
  }
}

void apply_elementwise(const Node& n, const std::vector<const HostArray*>& in, HostArray& out) {
  switch (n.op) {
    case Op::Cast: cast_array(*in[0], out); return;
#define LOOM_OP(e, name, arity, rule, cost, cuda, cuda_int) \
  case Op::e: apply_n<arity, ref::e>(in, out); return;
#include "graph/ops.def"
#undef LOOM_OP
    case Op::Buffer:
    case Op::Constant:
    case Op::Arange:
    case Op::Linspace:
    case Op::Eye:
    case Op::Call:
    case Op::View:
    case Op::Reshape:
    case Op::Reduce:
    case Op::Gather:  // evaluate_graph reads its source itself
    case Op::Place: break;
    case Op::User:
      throw Error(fmt::format("{} {}: user CUDA code runs only on a GPU (the host reference evaluator "
                              "cannot run it)",
                              n.user()->kind, n.user()->name));
  }
  throw Error(fmt::format("reference evaluator: {} is not elementwise", ::loom::detail::op_name(n.op)));
}

}  // namespace

HostArray gather(const ::loom::detail::Storage& storage, DType dtype, const Shape& shape,
                 const Shape& strides, std::int64_t offset, const ReadStorage& read) {
  HostArray out = make(dtype, shape);
  if (out.numel() == 0) return out;
  const std::size_t item = itemsize(dtype);
  // The span of elements the layout touches.
  std::int64_t lo = offset, hi = offset;
  for (int d = 0; d < shape.size(); ++d) {
    const std::int64_t span = strides[d] * (shape[d] - 1);
    (span > 0 ? hi : lo) += span;
  }
  std::vector<std::byte> raw(static_cast<std::size_t>(hi - lo + 1) * item);
  read(storage, static_cast<std::size_t>(lo) * item, raw.size(), raw.data());
  for_each_index(shape, [&](std::int64_t i, const std::int64_t* o) {
    std::int64_t e = offset - lo;
    for (int d = 0; d < shape.size(); ++d) e += o[d] * strides[d];
    std::memcpy(out.data.data() + static_cast<std::size_t>(i) * item,
                raw.data() + static_cast<std::size_t>(e) * item, item);
  });
  return out;
}

namespace {

// The nodes a node's value is computed from: its inputs, or (an unevaluated library call) the
// call's inputs. Leaves and evaluated nodes have none.
std::span<const NodeRef> sources(const Node& n) {
  if (n.realized()) return {};
  if (n.op == Op::Call) return n.call()->inputs;
  if (::loom::detail::is_leaf(n.op)) return {};
  return {n.inputs.data(), static_cast<std::size_t>(n.num_inputs)};
}

std::vector<HostArray> evaluate_graph(std::span<const NodeRef> outputs, const ReadStorage& read) {
  // Post-order over the graph, through library calls to their inputs (iterative: a chain of
  // 10^6 calls or ops is as deep as the stack would allow), stopping at buffers and evaluated
  // nodes; each node's value is dropped once its last consumer has run.
  std::vector<const Node*> order;
  std::unordered_map<const Node*, int> uses;
  {
    std::unordered_map<const Node*, bool> seen;
    std::vector<std::pair<const Node*, std::size_t>> stack;
    for (const NodeRef& o : outputs) {
      if (seen[o.get()]) continue;
      seen[o.get()] = true;
      stack.emplace_back(o.get(), 0);
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        const std::span<const NodeRef> src = sources(*n);
        if (next < src.size()) {
          const Node* in = src[next++].get();
          ++uses[in];
          if (!seen[in]) {
            seen[in] = true;
            stack.emplace_back(in, 0);
          }
          continue;
        }
        order.push_back(n);
        stack.pop_back();
      }
    }
  }
  for (const NodeRef& o : outputs) ++uses[o.get()];  // outputs are never dropped early

  std::unordered_map<const Node*, std::shared_ptr<HostArray>> vals;
  // A library call runs once for all of its outputs, on its inputs' values (computed earlier in
  // the order), with its host implementation.
  std::unordered_map<const ::loom::detail::CallSpec*, std::vector<HostArray>> calls;
  const auto call_outputs = [&](const ::loom::detail::CallSpec& c) -> const std::vector<HostArray>& {
    auto it = calls.find(&c);
    if (it != calls.end()) return it->second;
    if (!c.host) {
      throw Error(fmt::format("{}: needs a GPU ({}), and the host evaluator has no implementation of it",
                              c.name, c.text));
    }
    std::vector<const HostArray*> in_ptrs;
    for (const NodeRef& in : c.inputs) in_ptrs.push_back(vals.at(in.get()).get());
    std::vector<HostArray> outs;
    for (const ::loom::detail::CallOutput& o : c.outputs) outs.push_back(make(o.dtype, o.shape));
    c.host(in_ptrs, outs);
    return calls.emplace(&c, std::move(outs)).first->second;
  };

  for (const Node* n : order) {
    auto out = std::make_shared<HostArray>(make(n->dtype, n->shape));
    if (auto r = n->realized()) {
      *out = gather(*r->storage, n->dtype, n->shape, r->strides, r->offset, read);
    } else {
      switch (n->op) {
        case Op::Buffer:
          *out = gather(*n->storage(), n->dtype, n->shape, n->strides(), n->offset(), read);
          break;
        case Op::Constant: fill_constant(n->value, *out); break;
        case Op::Arange: fill_arange(*n, *out); break;
        case Op::Linspace: fill_linspace(*n, *out); break;
        case Op::Eye: fill_eye(*n, *out); break;
        case Op::Call: *out = call_outputs(*n->call()).at(static_cast<std::size_t>(n->k())); break;
        case Op::View: *out = view_of(*vals.at(n->inputs[0].get()), n->map(), n->shape); break;
        case Op::Reshape:
          out->data = vals.at(n->inputs[0].get())->data;
          break;
        case Op::Reduce: *out = reduce(*n, *vals.at(n->inputs[0].get())); break;
        case Op::Gather: {
          const HostArray& src = *vals.at(n->inputs[0].get());
          const HostArray& idx = *vals.at(n->inputs[1].get());
          const std::size_t item = itemsize(n->dtype);
          const auto* pos = reinterpret_cast<const std::int64_t*>(idx.data.data());
          for (std::size_t i = 0; i < out->numel(); ++i) {
            const std::int64_t p = pos[i];
            LOOM_CHECK(p >= 0 && static_cast<std::size_t>(p) < src.numel(), "a gather's index is in range");
            std::memcpy(out->data.data() + i * item, src.data.data() + static_cast<std::size_t>(p) * item, item);
          }
          break;
        }
        case Op::Place: {  // the base (or zeros), the piece copied into its box in C order
          if (n->num_inputs == 3) out->data = vals.at(n->inputs[2].get())->data;
          const HostArray& piece = *vals.at(n->inputs[0].get());
          const std::size_t item = itemsize(n->dtype);
          const Shape cs = contiguous_strides(n->shape);
          const int nd = n->shape.size();
          Shape at = Shape::filled(nd, 0);
          for (std::size_t i = 0; i < piece.numel(); ++i) {
            std::int64_t dst = 0;
            for (int d = 0; d < nd; ++d) dst += (at[d] - n->map().offset[d]) * cs[d];
            std::memcpy(out->data.data() + static_cast<std::size_t>(dst) * item, piece.data.data() + i * item, item);
            for (int d = nd - 1; d >= 0 && ++at[d] == piece.shape[d]; --d) at[d] = 0;
          }
          break;
        }
        case Op::User:
#include "graph/elementwise_cases.inc"
        {
          std::vector<const HostArray*> in;
          for (int i = 0; i < n->num_inputs; ++i) in.push_back(vals.at(n->inputs[static_cast<std::size_t>(i)].get()).get());
          apply_elementwise(*n, in, *out);
          break;
        }
      }
    }
    for (const NodeRef& in : sources(*n)) {
      if (--uses[in.get()] == 0) vals.erase(in.get());
    }
    vals[n] = out;
  }
  std::vector<HostArray> result;
  for (const NodeRef& o : outputs) result.push_back(*vals.at(o.get()));
  return result;
}

}  // namespace

std::vector<HostArray> evaluate(std::span<const NodeRef> outputs, const ReadStorage& read) {
  try {
    return evaluate_graph(outputs, read);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("out of host memory: the host evaluator could not allocate its arrays "
                      "(std::bad_alloc)", 0);
  } catch (const std::length_error&) {
    throw OutOfMemory("out of host memory: an array is too large for the host evaluator "
                      "(std::length_error)", 0);
  }
}

}  // namespace loom::ref
