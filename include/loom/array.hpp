#pragma once
// loom::Array: a lazy n-dimensional array. Operations record graph nodes; eval() (or any read)
// runs them as fused kernels on the GPU, or on the host reference evaluator when there is none.

#include <complex>
#include <concepts>
#include <cstring>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <source_location>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <loom/axes.hpp>
#include <loom/constants.hpp>
#include <loom/dtype.hpp>
#include <loom/placement.hpp>
#include <loom/scalar.hpp>
#include <loom/shape.hpp>

// The caller's line, as the last parameter of a public function: memory profiles name the line
// that built an array (include/loom/memory.hpp).
#define LOOM_HERE std::source_location caller = std::source_location::current()

namespace loom {

namespace detail {
struct Node;
struct PendingRead;
}
using NodePtr = std::shared_ptr<const detail::Node>;

// One entry of an index: an integer, a Slice, newaxis or ellipsis (NumPy's basic indexing), or
// an array: of integers (advanced indexing, a gather) or of bools (a mask).
struct Slice {
  std::optional<std::int64_t> start, stop, step;
  Slice() = default;
  Slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_,
        std::optional<std::int64_t> step_ = std::nullopt)
      : start(start_), stop(stop_), step(step_) {}
};
struct NewAxis {};
struct Ellipsis {};
inline constexpr std::nullopt_t none = std::nullopt;
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};

class Array;
// An array inside an index (its graph node).
struct IndexArray {
  NodePtr node;
};

class Index {
 public:
  template <std::integral I> Index(I i) : v_(static_cast<std::int64_t>(i)) {}  // NOLINT
  Index(Slice s) : v_(s) {}                                                     // NOLINT
  Index(NewAxis n) : v_(n) {}                                                   // NOLINT
  Index(Ellipsis e) : v_(e) {}                                                  // NOLINT
  Index(const Array& a);                                                        // NOLINT
  const std::variant<std::int64_t, Slice, NewAxis, Ellipsis, IndexArray>& value() const { return v_; }

 private:
  std::variant<std::int64_t, Slice, NewAxis, Ellipsis, IndexArray> v_;
};

// How take() treats an out-of-range index (NumPy's mode): raise IndexError, wrap around, or clip
// to the ends.
enum class TakeMode { Raise, Wrap, Clip };

class IndexRef;
class AtRef;

class Array {
 public:
  Array() = default;  // an empty handle; using it throws ValueError
  explicit Array(NodePtr node) : node_(std::move(node)) {}
  template <ScalarType T> Array(T value) : Array(from_scalar(Scalar::of(value, true))) {}  // NOLINT
  Array(const Array&) = default;
  Array(Array&&) noexcept = default;
  // Assignment rebinds a handle, so only a named array (an lvalue) can be assigned to: `x[i] = v`
  // on the temporary that operator[] returns would compile and do nothing, so it does not compile.
  Array& operator=(const Array&) & = default;
  Array& operator=(Array&&) & noexcept = default;
  ~Array() = default;

  // --- properties (available before evaluation) ---
  const Shape& shape() const;
  DType dtype() const;
  int ndim() const;
  std::int64_t size() const;
  std::size_t itemsize() const;
  std::size_t nbytes() const;
  // In bytes, as NumPy: the layout of the evaluated buffer, or C-contiguous before evaluation.
  Shape strides() const;
  // The address of the first element (evaluating first; include/loom/interop.hpp): on the GPU,
  // or in host memory without one. It stays valid while any array refers to the buffer (this
  // one, its copies, views of it); the layout is strides().
  void* data_ptr() const;
  // Where the data lives once evaluated: the current GPU, or the host when there is none.
  Placement device() const;
  bool is_evaluated() const;
  bool valid() const { return node_ != nullptr || pending_ != nullptr; }
  const NodePtr& node() const { return pending_ ? pending_node() : node_; }

