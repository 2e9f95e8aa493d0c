#include "graph/intern.hpp"

#include <bit>
#include <cstring>
#include <vector>

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

std::uint64_t hash_of(const Node& n) {
  std::uint64_t h = mix(static_cast<std::uint64_t>(n.op), static_cast<std::uint64_t>(n.dtype));
  for (std::int64_t d : n.shape) h = mix(h, static_cast<std::uint64_t>(d));
  for (int i = 0; i < n.num_inputs; ++i) {
    h = mix(h, reinterpret_cast<std::uintptr_t>(n.inputs[static_cast<std::size_t>(i)].get()));
  }
  h = mix(h, bits_of(n.value));
  h = mix(h, (n.weak ? 1u : 0u) | (n.force_materialize ? 2u : 0u));
  if (n.op == Op::Buffer) {
    h = mix(mix(h, reinterpret_cast<std::uintptr_t>(n.storage().get())), static_cast<std::uint64_t>(n.offset()));
    for (std::int64_t st : n.strides()) h = mix(h, static_cast<std::uint64_t>(st));
  }
  if (n.op == Op::View) {
    for (int i = 0; i < n.map().out_ndim; ++i) h = mix(mix(h, n.map().dim[i]), n.map().coef[i]);
    for (int k = 0; k < n.map().in_ndim; ++k) h = mix(h, n.map().offset[k]);
  }
  return mix(mix(h, n.k()), n.axes() | (static_cast<std::uint64_t>(n.reduce_kind()) << 32));
}

bool same_node(const Node& a, const Node& b) {
  if (a.op != b.op || a.dtype != b.dtype || !(a.shape == b.shape) || a.num_inputs != b.num_inputs ||
      a.weak != b.weak || a.force_materialize != b.force_materialize || !same_value(a.value, b.value)) {
    return false;
  }
  for (int i = 0; i < a.num_inputs; ++i) {
    if (a.inputs[static_cast<std::size_t>(i)] != b.inputs[static_cast<std::size_t>(i)]) return false;
  }
  return same_value(a.value2(), b.value2()) && same_value(a.value3(), b.value3()) && a.k() == b.k() &&
         a.map() == b.map() && a.reduce_kind() == b.reduce_kind() && a.axes() == b.axes() &&
         a.storage() == b.storage() && a.strides() == b.strides() && a.offset() == b.offset();
}

bool mergeable(Op op) {
  switch (op) {
    case Op::Call:  // its own call (two draws differ)
      return false;
    case Op::Buffer:  // one memory (storage compared by identity: empty() twice is two arrays)
    case Op::Constant:
    case Op::Arange:
    case Op::Linspace:
    case Op::Eye:
    case Op::View:
    case Op::Reshape:
    case Op::Reduce:
#include "graph/elementwise_cases.inc"
      return true;
  }
  return false;
}

// Open addressing, linear probing, no eviction (so whether two equal nodes merge never depends
// on addresses or on what else was built): dead entries are dropped when the table is rebuilt,
// which happens when it is half full, at twice the size of what is still alive.
class Table {
 public:
  ~Table() { t_gone = true; }
  NodeRef intern(std::shared_ptr<Node> n) {
    const std::uint64_t h = hash_of(*n);
    if (used_ * 2 >= slots_.size()) rebuild();
    const std::size_t mask = slots_.size() - 1;
    std::size_t free = slots_.size();
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) {
        if (free == slots_.size()) {
          free = i;
          ++used_;
        }
        break;
      }
      if (s.hash != h) continue;
      NodeRef live = s.node.lock();
      if (!live) {
        if (free == slots_.size()) free = i;
        continue;
      }
      if (same_node(*live, *n)) {
        ++hits_;
        return live;
      }
    }
    slots_[free] = Slot{true, h, n};
    return n;
  }
  std::uint64_t hits() const { return hits_; }
  static thread_local bool t_gone;  // set once the thread's table is destroyed

 private:
  struct Slot {
    bool used = false;
    std::uint64_t hash = 0;
    std::weak_ptr<const Node> node;
  };
  void rebuild() {
    std::vector<Slot> old = std::move(slots_);
    std::size_t live = 0;
    for (const Slot& s : old) live += s.used && !s.node.expired();
    slots_.assign(std::max<std::size_t>(std::bit_ceil(4 * live + 4), 1024), Slot{});
    used_ = 0;
    const std::size_t mask = slots_.size() - 1;
    for (Slot& s : old) {
      if (!s.used || s.node.expired()) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = std::move(s);
      ++used_;
    }
  }
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
  std::uint64_t hits_ = 0;
};
thread_local bool Table::t_gone = false;

thread_local Table t_table;

}  // namespace

NodeRef intern(std::shared_ptr<Node> n) {
  // Not during thread teardown (a node built by a destructor after the table is gone).
  if (Table::t_gone || !mergeable(n->op)) return n;
  return t_table.intern(std::move(n));
}

std::uint64_t interned_hits() { return Table::t_gone ? 0 : t_table.hits(); }

}  // namespace loom::detail
