// The GPU's counters and dispatch records as JSON: the common part of the --stats files of
// `vgpu-sim run` (sc_main/main.cpp) and of programs run on vgpu's HSA runtime
// (runtime/hsa/SimulatedGpu.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "gpu/Gpu.h"

namespace vgpu {

// What `vgpu-sim run` and a program under `vgpu-sim exec` both write (README, "Statistics"):
// platform, mode, clock_mhz, compute_units, wave_slots_per_cu, cycles (summed over the
// dispatches), start_cycle, wave_instructions, workgroups, waves, counters, dispatches, and
// activity, hazards and instruction_profile when they were recorded. The caller adds what its run
// is about.
nlohmann::json gpuStatisticsJson(const PlatformConfig& platform, const Gpu& gpu);

// Every registered counter by name (Statistics: cuN.*, l2.*, dram.*, system_link.*, ...).
nlohmann::json countersJson(const Gpu& gpu);
// One record per dispatch: kernel, queue, start_cycle, end_cycle, packet_start_ns and
// packet_end_ns (its completion signal's start_ts/end_ts), workgroups, waves, faulted.
nlohmann::json dispatchesJson(const Gpu& gpu);

// --check-hazards: what the hazard checker found (schema in README, "Statistics"); call only
// when it is on (gpu.hazardChecker() not null).
nlohmann::json hazardsJson(const Gpu& gpu);

// --profile-instructions N: the N hottest instructions (schema in README, "Statistics"); call
// only when the profile is on (gpu.instructionProfile() not null).
nlohmann::json instructionProfileJson(const Gpu& gpu);

}  // namespace vgpu
