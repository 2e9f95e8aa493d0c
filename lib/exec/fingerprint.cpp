#include "exec/fingerprint.hpp"

#include <bit>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "graph/payload.hpp"

namespace loom::exec {

using detail::Node;
using detail::NodeRef;
using detail::Op;

namespace {

// The fingerprint's bytes, written through a raw pointer into a buffer on the stack (a heap one
// past it), then copied into the string once: a node's record is at most kMaxRecord bytes, and
// room for one is made before it is written (one check per node, not per byte). Small integers
// take a byte; others a marker byte and eight.
class Writer {
 public:
  static constexpr std::size_t kMaxRecord = 64 + 9 * 6 * kMaxDims;
  explicit Writer(std::string& s) : s_(s) {}
  ~Writer() { s_.assign(p_, pos_); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  void room() {
    if (pos_ + kMaxRecord <= cap_) return;
    cap_ = 2 * (pos_ + kMaxRecord);
    auto bigger = std::make_unique_for_overwrite<char[]>(cap_);
    std::memcpy(bigger.get(), p_, pos_);
    big_ = std::move(bigger);
    p_ = big_.get();
  }
  void put(std::int64_t v) {
    char* p = p_ + pos_;
    if (v >= -100 && v < 127) {
      *p = static_cast<char>(v);
      pos_ += 1;
    } else {
      *p = static_cast<char>(127);
      std::memcpy(p + 1, &v, sizeof v);
      pos_ += 1 + sizeof v;
    }
  }
  void put_shape(const Shape& sh) {
    put(sh.size());
    for (std::int64_t d : sh) put(d);
  }

 private:
  std::string& s_;
  char small_[2 * kMaxRecord];
  std::unique_ptr<char[]> big_;
  char* p_ = small_;
  std::size_t cap_ = sizeof small_;
  std::size_t pos_ = 0;
};

// log2 of the alignment of an address, up to 16 bytes (the widest vector access).
int alignment_class(const void* p) { return std::countr_zero(reinterpret_cast<std::uintptr_t>(p) | 16u); }

// Numbering of nodes (and of storages): small graphs by linear search, large ones through a map.
template <class T> class Numbering {
 public:
  Numbering() { nodes_.reserve(16); }
  int find(const T* n) const {
    if (map_.empty()) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (nodes_[i] == n) return static_cast<int>(i);
      }
      return -1;
    }
    auto it = map_.find(n);
    return it == map_.end() ? -1 : it->second;
  }
  int add(const T* n) {
    nodes_.push_back(n);
    const int id = static_cast<int>(nodes_.size()) - 1;
    if (!map_.empty()) {
      map_.emplace(n, id);
    } else if (nodes_.size() > 64) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) map_.emplace(nodes_[i], static_cast<int>(i));
    }
    return id;
  }
  // The number of n, numbered now when new.
  int of(const T* n) {
    const int id = find(n);
    return id >= 0 ? id : add(n);
  }
  std::vector<const T*>& nodes() { return nodes_; }

 private:
  std::vector<const T*> nodes_;
  std::unordered_map<const T*, int> map_;
};

// A node's payload as the fingerprint holds it (graph/payload.hpp): structure and layout; of a
// buffer's memory, its alignment and which storage it is among the graph's (views of one array
// share a pointer in kernels: codegen::Leaf::share); not values (kernel arguments), nor the
// shape again (every record has it).
struct Structure {
  Writer& b;
  Numbering<detail::Storage>& storages;
  void operator()(detail::Field f, const Shape& s) {
    if (f != detail::Field::Shape) b.put_shape(s);
  }
  void operator()(detail::Field, const detail::IndexMap& m) {
    b.put(m.in_ndim);
    for (int i = 0; i < m.out_ndim; ++i) {
      b.put(m.dim[i]);
      b.put(m.coef[i]);
    }
    for (int k = 0; k < m.in_ndim; ++k) b.put(m.offset[k]);
  }
  void operator()(detail::Field f, std::int64_t v) {
    if (f != detail::Field::Value) b.put(v);
  }
  void operator()(detail::Field f, bool v) {
    if (f != detail::Field::Value) b.put(v);
  }
  void operator()(detail::Field, std::uint32_t v) { b.put(v); }
  void operator()(detail::Field, detail::ReduceKind k) { b.put(static_cast<int>(k)); }
  void operator()(detail::Field, const Scalar&) {}  // values only
  void operator()(detail::Field, const std::shared_ptr<const detail::UserOp>& u) {
    b.put(u ? static_cast<std::int64_t>(u->hash) : 0);  // the user's code decides the kernel
  }
  void operator()(detail::Field, const std::shared_ptr<detail::Storage>& s) {
    b.put(alignment_class(s->data()));
    b.put(storages.of(s.get()));
  }
  void operator()(detail::Field, const std::shared_ptr<const detail::CallSpec>&) {}  // run before planning
};

}  // namespace

