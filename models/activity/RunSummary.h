// What a run did, in the figures a person asks for first: cycles and time, IPC, occupancy, the
// top stall reasons, cache hit rates, bandwidth per level and LDS bank conflicts. Computed from
// the --stats JSON (sc_main/main.cpp builds it from every block's counters), so the summary
// vgpu-sim prints, the HTML report and a script reading the JSON agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vgpu {

class ActivitySampler;

struct RunSummary {
  std::string kernel, platform;
  double clockMHz = 0;
  uint64_t computeUnits = 0, waveSlotsPerCu = 0;
  uint64_t cycles = 0;  // summed over dispatches
  double simulatedSeconds = 0, hostSeconds = 0;
  uint64_t waveInstructions = 0, workgroups = 0, waves = 0;
  double ipc = 0;  // wave-instructions per cycle, whole GPU
  // --mode functional: every latency is one cycle, so cycles, IPC and bandwidths say nothing
  // about the hardware (stats "mode": "functional").
  bool functionalMode = false;
  double averageWavesPerCu = 0;  // resident waves per CU, averaged over the cycles

  struct Stall {
    std::string reason;  // "waitcnt_vm", "barrier", ... (cuN.stall_REASON_cycles)
    uint64_t waveCycles = 0;
  };
  std::vector<Stall> stalls;  // most wave-cycles first
  uint64_t stallWaveCycles = 0;

  struct CacheLevel {
    std::string name;  // "vector L1", "L2", "scalar", "instruction"
    uint64_t hits = 0, misses = 0;
    double hitRate() const { return hits + misses ? double(hits) / double(hits + misses) : 0; }
  };
  std::vector<CacheLevel> caches;

  struct Traffic {
    std::string level;  // "LDS", "vector L1", "L2", "DRAM"
    uint64_t bytes = 0;
    double bytesPerCycle = 0, gigabytesPerSecond = 0;
  };
  std::vector<Traffic> traffic;

  uint64_t ldsInstructions = 0, ldsBankCycles = 0, ldsConflictCycles = 0;
  struct DegreeBin {
    std::string label;  // "1", "2", "3-4", ..., "32+"
    uint64_t instructions = 0;
  };
  std::vector<DegreeBin> ldsConflictDegrees;  // ascending degree
};

// Reads the --stats JSON; missing keys count as zero (a faulted run still summarises).
RunSummary summarizeRun(const nlohmann::json& stats);

// The summary vgpu-sim prints on stderr at the end of a run (several lines, each ending in \n).
std::string formatRunSummary(const RunSummary& s);

nlohmann::json runSummaryJson(const RunSummary& s);

// The sampler's time series as the --stats JSON's "activity" object: origin_cycle,
// bucket_cycles, buckets, end_cycle and channels (name -> one value per bucket).
nlohmann::json activityJson(const ActivitySampler& sampler);

// 1234567 -> "1,234,567".
std::string withThousands(uint64_t v);

}  // namespace vgpu
