// bench_interop: what leaving and entering loom costs (issue 17). A DLPack round trip
// (to_dlpack, then from_dlpack of the tensor, no copy) and from_pointer, in microseconds of host
// time; save and load of a 1 GiB float32 array through a .npy file (GPU -> pinned chunks -> file
// and back: bound by the disk and the page cache, reported in GB/s of the array's size, beside an
// fwrite of host memory; each save makes a new file, and the load reads one back from the page
// cache the write filled, as bench/peers_interop.py does for NumPy + CuPy).
// Writes JSON to argv[1] (else $OUT/bench_interop.json).

#include <cstdio>
#include <string>
#include <vector>
#include <filesystem>

#include <dlpack/dlpack.h>

#include <loom/interop.hpp>
#include <loom/io.hpp>
#include <loom/loom.hpp>

#include "bench_util.hpp"

using loom::Array;
using loom::DType;

int main(int argc, char** argv) {
  if (!loom::gpu_available()) {
    std::printf("bench_interop: no GPU\n");
    return 0;
  }
  const double ceiling = loom::bench::copy_ceiling_gbs();
  std::printf("device %s, copy ceiling %.1f GB/s\n\n", loom::device_info().name.c_str(), ceiling);
  loom::bench::Report rep("bench_interop", ceiling);

  const Array a = loom::random::uniform(0.0, 1.0, {1 << 20}, DType::Float32).eval();
  const auto round_trip = [&] {
    DLManagedTensor* t = loom::to_dlpack(a);
    const Array b = loom::from_dlpack(t);
    (void)b;
  };
  rep.time("to_dlpack + from_dlpack round trip, 2^20 f32 (host ms)", loom::bench::host_ms(round_trip, 2000, 100));
  void* p = a.data_ptr();
  const auto wrap = [&] { (void)loom::from_pointer(p, {1 << 20}, DType::Float32, std::nullopt, -1, std::shared_ptr<void>()); };
  rep.time("from_pointer (no owner), 2^20 f32 (host ms)", loom::bench::host_ms(wrap, 2000, 100));
  const auto data_ptr = [&] { (void)a.data_ptr(); };
  rep.time("data_ptr of an evaluated array (host ms)", loom::bench::host_ms(data_ptr, 2000, 100));

  const std::int64_t n = std::int64_t{1} << 28;  // 1 GiB of float32
  const Array big = loom::random::uniform(0.0, 1.0, {n}, DType::Float32).eval();
  const std::string path = (std::filesystem::temp_directory_path() / "loom_bench_interop.npy").string();
  const double bytes = 4.0 * static_cast<double>(n);
  // Each save to a new file: overwriting a 1 GiB file waits for the page cache's writeback of the
  // old one (an fwrite of host memory over an existing file took 0.8-1.0 s here, to a new one 0.3-0.5 s).
  int k = 0;
  const auto fresh = [&] { return path + std::to_string(k++) + ".npy"; };
  rep.bandwidth("save 1 GiB f32 .npy (GPU -> new file)", loom::bench::time_ms([&] { loom::save(fresh(), big); }, 5, 1), bytes);
  {
    std::vector<char> host(static_cast<std::size_t>(bytes), 1);
    const auto raw = [&] {
      std::FILE* f = std::fopen(fresh().c_str(), "wb");
      std::fwrite(host.data(), 1, host.size(), f);
      std::fclose(f);
    };
    rep.bandwidth("  fwrite of 1 GiB of host memory to a new file", loom::bench::time_ms(raw, 5, 1), bytes);
  }
  Array back;
  const std::string last = path + "0.npy";
  rep.bandwidth("load 1 GiB f32 .npy (file -> GPU)", loom::bench::time_ms([&] { back = loom::load(last).eval(); }, 5, 1), bytes);
  const bool same = loom::all(loom::equal(back, big)).item<bool>();
  std::printf("loaded array equals the saved one: %s\n", same ? "yes" : "NO");
  for (int i = 0; i < k; ++i) std::filesystem::remove(path + std::to_string(i) + ".npy");
  rep.write(argc, argv);
  return same ? 0 : 1;
}
