#include "calls/linalg_common.hpp"

#include <fmt/format.h>

#include <loom/creation.hpp>
#include <loom/errors.hpp>
#include <loom/ops.hpp>
#include <loom/reductions.hpp>

namespace loom::linalg::impl {

DType solver_type(DType t) {
  switch (t) {
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128: return t;
    case DType::Float16:
    case DType::BFloat16:
      throw DTypeError(fmt::format("array type {} is unsupported in linalg", name(t)));
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: return DType::Float64;
  }
  return DType::Float64;
}

DType solver_type(DType a, DType b) {
  const DType ta = solver_type(a), tb = solver_type(b);
  const bool complex = is_complex(ta) || is_complex(tb);
  const bool single = (ta == DType::Float32 || ta == DType::Complex64) &&
                      (tb == DType::Float32 || tb == DType::Complex64);
  if (complex) return single ? DType::Complex64 : DType::Complex128;
  return single ? DType::Float32 : DType::Float64;
}

void check_stacked_2d(const Array& a) {
  if (a.ndim() < 2) {
    throw LinAlgError(fmt::format("{}-dimensional array given. Array must be at least two-dimensional", a.ndim()));
  }
}

void check_square(const Array& a) {
  check_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2]) {
    throw LinAlgError("Last 2 dimensions of the array must be square");
  }
}

void check_2d(const Array& a) {
  if (a.ndim() != 2) {
    throw LinAlgError(fmt::format("{}-dimensional array given. Array must be two-dimensional", a.ndim()));
  }
}

Shape batch_shape(const Shape& s) { return Shape(s.begin(), s.end() - 2); }

Shape with_matrix(Shape batch, std::int64_t rows, std::int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

std::vector<Array> make_call(std::string name, std::string text, std::vector<Array> inputs,
                             std::vector<loom::detail::CallOutput> outputs, loom::detail::DeviceFn device) {
  auto spec = std::make_shared<loom::detail::CallSpec>();
  spec->name = std::move(name);
  spec->text = std::move(text);
  for (const Array& a : inputs) spec->inputs.push_back(a.node());
  spec->outputs = std::move(outputs);
  spec->device = std::move(device);
  std::vector<Array> out;
  for (auto& n : loom::detail::make_call(spec)) out.emplace_back(std::move(n));
  return out;
}

namespace {
// row - col of the last two dims, as a (rows, cols) int64 generator (fuses into its consumer).
Array row_minus_col(const Array& a) {
  const std::int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  return arange(rows).reshape({rows, 1}) - arange(cols);
}
}  // namespace

Array tril(const Array& a, std::int64_t k) { return where(row_minus_col(a) >= -k, a, 0); }
Array triu(const Array& a, std::int64_t k) { return where(row_minus_col(a) <= -k, a, 0); }

Array diagonal(const Array& a) {
  const std::int64_t n = a.shape()[a.ndim() - 1];
  Shape flat = batch_shape(a.shape());
  flat.push_back(n * n);
  return a.reshape(flat).slice(-1, 0, std::nullopt, n + 1);
}

Array conj_if_complex(const Array& a) { return is_complex(a.dtype()) ? conj(a) : a; }
Array adjoint(const Array& a) { return conj_if_complex(a.swapaxes(-1, -2)); }

Array product(const Array& a, const Array& b) {
  // (..., m, k, 1) * (..., 1, k, n) summed over k.
  return sum(a.expand_dims(-1) * b.expand_dims(-3), -2);
}

}  // namespace loom::linalg::impl
