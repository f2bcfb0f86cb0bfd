// CppLdsBankArbiter (plain C++). Expected values come from the rules in LdsBankArbiter.h:
// 32 banks of 4 bytes, bank = dword % 32, resolved per half-wave, lanes on the same dword are
// served together, distinct dwords in one bank one per cycle, one pass per dword per element.
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
constexpr uint64_t kHighHalf = 0xffffffff00000000ull;

LdsBankRequest request(uint64_t mask, uint8_t dwords = 1, uint8_t elements = 1) {
  LdsBankRequest r;
  r.laneMask = mask;
  r.dwordsPerElement = dwords;
  r.elementsPerLane = elements;
  return r;
}

// The rule, computed independently: every pass (element, dword, half-wave with active lanes)
// takes as many cycles as the busiest bank has distinct dwords.
uint32_t expectedCycles(const LdsBankRequest& r, uint32_t banks = 32) {
  uint32_t cycles = 0;
  for (int e = 0; e < r.elementsPerLane; ++e)
    for (int d = 0; d < r.dwordsPerElement; ++d)
      for (int half = 0; half < 2; ++half) {
        std::map<uint32_t, std::set<uint32_t>> dwordsPerBank;
        for (int lane = half * 32; lane < half * 32 + 32; ++lane)
          if ((r.laneMask >> lane) & 1) {
            const uint32_t dword = r.addr[lane][e] / 4 + d;
            dwordsPerBank[dword % banks].insert(dword);
          }
        size_t worst = 0;
        for (const auto& [bank, dwords] : dwordsPerBank) worst = std::max(worst, dwords.size());
        cycles += static_cast<uint32_t>(worst);
      }
  return cycles;
}

// Every active lane is served once per pass, no inactive lane ever, one half-wave per cycle.
void checkServedLanes(const LdsBankRequest& r, const LdsBankSchedule& s) {
  ASSERT_EQ(s.servedLanes.size(), s.cycles);
  std::array<int, 64> times{};
  for (uint64_t served : s.servedLanes) {
    EXPECT_NE(served, 0u) << "a cycle that serves no lane";
    EXPECT_EQ(served & ~r.laneMask, 0u) << "inactive lane served";
    EXPECT_TRUE((served & kLowHalf) == 0 || (served & kHighHalf) == 0)
        << "one cycle serves both half-waves";
    for (int lane = 0; lane < 64; ++lane) times[lane] += (served >> lane) & 1;
  }
  const int passes = r.elementsPerLane * r.dwordsPerElement;
  for (int lane = 0; lane < 64; ++lane)
    EXPECT_EQ(times[lane], ((r.laneMask >> lane) & 1) ? passes : 0) << "lane " << lane;
}

// In one cycle a bank serves one dword: served lanes that share a bank share the dword.
void checkNoBankServesTwoDwords(const LdsBankRequest& r, const LdsBankSchedule& s) {
  ASSERT_EQ(r.elementsPerLane, 1);
  ASSERT_EQ(r.dwordsPerElement, 1);
  for (uint64_t served : s.servedLanes) {
    std::map<uint32_t, uint32_t> bankDword;
    for (int lane = 0; lane < 64; ++lane) {
      if (!((served >> lane) & 1)) continue;
      const uint32_t dword = r.addr[lane][0] / 4;
      auto [it, inserted] = bankDword.emplace(dword % 32, dword);
      EXPECT_TRUE(inserted || it->second == dword) << "bank " << dword % 32 << " serves two dwords";
    }
  }
}

TEST(LdsBankArbiter, ConsecutiveDwordsTakeOneCyclePerHalfWave) {
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 4 * l;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 0u);
  ASSERT_EQ(s.servedLanes.size(), 2u);
  EXPECT_EQ(s.servedLanes[0] | s.servedLanes[1], kAllLanes);
  EXPECT_EQ(s.servedLanes[0] & s.servedLanes[1], 0u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, SameDwordIsBroadcast) {
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 0x100;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, BytesOfTheSameDwordAreBroadcast) {
  LdsBankRequest r = request(kLowHalf);
  for (int l = 0; l < 32; ++l) r.addr[l][0] = 0x40 + l % 4;  // b8 accesses inside one dword
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, Stride32DwordsSerialisesEveryLane) {
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 128 * l;  // all in bank 0, distinct dwords
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 64u);
  EXPECT_EQ(s.conflictCycles, 62u);
  checkServedLanes(r, s);
  checkNoBankServesTwoDwords(r, s);
  for (uint64_t served : s.servedLanes) EXPECT_EQ(std::bitset<64>(served).count(), 1u);
}

TEST(LdsBankArbiter, Stride2DwordsIsATwoWayConflict) {
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 8 * l;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 2u);
  checkServedLanes(r, s);
  checkNoBankServesTwoDwords(r, s);
}

