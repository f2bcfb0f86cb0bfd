// Named counters per block, gathered into one JSON document at the end of a run.
// Blocks own their counters (plain uint64_t members); they register them here by name so the
// report needs no knowledge of each block.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace vgpu {

class Statistics {
 public:
  // A counter named "block.counter", e.g. "cu0.wave_instructions". The pointer must outlive
  // the Statistics object (blocks register members of themselves).
  void registerCounter(const std::string& name, const uint64_t* counter) {
    counters_[name] = counter;
  }
  uint64_t value(const std::string& name) const {
    auto it = counters_.find(name);
    return it == counters_.end() ? 0 : *it->second;
  }
  // Sum of all counters whose name ends in "." + suffix (e.g. "wave_instructions").
  uint64_t sum(const std::string& suffix) const {
    uint64_t total = 0;
    const std::string tail = "." + suffix;
    for (const auto& [name, counter] : counters_)
      if (name.size() >= tail.size() &&
          name.compare(name.size() - tail.size(), tail.size(), tail) == 0)
        total += *counter;
    return total;
  }
  const std::map<std::string, const uint64_t*>& counters() const { return counters_; }

 private:
  std::map<std::string, const uint64_t*> counters_;
};

}  // namespace vgpu
