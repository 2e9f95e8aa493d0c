// Must not compile: y.sort() on a named x[i] would sort only the copy, not x's elements as
// NumPy's view would; x[i].sort() is the spelling that sorts them in x.
#include <loom/loom.hpp>

void f() {
  loom::Array x = loom::arange(6).reshape(2, 3);
  auto y = x[1];
  y.sort();
}
