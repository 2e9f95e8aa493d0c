#pragma once
// The user's source line that loom's work serves (memory profiling, include/loom/memory.hpp).
// Public functions that take a std::source_location open a SiteScope; the outermost one on a
// thread wins, so a composite (var built of mean, subtract, square) names the user's line, not
// its own. new_node stamps the current line into every node it makes (Node::site), and the
// allocator of evaluated arrays names the node's line, else the line that evaluates it.

#include <source_location>

namespace loom::detail {

// line() == 0: no public function with a line is running on this thread.
const std::source_location& current_site();

class SiteScope {
 public:
  explicit SiteScope(const std::source_location& where);
  ~SiteScope();
  SiteScope(const SiteScope&) = delete;
  SiteScope& operator=(const SiteScope&) = delete;

 private:
  bool set_ = false;
};

}  // namespace loom::detail
