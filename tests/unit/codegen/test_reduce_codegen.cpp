// Reduction kernels: what fuses into one kernel (prologue, epilogue, several reductions over one
// domain), the strategy per layout, structural keys, and NVRTC compilation (sm_90, no GPU) of
// every reduction kind on every dtype it takes, in every layout.

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <loom/loom.hpp>

#include "codegen/emit_elementwise.hpp"
#include "exec/realize.hpp"
#include "support/nvrtc_batch.hpp"
#include "support/test_support.hpp"

using loom::Array;
using loom::DType;
using loom::codegen::ReduceStrategy;

namespace {

loom::exec::Prepared prepared(const std::vector<Array>& arrays) {
  std::vector<loom::detail::NodeRef> nodes;
  for (const Array& a : arrays) nodes.push_back(a.node());
  return loom::exec::prepare(nodes);
}

}  // namespace

TEST_CASE("norm, logsumexp and mean+var are one kernel each", "[reduce][fusion]") {
  const Array x = loom::empty({512, 300}, DType::Float32);
  const auto norm = prepared({loom::linalg::norm(x, {}, 1)});
  REQUIRE(norm.kernels.size() == 1);
  REQUIRE(norm.kernels[0].reduce);
  CHECK(norm.kernels[0].reduce->reductions.size() == 1);
  const auto lse = prepared({loom::logsumexp(x, 1)});
  REQUIRE(lse.kernels.size() == 1);
  CHECK(lse.kernels[0].reduce->reductions[0].kind == loom::detail::ReduceKind::LogSumExp);
  const auto mv = prepared({loom::mean(x, 1), loom::var(x, 1)});
  REQUIRE(mv.kernels.size() == 1);
  CHECK(mv.kernels[0].reduce->reductions.size() == 2);
  CHECK(mv.kernels[0].outputs.size() == 2);
  // ptp: max and min of one input in one kernel; an epilogue subtracts them.
  CHECK(prepared({loom::ptp(x, 0)}).kernels.size() == 1);
}

TEST_CASE("softmax-like kernels keep each row in registers: one kernel, one read", "[reduce][fusion]") {
  const Array x = loom::empty({64, 100}, DType::Float32);
  for (const Array& y : {x - loom::max(x, 1, true), loom::softmax(x, 1), loom::log_softmax(x, -1)}) {
    const auto p = prepared({y});
    REQUIRE(p.kernels.size() == 1);
    CHECK(p.kernels[0].reduce->strategy == ReduceStrategy::Rows);
    int cached = 0;
    for (const auto& l : p.kernels[0].leaves) cached += l.cache >= 0;
    CHECK(cached == 1);  // the epilogue's x comes from the registers the prologue filled
  }
  // Not along a leading axis, nor for rows longer than the registers hold: computed first.
  CHECK(prepared({loom::softmax(x, 0)}).kernels.size() == 2);
  CHECK_THAT(loom::explain_string({x - loom::max(x, 0, true)}), Catch::Matchers::Contains("broadcast back"));
  const Array wide = loom::empty({4, 10000}, DType::Float32);
  CHECK(prepared({loom::softmax(wide, 1)}).kernels.size() == 2);
  // A reduction of a reduction: the inner one first.
  CHECK(prepared({loom::sum(x - loom::mean(x, 1, true), 1)}).kernels.size() == 2);
  // Two reductions of materialized reductions in one kernel (a matrix 1-norm twice, as cond(x, 1)
  // computes): each reads the inner result as a buffer (this once failed to partition). The two
  // inner sums, computed first over inputs of one shape and axes, share one kernel.
  const Array y = loom::empty({4, 4}, DType::Float32), z = loom::empty({4, 4}, DType::Float32);
  const Array c = loom::max(loom::sum(loom::abs(y), 0)) * loom::max(loom::sum(loom::abs(z), 0));
  const auto pc = prepared({c});
  REQUIRE(pc.kernels.size() == 2);
  CHECK(pc.kernels[0].reduce->reductions.size() == 2);
  // softmax over a leading axis or rows too long for registers: its max and sum of exps share
  // one kernel (one read of x), the quotient is a second.
  for (const Array& s : {loom::softmax(x, 0), loom::softmax(loom::empty({4, 10000}, DType::Float32), 1)}) {
    const auto ps = prepared({s});
    REQUIRE(ps.kernels.size() == 2);
    CHECK(ps.kernels[0].reduce->reductions.size() == 2);
  }
}

