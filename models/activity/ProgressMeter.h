// The progress line vgpu-sim shows on a terminal while a long run simulates: workgroups
// dispatched and finished, the GPU cycle reached and the host's speed in wave-instructions per
// second. A SystemC process that looks at the GPU's counters every few thousand simulated cycles
// while a dispatch is in flight, and prints when enough wall time has passed. It only reads:
// results and cycles are the same with it or without it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <systemc>

#include "gpu/Gpu.h"

namespace vgpu {

struct ProgressOptions {
  std::FILE* out = stderr;
  bool inPlace = true;            // a terminal: rewrite one line (\r); otherwise a line per update
  double quietSeconds = 1.0;      // nothing is shown before this much wall time: short runs stay
                                  // silent
  double intervalSeconds = 0.25;  // at most four updates a second
  uint64_t checkCycles = 4096;    // simulated cycles between looks at the wall clock
};

class ProgressMeter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ProgressMeter);
  ProgressMeter(sc_core::sc_module_name name, const Gpu& gpu, ProgressOptions options = {});

  // Clears the progress line from the terminal; call when the simulation has ended.
  void finish();
  uint64_t updates() const { return updates_; }

  static std::string formatLine(uint64_t dispatched, uint64_t finished, uint64_t cycle,
                                double waveInstructionsPerSecond);

 private:
  void run();
  uint64_t sum(const std::vector<const uint64_t*>& counters) const;
  void show(uint64_t waveInstructions);

  const Gpu& gpu_;
  ProgressOptions options_;
  sc_core::sc_time period_;
  std::vector<const uint64_t*> waveInstructions_, workgroupsFinished_;
  const uint64_t* workgroupsDispatched_ = nullptr;
  std::chrono::steady_clock::time_point start_, lastUpdate_;
  uint64_t updates_ = 0;
};

}  // namespace vgpu
