#pragma once
// DLPack tensors made by hand for the interop tests (host and GPU): a tensor over `data` whose
// deleter counts its calls, and what from_dlpack says when it refuses one (a refused tensor is
// still the caller's: deleted here).

#include <cstdint>
#include <string>

#include <dlpack/dlpack.h>

#include <loom/errors.hpp>
#include <loom/interop.hpp>

namespace loom::test {

// How many tensors made by dlpack_tensor have been deleted.
inline int& dlpack_deleted() {
  static int n = 0;
  return n;
}

// shape and strides must outlive the tensor (from_dlpack reads them; null strides: C order).
inline DLManagedTensor* dlpack_tensor(void* data, DLDevice device, DLDataType dtype, int ndim, std::int64_t* shape,
                                      std::int64_t* strides = nullptr) {
  auto* m = new DLManagedTensor{};
  m->dl_tensor.data = data;
  m->dl_tensor.device = device;
  m->dl_tensor.ndim = ndim;
  m->dl_tensor.dtype = dtype;
  m->dl_tensor.shape = shape;
  m->dl_tensor.strides = strides;
  m->deleter = [](DLManagedTensor* self) {
    ++dlpack_deleted();
    delete self;
  };
  return m;
}

// from_dlpack's ValueError message for m, or "(accepted)".
inline std::string dlpack_refusal(DLManagedTensor* m) {
  try {
    (void)from_dlpack(m);
  } catch (const ValueError& e) {
    m->deleter(m);
    return e.what();
  }
  return "(accepted)";
}

}  // namespace loom::test
