#pragma once
// One raw cuRAND draw as a library call (a barrier with no inputs): n outputs from a bit
// generator at a fixed seed and stream position. The distributions of loom::random are fused
// elementwise work on these outputs (lib/calls/random.cpp).

#include <loom/array.hpp>

#include "runtime/libs/curand.hpp"
#include "runtime/libs/sampler.hpp"

namespace loom::detail {

// A 1-D array of d.n outputs: uint32 for Bits and Poisson, float32/float64 for normals.
// `name` is the user's function ("normal"; the call is named "random.normal" in explain()).
Array make_draw(const char* name, const rt::Draw& d);

// A counter-based sampler's call (runtime/libs/sampler.hpp): a 1-D array of
// rt::sampler_outputs(args) float64 or int64 values. `vec` (float64, args.k elements) is its one
// input when the method takes per-element parameters; args.vec and args.out are set when it runs.
Array make_sample(const char* name, const rt::SamplerArgs& args, const Array* vec);

}  // namespace loom::detail