TEST_CASE("the strategy follows the layout", "[reduce]") {
  const Array x = loom::empty({256, 512}, DType::Float32);
  CHECK(prepared({loom::sum(x, 1)}).kernels[0].reduce->strategy == ReduceStrategy::WarpRows);
  CHECK(prepared({loom::sum(x, 0)}).kernels[0].reduce->strategy == ReduceStrategy::ColumnTiles);
  CHECK(prepared({loom::sum(x)}).kernels[0].reduce->strategy == ReduceStrategy::Cooperative);
  CHECK(prepared({loom::sum(x.T(), 1)}).kernels[0].reduce->strategy == ReduceStrategy::ColumnTiles);
  CHECK(prepared({loom::sum(x.T(), 0)}).kernels[0].reduce->strategy == ReduceStrategy::WarpRows);
  // Short columns stay a thread per output.
  CHECK(prepared({loom::sum(x[{loom::Slice(0, 20)}], 0)}).kernels[0].reduce->strategy == ReduceStrategy::PerThread);
  const Array y = loom::empty({8, 16, 32}, DType::Float32);
  const auto mid = prepared({loom::sum(y, 1)});
  CHECK(mid.kernels[0].reduce->strategy == ReduceStrategy::PerThread);
  CHECK(mid.kernels[0].reduce->nk == 8 * 32);
  CHECK(mid.kernels[0].reduce->nr == 16);
  // Contiguous reduced dims collapse to one.
  CHECK(prepared({loom::sum(y, {1, 2})}).kernels[0].reduce->prologue->shape == loom::Shape{8, 512});
}

