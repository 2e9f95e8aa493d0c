#pragma once
// The user's own CUDA code, compiled with NVRTC at run time (CuPy's RawKernel and RawModule).
//
//   loom::RawKernel add(R"(extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) z[i] = x[i] + y[i];
//   })", "add");
//   auto z = add({(n + 255) / 256}, {256}, {x, y, loom::Out{{n}, loom::DType::Float32}, int(n)})[0];
//
// A launch is a barrier in the graph (as a cuBLAS call): its array arguments are evaluated and
// made C-contiguous first (CuPy's RawKernel passes a strided array's pointer as it is; loom copies
// it), each is passed as a pointer to its first element, and it runs on the current stream when
// its results are needed. What it writes are new arrays: `Out` (bytes unspecified until the
// kernel writes them) and `InOut` (a copy of an array's values, which the kernel updates; the
// array itself keeps its values: arrays are values). The launch returns them in argument order.
// Scalars are passed by value as their C++ type: an `int` is 4 bytes, a `double` 8, a `bool` 1
// (write `std::int64_t(n)` for a `long long` parameter).
//
// Compilation happens at the launch's line: a body NVRTC rejects throws CompileError with the
// numbered source there, and so does a kernel name the module lacks (on a GPU). Compiled modules
// are cached in memory and on disk (as loom's own kernels) by code, options and architecture.
// Without a GPU a launch cannot run: evaluating its result throws loom::Error saying so (the
// host reference evaluator cannot run CUDA code).

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <loom/array.hpp>
#include <loom/axes.hpp>

namespace loom {

struct KernelOptions {
  std::vector<std::string> options;        // NVRTC options: "-DN=4", "--use_fast_math", "-std=c++20"
  bool enable_cooperative_groups = false;  // launched with cudaLaunchCooperativeKernel
};

// A new array that a launch writes: C-contiguous, from the pool.
struct Out {
  Shape shape;
  DType dtype = DType::Float32;
};
// A new array holding a copy of `init`'s values (C-contiguous) that a launch updates.
struct InOut {
  Array init;
};

// Grid and block extents.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}  // NOLINT
};

// One argument of a launch: an array, an Out, an InOut, or a scalar passed by value. Where a
// kernel writes an array (an ElementwiseKernel's output given as an array, or a raw argument of
// one without outputs), what was written goes back as a write: a named (non-const lvalue) array
// is rebound to it, and x[i] given as it is writes into x's region (x[i] = written), as CuPy
// writes into a view; a const or temporary array is only read.
class KernelArg {
 public:
  enum class Kind { Array, Out, InOut, Scalar };
  KernelArg(const Array& a) : kind_(Kind::Array), array_(a) {}  // NOLINT
  KernelArg(Array& a) : kind_(Kind::Array), array_(a), write_back_([&a](const Array& v) { a = v; }) {}  // NOLINT
  KernelArg(IndexRef&& r)  // NOLINT
      : kind_(Kind::Array), array_(r), write_back_([r](const Array& v) mutable { std::move(r) = v; }) {}
  KernelArg(Out o) : kind_(Kind::Out), out_(std::move(o)) {}    // NOLINT
  KernelArg(InOut io) : kind_(Kind::InOut), array_(std::move(io.init)) {}  // NOLINT
  template <ScalarType T>
  KernelArg(T v) : kind_(Kind::Scalar), value_(Scalar::of(v, false)), bytes_(sizeof(T)), align_(alignof(T)) {  // NOLINT
    std::memcpy(scalar_, &v, sizeof(T));
  }
  Kind kind() const { return kind_; }
  const Array& array() const { return array_; }  // Array, InOut
  // Gives what a kernel wrote in this argument's place back to it (above); nothing for others.
  void write_back(const Array& written) const {
    if (write_back_) write_back_(written);
  }
  const Out& out() const { return out_; }
  const unsigned char* scalar() const { return scalar_; }
  std::size_t scalar_bytes() const { return bytes_; }
  std::size_t scalar_align() const { return align_; }
  const Scalar& value() const { return value_; }  // the scalar, with the dtype of its C++ type

 private:
  Kind kind_;
  Array array_;
  std::function<void(const Array&)> write_back_;
  Scalar value_;
  Out out_;
  alignas(16) unsigned char scalar_[16] = {};
  std::size_t bytes_ = 0, align_ = 1;
};

namespace detail {
struct UserModule;
struct UserKernelState;
}  // namespace detail

class RawKernel {
 public:
  // `name`: an extern "C" __global__ function of `code`.
  RawKernel(std::string code, std::string name, KernelOptions options = {});
  // Queues the launch (lazily, as every op) and returns the Out and InOut arrays in order.
  // Checks the configuration (block at most 1024 threads, no zero extent) and compiles here.
  std::vector<Array> operator()(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args,
                                std::size_t shared_mem = 0) const;
  const std::string& code() const;
  const std::string& name() const { return name_; }  // as given (a name expression for a module's)
  // Registers a thread of this kernel uses, and its largest block (compiled and loaded on the
  // current GPU).
  int num_regs() const;
  int max_threads_per_block() const;

 private:
  friend class RawModule;
  RawKernel(std::shared_ptr<detail::UserModule> module, std::string name, std::string symbol);
  std::shared_ptr<detail::UserModule> module_;
  std::string name_, symbol_;  // symbol: the name in the cubin (mangled for name expressions)
};

// The address and size of a __device__ variable of a module on the current GPU (valid while the
// module lives).
struct DeviceSymbol {
  void* ptr = nullptr;
  std::size_t nbytes = 0;
};

