#pragma once
// The device side shared by loom::linalg's cuSOLVER calls: a Solver binds the device's handle
// to the call's stream and hands out workspaces (device ones from the pool, sized by the
// *_bufferSize queries) and the `info` of each factorization, which it reads back once per call.
//
// Layout: loom arrays are row-major, cuSOLVER is column-major, and a row-major (m, n) buffer is
// the column-major n x m matrix A^T. Each call either uses that identity (factor A^T, solve
// with op T) or receives a transposed view, which exec copies with a loom kernel.

#include <cstdint>
#include <string>
#include <vector>

#include <cusolverDn.h>

#include "graph/call.hpp"
#include "runtime/libs/cusolver.hpp"

namespace loom::linalg::impl {

cudaDataType cuda_type(DType t);

class Solver {
 public:
  Solver(loom::detail::CallContext& ctx, std::string fn);
  ~Solver();  // waits for the stream first if host workspace was handed out and not waited for
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  cusolverDnHandle_t handle() const { return dn_.handle; }
  cusolverDnParams_t params() const { return dn_.params; }
  cudaStream_t stream() const { return stream_; }

  // Pool memory valid for the work queued on the stream (nullptr for 0 bytes).
  void* workspace(std::size_t nbytes);
  // Host workspace of a 64-bit API function (usually none); kept until the Solver goes.
  void* host_workspace(std::size_t nbytes);
  // A copy of `nbytes` from src to dst, queued on the stream.
  void copy(void* dst, const void* src, std::size_t nbytes);
  // One info per factorization, zeroed: info(i) is the i-th.
  void reserve_infos(std::int64_t count);
  int* info(std::int64_t i) { return infos_ + i; }

  // Reads the infos back and throws LinAlgError(message) when one is positive (a singular or
  // not positive definite matrix, no convergence); a negative info is a loom bug (a bad
  // argument) and throws Error. This copies to the host and waits for the stream: the error is
  // NumPy's contract and depends on values the device has not computed yet, so a call that can
  // fail this way must wait for them. Done once per call, after every batch is queued.
  void check_infos(const char* message);

 private:
  loom::detail::CallContext& ctx_;
  std::string fn_;
  cudaStream_t stream_;
  rt::CusolverDn dn_;
  int* infos_ = nullptr;
  std::int64_t num_infos_ = 0;
  std::vector<std::vector<std::byte>> host_;
  bool waited_ = false;
};

// Offsets of batch element b in a stack of matrices of `elems` elements of dtype t.
inline void* at(void* base, DType t, std::int64_t b, std::int64_t elems) {
  return static_cast<char*>(base) + static_cast<std::size_t>(b * elems) * itemsize(t);
}
inline const void* at(const void* base, DType t, std::int64_t b, std::int64_t elems) {
  return static_cast<const char*>(base) + static_cast<std::size_t>(b * elems) * itemsize(t);
}

}  // namespace loom::linalg::impl
