#include "graph/node.hpp"

#include <cassert>
#include <vector>

#include <fmt/format.h>

namespace loom::detail {

namespace {

constexpr OpInfo kOpInfo[] = {
    {"buffer", OpClass::Leaf, 0, "", ""},
    {"constant", OpClass::Leaf, 0, "", ""},
    {"arange", OpClass::Leaf, 0, "", ""},
    {"linspace", OpClass::Leaf, 0, "", ""},
    {"eye", OpClass::Leaf, 0, "", ""},
    {"call", OpClass::Leaf, 0, "", ""},
    {"view", OpClass::View, 1, "", ""},
    {"reshape", OpClass::View, 1, "", ""},
    {"reduce", OpClass::Reduction, 1, "", ""},
    {"astype", OpClass::Elementwise, 1, "loom::cast<{T}>({0})", ""},
#define LOOM_OP(e, name, arity, rule, cuda, cuda_int) {name, OpClass::Elementwise, arity, cuda, cuda_int},
#include "graph/ops.def"
#undef LOOM_OP
};


std::shared_ptr<Node> new_node(Op op, DType dtype, const Shape& shape) {
  auto n = std::make_shared<Node>();
  n->op = op;
  n->dtype = dtype;
  n->shape = shape;
  return n;
}

// A node reaches a call when an input does (set once the inputs are in place).
void note_calls(Node& n) {
  for (int i = 0; i < n.num_inputs; ++i) n.has_call |= n.inputs[static_cast<std::size_t>(i)]->has_call;
}

}  // namespace

const OpInfo& op_info(Op op) { return kOpInfo[static_cast<int>(op)]; }

const Node::Extra& Node::empty_extra() {
  static const Extra e;
  return e;
}

void Node::set_realized(std::shared_ptr<const Realized> r) const {
  if (realized_claimed_.exchange(true, std::memory_order_acq_rel)) return;
  realized_ = std::move(r);
  realized_raw_.store(realized_.get(), std::memory_order_release);
}

Node::Extra& Node::mutable_extra() {
  if (!extra_) extra_ = std::make_unique<Extra>();
  return *extra_;
}
int num_ops() { return static_cast<int>(sizeof(kOpInfo) / sizeof(kOpInfo[0])); }

Node::~Node() {
  // Destroying a node whose inputs nobody else holds would recurse once per level, and a graph
  // built by a loop can be 10^5 levels deep. Inputs released while a node dies are queued on a
  // per-thread list that the outermost destructor drains: no recursion, no allocation once the
  // list has grown.
  thread_local std::vector<NodeRef> pending;
  thread_local bool draining = false;
  for (NodeRef& in : inputs) {
    if (in) pending.push_back(std::move(in));
  }
  if (draining) return;
  draining = true;
  while (!pending.empty()) {
    NodeRef n = std::move(pending.back());
    pending.pop_back();
    n.reset();  // may run ~Node of an input, which queues its own inputs here
  }
  draining = false;
}

NodeRef make_buffer(std::shared_ptr<Storage> storage, DType dtype, const Shape& shape,
                    const Shape& strides, std::int64_t offset) {
  assert(strides.size() == shape.size());
  auto n = new_node(Op::Buffer, dtype, shape);
  Node::Extra& e = n->mutable_extra();
  e.storage = std::move(storage);
  e.strides = strides;
  e.offset = offset;
  return n;
}

NodeRef make_constant(const Scalar& value, bool weak) {
  auto n = new_node(Op::Constant, value.dtype, Shape{});
  n->value = value;
  n->value.weak = weak;
  n->weak = weak;
  return n;
}

NodeRef make_arange(const Scalar& start, const Scalar& step, std::int64_t count, DType dtype) {
  auto n = new_node(Op::Arange, dtype, Shape{count});
  n->value = start;
  n->mutable_extra().value2 = step;
  return n;
}

NodeRef make_linspace(const Scalar& start, const Scalar& step, const Scalar& stop,
                      std::int64_t count, bool endpoint, DType dtype) {
  auto n = new_node(Op::Linspace, dtype, Shape{count});
  n->value = start;
  Node::Extra& e = n->mutable_extra();
  e.value2 = step;
  e.value3 = stop;
  e.k = endpoint ? 1 : 0;
  return n;
}

NodeRef make_eye(std::int64_t rows, std::int64_t cols, std::int64_t k, DType dtype) {
  auto n = new_node(Op::Eye, dtype, Shape{rows, cols});
  n->mutable_extra().k = k;
  return n;
}

NodeRef make_view(NodeRef input, const IndexMap& map, const Shape& shape) {
  assert(map.out_ndim == shape.size() && map.in_ndim == input->shape.size());
  auto n = new_node(Op::View, input->dtype, shape);
  n->mutable_extra().map = map;
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return n;
}

NodeRef make_reshape(NodeRef input, const Shape& shape) {
  assert(shape.numel() == input->numel());
  auto n = new_node(Op::Reshape, input->dtype, shape);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return n;
}

NodeRef make_cast(NodeRef input, DType dtype) {
  auto n = new_node(Op::Cast, dtype, input->shape);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return n;
}

NodeRef make_elementwise(Op op, DType dtype, const Shape& shape, NodeRef a, NodeRef b,
                         NodeRef c) {
  assert(is_elementwise(op));
  auto n = new_node(op, dtype, shape);
  n->inputs = {std::move(a), std::move(b), std::move(c)};
  n->num_inputs = op_info(op).arity;
  for (int i = 0; i < n->num_inputs; ++i) {  // same shape, or a 0-d constant
    [[maybe_unused]] const Node& in = *n->inputs[static_cast<std::size_t>(i)];
    assert(in.shape == shape || (in.op == Op::Constant && in.shape.empty()));
  }
  note_calls(*n);
  return n;
}

const char* reduce_name(ReduceKind k) {
  switch (k) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Prod: return "prod";
    case ReduceKind::Max: return "max";
    case ReduceKind::Min: return "min";
    case ReduceKind::NanMax: return "nanmax";
    case ReduceKind::NanMin: return "nanmin";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
    case ReduceKind::Any: return "any";
    case ReduceKind::All: return "all";
    case ReduceKind::Variance: return "variance";
    case ReduceKind::LogSumExp: return "logsumexp";
  }
  return "?";
}

