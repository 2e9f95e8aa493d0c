// data_ptr, from_pointer and DLPack without a GPU (host memory, DLPack's kDLCPU): values and
// strides without copies, owners and deleters released exactly once after the last use, and
// the errors. (On the GPU: tests/gpu/test_interop_gpu.cpp.)

#include <catch2/catch.hpp>

#include <numeric>

#include <dlpack/dlpack.h>

#include <loom/interop.hpp>
#include <loom/loom.hpp>

#include "support/dlpack_tensors.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;

TEST_CASE("from_pointer wraps memory without a copy and keeps its owner alive", "[interop]") {
  if (loom::device_count() > 0) return;  // host memory is what loom uses without a GPU only
  auto data = std::make_shared<std::vector<float>>(12);
  std::iota(data->begin(), data->end(), 0.0f);
  bool released = false;
  std::shared_ptr<void> owner(data.get(), [&released, data](void*) mutable {
    released = true;
    data.reset();
  });
  float* p = data->data();
  data.reset();  // only the owner holds the vector now
  {
    const Array a = loom::from_pointer(p, {3, 4}, DType::Float32, std::nullopt, -1, owner);
    owner.reset();
    CHECK(a.data_ptr() == p);
    CHECK(a.to_host<float>() == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    // Strides in bytes, as NumPy's: a transposed view and a reversed one.
    const Array t = loom::from_pointer(p, {4, 3}, DType::Float32, loom::Shape{4, 16}, -1, std::function<void()>());
    CHECK(t.to_host<float>() == std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
    const Array r = loom::from_pointer(p + 11, {12}, DType::Float32, loom::Shape{-4}, -1, std::function<void()>());
    CHECK(r.to_host<float>()[0] == 11.0f);
    CHECK(r.to_host<float>()[11] == 0.0f);
    const Array view = a[{1}];
    CHECK(view.data_ptr() == p + 4);
    const Array b = (a * 2).eval();
    CHECK(!released);
    (void)b;
  }
  CHECK(released);  // after the last array over it
  std::vector<double> v(4);
  CHECK_THROWS_WITH(loom::from_pointer(v.data(), {4}, DType::Float64, loom::Shape{12}, -1, std::function<void()>()),
                    Catch::Matchers::Contains("stride 12 is not a multiple of the item size 8"));
  CHECK_THROWS_WITH(loom::from_pointer(v.data(), {4, 1}, DType::Float64, loom::Shape{8}, -1, std::function<void()>()),
                    Catch::Matchers::Contains("1 strides for 2 dimensions"));
  CHECK_THROWS_WITH(loom::from_pointer(nullptr, {4}, DType::Float64), Catch::Matchers::Contains("a null pointer for 4 elements"));
  CHECK_THROWS_WITH(loom::from_pointer(v.data(), {4}, DType::Float64, std::nullopt, 0),
                    Catch::Matchers::Contains("GPU 0 asked for, but there is no GPU"));
  CHECK(loom::from_pointer(nullptr, {0, 3}, DType::Float64).size() == 0);
}

TEST_CASE("DLPack tensors go out and come in without copies", "[interop]") {
  if (loom::device_count() > 0) return;
  const Array a = loom::arange(24).astype(DType::Int16).reshape({2, 3, 4}).eval();
  const Array view = a.transpose({2, 0, 1});
  DLManagedTensor* t = loom::to_dlpack(view);
  REQUIRE(t != nullptr);
  CHECK(t->dl_tensor.device.device_type == kDLCPU);
  CHECK(t->dl_tensor.ndim == 3);
  CHECK(t->dl_tensor.dtype.code == kDLInt);
  CHECK(t->dl_tensor.dtype.bits == 16);
  CHECK(t->dl_tensor.dtype.lanes == 1);
  CHECK(std::vector<std::int64_t>(t->dl_tensor.shape, t->dl_tensor.shape + 3) == std::vector<std::int64_t>{4, 2, 3});
  CHECK(std::vector<std::int64_t>(t->dl_tensor.strides, t->dl_tensor.strides + 3) == std::vector<std::int64_t>{1, 12, 4});
  CHECK(t->dl_tensor.data == a.data_ptr());
  // Back in: the same memory, the same values; the deleter runs once loom is done with it.
  {
    const Array back = loom::from_dlpack(t);
    CHECK(back.data_ptr() == a.data_ptr());
    CHECK(back.to_host<std::int16_t>() == view.to_host<std::int16_t>());
  }
  // A tensor made by hand: bool (DLPack's code 6), 0-d, zero-size, and the deleter count.
  static bool flags[3] = {true, false, true};
  static std::int64_t shape3[] = {3};
  using loom::test::dlpack_refusal;
  const int deleted = loom::test::dlpack_deleted();
  auto make = [](std::uint8_t code, std::uint8_t bits, std::uint16_t lanes, DLDeviceType dev, int ndim) {
    return loom::test::dlpack_tensor(flags, {dev, 0}, {code, bits, lanes}, ndim, shape3);
  };
  {
    const Array b = loom::from_dlpack(make(6, 8, 1, kDLCPU, 1));
    CHECK(b.dtype() == DType::Bool);
    CHECK(b.to_host<bool>() == std::vector<bool>{true, false, true});
    CHECK(loom::from_dlpack(make(1, 8, 1, kDLCPU, 0)).shape() == loom::Shape{});
  }
  CHECK(loom::test::dlpack_deleted() - deleted == 2);
  CHECK_THAT(dlpack_refusal(make(2, 32, 4, kDLCPU, 1)), Catch::Matchers::Contains("vector types (4 lanes)"));
  CHECK_THAT(dlpack_refusal(make(2, 8, 1, kDLCPU, 1)), Catch::Matchers::Contains("code 2 with 8 bits is not a dtype loom has"));
  CHECK_THAT(dlpack_refusal(make(9, 8, 1, kDLCPU, 1)), Catch::Matchers::Contains("code 9"));
  CHECK_THAT(dlpack_refusal(make(1, 8, 1, kDLOpenCL, 1)), Catch::Matchers::Contains("a device of DLPack type 4"));
  CHECK_THAT(dlpack_refusal(make(1, 8, 1, kDLCPU, 17)), Catch::Matchers::Contains("17 dimensions"));
  CHECK_THROWS_WITH(loom::from_dlpack(nullptr), Catch::Matchers::Contains("a null tensor"));
  // An exported tensor keeps loom's buffer alive after every array is gone.
  DLManagedTensor* kept = nullptr;
  {
    const Array c = (loom::arange(5) * 3).eval();
    kept = loom::to_dlpack(c);
  }
  const auto* vals = static_cast<const std::int64_t*>(kept->dl_tensor.data);
  CHECK(vals[4] == 12);
  kept->deleter(kept);
}

TEST_CASE("foreign memory: a null shape, extents past int64 and null data are ValueErrors", "[interop][errors]") {
  std::vector<double> v(8);
  using loom::test::WhatContains;
  // Strides whose extent overflows int64, in elements or in bytes: refused, not wrapped into a
  // broadcast or an unrelated read (or std::length_error) later.
  const std::int64_t big = std::int64_t{1} << 62;  // bytes: 2^59 elements, 3 of them reach 3 * 2^62 bytes
  CHECK_THROWS_MATCHES(loom::from_pointer(v.data(), {4, 2}, DType::Float64, loom::Shape{big, 8}, -1, std::function<void()>()),
                       loom::ValueError,
                       WhatContains("from_pointer: shape (4, 2) with strides (576460752303423488, 1) (in elements of 8 "
                                    "bytes) reaches memory past what a 64-bit offset from the pointer can address"));
  CHECK_THROWS_MATCHES(loom::from_pointer(v.data(), {4}, DType::Int8, loom::Shape{std::int64_t{1} << 62}, -1,
                                          std::function<void()>()),
                       loom::ValueError, WhatContains("from_pointer: shape (4,) with strides (4611686018427387904,)"));
  CHECK_THROWS_MATCHES(loom::from_pointer(v.data(), {3, 3}, DType::Int8, loom::Shape{-(std::int64_t{1} << 62), -(std::int64_t{1} << 62)},
                                          -1, std::function<void()>()),
                       loom::ValueError, WhatContains("from_pointer: shape (3, 3)"));
  // Below address 0: a negative stride from a pointer near it.
  CHECK_THROWS_MATCHES(loom::from_pointer(reinterpret_cast<void*>(std::uintptr_t{64}), {2}, DType::Float64,
                                          loom::Shape{-128}, -1, std::function<void()>()),
                       loom::ValueError, WhatContains("reaches memory past what a 64-bit offset"));
  // asarray_bytes copies nothing from null.
  CHECK_THROWS_MATCHES(loom::from_pointer(v.data(), {std::int64_t{1} << 40, std::int64_t{1} << 40}, DType::Float64),
                       loom::ValueError, WhatContains("from_pointer: array is too big"));
  CHECK_THROWS_MATCHES(loom::asarray_bytes(nullptr, 16, DType::Float64, {2}), loom::ValueError,
                       WhatContains("asarray_bytes: a null pointer for 16 bytes"));
  CHECK(loom::asarray_bytes(nullptr, 0, DType::Float64, {0}).size() == 0);
  if (loom::device_count() > 0) return;  // the tensors below are host memory (kDLCPU)
  static std::int64_t shape2[] = {4, 2};
  static std::int64_t huge_strides[] = {std::int64_t{1} << 61, 1};
  using loom::test::dlpack_refusal;
  const int deleted = loom::test::dlpack_deleted();
  const auto make = [&](std::int64_t* shape, std::int64_t* strides) {
    return loom::test::dlpack_tensor(v.data(), {kDLCPU, 0}, {kDLFloat, 64, 1}, 2, shape, strides);
  };
  CHECK_THAT(dlpack_refusal(make(nullptr, nullptr)),
             Catch::Matchers::Contains("from_dlpack: the tensor has 2 dimensions and a null shape"));
  CHECK_THAT(dlpack_refusal(make(shape2, huge_strides)),
             Catch::Matchers::Contains("from_dlpack: shape (4, 2) with strides (2305843009213693952, 1) (in elements "
                                       "of 8 bytes) reaches memory past what a 64-bit offset"));
  DLManagedTensor* null_data = make(shape2, nullptr);
  null_data->dl_tensor.data = nullptr;
  null_data->dl_tensor.byte_offset = 64;
  CHECK_THAT(dlpack_refusal(null_data), Catch::Matchers::Contains("from_dlpack: a null pointer for 8 elements"));
  static std::int64_t huge_shape[] = {std::int64_t{1} << 40, std::int64_t{1} << 40};  // C order: no stride overflows
  CHECK_THAT(dlpack_refusal(make(huge_shape, nullptr)), Catch::Matchers::Contains("from_dlpack: array is too big"));
  CHECK(loom::test::dlpack_deleted() - deleted == 4);
  {
    const Array ok = loom::from_dlpack(make(shape2, nullptr));  // the same tensor, well formed
    CHECK(ok.shape() == loom::Shape{4, 2});
  }
  CHECK(loom::test::dlpack_deleted() - deleted == 5);
}

TEST_CASE("an exception from a from_pointer release function is reported, not fatal", "[interop]") {
  if (loom::device_count() > 0) return;  // host memory is what loom uses without a GPU only
  std::vector<float> v{1, 2, 3};
  int released = 0;
  {
    const Array a = loom::from_pointer(v.data(), {3}, DType::Float32, std::nullopt, -1, std::function<void()>([&] {
                                         ++released;
                                         throw std::runtime_error("release failed");
                                       }));
    CHECK((a * 2).to_host<float>() == std::vector<float>{2, 4, 6});
  }  // the storage's destructor runs the release: printed and dropped, as a MemoryHook's exception
  CHECK(released == 1);
  {
    const Array b = loom::from_pointer(v.data(), {3}, DType::Float32, std::nullopt, -1, std::function<void()>([&] {
                                         ++released;
                                         throw 42;  // not a std::exception
                                       }));
    (void)b;
  }
  CHECK(released == 2);
}
