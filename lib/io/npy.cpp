// .npy files (include/loom/io.hpp), as numpy/lib/format.py writes and reads them: the magic
// "\x93NUMPY", a version, the header length (2 bytes for 1.0, 4 for 2.0 and 3.0), the header (a
// Python dict literal of 'descr', 'fortran_order' and 'shape', padded with spaces and a newline
// so that the data starts on a multiple of 64 bytes; np.save leaves room for the first dim to
// grow to 21 digits), then the raw elements.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>
#include <span>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/io.hpp>

#include "io/npy.hpp"
#include "storage/storage.hpp"
#include "graph/node.hpp"
#include "graph/site.hpp"

namespace loom {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMaxHeader = 10000;  // NumPy's default max_header_size
constexpr std::size_t kAlign = 64;
constexpr int kGrowthDigits = 21;          // room np.save leaves for the first dim to grow

// NumPy's descr of a dtype on a little-endian machine.
std::string descr_of(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::Int8: return "|i1";
    case DType::UInt8: return "|u1";
    case DType::Int16: return "<i2";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::UInt16: return "<u2";
    case DType::UInt32: return "<u4";
    case DType::UInt64: return "<u8";
    case DType::Float16: return "<f2";
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Complex64: return "<c8";
    case DType::Complex128: return "<c16";
    // NumPy has no bfloat16: np.save of ml_dtypes' bfloat16 (JAX's, TensorFlow's) writes its
    // dtype.str, two-byte void records in machine order. loom writes the same bytes.
    case DType::BFloat16: return "<V2";
  }
  throw ValueError(fmt::format("save: dtype {} has no .npy descr", static_cast<int>(t)));
}

std::string shape_repr(const Shape& s) {
  if (s.size() == 0) return "()";
  std::string r = "(";
  for (int d = 0; d < s.size(); ++d) r += fmt::format("{}{}", d ? ", " : "", s[d]);
  return r + (s.size() == 1 ? ",)" : ")");
}


// --- reading a header: a Python dict literal, as strictly as NumPy's safe_eval takes it ---

class HeaderParser {
 public:
  HeaderParser(std::string text, std::string path) : s_(std::move(text)), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw ValueError(fmt::format("load: {} is not a valid .npy file: {}", path_, why));
  }
  void space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool eat(char c) {
    space();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(fmt::format("the header has no '{}' at byte {}", c, at_));
  }
  std::string string_lit() {
    space();
    if (at_ >= s_.size() || (s_[at_] != '\'' && s_[at_] != '"')) fail("the header has a value that is not a string");
    const char q = s_[at_++];
    const std::size_t end = s_.find(q, at_);
    if (end == std::string::npos) fail("the header has an unterminated string");
    std::string r = s_.substr(at_, end - at_);
    at_ = end + 1;
    return r;
  }
  bool boolean() {
    space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const std::size_t n = std::strlen(word);
      if (s_.compare(at_, n, word) == 0) {
        at_ += n;
        return value;
      }
    }
    fail("fortran_order is not True or False");
  }
  Shape shape() {
    expect('(');
    Shape r;
    while (!eat(')')) {
      space();
      std::size_t digits = 0;
      std::int64_t v = 0;
      while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_]))) {
        if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail("the shape has a dimension too large");
        v = v * 10 + (s_[at_++] - '0');
        ++digits;
      }
      if (digits == 0) fail("the shape is not a tuple of non-negative integers");
      if (at_ < s_.size() && s_[at_] == 'L') ++at_;  // Python 2's long literals
      if (r.size() >= kMaxDims) fail(fmt::format("the shape has more than {} dimensions", kMaxDims));
      r.push_back(v);
      if (!eat(',')) {
        expect(')');
        break;
      }
    }
    return r;
  }
  bool done() {
    space();
    return at_ == s_.size();
  }

 private:
  std::string s_, path_;
  std::size_t at_ = 0;
};

struct Header {
  DType dtype = DType::Float64;
  bool big_endian = false;
  bool fortran = false;
  Shape shape;
};