TEST_CASE("rows of 17..2047 take a warp's lanes, skinny columns a tile of row slots", "[reduce]") {
  using loom::codegen::reduce_lanes;
  // The bench's shapes: 2^26 float32 as rows and as columns (empty: host memory never touched).
  const Array v = loom::empty({std::int64_t{1} << 26}, DType::Float32);
  const int sms = 132;  // what plans assume without a GPU (an H100)
  const auto part = [](const Array& a) { return *prepared({a}).kernels[0].reduce; };
  const auto dims = [&](const Array& a) { return loom::codegen::launch_dims(prepared({a}).kernels[0], sms); };
  for (std::int64_t row : {17, 33, 64, 100, 512, 1000, 2047}) {
    INFO("row " << row);
    const std::int64_t rows = (std::int64_t{1} << 26) / row;
    const Array a = v[{loom::Slice(0, rows * row)}].reshape({rows, row});
    const auto r = part(loom::sum(a, 1));
    CHECK(r.strategy == ReduceStrategy::WarpRows);
    CHECK(r.vec == (row % 4 == 0 ? 4 : 1));
    // Each lane has a batch of loads per row: >= 4 16-byte or >= 8 scalar loads (short rows).
    const int lanes = reduce_lanes(r);
    CHECK((lanes >= 4 && lanes <= 32));
    const std::int64_t loads_per_lane = (row / r.vec + lanes - 1) / lanes;
    CHECK(loads_per_lane >= 4);
    CHECK(dims(loom::sum(a, 1)).grid_x >= 8u * sms);
    CHECK(dims(loom::sum(a, 1)).splits == 1);
  }
  CHECK(reduce_lanes(part(loom::sum(v.reshape({-1, 64}), 1))) == 4);
  CHECK(reduce_lanes(part(loom::sum(v.reshape({-1, 512}), 1))) == 32);
  CHECK(part(loom::sum(v.reshape({-1, 2048}), 1)).strategy == ReduceStrategy::Cooperative);
  CHECK(part(loom::sum(v.reshape({-1, 16}), 1)).strategy == ReduceStrategy::PerThread);
  CHECK(part(loom::sum(v[{loom::Slice(0, 16000)}].reshape({16, 1000}), 1)).strategy == ReduceStrategy::Cooperative);  // few rows
  // A view four elements into rows of stride 68: planned with 16-byte loads; an address that is
  // not 16-byte aligned drops them (another key, more lanes per row). One element in, the data
  // is not aligned, and the plan has no vectors from the start (the fingerprint holds alignment).
  {
    const Array base = loom::empty({300, 68}, DType::Float32);
    auto kp = prepared({loom::sum(base[{loom::all, loom::Slice(4, 68)}], 1)}).kernels[0];
    REQUIRE(kp.reduce->vec == 4);
    CHECK(reduce_lanes(*kp.reduce) == 4);
    const std::string vector_key = kp.key;
    alignas(16) static float storage[4];
    const auto at = [](const loom::detail::Node*) -> const void* { return storage + 1; };
    CHECK_FALSE(loom::codegen::vector_aligned(kp, at, {}));
    loom::codegen::drop_vectors(kp);
    CHECK(kp.reduce->vec == 1);
    CHECK(reduce_lanes(*kp.reduce) == 8);
    CHECK(kp.key != vector_key);
    const auto off = prepared({loom::sum(base[{loom::all, loom::Slice(1, 65)}], 1)}).kernels[0];
    CHECK(off.reduce->vec == 1);
    CHECK(reduce_lanes(*off.reduce) == 8);
  }
  // Every reduction of a group goes the same way (mean + var: one kernel).
  const Array h = v[{loom::Slice(0, 100 * 600000)}].reshape({-1, 100});
  const auto mv = prepared({loom::mean(h, 1), loom::var(h, 1)});
  REQUIRE(mv.kernels.size() == 1);
  CHECK(mv.kernels[0].reduce->strategy == ReduceStrategy::WarpRows);

  for (std::int64_t cols : {32, 256, 2048, 8192, 16384, 131072}) {
    INFO("cols " << cols);
    const Array a = v.reshape({-1, cols});
    const auto r = part(loom::sum(a, 0));
    CHECK(r.strategy == ReduceStrategy::ColumnTiles);
    CHECK(r.vec == 4);  // 16-byte loads of 4 adjacent columns
    CHECK(reduce_lanes(r) == (cols == 32 ? 8 : 32));  // 32 columns: 8 threads a row, 4 rows a warp
    const auto d = dims(loom::sum(a, 0));
    CHECK(d.block_x == 256u);
    // About 4 blocks of 256 per SM in all (the probe's best), never more when split; 131072
    // columns are 1024 tiles, not split.
    const std::int64_t blocks = static_cast<std::int64_t>(d.grid_x) * d.grid_y;
    CHECK(blocks <= (d.grid_y > 1 ? 4 * sms : 1024));
    CHECK(blocks * 4 >= 3 * 4 * sms);
    CHECK(d.splits == static_cast<int>(d.grid_y));
  }
  // 8192 x 8192: 64 tiles of 128 columns x 8 splits (was 256 x 5: 1280 blocks, 1.2 waves; then
  // 64 x 16, one full wave, whose last blocks merged twice the partials).
  CHECK(dims(loom::sum(v.reshape({8192, 8192}), 0)).grid_x == 64u);
  CHECK(dims(loom::sum(v.reshape({8192, 8192}), 0)).grid_y == 8u);
  // Cooperative splits fill the blocks resident at once, rounded down, never a second wave:
  // all of 2^26 on 132 SMs holding 4 blocks each takes 528 blocks. Outputs with more tiles
  // (8192 elements) than that take up to 256 blocks of two tiles or more: 64 rows of 2^20,
  // 64 blocks each (not 8: one wave); 4 rows of 2^24, 256 each (not 132); 256 rows of 2^18,
  // 16 each (not 2).
  CHECK(loom::codegen::launch_dims(prepared({loom::sum(v)}).kernels[0], sms, 4).grid_x == 528u);
  const auto rows20 = loom::codegen::launch_dims(prepared({loom::sum(v.reshape({64, -1}), 1)}).kernels[0], sms, 4);
  CHECK(rows20.grid_x == 64u);
  CHECK(rows20.grid_y == 64u);
  CHECK(rows20.splits == 64);
  CHECK(loom::codegen::launch_dims(prepared({loom::sum(v.reshape({4, -1}), 1)}).kernels[0], sms, 4).grid_x == 256u);
  CHECK(loom::codegen::launch_dims(prepared({loom::sum(v.reshape({256, -1}), 1)}).kernels[0], sms, 4).grid_x == 16u);
  CHECK(loom::codegen::launch_dims(prepared({loom::sum(v)}).kernels[0], sms).grid_x == 8u * sms);  // occupancy unknown
  // Columns not a multiple of 4, and float64 (2 per 16 bytes).
  CHECK(part(loom::sum(v[{loom::Slice(0, 30 * 100000)}].reshape({100000, 30}), 0)).vec == 1);
  CHECK(part(loom::sum(loom::empty({100000, 32}, DType::Float64), 0)).vec == 2);
  CHECK(reduce_lanes(part(loom::sum(loom::empty({100000, 32}, DType::Float64), 0))) == 16);
  // A view one column in: planned with vectors (strides allow), dropped at launch when the
  // address is not 16-byte aligned (another key, 4x the threads along a row).
  {
    const Array base = loom::empty({100000, 36}, DType::Float32);
    auto kp = prepared({loom::sum(base[{loom::all, loom::Slice(4, 36)}], 0)}).kernels[0];
    REQUIRE(kp.reduce->strategy == ReduceStrategy::ColumnTiles);
    REQUIRE(kp.reduce->vec == 4);
    CHECK(reduce_lanes(*kp.reduce) == 8);
    const std::string vector_key = kp.key;
    alignas(16) static float storage[4];
    const auto at = [](const loom::detail::Node*) -> const void* { return storage + 1; };
    CHECK_FALSE(loom::codegen::vector_aligned(kp, at, {}));
    loom::codegen::drop_vectors(kp);
    CHECK(kp.reduce->vec == 1);
    CHECK(reduce_lanes(*kp.reduce) == 32);
    CHECK(kp.key != vector_key);
    CHECK(prepared({loom::sum(base[{loom::all, loom::Slice(1, 33)}], 0)}).kernels[0].reduce->vec == 1);
  }
  // A broadcast along the columns (stride 0 on the kept axis) keeps scalar loads.
  CHECK(part(loom::sum(loom::empty({100000, 1}, DType::Float32).broadcast_to({100000, 32}), 0)).vec == 1);
  CHECK(part(loom::sum(v.reshape({32, -1}), 0)).strategy == ReduceStrategy::PerThread);  // wide
  const Array tall = v[{loom::Slice(0, 300000)}].reshape({100000, 3});
  CHECK(part(loom::sum(tall, 0)).strategy == ReduceStrategy::ColumnTiles);
  CHECK(reduce_lanes(part(loom::sum(tall, 0))) == 4);  // 3 columns: tiles of 4 x 64 row slots
  // explain names them.
  CHECK_THAT(loom::explain_string({loom::sum(v.reshape({-1, 64}), 1)}), Catch::Matchers::Contains("warp-rows (4 lanes"));
  CHECK_THAT(loom::explain_string({loom::sum(tall, 0)}), Catch::Matchers::Contains("column-tiles (blocks of 4 columns x 64 row slots, 1 column(s) per load)"));
}

