// The register state a wave starts with, as the SPI writes it for an HSA kernel dispatch
// (AMDGPUUsage, "Initial Kernel Execution State" for GFX9): user SGPRs enabled by the kernel
// descriptor's kernel_code_properties in ABI order, then system SGPRs enabled by
// COMPUTE_PGM_RSRC2, then work-item IDs in v0..v2 (not packed on gfx906/gfx900).
#pragma once

#include <array>
#include <memory>

#include "dispatcher/KernelDispatch.h"
#include "isa/WaveState.h"

namespace vgpu {

struct WavePlacement {
  std::array<uint32_t, 3> groupId{};
  uint32_t waveInGroup = 0;
  uint32_t scratchSlot = 0;
};

// `reuse`, if given, is a finished wave's state (ComputeUnit::recycledWaveState): it is reset
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
