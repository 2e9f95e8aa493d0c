#pragma once
// The host reference evaluator: runs any graph on the CPU, one node at a time, with NumPy's
// semantics (float16/bfloat16 computed in float and rounded after every op). It is the oracle of
// the GPU tests and the path eval() takes when there is no GPU.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "graph/node.hpp"

namespace loom::ref {

// Copies nbytes of a storage, from byte `offset`, to host memory at dst.
using ReadStorage =
    std::function<void(const detail::Storage& s, std::size_t offset, std::size_t nbytes, void* dst)>;

struct HostArray {
  DType dtype = DType::Float64;
  Shape shape;
  std::vector<std::byte> data;  // C-contiguous
  std::size_t numel() const { return static_cast<std::size_t>(shape.numel()); }
};

// The values of each output. Evaluated nodes and buffers are read through `read`.
std::vector<HostArray> evaluate(std::span<const detail::NodeRef> outputs, const ReadStorage& read);

// A strided view (element strides and offset) of a storage gathered into a C-contiguous array.
HostArray gather(const detail::Storage& storage, DType dtype, const Shape& shape,
                 const Shape& strides, std::int64_t offset, const ReadStorage& read);

}  // namespace loom::ref
