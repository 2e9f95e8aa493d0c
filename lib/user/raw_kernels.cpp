// RawKernel and RawModule (include/loom/kernels.hpp): the user's CUDA code compiled by NVRTC
// (user options only: runtime/nvrtc_compile.cpp), cached in memory by code, options, name
// expressions and architecture and on disk as loom's kernels are (modules without name
// expressions: the mangled names come from NVRTC), loaded once per device, and launched by a
// barrier call whose inputs are made C-contiguous and whose outputs come from the pool.

#include <map>
#include <mutex>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/kernels.hpp>

#include "api/builders.hpp"
#include "calls/call_helpers.hpp"
#include "user/user_module.hpp"
#include "exec/compile_service.hpp"
#include "graph/node.hpp"
#include "reference/evaluator.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/env.hpp"
#include "runtime/module.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace loom {


namespace {

cudaFuncAttributes attributes(const rt::LoadedKernel& k) {
  cudaFuncAttributes a{};
  LOOM_CHECK_CUDA(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(k.kernel)));
  return a;
}

void need_gpu(const std::string& what) {
  if (!rt::has_gpu()) throw Error(fmt::format("{}: needs a GPU (there is none)", what));
}

}  // namespace

RawKernel::RawKernel(std::string code, std::string name, KernelOptions options)
    : module_(std::make_shared<detail::UserModule>()), name_(name), symbol_(std::move(name)) {
  if (name_.empty()) throw ValueError("RawKernel: the kernel name is empty");
  module_->code = std::move(code);
  module_->label = "RawKernel " + name_;
  module_->options = std::move(options);
}

RawKernel::RawKernel(std::shared_ptr<detail::UserModule> module, std::string name, std::string symbol)
    : module_(std::move(module)), name_(std::move(name)), symbol_(std::move(symbol)) {}

const std::string& RawKernel::code() const { return module_->code; }

int RawKernel::num_regs() const {
  need_gpu("RawKernel " + name_ + ": num_regs");
  return attributes(module_->kernel(name_, symbol_)).numRegs;
}
int RawKernel::max_threads_per_block() const {
  need_gpu("RawKernel " + name_ + ": max_threads_per_block");
  return attributes(module_->kernel(name_, symbol_)).maxThreadsPerBlock;
}

