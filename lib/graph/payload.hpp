#pragma once
// A node's payload, listed once: which of a Node's fields mean something for its op, and what
// each is to a key. The structure hash and the equality of hash-consing (graph/intern.cpp) and
// the executable cache's fingerprint (exec/fingerprint.cpp) are all derived from this one list,
// so a new payload field is added here and nowhere else (the switch has no default: a new op
// breaks the build here).
//
// The common part (op, dtype, input nodes) is each consumer's own: the hash mixes the inputs'
// hashes, equality compares the input pointers, the fingerprint names the inputs by number.

#include <cstdint>
#include <tuple>

#include "graph/node.hpp"

namespace loom::detail {

enum class Field : std::uint8_t {
  // A leaf's, view's or reshape's shape (an elementwise node's or a reduction's follows from its
  // inputs: the hash leaves it out, equality and the fingerprint compare every shape anyway).
  Shape,
  Structure,  // decides the generated kernel: a view's map, a reduction's kind and axes, user code, a cut
  Value,      // a kernel argument, not structure: a scalar, a generator's parameters, ddof
  Layout,     // a buffer's strides and offset: structure that is also a buffer's identity
  Identity,   // compared by identity: a buffer's memory, a library call's spec
};

// Calls f(Field, field of each of n...) for every payload field of the op of the first node
// (all nodes share it: callers compare ops first). One node: a hash or a fingerprint; two:
// equality, field by field.
template <class F, class... N> void for_each_payload(F&& f, const N&... n) {
  const Node& first = std::get<0>(std::tie(n...));
  switch (first.op) {
    case Op::Constant:
      f(Field::Shape, n.shape...);
      f(Field::Value, n.value...);
      f(Field::Value, n.weak...);
      return;
    case Op::Buffer:
      f(Field::Shape, n.shape...);
      f(Field::Layout, n.strides()...);
      f(Field::Layout, n.offset()...);
      f(Field::Identity, n.storage()...);
      return;
    case Op::Arange:    // start, step, NumPy's second element
    case Op::Linspace:  // start, step, stop, endpoint (k)
    case Op::Eye:       // k: the diagonal
    case Op::Call:      // k: which output
      f(Field::Shape, n.shape...);
      f(Field::Value, n.value...);
      f(Field::Value, n.value2()...);
      f(Field::Value, n.value3()...);
      f(Field::Value, n.k()...);
      if (first.op == Op::Call) f(Field::Identity, n.call()...);
      return;
    case Op::View:
    case Op::Place:
      f(Field::Shape, n.shape...);
      f(Field::Structure, n.map()...);
      return;
    case Op::Reshape: f(Field::Shape, n.shape...); return;
    case Op::Reduce:
      f(Field::Structure, n.reduce_kind()...);
      f(Field::Structure, n.axes()...);
      f(Field::Structure, n.user()...);  // a ReductionKernel's state
      f(Field::Value, n.k()...);         // Variance: ddof
      return;
    case Op::User: f(Field::Structure, n.user()...); return;  // the user's code
    case Op::Gather:
#include "graph/elementwise_cases.inc"
      f(Field::Structure, n.force_materialize...);  // a copy that cuts fusion is another node
      return;
  }
}

}  // namespace loom::detail