DType dtype_of_descr(const std::string& d, bool& big, const HeaderParser& p) {
  if (d.size() < 2) p.fail(fmt::format("unknown descr '{}'", d));
  const char order = d[0];
  const std::string code = d.substr(1);
  if (code == "O" || code.rfind("O", 0) == 0) {
    throw ValueError("Object arrays cannot be loaded when allow_pickle=False");
  }
  if (order != '<' && order != '>' && order != '|' && order != '=') p.fail(fmt::format("unknown descr '{}'", d));
  big = order == '>';
  static const std::pair<const char*, DType> kCodes[] = {
      {"b1", DType::Bool},     {"i1", DType::Int8},     {"u1", DType::UInt8},    {"i2", DType::Int16},
      {"i4", DType::Int32},    {"i8", DType::Int64},    {"u2", DType::UInt16},   {"u4", DType::UInt32},
      {"u8", DType::UInt64},   {"f2", DType::Float16},  {"f4", DType::Float32},  {"f8", DType::Float64},
      {"c8", DType::Complex64}, {"c16", DType::Complex128}, {"V2", DType::BFloat16}};
  for (const auto& [c, t] : kCodes) {
    if (code == c) return t;
  }
  p.fail(fmt::format("descr '{}' is not a dtype loom has", d));
}

Header parse_header(const std::string& text, const std::string& path) {
  HeaderParser p(text, path);
  Header h;
  bool have_descr = false, have_order = false, have_shape = false;
  p.expect('{');
  while (!p.eat('}')) {
    const std::string key = p.string_lit();
    p.expect(':');
    if (key == "descr" && !have_descr) {
      h.dtype = dtype_of_descr(p.string_lit(), h.big_endian, p);
      have_descr = true;
    } else if (key == "fortran_order" && !have_order) {
      h.fortran = p.boolean();
      have_order = true;
    } else if (key == "shape" && !have_shape) {
      h.shape = p.shape();
      have_shape = true;
    } else {
      p.fail(fmt::format("the header has a key '{}' it should not", key));
    }
    if (!p.eat(',')) {
      p.expect('}');
      break;
    }
  }
  if (!p.done()) p.fail("the header has text after its dict");
  if (!have_descr || !have_order || !have_shape) {
    p.fail("the header does not have the keys 'descr', 'fortran_order' and 'shape'");
  }
  return h;
}

void byteswap(std::byte* data, std::size_t nbytes, std::size_t item, bool complex) {
  const std::size_t w = complex ? item / 2 : item;  // each part of a complex number on its own
  if (w <= 1) return;
  for (std::size_t at = 0; at + w <= nbytes; at += w) std::reverse(data + at, data + at + w);
}

// The file's prefix and header: the header's dtype, order and shape, where the elements start,
// and how many there are (all within the file, or a ValueError naming `path`). `prefix` holds at
// least the first min(file size, kMaxPrefix) bytes.
constexpr std::size_t kMaxPrefix = 12 + kMaxHeader;
struct Layout {
  Header h;
  std::uint64_t start = 0;
  std::uint64_t nbytes = 0;
};
Layout parse_layout(std::span<const std::byte> prefix, std::uint64_t file_size, const std::string& path) {
  const auto bad = [&](const std::string& why) -> ValueError {
    return ValueError(fmt::format("load: {} is not a valid .npy file: {}", path, why));
  };
  const auto* bytes = reinterpret_cast<const unsigned char*>(prefix.data());
  if (file_size < 10 || std::memcmp(bytes, kMagic, 6) != 0) {
    if (file_size >= 4 && std::memcmp(bytes, "PK\x03\x04", 4) == 0) {
      throw ValueError(fmt::format("load: {} is a .npz archive: read it with loom::load_npz (or loom::load<loom::NpzFile>)", path));
    }
    throw bad("the magic string is missing");
  }
  const int major = bytes[6];
  if (major < 1 || major > 3 || bytes[7] != 0) throw bad(fmt::format("format version {}.{} is unknown", major, int(bytes[7])));
  const int nlen = major == 1 ? 2 : 4;
  std::uint64_t hlen = 0;
  for (int k = nlen - 1; k >= 0; --k) hlen = (hlen << 8) | bytes[8 + k];
  if (hlen > kMaxHeader) {
    throw bad(fmt::format("its header is {} bytes long, more than the {} loom reads", hlen, kMaxHeader));
  }
  Layout l;
  l.start = 8 + static_cast<std::uint64_t>(nlen) + hlen;
  if (l.start > file_size || l.start > prefix.size()) throw bad("the file ends inside its header");
  l.h = parse_header(std::string(reinterpret_cast<const char*>(bytes) + 8 + nlen, hlen), path);
  // The elements: exactly what the shape asks, all in the file.
  std::uint64_t count = 1;
  for (int d = 0; d < l.h.shape.size(); ++d) {
    const auto e = static_cast<std::uint64_t>(l.h.shape[d]);
    if (e != 0 && count > std::numeric_limits<std::uint64_t>::max() / e) throw bad("its shape's size overflows");
    count *= e;
  }
  // NumPy's limit holds for empty arrays too (the non-zero extents times the item size fit int64):
  // a (0, 2**62, 2**62) header is refused here, naming the file, not by the array it would make.
  try {
    (void)detail::checked_nbytes(l.h.shape, l.h.dtype, "load");
  } catch (const ValueError& e) {
    throw bad(fmt::format("its shape {} is too big ({})", shape_repr(l.h.shape), e.what()));
  }
  const std::uint64_t item = itemsize(l.h.dtype);
  const std::uint64_t have = file_size - l.start;
  if (count > have / item) {
    throw bad(fmt::format("the shape {} ({} elements of {}) needs {} bytes of data and the file has {}",
                          shape_repr(l.h.shape), count, name(l.h.dtype), count * item, have));
  }
  l.nbytes = count * item;
  return l;
}

