#include "codegen/ctypes.hpp"

namespace loom::codegen {

const char* storage_ctype(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short";
    case DType::Int32: return "int";
    case DType::Int64: return "long long";
    case DType::UInt8: return "unsigned char";
    case DType::UInt16: return "unsigned short";
    case DType::UInt32: return "unsigned int";
    case DType::UInt64: return "unsigned long long";
    case DType::Float16: return "__half";
    case DType::BFloat16: return "__nv_bfloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "loom::c64";
    case DType::Complex128: return "loom::c128";
  }
  return "?";
}

const char* register_ctype(DType t) { return is_half(t) ? "float" : storage_ctype(t); }

const char* cast_target(DType t) {
  if (t == DType::Float16) return "loom::f16";
  if (t == DType::BFloat16) return "loom::bf16";
  return storage_ctype(t);
}

const char* short_name(DType t) {
  switch (t) {
    case DType::Bool: return "b1";
    case DType::Int8: return "i8";
    case DType::Int16: return "i16";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::UInt8: return "u8";
    case DType::UInt16: return "u16";
    case DType::UInt32: return "u32";
    case DType::UInt64: return "u64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
    case DType::Complex64: return "c64";
    case DType::Complex128: return "c128";
  }
  return "?";
}

}  // namespace loom::codegen
