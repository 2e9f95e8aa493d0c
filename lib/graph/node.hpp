#pragma once
// Node: one operation in the expression graph, as plain immutable data (STYLE.md habit 1).
// Nodes are built by the factories below, which assert invariants only; user errors are caught
// earlier, in lib/api. Algorithms over nodes are free functions in their own files.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

#include <loom/placement.hpp>
#include <loom/scalar.hpp>
#include <loom/dtype.hpp>
#include <loom/shape.hpp>

#include "graph/call.hpp"
#include "graph/index_map.hpp"
#include "graph/storage.hpp"

namespace loom::detail {

enum class Op : std::uint8_t {
  // Leaves.
  Buffer,    // a strided view of a Storage
  Constant,  // a 0-d value (Node::value); full() is a broadcast view of one
  Arange,    // 1-d: value[i] = start + i * step
  Linspace,  // 1-d: value[i] = start + i * step, the last exactly stop when endpoint
  Eye,       // 2-d: value[i, j] = (j - i == k)
  Call,      // output k() of a library call (Node::call(), graph/call.hpp): a barrier
  // Views (DESIGN.md decision 8).
  View,     // Node::map: an index map onto the input (transpose, slice, broadcast, ...)
  Reshape,  // the input's elements in C order, under a new shape
  // Reduction over the axes in Node::axes(): shape is the input's with those axes set to 1
  // (keepdims form; lib/api squeezes with a view). Node::reduce_kind() says how elements
  // combine. The input already has the accumulation dtype (lib/api casts in the prologue);
  // the output dtype is the input's, except ArgMax/ArgMin (int64).
  Reduce,
  // Elementwise.
  Cast,  // to Node::dtype
  // out[i] = input 0's element at C-order position input 1[i] (int64, already in range): a read
  // at positions computed by the kernel. Elementwise in its index, which fuses with what
  // computes it; the source is read from memory (planning materializes it when it is not).
  Gather,
  // A region of an array replaced (DESIGN.md decisions 12 and 13: writes, concatenate):
  // out[o] = input 0 (the piece, of the box's shape) at o - start where input 1 (a bool mask of
  // the output's shape, true exactly inside the box) holds, else input 2 (the base, of the
  // output's shape). Node::map() maps an output index to the piece's (offset -start, unit
  // steps): meaningful inside the box only. Without a base (num_inputs 2) the values outside the
  // box are 0: those of a concatenation, which later pieces cover. The kernel reads the piece
  // only inside the box and the base only outside it.
  Place,
  // A user's elementwise code (include/loom/kernels.hpp's ElementwiseKernel, when it can fuse):
  // out[i] = Node::user()'s expression of inputs 0..num_inputs-1 (each of the output's shape, or
  // 0-d constants), a block around the user's body in the kernel's element function.
  User,
#define LOOM_OP(e, name, arity, rule, cost, cuda, cuda_int) e,
#include "graph/ops.def"
#undef LOOM_OP
};

enum class OpClass : std::uint8_t { Leaf, View, Elementwise, Reduction };

// How an elementwise op's compute and result dtypes follow from its operands' common dtype, as
// NumPy's ufunc loops give them (resolve_op_types, graph/promotion.hpp): ops.def's rule column.
enum class TypeRule : std::uint8_t {
  Same,           // compute and result in the common dtype (copy, astype, leaves and views)
  NoBool,         // the same, bool refused (negative, positive, sign, subtract)
  Abs,            // a complex input gives its real dtype (absolute)
  ComplexPart,    // the same for real and imag
  BoolToInt8,     // bool computes in int8 (square, reciprocal, conjugate, power)
  FloatFunc,      // bool and ints in the smallest float that holds them (sqrt, exp, sin, ...)
  RealFloatFunc,  // FloatFunc with complex refused (cbrt, arctan2, hypot, copysign)
  RealSame,       // Same with complex refused (floor, ceil, trunc)
  Predicate,      // a bool result (isnan, isinf, isfinite)
  Compare,        // a bool result of two operands
  Logical,        // bool operands, bool result
  IntOnly,        // bool and integers only (invert, bitwise and/or/xor)
  Shift,          // integers only, bool in int8 (left_shift, right_shift)
  Arith,          // Same (add, multiply, maximum, ...)
  TrueDiv,        // bool and ints in float64
  IntDiv,         // complex refused, bool in int8 (floor_divide, remainder)
  Where,          // Same, over the two value operands
};

// What an op costs per element on the GPU (ops.def's cost column): kernel planning keeps a
// kernel with several heavy ops off 16-byte vectors (each thread would hold 4x the registers).
enum class OpCost : std::uint8_t {
  Cheap,
  Heavy,         // a transcendental: many instructions, many registers
  HeavyComplex,  // heavy for complex operands only (exp, log, sqrt)
};

// How a Reduce node combines elements: one row each in graph/reductions.def.
enum class ReduceKind : std::uint8_t {
#define LOOM_REDUCE(e, name, state, typed, result) e,
#include "graph/reductions.def"
#undef LOOM_REDUCE
};
struct ReduceInfo {
  ReduceKind kind;
  const char* name;
  const char* state;  // the prelude's state struct ("" for User)
  bool typed;         // state<register type>
  bool index;         // the result is an int64 position (else the accumulator's dtype)
};
const ReduceInfo& reduce_info(ReduceKind k);
inline const char* reduce_name(ReduceKind k) { return reduce_info(k).name; }

struct OpInfo {
  const char* name;  // NumPy's name ("add"), used in kernel names and printing
  OpClass cls;
  int arity;
  TypeRule rule;
  OpCost cost;
  const char* cuda;      // CUDA expression pattern (elementwise only)
  const char* cuda_int;  // pattern for bool/integer compute dtypes, "" when the same
};
const OpInfo& op_info(Op op);
inline const char* op_name(Op op) { return op_info(op).name; }
inline bool is_leaf(Op op) { return op_info(op).cls == OpClass::Leaf; }
inline bool is_view(Op op) { return op_info(op).cls == OpClass::View; }
inline bool is_elementwise(Op op) { return op_info(op).cls == OpClass::Elementwise; }
inline bool is_reduction(Op op) { return op_info(op).cls == OpClass::Reduction; }
int num_ops();

struct Node;
using NodeRef = std::shared_ptr<const Node>;

// Op::User's payload: a block of C++ statements that sets "@out@" (the value), in which
// "@in<k>@" stands for input k's value; code to put before the kernel (the user's preamble; kernels sharing one keep one copy),
// and a hash of both and the name: part of every key a kernel or an executable is cached by.
struct UserOp {
  std::string kind = "ElementwiseKernel";  // whose code it is, for messages
  std::string name;
  std::string expr;
  std::string preamble;
  // NVRTC options the user's code is compiled with: the kernel holding it is compiled with them,
  // and holds no node compiled otherwise (codegen/partition.cpp cuts around it).
  std::vector<std::string> options;
  std::uint64_t hash = 0;
};

// What eval() leaves behind on a node: where its values are (a kernel's output is
// C-contiguous; a view of an evaluated array keeps the view's layout).
struct Realized {
  std::shared_ptr<Storage> storage;
  Shape strides;  // in elements
  std::int64_t offset = 0;
};

struct Node {
  Op op = Op::Constant;
  DType dtype = DType::Float64;
  Shape shape;
  std::array<NodeRef, 3> inputs;
  int num_inputs = 0;