// The array over a buffer holding the file's elements in file order: a Fortran-order file is
// the transposed shape in C order, viewed back (no copy).
Array array_of(const Header& h, std::shared_ptr<detail::Storage> storage) {
  if (!h.fortran || h.shape.size() < 2) {
    return Array(detail::make_buffer(std::move(storage), h.dtype, h.shape, contiguous_strides(h.shape), 0));
  }
  Shape rev;
  for (int d = h.shape.size() - 1; d >= 0; --d) rev.push_back(h.shape[d]);
  return Array(detail::make_buffer(std::move(storage), h.dtype, rev, contiguous_strides(rev), 0)).T();
}

// What np.save writes before the elements of an array of `dtype` and `shape`.
std::string npy_header(DType dtype, const Shape& shape) {
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr_of(dtype), shape_repr(shape));
  if (shape.size() > 0) header += std::string(static_cast<std::size_t>(kGrowthDigits) - fmt::format("{}", shape[0]).size(), ' ');
  // Version 1.0 (a 2-byte length) unless the header does not fit it.
  std::size_t prefix = 8 + 2;
  const std::size_t hlen = header.size() + 1;
  std::size_t pad = kAlign - (prefix + hlen) % kAlign;
  const bool v2 = hlen + pad > 65535;
  if (v2) {
    prefix = 8 + 4;
    pad = kAlign - (prefix + hlen) % kAlign;
  }
  std::string head(kMagic, 6);
  head += static_cast<char>(v2 ? 2 : 1);
  head += '\0';
  const auto len = static_cast<std::uint32_t>(hlen + pad);
  for (int k = 0; k < (v2 ? 4 : 2); ++k) head += static_cast<char>((len >> (8 * k)) & 0xff);
  return head + header + std::string(pad, ' ') + '\n';
}

// A file descriptor that reads or writes whole spans (retrying short transfers), closed once.
class File {
 public:
  File(const std::string& path, bool write, const char* op) : path_(path), op_(op) {
    fd_ = write ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(write ? "cannot create" : "cannot open");
  }
  ~File() {
    if (fd_ >= 0) (void)::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  std::uint64_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("cannot stat");
    if (!S_ISREG(st.st_mode)) throw ValueError(fmt::format("{}: {} is not a regular file", op_, path_));
    return static_cast<std::uint64_t>(st.st_size);
  }
  void read(std::byte* p, std::size_t n) {
    while (n > 0) {
      const ssize_t got = ::read(fd_, p, n);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail("error reading");
      if (got == 0) throw ValueError(fmt::format("{}: {} ended early (was it changed while being read?)", op_, path_));
      p += got;
      n -= static_cast<std::size_t>(got);
    }
  }
  void write(const std::byte* p, std::size_t n) {
    while (n > 0) {
      const ssize_t put = ::write(fd_, p, n);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) fail("error writing");
      p += put;
      n -= static_cast<std::size_t>(put);
    }
  }
  void close() {
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) fail("error writing");
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw ValueError(fmt::format("{}: {} {}: {}", op_, what, path_, std::strerror(errno)));
  }
  std::string path_;
  const char* op_;
  int fd_ = -1;
};

