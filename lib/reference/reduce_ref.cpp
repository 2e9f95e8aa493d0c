// The host evaluation of a Reduce node (reference/reduce_ref.hpp). Written for accuracy, not
// speed: each output gathers its reduced elements in C order and combines them with NumPy's
// rules; sums, products, variances and log-sum-exps accumulate in double (long double for
// float64), integers wrap (computed in unsigned), and NaN follows ReduceKind's comments.

#include "reference/reduce_ref.hpp"

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include <loom/errors.hpp>

#include "reference/host_ops.hpp"

namespace loom::ref {

using ::loom::detail::ReduceKind;

namespace {

using impl::is_bool_v;
using impl::is_complex_v;
using impl::is_float_v;
using impl::is_int_v;

// float16/bfloat16 values are read as float (they never reach a Reduce from lib/api, but the
// oracle takes anything).
template <class T> struct Value { using type = T; };
template <> struct Value<half> { using type = float; };
template <> struct Value<bfloat16_t> { using type = float; };

// The accumulator of a float or complex sum: double for float, long double for double.
template <class V> struct Wide { using type = long double; };
template <> struct Wide<float> { using type = double; };
template <class R> struct Wide<std::complex<R>> {
  using type = std::complex<typename Wide<R>::type>;
};
template <class V> using wide_t = typename Wide<V>::type;

template <class V> bool has_nan(V v) {
  if constexpr (is_complex_v<V>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (is_float_v<V>) return std::isnan(v);
  else return false;
}

// A real number for the float-only kinds (Variance, LogSumExp, SumExp) when another type reaches them.
template <class V> long double as_real(V v) {
  if constexpr (is_complex_v<V>) return static_cast<long double>(v.real());
  else return static_cast<long double>(v);
}

template <class V> V sum_of(const std::vector<V>& xs) {
  if constexpr (is_bool_v<V>) {
    for (V x : xs) if (x) return true;
    return false;
  } else if constexpr (is_int_v<V>) {
    V acc = 0;
    for (V x : xs) acc = impl::wrap_add(acc, x);
    return acc;
  } else {
    wide_t<V> acc{};  // from the identity, as NumPy: sum([-0.0]) is 0.0
    for (V x : xs) acc += static_cast<wide_t<V>>(x);
    return static_cast<V>(acc);
  }
}

template <class V> V prod_of(const std::vector<V>& xs) {
  if constexpr (is_bool_v<V>) {
    for (V x : xs) if (!x) return false;
    return true;
  } else if constexpr (is_int_v<V>) {
    V acc = 1;
    for (V x : xs) acc = impl::wrap_mul(acc, x);
    return acc;
  } else if constexpr (is_complex_v<V>) {
    wide_t<V> acc{1, 0};
    for (V x : xs) acc = impl::c_mul(acc, static_cast<wide_t<V>>(x));
    return static_cast<V>(acc);
  } else {
    wide_t<V> acc = 1;
    for (V x : xs) acc *= static_cast<wide_t<V>>(x);
    return static_cast<V>(acc);
  }
}

// The identity of a max (lowest) or min (highest): only an empty reduction returns it.
template <class V> V extremum_identity(bool is_max) {
  if constexpr (is_complex_v<V>) {
    using R = typename V::value_type;
    return V(is_max ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity(), 0);
  } else if constexpr (is_float_v<V>) {
    return is_max ? -std::numeric_limits<V>::infinity() : std::numeric_limits<V>::infinity();
  } else {
    return is_max ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
  }
}

// Folds with an elementwise functor of host_ops.hpp: Maximum/Minimum let the first NaN stick,
// Fmax/Fmin skip NaN (NaN only if every element is); complex numbers compare lexicographically.
template <class F, class V> V fold(const std::vector<V>& xs, bool is_max) {
  if (xs.empty()) return extremum_identity<V>(is_max);
  V acc = xs[0];
  for (std::size_t j = 1; j < xs.size(); ++j) acc = static_cast<V>(F{}(acc, xs[j]));
  return acc;
}

// Index of the first extremum; of the first NaN when there is one.
template <class V> std::int64_t arg_of(const std::vector<V>& xs, bool is_max) {
  if (xs.empty()) return 0;
  std::size_t best = 0;
  if (has_nan(xs[0])) return 0;
  for (std::size_t j = 1; j < xs.size(); ++j) {
    if (has_nan(xs[j])) return static_cast<std::int64_t>(j);
    const bool better = is_max ? Greater{}(xs[j], xs[best]) : Less{}(xs[j], xs[best]);
    if (better) best = j;
  }
  return static_cast<std::int64_t>(best);
}

// Two passes in long double: the mean, then the squared deviations (|x - mean|^2 for complex).
template <class V> V variance_of(const std::vector<V>& xs, std::int64_t ddof) {
  using W = long double;
  const auto n = static_cast<std::int64_t>(xs.size());
  W result;
  if constexpr (is_complex_v<V>) {
    std::complex<W> mean{};
    for (V x : xs) mean += std::complex<W>(x.real(), x.imag());
    mean /= static_cast<W>(n);
    W ss = 0;
    for (V x : xs) ss += std::norm(std::complex<W>(x.real(), x.imag()) - mean);
    result = ss / static_cast<W>(std::max<std::int64_t>(n - ddof, 0));
  } else {
    W mean = 0;
    for (V x : xs) mean += as_real(x);
    mean /= static_cast<W>(n);
    W ss = 0;
    for (V x : xs) ss += (as_real(x) - mean) * (as_real(x) - mean);
    result = ss / static_cast<W>(std::max<std::int64_t>(n - ddof, 0));
  }
  return cast_value<V>(static_cast<double>(result));
}

// max + log(sum(exp(x - max))); NaN if any is NaN, the max itself when it is infinite (-inf for
// an empty reduction or all -inf).
// The largest element as a real number, or NaN when any element is NaN.
template <class V> long double max_or_nan(const std::vector<V>& xs) {
  long double m = -std::numeric_limits<long double>::infinity();
  for (V x : xs) {
    const long double r = as_real(x);
    if (std::isnan(r)) return r;
    m = std::max(m, r);
  }
  return m;
}

template <class V> V logsumexp_of(const std::vector<V>& xs) {
  using W = long double;
  const W m = max_or_nan(xs);
  if (std::isnan(m) || std::isinf(m)) return cast_value<V>(static_cast<double>(m));
  W s = 0;
  for (V x : xs) s += std::exp(as_real(x) - m);
  return cast_value<V>(static_cast<double>(m + std::log(s)));
}

// sum(exp(x - max(x))), a term at the maximum counting exp(0) = 1 (rows of -inf count their
// elements; a row holding +inf counts its +infs), as the device's online state does.
template <class V> V sumexp_of(const std::vector<V>& xs) {
  using W = long double;
  const W m = max_or_nan(xs);
  if (std::isnan(m)) return cast_value<V>(static_cast<double>(m));
  W s = 0;
  for (V x : xs) {
    const W r = as_real(x);
    s += r == m ? W(1) : std::exp(r - m);
  }
  return cast_value<V>(static_cast<double>(s));
}

template <class R> void store(const std::vector<R>& vals, HostArray& out) {
  visit_dtype(out.dtype, [&]<class O>() {
    O* dst = reinterpret_cast<O*>(out.data.data());
    for (std::size_t i = 0; i < vals.size(); ++i) dst[i] = cast_value<O>(vals[i]);
  });
}

}  // namespace

HostArray reduce(const detail::Node& n, const HostArray& in) {
  HostArray out;
  out.dtype = n.dtype;
  out.shape = n.shape;
  out.data.resize(out.numel() * itemsize(out.dtype));

  // Offsets (in elements of `in`) of the reduced elements of one output, in C order over the
  // reduced dims, and of each output's first element.
  const int nd = in.shape.size();
  const Shape strides = contiguous_strides(in.shape);
  std::vector<std::int64_t> reduced{0}, bases{0};
  for (int d = 0; d < nd; ++d) {
    std::vector<std::int64_t>& offs = n.reduces(d) ? reduced : bases;
    std::vector<std::int64_t> next;
    next.reserve(offs.size() * static_cast<std::size_t>(in.shape[d]));
    for (std::int64_t o : offs) {
      for (std::int64_t i = 0; i < in.shape[d]; ++i) next.push_back(o + i * strides[d]);
    }
    offs = std::move(next);
  }
  if (bases.size() != out.numel()) {
    throw Error(fmt::format("reference reduce: {} outputs for {}", bases.size(), to_string(n)));
  }

  visit_dtype(in.dtype, [&]<class T>() {
    using V = typename Value<T>::type;
    const T* src = reinterpret_cast<const T*>(in.data.data());
    std::vector<V> xs(reduced.size());
    const auto run = [&](auto&& combine) {
      using R = decltype(combine(xs));
      std::vector<R> vals(bases.size());
      for (std::size_t o = 0; o < bases.size(); ++o) {
        for (std::size_t j = 0; j < reduced.size(); ++j) {
          xs[j] = static_cast<V>(src[bases[o] + reduced[j]]);
        }
        vals[o] = combine(xs);
      }
      store(vals, out);
    };
    using XS = const std::vector<V>&;
    switch (n.reduce_kind()) {
      case ReduceKind::Sum: run([](XS xs) { return sum_of(xs); }); return;
      case ReduceKind::Prod: run([](XS xs) { return prod_of(xs); }); return;
      case ReduceKind::Max: run([](XS xs) { return fold<Maximum>(xs, true); }); return;
      case ReduceKind::Min: run([](XS xs) { return fold<Minimum>(xs, false); }); return;
      case ReduceKind::NanMax: run([](XS xs) { return fold<Fmax>(xs, true); }); return;
      case ReduceKind::NanMin: run([](XS xs) { return fold<Fmin>(xs, false); }); return;
      case ReduceKind::ArgMax: run([](XS xs) { return arg_of(xs, true); }); return;
      case ReduceKind::ArgMin: run([](XS xs) { return arg_of(xs, false); }); return;
      case ReduceKind::Any:
        run([](XS xs) {
          for (V x : xs) if (impl::truthy(x)) return true;
          return false;
        });
        return;
      case ReduceKind::All:
        run([](XS xs) {
          for (V x : xs) if (!impl::truthy(x)) return false;
          return true;
        });
        return;
      case ReduceKind::Variance: {
        const std::int64_t ddof = n.k();
        run([ddof](XS xs) { return variance_of(xs, ddof); });
        return;
      }
      case ReduceKind::LogSumExp: run([](XS xs) { return logsumexp_of(xs); }); return;
      case ReduceKind::SumExp: run([](XS xs) { return sumexp_of(xs); }); return;
      case ReduceKind::User:
        throw Error(fmt::format("ReductionKernel ({}): user CUDA code runs only on a GPU (the host reference "
                                "evaluator cannot run it)",
                                n.user()->name));
    }
  });
  return out;
}

}  // namespace loom::ref
