// bench_manipulation: the joining and padding figures on one GPU, with the copy ceiling
// of the same run: concatenate of 4 fused producers of 2^24 float32 each (one kernel), the same
// with buffers, pad (reflect) feeding a 5-point stencil on 8192^2, tile, repeat and roll of 2^24
// float32 feeding a multiply. bench/peers_manipulation.py times CuPy and PyTorch on the same
// cases. Bytes are the least each case must move (each input read once, the output written once).
// Writes JSON to argv[1] (else $OUT/bench_manipulation.json).

#include <cstdio>
#include <functional>

#include <loom/loom.hpp>

#include "bench_util.hpp"

using loom::Array;
using loom::DType;

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_manipulation: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  loom::bench::Report rep("bench_manipulation", ceiling);
  const auto kernels = [](const std::function<void()>& f) {
    loom::reset_cache_stats();
    f();
    loom::synchronize();
    return loom::cache_stats().launches;
  };
  const std::int64_t n = std::int64_t{1} << 24;
  std::vector<Array> in;
  for (int k = 0; k < 4; ++k) in.push_back(loom::random::uniform(-1.0, 1.0, {n}, DType::Float32).eval());
  const auto fused = [&] {
    loom::concatenate({in[0] * 2.0f, in[1] + 1.0f, loom::exp(in[2]), in[3] - in[0]}).eval();
  };
  const auto plain = [&] { loom::concatenate(in).eval(); };
  std::printf("concatenate of 4 fused producers: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(fused)));
  // The fused case reads in[0] twice (a * 2 and d - a): 5 reads of 2^24 floats, 4 written.
  rep.bandwidth("concatenate({a*2, b+1, exp(c), d-a}), 4 x 2^24 f32", loom::bench::time_ms(fused), 4.0 * 9 * n);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(fused), 4.0 * 9 * n);
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(fused), 4.0 * 9 * n);
  rep.bandwidth("concatenate of 4 buffers of 2^24 f32", loom::bench::time_ms(plain), 4.0 * 8 * n);
  // reflect-pad feeding a 5-point stencil: one kernel, reads the 8192^2 input, writes 8192^2.
  const std::int64_t h = 8192;
  const Array u = loom::random::uniform(0.0, 1.0, {h, h}, DType::Float32).eval();
  const loom::Slice in1(1, -1), lo(0, -2), hi(2, loom::none);
  const auto padded = [&] {
    const Array p = loom::pad(u, 1, {.mode = "reflect"});
    (p[{in1, in1}] + 0.1f * (p[{lo, in1}] + p[{hi, in1}] + p[{in1, lo}] + p[{in1, hi}] - 4.0f * p[{in1, in1}])).eval();
  };
  std::printf("pad + stencil: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(padded)));
  rep.bandwidth("pad(u, 1, reflect) feeding a 5-point stencil, 8192^2 f32", loom::bench::time_ms(padded), 8.0 * h * h);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(padded), 8.0 * h * h);
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(padded), 8.0 * h * h);
  // tile, repeat, roll feeding an add, 2^26 float32 out.
  const Array x = in[0].reshape({4096, 4096});
  const Array big = loom::random::uniform(-1.0, 1.0, {8192, 8192}, DType::Float32).eval();
  const auto tiled = [&] { (loom::tile(x, {2, 2}) + 1.0f).eval(); };
  const auto repeated = [&] { (loom::repeat(x, 4, 1) + 1.0f).eval(); };
  const auto rolled = [&] { (loom::roll(big, 1000, 1) + 1.0f).eval(); };
  std::printf("tile: %llu kernel(s), repeat: %llu, roll: %llu\n", static_cast<unsigned long long>(kernels(tiled)),
              static_cast<unsigned long long>(kernels(repeated)), static_cast<unsigned long long>(kernels(rolled)));
  rep.bandwidth("tile(x, {2, 2}) + 1, x 4096^2 f32 -> 2^26", loom::bench::time_ms(tiled), 4.0 * (n + 4 * n));
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(tiled), 4.0 * (n + 4 * n));
  rep.bandwidth("repeat(x, 4, axis 1) + 1, -> 2^26", loom::bench::time_ms(repeated), 4.0 * (n + 4 * n));
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(repeated), 4.0 * (n + 4 * n));
  rep.bandwidth("roll(x, 1000, axis 1) + 1, x 8192^2 f32", loom::bench::time_ms(rolled), 8.0 * 4 * n);
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(rolled), 8.0 * 4 * n);
  // stack of 64 arrays of 2^20 float32.
  std::vector<Array> parts;
  for (int k = 0; k < 64; ++k) parts.push_back(loom::random::uniform(-1.0, 1.0, {1 << 20}, DType::Float32).eval());
  const auto stacked = [&] { loom::stack(parts).eval(); };
  std::printf("stack of 64: %llu kernel(s)\n", static_cast<unsigned long long>(kernels(stacked)));
  rep.bandwidth("stack of 64 arrays of 2^20 f32", loom::bench::time_ms(stacked), 8.0 * 64 * (1 << 20));
  rep.bandwidth("  the same, 20 calls a synchronize (batch_ms)", loom::bench::batch_ms(stacked), 8.0 * 64 * (1 << 20));
  rep.bandwidth("  the same, GPU time (gpu_ms)", loom::bench::gpu_ms(stacked), 8.0 * 64 * (1 << 20));
  rep.write(argc, argv);
  return 0;
}
