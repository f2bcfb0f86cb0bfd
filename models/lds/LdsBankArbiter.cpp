#include "lds/LdsBankArbiter.h"

#include <algorithm>
#include <vector>

namespace vgpu {

LdsBankSchedule CppLdsBankArbiter::schedule(const LdsBankRequest& req) {
  LdsBankSchedule out;
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
        std::vector<int64_t> bankDword(banks_);
        while (pending) {
          std::fill(bankDword.begin(), bankDword.end(), -1);
          uint64_t served = 0;
          for (int lane = half * 32; lane < half * 32 + 32; ++lane) {
            if (!((pending >> lane) & 1)) continue;
            const uint32_t dword = req.addr[lane][e] / 4 + d;
            const uint32_t bank = dword % banks_;
            if (bankDword[bank] < 0) bankDword[bank] = dword;
            if (bankDword[bank] == dword) served |= 1ull << lane;
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
