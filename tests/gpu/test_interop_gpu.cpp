// data_ptr, from_pointer and DLPack on the GPU: device memory wrapped without copies (values,
// strides, owners released after the last use), never written in place, DLPack round trips with
// kDLCUDA tensors, and host pointers refused.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>

#include <unistd.h>

#include <cuda_runtime_api.h>
#include <dlpack/dlpack.h>
#include <fmt/format.h>

#include <loom/interop.hpp>
#include <loom/io.hpp>
#include <loom/loom.hpp>

#include "support/dlpack_tensors.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("foreign device memory is used without a copy and never written in place", "[gpu][interop]") {
  std::vector<float> host(12);
  std::iota(host.begin(), host.end(), 0.0f);
  float* dev = nullptr;
  REQUIRE(cudaMalloc(reinterpret_cast<void**>(&dev), 12 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemcpy(dev, host.data(), 12 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  // A copy from pageable memory may return before its DMA ends; loom's stream does not wait on the
  // legacy stream. The producer makes the memory ready before handing it over (as the README says).
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  bool freed = false;
  {
    Array a = loom::from_pointer(dev, {3, 4}, DType::Float32, std::nullopt, -1, [&] {
      loom::synchronize();
      freed = cudaFree(dev) == cudaSuccess;
    });
    CHECK(a.data_ptr() == dev);
    CHECK(a.to_host<float>() == host);
    const Array t = loom::from_pointer(dev, {4, 3}, DType::Float32, loom::Shape{4, 16}, 0, std::function<void()>());
    CHECK(t.to_host<float>() == (loom::asarray(host, {3, 4}).T()).to_host<float>());
    // A write makes a new array: the foreign memory keeps its values.
    a[{loom::Slice(0, 1)}] = 100.0f;
    CHECK(a.to_host<float>()[0] == 100.0f);
    std::vector<float> back(12);
    REQUIRE(cudaMemcpy(back.data(), dev, 12 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(back == host);
    CHECK(!freed);
  }
  CHECK(freed);
  std::vector<double> v(4);
  CHECK_THROWS_WITH(loom::from_pointer(v.data(), {4}, DType::Float64), Catch::Matchers::Contains("is host memory"));
}

TEST_CASE("DLPack round trips on the GPU", "[gpu][interop]") {
  const Array a = (loom::arange(24).astype(DType::Float32).reshape({4, 6}) * 2).eval();
  DLManagedTensor* t = loom::to_dlpack(a.T());
  CHECK(t->dl_tensor.device.device_type == kDLCUDA);
  CHECK(t->dl_tensor.data == a.data_ptr());
  const Array b = loom::from_dlpack(t, loom::Stream::current().handle());
  CHECK(b.data_ptr() == a.data_ptr());
  CHECK(b.to_host<float>() == a.T().to_host<float>());
  CHECK((b * 1.0f).to_host<float>() == a.T().to_host<float>());
  // An exported tensor keeps loom's buffer alive after every array is gone: the pool does not
  // hand the memory out again while the capsule lives.
  DLManagedTensor* kept = loom::to_dlpack((loom::arange(1 << 20).astype(DType::Float32) + 1).eval());
  std::vector<Array> others;
  for (int k = 0; k < 8; ++k) others.push_back(loom::full({1 << 20}, -5.0f).eval());
  loom::synchronize();
  std::vector<float> back(1 << 20);
  REQUIRE(cudaMemcpy(back.data(), kept->dl_tensor.data, back.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back.front() == 1.0f);
  CHECK(back.back() == static_cast<float>(1 << 20));
  for (const Array& o : others) CHECK(o.data_ptr() != kept->dl_tensor.data);
  kept->deleter(kept);
}

TEST_CASE("foreign device memory: a null shape, extents past int64 and throwing releases", "[gpu][interop]") {
  float* dev = nullptr;
  REQUIRE(cudaMalloc(reinterpret_cast<void**>(&dev), 64 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemset(dev, 0, 64 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  static std::int64_t shape2[] = {4, 2};
  static std::int64_t huge_strides[] = {std::int64_t{1} << 61, 1};
  using loom::test::dlpack_refusal;
  const int deleted = loom::test::dlpack_deleted();
  const auto make = [&](std::int64_t* shape, std::int64_t* strides) {
    return loom::test::dlpack_tensor(dev, {kDLCUDA, 0}, {kDLFloat, 32, 1}, 2, shape, strides);
  };
  CHECK_THAT(dlpack_refusal(make(nullptr, nullptr)),
             Catch::Matchers::Contains("from_dlpack: the tensor has 2 dimensions and a null shape"));
  CHECK_THAT(dlpack_refusal(make(shape2, huge_strides)),
             Catch::Matchers::Contains("from_dlpack: shape (4, 2) with strides (2305843009213693952, 1) (in elements "
                                       "of 4 bytes) reaches memory past what a 64-bit offset"));
  CHECK_THROWS_WITH(loom::from_pointer(dev, {4, 2}, DType::Float32, loom::Shape{std::int64_t{1} << 62, 4}, 0,
                                       std::function<void()>()),
                    Catch::Matchers::Contains("from_pointer: shape (4, 2) with strides (1152921504606846976, 1)"));
  CHECK(loom::test::dlpack_deleted() - deleted == 2);
  // A release function that throws: printed and dropped when the last array lets the memory go.
  int released = 0;
  {
    const Array a = loom::from_pointer(dev, {8}, DType::Float32, std::nullopt, 0, [&] {
      ++released;
      throw std::runtime_error("release failed");
    });
    CHECK((a + 1.0f).to_host<float>() == std::vector<float>(8, 1.0f));
  }
  CHECK(released == 1);
  REQUIRE(cudaFree(dev) == cudaSuccess);
}

// Files of several pinned chunks (16 MiB each) with a ragged last one, a strided array (copied to
// C order first), a big-endian file and a Fortran-order one, compared with the host's values.
TEST_CASE("npy files stream through pinned chunks on the GPU", "[gpu][interop][io]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("loom_npy_gpu_{}", ::getpid());
  fs::create_directories(dir);
  const std::int64_t n = 5'000'003;  // 40 MB of float64: 3 chunks, the last partial
  const Array a = loom::random::uniform(-1.0, 1.0, {n}, DType::Float64).eval();
  const std::vector<double> host = a.to_host<double>();
  loom::save((dir / "a.npy").string(), a);
  CHECK(fs::file_size(dir / "a.npy") == 128 + 8 * static_cast<std::uintmax_t>(n));
  const Array b = loom::load((dir / "a.npy").string());
  CHECK(b.to_host<double>() == host);
  const Array t = a[{loom::Slice(0, 4'000'000)}].reshape({2000, 2000}).T();
  loom::save((dir / "t.npy").string(), t);
  CHECK(loom::load((dir / "t.npy").string()).to_host<double>() == t.to_host<double>());
  // Big endian and Fortran order, written by hand: the elements of (3000, 2001) int16 in F order.
  const std::int64_t r = 3000, c = 2001;
  std::vector<std::int16_t> f(static_cast<std::size_t>(r * c));
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = static_cast<std::int16_t>(k * 7919 % 65521 - 30000);
  std::string header = fmt::format("{{'descr': '>i2', 'fortran_order': True, 'shape': ({}, {}), }}", r, c);
  header += std::string(128 - 10 - header.size() - 1, ' ') + "\n";  // the data starts at 128
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  for (std::int16_t v : f) {
    file += static_cast<char>((static_cast<std::uint16_t>(v) >> 8) & 0xff);
    file += static_cast<char>(v & 0xff);
  }
  std::ofstream(dir / "f.npy", std::ios::binary) << file;
  const Array g = loom::load((dir / "f.npy").string());
  REQUIRE(g.shape() == loom::Shape{r, c});
  CHECK(g.T().copy().to_host<std::int16_t>() == f);  // column-major elements, in file order
  CHECK(g.dtype() == DType::Int16);
  fs::remove_all(dir);
}
