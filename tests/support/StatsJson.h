// Reading `vgpu-sim --stats` output in tests.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace vgpu::test {

// The sum of every counter whose name ends in `suffix` (e.g. ".conflict_cycles": all LDS).
inline uint64_t sumCounters(const nlohmann::json& stats, const std::string& suffix) {
  uint64_t total = 0;
  for (const auto& [name, value] : stats["counters"].items())
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      total += value.get<uint64_t>();
  return total;
}

}  // namespace vgpu::test