  // --- evaluation ---
  // Runs the graph (fused) and returns an array that refers to the result; this array and its
  // copies reuse that result from now on. `where` (the caller's line) names the memory taken for
  // it in memory profiles (include/loom/memory.hpp), as in to_host and item.
  Array eval(std::source_location where = std::source_location::current()) const;
  // Copies the values out, C-contiguous. T must be the host type of dtype().
  template <class T> std::vector<T> to_host(std::source_location where = std::source_location::current()) const;
  // The value of a one-element array, converted to T.
  template <class T> T item(std::source_location where = std::source_location::current()) const;
  // The CUDA source of the kernel(s) eval() would run, generated without running anything.
  std::string source() const;

  // --- views: index maps, never copies (DESIGN.md decision 8) ---
  [[nodiscard]] Array reshape(const Shape& shape) const;  // -1 infers one extent
  [[nodiscard]] Array T() const;
  [[nodiscard]] Array transpose() const;
  [[nodiscard]] Array transpose(const Shape& axes) const;
  [[nodiscard]] Array permute(const Shape& axes) const { return transpose(axes); }
  [[nodiscard]] Array swapaxes(int a, int b) const;
  [[nodiscard]] Array broadcast_to(const Shape& shape) const;
  [[nodiscard]] Array expand_dims(int axis) const;
  [[nodiscard]] Array squeeze() const;
  [[nodiscard]] Array squeeze(int axis) const;
  [[nodiscard]] Array flip() const;
  [[nodiscard]] Array flip(int axis) const;
  [[nodiscard]] Array ravel() const;
  [[nodiscard]] Array flatten() const { return copy().ravel(); }
  // Indexing, NumPy's x[...]. Basic indices (integers, slices, newaxis, ellipsis) give views;
  // integer arrays give a lazy gather (NumPy's advanced indexing: the arrays broadcast together,
  // their dims where NumPy puts them, negative indices counted from the end; out-of-range ones
  // raise IndexError, checked by the kernel that reads them: on a GPU the error is raised at the
  // next synchronization (to_host, item, synchronize()), on the host when evaluated).
  // On a named array the result is also a write target (IndexRef): `x[i] = v` and `x[i] += v`
  // make x a new value (arrays are values: other handles, and views taken before, keep the old
  // one). Chained `x[i][j] = v` writes into the temporary x[i], so it does not compile.
  [[nodiscard]] Array operator[](std::int64_t i) const&;
  [[nodiscard]] Array operator[](Slice s) const&;
  [[nodiscard]] Array operator[](std::initializer_list<Index> index) const&;
  [[nodiscard]] IndexRef operator[](std::int64_t i) &;
  [[nodiscard]] IndexRef operator[](Slice s) &;
  [[nodiscard]] IndexRef operator[](std::initializer_list<Index> index) &;
  [[nodiscard]] Array index(std::span<const Index> index) const;
  // An integer array indexes as above. A bool mask of x's shape, or of its leading dims, picks
  // elements (or sub-arrays) in C order into a new array of shape (count,) + the other dims.
  // EAGER, unlike the views: the size depends on the values, so x and mask are evaluated and
  // the count is read (one synchronization; sorting.hpp).
  [[nodiscard]] Array operator[](const Array& mask) const&;
  [[nodiscard]] IndexRef operator[](const Array& mask) &;
  // The functional form of writes (JAX's x.at[i]): x.at({i}).set(v), .add(v), ... return a new
  // array and leave x as it is. One index needs no braces: x.at(idx), x.at(3).
  [[nodiscard]] AtRef at(const Index& index) const;
  [[nodiscard]] AtRef at(std::initializer_list<Index> index) const;
  [[nodiscard]] AtRef at(std::span<const Index> index) const;
  // Whole-array updates in place of the handle, with NumPy's same_kind rule for the result
  // (x_i32 += 1.5 raises DTypeError with NumPy's UFuncTypeError text).
  Array& operator+=(const Array& v) &;
  Array& operator-=(const Array& v) &;
  Array& operator*=(const Array& v) &;
  Array& operator/=(const Array& v) &;
  Array& operator%=(const Array& v) &;
  Array& operator&=(const Array& v) &;
  Array& operator|=(const Array& v) &;
  Array& operator^=(const Array& v) &;
  Array& operator<<=(const Array& v) &;
  Array& operator>>=(const Array& v) &;
  [[nodiscard]] Array slice(int axis, std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                            std::optional<std::int64_t> step = std::nullopt) const;

