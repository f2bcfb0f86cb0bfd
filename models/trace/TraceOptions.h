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
  // GPU cycles, both inclusive: absolute (SystemC time / clock period), or with fromKernel
  // counted from the cycle the first kernel dispatch started (DispatchRecord::startCycle).
  uint64_t startCycle = 0, endCycle = ~uint64_t{0};
  // Blocks by name relative to the GPU ("cu0", "l2", "dram", "cp", "sqc0", "tc0.vector_l1"):
  // a block and everything below it. "cuN" also takes ldsN and tcN, the CU's own LDS and
  // texture path. Empty: every block.
  std::vector<std::string> scopes;
  bool fromKernel = false;
  // Whether a window was asked for (not the whole run).
  bool windowed() const { return fromKernel || startCycle != 0 || endCycle != ~uint64_t{0}; }
  // The window as the user wrote it ("kernel+100:400"), for messages.
  std::string windowText() const {
    return (fromKernel ? "kernel+" : "") + std::to_string(startCycle) + ":" +
           std::to_string(endCycle);
  }
};

// A window counted from the kernel's start (TraceFilter::fromKernel) in absolute cycles, once
// that start is known; a sum past the last cycle stays at the last cycle.
inline TraceFilter anchoredAt(TraceFilter relative, uint64_t kernelStart) {
  auto add = [&](uint64_t c) {
    return c > ~uint64_t{0} - kernelStart ? ~uint64_t{0} : c + kernelStart;
  };
  relative.startCycle = add(relative.startCycle);
  relative.endCycle = add(relative.endCycle);
  relative.fromKernel = false;
  return relative;
}

struct TraceOptions {
  std::string vcdPath;  // model activity as a VCD; empty: none
  TraceFilter vcd;
  std::string timelinePath;  // Chrome/Perfetto trace-event JSON; empty: none
  TraceFilter timeline;
  bool enabled() const { return !vcdPath.empty() || !timelinePath.empty(); }
};

}  // namespace vgpu::trace
