#include "sc_main/PlatformOptions.h"

#include "common/Error.h"
#include "gpu/Gpu.h"
#include "platforms/Platform.h"

namespace vgpu::cli {

PlatformConfig platformForOptions(const Options& o) {
  PlatformConfig platform = loadPlatform(o.platform);
  if (o.maxCycles) platform.maxCycles = o.maxCycles;
  if (o.perturbLatencySeed) platform.perturbLatencySeed = o.perturbLatencySeed;
  if (o.watchdogCycles) platform.watchdogCycles = *o.watchdogCycles;
  platform.functionalMode = o.functionalMode;
  if (!o.ldsArbiter.empty()) platform.lds.arbiter = o.ldsArbiter;
  if (platform.lds.arbiter == "rtl" && !Gpu::rtlLdsArbiterBuilt())
    throw InputError(
        "the RTL LDS arbiter (--lds-arbiter rtl, or lds.arbiter \"rtl\" in the platform) is not "
        "available: this vgpu-sim was built without RTL co-simulation (Verilator was not found "
        "when it was configured, or VGPU_RTL_COSIM=OFF). Install verilator (scripts/setup) and "
        "reconfigure, or use --lds-arbiter cpp.");
  if (!o.rtlVcdPath.empty()) {
    if (platform.lds.arbiter != "rtl")
      throw InputError("--rtl-vcd records the RTL LDS arbiter: add --lds-arbiter rtl");
    // The RTL arbiter's VCD is written by the Verilated model, which knows no kernel.
    if (o.vcdFromKernel)
      throw InputError(
          "--vcd-window kernel+START:END applies to --vcd only; --rtl-vcd takes absolute GPU "
          "cycles (a run with --vcd prints the cycles the kernel ran in)");
    platform.lds.arbiterVcdPath = o.rtlVcdPath;
    platform.lds.vcdStartCycle = o.vcdStart;
    platform.lds.vcdEndCycle = o.vcdEnd;
  }
  // The model's activity (models/trace): the files open when the GPU is built.
  platform.trace.vcdPath = o.vcdPath;
  platform.trace.vcd = {o.vcdStart, o.vcdEnd, o.vcdScope, o.vcdFromKernel};
  platform.trace.timelinePath = o.timelinePath;
  platform.trace.timeline = {o.timelineStart, o.timelineEnd, o.timelineScope, o.timelineFromKernel};
  return platform;
}

}  // namespace vgpu::cli
