#include "lds/LdsBankArbiter.h"

#include <algorithm>
#include <vector>

namespace vgpu {

LdsLaneGroups LdsLaneGroups::of(uint32_t dwordsPerElement, uint32_t elementsPerLane) {
  LdsLaneGroups g;
  g.dwordsPerLane = std::max(1u, dwordsPerElement) * std::max(1u, elementsPerLane);
  while ((1u << g.slotShift) < g.dwordsPerLane) ++g.slotShift;
  // 32 request slots per group; a lane wider than 32 dwords (not a DS access) gets a group alone.
  g.lanesPerGroup = std::max(1u, 32u >> g.slotShift);
  g.groups = 64 / g.lanesPerGroup;
  return g;
}

LdsBankSchedule CppLdsBankArbiter::schedule(const LdsBankRequest& req) {
  LdsBankSchedule out;
  const LdsLaneGroups lg = LdsLaneGroups::of(req.dwordsPerElement, req.elementsPerLane);
  const uint32_t perElement = std::max<uint32_t>(1, req.dwordsPerElement);
  out.servedLanes.reserve(lg.groups);
  out.servedSlots.reserve(lg.groups);
  if (bankEpoch_.size() != banks_) bankEpoch_.assign(banks_, 0), bankDword_.assign(banks_, 0);

  // Every request slot's dword, for the group being served.
  std::array<uint32_t, 32> slotDword{};
  const uint64_t groupLanes = lg.lanesPerGroup >= 64 ? ~0ull : (1ull << lg.lanesPerGroup) - 1;
  uint32_t activeGroups = 0;
  for (uint32_t g = 0; g < lg.groups; ++g) {
    const uint32_t firstLane = g * lg.lanesPerGroup;
    const uint64_t lanes = (req.laneMask >> firstLane) & groupLanes;
    if (lanes == 0) continue;
    ++activeGroups;
    uint32_t pending = 0;  // slots still waiting
    for (uint64_t l = lanes; l; l &= l - 1) {
      const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(l));
      const auto& a = req.addr[firstLane + i];
      for (uint32_t j = 0; j < lg.dwordsPerLane; ++j) {
        const uint32_t slot = (i << lg.slotShift) | j;
        slotDword[slot] = a[j / perElement] / 4 + j % perElement;
        pending |= 1u << slot;
      }
    }
    while (pending) {
      // bankEpoch_ marks which banks already picked a dword this cycle: no clearing needed.
      ++epoch_;
      uint32_t served = 0;
      uint64_t servedLanes = 0;
      for (uint32_t p = pending; p; p &= p - 1) {
        const uint32_t slot = static_cast<uint32_t>(__builtin_ctz(p));
        const uint32_t dword = slotDword[slot];
        const uint32_t bank = dword % banks_;
        if (bankEpoch_[bank] != epoch_) bankEpoch_[bank] = epoch_, bankDword_[bank] = dword;
        if (bankDword_[bank] == dword) {
          served |= 1u << slot;
          servedLanes |= 1ull << (firstLane + (slot >> lg.slotShift));
        }
      }
      pending &= ~served;
      out.servedLanes.push_back(servedLanes);
      out.servedSlots.push_back(served);
      ++out.cycles;
    }
  }
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

}  // namespace vgpu
