#pragma once
// The CUDA of user kernels (include/loom/kernels.hpp), written from plain data: lib/user works
// out what a call is (parameters and their dtypes, collapsed dims, the user's code) and this
// file writes it, so codegen is the one place that writes CUDA.
//
// - As graph nodes that fuse: the block an ElementwiseKernel (or a ReductionKernel's map and
//   post-map) is as an Op::User node's expression (the element emitter puts input k's value for
//   "@in<k>@" and the node's for "@out@"), and a ReductionKernel's reduction state
//   (ReduceKind::User: loom_reduce.cuh's contract, so every reduction strategy runs it).
// - As kernels of their own, for calls that cannot be nodes (raw arguments, several outputs, loop
//   code, `i`, float16 or complex dtypes, ...): an ElementwiseKernel is a grid-stride loop over
//   its collapsed output, a ReductionKernel a block per output element whose threads combine in a
//   fixed tree (the same bits every run). Each takes a `loom_params_t` by value (sizes, extents,
//   strides: user_kernel_words says its layout) and then the arguments in parameter order.
//
//   extern "C" __global__ void scaled(const loom_params_t loom_p, const float* __restrict__ loom_in0,
//                                     const float loom_s1, float* __restrict__ loom_out0) {
//     typedef float T;
//     const loom_ind_t _ind{loom_p.n};
//     for (long long i = ...; i < loom_p.n; i += ...) {
//       long long loom_o0 = i * loom_p.st[0][0];
//       const T x = loom_in0[loom_o0];  ...  { y = x * a; }
//     }
//   }

#include <cstdint>
#include <string>
#include <vector>

#include <loom/dtype.hpp>

#include "codegen/emit_elementwise.hpp"

namespace loom::codegen {

// The C type of a dtype in user code: loom's storage types, but CCCL's complex numbers (user
// code knows no loom::c64).
const char* user_ctype(DType t);

// A type placeholder bound by the call: `typedef float T;`.
struct UserType {
  std::string name;
  DType dtype = DType::Float32;
};

enum class UserArgKind : std::uint8_t {
  Scalar,   // by value:                             const T loom_s<k>
  Strided,  // read at each element through strides: const T* __restrict__ loom_in<k>
  Raw,      // indexed by the code (loom_raw_t):     T* loom_raw<k>, long long loom_rawn<k>
};
// One input parameter, in parameter order.
struct UserArg {
  UserArgKind kind = UserArgKind::Strided;
  std::string name;
  DType dtype = DType::Float32;
};
// One output parameter: written at each element, or (raw) indexed by the code with its own size.
struct UserOut {
  std::string name;
  DType dtype = DType::Float32;
  bool raw = false;
};

struct UserElementwisePlan {
  std::string name;
  std::vector<UserType> types;
  std::vector<UserArg> in;
  std::vector<UserOut> out;  // none: the kernel writes its raw arguments (they are not const)
  std::string body, preamble, loop_prep, after_loop;
  int dims = 0;              // collapsed dims of the loop
};

inline constexpr int kUserReduceThreads = 256;

struct UserReducePlan {
  std::string name;
  std::vector<UserType> types;
  std::vector<UserArg> in;  // Scalar or Strided
  std::vector<UserOut> out;
  DType reduce_type = DType::Float32;
  std::string map, reduce, post_map, identity, preamble;
  int kept_dims = 0, reduced_dims = 0;  // collapsed
};

KernelSource emit_user_elementwise(const UserElementwisePlan& plan);
KernelSource emit_user_reduce(const UserReducePlan& plan);

// The 8-byte words of `loom_params_t` and where each part starts: ElementwiseKernel: n,
// shape[dims], st[strided inputs][dims]; ReductionKernel: n_out, n_red, kshape[kept],
// rshape[reduced], kst[inputs][kept], rst[inputs][reduced] (each extent at least 1).
struct UserParamsLayout {
  std::size_t words = 0;
  std::size_t shape = 0, strides = 0;                             // elementwise
  std::size_t kshape = 0, rshape = 0, kstrides = 0, rstrides = 0;  // reduction
  int dims1 = 1, kept1 = 1, reduced1 = 1;                         // the arrays' extents
};
UserParamsLayout user_params_layout(const UserElementwisePlan& plan);
UserParamsLayout user_params_layout(const UserReducePlan& plan);

// An ElementwiseKernel with one output, no raw parameter and no loop code as an Op::User node's
// expression: a block that declares the inputs from "@in<k>@", runs the body and sets "@out@".
std::string user_elementwise_block(const UserElementwisePlan& plan);

// A ReductionKernel (one output, an identity) as nodes: the map (each input element's term, of
// reduce_type), the reduction state `state_name` (its definition, for the kernel's preamble),
// and the post-map (the output from the result `a`, "@in0@").
struct UserReduceBlocks {
  std::string map, state_name, state, post_map;
};
UserReduceBlocks user_reduce_blocks(const UserReducePlan& plan);

}  // namespace loom::codegen