NodeRef make_reduce(NodeRef input, ReduceKind kind, std::uint32_t axes, std::int64_t ddof) {
  Shape shape = input->shape;
  for (int i = 0; i < shape.size(); ++i) {
    if ((axes >> i) & 1u) shape[i] = 1;
  }
  const DType dtype =
      kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin ? DType::Int64 : input->dtype;
  auto n = new_node(Op::Reduce, dtype, shape);
  Node::Extra& e = n->mutable_extra();
  e.reduce = kind;
  e.axes = axes;
  e.k = ddof;
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return n;
}

std::vector<NodeRef> make_call(std::shared_ptr<CallSpec> spec) {
  std::vector<NodeRef> outs;
  for (std::size_t k = 0; k < spec->outputs.size(); ++k) {
    auto n = new_node(Op::Call, spec->outputs[k].dtype, spec->outputs[k].shape);
    Node::Extra& e = n->mutable_extra();
    e.call = spec;
    e.k = static_cast<std::int64_t>(k);
    n->has_call = true;
    spec->output_nodes.push_back(n);
    outs.push_back(std::move(n));
  }
  return outs;
}

std::string to_string(const CallSpec& c) {
  std::string s = c.name;
  if (!c.text.empty()) s += " (" + c.text + ")";
  s += ":";
  for (const NodeRef& in : c.inputs) s += fmt::format(" {}{}", name(in->dtype), to_string(in->shape));
  s += " ->";
  for (const CallOutput& o : c.outputs) s += fmt::format(" {}{}", name(o.dtype), to_string(o.shape));
  return s;
}

NodeRef make_copy(NodeRef input, bool force_materialize) {
  auto n = new_node(Op::Copy, input->dtype, input->shape);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  n->force_materialize = force_materialize;
  note_calls(*n);
  return n;
}

std::string to_string(const Node& n) {
  std::string s = fmt::format("{} {}{}", op_name(n.op), name(n.dtype), to_string(n.shape));
  switch (n.op) {
    case Op::Constant: s += " " + n.value.to_string(); break;
    case Op::Arange: s += fmt::format(" start={} step={}", n.value.to_string(), n.value2().to_string()); break;
    case Op::Linspace:
      s += fmt::format(" start={} stop={} endpoint={}", n.value.to_string(), n.value3().to_string(),
                       n.k() != 0);
      break;
    case Op::Eye: s += fmt::format(" k={}", n.k()); break;
    case Op::Call: s += fmt::format(" output {} of {}", n.k(), n.call()->name); break;
    case Op::View: s += " " + n.map().to_string(); break;
    case Op::Reduce: {
      s += fmt::format(" {} axes=(", reduce_name(n.reduce_kind()));
      bool first = true;
      for (int i = 0; i < kMaxDims; ++i) {
        if (!n.reduces(i)) continue;
        s += fmt::format("{}{}", first ? "" : ",", i);
        first = false;
      }
      s += ")";
      if (n.reduce_kind() == ReduceKind::Variance) s += fmt::format(" ddof={}", n.k());
      break;
    }
    case Op::Buffer:
      s += fmt::format(" strides={} offset={}", to_string(n.strides()), n.offset());
      break;
    default: break;
  }
  if (n.realized()) s += " (evaluated)";
  return s;
}

}  // namespace loom::detail
