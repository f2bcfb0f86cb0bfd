// Every parameter of a platform, with its unit in the name. Filled from a JSON file under
// platforms/ (see platforms/Platform.h); modules take the parts they need in their constructors.
#pragma once

#include <cstdint>
#include <string>

#include "isa/WaveState.h"
#include "trace/TraceOptions.h"

namespace vgpu {

struct CuConfig {
  uint32_t simdsPerCu = 4;
  uint32_t waveSlotsPerSimd = 10;
  uint32_t vgprsPerSimdLane = 256;  // 64 KiB VGPR file per SIMD / (64 lanes * 4 B)
  uint32_t sgprsPerSimd = 800;      // gfx9
  uint32_t vgprAllocGranule = 4;
  uint32_t sgprAllocGranule = 16;
  uint32_t valuCycles = 4;       // wave64 on SIMD16
  uint32_t fp64RateDivisor = 2;  // FP64 runs at 1/N of FP32
  uint32_t transcendentalRateDivisor = 4;
  uint32_t saluCycles = 1;
  uint32_t branchCycles = 1;
  uint32_t maxWavesPerWorkgroup = 16;     // 1024 work-items
  uint32_t instructionPrefetchLines = 4;  // lines fetched ahead of a wave
};

struct LdsConfig {
  uint32_t sizeBytes = 65536;
  uint32_t banks = 32;
  uint32_t bankWidthBytes = 4;
  uint32_t latencyCycles = 20;  // LLVM SISchedule.td: LDS ~20 cycles
  // The SIMDs reach the LDS through ports shared by simdsPerPort SIMDs, each moving
  // portBytesPerCycle per cycle and direction (rocprofiler-compute, LDS performance model).
  uint32_t portBytesPerCycle = 64;
  uint32_t simdsPerPort = 2;
  uint32_t allocGranuleBytes = 512;
  uint32_t gdsSizeBytes = 65536;  // the device-wide global data share (GDS), DS gds=1
  std::string arbiter = "cpp";    // bank-conflict arbiter: "cpp", or "rtl" (Verilated, rtl_cosim/)
  // Run options (vgpu-sim --rtl-vcd, --vcd-window), not platform parameters: a VCD of the RTL
  // arbiter of compute unit 0, for the clock cycles in [vcdStartCycle, vcdEndCycle].
  std::string arbiterVcdPath;
  uint64_t vcdStartCycle = 0, vcdEndCycle = ~uint64_t{0};
  bool timed = true;  // false in functional mode: no bank arbitration or latency
};

struct CacheConfig {
  uint32_t sizeBytes = 16384;
  uint32_t lineBytes = 64;
  uint32_t ways = 4;
  uint32_t hitLatencyCycles = 4;
  uint32_t bytesPerCycle = 64;
  uint32_t mshrs = 64;             // outstanding misses
  uint32_t channels = 1;           // independent slices, address-interleaved
  uint32_t interleaveBytes = 256;  // bytes per channel before the next channel
  bool timed = true;               // false in functional mode: move data, no tags or timing
};

struct L2Config {
  uint32_t sizeBytes = 4u << 20;
  uint32_t channels = 16;
  uint32_t lineBytes = 64;
  uint32_t ways = 16;
  uint32_t hitLatencyCycles = 100;
  uint32_t bytesPerCyclePerChannel = 64;
  uint32_t mshrsPerChannel = 64;
  uint32_t interleaveBytes = 256;
  bool timed = true;
};

// HBM2: independent channels, each with banks that keep one row open (open-page policy).
struct DramConfig {
  uint64_t sizeBytes = 16ull << 30;
  uint32_t channels = 32;
  uint32_t banksPerChannel = 16;
  uint32_t rowBytes = 2048;
  uint32_t interleaveBytes = 256;    // bytes per channel before the next channel
  double peakBandwidthGBs = 1024.0;  // all channels together: sets the burst time
  double tRCDns = 14, tCLns = 14, tRPns = 14, tRASns = 33, tCCDns = 2;
  double controllerLatencyNs = 100;  // fixed queueing/PHY/controller latency on every access
  bool timed = true;
};

// The link between the GPU and system memory (PCIe on every modelled board). The GPU's
// bus-master accesses to addresses outside device memory cross it (fabric/DataFabric.h): each
// read or atomic takes the link's latency (writes are posted), and its bytes occupy the link's
// direction for bytes / bandwidth.
struct SystemLinkConfig {
  double latencyNs = 500;      // request to completion of a read or atomic
  double bandwidthGBs = 31.5;  // per direction
  bool timed = true;
};

struct PlatformConfig {
  std::string name = "tiny";
  std::string description;
  isa::GfxTarget target = isa::GfxTarget::Gfx906;
  std::string processor = "gfx906";
  uint32_t computeUnits = 1;
  double clockMHz = 1725.0;
  uint32_t cusPerSqc = 3;         // scalar/instruction caches are shared by 3 CUs
  uint32_t quantumCycles = 1000;  // temporal decoupling quantum
  CuConfig cu;
  LdsConfig lds;
  CacheConfig vectorL1{16384, 64, 4, 120, 64};
  CacheConfig scalarCache{16384, 64, 4, 20, 64};
  CacheConfig instructionCache{32768, 64, 4, 4, 64};
  L2Config l2;
  DramConfig dram;
  SystemLinkConfig systemLink;
  uint32_t mmioLatencyCycles = 10;
  uint64_t maxCycles = 0;  // 0: no limit
  // A wave that waits at one s_barrier or one s_waitcnt for more cycles than this is reported
  // as a deadlock with the state of every wave (0: never). Ten million cycles is milliseconds of
  // GPU time, far beyond any memory latency or barrier wait of a working kernel.
  uint64_t watchdogCycles = 10'000'000;
  // Functional mode: instructions execute in order with unit latencies, no cache or DRAM
  // timing; results are the same, cycles are not meaningful. The fast path.
  bool functionalMode = false;
  // Timing mode, for testing the model: a seed other than 0 adds random extra latency to every
  // memory access within the hardware's return-order rules (cu/LatencyPerturbation.h).
  // Results must not change; cycles do (deterministically for a given seed).
  uint64_t perturbLatencySeed = 0;
  // Run options, not platform parameters: the model-activity VCD and the timeline
  // (vgpu-sim --vcd, --timeline; models/trace).
  trace::TraceOptions trace;

  double clockPeriodNs() const { return 1000.0 / clockMHz; }

  // Where compute unit `cu` (0 .. computeUnits - 1, the dispatcher's numbering) sits: its shader
  // engine and its number inside it. The CUs are spread over the fewest shader engines of at
  // most 16 CUs (HW_ID's CU_ID is 4 bits), in order, as evenly as they go: 64 CUs are 4 engines
  // of 16 (Vega 10 and Vega 20: four shader engines of 16 CUs, AMD "Vega" architecture
  // whitepaper), 60 CUs 4 of 15 (MI50 enables 60 of Vega 20's 64), 1 CU one engine. One shader
  // array per engine (gfx9). CUs numbered next to each other share an engine, as the CUs
  // that share a scalar and instruction cache (cusPerSqc) do on the chip.
  struct CuLocation {
    uint32_t shaderEngine = 0, cuInEngine = 0;
  };
  uint32_t shaderEngines() const { return (computeUnits + 15) / 16; }
  CuLocation cuLocation(uint32_t cu) const {
    const uint32_t perEngine = (computeUnits + shaderEngines() - 1) / shaderEngines();
    return {cu / perEngine, cu % perEngine};
  }
};

}  // namespace vgpu
