// Array's index operators (include/loom/array.hpp): x[...] on a named array is a reference that
// writes (IndexRef, lib/index/indexing.cpp), on a temporary or a const array a view or a gather.

#include <loom/array.hpp>

#include "api/builders.hpp"
#include "graph/node.hpp"

namespace loom {

Array Array::operator[](std::initializer_list<Index> idx) const& {
  return index(std::span<const Index>(idx.begin(), idx.size()));
}
IndexRef Array::operator[](std::int64_t i) & { return IndexRef(*this, {Index(i)}); }
IndexRef Array::operator[](Slice s) & { return IndexRef(*this, {Index(s)}); }
IndexRef Array::operator[](std::initializer_list<Index> idx) & { return IndexRef(*this, std::vector<Index>(idx)); }
IndexRef Array::operator[](const Array& mask) & { return IndexRef(*this, {Index(mask)}); }

Array Array::index(std::span<const Index> idx) const {
  for (const Index& e : idx) {
    if (std::holds_alternative<IndexArray>(e.value())) return detail::advanced_index(*this, idx);
  }
  return detail::basic_view(*this, idx);
}

}  // namespace loom
