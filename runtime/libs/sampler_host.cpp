// The counter-based samplers on the host (runtime/libs/sampler.hpp): the device kernel's loop,
// element by element. Compiled with -ffp-contract=off (CMakeLists.txt), as the kernel is with
// -fmad=false, so both sides round every operation alike.

#include "runtime/libs/sampler_methods.hpp"

namespace loom::rt {

namespace {

template <SamplerKind K> void run(const SamplerArgs& a) {
  for (std::int64_t i = 0; i < a.n; ++i) sampling::sample_element<K>(a, i);
}

}  // namespace

const char* sampler_name(SamplerKind kind) {
  switch (kind) {
    case SamplerKind::StandardGamma: return "gamma (Marsaglia-Tsang)";
    case SamplerKind::LogGamma: return "log of gamma (Marsaglia-Tsang)";
    case SamplerKind::Beta: return "beta (Johnk, gammas)";
    case SamplerKind::Poisson: return "poisson (multiplication, PTRS)";
    case SamplerKind::Binomial: return "binomial (inversion, BTRS)";
    case SamplerKind::NegativeBinomial: return "negative_binomial (poisson of gamma)";
    case SamplerKind::Hypergeometric: return "hypergeometric (inversion from the mode)";
    case SamplerKind::Zipf: return "zipf (Devroye's rejection)";
    case SamplerKind::VonMises: return "vonmises (Best-Fisher)";
    case SamplerKind::Multinomial: return "multinomial (conditional binomials)";
  }
  return "?";
}

bool sampler_is_integer(SamplerKind kind) {
  switch (kind) {
    case SamplerKind::StandardGamma:
    case SamplerKind::LogGamma:
    case SamplerKind::Beta:
    case SamplerKind::VonMises: return false;
    case SamplerKind::Poisson:
    case SamplerKind::Binomial:
    case SamplerKind::NegativeBinomial:
    case SamplerKind::Hypergeometric:
    case SamplerKind::Zipf:
    case SamplerKind::Multinomial: return true;
  }
  return false;
}

std::int64_t sampler_outputs(const SamplerArgs& a) { return a.kind == SamplerKind::Multinomial ? a.n * a.k : a.n; }

void sample_host(const SamplerArgs& a) {
  switch (a.kind) {
    case SamplerKind::StandardGamma: return run<SamplerKind::StandardGamma>(a);
    case SamplerKind::LogGamma: return run<SamplerKind::LogGamma>(a);
    case SamplerKind::Beta: return run<SamplerKind::Beta>(a);
    case SamplerKind::Poisson: return run<SamplerKind::Poisson>(a);
    case SamplerKind::Binomial: return run<SamplerKind::Binomial>(a);
    case SamplerKind::NegativeBinomial: return run<SamplerKind::NegativeBinomial>(a);
    case SamplerKind::Hypergeometric: return run<SamplerKind::Hypergeometric>(a);
    case SamplerKind::Zipf: return run<SamplerKind::Zipf>(a);
    case SamplerKind::VonMises: return run<SamplerKind::VonMises>(a);
    case SamplerKind::Multinomial: return run<SamplerKind::Multinomial>(a);
  }
}

}  // namespace loom::rt
