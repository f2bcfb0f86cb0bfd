// Run options of the trace recorder (vgpu-sim --vcd, --timeline and their windows and scopes).
// They are not platform parameters; PlatformConfig carries them so the GPU can build its
// recorder, as it carries the other run options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vgpu::trace {

// Which part of a run an output keeps.
struct TraceFilter {
  // Absolute GPU cycles (SystemC time / clock period), both inclusive.
  uint64_t startCycle = 0, endCycle = ~uint64_t{0};
  // Blocks by name relative to the GPU ("cu0", "l2", "dram", "cp", "sqc0", "tc0.vector_l1"):
  // a block and everything below it. "cuN" also takes ldsN and tcN, the CU's own LDS and
  // texture path. Empty: every block.
  std::vector<std::string> scopes;
};

struct TraceOptions {
  std::string vcdPath;  // model activity as a VCD; empty: none
  TraceFilter vcd;
  std::string timelinePath;  // Chrome/Perfetto trace-event JSON; empty: none
  TraceFilter timeline;
  bool enabled() const { return !vcdPath.empty() || !timelinePath.empty(); }
};

}  // namespace vgpu::trace
