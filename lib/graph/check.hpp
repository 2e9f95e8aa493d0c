#pragma once
// LOOM_CHECK(cond, message): an internal invariant, checked in every build (Release too: it costs
// a compare and a branch). When it does not hold it throws loom::InternalError naming the
// condition, the message and where: a bug in loom, reported instead of running on with a broken
// graph or plan.

#include <string>

#include <loom/errors.hpp>

namespace loom::detail {
[[noreturn]] void internal_error(const char* condition, const std::string& message, const char* file, int line);
}  // namespace loom::detail

#define LOOM_CHECK(cond, message)                                                        \
  do {                                                                                   \
    if (!(cond)) [[unlikely]] ::loom::detail::internal_error(#cond, (message), __FILE__, __LINE__); \
  } while (false)
