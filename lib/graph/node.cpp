#include "graph/node.hpp"
#include "graph/check.hpp"
#include "graph/intern.hpp"
#include "graph/site.hpp"

#include <iterator>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::detail {

namespace {

constexpr OpInfo kOpInfo[] = {
    {"buffer", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"constant", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"arange", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"linspace", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"eye", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"call", OpClass::Leaf, 0, TypeRule::Same, OpCost::Cheap, "", ""},
    {"view", OpClass::View, 1, TypeRule::Same, OpCost::Cheap, "", ""},
    {"reshape", OpClass::View, 1, TypeRule::Same, OpCost::Cheap, "", ""},
    {"reduce", OpClass::Reduction, 1, TypeRule::Same, OpCost::Cheap, "", ""},
    {"astype", OpClass::Elementwise, 1, TypeRule::Same, OpCost::Cheap, "loom::cast<{T}>({0})", ""},
    {"gather", OpClass::Elementwise, 2, TypeRule::Same, OpCost::Cheap, "", ""},
    {"place", OpClass::Elementwise, 3, TypeRule::Same, OpCost::Cheap, "", ""},
    {"user", OpClass::Elementwise, 3, TypeRule::Same, OpCost::Cheap, "", ""},
#define LOOM_OP(e, name, arity, rule, cost, cuda, cuda_int) \
  {name, OpClass::Elementwise, arity, TypeRule::rule, OpCost::cost, cuda, cuda_int},
#include "graph/ops.def"
#undef LOOM_OP
};


std::shared_ptr<Node> new_node(Op op, DType dtype, const Shape& shape) {
  // Every array loom makes passes here: an extent product or a byte count past int64 (or a
  // negative extent) is refused before any pass computes sizes or offsets from it.
  checked_nbytes(shape, dtype, op_name(op));
  auto n = std::make_shared<Node>();
  n->op = op;
  n->dtype = dtype;
  n->shape = shape;
  n->site = current_site();
  return n;
}

// A node reaches a call when an input does (set once the inputs are in place).
void note_calls(Node& n) {
  for (int i = 0; i < n.num_inputs; ++i) n.has_call |= n.inputs[static_cast<std::size_t>(i)]->has_call;
}

}  // namespace

const OpInfo& op_info(Op op) { return kOpInfo[static_cast<int>(op)]; }

namespace {
thread_local std::source_location t_site;  // line 0 while no SiteScope is open
}  // namespace

const std::source_location& current_site() { return t_site; }

SiteScope::SiteScope(const std::source_location& where) {
  if (t_site.line() != 0) return;
  t_site = where;
  set_ = true;
}

SiteScope::~SiteScope() {
  if (set_) t_site = std::source_location();
}

void internal_error(const char* condition, const std::string& message, const char* file, int line) {
  throw InternalError(fmt::format("internal error (a bug in loom): {} ({} failed at {}:{})", message,
                                  condition, file, line));
}

void check_dtype(DType dtype, const char* op) {
  if (static_cast<int>(dtype) >= kNumDTypes) {
    throw DTypeError(fmt::format("{}: invalid dtype (loom::DType value {}; the valid ones are 0 "
                                 "to {})",
                                 op, static_cast<int>(dtype), kNumDTypes - 1));
  }
}

std::int64_t checked_nbytes(const Shape& shape, DType dtype, const char* op) {
  check_dtype(dtype, op);
  // NumPy's rule: the itemsize times the non-zero extents must fit in a signed 64-bit size,
  // even when another extent is 0.
  std::int64_t nbytes = static_cast<std::int64_t>(itemsize(dtype));
  bool empty = false;
  for (std::int64_t d : shape) {
    if (d < 0) {
      throw ValueError(fmt::format("{}: negative dimensions are not allowed (shape {})", op,
                                   to_string(shape)));
    }
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(nbytes, d, &nbytes)) {
      throw ValueError(fmt::format(
          "{}: array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
          "possible size. (shape {}, dtype {})",
          op, to_string(shape), name(dtype)));
    }
  }
  return empty ? 0 : nbytes;
}

