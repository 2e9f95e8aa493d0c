#pragma once
// One raw cuRAND draw as a library call (a barrier with no inputs): n outputs from a bit
// generator at a fixed seed and stream position. The distributions of loom::random are fused
// elementwise work on these outputs (lib/calls/random.cpp).

#include <loom/array.hpp>

#include "runtime/libs/curand.hpp"

namespace loom::detail {

// A 1-D array of d.n outputs: uint32 for Bits and Poisson, float32/float64 for normals.
// `name` is the user's function ("normal"; the call is named "random.normal" in explain()).
Array make_draw(const char* name, const rt::Draw& d);

}  // namespace loom::detail