// `a` evaluated, as a buffer in C order (a strided result is copied first).
detail::NodeRef contiguous_leaf(const Array& a) {
  detail::NodeRef leaf = detail::as_leaf(a.eval().node());
  if (!is_c_contiguous(leaf->shape, leaf->strides())) leaf = detail::as_leaf(a.copy().eval().node());
  return leaf;
}

}  // namespace

namespace detail {

std::vector<std::byte> element_bytes(const Array& a) {
  const NodeRef leaf = contiguous_leaf(a);
  std::vector<std::byte> out(static_cast<std::size_t>(leaf->numel()) * itemsize(leaf->dtype));
  exec::read_storage(*leaf->storage(), static_cast<std::size_t>(leaf->offset()) * itemsize(leaf->dtype), out.size(),
                     out.data());
  return out;
}

std::vector<std::byte> npy_bytes(const Array& a) {
  const std::string head = npy_header(a.dtype(), a.shape());
  std::vector<std::byte> out(reinterpret_cast<const std::byte*>(head.data()),
                             reinterpret_cast<const std::byte*>(head.data()) + head.size());
  const std::vector<std::byte> elements = element_bytes(a);
  out.insert(out.end(), elements.begin(), elements.end());
  return out;
}

Array npy_parse(std::span<const std::byte> file, const std::string& path) {
  const Layout l = parse_layout(file, file.size(), path);
  std::vector<std::byte> data(file.begin() + static_cast<std::ptrdiff_t>(l.start),
                              file.begin() + static_cast<std::ptrdiff_t>(l.start + l.nbytes));
  if (l.h.big_endian) byteswap(data.data(), data.size(), itemsize(l.h.dtype), is_complex(l.h.dtype));
  return array_of(l.h, detail::upload_storage(data.data(), data.size()));
}

std::vector<std::byte> read_file(const std::string& path, const char* op) {
  File f(path, false, op);
  std::vector<std::byte> b(f.size());
  f.read(b.data(), b.size());
  return b;
}

void write_file(const std::string& path, std::span<const std::byte> bytes, const char* op) {
  File f(path, true, op);
  f.write(bytes.data(), bytes.size());
  f.close();
}

}  // namespace detail

// The elements go through pinned chunks straight between the GPU and the file (storage/storage.hpp):
// no host copy of the whole array.
void save(const std::string& path_in, const Array& a) {
  const std::string path = path_in.size() >= 4 && path_in.compare(path_in.size() - 4, 4, ".npy") == 0 ? path_in : path_in + ".npy";
  const detail::NodeRef leaf = contiguous_leaf(a);
  const std::string head = npy_header(leaf->dtype, leaf->shape);
  File f(path, true, "save");
  f.write(reinterpret_cast<const std::byte*>(head.data()), head.size());
  const std::size_t item = itemsize(leaf->dtype);
  exec::read_storage_chunks(*leaf->storage(), static_cast<std::size_t>(leaf->offset()) * item,
                            static_cast<std::size_t>(leaf->numel()) * item,
                            [&](const std::byte* p, std::size_t n) { f.write(p, n); });
  f.close();
}

template <>
Array load<Array>(const std::string& path, std::source_location caller) {
  const detail::SiteScope site(caller);
  File f(path, false, "load");
  const std::uint64_t size = f.size();
  std::vector<std::byte> prefix(static_cast<std::size_t>(std::min<std::uint64_t>(size, kMaxPrefix)));
  f.read(prefix.data(), prefix.size());
  const Layout l = parse_layout(prefix, size, path);
  const std::shared_ptr<detail::Storage> storage = detail::allocate_storage(l.nbytes);
  // The elements already read with the prefix, then the rest of the file, chunk by chunk.
  std::size_t from_prefix = prefix.size() - static_cast<std::size_t>(l.start);
  const std::byte* early = prefix.data() + l.start;
  const std::size_t item = itemsize(l.h.dtype);
  exec::write_storage_chunks(*storage, l.nbytes, [&](std::byte* p, std::size_t n) {
    const std::size_t k = std::min(n, from_prefix);
    std::memcpy(p, early, k);
    early += k;
    from_prefix -= k;
    f.read(p + k, n - k);
    if (l.h.big_endian) byteswap(p, n, item, is_complex(l.h.dtype));
  });
  return array_of(l.h, storage);
}

}  // namespace loom
