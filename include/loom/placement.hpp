#pragma once
// Where memory lives: the host or one GPU (storage, arrays and devices name it).

#include <string>

namespace loom {

enum class DeviceKind { Host, GPU };
struct Placement {
  DeviceKind kind = DeviceKind::Host;
  int index = -1;  // GPU ordinal
  std::string to_string() const;
  friend bool operator==(const Placement&, const Placement&) = default;
};

}  // namespace loom
