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
// Calls visit(firstLane, lanes) for every lane group with an active lane, in order; returns how
// many there were (each needs at least one cycle, so the rest are conflict cycles).
template <typename Visit>
uint32_t forEachActiveGroup(const LdsBankRequest& req, const LdsLaneGroups& lg, Visit&& visit) {
  const uint64_t groupLanes = lg.lanesPerGroup >= 64 ? ~0ull : (1ull << lg.lanesPerGroup) - 1;
  uint32_t activeGroups = 0;
  for (uint32_t g = 0; g < lg.groups; ++g) {
    const uint32_t firstLane = g * lg.lanesPerGroup;
    const uint64_t lanes = (req.laneMask >> firstLane) & groupLanes;
    if (lanes == 0) continue;
    ++activeGroups;
    visit(firstLane, lanes);
  }
  return activeGroups;
}

}  // namespace

uint32_t CppLdsBankArbiter::groupCycles(const LdsBankRequest& req, const LdsLaneGroups& lg,
                                        uint32_t firstLane, uint64_t lanes) {
  // Every cycle, each bank with slots still waiting serves one of their distinct dwords (and
  // every slot asking for it): the group takes as many cycles as the busiest bank has
  // distinct dwords.
  const uint32_t perElement = std::max<uint32_t>(1, req.dwordsPerElement);
  const uint32_t elements = std::max<uint32_t>(1, req.elementsPerLane);
  // Locals: the stores into the bank tables below could alias the members.
  const uint32_t banks = banks_, bankMask = bankMask_;
  auto bankOfDword = [&](uint32_t dword) { return bankMask ? dword & bankMask : dword % banks; };
  // One dword per lane (b8, b16, b32 accesses, atomics), banks a power of two up to 64: the
  // lanes' banks in a mask first (no two alike: one cycle); else each dword counted once for its
  // bank, telling a repeat by a bitmap of the dwords seen, which is cleared word by word after.
  if (perElement == 1 && elements == 1 && bankMask != 0 && banks <= 64) {
    uint32_t dwords[64];
    uint32_t n = 0;
    uint64_t asked = 0;
    bool overlap = false, inBitmap = true;
    for (uint64_t l = lanes; l; l &= l - 1) {
      const uint32_t dword = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))][0] / 4;
      const uint64_t bank = uint64_t{1} << (dword & bankMask);
      overlap |= (asked & bank) != 0;
      asked |= bank;
      inBitmap &= dword < kSeenDwords;
      dwords[n++] = dword;
    }
    if (!overlap) return 1;
    if (inBitmap) {
      const uint64_t epoch = ++epoch_;
      uint64_t* bankEpoch = bankEpoch_.data();
      uint32_t* bankDistinct = bankDistinct_.data();
      uint64_t* seen = seenDwords_.data();
      uint32_t cycles = 1, distinctDwords = 0;
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t dword = dwords[k];
        const uint64_t bit = uint64_t{1} << (dword & 63);
        if (seen[dword >> 6] & bit) continue;  // a broadcast: the bank serves it once
        seen[dword >> 6] |= bit;
        dwords[distinctDwords++] = dword;  // (k >= distinctDwords: nothing unread is lost)
        const uint32_t bank = dword & bankMask;
        const uint32_t distinct = bankEpoch[bank] == epoch ? bankDistinct[bank] + 1 : 1;
        bankEpoch[bank] = epoch, bankDistinct[bank] = distinct;
        cycles = std::max(cycles, distinct);
      }
      for (uint32_t k = 0; k < distinctDwords; ++k) seen[dwords[k] >> 6] = 0;
      return cycles;
    }
  }
  // Every lane asking for the same addresses as the first (a broadcast, as a row of a tile read
  // by all the lanes of a row of threads): the group takes what the first lane alone takes.
  if ((lanes & (lanes - 1)) != 0) {
    const uint32_t first = firstLane + static_cast<uint32_t>(__builtin_ctzll(lanes));
    const auto& a0 = req.addr[first];
    bool same = true;
    for (uint64_t l = lanes & (lanes - 1); l && same; l &= l - 1) {
      const auto& a = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))];
      same = a[0] == a0[0] && (elements == 1 || a[1] == a0[1]);
    }
    if (same) return groupCycles(req, lg, firstLane, lanes & ~(lanes - 1));
  }
  // Usually no two lanes ask for the same bank at all: one cycle. With 32 banks or fewer (a
  // power of two), an element's dwords take consecutive banks, so each element marks a run of
  // bits (wrapping around) in a bank mask.
  if (banks == 32 && perElement <= 32) {  // the GCN LDS: a rotation of a 32-bit run
    const uint32_t run = perElement == 32 ? ~0u : (1u << perElement) - 1;
    auto asks = [run](uint32_t address) {
      const uint32_t bank = (address / 4) & 31;
      return bank == 0 ? run : (run << bank | run >> (32 - bank));
    };
    uint32_t asked = 0, repeated = 0;
    if (elements == 1) {
      for (uint64_t l = lanes; l; l &= l - 1) {
        const uint32_t banksAsked =
            asks(req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))][0]);
        repeated |= asked & banksAsked;
        asked |= banksAsked;
      }
    } else {
      for (uint64_t l = lanes; l; l &= l - 1) {
        const auto& a = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))];
        for (uint32_t e = 0; e < elements; ++e) {
          const uint32_t banksAsked = asks(a[e]);
          repeated |= asked & banksAsked;
          asked |= banksAsked;
        }
      }
    }
    if (repeated == 0) return 1;
  } else if (bankMask != 0 && banks <= 32 && perElement <= banks) {
    const uint64_t run = (uint64_t{1} << perElement) - 1;
    const uint64_t all = (uint64_t{1} << banks) - 1;
    uint64_t asked = 0;
    bool overlap = false;
    for (uint64_t l = lanes; l; l &= l - 1) {
      const auto& a = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))];
      for (uint32_t e = 0; e < elements; ++e) {
        const uint64_t shifted = run << ((a[e] / 4) & bankMask);
        const uint64_t banksAsked = (shifted | shifted >> banks) & all;
        overlap |= (asked & banksAsked) != 0;
        asked |= banksAsked;
      }
    }
    if (!overlap) return 1;
  }
  // Otherwise the distinct dwords of each bank (bankDwords_, 32 places per bank) and how many
  // (bankDistinct_), for the banks this group has asked (bankEpoch_).
  const uint64_t epoch = ++epoch_;
  uint32_t cycles = 1;  // the group has a lane
  uint64_t* bankEpoch = bankEpoch_.data();
  uint32_t* bankDistinct = bankDistinct_.data();
  uint32_t* bankDwords = bankDwords_.data();
  for (uint64_t l = lanes; l; l &= l - 1) {
    const auto& a = req.addr[firstLane + static_cast<uint32_t>(__builtin_ctzll(l))];
    for (uint32_t e = 0; e < elements; ++e) {
      for (uint32_t d = 0; d < perElement; ++d) {
        const uint32_t dword = a[e] / 4 + d;
        const uint32_t bank = bankOfDword(dword);
        uint32_t* seen = &bankDwords[static_cast<size_t>(bank) * 32];
        if (bankEpoch[bank] != epoch) {  // the bank's first dword
          bankEpoch[bank] = epoch, bankDistinct[bank] = 1, seen[0] = dword;
          continue;
        }
        const uint32_t n = bankDistinct[bank];
        if (seen[0] == dword || std::find(seen + 1, seen + n, dword) != seen + n) continue;
        seen[n] = dword;
        bankDistinct[bank] = n + 1;
        cycles = std::max(cycles, n + 1);
      }
    }
  }
  return cycles;
}

