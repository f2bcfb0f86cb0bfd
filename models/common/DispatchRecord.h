// What one kernel dispatch did, for statistics and reports (Gpu::dispatches()).
#pragma once

#include <cstdint>
#include <string>

namespace vgpu {

struct DispatchRecord {
  std::string kernel;
  uint64_t startCycle = 0, endCycle = 0;  // the dispatch: first workgroup placed, last wave done
  // The packet, as its completion signal's start_ts/end_ts give it (TIMESTAMP ns): from the
  // command processor taking it (reading it, the kernel descriptor) to its completion.
  uint64_t packetStartNs = 0, packetEndNs = 0;
  uint64_t workgroups = 0, waves = 0;
  bool faulted = false;
  uint32_t queue = 0;  // the AQL queue it came from
};

}  // namespace vgpu
