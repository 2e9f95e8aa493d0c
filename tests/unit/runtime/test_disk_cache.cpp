// The on-disk kernel cache: keys, atomic writes, permissions, and rejection of bad entries.

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "runtime/disk_cache.hpp"

namespace fs = std::filesystem;
using loom::rt::DiskCache;
using loom::rt::Hash128;

namespace {

// A fresh directory under /tmp, removed with everything in it at the end of the test.
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = "/tmp/loom-test-diskcache-XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<char> fake_cubin(std::size_t n, char seed) {
  std::vector<char> v(n);
  v[0] = 0x7f;
  for (std::size_t i = 1; i < n; ++i) v[i] = static_cast<char>(seed + i * 31);
  return v;
}

std::vector<char> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

const Hash128 kKey = loom::rt::hash128("kernel A");
const Hash128 kOtherKey = loom::rt::hash128("kernel B");

}  // namespace

TEST_CASE("store then load returns the same bytes", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path + "/a/b/cache");
  REQUIRE_FALSE(cache.load(kKey).has_value());  // no directory yet: a plain miss
  const auto cubin = fake_cubin(5000, 3);
  cache.store(kKey, cubin);
  const auto loaded = cache.load(kKey);
  REQUIRE(loaded.has_value());
  REQUIRE(*loaded == cubin);
  REQUIRE_FALSE(cache.load(kOtherKey).has_value());
  const auto c = cache.counters();
  REQUIRE(c.hits == 1);
  REQUIRE(c.misses == 2);
  REQUIRE(c.writes == 1);
  REQUIRE(c.rejected == 0);
  // A second cache object on the same directory (another process) sees the entry.
  DiskCache again(tmp.path + "/a/b/cache/");
  REQUIRE(again.load(kKey) == cubin);
}

TEST_CASE("writes are atomic and private", "[diskcache]") {
  TempDir tmp;
  const std::string dir = tmp.path + "/a/b/cache";
  DiskCache cache(dir);
  cache.store(kKey, fake_cubin(100, 1));
  cache.store(kKey, fake_cubin(200, 2));  // rewriting replaces the entry whole
  REQUIRE(cache.load(kKey) == fake_cubin(200, 2));
  // Only the entry: no temp file left behind.
  REQUIRE(names_in(dir) == std::vector<std::string>{kKey.hex() + ".cubin"});
  REQUIRE(cache.path_of(kKey) == dir + "/" + kKey.hex() + ".cubin");
  // Every directory we created is owner-only; the file is not readable by others.
  REQUIRE(mode_of(dir) == 0700);
  REQUIRE(mode_of(tmp.path + "/a/b") == 0700);
  REQUIRE(mode_of(tmp.path + "/a") == 0700);
  REQUIRE((mode_of(cache.path_of(kKey)) & 077) == 0);
  // The file is the 48-byte header then the payload.
  REQUIRE(read_file(cache.path_of(kKey)).size() == 48 + 200);
}

TEST_CASE("an empty cubin round-trips", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path);
  cache.store(kKey, std::vector<char>{});
  const auto loaded = cache.load(kKey);
  REQUIRE(loaded.has_value());
  REQUIRE(loaded->empty());
}

