#include "runtime/libs/curand.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include <cuda_runtime_api.h>
#include <curand.h>
#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/libs/lib_check.hpp"

namespace loom::rt {

namespace {

const char* status_name(curandStatus_t s) {
  switch (s) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
  }
  return "unknown cuRAND status";
}

#define LOOM_CHECK_CURAND(expr) LOOM_CHECK_LIBRARY("cuRAND", status_name, CURAND_STATUS_ALLOCATION_FAILED, expr)

curandRngType_t curand_type(RngType t) {
  switch (t) {
    case RngType::Philox: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case RngType::Xorwow: return CURAND_RNG_PSEUDO_XORWOW;
    case RngType::Mrg32k3a: return CURAND_RNG_PSEUDO_MRG32K3A;
  }
  return CURAND_RNG_PSEUDO_PHILOX4_32_10;
}

// A generator and what was last set on it. The mutex is held from setting the seed and offset
// to queuing the generation, so concurrent calls cannot interleave their settings.
struct Handle {
  curandGenerator_t gen = nullptr;
  std::mutex mu;
  bool seeded = false;
  std::uint64_t seed = 0;
};

// Setting the seed makes cuRAND set its state up again (for XORWOW and MRG32k3a a kernel), so
// it is set only when it changes; the offset is set for every draw.
void position(Handle& h, const Draw& d) {
  if (!h.seeded || h.seed != d.seed) {
    LOOM_CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(h.gen, d.seed));
    h.seeded = true;
    h.seed = d.seed;
  }
  LOOM_CHECK_CURAND(curandSetGeneratorOffset(h.gen, curand_offset(d.type, d.kind, d.position)));
}

void generate(Handle& h, const Draw& d, void* out) {
  position(h, d);
  switch (d.kind) {
    case DrawKind::Bits:
      LOOM_CHECK_CURAND(curandGenerate(h.gen, static_cast<unsigned int*>(out), d.n));
      return;
    case DrawKind::Normal32:
      LOOM_CHECK_CURAND(curandGenerateNormal(h.gen, static_cast<float*>(out), d.n, 0.0f, 1.0f));
      return;
    case DrawKind::Normal64:
      LOOM_CHECK_CURAND(curandGenerateNormalDouble(h.gen, static_cast<double*>(out), d.n, 0.0, 1.0));
      return;
    case DrawKind::Poisson:
      LOOM_CHECK_CURAND(curandGeneratePoisson(h.gen, static_cast<unsigned int*>(out), d.n, d.lambda));
      return;
  }
}

// Generators live until the process ends and are never destroyed: destroying them from static
// destructors could run after the CUDA runtime has been torn down. cuRAND allocates a device
// generator's state itself (it takes no workspace): the one memory of loom::random outside the
// pool (per-thread states for XORWOW and MRG32k3a; Philox is counter-based).
// The table is itself never destroyed (a global map would be, at exit, dropping the handles).
struct Handles {
  std::mutex mu;
  std::map<std::pair<int, RngType>, std::unique_ptr<Handle>> by_device;  // device -1: the host
};
Handles& handles() {
  static auto* t = new Handles();
  return *t;
}

Handle& handle(int device, RngType type) {
  Handles& t = handles();
  std::lock_guard lock(t.mu);
  auto& h = t.by_device[{device, type}];
  if (!h) {
    auto fresh = std::make_unique<Handle>();
    if (device < 0) {
      LOOM_CHECK_CURAND(curandCreateGeneratorHost(&fresh->gen, curand_type(type)));
    } else {
      LOOM_CHECK_CURAND(curandCreateGenerator(&fresh->gen, curand_type(type)));
    }
    // The ordering that cuRAND promises to keep across releases (and that the host generator
    // shares), so a seed gives the same numbers with any CUDA version and GPU.
    LOOM_CHECK_CURAND(curandSetGeneratorOrdering(fresh->gen, CURAND_ORDERING_PSEUDO_LEGACY));
    h = std::move(fresh);
  }
  return *h;
}

}  // namespace

int words_per_output(DrawKind kind) {
  switch (kind) {
    case DrawKind::Bits:
    case DrawKind::Normal32:
    case DrawKind::Poisson: return 1;
    case DrawKind::Normal64: return 2;
  }
  return 1;
}

std::uint64_t curand_offset(RngType type, DrawKind kind, std::uint64_t position) {
  std::uint64_t outputs = position / static_cast<std::uint64_t>(words_per_output(kind));
  const bool normal = kind == DrawKind::Normal32 || kind == DrawKind::Normal64;
  if (type != RngType::Philox && normal) outputs /= 2;
  return outputs;
}

RngType rng_type(std::string_view name) {
  if (name == "philox" || name == "philox4_32_10") return RngType::Philox;
  if (name == "xorwow") return RngType::Xorwow;
  if (name == "mrg32k3a") return RngType::Mrg32k3a;
  throw ValueError(fmt::format("unknown bit generator '{}' (choose 'philox', 'xorwow' or 'mrg32k3a')", name));
}

const char* rng_name(RngType type) {
  switch (type) {
    case RngType::Philox: return "philox";
    case RngType::Xorwow: return "xorwow";
    case RngType::Mrg32k3a: return "mrg32k3a";
  }
  return "?";
}

const char* curand_function(DrawKind kind) {
  switch (kind) {
    case DrawKind::Bits: return "curandGenerate";
    case DrawKind::Normal32: return "curandGenerateNormal";
    case DrawKind::Normal64: return "curandGenerateNormalDouble";
    case DrawKind::Poisson: return "curandGeneratePoisson";
  }
  return "?";
}

// curandGeneratePoisson builds its lookup table for lambda on the device and may synchronize
// there (cuRAND gives no stream-ordered variant); the other functions only queue kernels.
// For XORWOW and MRG32k3a the generator's state lies in device memory: two streams drawing from
// one generator at once are ordered by the mutex on the host only, not on the device. Philox,
// the default, is counter-based: a draw is a function of seed and offset alone.
void generate_device(const Draw& d, int device, void* stream, void* out) {
  Handle& h = handle(device, d.type);
  std::lock_guard lock(h.mu);
  LOOM_CHECK_CURAND(curandSetStream(h.gen, static_cast<cudaStream_t>(stream)));
  generate(h, d, out);
}

void generate_host(const Draw& d, void* out) {
  Handle& h = handle(-1, d.type);
  std::lock_guard lock(h.mu);
  generate(h, d, out);
}

}  // namespace loom::rt