std::vector<Array> RawKernel::operator()(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args,
                                         std::size_t shared_mem) const {
  const std::string what = "RawKernel " + name_;
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0) {
    throw ValueError(fmt::format("{}: grid ({}, {}, {}) and block ({}, {}, {}) must have no zero extent", what, grid.x,
                                 grid.y, grid.z, block.x, block.y, block.z));
  }
  if (threads > 1024 || block.z > 64) {
    throw ValueError(fmt::format("{}: a block of ({}, {}, {}) threads is more than CUDA allows (1024 in all, z <= 64)",
                                 what, block.x, block.y, block.z));
  }
  if (grid.y > 65535 || grid.z > 65535) {
    throw ValueError(fmt::format("{}: grid ({}, {}, {}): y and z are at most 65535", what, grid.x, grid.y, grid.z));
  }
  // Compiled (and on a GPU loaded, the name looked up) here, at the launch's line.
  module_->check_compiles();
  if (rt::has_gpu()) (void)module_->kernel(name_, symbol_);

  auto spec = std::make_shared<detail::CallSpec>();
  spec->name = what;
  std::vector<KernelArg::Kind> kinds;
  std::vector<std::vector<unsigned char>> scalars(args.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    const KernelArg& a = args[k];
    kinds.push_back(a.kind());
    switch (a.kind()) {
      case KernelArg::Kind::Array:
        spec->inputs.push_back(detail::leaf_of(a.array(), "RawKernel"));
        break;
      case KernelArg::Kind::InOut:
        spec->inputs.push_back(detail::leaf_of(a.array(), "RawKernel"));
        spec->outputs.push_back({a.array().dtype(), a.array().shape()});
        break;
      case KernelArg::Kind::Out:
        detail::check_dtype(a.out().dtype, "RawKernel");
        for (int d = 0; d < a.out().shape.size(); ++d) {
          if (a.out().shape[d] < 0) throw ValueError(fmt::format("{}: negative dimensions are not allowed", what));
        }
        spec->outputs.push_back({a.out().dtype, a.out().shape});
        break;
      case KernelArg::Kind::Scalar:
        scalars[k].assign(a.scalar(), a.scalar() + a.scalar_bytes());
        break;
    }
  }
  const bool no_outputs = spec->outputs.empty();
  if (no_outputs) spec->outputs.push_back({DType::UInt8, Shape{0}});  // a handle to run it by
  spec->text = fmt::format("{} <<<({}, {}, {}), ({}, {}, {}), {} B>>>{}", what, grid.x, grid.y, grid.z, block.x, block.y,
                           block.z, shared_mem, module_->options.enable_cooperative_groups ? " (cooperative)" : "");
  const auto module = module_;
  const std::string name = name_, symbol = symbol_;
  const bool cooperative = module_->options.enable_cooperative_groups;
  spec->device = [=](detail::CallContext& ctx) {
    const cudaStream_t stream = calls::stream_of(ctx);
    std::vector<void*> ptrs(kinds.size(), nullptr);
    std::vector<std::vector<unsigned char>> values = scalars;  // aligned copies the launch reads
    std::vector<void*> argv(kinds.size(), nullptr);
    int in = 0, out = 0;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      switch (kinds[k]) {
        case KernelArg::Kind::Array:
          ptrs[k] = const_cast<void*>(ctx.contiguous(in++).data());
          break;
        case KernelArg::Kind::InOut:
          ptrs[k] = ctx.out[static_cast<std::size_t>(out++)];
          detail::copy_input_into(ctx, in++, ptrs[k]);
          break;
        case KernelArg::Kind::Out:
          ptrs[k] = ctx.out[static_cast<std::size_t>(out++)];
          break;
        case KernelArg::Kind::Scalar:
          break;
      }
      argv[k] = kinds[k] == KernelArg::Kind::Scalar ? static_cast<void*>(values[k].data()) : static_cast<void*>(&ptrs[k]);
    }
    const rt::LoadedKernel kern = module->kernel(name, symbol);
    const auto fn = reinterpret_cast<const void*>(kern.kernel);
    if (shared_mem > 48 * 1024) {
      LOOM_CHECK_CUDA(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_mem)));
    }
    const dim3 g(grid.x, grid.y, grid.z), b(block.x, block.y, block.z);
    if (cooperative) {
      LOOM_CHECK_CUDA(cudaLaunchCooperativeKernel(fn, g, b, argv.data(), shared_mem, stream));
    } else {
      rt::launch(kern, g, b, argv.data(), shared_mem, stream);
    }
  };
  spec->host = [what](std::span<const ref::HostArray* const>, std::span<ref::HostArray>) {
    throw Error(fmt::format("{}: user CUDA code runs only on a GPU (the host reference evaluator cannot run it)", what));
  };
  std::vector<Array> outs = calls::make_call_arrays(spec);
  if (no_outputs) {
    outs[0].eval();  // nothing would ask for it: run now
    return {};
  }
  return outs;
}

RawModule::RawModule(std::string code, KernelOptions options, std::vector<std::string> name_expressions)
    : module_(std::make_shared<detail::UserModule>()) {
  module_->code = std::move(code);
  module_->label = "RawModule";
  module_->options = std::move(options);
  module_->name_expressions = std::move(name_expressions);
}

const std::string& RawModule::code() const { return module_->code; }

RawKernel RawModule::get_function(const std::string& name) const {
  module_->check_compiles();
  RawKernel k(module_, name, module_->symbol_of(name));
  if (rt::has_gpu()) (void)module_->kernel(name, k.symbol_);
  return k;
}

DeviceSymbol RawModule::get_global(const std::string& name) const {
  need_gpu("RawModule: get_global");
  cudaLibrary_t lib = module_->library(rt::current_device());
  DeviceSymbol s;
  if (cudaLibraryGetGlobal(&s.ptr, &s.nbytes, lib, name.c_str()) != cudaSuccess) {
    (void)cudaGetLastError();
    throw ValueError(fmt::format("RawModule: the module has no __device__ variable named '{}'", name));
  }
  return s;
}

}  // namespace loom
