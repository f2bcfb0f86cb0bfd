// CppLdsBankArbiter (plain C++). Expected values come from the rules in LdsBankArbiter.h:
// 32 banks of 4 bytes, bank = dword % 32; a wave is served in groups of 32 / S lanes (S = the
// dwords a lane accesses, rounded up to a power of two: half-waves for b32, quarter-waves for
// b64 and read2_b32, 8 lanes for b96, b128 and read2_b64) with all of a lane's dwords together;
// lanes on the same dword are served together, distinct dwords in one bank one per cycle.
// Cycle counts in the directed tests are worked out by hand in their comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <map>
#include <set>

#include "lds/LdsBankArbiter.h"

namespace vgpu {
namespace {

constexpr uint64_t kAllLanes = ~0ull;
constexpr uint64_t kLowHalf = 0xffffffffull;

LdsBankRequest request(uint64_t mask, uint8_t dwords = 1, uint8_t elements = 1) {
  LdsBankRequest r;
  r.laneMask = mask;
  r.dwordsPerElement = dwords;
  r.elementsPerLane = elements;
  return r;
}

// Lane l at byte address base + l * strideBytes (element 0), and offset1 further (element 1).
LdsBankRequest strided(uint64_t mask, uint32_t strideBytes, uint8_t dwords = 1,
                       uint8_t elements = 1, uint32_t offset1 = 0, uint32_t base = 0) {
  LdsBankRequest r = request(mask, dwords, elements);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = base + l * strideBytes;
    r.addr[l][1] = r.addr[l][0] + offset1;
  }
  return r;
}

// The rule, computed independently of the arbiter's slot bookkeeping: the lanes of a wave in
// groups of 32 / S, S = dwords per lane rounded up to a power of two; every group with an active
// lane takes as many cycles as its busiest bank has distinct dwords.
uint32_t lanesPerGroup(const LdsBankRequest& r) {
  const uint32_t d = r.dwordsPerElement * r.elementsPerLane;
  return d == 1 ? 32 : d == 2 ? 16 : d <= 4 ? 8 : 4;
}

uint32_t laneDword(const LdsBankRequest& r, int lane, uint32_t j) {
  return r.addr[lane][j / r.dwordsPerElement] / 4 + j % r.dwordsPerElement;
}

uint32_t expectedCycles(const LdsBankRequest& r, uint32_t banks = 32) {
  const uint32_t g = lanesPerGroup(r), d = r.dwordsPerElement * r.elementsPerLane;
  uint32_t cycles = 0;
  for (uint32_t first = 0; first < 64; first += g) {
    std::map<uint32_t, std::set<uint32_t>> dwordsPerBank;
    for (uint32_t lane = first; lane < first + g; ++lane)
      if ((r.laneMask >> lane) & 1)
        for (uint32_t j = 0; j < d; ++j) {
          const uint32_t dword = laneDword(r, lane, j);
          dwordsPerBank[dword % banks].insert(dword);
        }
    size_t worst = 0;
    for (const auto& [bank, dwords] : dwordsPerBank) worst = std::max(worst, dwords.size());
    cycles += static_cast<uint32_t>(worst);
  }
  return cycles;
}

// Each cycle serves slots of one group only; every dword of every active lane is served
// exactly once, no inactive lane ever; servedLanes are the lanes of the served slots; in a
// cycle each bank serves one dword (served slots that share a bank share the dword).
void checkSchedule(const LdsBankRequest& r, const LdsBankSchedule& s, uint32_t banks = 32) {
  ASSERT_EQ(s.servedLanes.size(), s.cycles);
  ASSERT_EQ(s.servedSlots.size(), s.cycles);
  const uint32_t g = lanesPerGroup(r), d = r.dwordsPerElement * r.elementsPerLane;
  const uint32_t slotsPerLane = 32 / g;
  std::map<std::pair<int, uint32_t>, int> times;  // (lane, dword of the lane) -> served
  for (size_t c = 0; c < s.cycles; ++c) {
    const uint64_t lanes = s.servedLanes[c];
    ASSERT_NE(lanes, 0u) << "cycle " << c << " serves no lane";
    const uint32_t first = (__builtin_ctzll(lanes) / g) * g;
    EXPECT_EQ(lanes & ~(((g == 64 ? 0 : (1ull << g)) - 1) << first), 0u)
        << "cycle " << c << " serves lanes of two groups";
    uint64_t fromSlots = 0;
    std::map<uint32_t, uint32_t> bankDword;
    for (uint32_t slot = 0; slot < 32; ++slot) {
      if (!((s.servedSlots[c] >> slot) & 1)) continue;
      const int lane = static_cast<int>(first + slot / slotsPerLane);
      const uint32_t j = slot % slotsPerLane;
      EXPECT_LT(j, d) << "slot " << slot << " is not a dword of its lane";
      EXPECT_TRUE((r.laneMask >> lane) & 1) << "inactive lane " << lane << " served";
      fromSlots |= 1ull << lane;
      ++times[{lane, j}];
      const uint32_t dword = laneDword(r, lane, j);
      auto [it, inserted] = bankDword.emplace(dword % banks, dword);
      EXPECT_TRUE(inserted || it->second == dword)
          << "bank " << dword % banks << " serves two dwords in cycle " << c;
    }
    EXPECT_EQ(fromSlots, lanes) << "cycle " << c;
  }
  for (int lane = 0; lane < 64; ++lane)
    for (uint32_t j = 0; j < d; ++j)
      EXPECT_EQ((times[{lane, j}]), ((r.laneMask >> lane) & 1) ? 1 : 0)
          << "lane " << lane << " dword " << j;
}

TEST(LdsBankArbiter, ConsecutiveDwordsTakeOneCyclePerHalfWave) {
  const LdsBankRequest r = strided(kAllLanes, 4);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 0u);
  ASSERT_EQ(s.servedLanes.size(), 2u);
  EXPECT_EQ(s.servedLanes[0], kLowHalf);
  EXPECT_EQ(s.servedLanes[1], ~kLowHalf);
  EXPECT_EQ(s.servedSlots[0], 0xffffffffu);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, SameDwordIsBroadcast) {
  const LdsBankRequest r = strided(kAllLanes, 0, 1, 1, 0, 0x100);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, BytesOfTheSameDwordAreBroadcast) {
  LdsBankRequest r = request(kLowHalf);
  for (int l = 0; l < 32; ++l) r.addr[l][0] = 0x40 + l % 4;  // b8 accesses inside one dword
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, Stride32DwordsSerialisesEveryLane) {
  const LdsBankRequest r = strided(kAllLanes, 128);  // all in bank 0, distinct dwords
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 64u);
  EXPECT_EQ(s.conflictCycles, 62u);
  checkSchedule(r, s);
  for (uint64_t served : s.servedLanes) EXPECT_EQ(std::bitset<64>(served).count(), 1u);
}

