#pragma once
// NVTX ranges (LOOM_NVTX=1): each eval, each kernel launch (named after the kernel) and each
// library or user call, so that Nsight Systems shows loom's work by name. NVTX3 is header-only
// (in the CUDA toolkit); without a tool attached its calls do nothing, and with LOOM_NVTX unset
// they are not made at all.

#include <nvtx3/nvToolsExt.h>

#include "runtime/env.hpp"

namespace loom::rt {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) : on_(env().nvtx) {
    if (on_) nvtxRangePushA(name);
  }
  ~NvtxRange() {
    if (on_) nvtxRangePop();
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

 private:
  bool on_;
};

}  // namespace loom::rt
