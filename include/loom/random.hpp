#pragma once
// loom::random: pseudorandom arrays from cuRAND, modelled on numpy.random.Generator. A draw is a
// lazy library call (a barrier) whose raw outputs (32-bit words, standard normals, Poisson
// counts) feed fused elementwise work: `normal(2, 3, {n})` is one cuRAND call and one kernel
// computing z * 3 + 2 in whatever consumes it. The generator's position in its stream advances
// when a draw is *built*, so the numbers depend only on the seed and the order of the calls,
// never on when eval() runs; the same seed gives the same bits on the GPU and on the host.
//
// Sampling beyond cuRAND's (lib/calls/sampling_*.cpp, lib/index/sampling_choice.cpp). Closed
// forms (laplace, logistic, weibull, pareto, rayleigh, triangular, geometric) are fused work on
// uniform draws. Methods that need a variable number of uniforms per element (gamma, beta,
// binomial, hypergeometric, zipf, vonmises, multinomial, and what is built on gamma: dirichlet,
// chisquare, standard_t, negative_binomial) are counter-based: element i of a draw takes its
// uniforms from a Philox4x32-10 substream of its own, keyed by the seed and numbered by the
// draw's position plus i (runtime/libs/sampler.hpp), so they too depend only on the seed and the
// call order, and the host gives the GPU's bits. choice, permutation, shuffle and permuted sort
// 64-bit random keys (a lazy barrier); choice with p searches the cumulative sum of p. Values
// follow NumPy's distributions, not its bits. Parameters are scalars, except the probability
// vectors (choice's p, dirichlet's alpha, multinomial's pvals), which are read on the host to be
// checked as NumPy checks them (a synchronization when they are not evaluated yet).

#include <atomic>
#include <cstdint>
#include <optional>
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

  // choice from arange(a) (int64) or from `a` along `axis`: with replacement, uniform or by the
  // probabilities p (1-D, a's length along axis); without, distinct picks (by p: successive
  // draws in proportion to what is left). The result's order is random either way (shuffle is
  // accepted for NumPy's signature).
  Array choice(std::int64_t a, const Shape& size = {}, bool replace = true, const std::optional<Array>& p = {},
               bool shuffle = true);
  Array choice(const Array& a, const Shape& size = {}, bool replace = true, const std::optional<Array>& p = {},
               int axis = 0, bool shuffle = true);
  Array permutation(std::int64_t n);            // a random permutation of arange(n)
  Array permutation(const Array& x, int axis = 0);  // x reordered along axis
  void shuffle(Array& x, int axis = 0);         // a write: rebinds x to permutation(x, axis)
  // Each slice along axis reordered independently (none: of the flattened array).
  Array permuted(const Array& x, std::optional<int> axis = std::nullopt);
  // Legacy: int64 in [low, high] (high none: [1, low]).
  Array random_integers(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {});
  // size + (n,) float64 draws of N(mean, cov); method "svd", "eigh" or "cholesky" factors cov.
  Array multivariate_normal(const Array& mean, const Array& cov, const Shape& size = {},
                            std::string_view method = "svd");

  Array standard_gamma(double shape, const Shape& size = {}, DType dtype = DType::Float64);
  Array gamma(double shape, double scale = 1.0, const Shape& size = {});
  Array beta(double a, double b, const Shape& size = {});
  Array dirichlet(const Array& alpha, const Shape& size = {});  // size + (k,)
  Array chisquare(double df, const Shape& size = {});
  Array standard_t(double df, const Shape& size = {});
  Array laplace(double loc = 0.0, double scale = 1.0, const Shape& size = {});
  Array logistic(double loc = 0.0, double scale = 1.0, const Shape& size = {});
  Array weibull(double a, const Shape& size = {});
  Array pareto(double a, const Shape& size = {});  // Lomax: pareto(a) + 1 is classical Pareto
  Array rayleigh(double scale = 1.0, const Shape& size = {});
  Array vonmises(double mu, double kappa, const Shape& size = {});  // in [-pi, pi]
  Array triangular(double left, double mode, double right, const Shape& size = {});
  // Discrete ones give int64.
  Array binomial(std::int64_t n, double p, const Shape& size = {});
  Array negative_binomial(double n, double p, const Shape& size = {});
  Array geometric(double p, const Shape& size = {});  // trials to the first success, >= 1
  Array hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample, const Shape& size = {});
  Array zipf(double a, const Shape& size = {});
  Array multinomial(std::int64_t n, const Array& pvals, const Shape& size = {});  // size + (k,)

 private:
  // Reserves `words` 32-bit words of the stream; returns where they start.
  std::uint64_t reserve(std::uint64_t words);
  Array bits(const char* op, std::int64_t n);  // n uint32 words
  Array unit(const char* op, const Shape& shape, DType dtype);  // uniform on [0, 1)
  Array normals(const char* name, const Shape& shape, DType dtype);
  Array words64(const char* op, const Shape& shape);  // uint64 words
  Array open_unit(const char* op, const Shape& shape);  // float64 uniform on (0, 1), symmetric
  // A counter-based sampler's draw (rt::SamplerKind `kind`): `elements` substreams, the output
  // of `shape`; vec: per-element parameters (float64, element i takes vec[i % k]).
  Array sampled(const char* op, int kind, const Shape& shape, std::int64_t elements, double a, double b = 0,
                double c = 0, const Array* vec = nullptr);
  // int64 of `shape` whose slices along `axis` are random permutations of arange.
  Array random_order(const char* op, const Shape& shape, int axis);

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

Array choice(std::int64_t a, const Shape& size = {}, bool replace = true, const std::optional<Array>& p = {});
Array choice(const Array& a, const Shape& size = {}, bool replace = true, const std::optional<Array>& p = {},
             int axis = 0);
Array permutation(std::int64_t n);
Array permutation(const Array& x, int axis = 0);
void shuffle(Array& x, int axis = 0);
Array permuted(const Array& x, std::optional<int> axis = std::nullopt);
Array random_integers(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const Shape& size = {});
Array multivariate_normal(const Array& mean, const Array& cov, const Shape& size = {},
                          std::string_view method = "svd");
Array standard_gamma(double shape, const Shape& size = {}, DType dtype = DType::Float64);
Array gamma(double shape, double scale = 1.0, const Shape& size = {});
Array beta(double a, double b, const Shape& size = {});
Array dirichlet(const Array& alpha, const Shape& size = {});
Array chisquare(double df, const Shape& size = {});
Array standard_t(double df, const Shape& size = {});
Array laplace(double loc = 0.0, double scale = 1.0, const Shape& size = {});
Array logistic(double loc = 0.0, double scale = 1.0, const Shape& size = {});
Array weibull(double a, const Shape& size = {});
Array pareto(double a, const Shape& size = {});
Array rayleigh(double scale = 1.0, const Shape& size = {});
Array vonmises(double mu, double kappa, const Shape& size = {});
Array triangular(double left, double mode, double right, const Shape& size = {});
Array binomial(std::int64_t n, double p, const Shape& size = {});
Array negative_binomial(double n, double p, const Shape& size = {});
Array geometric(double p, const Shape& size = {});
Array hypergeometric(std::int64_t ngood, std::int64_t nbad, std::int64_t nsample, const Shape& size = {});
Array zipf(double a, const Shape& size = {});
Array multinomial(std::int64_t n, const Array& pvals, const Shape& size = {});

}  // namespace loom::random
