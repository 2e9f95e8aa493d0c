// The counter-based samplers on the device (runtime/libs/sampler.hpp): one kernel per method, a
// thread per element (grid-stride), each element drawing from its own Philox substream, so the
// values do not depend on the launch shape. Compiled with -fmad=false (CMakeLists.txt): the host
// loop computes the same roundings.

#include "runtime/libs/cub/cub_common.cuh"
#include "runtime/libs/sampler_methods.hpp"

namespace loom::rt {

namespace {

template <SamplerKind K> __global__ void sample_kernel(const SamplerArgs a) {
  LOOM_GRID_STRIDE(i, a.n) { sampling::sample_element<K>(a, i); }
}

template <SamplerKind K> void launch(const SamplerArgs& a, cudaStream_t stream) {
  sample_kernel<K><<<algo::detail::blocks_for(a.n), algo::detail::kThreads, 0, stream>>>(a);
  LOOM_LAUNCHED("loom::rt::sample_kernel");
}

}  // namespace

void sample_device(const SamplerArgs& a, void* stream_ptr) {
  if (a.n == 0) return;
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  switch (a.kind) {
    case SamplerKind::StandardGamma: return launch<SamplerKind::StandardGamma>(a, stream);
    case SamplerKind::LogGamma: return launch<SamplerKind::LogGamma>(a, stream);
    case SamplerKind::Beta: return launch<SamplerKind::Beta>(a, stream);
    case SamplerKind::Poisson: return launch<SamplerKind::Poisson>(a, stream);
    case SamplerKind::Binomial: return launch<SamplerKind::Binomial>(a, stream);
    case SamplerKind::NegativeBinomial: return launch<SamplerKind::NegativeBinomial>(a, stream);
    case SamplerKind::Hypergeometric: return launch<SamplerKind::Hypergeometric>(a, stream);
    case SamplerKind::Zipf: return launch<SamplerKind::Zipf>(a, stream);
    case SamplerKind::VonMises: return launch<SamplerKind::VonMises>(a, stream);
    case SamplerKind::Multinomial: return launch<SamplerKind::Multinomial>(a, stream);
  }
}

}  // namespace loom::rt