class RawModule {
 public:
  // name_expressions: C++ names of kernels to instantiate ("scale<float>", "ns::f<3>"), for
  // get_function; plain extern "C" kernels need none.
  RawModule(std::string code, KernelOptions options = {}, std::vector<std::string> name_expressions = {});
  RawKernel get_function(const std::string& name) const;
  DeviceSymbol get_global(const std::string& name) const;
  const std::string& code() const;

 private:
  std::shared_ptr<detail::UserModule> module_;
};

// --- kernels written as a body, typed by their parameters (CuPy's ElementwiseKernel and
// ReductionKernel) ---
//
// Parameters: "T x, float32 y, raw T z": NumPy dtype names, or one-word type placeholders
// resolved from the arguments (the same placeholder, the same dtype: an array gives its dtype;
// a scalar whose placeholder no array resolves gives its C++ type's: int is int32, double is
// float64). An array for a typed parameter is cast to it (as astype); a scalar is converted and
// passed by value (one compiled kernel for every value). `raw` parameters are not broadcast:
// the body indexes them by hand (`z[k]`, C order; `z.size()`), made C-contiguous first. In the
// body, `i` is the flat output index and `_ind.size()` the output's size; each placeholder is a
// typedef. The other arguments broadcast together (NumPy's rules); the outputs have their shape.
// A call that can be (one output, no raw parameter or loop code, no `i`; README.md lists the
// rules) is a graph node that fuses with the ops around it, and its code compiles with the kernel
// it joins, at the eval that runs it. The others run as a launch of their own (a barrier),
// compiled at the call's line: their inputs are evaluated first, their outputs are new arrays;
// one compiled kernel per combination of dtypes and dimension count.

struct ElementwiseOptions {
  std::string preamble;    // code before the kernel (functions, macros, typedefs)
  std::string loop_prep;   // code in each thread before its loop over elements
  std::string after_loop;  // code in each thread after it
  std::vector<std::string> options;  // NVRTC options
  std::int64_t size = -1;  // the output size when every argument is raw (else -1)
};

// The outputs of a user kernel: the first output itself (an Array: `Array z = k(x, y)`,
// `k(x, y) * 2`), and all of them by position (CuPy returns a tuple when there are several).
// A kernel without outputs gives the raw arguments it wrote, in order (none: an empty handle).
class KernelOutputs : public Array {
 public:
  explicit KernelOutputs(std::vector<Array> all);
  std::size_t count() const { return all_.size(); }
  const Array& output(std::size_t k) const;  // IndexError past count()
  const std::vector<Array>& outputs() const { return all_; }

 private:
  std::vector<Array> all_;
};

// Outputs given, and writes through raw arguments, as CuPy's (written as loom writes are, by
// rebinding: arrays are values):
//   k(x, y, z)   an array for an output is written in place of its values, as CuPy writes z:
//                the kernel starts from a copy of z's values (a body may read them, or write
//                only some), and z, when it is a named array, is rebound to the result (other
//                handles keep the old values); z[i] given as it is writes into z's region.
//                Its dtype must be the output's (a placeholder
//                binds to it; CuPy's TypeError otherwise: DTypeError), and a non-raw one gives
//                the loop's shape (the inputs broadcast to it); a raw one keeps its own.
//   k(x, y)      with out_params "" and `raw T y` written by the body (y[i] = x): a kernel
//                without outputs writes its raw arguments, each a copy of the array's values;
//                y, when named, is rebound to its written copy.
// Raw arguments of a kernel with outputs are read-only (const, as CuPy's), so a write through
// one is a CompileError. A const or temporary array in a written place is only read: the
// result is returned (KernelOutputs) either way.
class ElementwiseKernel {
 public:
  ElementwiseKernel(std::string in_params, std::string out_params, std::string operation,
                    std::string name = "kernel", ElementwiseOptions options = {});
  // The inputs in order, then optionally one argument for each output: a loom::Out (its shape
  // and dtype, which resolve placeholders as an argument would) or an array (written, above).
  KernelOutputs operator()(const std::vector<KernelArg>& args) const;
  template <class... A>
    requires(sizeof...(A) > 0 && (!std::same_as<std::decay_t<A>, std::vector<KernelArg>> && ...))
  KernelOutputs operator()(A&&... args) const {
    return (*this)(std::vector<KernelArg>{KernelArg(std::forward<A>(args))...});
  }
  const std::string& name() const;
  // The generated CUDA source for these arguments (without launching).
  std::string source(const std::vector<KernelArg>& args) const;

 private:
  std::shared_ptr<detail::UserKernelState> state_;
};

struct ReductionKernelOptions {
  std::string reduce_type;  // the accumulator's type (a dtype name or placeholder); default:
                            // the first output's
  std::string preamble;
  std::vector<std::string> options;  // NVRTC options
};

// map_expr computes each input element's term (a, in reduce_expr's terms); reduce_expr combines
// two partial results `a` and `b` (associative: the order is fixed, so results are the same bits
// every run); post_map_expr writes the output from the result `a`; identity is the value of an
// empty reduction (a C++ expression).
class ReductionKernel {
 public:
  ReductionKernel(std::string in_params, std::string out_params, std::string map_expr, std::string reduce_expr,
                  std::string post_map_expr, std::string identity, std::string name = "reduce_kernel",
                  ReductionKernelOptions options = {});
  // Reduces over `axis` (all axes when left out), dims kept as 1 with keepdims.
  KernelOutputs operator()(const std::vector<KernelArg>& args, Axes axis = {}, bool keepdims = false) const;
  const std::string& name() const;
  // The generated CUDA source for these arguments (without launching).
  std::string source(const std::vector<KernelArg>& args, Axes axis = {}, bool keepdims = false) const;

 private:
  std::shared_ptr<detail::UserKernelState> state_;
};

}  // namespace loom
