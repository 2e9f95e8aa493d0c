// The tables the build generates code from: dtypes.def (the DType enum, its properties, the
// kernels' C types, the math libraries' cudaDataType), reductions.def (ReduceKind, names, state
// structs), and partition()'s phases printed one after another.

#include <sstream>
#include <unordered_set>
#include <vector>

#include <catch2/catch.hpp>

#include <loom/loom.hpp>

#include "codegen/ctypes.hpp"
#include "codegen/partition.hpp"
#include "exec/schedule.hpp"
#include "graph/node.hpp"
#include "runtime/libs/data_type.hpp"

using loom::DType;

TEST_CASE("the dtype table: one row per dtype, each column as NumPy and CUDA name it", "[tables]") {
  REQUIRE(loom::kNumDTypes == 15);
  for (int i = 0; i < loom::kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    CHECK(loom::dtype_info(t).dtype == t);
  }
  CHECK(loom::name(DType::BFloat16) == "bfloat16");
  CHECK(loom::itemsize(DType::Complex128) == 16);
  CHECK(loom::kind(DType::UInt16) == loom::DKind::Unsigned);
  CHECK(std::string(loom::codegen::short_name(DType::Complex64)) == "c64");
  CHECK(std::string(loom::codegen::storage_ctype(DType::Int8)) == "signed char");
  CHECK(std::string(loom::codegen::storage_ctype(DType::BFloat16)) == "__nv_bfloat16");
  // A value outside the enum names itself "?" (check_dtype reports it).
  CHECK(loom::name(static_cast<DType>(99)) == "?");
  CHECK(loom::itemsize(static_cast<DType>(99)) == 0);
  // The math libraries' types: the floats and complexes; none for bool and the integers.
  CHECK(loom::rt::cuda_data_type(DType::Float32) == CUDA_R_32F);
  CHECK(loom::rt::cuda_data_type(DType::BFloat16) == CUDA_R_16BF);
  CHECK(loom::rt::cuda_data_type(DType::Complex128) == CUDA_C_64F);
  CHECK_FALSE(loom::rt::cuda_data_type(DType::Int32).has_value());
  CHECK_FALSE(loom::rt::cuda_data_type(DType::Bool).has_value());
  // visit_dtype hands each dtype its host type.
  for (int i = 0; i < loom::kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    CHECK(loom::visit_dtype(t, []<class T>() { return sizeof(T); }) == loom::itemsize(t));
  }
}

TEST_CASE("the reduction table: names, state structs, result dtypes", "[tables]") {
  using loom::detail::ReduceKind;
  CHECK(std::string(loom::detail::reduce_name(ReduceKind::LogSumExp)) == "logsumexp");
  CHECK(std::string(loom::detail::reduce_info(ReduceKind::Any).state) == "loom::red::Any");
  CHECK_FALSE(loom::detail::reduce_info(ReduceKind::All).typed);
  CHECK(loom::detail::reduce_info(ReduceKind::ArgMin).index);
  CHECK_FALSE(loom::detail::reduce_info(ReduceKind::Variance).index);
  CHECK(std::string(loom::detail::reduce_name(ReduceKind::User)) == "user_reduce");
  // The result dtype follows the table: an index for argmax, the input's dtype otherwise.
  const loom::Array x = loom::empty({4, 5}, DType::Float32);
  CHECK(loom::argmax(x, 1).dtype() == DType::Int64);
  CHECK(loom::max(x, 1).dtype() == DType::Float32);
}

TEST_CASE("partition runs as named phases and prints the state after each", "[tables][partition]") {
  const loom::Array x = loom::empty({64, 64}, DType::Float32);
  const loom::Array y = loom::exp(x - loom::max(x, 0, true)) + loom::sum(x * 2.0f);
  std::ostringstream out;
  loom::codegen::PartitionOptions opts;
  opts.debug = &out;
  const loom::detail::NodeRef roots[] = {y.node()};
  const loom::codegen::Plan plan = loom::codegen::partition(roots, opts);
  const std::string s = out.str();
  std::size_t at = 0;
  for (const char* phase : {"survey", "cut_required", "cut_oversized", "view_roots", "group"}) {
    const std::size_t found = s.find(std::string("after ") + phase + " ---", at);
    INFO(s);
    REQUIRE(found != std::string::npos);  // each phase, in order
    at = found;
  }
  CHECK(s.find("group 0:") != std::string::npos);
  CHECK(plan.groups.size() >= 2);  // the column max is computed first, then the rest
  // Without a stream to print to, the same plan and nothing printed.
  const loom::codegen::Plan quiet = loom::codegen::partition(roots, loom::codegen::PartitionOptions{});
  CHECK(quiet.groups.size() == plan.groups.size());
}

namespace {

// Whether `from` reads `to` through its inputs (short of leaves).
bool reads(const loom::detail::Node* from, const loom::detail::Node* to) {
  std::vector<const loom::detail::Node*> work{from};
  std::unordered_set<const loom::detail::Node*> seen;
  while (!work.empty()) {
    const loom::detail::Node* n = work.back();
    work.pop_back();
    for (int i = 0; i < n->num_inputs; ++i) {
      const loom::detail::Node* in = n->inputs[static_cast<std::size_t>(i)].get();
      if (in == to) return true;
      if (!loom::detail::acts_as_leaf(*in) && seen.insert(in).second) work.push_back(in);
    }
  }
  return false;
}

}  // namespace


TEST_CASE("a reduction never shares a kernel with a reduction it reads", "[partition]") {
  // A k-means loop written literally: each step's GEMM inputs are computed with the reductions of
  // the outputs that read the same work, among them the row norms of X (one node for every step)
  // and the next argmin over the distances, which reads them: one input shape and axes, but the
  // argmin's prologue reads the norms, complete only when their kernel ends.
  const loom::Array X = loom::empty({400, 8}, DType::Float32);
  loom::Array C = loom::empty({8, 8}, DType::Float32);
  for (int step = 0; step < 3; ++step) {
    const loom::Array d = loom::sum(X * X, 1, true) - 2.0f * loom::matmul(X, C.T()) + loom::sum(C * C, 1);
    const loom::Array onehot = (loom::argmin(d, 1).expand_dims(1) == loom::arange(8)).astype(DType::Float32);
    C = loom::matmul(onehot.T(), X) / loom::maximum(loom::sum(onehot, 0), 1.0f).expand_dims(1);
  }
  const std::vector<loom::detail::NodeRef> roots{C.node()};
  int groups = 0;
  for (const loom::exec::Step& st : loom::exec::make_schedule(roots).steps) {
    if (st.kind != loom::exec::Step::Kind::Kernels) continue;
    const loom::codegen::Plan plan = loom::codegen::partition(st.targets, loom::codegen::PartitionOptions{});
    for (const loom::codegen::KernelGroup& g : plan.groups) {
      ++groups;
      for (const auto& r : g.roots) {
        for (const auto& other : g.roots) {
          if (r == other || r->op != loom::detail::Op::Reduce || other->op != loom::detail::Op::Reduce) continue;
          INFO(loom::codegen::to_string(plan));
          CHECK_FALSE(reads(r.get(), other.get()));
        }
      }
    }
  }
  CHECK(groups > 6);
}
