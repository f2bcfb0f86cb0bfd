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

template <typename OnCycle>
void CppLdsBankArbiter::serveGroup(uint32_t firstLane, uint32_t slotShift, uint32_t pending,
                                   const std::array<uint32_t, 32>& slotDword, OnCycle onCycle) {
  while (pending) {
    // bankEpoch_ marks which banks already picked a dword this cycle: no clearing needed.
    ++epoch_;
    uint32_t served = 0;
    uint64_t servedLanes = 0;
    for (uint32_t p = pending; p; p &= p - 1) {
      const uint32_t slot = static_cast<uint32_t>(__builtin_ctz(p));
      const uint32_t dword = slotDword[slot];
      const uint32_t bank = bankOf(dword);
      if (bankEpoch_[bank] != epoch_) bankEpoch_[bank] = epoch_, bankDword_[bank] = dword;
      if (bankDword_[bank] == dword) {
        served |= 1u << slot;
        servedLanes |= 1ull << (firstLane + (slot >> slotShift));
      }
    }
    pending &= ~served;
    onCycle(servedLanes, served);
  }
}

template <bool CheckBanks>
uint32_t CppLdsBankArbiter::groupSlots(const LdsBankRequest& req, const LdsLaneGroups& lg,
                                       uint32_t firstLane, uint64_t lanes,
                                       std::array<uint32_t, 32>& slotDword, bool& conflict) {
  const uint32_t perElement = std::max<uint32_t>(1, req.dwordsPerElement);
  const uint32_t elements = std::max<uint32_t>(1, req.elementsPerLane);
  uint32_t pending = 0;
  for (uint64_t l = lanes; l; l &= l - 1) {
    const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(l));
    const auto& a = req.addr[firstLane + i];
    uint32_t slot = i << lg.slotShift;  // the lane's dwords, element by element
    for (uint32_t e = 0; e < elements; ++e) {
      for (uint32_t d = 0; d < perElement; ++d, ++slot) {
        const uint32_t dword = a[e] / 4 + d;
        slotDword[slot] = dword;
        pending |= 1u << slot;
        if (CheckBanks) {
          const uint32_t bank = bankOf(dword);
          if (bankEpoch_[bank] != epoch_)
            bankEpoch_[bank] = epoch_, bankDword_[bank] = dword;
          else
            conflict |= bankDword_[bank] != dword;
        }
      }
    }
  }
  return pending;
}

LdsBankSchedule CppLdsBankArbiter::schedule(const LdsBankRequest& req) {
  LdsBankSchedule out;
  const LdsLaneGroups lg = LdsLaneGroups::of(req.dwordsPerElement, req.elementsPerLane);
  out.servedLanes.reserve(lg.groups);
  out.servedSlots.reserve(lg.groups);

  // Every request slot's dword, for the group being served.
  std::array<uint32_t, 32> slotDword{};
  const uint64_t groupLanes = lg.lanesPerGroup >= 64 ? ~0ull : (1ull << lg.lanesPerGroup) - 1;
  uint32_t activeGroups = 0;
  for (uint32_t g = 0; g < lg.groups; ++g) {
    const uint32_t firstLane = g * lg.lanesPerGroup;
    const uint64_t lanes = (req.laneMask >> firstLane) & groupLanes;
    if (lanes == 0) continue;
    ++activeGroups;
    bool unused = false;
    const uint32_t pending = groupSlots<false>(req, lg, firstLane, lanes, slotDword, unused);
    serveGroup(firstLane, lg.slotShift, pending, slotDword,
               [&](uint64_t servedLanes, uint32_t servedSlots) {
                 out.servedLanes.push_back(servedLanes);
                 out.servedSlots.push_back(servedSlots);
                 ++out.cycles;
               });
  }
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

LdsBankCycles CppLdsBankArbiter::cycles(const LdsBankRequest& req) {
  LdsBankCycles out;
  const LdsLaneGroups lg = LdsLaneGroups::of(req.dwordsPerElement, req.elementsPerLane);
  std::array<uint32_t, 32> slotDword{};
  const uint64_t groupLanes = lg.lanesPerGroup >= 64 ? ~0ull : (1ull << lg.lanesPerGroup) - 1;
  uint32_t activeGroups = 0;
  for (uint32_t g = 0; g < lg.groups; ++g) {
    const uint32_t firstLane = g * lg.lanesPerGroup;
    const uint64_t lanes = (req.laneMask >> firstLane) & groupLanes;
    if (lanes == 0) continue;
    ++activeGroups;
    // In the first cycle every bank takes the dword of its lowest slot and serves every slot
    // asking for that dword: if no bank is asked for a second dword, that is all.
    ++epoch_;
    bool conflict = false;
    const uint32_t pending = groupSlots<true>(req, lg, firstLane, lanes, slotDword, conflict);
    if (!conflict) {
      ++out.cycles;
      continue;
    }
    serveGroup(firstLane, lg.slotShift, pending, slotDword,
               [&](uint64_t, uint32_t) { ++out.cycles; });
  }
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

}  // namespace vgpu
