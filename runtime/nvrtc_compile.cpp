#include "runtime/nvrtc_compile.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>
#include <nvrtc.h>

#include <loom/errors.hpp>

#include "runtime/cuda_check.hpp"
#include "runtime/env.hpp"

#ifndef LOOM_CUDA_INCLUDE_DIR
#define LOOM_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace loom::rt {

namespace {

// Destroys the program on every path out of compile_cubin(), the throwing ones included.
class Program {
 public:
  Program(const std::string& source, const std::string& name,
          const std::vector<NvrtcHeader>& headers) {
    // NVRTC wants NUL-terminated text; a string_view need not be.
    header_text_.reserve(headers.size());
    for (const NvrtcHeader& h : headers) {
      header_text_.emplace_back(h.source);
      header_sources_.push_back(header_text_.back().c_str());
      header_names_.push_back(h.name.c_str());
    }
    LOOM_CHECK_NVRTC(nvrtcCreateProgram(&prog_, source.c_str(), name.c_str(),
                                        static_cast<int>(headers.size()), header_sources_.data(),
                                        header_names_.data()));
  }
  ~Program() {
    if (prog_ != nullptr) nvrtcDestroyProgram(&prog_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return prog_; }

 private:
  nvrtcProgram prog_ = nullptr;
  std::vector<std::string> header_text_;
  std::vector<const char*> header_sources_;
  std::vector<const char*> header_names_;
};

std::string program_log(nvrtcProgram prog) {
  std::size_t size = 0;
  LOOM_CHECK_NVRTC(nvrtcGetProgramLogSize(prog, &size));
  std::string log(size, '\0');
  if (size > 0) LOOM_CHECK_NVRTC(nvrtcGetProgramLog(prog, log.data()));
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

const std::vector<int>& supported_archs() {
  static const std::vector<int> archs = [] {
    int n = 0;
    LOOM_CHECK_NVRTC(nvrtcGetNumSupportedArchs(&n));
    std::vector<int> v(static_cast<std::size_t>(n));
    if (n > 0) LOOM_CHECK_NVRTC(nvrtcGetSupportedArchs(v.data()));
    return v;
  }();
  return archs;
}

void check_arch(int cc_major, int cc_minor) {
  const std::vector<int>& archs = supported_archs();
  const int arch = cc_major * 10 + cc_minor;
  if (std::find(archs.begin(), archs.end(), arch) != archs.end()) return;
  std::string list;
  for (int a : archs) list += fmt::format(" sm_{}", a);
  throw CudaError(fmt::format("NVRTC {} cannot compile for sm_{}; it supports:{}", nvrtc_version(),
                              arch, list),
                  NVRTC_ERROR_INVALID_OPTION);
}

bool has_fp16_header(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / "cuda_fp16.h", ec);
}

// LOOM_DUMP_KERNELS: a kernel that cannot be dumped is still compiled; warn once, not per kernel.
void dump_kernel(const std::string& dir, const std::string& name, const std::string& source,
                 const std::string& log) {
  static std::atomic<bool> warned{false};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream cu(std::filesystem::path(dir) / (name + ".cu"), std::ios::binary);
  cu << source;
  std::ofstream lg(std::filesystem::path(dir) / (name + ".log"), std::ios::binary);
  lg << log << '\n';
  if ((!cu || !lg) && !warned.exchange(true)) {
    std::fprintf(stderr, "loom: LOOM_DUMP_KERNELS: cannot write kernels to '%s'\n", dir.c_str());
  }
}

}  // namespace

std::string number_lines(std::string_view source) {
  std::size_t num_lines = 1;
  for (char c : source) num_lines += c == '\n' ? 1 : 0;
  if (!source.empty() && source.back() == '\n') --num_lines;
  const int width = std::max<int>(4, static_cast<int>(std::to_string(num_lines).size()));
  std::string out;
  out.reserve(source.size() + num_lines * (width + 4));
  std::size_t line = 1, start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    out += fmt::format("{:>{}} | {}\n", line, width, source.substr(start, end - start));
    start = end + 1;
    ++line;
  }
  return out;
}

std::string nvrtc_version() {
  static const std::string version = [] {
    int major = 0, minor = 0;
    LOOM_CHECK_NVRTC(nvrtcVersion(&major, &minor));
    return fmt::format("{}.{}", major, minor);
  }();
  return version;
}

