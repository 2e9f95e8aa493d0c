#pragma once
// Hash-consing (issue 13's common subexpressions): a node built equal to a live node built on the
// same thread is that node, so `max(m, 1, true)` written twice is one reduction, and every pass
// after (partition, plans, executables) sees work once. Equal means the same op, dtype, shape,
// input nodes and payload (values compared bit for bit: 0.0 is not -0.0; a buffer's memory by
// identity, with its strides and offset); library calls are never merged (two draws differ).
// The table holds weak references only.

#include <memory>

#include "graph/node.hpp"

namespace loom::detail {

// The live node equal to `n` (just built by a factory, not yet shared), or n itself, recorded.
NodeRef intern(std::shared_ptr<Node> n);

// Nodes merged so far on this thread (tests).
std::uint64_t interned_hits();

}  // namespace loom::detail
