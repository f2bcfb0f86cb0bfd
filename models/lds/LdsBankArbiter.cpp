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

namespace {
// Every request slot's dword for the lanes of one group; returns the slots requested.
uint32_t groupSlots(const LdsBankRequest& req, const LdsLaneGroups& lg, uint32_t firstLane,
                    uint64_t lanes, std::array<uint32_t, 32>& slotDword) {
  const uint32_t perElement = std::max<uint32_t>(1, req.dwordsPerElement);
  const uint32_t elements = std::max<uint32_t>(1, req.elementsPerLane);
  uint32_t pending = 0;
  for (uint64_t l = lanes; l; l &= l - 1) {
    const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(l));
    const auto& a = req.addr[firstLane + i];
    uint32_t slot = i << lg.slotShift;  // the lane's dwords, element by element
    for (uint32_t e = 0; e < elements; ++e) {
      for (uint32_t d = 0; d < perElement; ++d, ++slot) {
        slotDword[slot] = a[e] / 4 + d;
        pending |= 1u << slot;
      }
    }
  }
  return pending;
}
}  // namespace

uint32_t CppLdsBankArbiter::groupCycles(const LdsBankRequest& req, const LdsLaneGroups& lg,
                                        uint32_t firstLane, uint64_t lanes) {
  // Every cycle, each bank with slots still waiting serves one of their distinct dwords (and
  // every slot asking for it): the group takes as many cycles as the busiest bank has
  // distinct dwords.
  const uint32_t perElement = std::max<uint32_t>(1, req.dwordsPerElement);
  const uint32_t elements = std::max<uint32_t>(1, req.elementsPerLane);
  auto forEachDword = [&](auto f) {
    for (uint64_t l = lanes; l; l &= l - 1) {
      const auto& a = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))];
      for (uint32_t e = 0; e < elements; ++e)
        for (uint32_t d = 0; d < perElement; ++d)
          if (!f(a[e] / 4 + d)) return false;
    }
    return true;
  };
  // Usually no bank is asked for two different dwords: one cycle, found with the banks asked
  // so far in a bit mask.
  if (banks_ <= 64) {
    uint64_t asked = 0;
    const bool oneCycle = forEachDword([&](uint32_t dword) {
      const uint32_t bank = bankOf(dword);
      const uint64_t bit = uint64_t{1} << bank;
      if (!(asked & bit)) {
        asked |= bit;
        bankDword_[bank] = dword;
        return true;
      }
      return bankDword_[bank] == dword;
    });
    if (oneCycle) return 1;
  }
  // Otherwise the distinct dwords of each bank (bankDwords_, 32 places per bank) and how many
  // (bankDistinct_), for the banks this group has asked (bankEpoch_).
  ++epoch_;
  uint32_t cycles = 1;  // the group has a lane
  forEachDword([&](uint32_t dword) {
    const uint32_t bank = bankOf(dword);
    uint32_t* seen = &bankDwords_[static_cast<size_t>(bank) * 32];
    if (bankEpoch_[bank] != epoch_) {  // the bank's first dword
      bankEpoch_[bank] = epoch_, bankDistinct_[bank] = 1, seen[0] = dword;
      return true;
    }
    const uint32_t n = bankDistinct_[bank];
    if (seen[0] == dword || std::find(seen + 1, seen + n, dword) != seen + n) return true;
    seen[n] = dword;
    bankDistinct_[bank] = n + 1;
    cycles = std::max(cycles, n + 1);
    return true;
  });
  return cycles;
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
    const uint32_t pending = groupSlots(req, lg, firstLane, lanes, slotDword);
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
  const uint64_t groupLanes = lg.lanesPerGroup >= 64 ? ~0ull : (1ull << lg.lanesPerGroup) - 1;
  uint32_t activeGroups = 0;
  for (uint32_t g = 0; g < lg.groups; ++g) {
    const uint32_t firstLane = g * lg.lanesPerGroup;
    const uint64_t lanes = (req.laneMask >> firstLane) & groupLanes;
    if (lanes == 0) continue;
    ++activeGroups;
    out.cycles += groupCycles(req, lg, firstLane, lanes);
  }
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

}  // namespace vgpu