std::string cuda_include_dir() {
  namespace fs = std::filesystem;
  static const std::string dir = [] {
    std::vector<fs::path> tried;
    const std::string& home = env().cuda_home;
    if (!home.empty()) {
      // Toolkits installed from conda or pip keep their headers under targets/<triple>/include.
      tried.push_back(fs::path(home) / "include");
      tried.push_back(fs::path(home) / "targets" / "x86_64-linux" / "include");
      tried.push_back(fs::path(home) / "targets" / "sbsa-linux" / "include");
    }
    tried.emplace_back(LOOM_CUDA_INCLUDE_DIR);
    for (const fs::path& p : tried) {
      if (has_fp16_header(p)) return p.string();
    }
    std::string list;
    for (const fs::path& p : tried) list += fmt::format(" '{}'", p.string());
    throw CudaError(fmt::format("cannot find cuda_fp16.h for NVRTC: set LOOM_CUDA_HOME (or "
                                "CUDA_HOME, CUDA_PATH) to the CUDA toolkit; tried{}",
                                list),
                    NVRTC_ERROR_INVALID_INPUT);
  }();
  return dir;
}

std::vector<std::string> compile_options(const CompileRequest& request) {
  if (request.user_code) {
    // The toolkit's headers, CCCL's too (libcu++: cooperative_groups.h, cuda/std/...).
    const std::string inc = cuda_include_dir();
    std::vector<std::string> options = {fmt::format("--gpu-architecture=sm_{}{}", request.cc_major, request.cc_minor),
                                        "-I" + inc};
    std::error_code ec;
    if (std::filesystem::is_directory(std::filesystem::path(inc) / "cccl", ec)) options.push_back("-I" + inc + "/cccl");
    options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
    return options;
  }
  std::vector<std::string> options = {
      // A real architecture makes NVRTC emit SASS, retrieved with nvrtcGetCUBIN: nothing is left
      // for the driver to JIT at load time.
      fmt::format("--gpu-architecture=sm_{}{}", request.cc_major, request.cc_minor),
      "-std=c++17",
      "-default-device",
      // No contraction of a*b+c into one FMA across the ops of a fused chain, and no fast math:
      // each op rounds as NumPy's does, so fused equals unfused equals the host reference.
      "--fmad=false",
  };
  if (request.needs_cuda_include) options.push_back("-I" + cuda_include_dir());
  options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
  return options;
}

CompileResult compile_cubin(const CompileRequest& request) {
  check_arch(request.cc_major, request.cc_minor);
  const std::vector<std::string> options = compile_options(request);
  std::vector<const char*> option_ptrs;
  option_ptrs.reserve(options.size());
  for (const std::string& o : options) option_ptrs.push_back(o.c_str());

  const auto start = std::chrono::steady_clock::now();
  Program prog(request.source, request.kernel_name + ".cu", request.headers);
  for (const std::string& e : request.name_expressions) LOOM_CHECK_NVRTC(nvrtcAddNameExpression(prog.get(), e.c_str()));
  const nvrtcResult status =
      nvrtcCompileProgram(prog.get(), static_cast<int>(option_ptrs.size()), option_ptrs.data());
  CompileResult result;
  result.log = program_log(prog.get());
  if (!env().dump_kernels_dir.empty()) {
    dump_kernel(env().dump_kernels_dir, request.kernel_name, request.source, result.log);
  }
  if (status == NVRTC_ERROR_COMPILATION || status == NVRTC_ERROR_INVALID_OPTION) {
    throw CompileError(fmt::format("NVRTC failed to compile {}:\n{}\n\n{}", request.kernel_name,
                                   result.log, number_lines(request.source)),
                       result.log, request.source);
  }
  LOOM_CHECK_NVRTC(status);

  for (const std::string& e : request.name_expressions) {
    const char* lowered = nullptr;
    LOOM_CHECK_NVRTC(nvrtcGetLoweredName(prog.get(), e.c_str(), &lowered));
    result.lowered_names.emplace_back(lowered);
  }
  std::size_t size = 0;
  LOOM_CHECK_NVRTC(nvrtcGetCUBINSize(prog.get(), &size));
  result.cubin.resize(size);
  if (size > 0) LOOM_CHECK_NVRTC(nvrtcGetCUBIN(prog.get(), result.cubin.data()));
  result.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace loom::rt