TEST_CASE("corrupt entries are rejected, counted and deleted", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path);
  const auto cubin = fake_cubin(4096, 7);
  cache.store(kKey, cubin);
  const std::string path = cache.path_of(kKey);
  const std::vector<char> good = read_file(path);

  using Corrupt = std::vector<char> (*)(std::vector<char>);
  const std::vector<std::pair<const char*, Corrupt>> cases = {
      {"truncated payload", [](std::vector<char> b) { b.resize(b.size() - 100); return b; }},
      {"truncated header", [](std::vector<char> b) { b.resize(20); return b; }},
      {"empty file", [](std::vector<char>) { return std::vector<char>{}; }},
      {"flipped payload byte", [](std::vector<char> b) { b[48 + 1000] ^= 0x10; return b; }},
      {"flipped checksum", [](std::vector<char> b) { b[40] ^= 0x01; return b; }},
      {"wrong magic", [](std::vector<char> b) { b[0] = 'X'; return b; }},
      {"wrong version", [](std::vector<char> b) { b[8] = 99; return b; }},
      {"wrong key hi", [](std::vector<char> b) { b[16] ^= 0x01; return b; }},
      {"wrong key lo", [](std::vector<char> b) { b[31] ^= 0x01; return b; }},
      {"wrong size", [](std::vector<char> b) { b[32] ^= 0x04; return b; }},
      {"extra bytes", [](std::vector<char> b) { b.push_back(0); return b; }},
  };
  std::uint64_t rejected = 0;
  for (const auto& [name, corrupt] : cases) {
    INFO(name);
    write_file(path, corrupt(good));
    REQUIRE_FALSE(cache.load(kKey).has_value());
    REQUIRE(cache.counters().rejected == ++rejected);
    REQUIRE_FALSE(fs::exists(path));
    // The caller recompiles and stores again; the new entry is good.
    cache.store(kKey, cubin);
    REQUIRE(cache.load(kKey) == cubin);
  }
  REQUIRE(cache.counters().hits == cases.size());
}

TEST_CASE("an entry written under another key is rejected", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path);
  cache.store(kOtherKey, fake_cubin(300, 5));
  fs::rename(cache.path_of(kOtherKey), cache.path_of(kKey));
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE(cache.counters().rejected == 1);
  REQUIRE_FALSE(fs::exists(cache.path_of(kKey)));
}

TEST_CASE("an unusable cache directory disables the cache without throwing", "[diskcache]") {
  TempDir tmp;
  write_file(tmp.path + "/file", {'x'});
  DiskCache cache(tmp.path + "/file/cache");  // a path under a regular file: ENOTDIR
  REQUIRE_NOTHROW(cache.store(kKey, fake_cubin(100, 1)));
  REQUIRE_FALSE(cache.enabled());
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE(cache.counters().writes == 0);
  DiskCache empty("");
  REQUIRE_FALSE(empty.enabled());
  REQUIRE_NOTHROW(empty.store(kKey, fake_cubin(10, 1)));
}

TEST_CASE("a directory other users can write into is not trusted", "[diskcache]") {
  TempDir tmp;
  // A planted entry with a correct header and checksum, in a world-writable directory.
  const std::string dir = tmp.path + "/shared";
  {
    DiskCache writer(dir);
    REQUIRE(writer.store(kKey, fake_cubin(500, 4)));
  }
  for (const unsigned mode : {0777u, 0770u, 0720u, 0702u}) {
    INFO("mode " << std::oct << mode);
    REQUIRE(::chmod(dir.c_str(), mode) == 0);
    DiskCache cache(dir);
    REQUIRE_FALSE(cache.load(kKey).has_value());  // refused: not even opened
    REQUIRE_FALSE(cache.enabled());
    REQUIRE_FALSE(cache.store(kOtherKey, fake_cubin(10, 1)));
    REQUIRE_FALSE(fs::exists(cache.path_of(kOtherKey)));
  }
  REQUIRE(::chmod(dir.c_str(), 0755) == 0);  // readable by others is fine: only writes matter
  DiskCache ok(dir);
  REQUIRE(ok.load(kKey) == fake_cubin(500, 4));
  if (::geteuid() == 0) {  // as root: a directory owned by another user is refused too
    REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
    DiskCache other(dir);
    REQUIRE_FALSE(other.load(kKey).has_value());
    REQUIRE_FALSE(other.enabled());
  }
}

