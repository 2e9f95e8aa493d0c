// .npy files against NumPy itself (python3 with numpy, which tools/install-deps.sh installs):
// loom's files are byte-identical to np.save's for every dtype and shape; loom reads what NumPy
// writes (versions 1.0, 2.0 and 3.0, big endian, Fortran order); broken files give a ValueError
// and never over-read.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include <loom/loom.hpp>
#include <loom/io.hpp>

using loom::Array;
using loom::DType;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

const DType kTypes[] = {DType::Bool,    DType::Int8,    DType::UInt8,   DType::Int16,     DType::UInt16,
                        DType::Int32,   DType::UInt32,  DType::Int64,   DType::UInt64,    DType::Float16,
                        DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};
const loom::Shape kShapes[] = {{}, {5}, {2, 3, 4}, {0, 3}, {1234567}};

// (arange(n) % 7 - 3) in the dtype, shaped: the same in loom and in the script.
Array values(DType t, const loom::Shape& s) {
  return (loom::arange(s.numel()) % 7 - 3).astype(t).reshape(s);
}

}  // namespace

TEST_CASE("npy files are NumPy's, both ways", "[io]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("loom_npy_{}", ::getpid());
  fs::create_directories(dir);
  std::string script = "import numpy as np\nfrom numpy.lib import format as F\nd = '" + dir.string() + "'\n";
  int k = 0;
  for (DType t : kTypes) {
    for (const loom::Shape& s : kShapes) {
      if (s.numel() > 1000 && t != DType::Float32) continue;
      std::string shape = "(";
      for (int d = 0; d < s.size(); ++d) shape += fmt::format("{},", s[d]);
      shape += ")";
      loom::save((dir / fmt::format("loom_{}", k)).string(), values(t, s));  // ".npy" appended
      script += fmt::format(
          "a = (np.arange({n}) % 7 - 3).astype('{t}').reshape({s})\n"
          "np.save(d + '/np_{k}.npy', a)\n"
          "b = np.load(d + '/loom_{k}.npy')\n"
          "assert b.dtype == a.dtype and b.shape == a.shape and (b == a).all(), {k}\n"
          "np.save(d + '/be_{k}.npy', a.astype(a.dtype.newbyteorder('>')))\n"
          "np.save(d + '/f_{k}.npy', np.asfortranarray(a) if a.ndim else a)\n"  // (asfortranarray makes 0-d 1-d)
          "F.write_array(open(d + '/v2_{k}.npy', 'wb'), a, version=(2, 0))\n"
          "F.write_array(open(d + '/v3_{k}.npy', 'wb'), a, version=(3, 0))\n",
          fmt::arg("n", s.numel()), fmt::arg("t", loom::name(t)), fmt::arg("s", shape), fmt::arg("k", k));
      ++k;
    }
  }
  write(dir / "check.py", script);
  // Debian's python3-numpy is for /usr/bin/python3 (another python3 may come first on PATH).
  const std::string py = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string cmd = fmt::format("{} '{}' 2>&1", py, (dir / "check.py").string());
  REQUIRE(std::system(cmd.c_str()) == 0);  // NumPy read every loom file (and wrote its own)
  k = 0;
  for (DType t : kTypes) {
    for (const loom::Shape& s : kShapes) {
      if (s.numel() > 1000 && t != DType::Float32) continue;
      INFO(loom::name(t) << " " << loom::to_string(s));
      CHECK(slurp(dir / fmt::format("loom_{}.npy", k)) == slurp(dir / fmt::format("np_{}.npy", k)));
      const Array want = values(t, s);
      for (const char* v : {"np", "be", "f", "v2", "v3"}) {
        INFO(v);
        const Array got = loom::load((dir / fmt::format("{}_{}.npy", v, k)).string());
        CHECK(got.dtype() == t);
        CHECK(got.shape() == s);
        CHECK(loom::all(loom::equal(got, want)).item<bool>());
      }
      ++k;
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("broken npy files give a ValueError and are not over-read", "[io]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("loom_npy_bad_{}", ::getpid());
  fs::create_directories(dir);
  const std::string good_path = (dir / "good.npy").string();
  loom::save(good_path, loom::arange(100).astype(DType::Float32));
  const std::string good = slurp(good_path);
  REQUIRE(good.size() == 128 + 400);
  const auto bad = [&](const std::string& name, const std::string& bytes) {
    write(dir / name, bytes);
    return (dir / name).string();
  };
  const auto header = [](const std::string& dict) {
    std::string h = dict + std::string(118 - dict.size() - 1, ' ') + "\n";
    return std::string("\x93NUMPY\x01\x00", 8) + std::string("\x76\x00", 2) + h;
  };
  CHECK_THROWS_WITH(loom::load(bad("trunc.npy", good.substr(0, 300))),
                    Catch::Matchers::Contains("needs 400 bytes of data and the file has 172"));
  CHECK_THROWS_WITH(loom::load(bad("short.npy", good.substr(0, 50))), Catch::Matchers::Contains("ends inside its header"));
  CHECK_THROWS_WITH(loom::load(bad("magic.npy", "NOTNUMPY" + good.substr(8))), Catch::Matchers::Contains("magic string"));
  CHECK_THROWS_WITH(loom::load(bad("version.npy", good.substr(0, 6) + std::string("\x07\x00", 2) + good.substr(8))),
                    Catch::Matchers::Contains("format version 7.0 is unknown"));
  CHECK_THROWS_MATCHES(loom::load(bad("object.npy", header("{'descr': '|O', 'fortran_order': False, 'shape': (3,), }"))),
                       loom::ValueError, Catch::Matchers::Message("Object arrays cannot be loaded when allow_pickle=False"));
  // A huge shape is refused before anything is allocated.
  CHECK_THROWS_WITH(loom::load(bad("huge.npy", header("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }"))),
                    Catch::Matchers::Contains("needs"));
  CHECK_THROWS_WITH(loom::load(bad("overflow.npy", header("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }"))),
                    Catch::Matchers::Contains("overflows"));
  const std::string empty_huge = bad("empty_huge.npy", header("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904, 4611686018427387904), }"));
  CHECK_THROWS_AS(loom::load(empty_huge), loom::ValueError);
  CHECK_THROWS_WITH(loom::load(empty_huge),
                       Catch::Matchers::Contains("empty_huge.npy is not a valid .npy file: its shape (0, 4611686018427387904, "
                                                 "4611686018427387904) is too big (load: array is too big"));
  CHECK_THROWS_WITH(loom::load(bad("negative.npy", header("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }"))),
                    Catch::Matchers::Contains("not a tuple of non-negative integers"));
  CHECK_THROWS_WITH(loom::load(bad("keys.npy", header("{'descr': '<f8', 'shape': (1,), }"))),
                    Catch::Matchers::Contains("does not have the keys"));
  CHECK_THROWS_WITH(loom::load(bad("extra.npy", header("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}"))),
                    Catch::Matchers::Contains("a key 'x'"));
  CHECK_THROWS_WITH(loom::load(bad("descr.npy", header("{'descr': '<M8', 'fortran_order': False, 'shape': (1,), }"))),
                    Catch::Matchers::Contains("descr '<M8' is not a dtype loom has"));
  CHECK_THROWS_WITH(loom::load(bad("long.npy", std::string("\x93NUMPY\x02\x00", 8) + std::string("\x00\x00\x00\x10", 4))),
                    Catch::Matchers::Contains("more than the 10000 loom reads"));
  CHECK_THROWS_WITH(loom::load((dir / "missing.npy").string()), Catch::Matchers::Contains("cannot open"));
  fs::remove_all(dir);
}

// tests/fixtures/npy/bfloat16.npy: np.save of (arange(12) % 7 - 3).astype(ml_dtypes.bfloat16)
// .reshape(3, 4), written on the GPU machine (NumPy 2.5, ml_dtypes): descr '<V2'.
TEST_CASE("bfloat16 npy files are what NumPy writes for ml_dtypes' bfloat16", "[io]") {
  namespace fs = std::filesystem;
  const fs::path fixture = fs::path(LOOM_SOURCE_DIR) / "tests/fixtures/npy/bfloat16.npy";
  const fs::path mine = fs::temp_directory_path() / fmt::format("loom_bf16_{}.npy", ::getpid());
  const Array want = values(DType::BFloat16, {3, 4});
  loom::save(mine.string(), want);
  CHECK(slurp(mine) == slurp(fixture));
  const Array got = loom::load(fixture.string());
  CHECK(got.dtype() == DType::BFloat16);
  CHECK(got.shape() == loom::Shape{3, 4});
  CHECK(got.astype(DType::Float32).to_host<float>() == want.astype(DType::Float32).to_host<float>());
  fs::remove(mine);
}

TEST_CASE("npz archives are NumPy's, both ways", "[io]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("loom_npz_{}", ::getpid());
  fs::create_directories(dir);
  const Array a = values(DType::Float32, {3, 4}), b = values(DType::Int16, {5}), c = values(DType::Complex128, {});
  const Array big = values(DType::Float64, {100000});  // compresses well: arange % 7
  loom::savez((dir / "loom_plain").string(), {{"a", a}, {"b", b}, {"c", c}});  // ".npz" appended
  loom::savez_compressed((dir / "loom_z.npz").string(), {{"big", big}, {"a", a}});
  CHECK(fs::file_size(dir / "loom_z.npz") < 100000);
  const std::string script = fmt::format(
      "import numpy as np\nd = '{}'\n"
      "v = lambda n, t, s: (np.arange(n) % 7 - 3).astype(t).reshape(s)\n"
      "f = np.load(d + '/loom_plain.npz')\n"
      "assert sorted(f.files) == ['a', 'b', 'c']\n"
      "assert (f['a'] == v(12, 'float32', (3, 4))).all() and f['b'].dtype == np.int16 and f['c'].shape == ()\n"
      "g = np.load(d + '/loom_z.npz')\n"
      "assert (g['big'] == v(100000, 'float64', (100000,))).all()\n"
      "np.savez(d + '/np_plain.npz', x=v(6, 'uint8', (2, 3)), y=v(4, 'bool', (4,)))\n"
      "np.savez_compressed(d + '/np_z.npz', big=v(100000, 'float64', (100000,)), f=np.asfortranarray(v(6, 'int64', (2, 3))))\n",
      dir.string());
  write(dir / "check.py", script);
  const std::string py = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  REQUIRE(std::system(fmt::format("{} '{}' 2>&1", py, (dir / "check.py").string()).c_str()) == 0);
  const auto same = [](const Array& x, const Array& y) {
    return x.shape() == y.shape() && x.dtype() == y.dtype() && loom::all(loom::equal(x, y)).item<bool>();
  };
  const auto plain = loom::load_npz((dir / "np_plain.npz").string());
  REQUIRE(plain.size() == 2);
  CHECK(same(plain.at("x"), values(DType::UInt8, {2, 3})));
  CHECK(same(plain.at("y"), values(DType::Bool, {4})));
  const auto z = loom::load_npz((dir / "np_z.npz").string());
  CHECK(same(z.at("big"), big));
  CHECK(same(z.at("f"), values(DType::Int64, {2, 3})));
  const auto mine = loom::load_npz((dir / "loom_plain.npz").string());
  CHECK(same(mine.at("c"), c));
  // Errors: a .npz given to load, duplicate names, broken archives.
  CHECK_THROWS_WITH(loom::load((dir / "np_z.npz").string()), Catch::Matchers::Contains("read it with loom::load_npz"));
  CHECK_THROWS_WITH(loom::savez((dir / "dup").string(), {{"a", a}, {"a", b}}), Catch::Matchers::Contains("given twice"));
  const std::string zbytes = slurp(dir / "np_z.npz");
  write(dir / "cut.npz", zbytes.substr(0, zbytes.size() / 2));
  CHECK_THROWS_WITH(loom::load_npz((dir / "cut.npz").string()), Catch::Matchers::Contains("no zip end record"));
  std::string flipped = slurp(dir / "loom_plain.npz");
  flipped[200] = static_cast<char>(flipped[200] ^ 0x55);  // inside member a's data
  write(dir / "crc.npz", flipped);
  CHECK_THROWS_WITH(loom::load_npz((dir / "crc.npz").string()), Catch::Matchers::Contains("fails its CRC-32 check"));
  // A member claiming a size deflate cannot reach (its central record's uncompressed size).
  std::string liar = slurp(dir / "loom_z.npz");
  const std::size_t cd = liar.rfind(std::string("PK\x01\x02", 4));
  REQUIRE(cd != std::string::npos);
  liar[cd + 24] = liar[cd + 25] = liar[cd + 26] = '\xff';
  liar[cd + 27] = '\x7f';
  write(dir / "liar.npz", liar);
  CHECK_THROWS_WITH(loom::load_npz((dir / "liar.npz").string()), Catch::Matchers::Contains("claims an impossible size"));
  fs::remove_all(dir);
}
