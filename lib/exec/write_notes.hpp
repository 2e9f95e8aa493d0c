#pragma once
// What explain() says about a write: a write that could not go in place (lib/index/indexing.cpp)
// notes why on the node of its new value, and explain() prints the note beside the kernel that
// computes that node. Notes are kept for live nodes only (weak references, a few hundred at most).

#include <string>

#include "graph/node.hpp"

namespace loom::exec {

void note_write(const detail::NodeRef& result, std::string text);
// The note of a node ("" when none).
std::string write_note(const detail::Node& n);

}  // namespace loom::exec
