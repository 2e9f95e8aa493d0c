// A minimal NVTX tool, loaded the way Nsight Systems is: NVTX3 dlopens the library named by
// NVTX_INJECTION64_PATH at the first NVTX call and calls its InitializeInjectionNvtx2, which
// installs our handlers for nvtxRangePushA and nvtxRangePop. Each push appends "push <name>" and
// each pop "pop" to the file named by LOOM_NVTX_RECORD: what a profiler would show, by name.

#include <cstdio>
#include <cstdlib>

#include <nvtx3/nvToolsExt.h>

namespace {

std::FILE* record() {
  static std::FILE* f = [] {
    const char* path = std::getenv("LOOM_NVTX_RECORD");
    return path ? std::fopen(path, "a") : nullptr;
  }();
  return f;
}

int push(const char* message) {
  if (std::FILE* f = record()) {
    std::fprintf(f, "push %s\n", message ? message : "(null)");
    std::fflush(f);
  }
  return 0;
}

int pop() {
  if (std::FILE* f = record()) {
    std::fprintf(f, "pop\n");
    std::fflush(f);
  }
  return 0;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || table == nullptr) return 0;
  if (size <= NVTX_CBID_CORE_RangePop) return 0;
  *table[NVTX_CBID_CORE_RangePushA] = reinterpret_cast<NvtxFunctionPointer>(&push);
  *table[NVTX_CBID_CORE_RangePop] = reinterpret_cast<NvtxFunctionPointer>(&pop);
  return 1;  // success
}