TEST_CASE("reduction keys ignore sizes and scalars", "[reduce][keys]") {
  const auto key = [](const Array& a) { return prepared({a}).kernels[0].key; };
  const Array a = loom::empty({100, 200}, DType::Float32);
  const Array b = loom::empty({300, 700}, DType::Float32);
  CHECK(key(loom::sum(a * 2.0f, 1)) == key(loom::sum(b * 3.0f, 1)));
  CHECK(key(loom::sum(a, 1)) != key(loom::sum(a, 0)));
  CHECK(key(loom::sum(a, 1)) != key(loom::max(a, 1)));
  CHECK(key(loom::var(a, 1)) == key(loom::var(b, 1, false, 1)));  // ddof is an argument
  // Each strategy its own source: warp rows, block per row, thread per row; column tiles, thread
  // per column. Lanes per row are an argument: rows of 64 and 512 share a kernel.
  const Array f = loom::empty({4096, 4096}, DType::Float32);
  const Array rows64 = f.reshape({-1, 64}), rows512 = f.reshape({-1, 512}), rows2048 = f.reshape({-1, 2048});
  CHECK(key(loom::sum(rows64, 1)) == key(loom::sum(rows512, 1)));
  CHECK(key(loom::sum(rows64, 1)) != key(loom::sum(rows2048, 1)));
  CHECK(key(loom::sum(rows64, 1)) != key(loom::sum(f.reshape({-1, 8}), 1)));
  CHECK(key(loom::sum(rows64, 0)) != key(loom::sum(f.reshape({32, -1}), 0)));
  CHECK(key(loom::sum(rows64, 0)) == key(loom::sum(rows2048, 0)));
}

