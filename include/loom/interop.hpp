#pragma once
// Arrays in and out of loom without copies: raw device pointers, foreign memory, DLPack.
//
//   void* p = a.data_ptr();                       // a's first element (a evaluated first)
//   Array b = loom::from_pointer(p, {n}, loom::float32, std::nullopt, 0, owner);
//   DLManagedTensor* t = loom::to_dlpack(a);      // give it to PyTorch, CuPy, JAX ...
//   Array c = loom::from_dlpack(t);               // ... and take theirs
//
// DLManagedTensor comes from Debian's libdlpack-dev (<dlpack/dlpack.h>, DLPack 0.6 and later);
// this header only names it. Without a GPU, loom's arrays live in host memory and these speak of
// host pointers (DLPack's kDLCPU); with one, of device pointers (kDLCUDA).

#include <functional>
#include <memory>
#include <optional>

#include <loom/array.hpp>

struct DLManagedTensor;

namespace loom {

// An array over memory loom does not own, without a copy (CuPy's UnownedMemory): `ptr` is the
// first element, `strides` in bytes as NumPy's (C-contiguous when left out; negative allowed),
// `device` the GPU holding it (the current one when -1). `owner` is kept alive as long as any
// array uses the memory (and released after the last use on the GPU has been queued: release it
// only when that work is done, e.g. free with the stream ordered allocator). Writes into such an
// array make new arrays (arrays are values); in-place writes never touch foreign memory.
Array from_pointer(void* ptr, const Shape& shape, DType dtype, std::optional<Shape> strides = std::nullopt,
                   int device = -1, std::shared_ptr<void> owner = nullptr);
// The same with a function called once the memory is no longer used.
Array from_pointer(void* ptr, const Shape& shape, DType dtype, std::optional<Shape> strides, int device,
                   std::function<void()> release);

// `a` (evaluated, and the current stream synchronized so that any consumer may read it) as a
// DLPack tensor whose deleter keeps loom's buffer alive until the consumer calls it. Its strides
// are a's layout (a view stays a view); bool is DLPack's kDLBool (code 6).
DLManagedTensor* to_dlpack(const Array& a);
// A DLPack tensor as an array, without a copy; its deleter is called when loom no longer uses
// the memory. `producer_stream` (a cudaStream_t, or null): work queued there is waited for by
// loom's current stream first. Errors: a tensor on another kind of device, an unsupported dtype
// or vector lanes, more than 16 dims, negative extents.
Array from_dlpack(DLManagedTensor* tensor, void* producer_stream = nullptr);

}  // namespace loom
