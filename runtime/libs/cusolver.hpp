#pragma once
// The cuSOLVER dense handle of each device (created once, lazily, reused by every call) and the
// status check of cuSOLVER calls.

#include <mutex>

#include <cusolverDn.h>

#include "runtime/libs/lib_check.hpp"

namespace loom::rt {

// The device's handle and 64-bit-API params object, bound to `stream` (cusolverDnSetStream on
// every use: calls run on the current stream of the thread that evaluates). The device must be
// current. Threads share a device's handle: `lock` holds it from the bind to the call's last
// cuSOLVER function (which only queues work), so another thread cannot rebind its stream between.
struct CusolverDn {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  std::unique_lock<std::mutex> lock;
};
CusolverDn cusolver_dn(int device, cudaStream_t stream);

const char* cusolver_status_name(cusolverStatus_t status);

}  // namespace loom::rt

#define LOOM_CHECK_CUSOLVER(expr) \
  LOOM_CHECK_LIBRARY("cuSOLVER", ::loom::rt::cusolver_status_name, CUSOLVER_STATUS_ALLOC_FAILED, expr)
