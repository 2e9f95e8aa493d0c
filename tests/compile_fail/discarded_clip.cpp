// Must not compile with -Werror=unused-result: loom::clip returns the clipped array; discarding
// it is always a bug.
#include <loom/loom.hpp>

void f(const loom::Array& x) { loom::clip(x, 0, 1); }
