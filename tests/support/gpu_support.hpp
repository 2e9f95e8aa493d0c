#pragma once
// GPU test helpers: evaluate an expression on the GPU and with the host reference evaluator, and
// compare. The reference runs first (on the unevaluated graph); outputs are poisoned.

#include <string>
#include <vector>

#include <loom/loom.hpp>

#include "exec/realize.hpp"
#include "reference/evaluator.hpp"
#include "support/test_support.hpp"

namespace loom::test {

inline ref::HostArray reference_of(const Array& a) {
  const detail::NodeRef n[] = {a.node()};
  return ref::evaluate(n, exec::read_storage)[0];
}

inline ref::HostArray device_of(const Array& a) {
  const Array e = a.eval();
  const detail::Node& n = *e.node();
  return ref::gather(*n.storage(), n.dtype, n.shape, n.strides(), n.offset(), exec::read_storage);
}

// "" when the GPU result of `a` matches the reference evaluator's.
inline std::string check_gpu(const Array& a, double rtol = -1, double atol = -1) {
  exec::set_poison_outputs(true);
  const ref::HostArray want = reference_of(a);
  const ref::HostArray got = device_of(a);
  return compare(got, want, rtol, atol);
}

}  // namespace loom::test
