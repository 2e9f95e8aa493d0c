#pragma once
// 128-bit content hashes (XXH3-128) for cache keys: a one-shot hash128() and an incremental Hasher.
// Header-only: xxhash is inlined (XXH_INLINE_ALL), so no target needs to link libxxhash.

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace loom::rt {

struct Hash128 {
  std::uint64_t hi = 0, lo = 0;

  // 32 lowercase hex digits, hi first: stable across runs and machines (used as file names).
  std::string hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int i = 0; i < 16; ++i) {
      out[15 - i] = kDigits[(hi >> (4 * i)) & 0xf];
      out[31 - i] = kDigits[(lo >> (4 * i)) & 0xf];
    }
    return out;
  }
  friend bool operator==(const Hash128&, const Hash128&) = default;
};

inline Hash128 hash128(std::string_view bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return {h.high64, h.low64};
}

// Incremental hashing of a sequence of fields. add(string_view) hashes the length before the
// bytes, so ("ab","c") and ("a","bc") give different keys; add(uint64) hashes 8 bytes, little
// endian, so keys do not depend on the host's byte order.
class Hasher {
 public:
  Hasher() {
    XXH3_INITSTATE(&state_);
    XXH3_128bits_reset(&state_);
  }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  // Any integer (int, size_t, uint64_t, bool) is hashed as 8 bytes of its value.
  template <class T>
    requires std::is_integral_v<T>
  Hasher& add(T value) {
    const auto v = static_cast<std::uint64_t>(value);
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(v >> (8 * i));
    XXH3_128bits_update(&state_, bytes, sizeof bytes);
    return *this;
  }
  Hasher& add(std::string_view bytes) {
    add(bytes.size());
    XXH3_128bits_update(&state_, bytes.data(), bytes.size());
    return *this;
  }

  Hash128 digest() const {
    const XXH128_hash_t h = XXH3_128bits_digest(&state_);
    return {h.high64, h.low64};
  }

 private:
  XXH3_state_t state_;
};

}  // namespace loom::rt
