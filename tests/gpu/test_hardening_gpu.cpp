// The hardening faults on the GPU: library-call chains run and die without recursion, complex
// products and zero powers as NumPy 2.5 computes them (its own answers, numpy_edges.txt),
// softmax accurate for large logits, printing a huge lazy array, device memory exhaustion.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include <loom/loom.hpp>

#include "support/gpu_support.hpp"
#include "support/numpy_edges.hpp"
#include "support/small_stack.hpp"

using loom::Array;
using loom::DType;

namespace {

// Runs f on a thread with a 1 MiB stack: recursion per call level overflows it within a few
// thousand levels. (NVRTC and the CUDA libraries use deep stacks of their own: the chains warm
// their kernels and handles up on the main thread first.)
void on_small_stack(const std::function<void()>& f) { loom::test::on_small_stack(f, 1024 * 1024); }

// 10^6 chained calls (each a real library call, ~50 us with its eval: under a minute a chain);
// LOOM_TEST_CHAIN overrides.
int gpu_chain_length() {
  const char* v = std::getenv("LOOM_TEST_CHAIN");
  return v != nullptr ? std::atoi(v) : 1'000'000;
}

void run_chain(const std::function<Array()>& start, const std::function<Array(const Array&)>& step, double want) {
  const int n = gpu_chain_length();
  step(step(start())).eval();  // compiles its kernels and creates the library handles here
  on_small_stack([&] {
    Array x = start();
    for (int i = 0; i < n; ++i) x = step(x);
    CHECK(x.astype(DType::Float64).to_host<double>() == std::vector<double>{want});
    x = Array();
  });
}

}  // namespace

TEST_CASE("a chain of matmuls runs and dies without recursion", "[gpu][hardening][chains]") {
  const Array one = loom::ones({1, 1});
  run_chain([] { return loom::full({1, 1}, 2.0); }, [&](const Array& x) { return loom::matmul(one, x); }, 2);
}

TEST_CASE("a chain of cumsums runs and dies without recursion", "[gpu][hardening][chains]") {
  run_chain([] { return loom::full({1}, 3.0); }, [](const Array& x) { return loom::cumsum(x); }, 3);
}

TEST_CASE("a chain of sorts runs and dies without recursion", "[gpu][hardening][chains]") {
  run_chain([] { return loom::full({1}, 4.0f); }, [](const Array& x) { return loom::sort(x); }, 4);
}

TEST_CASE("a chain of argsorts and searchsorteds runs and dies without recursion", "[gpu][hardening][chains]") {
  const Array base = loom::asarray(std::vector<std::int64_t>{0, 1});
  run_chain([] { return loom::ones({1}, DType::Int64); },
            [&](const Array& x) { return loom::searchsorted(base, loom::argsort(x) + 1); }, 1);
}

TEST_CASE("a chain of sparse products and solves runs and dies without recursion", "[gpu][hardening][chains]") {
  loom::sparse::csr_matrix a(loom::asarray(std::vector<float>{1.0f}), loom::asarray(std::vector<std::int32_t>{0}),
                             loom::asarray(std::vector<std::int32_t>{0, 1}), {1, 1});
  run_chain([] { return loom::full({1}, 5.0f); }, [&](const Array& x) { return a.matmul(x); }, 5);
  const Array m = loom::full({1, 1}, 1.0);
  const int n = gpu_chain_length() / 10;  // cuSOLVER reads its info each call: a synchronize
  loom::linalg::solve(m, loom::full({1}, 6.0)).eval();
  on_small_stack([&] {
    Array x = loom::full({1}, 6.0);
    for (int i = 0; i < n; ++i) x = loom::linalg::solve(m, x);
    CHECK(x.to_host<double>() == std::vector<double>{6});
  });
}

TEST_CASE("complex products on the GPU have NumPy's bits (its FMA loop)", "[gpu][hardening]") {
  const auto cases = loom::test::numpy_complex_products();
  REQUIRE(cases.size() >= 64);
  for (const DType t : {DType::Complex64, DType::Complex128}) {
    std::vector<std::uint64_t> a_bits, b_bits, want;
    for (const auto& c : cases) {
      if (c.dtype != t) continue;
      a_bits.insert(a_bits.end(), {c.ar, c.ai});
      b_bits.insert(b_bits.end(), {c.br, c.bi});
      want.insert(want.end(), {c.re, c.im});
    }
    const auto n = static_cast<std::int64_t>(a_bits.size() / 2);
    const auto to_array = [&](const std::vector<std::uint64_t>& bits) {
      if (t == DType::Complex128) return loom::asarray_bytes(bits.data(), bits.size() * 8, t, {n});
      std::vector<std::uint32_t> narrow(bits.begin(), bits.end());
      return loom::asarray_bytes(narrow.data(), narrow.size() * 4, t, {n});
    };
    const Array a = to_array(a_bits), b = to_array(b_bits);
    loom::exec::set_poison_outputs(true);
    const Array p = (a * b).eval();
    // Read the product's raw bits.
    const auto& node = *p.node();
    const auto host = loom::ref::gather(*node.storage(), node.dtype, node.shape, node.strides(), node.offset(),
                                        loom::exec::read_storage);
    for (std::size_t i = 0; i < want.size(); ++i) {
      std::uint64_t got = 0;
      std::memcpy(&got, host.data.data() + i * (t == DType::Complex128 ? 8 : 4), t == DType::Complex128 ? 8 : 4);
      INFO(loom::name(t) << " product " << i / 2 << (i % 2 ? " imag" : " real"));
      CHECK(got == want[i]);
    }
  }
}

