#pragma once
// The cudaDataType of each dtype, from the dtype table's `cuda` column (include/loom/dtypes.def):
// how cuBLAS, cuSPARSE and cuSOLVER name the element types they take.

#include <optional>

#include <library_types.h>

#include <loom/dtype.hpp>

namespace loom::rt {

// nullopt for dtypes CUDA's math libraries have no type for (bool, the integers).
constexpr std::optional<cudaDataType_t> cuda_data_type(DType t) {
  switch (t) {
#define none std::nullopt
#define LOOM_DTYPE(e, name, short_name, kind, size, host, device, cuda) \
  case DType::e: return cuda;
#include <loom/dtypes.def>
#undef LOOM_DTYPE
#undef none
  }
  return std::nullopt;
}

}  // namespace loom::rt
