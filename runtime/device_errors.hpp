#pragma once
// Errors that kernels find and the host raises at its next synchronization: an integer index out
// of bounds (Op::CheckIndex, codegen/prelude/loom_core.cuh). Each device has one record in
// pinned host memory mapped into the device: the first failing index since the last check writes
// it (flag, index, extent, axis); the host reads it after a synchronization, clears it and raises
// NumPy's IndexError. Nothing is read back when nothing failed: the check is a host memory read.

#include <cstdint>

namespace loom::rt {

// The record's address as kernels see it (allocated on first use).
std::uint64_t* device_error_record(int device);

// Work to run at each synchronization before the record is read (lib/exec's deferred index
// checks of writes nothing evaluated: exec/deferred_checks.hpp). It launches its own kernels and
// synchronizes with them; the runtime knows nothing of graphs, so exec sets it.
using DeferredChecks = void (*)(int device);
void set_deferred_checks(DeferredChecks run);

// After a synchronization with `device`'s work (and the deferred checks): IndexError for an index a kernel found out of
// bounds since the last call, the record cleared (no-op while the device has no record).
void raise_device_errors(int device);

}  // namespace loom::rt