TEST_CASE("entries that are not regular files of ours are misses, not hangs or follows", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path + "/c");
  REQUIRE(cache.store(kOtherKey, fake_cubin(300, 2)));
  // A FIFO at an entry's name: open must not block, and the entry is dropped.
  REQUIRE(::mkfifo(cache.path_of(kKey).c_str(), 0600) == 0);
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE_FALSE(fs::exists(cache.path_of(kKey)));
  // A symlink to a good entry of another key: not followed (and removed).
  fs::create_symlink(cache.path_of(kOtherKey), cache.path_of(kKey));
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE_FALSE(fs::is_symlink(fs::symlink_status(cache.path_of(kKey))));
  // A directory at an entry's name: a miss, and the cache stays on for the other entries.
  fs::create_directory(cache.path_of(kKey));
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE_FALSE(cache.store(kKey, fake_cubin(10, 1)));  // cannot replace it: not counted as a write
  REQUIRE(cache.enabled());
  REQUIRE(cache.load(kOtherKey) == fake_cubin(300, 2));
  REQUIRE(cache.counters().writes == 1);
}

TEST_CASE("temp files of writers that died are removed", "[diskcache]") {
  TempDir tmp;
  const std::string dir = tmp.path + "/c";
  REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
  const std::string stale = dir + "/.tmp-" + kKey.hex() + "-abcdef";
  const std::string fresh = dir + "/.tmp-" + kOtherKey.hex() + "-ghijkl";
  write_file(stale, {'x'});
  write_file(fresh, {'y'});
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(2);
  fs::last_write_time(stale, old);
  DiskCache cache(dir);
  REQUIRE_FALSE(cache.load(kKey).has_value());
  REQUIRE_FALSE(fs::exists(stale));
  REQUIRE(fs::exists(fresh));  // may belong to a live writer
  REQUIRE(cache.counters().stale_removed == 1);
}

TEST_CASE("concurrent stores of one key leave one good entry", "[diskcache]") {
  TempDir tmp;
  DiskCache cache(tmp.path + "/c");
  const auto cubin = fake_cubin(20000, 9);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        cache.store(kKey, cubin);
        const auto got = cache.load(kKey);
        if (got.has_value() && *got != cubin) std::abort();
      }
    });
  }
  for (auto& t : threads) t.join();
  REQUIRE(cache.counters().rejected == 0);
  REQUIRE(cache.load(kKey) == cubin);
  REQUIRE(names_in(tmp.path + "/c").size() == 1);
}

TEST_CASE("disk keys change with every input and only with them", "[diskcache]") {
  const std::string src = "extern \"C\" __global__ void k() {}";
  const std::string prelude = "#pragma once";
  const std::vector<loom::rt::NvrtcHeader> headers = {{"loom_prelude.cuh", prelude}};
  const std::vector<std::string> opts = {"--gpu-architecture=sm_90", "-std=c++17"};
  const auto key = [&](std::string_view s, std::span<const loom::rt::NvrtcHeader> h,
                       std::string_view v, int major, int minor,
                       std::span<const std::string> o) {
    return loom::rt::disk_key(s, h, v, major, minor, o);
  };
  const Hash128 base = key(src, headers, "13.0", 9, 0, opts);
  REQUIRE(base == key(std::string(src), headers, "13.0", 9, 0, opts));
  REQUIRE_FALSE(base == key(src + " ", headers, "13.0", 9, 0, opts));
  REQUIRE_FALSE(base == key(src, {}, "13.0", 9, 0, opts));
  const std::string prelude2 = "#pragma once\n";
  const std::vector<loom::rt::NvrtcHeader> headers2 = {{"loom_prelude.cuh", prelude2}};
  REQUIRE_FALSE(base == key(src, headers2, "13.0", 9, 0, opts));
  REQUIRE_FALSE(base == key(src, headers, "13.1", 9, 0, opts));
  REQUIRE_FALSE(base == key(src, headers, "13.0", 8, 0, opts));
  REQUIRE_FALSE(base == key(src, headers, "13.0", 9, 1, opts));
  const std::vector<std::string> opts2 = {"--gpu-architecture=sm_90", "-std=c++17", "-lineinfo"};
  REQUIRE_FALSE(base == key(src, headers, "13.0", 9, 0, opts2));
  const std::vector<std::string> opts3 = {"-std=c++17", "--gpu-architecture=sm_90"};
  REQUIRE_FALSE(base == key(src, headers, "13.0", 9, 0, opts3));
  REQUIRE(loom::rt::kDiskCacheFormat == 1);
}
