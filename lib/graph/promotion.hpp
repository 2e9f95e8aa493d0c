#pragma once
// dtype rules: NumPy 2 promotion (NEP 50 weak scalars included) and each op's type rule, as
// NumPy's ufunc type resolution gives them (held against NumPy's own tables in the tests).

#include <span>
#include <string>

#include <loom/dtype.hpp>

#include "graph/node.hpp"

namespace loom::detail {

struct Operand {
  DType dtype;
  bool weak;  // a C++ number (NEP 50)
};

// The dtype two operands meet in (np.result_type with NEP 50). The result is weak only when
// both operands are.
Operand common_type(Operand a, Operand b);

// Smallest float type an integer or bool safely casts to (np.sqrt's choice); identity for
// floats and complex.
DType float_type_for(DType t);
// complex64 for float32 and narrower, complex128 for float64; identity for complex.
DType complex_type_for(DType t);
// float32 for complex64, float64 for complex128; identity otherwise.
DType real_type_for(DType t);

struct OpTypes {
  DType compute;  // every input is cast to this before the op
  DType out;
};
// The types of an elementwise op on operands that already met in `common` (for Logical ops,
// common is ignored: inputs become bool). Throws DTypeError with NumPy's wording.
OpTypes resolve_op_types(Op op, DType common, std::span<const DType> input_dtypes);

// "(float32, int64)" for error messages.
std::string dtype_list(std::span<const DType> dtypes);

}  // namespace loom::detail
