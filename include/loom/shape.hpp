#pragma once
// Shape: an inline vector of at most kMaxDims extents (no heap), used for shapes, strides and axes.

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace loom {

inline constexpr int kMaxDims = 16;

class Shape {
 public:
  using value_type = std::int64_t;
  using iterator = std::int64_t*;
  using const_iterator = const std::int64_t*;

  Shape() = default;
  Shape(std::initializer_list<std::int64_t> dims) { assign(dims.begin(), dims.end()); }
  Shape(std::span<const std::int64_t> dims) { assign(dims.begin(), dims.end()); }  // NOLINT
  Shape(const std::vector<std::int64_t>& dims) { assign(dims.begin(), dims.end()); }  // NOLINT
  template <class It> Shape(It first, It last) { assign(first, last); }
  // n copies of value.
  static Shape filled(int n, std::int64_t value) {
    Shape s;
    s.resize(n, value);
    return s;
  }

  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  std::int64_t& operator[](int i) { return d_[static_cast<std::size_t>(i)]; }
  std::int64_t operator[](int i) const { return d_[static_cast<std::size_t>(i)]; }
  std::int64_t* data() { return d_.data(); }
  const std::int64_t* data() const { return d_.data(); }
  iterator begin() { return d_.data(); }
  iterator end() { return d_.data() + n_; }
  const_iterator begin() const { return d_.data(); }
  const_iterator end() const { return d_.data() + n_; }
  std::int64_t back() const { return d_[static_cast<std::size_t>(n_ - 1)]; }

  void push_back(std::int64_t v);  // throws ValueError past kMaxDims
  void insert(int pos, std::int64_t v);
  void erase(int pos);
  void resize(int n, std::int64_t value = 0);
  void clear() { n_ = 0; }

  // Product of the extents (1 for a 0-d shape).
  std::int64_t numel() const {
    std::int64_t p = 1;
    for (int i = 0; i < n_; ++i) p *= d_[static_cast<std::size_t>(i)];
    return p;
  }
  std::vector<std::int64_t> to_vector() const { return {begin(), end()}; }

  friend bool operator==(const Shape& a, const Shape& b) {
    return a.n_ == b.n_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  template <class It> void assign(It first, It last) {
    n_ = 0;
    for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
  }
  std::array<std::int64_t, kMaxDims> d_{};
  int n_ = 0;
};

// "(3, 4)", "(5,)", "()" as NumPy prints a shape tuple.
std::string to_string(const Shape& s);
std::ostream& operator<<(std::ostream& os, const Shape& s);

// C-contiguous strides, in elements.
Shape contiguous_strides(const Shape& shape);
// Whether element strides lay the shape out in C order (unit dims may have any stride).
bool is_c_contiguous(const Shape& shape, const Shape& strides);

}  // namespace loom
