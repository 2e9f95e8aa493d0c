#include "calls/linalg_device.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/libs/data_type.hpp"

namespace loom::linalg::impl {

cudaDataType cuda_type(DType t) {
  const auto c = rt::cuda_data_type(t);
  if (!c || is_half(t)) throw InternalError(fmt::format("internal: linalg has no cuSOLVER type for {}", name(t)));
  return *c;
}

Solver::Solver(loom::detail::CallContext& ctx, std::string fn)
    : ctx_(ctx),
      fn_(std::move(fn)),
      stream_(static_cast<cudaStream_t>(ctx.stream)),
      dn_(rt::cusolver_dn(ctx.device, static_cast<cudaStream_t>(ctx.stream))) {}

void* Solver::workspace(std::size_t nbytes) { return nbytes == 0 ? nullptr : ctx_.workspace(nbytes); }

Solver::~Solver() {
  if (!host_.empty() && !waited_) LOOM_WARN_CUDA(cudaStreamSynchronize(stream_));
}

void* Solver::host_workspace(std::size_t nbytes) {
  if (nbytes == 0) return nullptr;
  host_.emplace_back(nbytes);
  return host_.back().data();
}

void Solver::copy(void* dst, const void* src, std::size_t nbytes) {
  if (nbytes == 0) return;
  LOOM_CHECK_CUDA(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, stream_));
}

void Solver::reserve_infos(std::int64_t count) {
  num_infos_ = count;
  const std::size_t nbytes = static_cast<std::size_t>(count) * sizeof(int);
  infos_ = static_cast<int*>(workspace(nbytes));
  if (nbytes > 0) LOOM_CHECK_CUDA(cudaMemsetAsync(infos_, 0, nbytes, stream_));
}

void Solver::check_infos(const char* message) {
  if (num_infos_ == 0) return;
  std::vector<int> host(static_cast<std::size_t>(num_infos_));
  LOOM_CHECK_CUDA(cudaMemcpyAsync(host.data(), infos_, host.size() * sizeof(int), cudaMemcpyDeviceToHost, stream_));
  LOOM_CHECK_CUDA(cudaStreamSynchronize(stream_));
  waited_ = true;
  for (int info : host) {
    if (info < 0) throw InternalError(fmt::format("internal: {}: cuSOLVER rejected argument {}", fn_, -info));
  }
  for (int info : host) {
    if (info > 0) throw LinAlgError(message);
  }
}

}  // namespace loom::linalg::impl
