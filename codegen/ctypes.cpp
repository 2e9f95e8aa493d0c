#include "codegen/ctypes.hpp"

namespace loom::codegen {

const char* storage_ctype(DType t) {
  switch (t) {
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) \
  case DType::e: return device;
#include <loom/dtypes.def>
#undef LOOM_DTYPE
  }
  return "?";
}

const char* register_ctype(DType t) { return is_half(t) ? "float" : storage_ctype(t); }

const char* cast_target(DType t) {
  if (t == DType::Float16) return "loom::f16";
  if (t == DType::BFloat16) return "loom::bf16";
  return storage_ctype(t);
}

const char* short_name(DType t) { return dtype_info(t).short_name.data(); }

}  // namespace loom::codegen
