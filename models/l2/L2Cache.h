// The L2 cache shared by all compute units: 4 MiB on Vega 20 in 16 address-interleaved
// channels of 64 B/clk each, 64-byte lines, write-back.
// Every upstream (vector L1s, scalar and instruction caches, command processor) binds to
// `socket`; `memory` binds to DRAM.
#pragma once

#include "common/Cache.h"

namespace vgpu {

class L2Cache : public Cache {
 public:
  L2Cache(sc_core::sc_module_name name, const L2Config& config, sc_core::sc_time clockPeriod)
      : Cache(name, asCacheConfig(config), clockPeriod, WritePolicy::WriteBackAllocate) {}

 private:
  static CacheConfig asCacheConfig(const L2Config& c) {
    CacheConfig cc;
    cc.sizeBytes = c.sizeBytes;
    cc.lineBytes = c.lineBytes;
    cc.ways = c.ways;
    cc.hitLatencyCycles = c.hitLatencyCycles;
    cc.bytesPerCycle = c.bytesPerCyclePerChannel;
    cc.mshrs = c.mshrsPerChannel;
    cc.channels = c.channels;
    cc.interleaveBytes = c.interleaveBytes;
    cc.timed = c.timed;
    return cc;
  }
};

}  // namespace vgpu