TEST_CASE("every reduction kernel compiles with NVRTC for sm_90", "[reduce][nvrtc]") {
  loom::test::NvrtcBatch batch;
  const auto add = [&](const std::vector<Array>& arrays) {
    for (const auto& kp : prepared(arrays).kernels) {
      batch.add(loom::codegen::emit_kernel(kp));
    }
  };
  // {40, 70}: axis 1 warp rows, axis 0 column tiles; {20, 2100}: axis 1 a block per row, axis 0
  // a thread per column; {20, 12}: a thread per row.
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array x = loom::empty({40, 70}, t);
    const Array c = loom::empty({20, 2100}, t);
    add({loom::sum(c, 1), loom::prod(c, 1)});
    add({loom::max(c, 0), loom::min(c, 0)});
    add({loom::argmax(c, 1), loom::argmin(c, 0)});
    add({loom::mean(c, 0), loom::var(c, 1)});
    if (loom::is_floating(t)) add({loom::logsumexp(c, 1), loom::var(c), loom::logsumexp(c)});
    add({loom::any(c, 1), loom::alltrue(c, 0)});
    add({loom::sum(loom::empty({20, 12}, t), 1)});
    add({loom::argmin(x, 1)});
    add({loom::argmax(x, 0)});
    add({loom::var(x, 0)});
    add({loom::any(x, 0), loom::alltrue(x, 0)});
    add({loom::prod(x, 0)});
    if (loom::is_floating(t)) add({loom::logsumexp(x, 0), loom::nanmax(x, 0), loom::nanmin(x, 1)});
    add({loom::sum(x, 1)});
    add({loom::sum(x, 0)});
    add({loom::sum(x)});
    add({loom::prod(x, 1)});
    add({loom::max(x, 1), loom::min(x, 1)});
    add({loom::argmax(x, 1)});
    add({loom::argmin(x, 0)});
    add({loom::any(x, 1), loom::alltrue(x, 1)});
    add({loom::count_nonzero(x, 0)});
    if (!loom::is_bool(t)) add({loom::ptp(x, 1)});
    add({loom::mean(x, 1), loom::var(x, 1), loom::std(x, 0)});
    if (loom::is_floating(t)) {
      add({loom::nanmax(x, 1), loom::nanmin(x, 0), loom::nansum(x, 1), loom::nanmean(x, 0)});
      add({loom::logsumexp(x, 1)});
      add({loom::softmax(x, 1), loom::log_softmax(x, 0)});
      add({loom::softmax(x, 1)});
      add({x - loom::mean(x, 1, true) * loom::std(x, 1, true)});
    }
    add({loom::linalg::norm(x, {}, 1)});
  }
  // Layouts: middle axis, several axes, transposed, strided, broadcast, generator input, 64-bit.
  const Array y = loom::empty({6, 50, 70}, DType::Float32);
  add({loom::sum(y, 1)});
  add({loom::sum(y, {0, 2})});
  add({loom::max(y.transpose({2, 0, 1}), {1, 2})});
  add({loom::sum(y[{loom::Slice(loom::none, loom::none, 2)}], 2)});
  add({loom::sum(loom::empty({70}, DType::Float32).broadcast_to({50, 70}), 0)});
  add({loom::sum(loom::arange(1000).reshape({10, 100}) * 3, 1)});
  add({loom::sqrt(loom::sum(y * y, 2)) + loom::empty({6, 50}, DType::Float32)});
  add({loom::average(loom::empty({30, 40}, DType::Float64), 1, loom::empty({40}, DType::Float64))});
  add({loom::sum((y + 1).reshape({-1}))});
  // Warp rows with 16-byte loads (rows a multiple of 4 floats, of 2 doubles) and 64-bit indexing.
  add({loom::sum(loom::empty({40, 64}, DType::Float32), 1)});
  add({loom::var(loom::empty({40, 64}, DType::Float64), 1), loom::mean(loom::empty({40, 64}, DType::Float64), 1)});
  add({loom::argmax(loom::empty({40, 64}, DType::Float16), 1)});
  // Column tiles with 16-byte loads of adjacent columns, every kind, split or not (a runtime
  // choice), 64-bit indexing.
  for (DType t : loom::test::all_dtypes()) {
    INFO(loom::name(t));
    const Array cv = loom::empty({4000, 64}, t);
    add({loom::sum(cv, 0), loom::prod(cv, 0), loom::max(cv, 0), loom::argmin(cv, 0)});
    add({loom::mean(cv, 0), loom::var(cv, 0), loom::any(cv, 0), loom::alltrue(cv, 0)});
    if (loom::is_floating(t)) add({loom::logsumexp(cv, 0), loom::nanmax(cv, 0)});
  }
  // Row-resident kernels with 16-byte loads and stores (rows a multiple of the width), each
  // floating type: softmax, log_softmax, standardization (two reductions, one epilogue).
  for (DType t : {DType::Float32, DType::Float16, DType::BFloat16, DType::Float64}) {
    INFO(loom::name(t));
    const Array xv = loom::empty({40, 256}, t);
    add({loom::softmax(xv, 1)});
    add({loom::log_softmax(xv, -1)});
    add({(xv - loom::mean(xv, 1, true)) / loom::std(xv, 1, true)});
  }
  add({loom::sum(loom::empty({3, 64}, DType::Float32).broadcast_to({(std::int64_t{1} << 31) / 64 + 1, 3, 64}), 0)});
  add({loom::sum(loom::empty({3, 100}, DType::Float32).broadcast_to({(std::int64_t{1} << 31) / 100 + 1, 3, 100}), 2)});
  add({loom::sum(loom::empty({3, 100}, DType::Float32).broadcast_to({(std::int64_t{1} << 31) / 100 + 1, 3, 100}), 0)});
  INFO(batch.size() << " kernels");
  CHECK(batch.size() > 150);
  REQUIRE_NOTHROW(batch.compile_all());
  // No dead locals, nothing else NVRTC warns of.
  CHECK(batch.warnings() == "");
}

