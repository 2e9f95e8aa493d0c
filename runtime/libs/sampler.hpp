#pragma once
// The counter-based samplers behind loom::random's rejection and search methods (gamma, binomial,
// Poisson, hypergeometric, zipf, von Mises, multinomial ...): one call fills n outputs, element i
// drawing as many uniforms as its method needs from a Philox4x32-10 substream of its own, keyed
// by the seed and numbered by the element's home block (runtime/libs/sampler_math.hpp). The
// device kernel (runtime/libs/random/sampler.cu, nvcc with -fmad=false) and the host loop
// (runtime/libs/sampler_host.cpp, -ffp-contract=off) run the same code with the same IEEE
// operations and loom's own log/exp/lgamma/cos/atan, so both give the same bits.

#include <cstdint>

namespace loom::rt {

enum class SamplerKind {
  StandardGamma,     // a: shape (vec: a per element, i % k); float64
  LogGamma,          // log of a standard gamma (vec: shapes, i % k), finite for tiny shapes; float64
  Beta,              // a, b; float64
  Poisson,           // a: lam; int64
  Binomial,          // a: n, b: p; int64
  NegativeBinomial,  // a: n, b: p (poisson of a gamma); int64
  Hypergeometric,    // a: ngood, b: nbad, c: nsample; int64
  Zipf,              // a: exponent > 1; int64
  VonMises,          // a: mu, b: kappa; float64 in [-pi, pi]
  Multinomial,       // a: n trials, vec: k probabilities; output (n rows, k) int64, one row a thread
};

struct SamplerArgs {
  SamplerKind kind = SamplerKind::StandardGamma;
  std::uint64_t seed = 0;
  std::uint64_t block0 = 0;  // element i's substream is Philox block counter block0 + i
  std::int64_t n = 0;        // elements (Multinomial: rows)
  double a = 0, b = 0, c = 0;
  const double* vec = nullptr;  // k per-element parameters (device memory on the device path)
  std::int64_t k = 0;
  void* out = nullptr;  // n elements (Multinomial: n * k), float64 or int64 by kind
};

const char* sampler_name(SamplerKind kind);  // "gamma (Marsaglia-Tsang)", for explain()
bool sampler_is_integer(SamplerKind kind);   // int64 output, else float64
std::int64_t sampler_outputs(const SamplerArgs& a);  // n, or n * k for Multinomial

// Queues the kernel on `stream` (a cudaStream_t); args.vec and args.out are device pointers.
void sample_device(const SamplerArgs& args, void* stream);
// The same values on the host.
void sample_host(const SamplerArgs& args);

}  // namespace loom::rt
