// Arrays with static and thread_local storage, evaluated and not, alive until exit: their
// destructors run after other thread_locals and statics are gone and must touch none of them
// (ctest runs this plainly and, where valgrind is installed, under valgrind).

#include <cstdio>
#include <thread>
#include <vector>

#include <loom/loom.hpp>

namespace {

loom::Array g_lazy = (loom::ones({3}) + 1) * 2;
loom::Array g_evaluated = ((loom::ones({3}) + 1) * 2).eval();
loom::Array g_calls = [] {
  loom::Array x = loom::ones({4});
  for (int i = 0; i < 1000; ++i) x = loom::cumsum(x) * 0.5;
  return x;
}();
thread_local loom::Array t_array = loom::arange(5) * 3;

bool same(const loom::Array& a, const std::vector<double>& want) { return a.to_host<double>() == want; }

}  // namespace

int main() {
  static loom::Array s_local = loom::ones({2}) - 1;
  bool ok = same(g_evaluated, {4, 4, 4}) && same(s_local, {0, 0});
  ok = ok && t_array.to_host<std::int64_t>() == std::vector<std::int64_t>{0, 3, 6, 9, 12};
  std::thread worker([&] {
    t_array = t_array + 1;  // the worker's own thread_local, dropped at the thread's exit
    ok = ok && t_array.to_host<std::int64_t>()[4] == 13;
  });
  worker.join();
  (void)g_lazy;
  (void)g_calls;
  std::puts(ok ? "static arrays: ok" : "static arrays: WRONG VALUES");
  return ok ? 0 : 1;
}
