// loom_reduce.cuh: reduction states for generated reduction kernels (included by them only).
// Each state has init(), add(x, index), merge(other), shfl_down(delta) and result(); the block
// reduction combines them in a fixed order (warp shuffles, then one warp over the warps'
// partials), so a reduction gives the same bits every run: no atomics on values.
#pragma once
#include "loom_core.cuh"

namespace loom {
namespace red {

// Arithmetic as NumPy: integers wrap, bool add is or.
template <class T> LOOM_FN T add(T a, T b) {
  if constexpr (IsFloat<T>::value || IsComplex<T>::value) {
    return a + b;
  } else {
    return wadd(a, b);
  }
}
template <class T> LOOM_FN T mul(T a, T b) {
  if constexpr (IsFloat<T>::value || IsComplex<T>::value) {
    return a * b;
  } else {
    return wmul(a, b);
  }
}
template <class T> LOOM_FN bool is_nan(const T& x) {
  if constexpr (IsComplex<T>::value) {
    return x.re != x.re || x.im != x.im;
  } else if constexpr (IsFloat<T>::value) {
    return x != x;
  } else {
    return false;
  }
}

// The smallest and largest values of a type (-inf and +inf for floats), and NaN.
template <class T> LOOM_FN T infinity() {
  if constexpr (sizeof(T) == 4) {
    return __int_as_float(0x7f800000);
  } else {
    return __longlong_as_double(0x7ff0000000000000LL);
  }
}
template <class T> LOOM_FN T quiet_nan() {
  if constexpr (IsComplex<T>::value) {
    return T{quiet_nan<decltype(T{}.re)>(), quiet_nan<decltype(T{}.re)>()};
  } else if constexpr (sizeof(T) == 4) {
    return __int_as_float(0x7fc00000);
  } else {
    return __longlong_as_double(0x7ff8000000000000LL);
  }
}
template <class T> LOOM_FN T lowest() {
  if constexpr (IsComplex<T>::value) {
    return T{lowest<decltype(T{}.re)>(), lowest<decltype(T{}.re)>()};
  } else if constexpr (IsFloat<T>::value) {
    return -infinity<T>();
  } else {
    return IntTraits<T>::min;
  }
}
template <class T> LOOM_FN T highest() {
  if constexpr (IsComplex<T>::value) {
    return T{highest<decltype(T{}.re)>(), highest<decltype(T{}.re)>()};
  } else if constexpr (IsFloat<T>::value) {
    return infinity<T>();
  } else {
    return IntTraits<T>::max;
  }
}
template <> LOOM_FN bool lowest<bool>() { return false; }
template <> LOOM_FN bool highest<bool>() { return true; }

// Warp shuffle of any value of 1 to 16 bytes, word by word.
template <class T> LOOM_FN T shfl_down(T v, int delta) {
  if constexpr (sizeof(T) < 4) {
    return T(__shfl_down_sync(0xffffffffu, int(v), delta));
  } else {
    T out;
    const int* src = reinterpret_cast<const int*>(&v);
    int* dst = reinterpret_cast<int*>(&out);
#pragma unroll
    for (int k = 0; k < int(sizeof(T) / 4); ++k) dst[k] = __shfl_down_sync(0xffffffffu, src[k], delta);
    return out;
  }
}

template <class T> struct Sum {
  T v;
  LOOM_FN void init() { v = T{}; }
  LOOM_FN void add(T x, long long) { v = red::add(v, x); }
  LOOM_FN void merge(const Sum& o) { v = red::add(v, o.v); }
  LOOM_FN Sum shfl_down(int d) const { return Sum{red::shfl_down(v, d)}; }
  LOOM_FN T result() const { return v; }
};

template <class T> struct Prod {
  T v;
  LOOM_FN void init() { v = loom::cast<T>(1); }
  LOOM_FN void add(T x, long long) { v = red::mul(v, x); }
  LOOM_FN void merge(const Prod& o) { v = red::mul(v, o.v); }
  LOOM_FN Prod shfl_down(int d) const { return Prod{red::shfl_down(v, d)}; }
  LOOM_FN T result() const { return v; }
};

// max / min; NaN propagates (NumPy's maximum.reduce).
template <class T, bool kMax> struct Extreme {
  T v;
  LOOM_FN void init() { v = kMax ? lowest<T>() : highest<T>(); }
  LOOM_FN void add(T x, long long) {
    if (is_nan(v)) return;
    if (is_nan(x) || (kMax ? x > v : x < v)) v = x;
  }
  LOOM_FN void merge(const Extreme& o) { add(o.v, 0); }
  LOOM_FN Extreme shfl_down(int d) const { return Extreme{red::shfl_down(v, d)}; }
  LOOM_FN T result() const { return v; }
};
template <class T> using Max = Extreme<T, true>;
template <class T> using Min = Extreme<T, false>;

// nanmax / nanmin: NaN ignored; NaN when every element is NaN (the initial value). Integers have
// no NaN: they start from the type's extreme, as max / min do.
template <class T, bool kMax> struct NanExtreme {
  T v;
  LOOM_FN void init() {
    if constexpr (IsFloat<T>::value || IsComplex<T>::value) {
      v = quiet_nan<T>();
    } else {
      v = kMax ? lowest<T>() : highest<T>();
    }
  }
  LOOM_FN void add(T x, long long) {
    if (is_nan(x)) return;
    if (is_nan(v) || (kMax ? x > v : x < v)) v = x;
  }
  LOOM_FN void merge(const NanExtreme& o) { add(o.v, 0); }
  LOOM_FN NanExtreme shfl_down(int d) const { return NanExtreme{red::shfl_down(v, d)}; }
  LOOM_FN T result() const { return v; }
};
template <class T> using NanMax = NanExtreme<T, true>;
template <class T> using NanMin = NanExtreme<T, false>;

// argmax / argmin: the first index of the extreme value, or of the first NaN.
template <class T, bool kMax> struct ArgExtreme {
  T v;
  long long i;
  LOOM_FN void init() { i = -1; v = T{}; }
  LOOM_FN void add(T x, long long at) {
    if (i < 0) {
      v = x;
      i = at;
      return;
    }
    const bool xn = is_nan(x), vn = is_nan(v);
    bool better;
    if (xn || vn) {
      better = xn && (!vn || at < i);
    } else {
      better = (kMax ? x > v : x < v) || (x == v && at < i);
    }
    if (better) {
      v = x;
      i = at;
    }
  }
  LOOM_FN void merge(const ArgExtreme& o) {
    if (o.i >= 0) add(o.v, o.i);
  }
  LOOM_FN ArgExtreme shfl_down(int d) const { return ArgExtreme{red::shfl_down(v, d), red::shfl_down(i, d)}; }
  LOOM_FN long long result() const { return i; }
};
template <class T> using ArgMax = ArgExtreme<T, true>;
template <class T> using ArgMin = ArgExtreme<T, false>;

struct Any {
  bool v;
  LOOM_FN void init() { v = false; }
  LOOM_FN void add(bool x, long long) { v = v || x; }
  LOOM_FN void merge(const Any& o) { v = v || o.v; }
  LOOM_FN Any shfl_down(int d) const { return Any{red::shfl_down(v, d)}; }
  LOOM_FN bool result() const { return v; }
};
struct All {
  bool v;
  LOOM_FN void init() { v = true; }
  LOOM_FN void add(bool x, long long) { v = v && x; }
  LOOM_FN void merge(const All& o) { v = v && o.v; }
  LOOM_FN All shfl_down(int d) const { return All{red::shfl_down(v, d)}; }
  LOOM_FN bool result() const { return v; }
};

// Variance as shifted sums: a thread's elements add d = x - k to s1 and d * d to s2, where k is
// the first element it saw (no division per element, unlike Welford's update: bench/NOTES.md);
// mean = k + s1 / n and the sum of squared deviations m2 = s2 - s1 * s1 / n. The shift keeps d on
// the scale of the data's spread (1e6 + small noise stays exact), and a constant row gives exactly 0.
template <class T> struct Variance {
  T n, k, s1, s2;
  LOOM_FN void init() { n = k = s1 = s2 = T(0); }
  LOOM_FN void add(T x, long long) {
    if (n == T(0)) k = x;
    const T d = x - k;
    n = n + T(1);
    s1 = s1 + d;
    s2 = s2 + d * d;
  }
  LOOM_FN T mean() const { return k + s1 / n; }
  // Clamped at 0 (rounding may leave s2 a little under s1 * s1 / n); NaN stays NaN.
  LOOM_FN T m2() const {
    const T q = s2 - s1 * (s1 / n);
    return q < T(0) ? T(0) : q;
  }
  // Chan et al.'s combine on means relative to this state's shift: u = mean - k, so that two
  // means near 1e6 are not subtracted in float32 (their difference is o.k - k, exact for nearby
  // shifts, plus the small offsets). The result keeps k, with s1 = n * u and s2 = m2 + s1 * u.
  LOOM_FN void merge(const Variance& o) {
    if (o.n == T(0)) return;
    if (n == T(0)) {
      *this = o;
      return;
    }
    const T nt = n + o.n;
    const T ua = s1 / n, ub = (o.k - k) + o.s1 / o.n;
    const T d = ub - ua;
    const T m = m2() + o.m2() + d * d * (n * o.n / nt);
    const T u = ua + d * (o.n / nt);
    n = nt;
    s1 = u * nt;
    s2 = m + s1 * u;
  }
  LOOM_FN Variance shfl_down(int d) const {
    return Variance{red::shfl_down(n, d), red::shfl_down(k, d), red::shfl_down(s1, d), red::shfl_down(s2, d)};
  }
  // The same sums about another shift K: x - K = (x - k) + (k - K). Shifts are elements of the
  // data, so k - K is on the scale of its spread.
  LOOM_FN void rebase(T K) {
    if (n != T(0)) {
      const T d = k - K;
      s2 = s2 + d * (T(2) * s1 + n * d);
      s1 = s1 + n * d;
    }
    k = K;
  }
  // ddof as NumPy: the sum of squared deviations over max(n - ddof, 0).
  LOOM_FN T result(long long ddof) const {
    const T den = n - T(ddof);
    return m2() / (den > T(0) ? den : T(0));
  }
};

// log(sum(exp(x))) in one pass: a running maximum m and s = sum(exp(x - m)). One exp per element
// and no branches beyond selects: a larger x rescales s by exp(m - x), any other adds exp(x - m)
// (exp(0) when x == m, so that rows of -inf or +inf stay -inf / +inf instead of exp(inf - inf)).
// m is never NaN: a NaN input makes s NaN, and the result m + log(s) NaN. Rows of -inf count
// their elements in s, which -inf + log(s) keeps at -inf; an empty one is -inf + log(0).
// kLog false: the result is s itself, sum(exp(x - max(x))) (softmax's denominator).
template <class T, bool kLog> struct ExpSum {
  T m, s;
  LOOM_FN void init() {
    m = lowest<T>();
    s = T(0);
  }
  LOOM_FN void add(T x, long long) {
    const bool up = x > m;
    const T e = exp(x == m ? T(0) : (up ? m - x : x - m));
    s = up ? s * e + T(1) : s + e;
    m = up ? x : m;
  }
  LOOM_FN void merge(const ExpSum& o) {
    const bool up = o.m > m;
    const T e = exp(o.m == m ? T(0) : (up ? m - o.m : o.m - m));
    s = up ? s * e + o.s : s + o.s * e;
    m = up ? o.m : m;
  }
  LOOM_FN ExpSum shfl_down(int d) const { return ExpSum{red::shfl_down(m, d), red::shfl_down(s, d)}; }
  LOOM_FN T result() const {
    if constexpr (kLog) {
      return m + log(s);
    } else {
      return s;
    }
  }
};
template <class T> using LogSumExp = ExpSum<T, true>;
template <class T> using SumExp = ExpSum<T, false>;

// Reduces one state per lane of a full warp; lane 0 gets the result.
template <class S> LOOM_FN void warp_reduce(S& s) {
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) s.merge(s.shfl_down(d));
}
// Variance: every lane's sums moved to one shift (that of the first lane with elements), then
// plain sums. Chan's merge at each of the five levels costs six divisions; this costs none.
template <class T> LOOM_FN void warp_reduce(Variance<T>& s) {
  const unsigned has = __ballot_sync(0xffffffffu, s.n != T(0));
  if (has == 0u) return;
  s.rebase(__shfl_sync(0xffffffffu, s.k, __ffs(has) - 1));
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) {
    s.n = s.n + __shfl_down_sync(0xffffffffu, s.n, d);
    s.s1 = s.s1 + __shfl_down_sync(0xffffffffu, s.s1, d);
    s.s2 = s.s2 + __shfl_down_sync(0xffffffffu, s.s2, d);
  }
}
// LogSumExp: the warp's maximum first (to every lane), each lane's sum rescaled to it by one exp,
// then plain sums: one exp per lane instead of one per level. As merge(): a lane at the maximum
// (+inf and -inf included) keeps its sum; the others scale theirs by exp(m - max), which is 0
// for -inf and keeps NaN.
template <class T, bool kLog> LOOM_FN void warp_reduce(ExpSum<T, kLog>& s) {
  T top = s.m;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) {
    const T o = __shfl_xor_sync(0xffffffffu, top, d);
    top = o > top ? o : top;
  }
  s.s = s.m == top ? s.s : s.s * exp(s.m - top);
  s.m = top;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) s.s = s.s + __shfl_down_sync(0xffffffffu, s.s, d);
}

