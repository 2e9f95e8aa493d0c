// .npz archives (include/loom/io.hpp): a zip file with one "<name>.npy" member per array, as
// np.savez (stored) and np.savez_compressed (raw deflate, zlib) write them. loom writes the zip
// container itself (local headers, central directory, end record; CRC-32 and deflate from zlib)
// and reads NumPy's, whose members carry ZIP64 extra fields. Every offset and size read from the
// file is checked against the file before it is used; a member's inflated size is bounded by
// deflate's largest ratio before anything is allocated.

#include <algorithm>
#include <cstring>
#include <ctime>
#include <limits>

#include <fmt/format.h>
#include <zlib.h>

#include <loom/errors.hpp>
#include <loom/io.hpp>

#include "io/npy.hpp"
#include "graph/site.hpp"

namespace loom {

namespace {

constexpr std::uint32_t kLocal = 0x04034b50, kCentral = 0x02014b50, kEnd = 0x06054b50;
constexpr std::uint32_t kEnd64 = 0x06064b50, kLocator64 = 0x07064b50;
constexpr std::uint64_t kMaxMember = 0xffffffffu;  // loom writes no ZIP64 members

void put16(std::vector<std::byte>& b, std::uint32_t v) {
  b.push_back(static_cast<std::byte>(v & 0xff));
  b.push_back(static_cast<std::byte>((v >> 8) & 0xff));
}
void put32(std::vector<std::byte>& b, std::uint32_t v) {
  put16(b, v & 0xffff);
  put16(b, v >> 16);
}
void put_text(std::vector<std::byte>& b, const std::string& s) {
  for (char c : s) b.push_back(static_cast<std::byte>(c));
}

// The DOS time and date of now (local time, as Python's zipfile writes them).
std::pair<std::uint32_t, std::uint32_t> dos_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  const std::uint32_t time = static_cast<std::uint32_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  const std::uint32_t date = static_cast<std::uint32_t>(((std::max(tm.tm_year, 80) - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
  return {time, date};
}

std::vector<std::byte> deflate_raw(std::span<const std::byte> in, const std::string& what) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw Error(fmt::format("savez_compressed: zlib could not start compressing {}", what));
  }
  std::vector<std::byte> out(deflateBound(&z, static_cast<uLong>(in.size())));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw Error(fmt::format("savez_compressed: zlib failed compressing {}", what));
  return out;
}

void write_npz(const std::string& path_in, const std::vector<std::pair<std::string, Array>>& arrays, bool compress) {
  const char* op = compress ? "savez_compressed" : "savez";
  const std::string path = path_in.size() >= 4 && path_in.compare(path_in.size() - 4, 4, ".npz") == 0 ? path_in : path_in + ".npz";
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (arrays[i].first == arrays[j].first) throw ValueError(fmt::format("{}: the name '{}' is given twice", op, arrays[i].first));
    }
  }
  const auto [time, date] = dos_now();
  std::vector<std::byte> file, central;
  for (const auto& [name, a] : arrays) {
    const std::string member = name + ".npy";
    const std::vector<std::byte> raw = detail::npy_bytes(a);
    const std::vector<std::byte> data = compress ? deflate_raw(raw, member) : raw;
    if (raw.size() > kMaxMember || data.size() > kMaxMember || file.size() > kMaxMember) {
      throw ValueError(fmt::format("{}: '{}' is 4 GiB or more, past what loom writes into a zip (ZIP64 not yet)", op, name));
    }
    const auto crc = static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(raw.data()), raw.size()));
    const auto offset = static_cast<std::uint32_t>(file.size());
    const std::uint32_t method = compress ? 8 : 0;
    // The fields the local and the central header share, from "version needed" to "extra".
    const auto common = [&](std::vector<std::byte>& h) {
      put16(h, 20);  // version needed: 2.0
      put16(h, 0);   // flags
      put16(h, method);
      put16(h, time);
      put16(h, date);
      put32(h, crc);
      put32(h, static_cast<std::uint32_t>(data.size()));
      put32(h, static_cast<std::uint32_t>(raw.size()));
      put16(h, static_cast<std::uint32_t>(member.size()));
      put16(h, 0);  // extra
    };
    put32(file, kLocal);
    common(file);
    put_text(file, member);
    file.insert(file.end(), data.begin(), data.end());
    put32(central, kCentral);
    put16(central, 20);  // made by
    common(central);
    put16(central, 0);  // comment
    put16(central, 0);  // disk
    put16(central, 0);  // internal attributes
    put32(central, 0x01800000u);  // external: a regular file, rw------- (as Python's zipfile writes)
    put32(central, offset);
    put_text(central, member);
  }
  const auto cd_offset = static_cast<std::uint32_t>(file.size());
  file.insert(file.end(), central.begin(), central.end());
  put32(file, kEnd);
  put16(file, 0);
  put16(file, 0);
  put16(file, static_cast<std::uint32_t>(arrays.size()));
  put16(file, static_cast<std::uint32_t>(arrays.size()));
  put32(file, static_cast<std::uint32_t>(central.size()));
  put32(file, cd_offset);
  put16(file, 0);  // comment
  detail::write_file(path, file, op);
}