  // Payloads (which ones are meaningful depends on op). Elementwise nodes, the most numerous,
  // carry only `value`-less inline data; the rest sits out of line (keeps graphs small).
  Scalar value;       // Constant; Arange/Linspace: start
  bool weak = false;  // Constant made from a C++ number (NEP 50)
  bool force_materialize = false;  // Copy: cut fusion here (reshape of a non-viewable layout)
  bool has_call = false;  // a library call is reachable (exec runs calls before planning)
  // A hash of the node's structure and payload through its inputs' (never of an address but a
  // buffer's memory): where graph/intern.cpp looks for an equal node.
  std::uint64_t structure_hash = 0;
  // The user's line that built the node (graph/site.hpp; line() == 0 when none): metadata for
  // memory profiles, in no key or hash. An equal node built earlier keeps its own line.
  std::source_location site;

  struct Extra {
    Scalar value2;       // Arange/Linspace: step
    Scalar value3;       // Linspace: stop; Arange (floats): NumPy's second element
    std::int64_t k = 0;  // Eye: diagonal offset; Linspace: 1 when endpoint
    IndexMap map;        // View
    ReduceKind reduce = ReduceKind::Sum;  // Reduce
    std::uint32_t axes = 0;               // Reduce: bit i set when input dim i is reduced
    std::shared_ptr<Storage> storage;  // Buffer
    Shape strides;                     // Buffer: in elements
    std::int64_t offset = 0;           // Buffer: in elements
    std::shared_ptr<const CallSpec> call;  // Call
    std::shared_ptr<const UserOp> user;    // User
  };
  const Scalar& value2() const { return extra().value2; }
  const Scalar& value3() const { return extra().value3; }
  std::int64_t k() const { return extra().k; }
  const IndexMap& map() const { return extra().map; }
  ReduceKind reduce_kind() const { return extra().reduce; }
  std::uint32_t axes() const { return extra().axes; }
  bool reduces(int dim) const { return (extra().axes >> dim) & 1u; }
  const std::shared_ptr<Storage>& storage() const { return extra().storage; }
  const Shape& strides() const { return extra().strides; }
  std::int64_t offset() const { return extra().offset; }
  const std::shared_ptr<const CallSpec>& call() const { return extra().call; }
  const std::shared_ptr<const UserOp>& user() const { return extra().user; }
  Extra& mutable_extra();  // for the factories, while the node is being built

  // User-provided, so that make_shared does not zero the whole node before the member
  // initializers run (a node is built on every operation: bench_host).
  Node() {}  // NOLINT(modernize-use-equals-default)
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  // Releases long input chains iteratively: a loop of x = x + 1 builds deep graphs.
  ~Node();

