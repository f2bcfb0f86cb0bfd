#include "lds/LdsBankArbiter.h"

#include <algorithm>
#include <vector>

namespace vgpu {

LdsBankSchedule CppLdsBankArbiter::schedule(const LdsBankRequest& req) {
  LdsBankSchedule out;
  out.servedLanes.reserve(2u * req.elementsPerLane * req.dwordsPerElement);
  if (bankEpoch_.size() != banks_) bankEpoch_.assign(banks_, 0), bankDword_.assign(banks_, 0);
  uint32_t minimum = 0;
  for (int e = 0; e < req.elementsPerLane; ++e) {
    for (int d = 0; d < req.dwordsPerElement; ++d) {
      for (int half = 0; half < 2; ++half) {
        const uint64_t halfMask = (req.laneMask >> (half * 32)) & 0xffffffffull;
        if (halfMask == 0) continue;
        ++minimum;
        // Lanes still waiting in this pass; each cycle every bank serves one dword (and every
        // lane that wants that same dword).
        uint64_t pending = halfMask << (half * 32);
        while (pending) {
          // bankEpoch_ marks which banks already picked a dword this cycle: no clearing needed.
          ++epoch_;
          uint64_t served = 0;
          for (uint64_t p = pending; p; p &= p - 1) {
            const int lane = __builtin_ctzll(p);
            const uint32_t dword = req.addr[lane][e] / 4 + d;
            const uint32_t bank = dword % banks_;
            if (bankEpoch_[bank] != epoch_) bankEpoch_[bank] = epoch_, bankDword_[bank] = dword;
            if (bankDword_[bank] == dword) served |= 1ull << lane;
          }
          pending &= ~served;
          out.servedLanes.push_back(served);
          ++out.cycles;
        }
      }
    }
  }
  out.conflictCycles = out.cycles - std::min(out.cycles, minimum);
  return out;
}

}  // namespace vgpu