// Reduces one state per thread of the block; thread 0 gets the result. `smem` holds 32 states.
// blockDim.x is a multiple of 32.
template <class S> LOOM_FN void block_reduce(S& s, S* smem) {
  warp_reduce(s);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (blockDim.x == 32) return;
  if (lane == 0) smem[warp] = s;
  __syncthreads();
  if (warp == 0) {
    if (lane < int(blockDim.x >> 5)) {
      s = smem[lane];
    } else {
      s.init();
    }
    warp_reduce(s);
  }
  __syncthreads();
}

// Arrival at an output's ticket after writing a partial state; returns the count before it.
// One acq_rel atomic at GPU scope in place of __threadfence() + atomicAdd: it releases the
// partials written before it (by this thread, or by the block's threads ahead of a
// __syncthreads()), and the thread that arrives last acquires every earlier arrival's, which
// its block's threads see after a __syncthreads(). Measured: 0.4-0.6 us less per split
// reduction of 2^26 floats (bench/NOTES.md).
LOOM_FN unsigned arrive(unsigned* ticket) {
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(ticket) : "memory");
  return old;
}

// Partial states written by blocks that share one output, read back by the last of them.
// (Read through L2, bypassing L1, which may hold a stale line: other blocks wrote them.)
template <class S> LOOM_FN S load_partial(const S* p) {
  S out;
  if constexpr (sizeof(S) % 4 == 0) {
    const int* src = reinterpret_cast<const int*>(p);
    int* dst = reinterpret_cast<int*>(&out);
#pragma unroll
    for (int k = 0; k < int(sizeof(S) / 4); ++k) dst[k] = __ldcg(src + k);
  } else {
    const unsigned char* src = reinterpret_cast<const unsigned char*>(p);
    unsigned char* dst = reinterpret_cast<unsigned char*>(&out);
#pragma unroll
    for (int k = 0; k < int(sizeof(S)); ++k) dst[k] = __ldcg(src + k);
  }
  return out;
}

}  // namespace red
}  // namespace loom
