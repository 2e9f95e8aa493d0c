#pragma once
// The C++ spellings generated code uses for each dtype: how elements are stored in memory, and
// the register type they are computed in (float16/bfloat16 compute in float).

#include <string>

#include <loom/dtype.hpp>

namespace loom::codegen {

// "float", "__half", "loom::c64", "long long", ...
const char* storage_ctype(DType t);
// As storage, except "float" for float16 and bfloat16.
const char* register_ctype(DType t);
// The type named in loom::cast<...>: the register type, or loom::f16 / loom::bf16.
const char* cast_target(DType t);
// Short dtype names for kernel names: f32, i64, b1, c64, bf16.
const char* short_name(DType t);

}  // namespace loom::codegen