TEST(LdsBankArbiter, HalfWavesAreResolvedSeparately) {
  // Lane l and lane l + 32 hit the same bank with different dwords: no conflict, because
  // they are in different half-waves.
  LdsBankRequest r = request(kAllLanes);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 4 * (l % 32) + (l >= 32 ? 128 : 0);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, B64TakesOnePassPerDword) {
  LdsBankRequest r = request(kAllLanes, 2);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 8 * l;
  // Per dword pass, a half-wave touches 16 banks twice each: 2 cycles; 2 dwords x 2 halves.
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 8u);
  EXPECT_EQ(s.conflictCycles, 4u);
  EXPECT_EQ(s.cycles, expectedCycles(r));
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, B64WithSixteenLanesPerHalfHasNoConflict) {
  LdsBankRequest r = request(0x0000ffff0000ffffull, 2);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 8 * (l % 32);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, B128PassesUseTheNextDwords) {
  // Lane l at dword 4l: in pass d every half-wave touches dwords 4l + d, 8 banks x 4 each.
  LdsBankRequest r = request(kAllLanes, 4);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 16 * l;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 32u);  // 4 dwords x 2 halves x 4 cycles
  EXPECT_EQ(s.cycles, expectedCycles(r));
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, Read2TakesOnePassPerElement) {
  LdsBankRequest r = request(kAllLanes, 1, 2);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = 4 * l;
    r.addr[l][1] = 4 * l + 1024;
  }
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 4u);
  EXPECT_EQ(s.conflictCycles, 0u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, Read2ConflictsOnlyInTheConflictingElement) {
  LdsBankRequest r = request(kAllLanes, 1, 2);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = 4 * l;
    r.addr[l][1] = 128 * l;
  }
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u + 64u);
  EXPECT_EQ(s.conflictCycles, 62u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, NoActiveLaneTakesNoCycle) {
  LdsBankRequest r = request(0);
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 0u);
  EXPECT_EQ(s.conflictCycles, 0u);
  EXPECT_TRUE(s.servedLanes.empty());
}

TEST(LdsBankArbiter, OneLaneTakesOneCycle) {
  LdsBankRequest r = request(1ull << 37);
  r.addr[37][0] = 0x1234;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  ASSERT_EQ(s.servedLanes.size(), 1u);
  EXPECT_EQ(s.servedLanes[0], 1ull << 37);
}

TEST(LdsBankArbiter, InactiveLanesDoNotConflict) {
  // Only even lanes active; odd lanes' addresses would all conflict in bank 0.
  LdsBankRequest r = request(0x5555555555555555ull);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = (l % 2) ? 128 * l : 4 * l;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, BroadcastAndConflictMix) {
  LdsBankRequest r = request(0x7);  // lanes 0, 1 on dword 0; lane 2 on dword 32 (bank 0)
  r.addr[0][0] = 0;
  r.addr[1][0] = 0;
  r.addr[2][0] = 128;
  const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.conflictCycles, 1u);
  checkServedLanes(r, s);
  checkNoBankServesTwoDwords(r, s);
  ASSERT_EQ(s.servedLanes.size(), 2u);
  EXPECT_TRUE((s.servedLanes[0] == 0x3 && s.servedLanes[1] == 0x4) ||
              (s.servedLanes[0] == 0x4 && s.servedLanes[1] == 0x3));
}

TEST(LdsBankArbiter, PseudoRandomAccessesFollowTheRules) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  for (int round = 0; round < 200; ++round) {
    LdsBankRequest r = request((uint64_t{next()} << 32) | next());
    const uint32_t span = 64u << (round % 8);  // from heavy broadcast to heavy conflict
    for (int l = 0; l < 64; ++l) r.addr[l][0] = (next() % span) & ~3u;
    const LdsBankSchedule s = CppLdsBankArbiter().schedule(r);
    EXPECT_EQ(s.cycles, expectedCycles(r)) << "round " << round;
    checkServedLanes(r, s);
    checkNoBankServesTwoDwords(r, s);
    if (HasFailure()) break;
  }
}

TEST(LdsBankArbiter, SixteenBanks) {
  LdsBankRequest r = request(kLowHalf);
  for (int l = 0; l < 32; ++l) r.addr[l][0] = 4 * l;  // 32 dwords over 16 banks
  const LdsBankSchedule s = CppLdsBankArbiter(16).schedule(r);
  EXPECT_EQ(s.cycles, 2u);
  EXPECT_EQ(s.cycles, expectedCycles(r, 16));
  checkServedLanes(r, s);
}

TEST(LdsBankArbiter, MoreThanSixtyFourBanksAreHandled) {
  // The platform reader accepts any lds.banks >= 1 and the GPU passes it to the arbiter.
  LdsBankRequest r = request(kLowHalf);
  for (int l = 0; l < 32; ++l) r.addr[l][0] = 4 * (100 + l);  // banks 100..131 of 128
  const LdsBankSchedule s = CppLdsBankArbiter(128).schedule(r);
  EXPECT_EQ(s.cycles, 1u);
  EXPECT_EQ(s.cycles, expectedCycles(r, 128));
}

}  // namespace
}  // namespace vgpu
