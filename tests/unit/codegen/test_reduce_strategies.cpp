// Reduction strategies as units (codegen/reduce_<name>.cpp): the golden source of each, the
// arguments a kernel carries (only those it reads), and the structural key's promise: equal keys
// give byte-identical source, whatever the sizes, strides, scalars and ddof.

#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "codegen/reduce_strategy.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::codegen::ReduceStrategy;

namespace {

std::vector<loom::codegen::KernelPlan> plans(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes).kernels;
}

loom::codegen::KernelSource source(const loom::codegen::KernelPlan& kp) {
  return loom::codegen::emit_kernel(kp);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct GoldenCase {
  const char* file;
  ReduceStrategy strategy;
  Array expr;
};

std::vector<GoldenCase> golden_cases() {
  const Array rows = loom::empty({64, 8192}, DType::Float32);
  return {
      {"reduce_cooperative_sum_f32.cu", ReduceStrategy::Cooperative, loom::sum(rows, 1)},
      {"reduce_per_thread_sum_f32.cu", ReduceStrategy::PerThread, loom::sum(loom::empty({100000, 8}, DType::Float32), 1)},
      {"reduce_rows_softmax_f32.cu", ReduceStrategy::Rows, loom::softmax(loom::empty({4096, 1024}, DType::Float32), 1)},
      {"reduce_warp_rows_var_f32.cu", ReduceStrategy::WarpRows,
       loom::var(loom::empty({4096, 256}, DType::Float32), 1)},
      {"reduce_column_tiles_sum_f32.cu", ReduceStrategy::ColumnTiles, loom::sum(loom::empty({100000, 32}, DType::Float32), 0)},
  };
}

}  // namespace

TEST_CASE("each reduction strategy's source matches its golden file", "[golden][reduce]") {
  loom::test::NvrtcBatch batch;
  for (const GoldenCase& g : golden_cases()) {
    INFO(g.file);
    const auto kps = plans({g.expr});
    REQUIRE(kps.size() == 1);
    REQUIRE(kps[0].reduce);
    CHECK(kps[0].reduce->strategy == g.strategy);
    const loom::codegen::KernelSource src = source(kps[0]);
    const std::string path = std::string(LOOM_SOURCE_DIR) + "/tests/unit/codegen/golden/" + g.file;
    if (std::getenv("LOOM_UPDATE_GOLDEN")) std::ofstream(path) << src.text;
    const std::string want = read_file(path);
    REQUIRE(!want.empty());
    CHECK(src.text == want);
    // The header names the strategy as its definition does.
    CHECK_THAT(src.text, Catch::Matchers::Contains(loom::codegen::strategy_def(g.strategy).comment));
    batch.add(src);
  }
  REQUIRE_NOTHROW(batch.compile_all());
  CHECK(batch.warnings() == "");  // no dead locals
}

TEST_CASE("a reduction kernel carries only the arguments it reads", "[reduce][keys]") {
  // The row-resident softmax kernel: its output, its input, the sizes its loops read (16
  // fields before: workspace pointers, tickets, chunk, extents it never read).
  const auto kp = plans({loom::softmax(loom::empty({4096, 1024}, DType::Float32), 1)})[0];
  const auto params = loom::codegen::kernel_params(kp);
  std::vector<std::string> names;
  for (const auto& q : params) names.push_back(q.name);
  CHECK(names == std::vector<std::string>{"out0", "pin0", "pin0_st0", "nk", "nr"});
  // Every field of every kernel below is read by its source (as `a.<field>`), and no field is
  // declared twice.
  const Array x = loom::empty({300, 70}, DType::Float64);
  std::vector<Array> exprs = {
      loom::sum(x, 1), loom::sum(x, 0), loom::var(x, 1, false, 1), loom::softmax(x, 0),
      loom::argmax(x[{loom::all, loom::Slice(loom::none, loom::none, 2)}], 1),
      loom::sum(loom::arange(1000).reshape({10, 100}) * 3, 1),
      loom::sum(x.T() + loom::linspace(0.0, 1.0, 300), 0),
      loom::mean(loom::empty({6, 50, 70}, DType::Float32), {0, 2}),
      x * 2 + 1, x.T() * x.T(), loom::sum(x)};
  for (std::size_t e = 0; e < exprs.size(); ++e) {
    for (const auto& k : plans({exprs[e]})) {
      INFO("expression " << e);
      const auto ps = loom::codegen::kernel_params(k);
      const std::string text = source(k).text;
      std::set<std::string> seen;
      for (const auto& q : ps) {
        INFO(q.name);
        CHECK(seen.insert(q.name).second);
        const std::size_t body = text.find("};");  // after the struct
        REQUIRE(body != std::string::npos);
        CHECK(text.find("a." + q.name, body) != std::string::npos);
      }
    }
  }
}

TEST_CASE("equal structural keys give byte-identical source", "[reduce][keys]") {
  // Many plans of a few structures over different sizes, strides, scalars and ddof: every plan
  // whose key equals another's has the same source text (and argument list).
  std::map<std::string, std::string> by_key;
  std::map<std::string, std::vector<std::string>> params_by_key;
  int plans_seen = 0, shared = 0;
  const auto add = [&](const std::vector<Array>& arrays) {
    for (const auto& kp : plans(arrays)) {
      const std::string text = source(kp).text;
      std::vector<std::string> names;
      for (const auto& q : loom::codegen::kernel_params(kp)) names.push_back(q.name);
      ++plans_seen;
      const auto [it, fresh] = by_key.emplace(kp.key, text);
      if (!fresh) {
        ++shared;
        CHECK(it->second == text);
        CHECK(params_by_key[kp.key] == names);
      } else {
        params_by_key[kp.key] = names;
      }
    }
  };
  const std::vector<std::array<std::int64_t, 2>> shapes = {
      {3, 5}, {40, 70}, {64, 64}, {100, 3}, {1000, 17}, {17, 1000}, {4096, 256}, {256, 4096}, {8, 8192}, {100000, 8}};
  for (const auto& s : shapes) {
    for (DType t : {DType::Float32, DType::Float64, DType::Int32}) {
      const Array x = loom::empty({s[0], s[1]}, t);
      const double c = static_cast<double>(s[0] % 7) + 0.5;
      for (int axis : {0, 1}) {
        add({loom::sum(x * c, axis)});
        add({loom::max(x + c, axis), loom::min(x, axis)});
        add({loom::argmin(x, axis)});
        add({loom::var(x, axis, false, static_cast<int>(s[1] % 2))});
        add({loom::mean(x[{loom::Slice(loom::none, loom::none, 2)}], axis)});
        add({loom::sum(x.T(), axis)});
        if (loom::is_floating(t)) {
          add({loom::softmax(x, axis)});
          add({loom::logsumexp(x, axis)});
          add({(x - loom::mean(x, axis, true)) / loom::std(x, axis, true)});
        }
      }
      add({loom::sum(x)});
      add({x * c + 1});
      add({x.T() * c});
    }
  }
  INFO(plans_seen << " plans, " << by_key.size() << " keys");
  CHECK(shared > plans_seen / 2);  // the sizes above share most kernels
  CHECK(by_key.size() > 40);       // and the strategies and dtypes give many
}
