#include "codegen/kernel_args.hpp"

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::codegen {

KernelArgs::KernelArgs(std::vector<Param> candidates)
    : candidates_(std::move(candidates)), read_(candidates_.size(), false) {}

std::string KernelArgs::field(std::string_view name) {
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    if (candidates_[i].name != name) continue;
    if (held_) {
      held_->push_back(static_cast<int>(i));
    } else {
      read_[i] = true;
    }
    return fmt::format("a.{}", name);
  }
  throw InternalError(fmt::format("internal: a kernel reads the argument {}, which its plan does not have", name));
}

void KernelArgs::keep(const Held& h) {
  for (int i : h) read_[static_cast<std::size_t>(i)] = true;
}

std::vector<Param> KernelArgs::read() const {
  std::vector<Param> ps;
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    if (read_[i]) ps.push_back(candidates_[i]);
  }
  return ps;
}

}  // namespace loom::codegen