  // --- conversions ---
  [[nodiscard]] Array astype(DType dtype) const;
  [[nodiscard]] Array copy() const;  // a new C-contiguous array (lazy; fuses like any op)
  [[nodiscard]] Array real() const;
  [[nodiscard]] Array imag() const;
  [[nodiscard]] Array conj() const;

  // --- ndarray's methods (NumPy's x.sum(), ...): the functions of the same names ---
  // (The Axes forms that have a ReduceOptions form are templates of no parameter, instantiated
  // in the library, so x.std({.ddof = 1}) picks the ReduceOptions form under GCC 12 too:
  // reductions.hpp says why.)
  // x.reshape(2, 3) and x.reshape(-1), as NumPy's (templates: reshape({}) stays the 0-d shape).
  template <std::integral... I>
    requires(sizeof...(I) >= 1)
  [[nodiscard]] Array reshape(I... dims) const {
    return reshape(Shape{static_cast<std::int64_t>(dims)...});
  }
  template <int = 0>
  [[nodiscard]] Array sum(const Axes& axis = {}, bool keepdims = false,
                          std::optional<DType> dtype = std::nullopt) const;
  [[nodiscard]] Array sum(const ReduceOptions& o) const;
  template <int = 0>
  [[nodiscard]] Array prod(const Axes& axis = {}, bool keepdims = false,
                           std::optional<DType> dtype = std::nullopt) const;
  [[nodiscard]] Array prod(const ReduceOptions& o) const;
  template <int = 0>
  [[nodiscard]] Array mean(const Axes& axis = {}, bool keepdims = false,
                           std::optional<DType> dtype = std::nullopt) const;
  [[nodiscard]] Array mean(const ReduceOptions& o) const;
  template <int = 0>
  [[nodiscard]] Array var(const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0) const;
  [[nodiscard]] Array var(const ReduceOptions& o) const;
  // x.std(...): the way around `std` under `using namespace loom` (ambiguous with namespace std).
  template <int = 0>
  [[nodiscard]] Array std(const Axes& axis = {}, bool keepdims = false, std::int64_t ddof = 0) const;
  [[nodiscard]] Array std(const ReduceOptions& o) const;
  template <int = 0>
  [[nodiscard]] Array min(const Axes& axis = {}, bool keepdims = false) const;
  [[nodiscard]] Array min(const ReduceOptions& o) const;
  template <int = 0>
  [[nodiscard]] Array max(const Axes& axis = {}, bool keepdims = false) const;
  [[nodiscard]] Array max(const ReduceOptions& o) const;
  [[nodiscard]] Array ptp(const Axes& axis = {}, bool keepdims = false) const;
  [[nodiscard]] Array any(const Axes& axis = {}, bool keepdims = false) const;
  [[nodiscard]] Array all(const Axes& axis = {}, bool keepdims = false) const;
  [[nodiscard]] Array argmin(std::optional<int> axis = std::nullopt, bool keepdims = false) const;
  [[nodiscard]] Array argmax(std::optional<int> axis = std::nullopt, bool keepdims = false) const;
  [[nodiscard]] Array cumsum(std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt) const;
  [[nodiscard]] Array cumprod(std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt) const;
  [[nodiscard]] Array clip(const Array& lo, const Array& hi) const;
  [[nodiscard]] Array round(int decimals = 0) const;
  // In place, as NumPy's x.sort() (which returns None): x becomes its sorted value, a write
  // (the handle is rebound; other handles keep the old value: arrays are values). loom::sort(x)
  // returns a sorted array and leaves x alone.
  void sort(std::optional<int> axis = -1) &;
  // NumPy's x.fill(value), in place: every element set to value, cast as x[...] = value casts.
  void fill(const Array& value) &;
  [[nodiscard]] Array argsort(std::optional<int> axis = -1) const;
  [[nodiscard]] std::vector<Array> nonzero() const;
  [[nodiscard]] Array repeat(std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt) const;
  [[nodiscard]] Array take(const Array& indices, std::optional<int> axis = std::nullopt) const;
  [[nodiscard]] Array diagonal(std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1) const;
  [[nodiscard]] Array trace(std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1) const;
  [[nodiscard]] Array conjugate() const { return conj(); }

