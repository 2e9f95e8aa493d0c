#include "calls/sorting_host.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "runtime/libs/complex_order.hpp"
#include "runtime/libs/sort_key.hpp"

namespace loom::calls {

namespace {

// The radix key of every element, widened to 64 bits (widening keeps the unsigned order).
std::vector<std::uint64_t> keys_of(const HostArray& a, bool canonical_zero) {
  const sortkey::Codec c = sortkey::codec_of(a.dtype, canonical_zero);
  std::vector<std::uint64_t> keys(a.numel());
  const auto fill = [&]<class U>() {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      U bits;
      std::memcpy(&bits, a.data.data() + i * sizeof(U), sizeof(U));
      keys[i] = sortkey::encode<U>(bits, c);
    }
  };
  switch (itemsize(a.dtype)) {
    case 1: fill.operator()<std::uint8_t>(); break;
    case 2: fill.operator()<std::uint16_t>(); break;
    case 4: fill.operator()<std::uint32_t>(); break;
    case 8: fill.operator()<std::uint64_t>(); break;
    default: throw DTypeError(fmt::format("internal: no sort key for {}", name(a.dtype)));
  }
  return keys;
}

// Stable argsort of keys[begin, begin + length) into out (indices relative to begin).
void argsort_range(const std::vector<std::uint64_t>& keys, std::size_t begin, std::size_t length,
                   std::int64_t* out) {
  std::iota(out, out + length, std::int64_t{0});
  std::stable_sort(out, out + length, [&](std::int64_t x, std::int64_t y) {
    return keys[begin + static_cast<std::size_t>(x)] < keys[begin + static_cast<std::size_t>(y)];
  });
}

template <class T, class F> void scan_rows(const T* in, T* out, std::size_t n, std::size_t length, F step) {
  for (std::size_t r = 0; r < n; r += length) {
    for (std::size_t i = 0; i < length; ++i) out[r + i] = i == 0 ? in[r] : step(out[r + i - 1], in[r + i]);
  }
}

// Calls f.template operator()<R>() with R the part type of a complex dtype.
template <class F> void visit_complex(DType dtype, F&& f) {
  if (dtype == DType::Complex64) {
    f.template operator()<float>();
  } else {
    f.template operator()<double>();
  }
}

// Part j (0 real, 1 imaginary) of complex element i.
template <class R> R part(const HostArray& a, std::size_t i, int j) {
  R x;
  std::memcpy(&x, a.data.data() + (2 * i + static_cast<std::size_t>(j)) * sizeof(R), sizeof(R));
  return x;
}

template <class R> void searchsorted_complex(const HostArray& sorted, const HostArray& v, bool right, std::int64_t* out) {
  const std::size_t n = sorted.numel();
  for (std::size_t j = 0; j < v.numel(); ++j) {
    const R qr = part<R>(v, j, 0), qi = part<R>(v, j, 1);
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      const R sr = part<R>(sorted, mid, 0), si = part<R>(sorted, mid, 1);
      const bool after = right ? !complexorder::less(qr, qi, sr, si) : complexorder::less(sr, si, qr, qi);
      if (after) lo = mid + 1; else hi = mid;
    }
    out[j] = static_cast<std::int64_t>(lo);
  }
}

template <class R> HostUnique unique_complex(const HostArray& in) {
  HostUnique u;
  u.perm.resize(in.numel());
  std::iota(u.perm.begin(), u.perm.end(), std::int64_t{0});
  const auto re = [&](std::int64_t i) { return part<R>(in, static_cast<std::size_t>(i), 0); };
  const auto im = [&](std::int64_t i) { return part<R>(in, static_cast<std::size_t>(i), 1); };
  std::stable_sort(u.perm.begin(), u.perm.end(),
                   [&](std::int64_t x, std::int64_t y) { return complexorder::less(re(x), im(x), re(y), im(y)); });
  for (std::size_t i = 0; i < u.perm.size(); ++i) {
    if (i == 0 || !complexorder::same(re(u.perm[i]), im(u.perm[i]), re(u.perm[i - 1]), im(u.perm[i - 1]))) {
      u.starts.push_back(static_cast<std::int64_t>(i));
    }
  }
  return u;
}

}  // namespace

void copy_element(const HostArray& in, std::int64_t i, std::byte* out, std::int64_t j) {
  const std::size_t item = itemsize(in.dtype);
  std::memcpy(out + static_cast<std::size_t>(j) * item, in.data.data() + static_cast<std::size_t>(i) * item, item);
}

