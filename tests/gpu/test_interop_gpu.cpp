// data_ptr, from_pointer and DLPack on the GPU: device memory wrapped without copies (values,
// strides, owners released after the last use), never written in place, DLPack round trips with
// kDLCUDA tensors, and host pointers refused.

#include <catch2/catch.hpp>

#include <numeric>

#include <cuda_runtime_api.h>
#include <dlpack/dlpack.h>

#include <loom/interop.hpp>
#include <loom/loom.hpp>

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
}
