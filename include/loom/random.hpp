#pragma once
// loom::random: pseudorandom arrays from cuRAND, modelled on numpy.random.Generator. A draw is a
// lazy library call (a barrier) whose raw outputs (32-bit words, standard normals, Poisson
// counts) feed fused elementwise work: `normal(2, 3, {n})` is one cuRAND call and one kernel
// computing z * 3 + 2 in whatever consumes it. The generator's position in its stream advances
// when a draw is *built*, so the numbers depend only on the seed and the order of the calls,
// never on when eval() runs; the same seed gives the same bits on the GPU and on the host.

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include <loom/array.hpp>

namespace loom::random {

class Generator {
 public:
  // bit_generator: "philox" (cuRAND's Philox4_32_10, the default), "xorwow" or "mrg32k3a".
  explicit Generator(std::uint64_t seed = 0, std::string_view bit_generator = "philox");
  // A copy continues from the same position: it draws the same numbers as the original would.
  Generator(const Generator& other);
  Generator& operator=(const Generator& other);

  std::uint64_t seed() const { return seed_; }
  std::string bit_generator() const;
  // 32-bit words of the stream reserved by the draws so far (each draw starts at a multiple of 4).
  std::uint64_t position() const { return position_.load(); }

  // Uniform on [0, 1): float64, float32, float16 or bfloat16 (each value a multiple of 2^-p, p
  // the dtype's significand bits, so rounding never reaches 1).
  Array random(const Shape& shape = {}, DType dtype = DType::Float64);
  // low + (high - low) * random(): as NumPy's, high may be reached by rounding.
  Array uniform(double low = 0.0, double high = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
  Array standard_normal(const Shape& shape = {}, DType dtype = DType::Float64);
  Array normal(double loc = 0.0, double scale = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
  // Integers in [low, high), or [low, high] with endpoint; any integer dtype or bool.
  Array integers(std::int64_t low, std::int64_t high, const Shape& shape = {}, DType dtype = DType::Int64,
                 bool endpoint = false);
  Array lognormal(double mean = 0.0, double sigma = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
  // int64 counts; cuRAND takes lam <= 400000.
  Array poisson(double lam = 1.0, const Shape& shape = {});
  Array standard_exponential(const Shape& shape = {}, DType dtype = DType::Float64);
  Array exponential(double scale = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);

 private:
  // Reserves `words` 32-bit words of the stream; returns where they start.
  std::uint64_t reserve(std::uint64_t words);
  Array bits(const char* op, std::int64_t n);  // n uint32 words
  Array unit(const char* op, const Shape& shape, DType dtype);  // uniform on [0, 1)
  Array normals(const char* name, const Shape& shape, DType dtype);

  std::uint64_t seed_;
  int type_;
  std::atomic<std::uint64_t> position_{0};
};

// The generator behind the free functions below, as numpy.random's legacy functions. Seeded
// from std::random_device on first use unless seed() is called first.
Generator& default_generator();
// Starts the default generator again from `s` (not meant to race with draws on other threads).
void seed(std::uint64_t s);

Array random(const Shape& shape = {}, DType dtype = DType::Float64);
Array uniform(double low = 0.0, double high = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
Array standard_normal(const Shape& shape = {}, DType dtype = DType::Float64);
Array normal(double loc = 0.0, double scale = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
Array integers(std::int64_t low, std::int64_t high, const Shape& shape = {}, DType dtype = DType::Int64,
               bool endpoint = false);
Array lognormal(double mean = 0.0, double sigma = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);
Array poisson(double lam = 1.0, const Shape& shape = {});
Array standard_exponential(const Shape& shape = {}, DType dtype = DType::Float64);
Array exponential(double scale = 1.0, const Shape& shape = {}, DType dtype = DType::Float64);

}  // namespace loom::random
