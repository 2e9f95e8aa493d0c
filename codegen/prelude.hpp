#pragma once
// The prelude of generated kernels: codegen/prelude/*.cuh, embedded into the library at build
// time and given to NVRTC as in-memory headers (no CUDA headers but cuda_fp16/bf16: decision 6).

#include <span>
#include <string_view>

namespace loom::codegen {

struct PreludeHeader {
  std::string_view name;    // "loom_core.cuh"
  std::string_view source;
};

std::span<const PreludeHeader> prelude_headers();
// The source of one header; empty when there is no such header.
std::string_view prelude_source(std::string_view name);

}  // namespace loom::codegen
