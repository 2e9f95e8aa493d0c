#pragma once
// Compiles many generated kernels with NVRTC for sm_90 (no GPU needed), several per program:
// each kernel's text, minus its #include lines, goes in a namespace of its own.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/emit_elementwise.hpp"
#include "exec/kernel_cache.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace loom::test {

class NvrtcBatch {
 public:
  void add(const codegen::KernelSource& src) {
    if (!names_.insert(src.name).second) return;
    sources_.push_back(src);
  }
  std::size_t size() const { return sources_.size(); }

  // Compiles everything added; throws CompileError naming the failing batch.
  void compile_all(std::size_t per_program = 24) {
    for (std::size_t i = 0; i < sources_.size(); i += per_program) {
      std::string text;
      std::set<std::string> includes;
      bool half = false;
      std::string body;
      for (std::size_t k = i; k < std::min(sources_.size(), i + per_program); ++k) {
        const codegen::KernelSource& s = sources_[k];
        half = half || s.needs_cuda_include;
        for (const std::string& h : s.headers) includes.insert(h);
        std::string stripped;
        std::size_t pos = 0;
        while (pos < s.text.size()) {
          const std::size_t end = s.text.find('\n', pos);
          const std::string line = s.text.substr(pos, end == std::string::npos ? std::string::npos : end - pos + 1);
          if (line.rfind("#include", 0) != 0) stripped += line;
          if (end == std::string::npos) break;
          pos = end + 1;
        }
        body += "namespace k" + std::to_string(k) + " {\n" + stripped + "}\n";
      }
      for (const std::string& h : includes) text += "#include \"" + h + "\"\n";
      text += body;
      codegen::KernelSource batch;
      batch.name = sources_[i].name;
      batch.text = text;
      batch.needs_cuda_include = half;
      rt::CompileRequest req = exec::compile_request(batch, 9, 0);
      const rt::CompileResult r = rt::compile_cubin(req);
      compiled_ += std::min(per_program, sources_.size() - i);
      if (!r.log.empty()) warnings_ += r.log + "\n";
    }
  }
  std::size_t compiled() const { return compiled_; }
  // NVRTC's warnings for everything compiled (dead locals are #177-D and #550-D); empty when none.
  const std::string& warnings() const { return warnings_; }

 private:
  std::vector<codegen::KernelSource> sources_;
  std::set<std::string> names_;
  std::size_t compiled_ = 0;
  std::string warnings_;
};

}  // namespace loom::test
