// A small shared library with C entry points, loaded from Python with ctypes by
// tests/interop/dlpack_frameworks.py on the GPU machine: DLPack capsules pass both ways between
// loom and PyTorch (and CuPy), and the script checks values and that no copy was made.

#include <cstdint>

#include <dlpack/dlpack.h>

#include <loom/interop.hpp>
#include <loom/loom.hpp>

extern "C" {

// The GPUs loom sees (0: its arrays are in host memory).
int loom_bridge_gpus() { return loom::device_count(); }

// A new loom array, (arange(n) * 2 + 1) as float32 in the shape (rows, n / rows), transposed
// when `transposed` (a strided tensor); its first element's address goes to *ptr.
DLManagedTensor* loom_bridge_export(std::int64_t n, std::int64_t rows, int transposed, void** ptr) {
  loom::Array a = (loom::arange(n).astype(loom::float32) * 2.0f + 1.0f).reshape({rows, n / rows}).eval();
  if (transposed != 0) a = a.T();
  *ptr = a.data_ptr();
  return loom::to_dlpack(a);
}

// Takes a framework's tensor: returns the sum of its elements times 3 computed by loom (fused, on
// the GPU), and the address loom sees in *ptr (the framework's own: no copy).
double loom_bridge_import(DLManagedTensor* t, void** ptr) {
  const loom::Array a = loom::from_dlpack(t);
  *ptr = a.data_ptr();
  return loom::sum(a.astype(loom::float64) * 3.0).item<double>();
}

}  // extern "C"