// Bounds-checked little-endian reads of a file held in memory.
class Reader {
 public:
  Reader(std::span<const std::byte> b, std::string path) : b_(b), path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& why) const {
    throw ValueError(fmt::format("load_npz: {} is not a valid .npz file: {}", path_, why));
  }
  std::uint64_t get(std::uint64_t at, int n) const {
    if (at > b_.size() || static_cast<std::uint64_t>(n) > b_.size() - at) fail("a record runs past the end of the file");
    std::uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<std::uint64_t>(b_[at + static_cast<std::uint64_t>(k)]);
    return v;
  }
  std::span<const std::byte> span(std::uint64_t at, std::uint64_t n) const {
    if (at > b_.size() || n > b_.size() - at) fail("a member runs past the end of the file");
    return b_.subspan(at, n);
  }
  std::uint64_t size() const { return b_.size(); }

 private:
  std::span<const std::byte> b_;
  std::string path_;
};

std::vector<std::byte> inflate_raw(std::span<const std::byte> in, std::uint64_t size, const Reader& r, const std::string& member) {
  // Deflate cannot expand data more than ~1032 times: a larger claim is a lie, refused before
  // allocating it.
  if (size > 1032 * static_cast<std::uint64_t>(in.size()) + 1024) r.fail(fmt::format("'{}' claims an impossible size", member));
  std::vector<std::byte> out(size);
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) r.fail("zlib could not start");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const auto produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != size) r.fail(fmt::format("'{}' does not inflate to its size", member));
  return out;
}

}  // namespace

void savez(const std::string& path, const std::vector<std::pair<std::string, Array>>& arrays) {
  write_npz(path, arrays, false);
}
void savez_compressed(const std::string& path, const std::vector<std::pair<std::string, Array>>& arrays) {
  write_npz(path, arrays, true);
}

const Array& NpzFile::operator[](const std::string& name) const {
  const auto it = find(name);
  if (it == end()) throw IndexError(fmt::format("{} is not a file in the archive", name));
  return it->second;
}
Array& NpzFile::operator[](const std::string& name) {
  return const_cast<Array&>(static_cast<const NpzFile&>(*this)[name]);
}

template <>
NpzFile load<NpzFile>(const std::string& path, std::source_location caller) {
  return load_npz(path, caller);
}