TEST_CASE("row-resident kernels: threads per row grow with the row, up to 16 elements each", "[reduce]") {
  // Blocks per multiprocessor in the launch bounds: as many as 24 registers plus the kept
  // elements allow (and 2048 threads, 32 blocks).
  struct Want {
    std::int64_t row;
    int block, per_thread, min_blocks;
  };
  for (const Want w : {Want{31, 32, 1, 32}, Want{100, 32, 4, 32}, Want{512, 32, 16, 32}, Want{513, 64, 16, 25},
                       Want{4096, 256, 16, 6}, Want{8192, 512, 16, 3}}) {
    INFO("row " << w.row);
    const Array x = loom::empty({10, w.row}, DType::Float32);
    const auto kp = prepared({loom::softmax(x, 1)}).kernels[0];
    REQUIRE(kp.reduce->strategy == ReduceStrategy::Rows);
    CHECK(kp.reduce->block == w.block);
    CHECK(kp.reduce->per_thread == w.per_thread);
    CHECK(loom::codegen::launch_dims(kp, 132).block_x == static_cast<unsigned>(w.block));
    CHECK_THAT(loom::codegen::emit_kernel(kp).text,
               Catch::Matchers::Contains(fmt::format("__launch_bounds__({}, {})", w.block, w.min_blocks)));
  }
  // The block and the loops' bound are in the key; rows that share both share a kernel.
  const auto key = [](std::int64_t row) {
    return prepared({loom::softmax(loom::empty({10, row}, DType::Float32), 1)}).kernels[0].key;
  };
  CHECK(key(8192) != key(4096));
  CHECK(key(8000) == key(8192));
  CHECK(key(100) != key(512));
}

