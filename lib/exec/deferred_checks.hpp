#pragma once
// Index checks of writes that nothing may ever evaluate. A write x[idx] = v (or put, or x.at())
// checks its indices in the kernel that computes the new value, and an index out of bounds is an
// IndexError at the next synchronization. But a write whose array is rebound or dropped before
// anything reads it (`z[idx] = 1; z = zeros({2});`) is never computed: its check is kept here, and
// at the next synchronization (runtime/device_errors.hpp's raise_device_errors, or a read of
// values on the host) every kept check whose write was not evaluated runs, so its IndexError is
// raised there at the latest. A write evaluated by then drops its check unrun. Without a GPU the
// host evaluator is synchronous: the check runs when the write is built (NumPy's line).

#include "graph/node.hpp"

namespace loom::exec {

// Keeps `check` (a small graph that reads the checked indices: evaluating it runs the check)
// until the next synchronization, unless `ran` (a node evaluated exactly when the indices are
// read: the library call of the write) is evaluated first. Whether it was is asked after each
// eval (note_evaluated), while it still lives: a write's graph usually dies right after its eval.
void defer_check(const detail::NodeRef& ran, const detail::NodeRef& check);

// After an eval: drops the kept checks whose `ran` is now evaluated (nothing when none is kept).
void note_evaluated();

// Runs the checks kept for `device` whose writes were not evaluated, then synchronizes with
// them. Does nothing inside an eval on this thread, or for another device than the current one.
void run_deferred_checks(int device);

}  // namespace loom::exec
