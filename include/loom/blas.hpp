#pragma once
// Matrix products with NumPy's semantics: matmul (the @ operator), dot, vdot, inner, outer and
// tensordot. Floating and complex products run as cuBLAS GEMM calls (barriers: the work around
// them still fuses, and transposed views become cuBLAS op flags, not copies); integer and bool
// products are loom's own fused reductions, with NumPy's result dtypes.

#include <cstdint>
#include <vector>

#include <loom/array.hpp>

namespace loom {

// np.matmul / a @ b. 1-D operands get a dim prepended (a) or appended (b), removed from the
// result; batch dims (all but the last two) broadcast. Mixed dtypes promote first (NumPy's
// rules). float16/bfloat16 accumulate in float32 and return their own dtype. 0-d operands,
// mismatched inner dims and batch dims that do not broadcast throw ShapeError with NumPy's
// wording.
[[nodiscard]] Array matmul(const Array& a, const Array& b);

// np.dot: a * b when either is 0-d; matmul for a 1-D b; otherwise the sum over a's last axis
// and b's second-to-last (tensordot(a, b, {{-1}, {-2}})).
[[nodiscard]] Array dot(const Array& a, const Array& b);
// np.vdot: both flattened, the first conjugated, then their dot product (a 0-d array).
[[nodiscard]] Array vdot(const Array& a, const Array& b);
// np.inner: the sum over the last axes of both (a * b when either is 0-d).
[[nodiscard]] Array inner(const Array& a, const Array& b);
// np.outer: both flattened, out[i, j] = a[i] * b[j] (elementwise, fused; no GEMM).
[[nodiscard]] Array outer(const Array& a, const Array& b);

// The axes tensordot sums over: the last n of a with the first n of b, or two lists.
class TensordotAxes {
 public:
  TensordotAxes(int n) : n_(n) {}  // NOLINT
  TensordotAxes(std::vector<std::int64_t> a, std::vector<std::int64_t> b)
      : n_(-1), a_(std::move(a)), b_(std::move(b)) {}
  bool is_count() const { return n_ >= 0; }
  int count() const { return n_; }
  const std::vector<std::int64_t>& a() const { return a_; }
  const std::vector<std::int64_t>& b() const { return b_; }

 private:
  int n_;
  std::vector<std::int64_t> a_, b_;
};
// np.tensordot: the sum of products over the given axes; the result has a's other axes, then
// b's. Extents that differ throw ShapeError "shape-mismatch for sum".
[[nodiscard]] Array tensordot(const Array& a, const Array& b, const TensordotAxes& axes = 2);

// TF32 tensor cores for float32 and complex64 products: off by default (exact float32
// products, CUBLAS_COMPUTE_32F); LOOM_TF32=1 turns it on at start. A product takes the
// setting in force when it is built (its explain() text names the compute type).
void set_tf32(bool enabled);
bool tf32_enabled();

}  // namespace loom
