#include "runtime/libs/cusolver.hpp"

#include <map>
#include <mutex>

namespace loom::rt {

CusolverDn cusolver_dn(int device, cudaStream_t stream) {
  // Never destroyed: destroying a handle at exit may run after the CUDA context is gone.
  struct PerDevice {
    cusolverDnHandle_t handle = nullptr;
    cusolverDnParams_t params = nullptr;
    std::mutex in_use;
  };
  static std::mutex mu;
  static std::map<int, PerDevice> handles;
  PerDevice* d = nullptr;
  {
    std::lock_guard lock(mu);
    d = &handles[device];  // std::map never moves its elements
    if (d->handle == nullptr) {
      cusolverDnParams_t params = nullptr;
      LOOM_CHECK_CUSOLVER(cusolverDnCreateParams(&params));
      LOOM_CHECK_CUSOLVER(cusolverDnCreate(&d->handle));
      d->params = params;
    }
  }
  CusolverDn h{d->handle, d->params, std::unique_lock(d->in_use)};
  LOOM_CHECK_CUSOLVER(cusolverDnSetStream(h.handle, stream));
  return h;
}

// cuSOLVER's status enum grows with its releases (and has IRS values loom never sees): a
// default names the rest, so -Wswitch-enum is off for this one switch over a foreign enum.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wswitch-enum"
const char* cusolver_status_name(cusolverStatus_t status) {
  switch (status) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_ZERO_PIVOT: return "CUSOLVER_STATUS_ZERO_PIVOT";
    case CUSOLVER_STATUS_INVALID_LICENSE: return "CUSOLVER_STATUS_INVALID_LICENSE";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: return "cuSOLVER status";
  }
}
#pragma GCC diagnostic pop

}  // namespace loom::rt
