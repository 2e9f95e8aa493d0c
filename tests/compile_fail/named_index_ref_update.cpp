// Must not compile: `auto y = x[i]` names a copy of x[i], so `y += v` cannot write into x as
// NumPy's view would; the error says what to write instead (include/loom/array.hpp, IndexRef).
#include <loom/loom.hpp>

void f() {
  loom::Array x = loom::arange(6);
  auto y = x[loom::Slice(1, 3)];
  y += 1;
}