  // NumPy's a.tofile(path, sep, format): loom::tofile (loom/io.hpp), raw bytes or text.
  void tofile(const std::string& path, const std::string& sep = "", const std::string& format = "%s") const;

  // --- products (loom/blas.hpp) ---
  [[nodiscard]] Array matmul(const Array& b) const;  // loom::matmul(*this, b), NumPy's a @ b
  [[nodiscard]] Array dot(const Array& b) const;     // loom::dot(*this, b)

 private:
  static Array from_scalar(const Scalar& s);
  const detail::Node& checked() const;
  Scalar item_scalar(const std::source_location& where = {}) const;
  // C-contiguous values, after evaluation
  std::vector<std::byte> host_bytes(const std::source_location& where = {}) const;
  friend std::string to_string(const Array& a);
  friend class IndexRef;
  // An IndexRef's read whose building would run something (x[mask]: a count, a synchronization
  // and a compaction), built when first used: `x[mask] = v` never builds it.
  const NodePtr& pending_node() const;
  NodePtr node_;
  std::shared_ptr<detail::PendingRead> pending_;
};

// NumPy's keyword arguments of the reductions; each function reads the fields it has (ddof:
// var and std; dtype: sum, prod, mean, var, std and their nan forms). {} is ambiguous with
// Axes{}: leave the argument out instead.
//   where: a bool array broadcast to the input's shape; only its True elements are reduced (a
// where(mask, x, identity) in the reduction's prologue: still one kernel). sum, prod, nansum,
// max, min, mean, nanmean, var, std, any, alltrue. mean, var and std count the selected elements.
//   initial: the value the reduction starts from (a C++ number or a 0-d array, cast to the
// result's dtype): sum, prod, nansum, max, min. max and min with `where` need it (ValueError
// "reduction operation 'maximum' does not have an identity, so to use a where mask one has to
// specify 'initial'"); with it, an empty selection gives it.
// A function NumPy's lacks the field for refuses it (DTypeError, NumPy's TypeError "mean() got an
// unexpected keyword argument 'initial'").
struct ReduceOptions {
  detail::NamedOnly by_name{};  // (fill the fields by name: {.axis = 1, .keepdims = true})
  Axes axis{};
  bool keepdims = false;
  std::optional<DType> dtype{};
  std::int64_t ddof = 0;
  std::optional<Array> where{};
  std::optional<Array> initial{};
};

// How a write combines the value with what is there (the .at() family and the op= operators).
enum class WriteOp { Set, Add, Subtract, Multiply, Divide, FloorDivide, Remainder, Power, Min, Max,
                     BitAnd, BitOr, BitXor, LeftShift, RightShift };

// How the ufunc.at family, x.at(int arrays).add(...) and bincount combine duplicate positions.
// Deterministic (the default): the same bits every run. Integers and bools accumulate with
// atomics, exact in any order; floating point and complex values are sorted by position (a
// stable radix sort) and each position's values reduced in a fixed order (NumPy adds them one by
// one in index order: float sums can differ from NumPy's in the last bits, never from run to run).
// Atomic: floating point with atomics too, faster, order-dependent in the last bits (complex
// products, minima and maxima stay sorted).
enum class Accumulate { Deterministic, Atomic };