void host_argsort(const HostArray& in, std::int64_t* out, std::int64_t length) {
  const std::vector<std::uint64_t> keys = keys_of(in, true);
  const auto len = static_cast<std::size_t>(length);
  for (std::size_t r = 0; len > 0 && r < keys.size(); r += len) argsort_range(keys, r, len, out + r);
}

void host_sort(const HostArray& in, HostArray& out, std::int64_t length) {
  std::vector<std::int64_t> perm(in.numel());
  host_argsort(in, perm.data(), length);
  for (std::size_t i = 0; i < perm.size(); ++i) {
    const std::int64_t row = static_cast<std::int64_t>(i) / length * length;
    copy_element(in, row + perm[i], out.data.data(), static_cast<std::int64_t>(i));
  }
}

void host_lexsort(std::span<const HostArray* const> keys, std::int64_t* out) {
  const std::size_t n = keys.front()->numel();
  std::vector<std::vector<std::uint64_t>> k;
  for (const HostArray* a : keys) k.push_back(keys_of(*a, true));
  std::iota(out, out + n, std::int64_t{0});
  std::stable_sort(out, out + n, [&](std::int64_t x, std::int64_t y) {
    for (std::size_t j = k.size(); j-- > 0;) {  // the last key first
      const std::uint64_t a = k[j][static_cast<std::size_t>(x)], b = k[j][static_cast<std::size_t>(y)];
      if (a != b) return a < b;
    }
    return false;
  });
}

void host_searchsorted(const HostArray& sorted, const HostArray& v, bool right, std::int64_t* out) {
  if (is_complex(sorted.dtype)) {
    visit_complex(sorted.dtype, [&]<class R>() { searchsorted_complex<R>(sorted, v, right, out); });
    return;
  }
  const std::vector<std::uint64_t> a = keys_of(sorted, true), q = keys_of(v, true);
  for (std::size_t j = 0; j < q.size(); ++j) {
    const auto it = right ? std::upper_bound(a.begin(), a.end(), q[j]) : std::lower_bound(a.begin(), a.end(), q[j]);
    out[j] = it - a.begin();
  }
}

void host_scan(const HostArray& in, HostArray& out, algo::ScanOp op, std::int64_t length) {
  const bool sum = op == algo::ScanOp::Sum;
  const std::size_t n = in.numel(), len = static_cast<std::size_t>(length);
  if (n == 0) return;
  visit_dtype(in.dtype, [&]<class T>() {
    const auto* src = reinterpret_cast<const T*>(in.data.data());
    auto* dst = reinterpret_cast<T*>(out.data.data());
    if constexpr (std::is_integral_v<T>) {  // wrap-around, computed in uint64 as on the GPU
      scan_rows(src, dst, n, len, [&](T a, T b) {
        const auto x = static_cast<std::uint64_t>(a), y = static_cast<std::uint64_t>(b);
        return static_cast<T>(sum ? x + y : x * y);
      });
    } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {  // rounded each step
      scan_rows(src, dst, n, len, [&](T a, T b) {
        const float x = static_cast<float>(a), y = static_cast<float>(b);
        return T(sum ? x + y : x * y);
      });
    } else if constexpr (std::is_floating_point_v<T>) {
      scan_rows(src, dst, n, len, [&](T a, T b) { return sum ? a + b : a * b; });
    } else {  // complex: the schoolbook product, as NumPy's
      scan_rows(src, dst, n, len, [&](T a, T b) {
        if (sum) return a + b;
        return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
      });
    }
  });
}

HostUnique host_unique(const HostArray& in) {
  if (is_complex(in.dtype)) {
    HostUnique u;
    visit_complex(in.dtype, [&]<class R>() { u = unique_complex<R>(in); });
    return u;
  }
  HostUnique u;
  u.perm.resize(in.numel());
  const std::vector<std::uint64_t> keys = keys_of(in, true);
  if (keys.empty()) return u;
  argsort_range(keys, 0, keys.size(), u.perm.data());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || keys[static_cast<std::size_t>(u.perm[i])] != keys[static_cast<std::size_t>(u.perm[i - 1])]) {
      u.starts.push_back(static_cast<std::int64_t>(i));
    }
  }
  return u;
}

}  // namespace loom::calls