TEST(LdsBankArbiter, Stride2DwordsIsATwoWayConflict) {
  const LdsBankRequest r = strided(kAllLanes, 8);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 2u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, HalfWavesAreResolvedSeparately) {
  // Lane l and lane l + 32 hit the same bank with different dwords: no conflict, because
  // they are in different half-waves.
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 4 * (l % 32) + (l >= 32 ? 128 : 0);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  checkSchedule(r, s);
}

// b64: quarter-waves of 16 lanes x 2 dwords.
TEST(LdsBankArbiter, B64ConsecutiveIsConflictFree) {
  // Lane l at dwords 2l, 2l+1: a quarter-wave covers dwords 0..31 of its 32-dword row once:
  // 1 cycle per quarter-wave, 4 in all.
  const LdsBankRequest r = strided(kAllLanes, 8, 2);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 0u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  ASSERT_EQ(s.servedLanes.size(), 4u);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(s.servedLanes[q], 0xffffull << (16 * q));
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B64StrideFourDwordsIsATwoWayConflict) {
  // Lane i of a quarter-wave at dwords 4i, 4i+1 (i < 16): banks 4i % 32 and 4i+1, so lanes i
  // and i+8 share both banks with distinct dwords: 2 cycles per quarter-wave, 8 in all, 1
  // conflict cycle per quarter-wave.
  const LdsBankRequest r = strided(kAllLanes, 16, 2);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 4u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B64BroadcastTakesOneCyclePerQuarterWave) {
  // Every lane reads dwords 0x40/4 and +1: two banks, one dword each: 4 cycles.
  const LdsBankRequest r = strided(kAllLanes, 0, 2, 1, 0, 0x40);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B64QuarterWavesWithoutActiveLanesTakeNoCycle) {
  // Lanes 0-15 and 32-47: quarter-waves 0 and 2, conflict-free: 2 cycles.
  LdsBankRequest r = request(0x0000ffff0000ffffull, 2);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 8 * (l % 32);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

// b128: groups of 8 lanes x 4 dwords.
TEST(LdsBankArbiter, B128ConsecutiveIsConflictFree) {
  // Lane l at dwords 4l..4l+3: 8 lanes cover the 32 banks once: 1 cycle per group, 8 in all.
  const LdsBankRequest r = strided(kAllLanes, 16, 4);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 0u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  ASSERT_EQ(s.servedSlots.size(), 8u);
  for (int g = 0; g < 8; ++g) {
    EXPECT_EQ(s.servedLanes[g], 0xffull << (8 * g));
    EXPECT_EQ(s.servedSlots[g], 0xffffffffu);
  }
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B128StrideEightDwordsIsATwoWayConflict) {
  // Lane i of a group at dwords 8i..8i+3 (i < 8): lanes i and i+4 use the same 4 banks with
  // distinct dwords: 2 cycles per group, 16 in all, 8 conflict cycles.
  const LdsBankRequest r = strided(kAllLanes, 32, 4);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 16u);
  EXPECT_EQ(s.conflictCycles, 8u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B128Stride32DwordsIsAnEightWayConflict) {
  // Every lane at dwords 32l..32l+3: banks 0-3 for all 8 lanes of a group: 8 cycles per group,
  // 64 in all, 56 conflict cycles.
  const LdsBankRequest r = strided(kAllLanes, 128, 4);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 64u);
  EXPECT_EQ(s.conflictCycles, 56u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B128BroadcastTakesOneCyclePerGroup) {
  const LdsBankRequest r = strided(kAllLanes, 0, 4, 1, 0, 0x40);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, B96IsServedInGroupsOfEightLanes) {
  // Packed (12 bytes per lane): a group covers dwords 24g..24g+23, distinct banks: 8 cycles.
  // At a 16-byte stride: dwords 4i..4i+2, distinct banks: 8 cycles as well.
  for (uint32_t stride : {12u, 16u}) {
    const LdsBankRequest r = strided(kAllLanes, stride, 3);
    const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
    EXPECT_EQ(s.cycles, 8u) << "stride " << stride;
    EXPECT_EQ(s.conflictCycles, 0u) << "stride " << stride;
    checkSchedule(r, s);
  }
}

// read2/write2: both elements of a lane together.
TEST(LdsBankArbiter, Read2B32WithAdjacentOffsetsIsConflictFreeAsB64) {
  // ds_read2_b32 offset1:1, lane l at 8l: dwords 2l and 2l+1, as b64: 4 cycles.
  const LdsBankRequest r = strided(kAllLanes, 8, 1, 2, 4);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, Read2B32RowsApartShareTheirBanks) {
  // Lane l at dwords l and l + 256: in a quarter-wave lane i needs bank i twice (distinct
  // dwords): 2 cycles per quarter-wave, 8 in all.
  const LdsBankRequest r = strided(kAllLanes, 4, 1, 2, 1024);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 4u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, Read2ConflictingElement) {
  // Element 0 at dword l, element 1 at dword 32l (bank 0 for every lane, distinct dwords).
  // Quarter-wave 0: bank 0 serves dwords 0 (lane 0, both elements), 32, ..., 480: 16 cycles.
  // Quarter-wave 1: element 0 on banks 16-31, element 1 on bank 0: 16 cycles. Quarter-wave 2:
  // element 0 of lane 32 is dword 32, bank 0 too: 17 distinct dwords there, 17 cycles.
  // Quarter-wave 3: 16. 65 cycles, 61 of them conflict cycles.
  LdsBankRequest r = request(kAllLanes, 1, 2);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = 4 * l;
    r.addr[l][1] = 128 * l;
  }
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 65u);
  EXPECT_EQ(s.conflictCycles, 61u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, Read2B64IsServedAsB128) {
  // ds_read2_b64 offset1:1, lane l at 16l: 4 consecutive dwords per lane: 8 cycles.
  const LdsBankRequest r = strided(kAllLanes, 16, 2, 2, 8);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, ALaneWhoseTwoElementsShareADwordIsServedOnce) {
  // offset0 == offset1: both slots of a lane want one dword: broadcast.
  const LdsBankRequest r = strided(kAllLanes, 4, 1, 2, 0);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, NoActiveLaneTakesNoCycle) {
  for (uint8_t dwords = 1; dwords <= 4; ++dwords) {
    const LdsBankSchedule s = CppLdsBankArbiter().schedule(request(0, dwords, 2));
    EXPECT_EQ(s.cycles, 0u);
    EXPECT_EQ(s.conflictCycles, 0u);
    EXPECT_TRUE(s.servedLanes.empty());
  }
}

