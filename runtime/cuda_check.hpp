#pragma once
// Status checks for CUDA runtime and NVRTC calls (STYLE.md habit 8): the status is captured once
// and *that* status is reported with the call's text, never cudaGetLastError().

#include <string>

namespace loom::rt {

[[noreturn]] void throw_cuda_error(int status, const char* call, const char* file, int line);
[[noreturn]] void throw_nvrtc_error(int status, const char* call, const char* file, int line);
// For destructors, which must not throw: prints to stderr instead.
void report_cuda_error(int status, const char* call, const char* file, int line) noexcept;
std::string cuda_error_string(int status);

}  // namespace loom::rt

#define LOOM_CHECK_CUDA(expr)                                                               \
  do {                                                                                      \
    const auto loom_status_ = (expr);                                                       \
    if (loom_status_ != 0) {                                                                \
      ::loom::rt::throw_cuda_error(static_cast<int>(loom_status_), #expr, __FILE__, __LINE__); \
    }                                                                                       \
  } while (0)

#define LOOM_CHECK_NVRTC(expr)                                                                \
  do {                                                                                        \
    const auto loom_status_ = (expr);                                                         \
    if (loom_status_ != 0) {                                                                  \
      ::loom::rt::throw_nvrtc_error(static_cast<int>(loom_status_), #expr, __FILE__, __LINE__); \
    }                                                                                         \
  } while (0)

#define LOOM_WARN_CUDA(expr)                                                                   \
  do {                                                                                         \
    const auto loom_status_ = (expr);                                                          \
    if (loom_status_ != 0) {                                                                   \
      ::loom::rt::report_cuda_error(static_cast<int>(loom_status_), #expr, __FILE__, __LINE__); \
    }                                                                                          \
  } while (0)
