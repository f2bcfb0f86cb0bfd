// What the dispatcher hands a compute unit: a workgroup's resource needs and its waves.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dispatcher/InitialWaveState.h"
#include "dispatcher/KernelDispatch.h"
#include "isa/Isa.h"

namespace vgpu {

// What a workgroup needs from a CU.
struct WorkgroupResources {
  uint32_t waves = 0;
  uint32_t vgprsPerWave = 0;
  uint32_t sgprsPerWave = 0;
  uint32_t ldsBytes = 0;
};

// Writes a wave's initial registers (the dispatcher's makeInitialWaveState), reusing `reuse`'s
// storage when given.
using InitialWaveStateFn = std::unique_ptr<isa::WaveState> (*)(
    const KernelDispatch& d, const WavePlacement& where, const std::array<uint32_t, 3>& extent,
    std::unique_ptr<isa::WaveState> reuse);

// A workgroup ready to run: where its waves go and what their initial registers are made from.
struct WorkgroupLaunch {
  const KernelDispatch* dispatch = nullptr;
  std::array<uint32_t, 3> groupId{};
  std::array<uint32_t, 3> extent{};  // its work-items per dimension (workgroupExtent)
  WorkgroupResources resources;
  // The CU writes each wave's initial registers with it when it next runs, not at the launch:
  // the dispatcher launches while the CU waits for SystemC time, and the other CUs that run
  // before it resumes would push the registers written then out of the host's caches before the
  // wave's first instruction reads them (60 CUs launch tens of thousands of waves).
  InitialWaveStateFn initialState = nullptr;
  struct WaveLaunch {
    WavePlacement where;
    uint32_t slot = 0;  // CU wave slot, from ComputeUnit::findSlots
    // Registers the launcher wrote itself (a test bench's hand-made waves); nullptr:
    // initialState writes them from `where`.
    std::unique_ptr<isa::WaveState> state;
  };
  std::vector<WaveLaunch> waves;
};

}  // namespace vgpu
