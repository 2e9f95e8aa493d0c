#include "graph/intern.hpp"

#include <bit>
#include <cstring>
#include <vector>

#include <loom/errors.hpp>

#include "graph/payload.hpp"

namespace loom::detail {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

std::uint64_t bits_of(const Scalar& s) {
  std::uint64_t h = mix(static_cast<std::uint64_t>(s.dtype), s.weak);
  switch (kind(s.dtype)) {
    case DKind::Bool:
    case DKind::Signed: return mix(h, static_cast<std::uint64_t>(s.i));
    case DKind::Unsigned: return mix(h, s.u);
    case DKind::Float: return mix(h, std::bit_cast<std::uint64_t>(s.f));
    case DKind::Complex:
      return mix(mix(h, std::bit_cast<std::uint64_t>(s.c.real())), std::bit_cast<std::uint64_t>(s.c.imag()));
  }
  return h;
}

// Values equal bit for bit (0.0 and -0.0 differ; a NaN equals the same NaN).
bool same_value(const Scalar& a, const Scalar& b) {
  if (a.dtype != b.dtype || a.weak != b.weak) return false;
  switch (kind(a.dtype)) {
    case DKind::Bool:
    case DKind::Signed: return a.i == b.i;
    case DKind::Unsigned: return a.u == b.u;
    case DKind::Float: return std::bit_cast<std::uint64_t>(a.f) == std::bit_cast<std::uint64_t>(b.f);
    case DKind::Complex:
      return std::bit_cast<std::uint64_t>(a.c.real()) == std::bit_cast<std::uint64_t>(b.c.real()) &&
             std::bit_cast<std::uint64_t>(a.c.imag()) == std::bit_cast<std::uint64_t>(b.c.imag());
  }
  return false;
}

// A table slot from a hash: the murmur3 finalizer spreads every bit into the low ones (mix()
// alone leaves them weak, and equal low bits collide).
std::size_t slot_of(std::uint64_t h, std::size_t slots) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return static_cast<std::size_t>(h) & (slots - 1);
}

std::uint64_t hash_shape(std::uint64_t h, const Shape& shape) {
  for (std::int64_t d : shape) h = mix(h, static_cast<std::uint64_t>(d));
  return h;
}

// The structure hash: the op, dtype and inputs' hashes, then the payload (graph/payload.hpp)
// with every field but an elementwise node's or reduction's shape (it follows from the inputs).
struct Hasher {
  std::uint64_t h;
  void operator()(Field, const Shape& s) { h = hash_shape(h, s); }
  void operator()(Field, const Scalar& s) { h = mix(h, bits_of(s)); }
  void operator()(Field, const IndexMap& m) {
    for (int i = 0; i < m.out_ndim; ++i) h = mix(mix(h, static_cast<std::uint64_t>(m.dim[i])), static_cast<std::uint64_t>(m.coef[i]));
    for (int k = 0; k < m.in_ndim; ++k) h = mix(h, static_cast<std::uint64_t>(m.offset[k]));
  }
  void operator()(Field, bool v) { h = mix(h, v); }
  void operator()(Field, std::int64_t v) { h = mix(h, static_cast<std::uint64_t>(v)); }
  void operator()(Field, std::uint32_t v) { h = mix(h, v); }
  void operator()(Field, ReduceKind k) { h = mix(h, static_cast<std::uint64_t>(k)); }
  // Which memory: the one place an address enters (it picks a table slot, never a plan).
  void operator()(Field, const std::shared_ptr<Storage>& s) { h = mix(h, reinterpret_cast<std::uintptr_t>(s.get())); }
  void operator()(Field, const std::shared_ptr<const UserOp>& u) { h = mix(h, u ? u->hash : 0); }
  void operator()(Field, const std::shared_ptr<const CallSpec>&) {}  // calls are never merged
};

std::uint64_t hash_of(const Node& n) {
  Hasher h{(static_cast<std::uint64_t>(n.op) << 8) | static_cast<std::uint64_t>(n.dtype)};
  for (int i = 0; i < n.num_inputs; ++i) h.h = mix(h.h, n.inputs[static_cast<std::size_t>(i)]->structure_hash);
  for_each_payload(h, n);
  return h.h;
}

// The structure hash of a 0-d constant, computable before the node is built (make_constant's
// probe of the table): that of a node on the stack.
std::uint64_t hash_constant(const Scalar& value, bool weak) {
  Node probe;
  probe.op = Op::Constant;
  probe.dtype = value.dtype;
  probe.value = value;
  probe.weak = weak;
  return hash_of(probe);
}

