#include "runtime/libs/lib_check.hpp"

#include <fmt/format.h>

#include <loom/errors.hpp>

namespace loom::rt {

void throw_library_error(const char* library, int status, const std::string& status_name, bool alloc_failed,
                         const char* call, const char* file, int line) {
  const std::string msg =
      fmt::format("{} failed: {} {} ({}) at {}:{}", call, library, status_name, status, file, line);
  if (alloc_failed) throw OutOfMemory(msg, 0);
  throw CudaError(msg, status);
}

}  // namespace loom::rt