const Node::Extra& Node::empty_extra() {
  static const Extra* e = new Extra();  // never destroyed: nodes may outlive static destructors
  return *e;
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

namespace {
// The list of the outermost ~Node on this thread (null when none runs). A plain pointer, so the
// thread_local has no destructor: an Array with static or thread_local storage may die after
// every other thread_local of its thread is gone (a list object here would be destroyed first).
thread_local std::vector<std::shared_ptr<const void>>* t_pending = nullptr;
}  // namespace

Node::~Node() {
  // Destroying a node whose inputs nobody else holds would recurse once per level, and a graph
  // built by a loop can be 10^6 levels deep, through inputs or through library calls (a call
  // node's CallSpec holds the call's inputs). While a node dies, what it held is queued on the
  // list of the outermost destructor on this thread, which releases the queue in a loop.
  std::shared_ptr<const void> call = extra_ ? std::move(extra_->call) : nullptr;
  if (t_pending != nullptr) {
    for (NodeRef& in : inputs) {
      if (in) t_pending->push_back(std::move(in));
    }
    if (call) t_pending->push_back(std::move(call));
    return;
  }
  // Outermost: nothing to queue when no input (or call) would die with this node.
  bool dies = call && call.use_count() == 1;
  for (const NodeRef& in : inputs) dies |= in && in.use_count() == 1;
  if (!dies) return;  // the members release their references (one level at most)
  std::vector<std::shared_ptr<const void>> pending;
  for (NodeRef& in : inputs) {
    if (in) pending.push_back(std::move(in));
  }
  if (call) pending.push_back(std::move(call));
  t_pending = &pending;
  while (!pending.empty()) {
    std::shared_ptr<const void> n = std::move(pending.back());
    pending.pop_back();
    n.reset();  // may run ~Node of an input (or ~CallSpec), which queue what they held here
  }
  t_pending = nullptr;
}

NodeRef make_buffer(std::shared_ptr<Storage> storage, DType dtype, const Shape& shape,
                    const Shape& strides, std::int64_t offset) {
  LOOM_CHECK(strides.size() == shape.size(), "a buffer's strides have its rank");
  auto n = new_node(Op::Buffer, dtype, shape);
  Node::Extra& e = n->mutable_extra();
  e.storage = std::move(storage);
  e.strides = strides;
  e.offset = offset;
  return intern(std::move(n));
}

NodeRef make_constant(const Scalar& value, bool weak) {
  Scalar v = value;
  v.weak = weak;
  if (NodeRef found = interned_constant(v, weak)) return found;
  auto n = new_node(Op::Constant, value.dtype, Shape{});
  n->value = value;
  n->value.weak = weak;
  n->weak = weak;
  return intern(std::move(n));
}

NodeRef make_arange(const Scalar& start, const Scalar& step, std::int64_t count, DType dtype,
                    const Scalar& second) {
  auto n = new_node(Op::Arange, dtype, Shape{count});
  n->value = start;
  n->mutable_extra().value2 = step;
  n->mutable_extra().value3 = second;
  return intern(std::move(n));
}

NodeRef make_linspace(const Scalar& start, const Scalar& step, const Scalar& stop,
                      std::int64_t count, bool endpoint, DType dtype) {
  auto n = new_node(Op::Linspace, dtype, Shape{count});
  n->value = start;
  Node::Extra& e = n->mutable_extra();
  e.value2 = step;
  e.value3 = stop;
  e.k = endpoint ? 1 : 0;
  return intern(std::move(n));
}

NodeRef make_eye(std::int64_t rows, std::int64_t cols, std::int64_t k, DType dtype) {
  auto n = new_node(Op::Eye, dtype, Shape{rows, cols});
  n->mutable_extra().k = k;
  return intern(std::move(n));
}

NodeRef make_view(NodeRef input, const IndexMap& map, const Shape& shape) {
  LOOM_CHECK(map.out_ndim == shape.size() && map.in_ndim == input->shape.size(), "a view's map fits its shapes");
  auto n = new_node(Op::View, input->dtype, shape);
  n->mutable_extra().map = map;
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_reshape(NodeRef input, const Shape& shape) {
  LOOM_CHECK(shape.numel() == input->numel(), "a reshape keeps the element count");
  auto n = new_node(Op::Reshape, input->dtype, shape);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_cast(NodeRef input, DType dtype) {
  auto n = new_node(Op::Cast, dtype, input->shape);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_gather(NodeRef source, NodeRef index) {
  LOOM_CHECK(index->dtype == DType::Int64, "a gather's index is int64");
  // A gather reads its source's memory; a generator (arange, linspace, eye, a constant) has none
  // until computed: a copy of it is, and the kernel that computes it runs first (the edges of
  // histogram's equal bins, read at each element's bin).
  if (is_leaf(source->op) && source->op != Op::Buffer && source->op != Op::Call && !source->realized()) {
    const Shape shape = source->shape;
    const DType dtype = source->dtype;
    source = make_elementwise(Op::Copy, dtype, shape, std::move(source));
  }
  auto n = new_node(Op::Gather, source->dtype, index->shape);
  n->inputs[0] = std::move(source);
  n->inputs[1] = std::move(index);
  n->num_inputs = 2;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_place(NodeRef piece, NodeRef mask, NodeRef base, const Shape& start) {
  const Shape& shape = mask->shape;
  const int nd = shape.size();
  LOOM_CHECK(mask->dtype == DType::Bool && piece->shape.size() == nd && start.size() == nd &&
                 (!base || (base->shape == shape && base->dtype == piece->dtype)),
             "a place's inputs fit its shape");
  IndexMap m = IndexMap::identity(nd);
  for (int d = 0; d < nd; ++d) {
    LOOM_CHECK(start[d] >= 0 && start[d] + piece->shape[d] <= shape[d], "a place's box is inside its shape");
    m.offset[d] = -start[d];
  }
  auto n = new_node(Op::Place, piece->dtype, shape);
  n->mutable_extra().map = m;
  n->inputs = {std::move(piece), std::move(mask), std::move(base)};
  n->num_inputs = n->inputs[2] ? 3 : 2;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_user(std::shared_ptr<const UserOp> op, DType dtype, const Shape& shape, std::vector<NodeRef> inputs) {
  LOOM_CHECK(inputs.size() <= 3, "a user op has at most 3 inputs");
  auto n = new_node(Op::User, dtype, shape);
  n->mutable_extra().user = std::move(op);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    LOOM_CHECK(inputs[i]->shape == shape || (inputs[i]->op == Op::Constant && inputs[i]->shape.empty()),
               "a user op's input has its shape, or is a 0-d constant");
    n->inputs[i] = std::move(inputs[i]);
  }
  n->num_inputs = static_cast<int>(inputs.size());
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_elementwise(Op op, DType dtype, const Shape& shape, NodeRef a, NodeRef b,
                         NodeRef c) {
  LOOM_CHECK(is_elementwise(op) && op != Op::Gather && op != Op::Place && op != Op::User,
             "make_elementwise of an elementwise op");
  auto n = new_node(op, dtype, shape);
  n->inputs = {std::move(a), std::move(b), std::move(c)};
  n->num_inputs = op_info(op).arity;
  for (int i = 0; i < n->num_inputs; ++i) {  // same shape, or a 0-d constant
    const Node& in = *n->inputs[static_cast<std::size_t>(i)];
    LOOM_CHECK(in.shape == shape || (in.op == Op::Constant && in.shape.empty()),
               "an elementwise input has the op's shape, or is a 0-d constant");
  }
  note_calls(*n);
  return intern(std::move(n));
}

namespace {
constexpr bool Typed = true, Untyped = false, Index = true, Accum = false;
constexpr ReduceInfo kReduceInfo[] = {
#define LOOM_REDUCE(e, name, state, typed, result) {ReduceKind::e, name, state, typed, result},
#include "graph/reductions.def"
#undef LOOM_REDUCE
};
constexpr bool reduce_rows_in_order() {
  for (std::size_t i = 0; i < std::size(kReduceInfo); ++i) {
    if (static_cast<std::size_t>(kReduceInfo[i].kind) != i) return false;
  }
  return true;
}
static_assert(reduce_rows_in_order() && std::size(kReduceInfo) == static_cast<std::size_t>(ReduceKind::User) + 1,
              "kReduceInfo has one row per ReduceKind, in the enum's order");
}  // namespace

const ReduceInfo& reduce_info(ReduceKind k) {
  LOOM_CHECK(static_cast<std::size_t>(k) < std::size(kReduceInfo), "a ReduceKind outside the table");
  return kReduceInfo[static_cast<std::size_t>(k)];
}

NodeRef make_user_reduce(NodeRef input, std::uint32_t axes, std::shared_ptr<const UserOp> op) {
  LOOM_CHECK(op != nullptr, "a user reduction without its state");
  Shape shape = input->shape;
  for (int i = 0; i < shape.size(); ++i) {
    if ((axes >> i) & 1u) shape[i] = 1;
  }
  auto n = new_node(Op::Reduce, input->dtype, shape);
  Node::Extra& e = n->mutable_extra();
  e.reduce = ReduceKind::User;
  e.axes = axes;
  e.user = std::move(op);
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return intern(std::move(n));
}

NodeRef make_reduce(NodeRef input, ReduceKind kind, std::uint32_t axes, std::int64_t ddof) {
  Shape shape = input->shape;
  for (int i = 0; i < shape.size(); ++i) {
    if ((axes >> i) & 1u) shape[i] = 1;
  }
  const DType dtype = reduce_info(kind).index ? DType::Int64 : input->dtype;
  auto n = new_node(Op::Reduce, dtype, shape);
  Node::Extra& e = n->mutable_extra();
  e.reduce = kind;
  e.axes = axes;
  e.k = ddof;
  n->inputs[0] = std::move(input);
  n->num_inputs = 1;
  note_calls(*n);
  return intern(std::move(n));
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
    outs.push_back(intern(std::move(n)));  // a call is never merged: this sets its hash
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
  return intern(std::move(n));
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
    case Op::User: s += " " + n.user()->name; break;
    case Op::View:
    case Op::Place: s += " " + n.map().to_string(); break;
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
    case Op::Reshape:
case Op::Gather:
#include "graph/elementwise_cases.inc"
      break;
  }
  if (n.realized()) s += " (evaluated)";
  return s;
}

NodeRef as_leaf(const NodeRef& n) {
  if (n->op == Op::Buffer) return n;
  const Realized* r = n->realized();
  if (!r) return n;
  return make_buffer(r->storage, n->dtype, n->shape, r->strides, r->offset);
}

}  // namespace loom::detail
