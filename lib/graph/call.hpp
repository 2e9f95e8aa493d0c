#pragma once
// CallSpec: a library call (cuBLAS, cuSOLVER, CUB, cuSPARSE, cuRAND) as a barrier in the graph
// (DESIGN.md decision 9). A call reads materialized arrays and writes new buffers; its output
// nodes (Op::Call) are leaves to the fusion pass, so the elementwise work before and after a
// call still fuses. exec runs every call a plan needs before partitioning the rest.

#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <loom/dtype.hpp>
#include <loom/shape.hpp>

namespace loom::ref {
struct HostArray;
}

namespace loom::detail {

struct Node;
using NodeRef = std::shared_ptr<const Node>;

// One input of a call as it lies in memory: element strides and offset into `base`.
struct CallArg {
  const void* base = nullptr;
  DType dtype = DType::Float32;
  Shape shape;
  Shape strides;  // in elements
  std::int64_t offset = 0;

  const void* data() const {  // the first element
    return static_cast<const char*>(base) + offset * static_cast<std::int64_t>(itemsize(dtype));
  }
  bool c_contiguous() const { return is_c_contiguous(shape, strides); }
};

// What a call's device function gets from exec. Outputs are C-contiguous buffers of the shapes
// and dtypes the spec declared, from the pool; everything is queued on `stream`.
class CallContext {
 public:
  virtual ~CallContext() = default;
  int device = 0;
  void* stream = nullptr;  // cudaStream_t
  std::vector<CallArg> in;
  std::vector<void*> out;
  // Pool memory that stays valid for the work this call queues on `stream` (stream-ordered
  // reuse makes it safe to free when the call returns, which exec does).
  virtual void* workspace(std::size_t nbytes) = 0;
  // Input i as a C-contiguous array: itself when it already is, else a copy made by a loom
  // kernel on the same stream (also replaces in[i]).
  virtual const CallArg& contiguous(int i) = 0;
};

using DeviceFn = std::function<void(CallContext&)>;
// Host implementation (the reference evaluator's, and the path without a GPU): inputs are
// C-contiguous; outputs come sized and typed as declared.
using HostFn = std::function<void(std::span<const ref::HostArray* const> in, std::span<ref::HostArray> out)>;

struct CallOutput {
  DType dtype;
  Shape shape;
};

// How a call's device function reads an input.
enum class InputLayout : std::uint8_t {
  Contiguous,  // in C order: the schedule makes it so before the call (exec/schedule.hpp)
  AsItLies,    // through its own strides (cuBLAS op flags, user kernels' strided parameters)
};

struct CallSpec {
  std::string name;  // the user's function: "matmul", "linalg.solve", "sort"
  std::string text;  // what runs, for explain(): "cublasGemmStridedBatchedEx (A^T, B), f32"
  std::vector<NodeRef> inputs;
  // Per input (empty: every input Contiguous). A Contiguous input whose layout is not known to be
  // C order is copied by the kernel step before the call, so the call runs no kernel of its own;
  // ctx.contiguous() copies only what an AsItLies input turns out to need.
  std::vector<InputLayout> layouts;
  std::vector<CallOutput> outputs;
  DeviceFn device;
  HostFn host;  // empty: the call needs a GPU

  // Filled by make_call: the output nodes, so running the call sets all of them.
  mutable std::vector<std::weak_ptr<const Node>> output_nodes;
  mutable std::mutex mu;  // held while the call runs
};

// The output nodes of a call, one per spec.outputs entry.
std::vector<NodeRef> make_call(std::shared_ptr<CallSpec> spec);

std::string to_string(const CallSpec& c);  // "matmul (cublas...): f32[4,5] f32[5,6] -> f32[4,6]"

}  // namespace loom::detail