TEST_CASE("row-resident kernels load and store 16-byte vectors where the rows allow", "[reduce]") {
  const auto plan = [](const Array& x) { return prepared({loom::softmax(x, 1)}).kernels[0]; };
  struct Want {
    DType t;
    std::int64_t row;
    int vec;
  };
  for (const Want w : {Want{DType::Float32, 8192, 4}, Want{DType::Float32, 8190, 1}, Want{DType::Float32, 100, 4},
                       Want{DType::Float16, 4096, 4}, Want{DType::BFloat16, 8192, 4}, Want{DType::Float64, 8192, 2},
                       Want{DType::Float32, 31, 1}, Want{DType::Float32, 4, 1}}) {
    INFO(loom::name(w.t) << " row " << w.row);
    const auto kp = plan(loom::empty({10, w.row}, w.t));
    REQUIRE(kp.reduce->strategy == ReduceStrategy::Rows);
    CHECK(kp.reduce->vec == w.vec);
    const std::string text = loom::codegen::emit_kernel(kp).text;
    if (w.vec > 1) {
      CHECK_THAT(text, Catch::Matchers::Contains("*reinterpret_cast<loom::Vec<" + std::to_string(w.vec)));
      // x from registers; res0 and res1 the row's max and sum of exp(x - max)
      CHECK_THAT(text, Catch::Matchers::Contains("epilogue(a, c0[k].v[e], res0, res1, ov0.v[e]);"));
    } else {
      CHECK_THAT(text, Catch::Matchers::Contains("epilogue(a, c0[k], res0, res1, a.out0["));
    }
  }
  // Keys differ with and without vectors.
  CHECK(plan(loom::empty({10, 8192}, DType::Float32)).key != plan(loom::empty({10, 8190}, DType::Float32)).key);
  // A view four elements into rows of 8196: planned with vectors (the strides allow), not when
  // the address is not 16-byte aligned, nor when an output is not. One element in, the data is
  // not aligned: no vectors in the plan.
  const Array base = loom::empty({10, 8196}, DType::Float32);
  CHECK(plan(base[{loom::all, loom::Slice(1, 8193)}]).reduce->vec == 1);
  auto kp = plan(base[{loom::all, loom::Slice(4, 8196)}]);
  REQUIRE(kp.reduce->vec == 4);
  const std::string vector_key = kp.key;
  alignas(16) static float storage[8];
  const auto at = [](const loom::detail::Node*) -> const void* { return storage + 1; };
  CHECK_FALSE(loom::codegen::vector_aligned(kp, at, {}));
  const auto at_aligned = [](const loom::detail::Node*) -> const void* { return storage; };
  std::vector<void*> outs{storage + 4};
  CHECK(loom::codegen::vector_aligned(kp, at_aligned, outs));
  outs[0] = storage + 5;
  CHECK_FALSE(loom::codegen::vector_aligned(kp, at_aligned, outs));
  loom::codegen::drop_vectors(kp);
  CHECK(kp.reduce->vec == 1);
  CHECK(kp.key != vector_key);
}
