// Array's properties (include/loom/array.hpp). Evaluation and reading values live in lib/exec.

#include <fmt/format.h>

#include <loom/array.hpp>
#include <loom/errors.hpp>

#include "api/builders.hpp"

namespace loom {

const detail::Node& Array::checked() const {
  const NodePtr& n = node();
  if (!n) throw ValueError("use of an empty Array handle (default-constructed)");
  return *n;
}

const Shape& Array::shape() const { return checked().shape; }
DType Array::dtype() const { return checked().dtype; }
int Array::ndim() const { return checked().shape.size(); }
std::int64_t Array::size() const { return checked().shape.numel(); }
std::size_t Array::itemsize() const { return loom::itemsize(dtype()); }
std::size_t Array::nbytes() const { return static_cast<std::size_t>(size()) * itemsize(); }

Shape Array::strides() const {
  const detail::Node& n = checked();
  Shape st = contiguous_strides(n.shape);
  if (n.op == detail::Op::Buffer) {
    st = n.strides();
  } else if (auto r = n.realized()) {
    st = r->strides;
  }
  for (std::int64_t& s : st) s *= static_cast<std::int64_t>(itemsize());
  return st;
}

bool Array::is_evaluated() const {
  const detail::Node& n = checked();
  return n.op == detail::Op::Buffer || n.realized() != nullptr;
}

Array Array::from_scalar(const Scalar& s) { return Array(detail::make_constant(s, s.weak)); }

const NodePtr& Array::pending_node() const {
  detail::PendingRead& p = *pending_;
  std::call_once(p.once, [&p] { p.node = p.read(); });
  return p.node;
}

std::string Placement::to_string() const {
  return kind == DeviceKind::Host ? std::string("host") : fmt::format("gpu:{}", index);
}

namespace detail {
void throw_to_host_mismatch(DType have, DType want) {
  throw DTypeError(fmt::format("to_host<{}>: the array has dtype {}; convert it with astype({}) "
                               "first",
                               name(want), name(have), name(want)));
}
void throw_item_out_of_range(double v, bool is_signed, int bits) {
  throw ValueError(fmt::format("item: cannot convert the value {} to {}{} (out of its range)", v,
                               is_signed ? "int" : "uint", bits));
}
}  // namespace detail

}  // namespace loom
