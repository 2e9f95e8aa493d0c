// The environment switches: each is read once, and a bad value is one ValueError that names the
// variable (runtime/env.hpp).

#include <map>
#include <string>

#include <catch2/catch.hpp>

#include <loom/errors.hpp>

#include "runtime/env.hpp"
#include "support/test_support.hpp"

using loom::rt::Env;
using loom::test::WhatContains;

namespace {

Env read(const std::map<std::string, std::string>& vars) {
  return loom::rt::read_env([&](const char* name) {
    const auto it = vars.find(name);
    return it == vars.end() ? std::string() : it->second;
  });
}

}  // namespace

TEST_CASE("defaults, and switches in any case", "[env]") {
  const Env d = read({{"HOME", "/home/u"}});
  CHECK(d.fusion);
  CHECK(d.disk_cache);
  CHECK(d.max_kernel_ops == 256);
  CHECK(d.pool_limit == 0);
  CHECK(d.cache_dir == "/home/u/.cache/loom");
  CHECK(read({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/home/u"}}).cache_dir == "/x/loom");
  CHECK(read({{"LOOM_CACHE_DIR", "/c"}}).cache_dir == "/c");
  for (const char* off : {"0", "false", "OFF", "Off", "no", "NO"}) {
    INFO(off);
    CHECK_FALSE(read({{"LOOM_FUSION", off}}).fusion);
    CHECK_FALSE(read({{"LOOM_DISK_CACHE", off}}).disk_cache);
  }
  for (const char* on : {"1", "TRUE", "on", "Yes"}) {
    INFO(on);
    CHECK(read({{"LOOM_SYNC_CHECK", on}}).sync_check);
    CHECK(read({{"LOOM_NVTX", on}}).nvtx);
  }
  CHECK_FALSE(read({}).nvtx);
  CHECK(read({{"LOOM_MAX_KERNEL_OPS", "4096"}}).max_kernel_ops == 4096);
  CHECK(read({{"LOOM_MAX_KERNEL_OPS", "8"}}).max_kernel_ops == 8);
  CHECK(read({{"LOOM_POOL_LIMIT", "4GiB"}}).pool_limit == 4ull << 30);
  CHECK(read({{"LOOM_POOL_LIMIT", "512MB"}}).pool_limit == 512000000ull);
  CHECK(read({{"LOOM_POOL_LIMIT", "18446744073709551615"}}).pool_limit == 18446744073709551615ull);
}

TEST_CASE("without a home directory the default cache is per user or none, never /tmp", "[env]") {
  const Env e = read({});
  CHECK(e.cache_dir.rfind("/tmp", 0) != 0);
  if (e.cache_dir.empty()) CHECK_FALSE(e.disk_cache);
  CHECK(read({{"HOME", "relative/dir"}}).cache_dir.rfind("relative", 0) != 0);
}

TEST_CASE("a bad value is an error naming the variable", "[env]") {
  REQUIRE_THROWS_MATCHES(read({{"LOOM_POOL_LIMIT", "abc"}}), loom::ValueError,
                         WhatContains("LOOM_POOL_LIMIT=abc: cannot read 'abc' as a size in bytes"));
  REQUIRE_THROWS_MATCHES(read({{"LOOM_POOL_LIMIT", "12XB"}}), loom::ValueError,
                         WhatContains("LOOM_POOL_LIMIT=12XB"));
  // Past 2^64 is not "no limit".
  REQUIRE_THROWS_MATCHES(read({{"LOOM_POOL_LIMIT", "18446744073709551616"}}), loom::ValueError,
                         WhatContains("more bytes than a 64-bit size holds"));
  REQUIRE_THROWS_MATCHES(read({{"LOOM_POOL_LIMIT", "99999999999999999999999999999999999999"}}),
                         loom::ValueError, WhatContains("LOOM_POOL_LIMIT"));
  REQUIRE_THROWS_MATCHES(read({{"LOOM_POOL_LIMIT", "20000000TiB"}}), loom::ValueError,
                         WhatContains("LOOM_POOL_LIMIT"));
  REQUIRE_THROWS_MATCHES(read({{"LOOM_MAX_KERNEL_OPS", "abc"}}), loom::ValueError,
                         WhatContains("LOOM_MAX_KERNEL_OPS=abc: expected a whole number from 8 to 4096"));
  for (const char* bad : {"1000000", "7", "-5", "12x", "", " 9"}) {
    if (std::string(bad).empty()) continue;  // unset
    INFO(bad);
    REQUIRE_THROWS_MATCHES(read({{"LOOM_MAX_KERNEL_OPS", bad}}), loom::ValueError,
                           WhatContains("LOOM_MAX_KERNEL_OPS"));
  }
  for (const char* name : {"LOOM_FUSION", "LOOM_DISK_CACHE", "LOOM_SYNC_CHECK", "LOOM_TF32",
                           "LOOM_GRAPH_LAUNCH", "LOOM_POISON_OUTPUTS", "LOOM_DEBUG_PASSES"}) {
    INFO(name);
    REQUIRE_THROWS_MATCHES(read({{name, "maybe"}}), loom::ValueError,
                           WhatContains(std::string(name) + "=maybe: expected 1/0"));
  }
}