TEST_CASE("0 ** z of complex numbers on the GPU, as NumPy 2", "[gpu][hardening]") {
  using C = std::complex<double>;
  const double nan = std::nan(""), inf = HUGE_VAL;
  const std::vector<std::pair<std::string, C>> zs = {
      {"0", 0.0}, {"1", 1.0}, {"0.5", 0.5}, {"-1", -1.0}, {"1j", C(0, 1)}, {"(1+1j)", C(1, 1)},
      {"(-1+1j)", C(-1, 1)}, {"(nan+0j)", C(nan, 0)}, {"(inf+0j)", C(inf, 0)}, {"(1e-30+0j)", C(1e-30, 0)}};
  for (const DType t : {DType::Complex64, DType::Complex128}) {
    for (const auto& [label, z] : zs) {
      // Evaluated on the GPU, then compared with NumPy's answer.
      loom::test::check_like_numpy(std::string(loom::name(t)) + " 0**(" + label + ")", [&] {
        return loom::power(loom::zeros({1}, t), loom::asarray(std::vector<C>{z}).astype(t)).eval();
      });
    }
  }
}

TEST_CASE("power by a scalar exponent on the GPU is NumPy's fast path: 0.5 is sqrt", "[gpu][hardening]") {
  // Evaluated on the GPU (inside a larger fused expression too), then compared with NumPy's
  // answer bit for bit, zeros' signs included.
  for (const auto& c : loom::test::power_cases()) {
    loom::test::check_like_numpy(c.first, [&] { return c.second().eval(); }, true);
    loom::test::check_like_numpy(c.first, [&] { return (c.second() * 1).eval(); }, true);
  }
  // On random inputs: the same bits as the reference for 0.5, -1, 1 and 2 (sqrt, 1 / x, x and x * x
  // are correctly rounded on both sides), where the GPU's pow would differ in the last bits.
  std::mt19937_64 rng(28);
  for (DType t : {DType::Float32, DType::Float64}) {
    const Array x = loom::test::random_array(t, {100000}, rng).eval();
    for (double e : {0.5, -1.0, 1.0, 2.0}) {
      INFO(loom::name(t) << " ** " << e);
      CHECK(loom::test::check_gpu(loom::power(x, e), 0, 0) == "");
    }
  }
}

TEST_CASE("softmax and log_softmax stay accurate for large float32 logits", "[gpu][hardening][reductions]") {
  // Rows around 1000 (and -1000): exp(x - logsumexp(x)) carried ulp(1000) = 6e-5 of absolute
  // error into every exponent (up to ~124 eps); exp(x - max) / sum does not.
  std::mt19937_64 rng(12);
  std::normal_distribution<double> noise(0.0, 3.0);
  for (const double center : {1000.0, -1000.0, 30000.0}) {
    for (const std::int64_t cols : {64, 1000, 8192, 20000}) {
      const std::int64_t rows = 64;
      std::vector<float> h(static_cast<std::size_t>(rows * cols));
      for (float& v : h) v = static_cast<float>(center + noise(rng));
      const Array x = loom::asarray(h, {rows, cols});
      const auto got = loom::softmax(x, 1).to_host<float>();
      const auto got_log = loom::log_softmax(x, 1).to_host<float>();
      double worst = 0, worst_log = 0;
      for (std::int64_t r = 0; r < rows; ++r) {
        const float* row = h.data() + r * cols;
        double m = -HUGE_VAL, s = 0;
        for (std::int64_t c = 0; c < cols; ++c) m = std::max(m, static_cast<double>(row[c]));
        for (std::int64_t c = 0; c < cols; ++c) s += std::exp(static_cast<double>(row[c]) - m);
        for (std::int64_t c = 0; c < cols; ++c) {
          const double ls = static_cast<double>(row[c]) - m - std::log(s);
          const double want = std::exp(ls);
          const auto k = static_cast<std::size_t>(r * cols + c);
          if (want > 1e-30) worst = std::max(worst, std::abs(got[k] - want) / want);
          worst_log = std::max(worst_log, std::abs(got_log[k] - ls) / std::max(1.0, std::abs(ls)));
        }
      }
      INFO("center " << center << ", rows of " << cols << ": worst relative error " << worst / 1.19e-7
                     << " eps, log_softmax " << worst_log / 1.19e-7 << " eps");
      CHECK(worst < 8 * 1.19e-7);
      CHECK(worst_log < 8 * 1.19e-7);
    }
  }
  // Still one row-resident kernel for rows that fit on chip.
  const Array x = loom::ones({256, 4096}, DType::Float32);
  loom::reset_cache_stats();
  loom::softmax(x, 1).eval();
  CHECK(loom::cache_stats().launches == 1);
}

TEST_CASE("printing a huge lazy array computes only the corners it shows", "[gpu][hardening]") {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string s = loom::to_string(loom::arange(std::int64_t{100000} * 100000).reshape({100000, 100000}) % 7);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  CHECK(s ==
        "array([[0, 1, 2, ..., 2, 3, 4],\n"
        "       [5, 6, 0, ..., 0, 1, 2],\n"
        "       [3, 4, 5, ..., 5, 6, 0],\n"
        "       ...,\n"
        "       [3, 4, 5, ..., 5, 6, 0],\n"
        "       [1, 2, 3, ..., 3, 4, 5],\n"
        "       [6, 0, 1, ..., 1, 2, 3]], shape=(100000, 100000))");
}

TEST_CASE("device memory exhaustion is OutOfMemory, and the pool recovers", "[gpu][hardening]") {
  REQUIRE_THROWS_AS(loom::zeros({std::int64_t{1} << 38}).eval(), loom::OutOfMemory);  // 2 TiB
  REQUIRE_THROWS_AS(loom::empty({std::int64_t{1} << 47}), loom::OutOfMemory);
  CHECK((loom::ones({1000}) * 2).to_host<double>()[999] == 2);
}
