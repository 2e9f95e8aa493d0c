#include "calls/blas_gemm.hpp"

#include <algorithm>
#include <complex>
#include <cstring>

#include <loom/half.hpp>

namespace loom::detail {

namespace {

// Element offset of batch entry `flat` (C order over out_batch) in m; dims of extent 1 in m
// broadcast, and m's batch dims align with out_batch's last ones.
std::int64_t batch_offset(const MatrixView& m, const Shape& out_batch, std::int64_t flat) {
  const int nb = out_batch.size();
  const int lead = nb - (m.shape.size() - 2);
  std::int64_t off = 0;
  for (int d = nb - 1; d >= 0; --d) {
    const std::int64_t idx = flat % out_batch[d];
    flat /= out_batch[d];
    const int od = d - lead;
    if (od >= 0 && m.shape[od] != 1) off += idx * m.strides[od];
  }
  return off;
}

template <class T> T conj_if(T v, bool conj) {
  if constexpr (requires { std::conj(v); v.imag(); }) {
    return conj ? std::conj(v) : v;
  } else {
    return v;
  }
}

// Acc: the accumulation type; T: the element type.
template <class T, class Acc>
void gemm_loops(const T* a, const MatrixView& va, bool conj_a, const T* b, const MatrixView& vb, bool conj_b,
                const Shape& out_batch, T* out) {
  const int na = va.shape.size(), nb = vb.shape.size();
  const std::int64_t m = va.shape[na - 2], k = va.shape[na - 1], n = vb.shape[nb - 1];
  const std::int64_t sam = va.strides[na - 2], sak = va.strides[na - 1];
  const std::int64_t sbk = vb.strides[nb - 2], sbn = vb.strides[nb - 1];
  const std::int64_t batch = out_batch.numel();
  for (std::int64_t bi = 0; bi < batch; ++bi) {
    const T* pa = a + batch_offset(va, out_batch, bi);
    const T* pb = b + batch_offset(vb, out_batch, bi);
    T* po = out + bi * m * n;
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        Acc acc{};
        for (std::int64_t p = 0; p < k; ++p) {
          acc += static_cast<Acc>(conj_if(pa[i * sam + p * sak], conj_a)) *
                 static_cast<Acc>(conj_if(pb[p * sbk + j * sbn], conj_b));
        }
        po[i * n + j] = static_cast<T>(acc);
      }
    }
  }
}

}  // namespace

MatrixView MatrixView::swapped() const {
  MatrixView v = *this;
  const int nd = shape.size();
  std::swap(v.shape[nd - 1], v.shape[nd - 2]);
  std::swap(v.strides[nd - 1], v.strides[nd - 2]);
  return v;
}

std::optional<MatrixLayout> matrix_layout(const MatrixView& m, const Shape& out_batch, bool prefer_col) {
  const int nd = m.shape.size();
  const std::int64_t rows = m.shape[nd - 2], cols = m.shape[nd - 1];
  const std::int64_t sr = m.strides[nd - 2], sc = m.strides[nd - 1];
  MatrixLayout l;
  const bool row_ok = (cols <= 1 || sc == 1) && (rows <= 1 || sr >= std::max<std::int64_t>(cols, 1));
  const bool col_ok = (rows <= 1 || sr == 1) && (cols <= 1 || sc >= std::max<std::int64_t>(rows, 1));
  if (col_ok && (prefer_col || !row_ok)) {
    l.col_major = true;
    l.ld = cols <= 1 ? std::max<std::int64_t>(rows, 1) : sc;
  } else if (row_ok) {
    l.ld = rows <= 1 ? std::max<std::int64_t>(cols, 1) : sr;
  } else {
    return std::nullopt;
  }
  // One stride over the flattened batch: each batch dim's stride is that stride times the
  // extents after it (a broadcast dim has stride 0, so all must be).
  const int nb = out_batch.size();
  const int lead = nb - (nd - 2);
  std::optional<std::int64_t> s;
  std::int64_t inner = 1;
  for (int d = nb - 1; d >= 0; --d) {
    if (out_batch[d] == 1) continue;
    const int od = d - lead;
    const std::int64_t eff = od >= 0 && m.shape[od] != 1 ? m.strides[od] : 0;
    if (!s) {
      if (eff % inner != 0) return std::nullopt;
      s = eff / inner;
    } else if (eff != *s * inner) {
      return std::nullopt;
    }
    inner *= out_batch[d];
  }
  l.batch_stride = s.value_or(0);
  if (l.batch_stride < 0) return std::nullopt;
  return l;
}

void host_gemm(DType dtype, const std::byte* a, const MatrixView& va, bool conj_a, const std::byte* b,
               const MatrixView& vb, bool conj_b, const Shape& out_batch, std::byte* out) {
  const auto run = [&]<class T, class Acc>() {
    gemm_loops<T, Acc>(reinterpret_cast<const T*>(a), va, conj_a, reinterpret_cast<const T*>(b), vb, conj_b,
                       out_batch, reinterpret_cast<T*>(out));
  };
  switch (dtype) {
    case DType::Float16: run.template operator()<half, float>(); break;
    case DType::BFloat16: run.template operator()<bfloat16_t, float>(); break;
    case DType::Float32: run.template operator()<float, float>(); break;
    case DType::Float64: run.template operator()<double, double>(); break;
    case DType::Complex64: run.template operator()<std::complex<float>, std::complex<float>>(); break;
    case DType::Complex128: run.template operator()<std::complex<double>, std::complex<double>>(); break;
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
      break;  // integer products never reach a GEMM (lib/calls/blas_matmul.cpp)
  }
}

}  // namespace loom::detail
