#include "runtime/disk_cache.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <ctime>
#include <mutex>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace loom::rt {

namespace {

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'C', 'U', 'B', 'N'};
constexpr std::size_t kHeaderBytes = 48;
// No cubin of ours comes near this; a larger file is not one of our entries.
constexpr std::uint64_t kMaxPayloadBytes = std::uint64_t{1} << 30;
// A temp file this old (seconds) was left by a writer that died before its rename.
constexpr std::time_t kStaleTempSeconds = 3600;

void put_u32(char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
void put_u64(char* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}
std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

std::uint64_t checksum(std::span<const char> payload) {
  return XXH3_64bits(payload.data(), payload.size());
}

// Closes the descriptor on every path.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool read_all(int fd, char* dst, std::size_t n) {
  while (n > 0) {
    const ssize_t got = ::read(fd, dst, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    dst += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

bool write_all(int fd, const char* src, std::size_t n) {
  while (n > 0) {
    const ssize_t put = ::write(fd, src, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    src += put;
    n -= static_cast<std::size_t>(put);
  }
  return true;
}

}  // namespace

Hash128 disk_key(std::string_view source, std::span<const NvrtcHeader> headers,
                 std::string_view nvrtc_version, int cc_major, int cc_minor,
                 std::span<const std::string> options) {
  Hasher h;
  h.add("loom-disk-cache").add(kDiskCacheFormat);
  h.add(source);
  h.add(headers.size());
  for (const NvrtcHeader& header : headers) h.add(header.name).add(header.source);
  h.add(nvrtc_version).add(cc_major).add(cc_minor);
  h.add(options.size());
  for (const std::string& o : options) h.add(o);
  return h.digest();
}

DiskCache::DiskCache(std::string dir) : dir_(std::move(dir)) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  if (dir_.empty()) disabled_ = true;
}

std::string DiskCache::path_of(const Hash128& key) const {
  return dir_ + "/" + key.hex() + ".cubin";
}

DiskCache::Counters DiskCache::counters() const {
  return {hits_.load(), misses_.load(), writes_.load(), rejected_.load(), stale_removed_.load()};
}

void DiskCache::disable(std::string_view what, std::string_view why) {
  if (!disabled_.exchange(true)) {
    std::fprintf(stderr,
                 "loom: kernel disk cache '%s' is not usable (%.*s: %.*s); continuing without it "
                 "(set LOOM_CACHE_DIR, or LOOM_DISK_CACHE=0)\n",
                 dir_.c_str(), static_cast<int>(what.size()), what.data(),
                 static_cast<int>(why.size()), why.data());
  }
}

// Creates missing components of dir_ with mode 0700, then checks that the directory can be
// trusted: a directory, owned by this user, writable by nobody else. Anyone who can write
// into it could plant a cubin that this process would then run (ccache and pip refuse such
// directories too). Stale temp files of killed writers are removed once.
bool DiskCache::ensure_dir() {
  if (dir_ready_.load(std::memory_order_acquire)) return true;
  if (disabled_.load(std::memory_order_relaxed)) return false;
  std::lock_guard lock(dir_mu_);
  if (dir_ready_.load(std::memory_order_acquire)) return true;
  std::size_t pos = dir_[0] == '/' ? 1 : 0;
  while (true) {
    pos = dir_.find('/', pos);
    const std::string prefix = dir_.substr(0, pos);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      disable("mkdir", std::strerror(errno));
      return false;
    }
    if (pos == std::string::npos) break;
    ++pos;
  }
  struct stat st {};
  if (::stat(dir_.c_str(), &st) != 0) {
    disable("stat", std::strerror(errno));
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    disable("not a directory", "");
    return false;
  }
  if (st.st_uid != ::geteuid()) {
    disable("untrusted", fmt::format("owned by uid {}, not by this user (uid {})", st.st_uid, ::geteuid()));
    return false;
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    disable("untrusted", fmt::format("mode {:04o} lets other users write into it", st.st_mode & 07777));
    return false;
  }
  remove_stale_temps();
  dir_ready_.store(true, std::memory_order_release);
  return true;
}

// Temp files (".tmp-<key>-XXXXXX") older than an hour belong to writers that died between
// mkstemp and rename; a live writer finishes in milliseconds.
void DiskCache::remove_stale_temps() {
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return;
  const std::time_t now = std::time(nullptr);
  while (const dirent* e = ::readdir(d)) {
    if (std::strncmp(e->d_name, ".tmp-", 5) != 0) continue;
    struct stat st {};
    if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (st.st_uid == ::geteuid() && now - st.st_mtime > kStaleTempSeconds) {
      if (::unlinkat(::dirfd(d), e->d_name, 0) == 0) ++stale_removed_;
    }
  }
  ::closedir(d);
}

std::optional<std::vector<char>> DiskCache::load(const Hash128& key) {
  if (!ensure_dir()) return std::nullopt;
  const std::string path = path_of(key);
  // O_NOFOLLOW: a symlink planted at an entry's name is not followed; O_NONBLOCK: a FIFO there
  // does not block the open (S_ISREG below rejects it). Any failure on one entry is a miss.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)};
  const auto reject = [&]() -> std::optional<std::vector<char>> {
    ++rejected_;
    ::unlink(path.c_str());  // the caller recompiles and stores a good entry over it
    return std::nullopt;
  };
  if (f.fd < 0) {
    if (errno == ELOOP) return reject();  // a symlink where an entry should be
    ++misses_;
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return reject();
  const auto file_bytes = static_cast<std::uint64_t>(st.st_size);
  if (file_bytes < kHeaderBytes || file_bytes - kHeaderBytes > kMaxPayloadBytes) return reject();

  char header[kHeaderBytes];
  if (!read_all(f.fd, header, kHeaderBytes)) return reject();
  const std::uint64_t payload_bytes = get_u64(header + 32);
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0 || get_u32(header + 8) != kDiskCacheFormat ||
      get_u64(header + 16) != key.hi || get_u64(header + 24) != key.lo ||
      payload_bytes != file_bytes - kHeaderBytes) {
    return reject();
  }
  std::vector<char> cubin(payload_bytes);
  if (!read_all(f.fd, cubin.data(), cubin.size())) return reject();
  if (checksum(cubin) != get_u64(header + 40)) return reject();
  ++hits_;
  return cubin;
}

bool DiskCache::store(const Hash128& key, std::span<const char> cubin) {
  if (!ensure_dir()) return false;
  std::vector<char> bytes(kHeaderBytes + cubin.size());
  std::memcpy(bytes.data(), kMagic, sizeof kMagic);
  put_u32(bytes.data() + 8, kDiskCacheFormat);
  put_u32(bytes.data() + 12, 0);
  put_u64(bytes.data() + 16, key.hi);
  put_u64(bytes.data() + 24, key.lo);
  put_u64(bytes.data() + 32, cubin.size());
  put_u64(bytes.data() + 40, checksum(cubin));
  if (!cubin.empty()) std::memcpy(bytes.data() + kHeaderBytes, cubin.data(), cubin.size());

  // A reader sees either no file or a whole one: the bytes go to a private temp file (mkstemp
  // creates it 0600) in the same directory, and rename() replaces the entry atomically.
  std::string tmp = dir_ + "/.tmp-" + key.hex() + "-XXXXXX";
  Fd f{::mkstemp(tmp.data())};
  if (f.fd < 0) {
    disable("mkstemp", std::strerror(errno));
    return false;
  }
  if (!write_all(f.fd, bytes.data(), bytes.size())) {
    const int err = errno;
    ::unlink(tmp.c_str());
    disable("write", std::strerror(err));
    return false;
  }
  ::close(f.fd);
  f.fd = -1;
  if (::rename(tmp.c_str(), path_of(key).c_str()) != 0) {
    // One entry that cannot be replaced (a directory planted at its name, say): not stored.
    ::unlink(tmp.c_str());
    return false;
  }
  ++writes_;
  return true;
}

}  // namespace loom::rt
