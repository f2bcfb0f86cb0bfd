// The register state a wave starts with, as the SPI writes it for an HSA kernel dispatch
// (AMDGPUUsage, "Initial Kernel Execution State" for GFX9): user SGPRs enabled by the kernel
// descriptor's kernel_code_properties in ABI order, then system SGPRs enabled by
// COMPUTE_PGM_RSRC2, then work-item IDs in v0..v2 (not packed on gfx906/gfx900).
#pragma once

#include <array>
#include <memory>

#include "common/PlatformConfig.h"
#include "dispatcher/KernelDispatch.h"
#include "isa/WaveState.h"

namespace vgpu {

struct WavePlacement {
  std::array<uint32_t, 3> groupId{};
  uint32_t waveInGroup = 0;
  uint32_t scratchSlot = 0;
  uint32_t hwId = 0;  // the wave's HW_ID register (hwIdOf)
};

// The HW_ID register of a wave (s_getreg HW_REG_HW_ID; Vega ISA guide, "Hardware Registers",
// HW_ID; the same table is in HIP's amd_device_functions.h, whose __smid() reads CU_ID and
// SE_ID): WAVE_ID [3:0] the wave's slot on its SIMD, SIMD_ID [5:4], PIPE_ID [7:6] 0, CU_ID
// [11:8] and SE_ID [14:13] where its CU sits (PlatformConfig::cuLocation), SH_ID [12] 0 (one
// shader array per engine), TG_ID [19:16] 0, VM_ID [23:20] 0 (one address space), QUEUE_ID
// [26:24] the command processor's queue, STATE_ID [29:27] 0 (graphics only), ME_ID [31:30] 1
// (the compute micro engine). Fields wider than their bits keep their low bits.
uint32_t hwIdOf(const PlatformConfig& config, uint32_t cu, uint32_t waveSlot, uint32_t queue);

// `reuse`, if given, is a finished wave's state (WaveSlots::startUnstarted): it is reset
// to exactly what a new one would hold, keeping its VGPR storage.
std::unique_ptr<isa::WaveState> makeInitialWaveState(
    const KernelDispatch& d, const WavePlacement& where,
    std::unique_ptr<isa::WaveState> reuse = nullptr);
// The same with the workgroup's extent (workgroupExtent) already known.
std::unique_ptr<isa::WaveState> makeInitialWaveState(const KernelDispatch& d,
                                                     const WavePlacement& where,
                                                     const std::array<uint32_t, 3>& extent,
                                                     std::unique_ptr<isa::WaveState> reuse);

// Work-items in workgroup `groupId` per dimension (the last group of a dimension may be
// partial: AQL grid sizes need not be multiples of the workgroup size).
std::array<uint32_t, 3> workgroupExtent(const KernelDispatch& d,
                                        const std::array<uint32_t, 3>& groupId);

}  // namespace vgpu