  const Node& in(int i) const { return *inputs[static_cast<std::size_t>(i)]; }
  std::int64_t numel() const { return shape.numel(); }

  // The evaluated result, once there is one (set by exec, read by every later plan). Set once:
  // it lives as long as the node, so the pointer is good while the caller holds the node. A
  // plain load, no reference count: plans and fingerprints ask this of every node.
  const Realized* realized() const { return realized_raw_.load(std::memory_order_acquire); }
  // The first result set wins; a later one (two threads evaluating one node) is dropped.
  void set_realized(std::shared_ptr<const Realized> r) const;

 private:
  const Extra& extra() const { return extra_ ? *extra_ : empty_extra(); }
  static const Extra& empty_extra();
  std::unique_ptr<Extra> extra_;
  mutable std::atomic<bool> realized_claimed_{false};
  mutable std::shared_ptr<const Realized> realized_;  // written once, before realized_raw_
  mutable std::atomic<const Realized*> realized_raw_{nullptr};
};

// A dtype outside the enum (DType(99)) is a DTypeError naming the op: checked where a DType
// enters loom from the user.
void check_dtype(DType dtype, const char* op);
// The byte size of an array of `shape` and `dtype`, with NumPy's ValueError "array is too big"
// when the extents' product or the byte count does not fit in int64 (zero extents skipped, as
// NumPy does), and a ValueError for a negative extent. Every node is checked when it is made.
std::int64_t checked_nbytes(const Shape& shape, DType dtype, const char* op);

// --- factories: each checks invariants (LOOM_CHECK), not user errors (but see new_node's size
// check, the one guard every array passes); the node returned may be an equal live node built
// earlier on this thread (graph/intern.hpp) ---
NodeRef make_buffer(std::shared_ptr<Storage> storage, DType dtype, const Shape& shape,
                    const Shape& strides, std::int64_t offset);
NodeRef make_constant(const Scalar& value, bool weak);  // 0-d, value.dtype
// Arange: value[i] = start + i * step, except value[1] = second (NumPy's float fill; the
// integer aranges pass start + step).
NodeRef make_arange(const Scalar& start, const Scalar& step, std::int64_t n, DType dtype, const Scalar& second);
NodeRef make_linspace(const Scalar& start, const Scalar& step, const Scalar& stop, std::int64_t n,
                      bool endpoint, DType dtype);
NodeRef make_eye(std::int64_t n, std::int64_t m, std::int64_t k, DType dtype);
NodeRef make_view(NodeRef input, const IndexMap& map, const Shape& shape);
NodeRef make_reshape(NodeRef input, const Shape& shape);
NodeRef make_cast(NodeRef input, DType dtype);
NodeRef make_elementwise(Op op, DType dtype, const Shape& shape, NodeRef a, NodeRef b = nullptr,
                         NodeRef c = nullptr);
NodeRef make_copy(NodeRef input, bool force_materialize);
// out[i] = source.flat[index[i]]: index int64 in [0, source.numel()), out of index's shape and
// source's dtype (the bounds are the builder's to check).
NodeRef make_gather(NodeRef source, NodeRef index);
// Input `piece` placed at `start` in `mask`'s shape (Op::Place), over `base` (null: zeros).
NodeRef make_place(NodeRef piece, NodeRef mask, NodeRef base, const Shape& start);
// A user's elementwise op (Op::User) of up to 3 inputs of `shape` (or 0-d constants).
NodeRef make_user(std::shared_ptr<const UserOp> op, DType dtype, const Shape& shape, std::vector<NodeRef> inputs);
// A reduction of `input` over the dims in `axes` (a bit mask); output dtype as described at
// Op::Reduce. ddof: Variance only.
NodeRef make_reduce(NodeRef input, ReduceKind kind, std::uint32_t axes, std::int64_t ddof = 0);
// ReduceKind::User over `axes` of `input`, its state defined by `op` (see ReduceKind::User).
NodeRef make_user_reduce(NodeRef input, std::uint32_t axes, std::shared_ptr<const UserOp> op);

// A user node whose code is compiled with NVRTC options of its own.
inline bool has_user_options(const Node& n) { return n.op == Op::User && !n.user()->options.empty(); }

// An evaluated node as a Buffer leaf over its result (a Buffer, or a node not evaluated, as it is).
NodeRef as_leaf(const NodeRef& n);

// A node with its evaluated result counts as a leaf for every later plan.
inline bool acts_as_leaf(const Node& n) { return is_leaf(n.op) || n.realized() != nullptr; }

// The memory a node's values are in: its evaluated result's, or a Buffer's; null otherwise.
inline const Storage* buffer_storage(const Node& n) {
  if (const Realized* r = n.realized()) return r->storage.get();
  if (n.op == Op::Buffer) return n.storage().get();
  return nullptr;
}

std::string to_string(const Node& n);  // "add float32[3, 4] (#12, #13)"

}  // namespace loom::detail
