#pragma once
// The memory hooks of include/loom/memory.hpp: who is listening, and the one call every
// allocation and free of array memory makes (device pools here, host buffers in lib/storage).

#include <atomic>

#include <loom/memory.hpp>

namespace loom::rt {

// True while a MemoryHook lives: one relaxed load on the allocation path when none does.
extern std::atomic<int> g_memory_hooks;
inline bool memory_hooked() { return g_memory_hooks.load(std::memory_order_relaxed) != 0; }

// Runs every hook's callback (a snapshot taken under a lock, called outside it), except from inside a
// callback on the same thread (its own memory is not reported). Never throws.
void notify_memory(const MemoryEvent& e) noexcept;

}  // namespace loom::rt
