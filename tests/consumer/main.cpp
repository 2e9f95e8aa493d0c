// Uses the installed loom: builds a fused expression, prints its kernel name, evaluates it (on
// the GPU, or the host reference evaluator without one) and checks a value.
#include <cstdio>

#include <loom/loom.hpp>

int main() {
  const loom::Array x = loom::arange(10).astype(loom::float32);
  const loom::Array y = loom::sqrt(x * x + 1.0f) - 1.0f;
  const std::string src = y.source();
  const float v = y[3].item<float>();
  std::printf("consumer: %zu bytes of kernel source, y[3] = %.6f\n", src.size(), v);
  return (v > 2.1622 && v < 2.1623 && src.find("__global__") != std::string::npos) ? 0 : 1;
}
