// The sequencer cache block shared by a group of compute units (3 on Vega): a 16 KiB scalar data
// cache for SMEM loads and a 32 KiB instruction cache for fetch. Each CU binds its scalar and
// fetch sockets to the two caches' target sockets; both caches' memory sockets bind to L2.
#pragma once

#include <systemc>

#include "common/Cache.h"
#include "common/PlatformConfig.h"

namespace vgpu {

class Sqc : public sc_core::sc_module {
 public:
  Cache scalarCache;
  Cache instructionCache;

  Sqc(sc_core::sc_module_name name, const PlatformConfig& config, sc_core::sc_time clockPeriod)
      : sc_module(name),
        scalarCache("scalar_cache", config.scalarCache, clockPeriod,
                    Cache::WritePolicy::WriteThroughNoAllocate),
        instructionCache("instruction_cache", config.instructionCache, clockPeriod,
                         Cache::WritePolicy::WriteThroughNoAllocate) {}
};

}  // namespace vgpu
