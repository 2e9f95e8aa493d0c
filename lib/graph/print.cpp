#include "graph/print.hpp"

#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace loom::detail {

std::string graph_to_string(std::span<const NodeRef> roots) {
  std::unordered_map<const Node*, int> number;
  std::vector<std::pair<const Node*, int>> stack;
  std::string out;
  for (const NodeRef& r : roots) {
    if (number.count(r.get())) continue;
    stack.emplace_back(r.get(), 0);
    number[r.get()] = -1;
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (!acts_as_leaf(*n) && next < n->num_inputs) {
        const Node* in = n->inputs[static_cast<std::size_t>(next++)].get();
        if (!number.count(in)) {
          number[in] = -1;
          stack.emplace_back(in, 0);
        }
        continue;
      }
      const int id = static_cast<int>(number.size()) - 1;
      int k = 0;
      for (auto& [node, num] : number) k += num >= 0;
      number[n] = k;
      out += fmt::format("%{} = {}", k, to_string(*n));
      if (!acts_as_leaf(*n) && n->num_inputs > 0) {
        out += " (";
        for (int i = 0; i < n->num_inputs; ++i) {
          out += fmt::format("{}%{}", i ? ", " : "", number[n->inputs[static_cast<std::size_t>(i)].get()]);
        }
        out += ")";
      }
      out += "\n";
      (void)id;
      stack.pop_back();
    }
  }
  return out;
}

}  // namespace loom::detail
