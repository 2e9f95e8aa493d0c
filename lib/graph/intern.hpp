#pragma once
// Hash-consing (issue 13's common subexpressions): a node built equal to a live node built on the
// same thread is that node, so `max(m, 1, true)` written twice is one reduction, and every pass
// after (partition, plans, executables) sees work once. Equal means the same op, dtype, shape,
// input nodes and payload (values compared bit for bit: 0.0 is not -0.0; a buffer's memory by
// identity, with its strides and offset); library calls are never merged (two draws differ).
// The table is a small per-thread cache of weak references indexed by structure: duplicates
// built close together (the usual case) are found.

#include <memory>

#include "graph/node.hpp"

namespace loom::detail {

// The live node equal to `n` (just built by a factory, not yet shared), or n itself, recorded.
NodeRef intern(std::shared_ptr<Node> n);

// The live 0-d constant node of this value built on this thread, if the table still holds it
// (probed before a new one is allocated: scalars repeat most).
NodeRef interned_constant(const Scalar& value, bool weak);

// Nodes merged so far on this thread (tests).
std::uint64_t interned_hits();

}  // namespace loom::detail