// x.at(index): the functional writes. Each returns the new array: x with the indexed elements
// set to (or combined with) v, broadcast to the indexed shape and cast to x's dtype (set: any
// cast, as NumPy's setitem; the others: NumPy's same_kind rule). get() is x[index].
class AtRef {
 public:
  AtRef(Array base, std::vector<Index> index) : base_(std::move(base)), index_(std::move(index)) {}
  [[nodiscard]] Array get() const;
  [[nodiscard]] Array set(const Array& v) const;
  // With integer arrays in the index, these combine every duplicate (JAX's semantics, NumPy's
  // np.add.at), deterministically unless `how` says Atomic. power with integer arrays raises
  // IndexError (applying every duplicate in turn is no reduction).
  [[nodiscard]] Array add(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array subtract(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array multiply(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array divide(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array power(const Array& v) const;
  [[nodiscard]] Array min(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array max(const Array& v, Accumulate how = Accumulate::Deterministic) const;
  [[nodiscard]] Array apply(WriteOp op, const Array& v, Accumulate how = Accumulate::Deterministic) const;

 private:
  Array base_;
  std::vector<Index> index_;
};

namespace detail {
// False for every V, so a static_assert on it fails only where the template is used.
template <class... V> inline constexpr bool kNamedIndexRefUpdate = false;
}  // namespace detail

// x[index] on a named array: reads as the array x[index] was when taken (it is one), and
// assigning to it writes into x (the handle is rebound to the new value).
//
// Kept under a name (`auto y = x[i];`), it is an array like `Array y = x[i]`: a copy of x[i]'s
// values, not a view of x (arrays are values). So `y = y * 2` rebinds y, as NumPy rebinds the
// name, and leaves x alone. `y += 1` on it does not compile: NumPy's y = x[1:3]; y += 1 writes
// through the view into x, which loom's y cannot; the message says to write `x[i] += v` (x
// changes) or `Array y = x[i]; y += v` (only y changes); so do y.sort() and y.fill(v), while
// x[i].sort() and x[i].fill(v) change x as NumPy's do. `y[j] = v` writes into y, not x.
class IndexRef : public Array {
 public:
  IndexRef(Array& target, std::vector<Index> index);
  IndexRef(const IndexRef&) = default;
  // x[i] = v (the expression itself, an rvalue): writes into x.
  void operator=(const Array& v) &&;
  void operator=(const IndexRef& v) &&;
  void operator+=(const Array& v) &&;
  void operator-=(const Array& v) &&;
  void operator*=(const Array& v) &&;
  void operator/=(const Array& v) &&;
  void operator%=(const Array& v) &&;
  void operator&=(const Array& v) &&;
  void operator|=(const Array& v) &&;
  void operator^=(const Array& v) &&;
  void operator<<=(const Array& v) &&;
  void operator>>=(const Array& v) &&;
  // y = v on a named reference (auto y = x[i]): y becomes v, a plain array; x is not written.
  IndexRef& operator=(const Array& v) &;
  IndexRef& operator=(const IndexRef& v) &;
  // NumPy's in-place methods on a view, x[i].sort() and x[i].fill(v): write into x.
  void sort(std::optional<int> axis = -1) &&;
  void fill(const Array& value) &&;

  // y op= v, y.sort() and y.fill(v) on a named reference do not compile (see above), with a
  // message that says what to write.
  // (An operator takes one operand: V for the operators, V... for the methods' arguments.)
#define LOOM_NAMED_INDEX_REF(decl, pack, spelled)                                                      \
  template <class pack V> IndexRef& decl(const V& pack) & {                                            \
    static_assert(detail::kNamedIndexRefUpdate<V pack>,                                                \
                  "`auto y = x[i]` holds a copy of x[i], not a view of x (loom's arrays are values), " \
                  "so `y" spelled "` cannot change x as NumPy's view would: write `x[i]" spelled       \
                  "` to change x, or `loom::Array y = x[i]; y" spelled "` to change only y");          \
    return *this;                                                                                      \
  }
  LOOM_NAMED_INDEX_REF(operator+=, , " += v")
  LOOM_NAMED_INDEX_REF(operator-=, , " -= v")
  LOOM_NAMED_INDEX_REF(operator*=, , " *= v")
  LOOM_NAMED_INDEX_REF(operator/=, , " /= v")
  LOOM_NAMED_INDEX_REF(operator%=, , " %= v")
  LOOM_NAMED_INDEX_REF(operator&=, , " &= v")
  LOOM_NAMED_INDEX_REF(operator|=, , " |= v")
  LOOM_NAMED_INDEX_REF(operator^=, , " ^= v")
  LOOM_NAMED_INDEX_REF(operator<<=, , " <<= v")
  LOOM_NAMED_INDEX_REF(operator>>=, , " >>= v")
  LOOM_NAMED_INDEX_REF(sort, ..., ".sort()")
  LOOM_NAMED_INDEX_REF(fill, ..., ".fill(v)")
#undef LOOM_NAMED_INDEX_REF

 private:
  void write(WriteOp op, const Array& v);
  Array* target_;  // null once a named reference has been assigned a value of its own
  std::vector<Index> index_;
};

inline Index::Index(const Array& a) : v_(IndexArray{a.node()}) {}

// loom::all is both NumPy's `:` in an index (x[{all, 2}]) and np.all, the reduction
// (all(x, axis)); the reduction is defined with the others in lib/api/reductions.cpp.
struct AllSlice : Slice {
  [[nodiscard]] Array operator()(const Array& a) const;
  [[nodiscard]] Array operator()(const Array& a, const Axes& axis, bool keepdims = false) const;
};
inline const AllSlice all{};

// Prints like NumPy's repr: array([...], dtype=float32), summarized past 1000 elements.
std::ostream& operator<<(std::ostream& os, const Array& a);
std::string to_string(const Array& a);

// --- template definitions ---

namespace detail {
[[noreturn]] void throw_to_host_mismatch(DType have, DType want);
[[noreturn]] void throw_item_out_of_range(double v, bool is_signed, int bits);
// A float converted to integer type I: ValueError when it is NaN or outside I's range (a C++
// conversion of it would be undefined behaviour; Python's int() would not fit either).
template <class I> I float_to_integer(double v) {
  if constexpr (std::is_same_v<I, bool>) {
    return v != 0;
  } else {
    // The range as doubles: lowest() is exact (-2^(n-1) or 0); max() + 1 is the power of two
    // above it, exact too, and the bound is exclusive.
    constexpr double lo = static_cast<double>(std::numeric_limits<I>::lowest());
    constexpr double hi = static_cast<double>(std::numeric_limits<I>::max() / 2 + 1) * 2.0;
    if (!(v < hi && (v > lo - 1.0 || v == lo))) throw_item_out_of_range(v, std::is_signed_v<I>, 8 * sizeof(I));
    return static_cast<I>(v);
  }
}
}  // namespace detail

// The value of a Scalar as a C++ type (static_cast semantics; a float that no value of an
// integer T holds, NaN included, is a ValueError).
template <class T> T scalar_as(const Scalar& s) {
  const auto get = [&]<class U>() -> T {
    U v{};
    switch (kind(s.dtype)) {
      case DKind::Bool:
      case DKind::Signed: v = static_cast<U>(s.i); break;
      case DKind::Unsigned: v = static_cast<U>(s.u); break;
      case DKind::Float:
        if constexpr (std::is_integral_v<U>) {
          v = detail::float_to_integer<U>(s.f);
        } else {
          v = static_cast<U>(s.f);
        }
        break;
      case DKind::Complex:
        if constexpr (requires { U(s.c); }) {
          v = U(s.c);
        } else if constexpr (std::is_integral_v<U>) {
          v = detail::float_to_integer<U>(s.c.real());
        } else {
          v = static_cast<U>(s.c.real());
        }
        break;
    }
    return static_cast<T>(v);
  };
  if constexpr (std::same_as<T, half> || std::same_as<T, bfloat16_t>) {
    return T(get.template operator()<float>());
  } else {
    return get.template operator()<T>();
  }
}

template <class T> std::vector<T> Array::to_host(std::source_location where) const {
  if (dtype_of<T> != dtype()) detail::throw_to_host_mismatch(dtype(), dtype_of<T>);
  std::vector<std::byte> bytes = host_bytes(where);
  if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> is packed: convert each byte
    std::vector<bool> out(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) out[i] = bytes[i] != std::byte{0};
    return out;
  } else {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
}

template <class T> T Array::item(std::source_location where) const { return scalar_as<T>(item_scalar(where)); }

}  // namespace loom