TEST(LdsBankArbiter, OneLaneTakesOneCycle) {
  LdsBankRequest r = request(1ull << 37, 4);
  r.addr[37][0] = 0x1230;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  ASSERT_EQ(s.servedLanes.size(), 1u);
  EXPECT_EQ(s.servedLanes[0], 1ull << 37);
  EXPECT_EQ(s.servedSlots[0], 0xfu << (4 * (37 % 8)));  // lane 5 of group 4
}

TEST(LdsBankArbiter, InactiveLanesDoNotConflict) {
  // Only even lanes active; odd lanes' addresses would all conflict in bank 0.
  LdsBankRequest r = request(0x5555555555555555ull);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = (l % 2) ? 128 * l : 4 * l;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  checkSchedule(r, s);
}

TEST(LdsBankArbiter, BroadcastAndConflictMix) {
  LdsBankRequest r = request(0x7);  // lanes 0, 1 on dword 0; lane 2 on dword 32 (bank 0)
  r.addr[0][0] = 0;
  r.addr[1][0] = 0;
  r.addr[2][0] = 128;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 1u);
  checkSchedule(r, s);
  ASSERT_EQ(s.servedLanes.size(), 2u);
  // The lowest lane's dword goes first.
  EXPECT_EQ(s.servedLanes[0], 0x3u);
  EXPECT_EQ(s.servedLanes[1], 0x4u);
}

