#pragma once
// The on-disk kernel cache (DESIGN.md decision 4b): cubins by content key under one directory,
// written atomically (temp file + rename) and verified on every load; a bad entry is deleted and
// reported as a miss, never trusted. Never throws: an unusable directory disables the cache.
//
// Threat model: other local users. The directory is used only when it is owned by this user and
// not writable by group or others (else a warning, once, and no disk cache); entries are opened
// without following symlinks, must be regular files owned by this user, and carry the key and a
// checksum. A process running as this user can of course plant entries: it can also replace the
// library itself.

#include <atomic>
#include <mutex>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/hash.hpp"
#include "runtime/nvrtc_compile.hpp"

namespace loom::rt {

// Bumped whenever the file layout or the key recipe changes; part of every key and every file.
inline constexpr std::uint32_t kDiskCacheFormat = 1;

// The key of a compiled kernel: everything that decides the cubin's bytes.
Hash128 disk_key(std::string_view source, std::span<const NvrtcHeader> headers,
                 std::string_view nvrtc_version, int cc_major, int cc_minor,
                 std::span<const std::string> options);

// Entries are files <dir>/<key.hex()>.cubin: a 48-byte header {"LOOMCUBN", format (u32),
// reserved (u32), key hi, key lo, payload bytes, XXH3-64 of the payload (u64 each, little
// endian)}, then the cubin. Thread-safe; several processes may share one directory.
class DiskCache {
 public:
  explicit DiskCache(std::string dir);

  // nullopt on a miss, on a rejected (corrupt, truncated, foreign) entry, or when disabled.
  std::optional<std::vector<char>> load(const Hash128& key);
  // Creates the directory (0700) on first use; failures warn once and disable the cache. True
  // when the entry was written.
  bool store(const Hash128& key, std::span<const char> cubin);

  const std::string& dir() const { return dir_; }
  bool enabled() const { return !disabled_.load(std::memory_order_relaxed); }
  std::string path_of(const Hash128& key) const;

  // Each load() counts once: a hit, a miss (no entry), or a rejected entry (deleted).
  struct Counters {
    std::uint64_t hits = 0, misses = 0, writes = 0, rejected = 0;
    std::uint64_t stale_removed = 0;  // temp files of dead writers deleted
  };
  Counters counters() const;

 private:
  void disable(std::string_view what, std::string_view why);
  bool ensure_dir();
  void remove_stale_temps();

  std::string dir_;
  std::atomic<bool> disabled_{false};
  std::atomic<bool> dir_ready_{false};
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, writes_{0}, rejected_{0}, stale_removed_{0};
  std::mutex dir_mu_;
};

}  // namespace loom::rt
