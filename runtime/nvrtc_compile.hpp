#pragma once
// Run-time compilation of one generated kernel to a cubin with NVRTC (DESIGN.md decision 6).
// Needs no GPU: the target architecture is given, not queried. Thread-safe.

#include <string>
#include <string_view>
#include <vector>

namespace loom::rt {

// An in-memory file the source may #include by `name` (e.g. loom's prelude). The viewed text
// must outlive the compile_cubin() call.
struct NvrtcHeader {
  std::string name;
  std::string_view source;
};

struct CompileRequest {
  std::string source;
  std::string kernel_name;           // the extern "C" __global__ function in `source`
  int cc_major = 9, cc_minor = 0;    // compiled for sm_<major><minor>, to SASS (cubin), not PTX
  std::vector<NvrtcHeader> headers;
  bool needs_cuda_include = false;   // the source includes cuda_fp16.h / cuda_bf16.h
  std::vector<std::string> extra_options;
  // A user's code (include/loom/kernels.hpp): only the architecture, -I for the toolkit's
  // headers and the user's options (no -default-device, no --fmad=false: the user's choice, as
  // in CuPy). The log and source in a CompileError are the user's.
  bool user_code = false;
  // C++ names of kernels (template instances) whose mangled names the result gives back.
  std::vector<std::string> name_expressions;
};

struct CompileResult {
  std::vector<char> cubin;   // an ELF image for cudaLibraryLoadData
  std::string log;           // NVRTC's log; warnings only, since the compile succeeded
  double compile_ms = 0;     // program creation + compile + cubin retrieval
  std::vector<std::string> lowered_names;  // one per request.name_expressions
};

// Throws CompileError when NVRTC rejects the source: what() is "NVRTC failed to compile <name>:"
// then the log, then the source with line numbers. Throws CudaError for any other NVRTC failure
// (including an architecture this NVRTC does not know). With LOOM_DUMP_KERNELS=<dir>, writes
// <dir>/<kernel_name>.cu and .log, on success and on failure.
CompileResult compile_cubin(const CompileRequest& request);

// Exactly the options compile_cubin() passes to NVRTC, in order (part of the disk-cache key).
std::vector<std::string> compile_options(const CompileRequest& request);

// "13.0": the NVRTC library loaded at run time, not the headers built against.
std::string nvrtc_version();

// The directory holding cuda_fp16.h for -I: $LOOM_CUDA_HOME, $CUDA_HOME or $CUDA_PATH (the first
// set) + "/include", else the build-time LOOM_CUDA_INCLUDE_DIR. Throws CudaError naming what was
// tried when none holds cuda_fp16.h.
std::string cuda_include_dir();

// "  12 | const float v2 = ...": the source as printed in compile errors.
std::string number_lines(std::string_view source);

}  // namespace loom::rt
