#pragma once
// A user's CUDA module (include/loom/kernels.hpp): its code compiled by NVRTC with the user's
// options only, through the compile service (exec/compile_service.hpp: cached in memory by code,
// options, name expressions and architecture, on disk without name expressions), loaded once per
// device.
// RawKernel, RawModule, ElementwiseKernel and ReductionKernel launch from it.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/kernels.hpp>

#include "exec/compile_service.hpp"
#include "graph/call.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"
#include "runtime/module.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace loom {

namespace detail {

struct UserModule {
  std::string code, label;  // label: "RawKernel add", "RawModule"
  KernelOptions options;
  std::vector<std::string> name_expressions;

  mutable std::mutex mu;
  mutable std::map<std::pair<int, int>, std::shared_ptr<const exec::Module>> by_arch;  // asked before

  // Compiled for sm_<arch> by the compile service (exec/compile_service.hpp: memory, disk, NVRTC);
  // kept here after the first ask, so a launch hashes no source.
  std::shared_ptr<const exec::Module> compiled(int cc_major, int cc_minor) const {
    {
      std::lock_guard lock(mu);
      if (auto it = by_arch.find({cc_major, cc_minor}); it != by_arch.end()) return it->second;
    }
    rt::CompileRequest req;
    req.source = code;
    req.kernel_name = "loom_user_" + label.substr(label.rfind(' ') + 1);
    req.cc_major = cc_major;
    req.cc_minor = cc_minor;
    req.user_code = true;
    req.extra_options = options.options;
    req.name_expressions = name_expressions;
    std::shared_ptr<const exec::Module> m = exec::compile(req, label);
    std::lock_guard lock(mu);
    return by_arch.emplace(std::pair{cc_major, cc_minor}, std::move(m)).first->second;
  }

  // The library on `device` (the current one), compiled and loaded at the first use.
  cudaLibrary_t library(int device) const {
    const rt::DeviceProps& p = rt::device_props(device);
    return compiled(p.cc_major, p.cc_minor)->library(device);
  }

  // The symbol of `name`: its lowered name when it is a name expression.
  std::string symbol_of(const std::string& name) const {
    for (std::size_t i = 0; i < name_expressions.size(); ++i) {
      if (name_expressions[i] != name) continue;
      const auto c = compiled(rt::has_gpu() ? rt::device_props(rt::current_device()).cc_major : 9,
                              rt::has_gpu() ? rt::device_props(rt::current_device()).cc_minor : 0);
      return c->lowered()[i];
    }
    return name;
  }

  // The kernel `symbol` on the current device; ValueError naming `name` when there is none.
  rt::LoadedKernel kernel(const std::string& name, const std::string& symbol) {
    const int device = rt::current_device();
    cudaLibrary_t lib = library(device);
    cudaKernel_t k = rt::get_kernel(lib, symbol);
    if (k == nullptr) throw ValueError(fmt::format("{}: the module has no kernel named '{}'", label, name));
    return rt::LoadedKernel{lib, k, name};
  }

  // Compiles where a launch or a lookup is written: on the GPU, for it (and loads); without one,
  // for sm_90 (NVRTC needs no GPU), so that a body it rejects fails at that line everywhere.
  void check_compiles() const {
    if (!rt::has_gpu()) (void)compiled(9, 0);
  }
};

// A user kernel's buffer that starts from an input's values (RawKernel's InOut, an array given
// for an ElementwiseKernel's output or a raw argument it writes): input i's C-order bytes copied
// into dst on the call's stream.
inline void copy_input_into(CallContext& ctx, int i, void* dst) {
  const CallArg& a = ctx.contiguous(i);
  const std::size_t nbytes = static_cast<std::size_t>(a.shape.numel()) * itemsize(a.dtype);
  if (nbytes > 0) {
    LOOM_CHECK_CUDA(cudaMemcpyAsync(dst, a.data(), nbytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(ctx.stream)));
  }
}

}  // namespace detail

}  // namespace loom
