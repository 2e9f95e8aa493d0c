#pragma once
// np.delete and np.insert at positions known on the host (lib/api/joining.cpp): a concatenation
// of the kept pieces. The public delete_ and insert (lib/index/manipulation_calls.cpp) read an
// array obj back into one of these first.

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include <loom/array.hpp>

namespace loom::detail {

using HostPositions = std::variant<std::int64_t, std::vector<std::int64_t>, Slice>;

[[nodiscard]] Array delete_at(const Array& arr, const HostPositions& obj, std::optional<std::int64_t> axis);
[[nodiscard]] Array insert_at(const Array& arr, const HostPositions& obj, const Array& values,
                              std::optional<std::int64_t> axis);

}  // namespace loom::detail
