// Must not compile: under `using namespace loom`, a bare `nan` names loom::nan and C's
// ::nan(const char*) both; the compiler reports the ambiguity instead of silently taking the
// function (which converts to true here).
#include <cmath>

#include <loom/loom.hpp>

using namespace loom;

bool f() { return nan; }