NpzFile load_npz(const std::string& path, std::source_location caller) {
  const detail::SiteScope site(caller);
  const std::vector<std::byte> file = detail::read_file(path, "load_npz");
  const Reader r(file, path);
  // The end record: the last 22 bytes, or before a comment of up to 65535.
  std::uint64_t end = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t back = 22; back <= std::min<std::uint64_t>(r.size(), 22 + 65535); ++back) {
    if (r.get(r.size() - back, 4) == kEnd) {
      end = r.size() - back;
      break;
    }
  }
  if (end == std::numeric_limits<std::uint64_t>::max()) r.fail("it has no zip end record");
  std::uint64_t entries = r.get(end + 10, 2), cd_size = r.get(end + 12, 4), cd_offset = r.get(end + 16, 4);
  if (entries == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff) {  // ZIP64
    if (end < 20 || r.get(end - 20, 4) != kLocator64) r.fail("its ZIP64 locator is missing");
    const std::uint64_t e64 = r.get(end - 20 + 8, 8);
    if (r.get(e64, 4) != kEnd64) r.fail("its ZIP64 end record is missing");
    entries = r.get(e64 + 32, 8);
    cd_size = r.get(e64 + 40, 8);
    cd_offset = r.get(e64 + 48, 8);
  }
  if (entries > r.size() / 46) r.fail("it claims more members than it can hold");
  NpzFile out;
  std::uint64_t at = cd_offset;
  for (std::uint64_t i = 0; i < entries; ++i) {
    if (r.get(at, 4) != kCentral) r.fail("a central directory record is missing");
    const std::uint64_t flags = r.get(at + 8, 2), method = r.get(at + 10, 2), crc = r.get(at + 16, 4);
    std::uint64_t csize = r.get(at + 20, 4), usize = r.get(at + 24, 4), offset = r.get(at + 42, 4);
    const std::uint64_t nlen = r.get(at + 28, 2), xlen = r.get(at + 30, 2), clen = r.get(at + 32, 2);
    const auto name_bytes = r.span(at + 46, nlen);
    const std::string member(reinterpret_cast<const char*>(name_bytes.data()), name_bytes.size());
    // ZIP64 extra field (id 1): the sizes and offset that are 0xffffffff above, in that order.
    for (std::uint64_t x = at + 46 + nlen; x + 4 <= at + 46 + nlen + xlen;) {
      const std::uint64_t id = r.get(x, 2), len = r.get(x + 2, 2);
      std::uint64_t f = x + 4;
      if (id == 1) {
        if (usize == 0xffffffff && f + 8 <= x + 4 + len) usize = r.get(f, 8), f += 8;
        if (csize == 0xffffffff && f + 8 <= x + 4 + len) csize = r.get(f, 8), f += 8;
        if (offset == 0xffffffff && f + 8 <= x + 4 + len) offset = r.get(f, 8);
      }
      x += 4 + len;
    }
    at += 46 + nlen + xlen + clen;
    if (flags & 1) r.fail(fmt::format("'{}' is encrypted", member));
    if (csize > kMaxMember || usize > kMaxMember) r.fail(fmt::format("'{}' is 4 GiB or more (not read yet)", member));
    if (method != 0 && method != 8) r.fail(fmt::format("'{}' uses compression method {} (not stored or deflate)", member, method));
    if (r.get(offset, 4) != kLocal) r.fail(fmt::format("the local header of '{}' is missing", member));
    const std::uint64_t data_at = offset + 30 + r.get(offset + 26, 2) + r.get(offset + 28, 2);
    const auto data = r.span(data_at, csize);
    std::vector<std::byte> raw = method == 8 ? inflate_raw(data, usize, r, member) : std::vector<std::byte>(data.begin(), data.end());
    if (method == 0 && csize != usize) r.fail(fmt::format("'{}' is stored with two sizes", member));
    if (crc32_z(0, reinterpret_cast<const Bytef*>(raw.data()), raw.size()) != crc) {
      r.fail(fmt::format("'{}' fails its CRC-32 check", member));
    }
    const std::string key = member.size() > 4 && member.compare(member.size() - 4, 4, ".npy") == 0
                                ? member.substr(0, member.size() - 4)
                                : member;
    if (out.emplace(key, detail::npy_parse(raw, path + ": " + member)).second) out.files.push_back(key);
  }
  return out;
}

}  // namespace loom
