// Must not compile with -Werror=unused-result: x.astype(t) returns a new array (NumPy's does
// too); discarding it is always a bug.
#include <loom/loom.hpp>

void f(const loom::Array& x) { x.astype(loom::DType::Float32); }