Fingerprint fingerprint(std::span<const NodeRef> outputs, bool fusion, int max_kernel_ops, int device,
                        bool through_calls) {
  Fingerprint f;
  {
    Writer b(f.bytes);
    b.room();
    b.put(through_calls ? 's' : 'f');
    b.put(fusion);
    b.put(max_kernel_ops);
    b.put(device);
    // Nodes are numbered when first seen (so a deep graph costs O(n)); each node's record is
    // written after its inputs', naming them by number: a canonical encoding of the graph.
    Numbering<Node> num;
    // Which buffer nodes share storage (views of one array: the storage's number in order of
    // first appearance): kernels read them through one pointer (codegen::Leaf::share).
    Numbering<detail::Storage> storages;
    Numbering<detail::CallSpec> calls;  // through_calls
    // A call not yet run, followed into its inputs (through_calls).
    const auto open_call = [&](const Node* n) { return through_calls && n->op == Op::Call && !n->realized(); };
    const auto num_inputs = [&](const Node* n) {
      return open_call(n) ? static_cast<int>(n->call()->inputs.size()) : n->num_inputs;
    };
    const auto input = [&](const Node* n, int i) -> const NodeRef& {
      return open_call(n) ? n->call()->inputs[static_cast<std::size_t>(i)] : n->inputs[static_cast<std::size_t>(i)];
    };
    std::vector<std::pair<const Node*, int>> stack;
    stack.reserve(16);
    for (const NodeRef& o : outputs) {
      if (num.find(o.get()) < 0) {
        num.add(o.get());
        if (through_calls) f.refs.push_back(&o);
        stack.emplace_back(o.get(), 0);
        while (!stack.empty()) {
          auto& [n, next] = stack.back();
          const detail::Realized* r = n->realized();
          if (!r && (!detail::is_leaf(n->op) || open_call(n)) && next < num_inputs(n)) {
            const NodeRef& ref = input(n, next++);
            const Node* in = ref.get();
            if (num.find(in) < 0) {
              num.add(in);
              if (through_calls) f.refs.push_back(&ref);
              stack.emplace_back(in, 0);
            }
            continue;
          }
          b.room();
          b.put(-51);
          b.put(num.find(n));
          b.put(static_cast<int>(r ? Op::Buffer : n->op));
          b.put(static_cast<int>(n->dtype));
          b.put_shape(n->shape);
          Structure visit{b, storages};
          if (r) {  // an evaluated node: a buffer's payload
            visit(detail::Field::Layout, r->strides);
            visit(detail::Field::Layout, r->offset);
            visit(detail::Field::Identity, r->storage);
          } else {
            const int count = num_inputs(n);
            b.put(count);
            for (int i = 0; i < count; ++i) {
              if (i >= 3) b.room();  // a call's inputs may be many (a record holds 3)
              b.put(num.find(input(n, i).get()));
            }
            detail::for_each_payload(visit, *n);
            if (open_call(n)) {  // which call, which of its outputs, what it reads how
              const detail::CallSpec& c = *n->call();
              b.put(calls.of(&c));
              b.put(n->k());
              b.put(static_cast<std::int64_t>(c.outputs.size()));
              b.put(static_cast<std::int64_t>(c.layouts.size()));
              for (detail::InputLayout l : c.layouts) {
                b.room();
                b.put(static_cast<int>(l));
              }
            }
          }
          stack.pop_back();
        }
      }
      b.room();
      b.put(-50);
      b.put(num.find(o.get()));
    }
    f.nodes = std::move(num.nodes());
  }
  return f;
}

}  // namespace loom::exec
