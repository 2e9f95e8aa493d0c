// Compiled with codegen's include root: the runtime (CUDA) is not codegen's to use; must fail.
#include "runtime/module.hpp"
int main() { return 0; }
