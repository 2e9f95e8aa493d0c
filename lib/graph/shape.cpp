#include <ostream>

#include <fmt/format.h>

#include <loom/errors.hpp>
#include <loom/shape.hpp>

namespace loom {

namespace {
[[noreturn]] void too_many_dims(int n) {
  throw ValueError(fmt::format("maximum supported dimension for an ndarray is {}, found {}",
                               kMaxDims, n));
}
}  // namespace

void Shape::push_back(std::int64_t v) {
  if (n_ >= kMaxDims) too_many_dims(n_ + 1);
  d_[static_cast<std::size_t>(n_++)] = v;
}

void Shape::insert(int pos, std::int64_t v) {
  if (n_ >= kMaxDims) too_many_dims(n_ + 1);
  for (int i = n_; i > pos; --i) d_[static_cast<std::size_t>(i)] = d_[static_cast<std::size_t>(i - 1)];
  d_[static_cast<std::size_t>(pos)] = v;
  ++n_;
}

void Shape::erase(int pos) {
  for (int i = pos; i + 1 < n_; ++i) d_[static_cast<std::size_t>(i)] = d_[static_cast<std::size_t>(i + 1)];
  --n_;
}

void Shape::resize(int n, std::int64_t value) {
  if (n > kMaxDims) too_many_dims(n);
  for (int i = n_; i < n; ++i) d_[static_cast<std::size_t>(i)] = value;
  n_ = n;
}

std::string to_string(const Shape& s) {
  if (s.size() == 1) return fmt::format("({},)", s[0]);
  return fmt::format("({})", fmt::join(s.begin(), s.end(), ", "));
}

std::ostream& operator<<(std::ostream& os, const Shape& s) { return os << to_string(s); }

Shape contiguous_strides(const Shape& shape) {
  Shape st = Shape::filled(shape.size(), 1);
  std::int64_t acc = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    st[i] = acc;
    acc *= std::max<std::int64_t>(shape[i], 1);
  }
  return st;
}

bool is_c_contiguous(const Shape& shape, const Shape& strides) {
  std::int64_t expect = 1;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

}  // namespace loom
