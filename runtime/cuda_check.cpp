#include "runtime/cuda_check.hpp"

#include <cstdio>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <nvrtc.h>

#include <loom/errors.hpp>

namespace loom::rt {

std::string cuda_error_string(int status) {
  const auto e = static_cast<cudaError_t>(status);
  return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e));
}

void throw_cuda_error(int status, const char* call, const char* file, int line) {
  const auto e = static_cast<cudaError_t>(status);
  // The runtime also keeps a failed call's status as its last error: clear it, or the next
  // launch check (cudaGetLastError) would report this error as its own.
  (void)cudaGetLastError();
  const std::string msg = fmt::format("{} failed: {} at {}:{}", call, cuda_error_string(status),
                                      file, line);
  if (e == cudaErrorMemoryAllocation) throw OutOfMemory(msg, 0);
  throw CudaError(msg, status);
}

void throw_nvrtc_error(int status, const char* call, const char* file, int line) {
  throw CudaError(fmt::format("{} failed: {} at {}:{}", call,
                              nvrtcGetErrorString(static_cast<nvrtcResult>(status)), file, line),
                  status);
}

void report_cuda_error(int status, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "loom: %s failed: %s at %s:%d\n", call, cuda_error_string(status).c_str(),
               file, line);
}

}  // namespace loom::rt
