// What the dispatcher hands a compute unit: a workgroup's resource needs and its waves.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

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

// A workgroup ready to run: the dispatcher has written each wave's initial registers.
struct WorkgroupLaunch {
  const KernelDispatch* dispatch = nullptr;
  std::array<uint32_t, 3> groupId{};
  WorkgroupResources resources;
  struct WaveLaunch {
    std::unique_ptr<isa::WaveState> state;
    uint32_t slot = 0;  // CU wave slot, from ComputeUnit::findSlots
  };
  std::vector<WaveLaunch> waves;
};

}  // namespace vgpu