// Equal: the same op, dtype, shape and input nodes, and every payload field equal (values bit
// for bit, memory by identity).
struct Same {
  bool all = true;
  void operator()(Field, const Scalar& a, const Scalar& b) { all = all && same_value(a, b); }
  template <class T> void operator()(Field, const T& a, const T& b) { all = all && a == b; }
};

bool same_node(const Node& a, const Node& b) {
  if (a.op != b.op || a.dtype != b.dtype || !(a.shape == b.shape) || a.num_inputs != b.num_inputs) return false;
  for (int i = 0; i < a.num_inputs; ++i) {
    if (a.inputs[static_cast<std::size_t>(i)] != b.inputs[static_cast<std::size_t>(i)]) return false;
  }
  Same same;
  for_each_payload(same, a, b);
  return same.all;
}

bool mergeable(Op op) {
  switch (op) {
    case Op::Call:  // its own call (two draws differ)
    case Op::User:  // (the user's code may not be a function of its inputs alone)
      return false;
    case Op::Buffer:  // one memory (storage compared by identity: empty() twice is two arrays)
    case Op::Constant:
    case Op::Arange:
    case Op::Linspace:
    case Op::Eye:
    case Op::View:
    case Op::Reshape:
    case Op::Reduce:
case Op::Gather:
case Op::Place:
#include "graph/elementwise_cases.inc"
      return true;
  }
  return false;
}

// A small two-way set-associative cache of recently built nodes, indexed by structure hash: a
// probe and a store per node built (graph building stays near 0.2 us a node). Duplicates are
// built close together (the same subexpression written twice), so a small table finds them; a
// node pushed out of its set by two later ones is simply not merged (its value is the same
// either way: fused and unfused results are bit-identical). A buffer's hash holds its storage's
// address, so which sets collide varies from run to run: two ways per set keep the nodes of one
// expression (softmax: a dozen) from pushing each other out (one way lost about 3% of softmaxes
// built twice).
class Table {
 public:
  ~Table() { t_gone = true; }
  NodeRef intern(std::shared_ptr<Node> n) {
    const std::uint64_t h = hash_of(*n);
    n->structure_hash = h;
    Slot* set = &slots_[2 * slot_of(h, kSets)];
    for (int w = 0; w < 2; ++w) {
      if (set[w].hash != h) continue;
      if (NodeRef live = set[w].node.lock(); live && same_node(*live, *n)) {
        ++hits_;
        return live;
      }
    }
    // The newest in way 0, the one before it in way 1 (unless way 0 held a dead node).
    if (!set[0].node.expired()) set[1] = std::move(set[0]);
    set[0].hash = h;
    set[0].node = n;
    return n;
  }
  // The live 0-d constant of this value, if the table holds one (looked up before allocating).
  NodeRef constant(const Scalar& value, bool weak) {
    const std::uint64_t h = hash_constant(value, weak);
    const Slot* set = &slots_[2 * slot_of(h, kSets)];
    for (int w = 0; w < 2; ++w) {
      if (set[w].hash != h) continue;
      NodeRef live = set[w].node.lock();
      if (!live || live->op != Op::Constant || !live->shape.empty() || live->weak != weak ||
          !same_value(live->value, value)) {
        continue;
      }
      ++hits_;
      return live;
    }
    return nullptr;
  }
  std::uint64_t hits() const { return hits_; }
  static thread_local bool t_gone;  // set once the thread's table is destroyed

 private:
  static constexpr std::size_t kSets = 1024;
  static constexpr std::size_t kSlots = 2 * kSets;
  struct Slot {
    std::uint64_t hash = 0;
    std::weak_ptr<const Node> node;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
  std::uint64_t hits_ = 0;
};
thread_local bool Table::t_gone = false;

thread_local Table t_table;

}  // namespace

NodeRef intern(std::shared_ptr<Node> n) {
  // Not during thread teardown (a node built by a destructor after the table is gone).
  if (Table::t_gone || !mergeable(n->op)) {
    n->structure_hash = hash_of(*n);
    return n;
  }
  return t_table.intern(std::move(n));
}

NodeRef interned_constant(const Scalar& value, bool weak) {
  if (Table::t_gone) return nullptr;
  return t_table.constant(value, weak);
}

std::uint64_t interned_hits() { return Table::t_gone ? 0 : t_table.hits(); }

}  // namespace loom::detail
