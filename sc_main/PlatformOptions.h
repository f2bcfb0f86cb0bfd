// The simulated platform that the options describe: the platform file or name, then what the
// options change in it (cycle limits, mode, perturbation, the LDS arbiter, waveform and
// timeline files). Shared by `vgpu-sim run` and vgpu's HSA runtime (VGPU_* variables), so an
// option means the same to both.
#pragma once

#include "common/PlatformConfig.h"
#include "sc_main/CommandLine.h"

namespace vgpu::cli {

// Throws vgpu::InputError naming the problem (an unknown platform, an RTL option without RTL).
PlatformConfig platformForOptions(const Options& options);

}  // namespace vgpu::cli
