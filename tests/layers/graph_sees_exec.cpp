// Compiled by ctest with the graph layer's include root: a header of a layer above it (exec)
// must not be found, so this must fail to compile (the test is marked WILL_FAIL).
#include "exec/realize.hpp"
int main() { return 0; }
