#include "api/builders.hpp"

#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include <cmath>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "graph/promotion.hpp"

namespace loom::detail {

NodeRef leaf_of(const Array& a, const char* op) {
  if (!a.valid()) throw ValueError(fmt::format("{}: an operand is an empty Array handle", op));
  return as_leaf(a.node());
}

std::string compact(const Shape& s) {
  if (s.size() == 1) return fmt::format("({},)", s[0]);
  return fmt::format("({})", fmt::join(s.begin(), s.end(), ","));
}

bool weak_int_fits(const Scalar& v, DType to) {
  if (!is_integer(to) || !is_integer(v.dtype)) return true;
  const bool neg = kind(v.dtype) == DKind::Signed && v.i < 0;
  const std::uint64_t mag = kind(v.dtype) == DKind::Unsigned
                                ? v.u
                                : (neg ? 0 - static_cast<std::uint64_t>(v.i)
                                       : static_cast<std::uint64_t>(v.i));
  const int bits = static_cast<int>(itemsize(to)) * 8;
  if (is_unsigned_int(to)) return !neg && (bits == 64 || mag < (std::uint64_t{1} << bits));
  const std::uint64_t lim = std::uint64_t{1} << (bits - 1);
  return neg ? mag <= lim : mag < lim;
}

// NEP 50: a C++ integer must fit the dtype it meets.
void check_weak_int_fits(const Scalar& v, DType to) {
  if (!weak_int_fits(v, to)) {
    throw ValueError(fmt::format("Python integer {} out of bounds for {}", v.to_string(),
                                 name(to)));
  }
}

void check_written_scalar(const Array& v, DType to) {
  const detail::Node& n = *v.node();
  if (n.op != detail::Op::Constant || !n.weak || n.shape.size() != 0 || n.realized()) return;
  const Scalar& s = n.value;
  if (is_complex(s.dtype) && !is_complex(to)) {
    throw DTypeError(fmt::format("cannot write the complex number {} into an array of dtype {} (NumPy: {}() "
                                 "argument must be a real number, not 'complex')",
                                 s.to_string(), name(to), is_integer(to) ? "int" : "float"));
  }
  if (!is_integer(to)) return;  // bool takes any number; floats round (to inf, as NumPy)
  if (is_integer(s.dtype)) {
    detail::check_weak_int_fits(s, to);
    return;
  }
  if (kind(s.dtype) != DKind::Float) return;  // (bool into an integer: 0 or 1)
  // Python's int(v): truncation toward zero; then the integer must fit.
  if (std::isnan(s.f)) throw ValueError("cannot convert float NaN to integer");
  if (std::isinf(s.f)) throw ValueError("cannot convert float infinity to integer");
  const double t = std::trunc(s.f);
  if (!(t >= -0x1p63 && t < 0x1p64)) throw ValueError("Python int too large to convert to C long");
  Scalar whole;
  whole.weak = true;
  if (t < 0x1p63) {
    whole.dtype = DType::Int64;
    whole.i = static_cast<std::int64_t>(t);
  } else {
    whole.dtype = DType::UInt64;
    whole.u = static_cast<std::uint64_t>(t);
    whole.i = static_cast<std::int64_t>(whole.u);
  }
  detail::check_weak_int_fits(whole, to);
}

NodeRef cast_to(const NodeRef& n, DType dtype) {
  if (n->dtype == dtype) return n;
  if (n->op == Op::Constant && n->weak) {
    check_weak_int_fits(n->value, dtype);
    return make_constant(n->value.cast(dtype), false);
  }
  return make_cast(n, dtype);
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (a == b || b.empty()) return a;  // the common cases: same shapes, an array and a scalar
  if (a.empty()) return b;
  const int nd = std::max(a.size(), b.size());
  Shape out = Shape::filled(nd, 1);
  for (int i = 0; i < nd; ++i) {
    const int ia = i - (nd - a.size());
    const int ib = i - (nd - b.size());
    const std::int64_t da = ia >= 0 ? a[ia] : 1;
    const std::int64_t db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      throw ShapeError(fmt::format("operands could not be broadcast together with shapes {} {} ",
                                   compact(a), compact(b)));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {

struct Sink {
  const Shape& shape;
  int max_depth;
  std::vector<std::tuple<const Node*, IndexMap, NodeRef>> memo;  // (node, map) -> moved view

  NodeRef down(const NodeRef& n, const IndexMap& map, int depth) {
    for (const auto& [node, m, r] : memo) {
      if (node == n.get() && m == map) return r;
    }
    NodeRef r;
    if (depth >= max_depth || n->realized() != nullptr) {
      r = view_node(n, map, shape);
    } else if (n->op == Op::View) {
      r = down(n->inputs[0], compose(map, n->map()), depth + 1);
    } else if (is_elementwise(n->op) && n->op != Op::Gather && n->op != Op::Place && n->op != Op::User) {  // inputs of its shape
      std::array<NodeRef, 3> in;
      for (int i = 0; i < n->num_inputs; ++i) {
        const NodeRef& x = n->inputs[static_cast<std::size_t>(i)];
        // A 0-d constant is read as one value by every element.
        in[static_cast<std::size_t>(i)] =
            x->op == Op::Constant && x->shape.empty() ? x : down(x, map, depth + 1);
      }
      if (n->op == Op::Cast) {
        r = make_cast(in[0], n->dtype);
      } else if (n->op == Op::Copy) {
        r = make_copy(in[0], n->force_materialize);
      } else {
        r = make_elementwise(n->op, n->dtype, shape, in[0], in[1], in[2]);
      }
    } else {
      r = view_node(n, map, shape);
    }
    memo.emplace_back(n.get(), map, r);
    return r;
  }
};

}  // namespace

NodeRef sink_view(const NodeRef& n, const IndexMap& map, const Shape& shape, int max_depth) {
  Sink s{shape, max_depth, {}};
  return s.down(n, map, 0);
}

NodeRef view_node(const NodeRef& n, const IndexMap& map, const Shape& shape) {
  if (n->op == Op::Buffer) {
    Shape strides = Shape::filled(shape.size(), 0);
    std::int64_t offset = n->offset();
    for (int k = 0; k < map.in_ndim; ++k) offset += n->strides()[k] * map.offset[k];
    for (int i = 0; i < map.out_ndim; ++i) {
      strides[i] = map.dim[i] >= 0 ? n->strides()[map.dim[i]] * map.coef[i] : 0;
    }
    return make_buffer(n->storage(), n->dtype, shape, strides, offset);
  }
  if (n->op == Op::View) return make_view(n->inputs[0], compose(map, n->map()), shape);
  return make_view(n, map, shape);
}

// An input of an elementwise node: broadcast to its shape, except a 0-d constant, which every
// pass reads as one value (saving a view node on each `x * 2`).
NodeRef operand_node(const NodeRef& n, const Shape& to) {
  if (n->op == Op::Constant && n->shape.empty() && !n->realized()) return n;
  return broadcast_node(n, to);
}

NodeRef broadcast_node(const NodeRef& n, const Shape& to) {
  if (n->shape == to) return n;
  const Shape& from = n->shape;
  const int lead = to.size() - from.size();
  bool ok = lead >= 0;
  IndexMap m;
  m.out_ndim = to.size();
  m.in_ndim = from.size();
  for (int i = 0; ok && i < to.size(); ++i) {
    m.dim[i] = -1;
    m.coef[i] = 0;
    if (i < lead) continue;
    const std::int64_t d = from[i - lead];
    if (d == to[i] && d != 1) {
      m.dim[i] = static_cast<std::int8_t>(i - lead);
      m.coef[i] = 1;
    } else if (d != 1) {
      ok = false;
    }
  }
  if (!ok) {
    throw ShapeError(fmt::format(
        "operands could not be broadcast together with remapped shapes [original->remapped]: {} "
        "and requested shape {}",
        compact(from), compact(to)));
  }
  return view_node(n, m, to);
}

Array unary(Op op, const Array& a) {
  const NodeRef x = leaf_of(a, op_name(op));
  const DType in[] = {x->dtype};
  const OpTypes t = resolve_op_types(op, x->dtype, in);
  return Array(make_elementwise(op, t.out, x->shape, cast_to(x, t.compute)));
}

namespace {

bool is_comparison(Op op) { return op_info(op).rule == TypeRule::Compare; }

// NumPy 2 compares an integer array with a C++ integer outside its dtype's range exactly (NEP
// 50's one exception: u8 == 300 is all false, i8 < 1000 all true, u8 > -1 all true), where
// every other op raises. The answer does not depend on the elements: a broadcast constant.
std::optional<Array> compare_out_of_range(Op op, const NodeRef& x, const NodeRef& y) {
  const bool left_weak = x->op == Op::Constant && x->weak && is_integer(x->dtype);
  const bool right_weak = y->op == Op::Constant && y->weak && is_integer(y->dtype);
  if (left_weak == right_weak) return std::nullopt;
  const Node& arr = left_weak ? *y : *x;
  const Scalar& v = (left_weak ? x : y)->value;
  if (!is_integer(arr.dtype) || weak_int_fits(v, arr.dtype)) return std::nullopt;
  // Where the scalar lies: above every value of the dtype, or below.
  const bool above = !(kind(v.dtype) == DKind::Signed && v.i < 0);
  const bool array_less = above;  // every element is < the scalar (else every one is >)
  bool r = op == Op::NotEqual;  // equal: false, not_equal: true
  if (op == Op::Less || op == Op::LessEqual) r = left_weak ? !array_less : array_less;
  if (op == Op::Greater || op == Op::GreaterEqual) r = left_weak ? array_less : !array_less;
  const Shape shape = broadcast_shapes(x->shape, y->shape);
  return Array(broadcast_node(make_constant(Scalar::of(r, false), false), shape));
}

}  // namespace

Array binary(Op op, const Array& a, const Array& b) {
  const NodeRef x = leaf_of(a, op_name(op));
  const NodeRef y = leaf_of(b, op_name(op));
  if (is_comparison(op)) {
    if (auto r = compare_out_of_range(op, x, y)) return *r;
  }
  const Operand c = common_type({x->dtype, x->weak}, {y->dtype, y->weak});
  // A float-only ufunc's loop is the first both operands cast to safely, and a C++ number (NEP
  // 50) takes the other operand's dtype there: arctan2(int8 array, 2) is float16, as NumPy's.
  const bool float_loop = op_info(op).rule == TypeRule::RealFloatFunc;
  const DType in[] = {float_loop && x->weak ? c.dtype : x->dtype, float_loop && y->weak ? c.dtype : y->dtype};
  const OpTypes t = resolve_op_types(op, c.dtype, in);
  const Shape shape = broadcast_shapes(x->shape, y->shape);
  return Array(make_elementwise(op, t.out, shape, operand_node(cast_to(x, t.compute), shape),
                                operand_node(cast_to(y, t.compute), shape)));
}

Array ternary_where(const Array& cond, const Array& a, const Array& b) {
  const NodeRef c = leaf_of(cond, "where");
  const NodeRef x = leaf_of(a, "where");
  const NodeRef y = leaf_of(b, "where");
  const Operand common = common_type({x->dtype, x->weak}, {y->dtype, y->weak});
  const Shape shape = broadcast_shapes(broadcast_shapes(c->shape, x->shape), y->shape);
  return Array(make_elementwise(Op::Where, common.dtype, shape,
                                operand_node(cast_to(c, DType::Bool), shape),
                                operand_node(cast_to(x, common.dtype), shape),
                                operand_node(cast_to(y, common.dtype), shape)));
}

int normalize_axis(std::int64_t axis, int ndim, const char* prefix) {
  if (axis < -ndim || axis >= ndim) {
    throw IndexError(fmt::format("{}{}axis {} is out of bounds for array of dimension {}", prefix ? prefix : "",
                                 prefix ? ": " : "", axis, ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

}  // namespace loom::detail

namespace loom {
Shape broadcast_shapes(const Shape& a, const Shape& b) { return detail::broadcast_shapes(a, b); }
}  // namespace loom
