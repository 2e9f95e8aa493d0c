// Must not compile with -Werror=unused-result: x.at(i).set(v) returns the new array and leaves
// x alone, so discarding it is always a bug.
#include <loom/loom.hpp>

void f(const loom::Array& x) { x.at({0}).set(1); }
