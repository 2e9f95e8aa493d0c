#pragma once
// What ElementwiseKernel and ReductionKernel share (lib/user/user_kernels.cpp): CuPy's
// parameter lists, placeholder resolution, the C types and includes of user code, scalars as
// kernel argument bytes, and the collapse of dims that every operand steps over alike.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <loom/kernels.hpp>

#include "codegen/user_kernel.hpp"

namespace loom::detail {

struct UserParam {
  bool raw = false;
  std::string type, name;
  std::optional<DType> dtype;  // none: `type` is a placeholder
};

// "T x, raw float32 y": ValueError naming `what` for a parameter that does not parse or a
// repeated name.
std::vector<UserParam> parse_params(const std::string& text, const std::string& what);

struct Resolution {
  std::map<std::string, DType> types;  // placeholder -> dtype
  std::map<std::string, std::string> bound_by;
  std::vector<DType> in_dtypes, out_dtypes;
};
// Placeholders bound by the arguments (inputs, then optionally one for each output: an Out
// spec, or an array the kernel writes); errors name `what`.
Resolution resolve(const std::vector<UserParam>& in, const std::vector<UserParam>& out,
                   const std::vector<KernelArg>& args, const std::string& what);
// What of the resolution and the arguments a generated source depends on, as a short key.
std::string signature_of(const Resolution& r, const std::vector<KernelArg>& args);
// The placeholders' typedefs (`typedef float T;`), for codegen/user_kernel.hpp.
std::vector<codegen::UserType> user_types(const Resolution& r);

// What a user kernel needs to be a graph node that fuses (elementwise_kernel.cpp,
// reduction_kernel.cpp): dtypes loom's kernels hold as they are (bool, integers, float32,
// float64); no parameter named like the element function's values (v0, v1, ...: it would hide
// the value it is set from); `names`: whether `text` names the identifier `id` as a token.
bool fusable_dtype(DType t);
bool value_like(const UserParam& p);
bool names(const std::string& text, const std::string& id);
std::vector<unsigned char> scalar_bytes(const Scalar& s, DType t);

// An argument's element strides once evaluated: a buffer's, else C-contiguous (what a kernel
// writes).
Shape predicted_strides(const Array& a);
Shape broadcast_strides(const Shape& shape, const Shape& strides, const Shape& to);
// Runs of adjacent dims of `shape` that every operand's strides (one Shape each, of `shape`'s
// rank) let one index cover.
std::vector<std::vector<int>> collapse_groups(const Shape& shape, const std::vector<Shape>& strides);

struct UserOp;  // graph/node.hpp

struct UserKernelState {
  std::string name;
  std::vector<UserParam> in, out;
  std::string body;           // ElementwiseKernel: the operation
  ElementwiseOptions ew;      // ElementwiseKernel
  std::string map_expr, reduce_expr, post_map_expr, identity;  // ReductionKernel
  ReductionKernelOptions red;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<UserModule>> modules;  // by generated source
  std::map<std::string, std::shared_ptr<UserModule>> by_signature;
  // The module of `source` (made at the first use; compiled by the caller).
  std::shared_ptr<UserModule> module_for(const std::string& source, const std::vector<std::string>& options);
  // The same, found by what decides the source (`signature`: dtypes, argument kinds, dims), so
  // a repeated call generates no source text.
  std::shared_ptr<UserModule> module_by(const std::string& signature, const std::function<std::string()>& source,
                                        const std::vector<std::string>& options);
  // The graph nodes' code of a fused call (map, state, post-map; or the elementwise body), made
  // once per signature: a repeated call formats and hashes no source text.
  using FusedOps = std::vector<std::shared_ptr<const UserOp>>;
  FusedOps fused_ops_by(const std::string& signature, const std::function<FusedOps()>& make);
  std::map<std::string, FusedOps> fused_ops;
};

struct Node;  // graph/node.hpp
// The arguments of a call made graph nodes: scalars as constants of their parameter's dtype,
// arrays cast to it and broadcast to `shape`.
std::vector<std::shared_ptr<const Node>> fused_inputs(const UserKernelState& s, const std::vector<DType>& dtypes,
                                                      const std::vector<KernelArg>& args, const Shape& shape);

}  // namespace loom::detail
