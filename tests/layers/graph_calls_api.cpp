// Compiles (the public headers are every layer's), but must not link into the graph layer: it
// calls loom::zeros, defined in lib/api, a layer above. The graph layer's link check links it
// with the graph's objects alone and no undefined symbol allowed (tests/CMakeLists.txt).
#include <loom/creation.hpp>

namespace loom::detail {

Array upward_call() { return zeros({2, 3}, DType::Float32); }

}  // namespace loom::detail
