// A test aid for the model itself: random extra latency added to every timed memory access of
// a compute unit (PlatformConfig::perturbLatencySeed, vgpu-sim --perturb-latency SEED).
//
// The hardware promises only the return orders in WaitcntCounters.h; a kernel that is correct on
// silicon waits on nothing else, so its results must not change under any latency the memory
// system could produce. Running the suite's kernels with several seeds makes a model bug that
// depends on lucky timing (data landing in VGPRs in an order the rules do not allow) show up
// as a wrong result. The extra latency is applied before the order rules, so it reorders only
// what the hardware leaves free. Deterministic: the same seed gives the same cycles.
#pragma once

#include <cstdint>

namespace vgpu {

class LatencyPerturbation {
 public:
  // Each CU draws its own sequence, so that the CUs' accesses are not perturbed in lockstep.
  void seed(uint64_t seed, uint32_t cuId) {
    state_ = seed * 0x9e3779b97f4a7c15ull + (uint64_t{cuId} << 32 | 0x5bd1e995u);
  }

  // Extra cycles for the next access: none for half of them, and otherwise a spread from a few
  // cycles (reorders LDS accesses, whose latencies differ by bank conflicts) to a few thousand
  // (reorders against DRAM misses).
  uint64_t extraCycles() {
    const uint64_t r = next();
    switch (r & 7) {
      case 0:
      case 1:
      case 2:
      case 3:
        return 0;
      case 4:
      case 5:
        return (r >> 8) % 32;
      case 6:
        return 32 + (r >> 8) % 224;
      default:
        return 256 + (r >> 8) % 1792;
    }
  }

 private:
  // splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
  // OOPSLA 2014): one multiply-xorshift step per draw, good enough to spread latencies.
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  uint64_t state_ = 0;
};

}  // namespace vgpu