TEST(LdsBankArbiter, PseudoRandomAccessesFollowTheRules) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  for (int round = 0; round < 400; ++round) {
    LdsBankRequest r =
        request((uint64_t{next()} << 32) | next(), static_cast<uint8_t>(1 + round % 4),
                static_cast<uint8_t>(1 + (round / 4) % 2));
    const uint32_t span = 64u << (round % 8);  // from heavy broadcast to heavy conflict
    for (int l = 0; l < 64; ++l) {
      r.addr[l][0] = (next() % span) & ~3u;
      r.addr[l][1] = (next() % span) & ~3u;
    }
    const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
    EXPECT_EQ(s.cycles, expectedCycles(r)) << "round " << round;
    checkSchedule(r, s);
    if (HasFailure()) break;
  }
}

TEST(LdsBankArbiter, CycleCountsAgreeWithTheSchedule) {
  // cycles() counts without recording and takes a conflict-free group as one cycle without
  // the cycle-by-cycle search (a group of one dword per lane by a bitmap of the dwords seen,
  // up to its end): it must give schedule()'s counts, for every bank count.
  uint64_t seed = 0x2545f4914f6cdd1dull;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  for (uint32_t banks : {32u, 16u, 12u, 1u, 128u, 64u}) {
    CppLdsBankArbiter arbiter(banks);
    for (int round = 0; round < 400; ++round) {
      LdsBankRequest r =
          request((uint64_t{next()} << 32) | next(), static_cast<uint8_t>(1 + round % 4),
                  static_cast<uint8_t>(1 + (round / 4) % 2));
      const uint32_t span = 64u << (round % 8);  // from heavy broadcast to heavy conflict
      for (int l = 0; l < 64; ++l) {
        r.addr[l][0] = (next() % span) & ~3u;
        r.addr[l][1] = (next() % span) & ~3u;
      }
      if (round % 5 == 0) r = strided(r.laneMask, 4 * (round % 3), r.dwordsPerElement);
      if (round % 11 == 5)  // every 8 or 16 lanes on the same addresses (broadcast groups)
        for (int l = 0; l < 64; ++l) r.addr[l] = r.addr[l & (round % 2 ? ~7 : ~15)];
      if (round % 7 == 3)  // some lanes far out (out-of-range lanes keep their address)
        for (int l = 0; l < 64; l += 3) r.addr[l][0] += (next() % 8) << 18;
      const LdsBankSchedule s = arbiter.schedule(r);
      const LdsBankCycles c = arbiter.cycles(r);
      EXPECT_EQ(c.cycles, s.cycles) << "banks " << banks << " round " << round;
      EXPECT_EQ(c.conflictCycles, s.conflictCycles) << "banks " << banks << " round " << round;
      if (HasFailure()) return;
    }
  }
}

TEST(LdsBankArbiter, SixteenBanks) {
  const LdsBankRequest r = strided(kLowHalf, 4);  // 32 dwords over 16 banks
  const LdsBankSchedule s = CppLdsBankArbiter(16).schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.cycles, expectedCycles(r, 16));
  checkSchedule(r, s, 16);
}

TEST(LdsBankArbiter, MoreThanSixtyFourBanksAreHandled) {
  // The platform reader accepts any lds.banks >= 1 and the GPU passes it to the arbiter.
  const LdsBankRequest r = strided(kLowHalf, 4, 1, 1, 0, 400);  // banks 100..131 of 128
  const LdsBankSchedule s = CppLdsBankArbiter(128).schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  EXPECT_EQ(s.cycles, expectedCycles(r, 128));
}

}  // namespace
}  // namespace vgpu
