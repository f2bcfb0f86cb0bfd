#include "gpu/StatisticsJson.h"

namespace vgpu {

nlohmann::json countersJson(const Gpu& gpu) {
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [name, value] : gpu.statistics().counters()) counters[name] = *value;
  return counters;
}

nlohmann::json dispatchesJson(const Gpu& gpu) {
  nlohmann::json dispatches = nlohmann::json::array();
  for (const auto& d : gpu.dispatches())
    dispatches.push_back({{"kernel", d.kernel},
                          {"queue", d.queue},
                          {"start_cycle", d.startCycle},
                          {"end_cycle", d.endCycle},
                          {"packet_start_ns", d.packetStartNs},
                          {"packet_end_ns", d.packetEndNs},
                          {"workgroups", d.workgroups},
                          {"waves", d.waves},
                          {"faulted", d.faulted}});
  return dispatches;
}

}  // namespace vgpu
