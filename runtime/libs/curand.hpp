#pragma once
// cuRAND behind loom::random: raw draws (32-bit words, standard normals, Poisson counts) from a
// bit generator at a known seed and offset, on the device (one generator per device and type,
// created lazily, bound to the call's stream) or on the host (cuRAND's host generators, the
// reference path). cuRAND documents that a host generator yields the same sequence as a device
// generator of the same type, seed, offset and ordering ("All other calls work identically
// whether you are generating random numbers on the device or on the host CPU").

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace loom::rt {

enum class RngType { Philox, Xorwow, Mrg32k3a };
enum class DrawKind {
  Bits,      // curandGenerate: uint32 words
  Normal32,  // curandGenerateNormal(0, 1): float; n must be even (Box-Muller pairs)
  Normal64,  // curandGenerateNormalDouble(0, 1): double; n must be even
  Poisson,   // curandGeneratePoisson: uint32 counts
};

// The largest lambda curandGeneratePoisson accepts (it answers CURAND_STATUS_OUT_OF_RANGE past
// it, and for lambda 0; measured with CUDA 13's host generator).
inline constexpr double kMaxPoissonLambda = 400000.0;

struct Draw {
  RngType type = RngType::Philox;
  DrawKind kind = DrawKind::Bits;
  std::uint64_t seed = 0;
  std::uint64_t position = 0;  // where the draw starts in the stream, in 32-bit words (a multiple of 4)
  std::size_t n = 0;           // outputs
  double lambda = 0;           // Poisson
};

// 32-bit words of the stream one output of `kind` uses: 2 for doubles, else 1 (Philox).
int words_per_output(DrawKind kind);
// The value given to curandSetGeneratorOffset for a draw starting at `position` words. cuRAND
// counts the offset in outputs of the generating function (measured: Philox's offset k starts
// any function at its k-th output; XORWOW's and MRG32k3a's normals count it in pairs).
std::uint64_t curand_offset(RngType type, DrawKind kind, std::uint64_t position);

// "philox" -> RngType; throws ValueError naming the choices otherwise.
RngType rng_type(std::string_view name);
const char* rng_name(RngType type);
const char* curand_function(DrawKind kind);  // "curandGenerateNormal", for explain()

// n outputs into `out` (device memory on `device`), queued on `stream` (a cudaStream_t).
void generate_device(const Draw& d, int device, void* stream, void* out);
// The same outputs into host memory, with cuRAND's host generator.
void generate_host(const Draw& d, void* out);

}  // namespace loom::rt
