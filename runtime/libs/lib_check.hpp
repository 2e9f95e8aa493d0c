#pragma once
// Status checks for NVIDIA's libraries (cuBLAS, cuSOLVER, cuSPARSE, cuRAND), like
// LOOM_CHECK_CUDA: the returned status is reported with the call's text (STYLE.md habit 8).
// Each library's wrapper passes a function naming its status values.

#include <string>

namespace loom::rt {

// Throws CudaError "<call> failed: <library> <status name> (<status>) at file:line"; an
// allocation failure status (alloc_failed) throws OutOfMemory instead.
[[noreturn]] void throw_library_error(const char* library, int status, const std::string& status_name,
                                      bool alloc_failed, const char* call, const char* file, int line);

}  // namespace loom::rt

// name_fn(status) -> const char*; alloc_status: the library's allocation-failure value.
#define LOOM_CHECK_LIBRARY(library, name_fn, alloc_status, expr)                               \
  do {                                                                                         \
    const auto loom_lib_status_ = (expr);                                                      \
    if (static_cast<int>(loom_lib_status_) != 0) {                                             \
      ::loom::rt::throw_library_error(library, static_cast<int>(loom_lib_status_),             \
                                      name_fn(loom_lib_status_),                               \
                                      loom_lib_status_ == (alloc_status), #expr, __FILE__, __LINE__); \
    }                                                                                          \
  } while (0)