LdsBankSchedule CppLdsBankArbiter::schedule(const LdsBankRequest& req) {
  LdsBankSchedule out;
  const LdsLaneGroups lg = LdsLaneGroups::of(req.dwordsPerElement, req.elementsPerLane);
  out.servedLanes.reserve(lg.groups);
  out.servedSlots.reserve(lg.groups);

  // Every request slot's dword, for the group being served.
  std::array<uint32_t, 32> slotDword{};
  const uint32_t activeGroups =
      forEachActiveGroup(req, lg, [&](uint32_t firstLane, uint64_t lanes) {
        const uint32_t pending = groupSlots(req, lg, firstLane, lanes, slotDword);
        serveGroup(firstLane, lg.slotShift, pending, slotDword,
                   [&](uint64_t servedLanes, uint32_t servedSlots) {
                     out.servedLanes.push_back(servedLanes);
                     out.servedSlots.push_back(servedSlots);
                     ++out.cycles;
                   });
      });
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

LdsBankCycles CppLdsBankArbiter::cycles(const LdsBankRequest& req) {
  LdsBankCycles out;
  const LdsLaneGroups lg = LdsLaneGroups::of(req.dwordsPerElement, req.elementsPerLane);
  const uint32_t activeGroups =
      forEachActiveGroup(req, lg, [&](uint32_t firstLane, uint64_t lanes) {
        out.cycles += groupCycles(req, lg, firstLane, lanes);
      });
  out.conflictCycles = out.cycles - std::min(out.cycles, activeGroups);
  return out;
}

}  // namespace vgpu
