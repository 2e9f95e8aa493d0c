// Compiled by ctest with the graph layer's include root: a header of its own layer is found.
#include "graph/node.hpp"
int main() { return 0; }
