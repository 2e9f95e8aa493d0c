// LOOM_NVTX=1 seen by an NVTX tool: runs an eval and a library call with tests/interop/
// nvtx_recorder.cpp loaded as the NVTX injection library (as Nsight Systems is), then checks the
// ranges it recorded by name: "loom eval" everywhere; on a GPU also the fused kernel
// ("loom_ew_...") and the sort call, each pushed and popped.
// Usage: loom_nvtx_probe <path of libloom_nvtx_recorder.so>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <loom/loom.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: loom_nvtx_probe <libloom_nvtx_recorder.so>\n");
    return 2;
  }
  const std::string record = "/tmp/loom_nvtx_probe_" + std::to_string(::getpid()) + ".txt";
  // Before loom's first NVTX call: NVTX reads its tool's path then, loom reads LOOM_NVTX once.
  ::setenv("NVTX_INJECTION64_PATH", argv[1], 1);
  ::setenv("LOOM_NVTX_RECORD", record.c_str(), 1);
  ::setenv("LOOM_NVTX", "1", 1);
  const loom::Array x = (loom::arange(1000).astype(loom::DType::Float32) * -2.0f + 1.0f).eval();
  const loom::Array s = loom::sort(x).eval();
  (void)s.to_host<float>();
  std::vector<std::string> lines;
  std::ifstream in(record);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::remove(record.c_str());
  int pushes = 0, pops = 0;
  bool eval = false, kernel = false, sort = false;
  for (const std::string& l : lines) {
    std::printf("%s\n", l.c_str());
    pushes += l.rfind("push ", 0) == 0;
    pops += l == "pop";
    eval |= l == "push loom eval";
    kernel |= l.rfind("push loom_ew_", 0) == 0;
    sort |= l == "push sort";
  }
  const bool gpu = loom::gpu_available();
  const bool ok = eval && pushes == pops && pushes > 0 && (!gpu || (kernel && sort));
  std::printf("nvtx probe (%s): %d ranges, eval %s, fused kernel %s, sort call %s: %s\n", gpu ? "GPU" : "no GPU", pushes,
              eval ? "seen" : "MISSING", kernel ? "seen" : (gpu ? "MISSING" : "none without a GPU"),
              sort ? "seen" : (gpu ? "MISSING" : "none without a GPU"), ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
