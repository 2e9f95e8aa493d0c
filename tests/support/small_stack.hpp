#pragma once
// Runs a function on a thread with a small stack: a test that any recursion per node or per
// library-call level would overflow it (chains of 10^6), used by the CPU and GPU tests alike.

#include <pthread.h>

#include <cstddef>
#include <exception>
#include <functional>

#include <catch2/catch.hpp>

namespace loom::test {

inline void on_small_stack(const std::function<void()>& f, std::size_t stack_bytes) {
  struct Job {
    const std::function<void()>* f;
    std::exception_ptr error;
  } job{&f, nullptr};
  pthread_attr_t attr;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, stack_bytes) == 0);
  pthread_t t;
  REQUIRE(pthread_create(&t, &attr, [](void* p) -> void* {
    auto* j = static_cast<Job*>(p);
    try {
      (*j->f)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  }, &job) == 0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace loom::test
