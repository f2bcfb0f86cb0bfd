// The RTL arbiter (Verilated, through RtlLdsBankArbiter) against the C++ arbiter on the same
// requests: identical grant schedules (served lanes and request slots, cycle by cycle), cycle
// counts and conflict cycles. Directed cases, 100,000 random requests, and requests back to back
// through the valid/ready handshake with stalls and gaps.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <systemc>

#include "rtl_cosim/adapter/RtlLdsBankArbiter.h"

namespace vgpu::rtl {
namespace {

// One simulation per process: the adapter is built and elaborated once, on first use.
RtlLdsBankArbiter& rtlArbiter() {
  static RtlLdsBankArbiter* arbiter = [] {
    auto* a = new RtlLdsBankArbiter("arbiter", RtlArbiterOptions{});
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return a;
  }();
  return *arbiter;
}

std::string describe(const LdsBankRequest& r) {
  std::ostringstream os;
  os << "mask 0x" << std::hex << r.laneMask << std::dec << ", " << int(r.dwordsPerElement)
     << " dwords x " << int(r.elementsPerLane) << " elements, addresses";
  for (int l = 0; l < 64; ++l)
    if ((r.laneMask >> l) & 1) {
      os << " " << l << ":" << r.addr[l][0];
      if (r.elementsPerLane > 1) os << "/" << r.addr[l][1];
    }
  return os.str();
}

// Checks one RTL schedule against the C++ arbiter's.
void expectSame(const LdsBankRequest& r, const LdsBankSchedule& rtl) {
  const LdsBankSchedule cpp = CppLdsBankArbiter().schedule(r);
  ASSERT_EQ(rtl.cycles, cpp.cycles) << describe(r);
  ASSERT_EQ(rtl.conflictCycles, cpp.conflictCycles) << describe(r);
  ASSERT_EQ(rtl.servedLanes, cpp.servedLanes) << describe(r);
  ASSERT_EQ(rtl.servedSlots, cpp.servedSlots) << describe(r);
}

void check(const LdsBankRequest& r) {
  expectSame(r, rtlArbiter().schedule(r));
}

LdsBankRequest request(uint64_t mask, uint8_t dwords = 1, uint8_t elements = 1) {
  LdsBankRequest r;
  r.laneMask = mask;
  r.dwordsPerElement = dwords;
  r.elementsPerLane = elements;
  return r;
}

// Lane l at byte address base + l * strideBytes (element 0), and offset1Bytes further (element 1).
LdsBankRequest strided(uint64_t mask, uint32_t strideBytes, uint8_t dwords = 1,
                       uint8_t elements = 1, uint32_t base = 0, uint32_t offset1Bytes = 0) {
  LdsBankRequest r = request(mask, dwords, elements);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = base + l * strideBytes;
    r.addr[l][1] = r.addr[l][0] + offset1Bytes;
  }
  return r;
}

constexpr uint64_t kAll = ~0ull;

TEST(LdsArbiterEquivalence, AllLanesInOneBank) {
  check(strided(kAll, 128));     // 32 dwords apart: 64 cycles
  check(strided(kAll, 4096));    // far apart, still bank 0
  check(strided(kAll, 128, 4));  // b128: the 8 lanes of a group on banks 0-3
}

TEST(LdsArbiterEquivalence, LaneGroupsOfWideAccesses) {
  // Conflict-free (consecutive), two-way and broadcast layouts of b64 (quarter-waves), b96 and
  // b128 (8 lanes), read2_b32 (as b64) and read2_b64 (as b128), with the cycle counts of
  // tests/unit/blocks/LdsBankArbiterTest.cpp.
  struct Case {
    uint32_t stride;
    uint8_t dwords, elements;
    uint32_t offset1, cycles;
  };
  for (const Case& c :
       {Case{8, 2, 1, 0, 4}, Case{16, 2, 1, 0, 8}, Case{0, 2, 1, 0, 4}, Case{12, 3, 1, 0, 8},
        Case{16, 4, 1, 0, 8}, Case{32, 4, 1, 0, 16}, Case{0, 4, 1, 0, 8}, Case{128, 4, 1, 0, 64},
        Case{8, 1, 2, 4, 4}, Case{4, 1, 2, 1024, 8}, Case{16, 2, 2, 8, 8}}) {
    const LdsBankRequest r = strided(kAll, c.stride, c.dwords, c.elements, 0, c.offset1);
    const LdsBankSchedule s = rtlArbiter().schedule(r);
    EXPECT_EQ(s.cycles, c.cycles) << describe(r);
    expectSame(r, s);
    if (HasFailure()) return;
  }
}

TEST(LdsArbiterEquivalence, AllDistinctBanks) {
  check(strided(kAll, 4));
  check(strided(kAll, 4, 1, 1, 0x40));
  check(strided(kAll, 12));  // odd dword stride: a permutation of the banks
}

TEST(LdsArbiterEquivalence, Broadcast) {
  check(strided(kAll, 0));
  check(strided(kAll, 0, 4));
  LdsBankRequest r = request(kAll);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 0x200 + l % 4;  // bytes of one dword
  check(r);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = (l % 2) ? 0x80 : 0x100;  // two dwords, one bank
  check(r);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = 4 * (l % 8) + 128 * (l / 32);  // groups
  check(r);
}

TEST(LdsArbiterEquivalence, StridesZeroToSixtyFourDwords) {
  for (uint32_t stride = 0; stride <= 64; ++stride)
    for (uint8_t dwords = 1; dwords <= 4; ++dwords) {
      check(strided(kAll, 4 * stride, dwords));
      check(strided(0x00ff00ff00ff00ffull, 4 * stride, dwords, 1, 0x44));
      if (HasFailure()) return;
    }
}

TEST(LdsArbiterEquivalence, WideAccesses) {
  for (uint8_t dwords = 1; dwords <= 4; ++dwords)
    for (uint32_t stride : {4u, 8u, 12u, 16u, 32u, 64u, 68u, 132u}) {
      check(strided(kAll, stride, dwords));
      check(strided(kAll, stride, dwords, 1, 0xfc));
      if (HasFailure()) return;
    }
}

TEST(LdsArbiterEquivalence, Read2Write2WithBothOffsets) {
  // ds_read2/write2_b32 and _b64: offset0 and offset1 in elements (4 or 8 bytes), 0..255.
  for (uint8_t dwords : {uint8_t{1}, uint8_t{2}})
    for (uint32_t offset0 : {0u, 1u, 17u, 32u, 255u})
      for (uint32_t offset1 : {0u, 1u, 16u, 32u, 33u, 64u, 255u})
        for (uint32_t stride : {4u, 8u, 128u}) {
          const uint32_t unit = 4u * dwords;
          check(strided(kAll, stride, dwords, 2, offset0 * unit, (offset1 - offset0) * unit));
          if (HasFailure()) return;
        }
}

TEST(LdsArbiterEquivalence, PartialExecMasks) {
  for (uint64_t mask :
       {0x1ull, 0x8000000000000000ull, 0xffffffffull, 0xffffffff00000000ull, 0x5555555555555555ull,
        0xaaaaaaaaaaaaaaaaull, 0x0000000100000001ull, 0x00000000ffff0000ull, 0x8000000000000001ull})
    for (uint32_t stride : {0u, 4u, 8u, 128u}) {
      check(strided(mask, stride));
      check(strided(mask, stride, 2, 2, 0, 512));
    }
  // No active lane: no cycle at all.
  check(strided(0, 4));
  check(strided(0, 4, 4, 2));
}

TEST(LdsArbiterEquivalence, InactiveLanesDoNotCount) {
  LdsBankRequest r = request(0x5555555555555555ull);
  for (int l = 0; l < 64; ++l) r.addr[l][0] = (l % 2) ? 128 * l : 4 * l;
  check(r);
}

// Random requests: masks from full to sparse, widths, read2/write2, address spans from heavy
// broadcast to heavy conflict, strided and random layouts.
LdsBankRequest randomRequest(std::mt19937_64& rng) {
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  LdsBankRequest r;
  switch (pick(6)) {
    case 0:
      r.laneMask = kAll;
      break;
    case 1:
      r.laneMask = rng();
      break;
    case 2:
      r.laneMask = rng() & rng() & rng();
      break;
    case 3:
      r.laneMask = 1ull << pick(64);
      break;
    case 4:
      r.laneMask = pick(2) ? 0xffffffffull : 0xffffffff00000000ull;
      break;
    default:
      r.laneMask = kAll >> pick(64);
      break;
  }
  r.dwordsPerElement = static_cast<uint8_t>(1 + pick(4));
  r.elementsPerLane = static_cast<uint8_t>(1 + (pick(3) == 0));
  const uint32_t span = 4u << pick(14);  // 4 B .. 32 KiB
  const uint32_t base = pick(16384) * 4;
  const bool strided = pick(3) == 0;
  const uint32_t stride = 4 * pick(65), offset1 = pick(2) ? 4 * pick(256) : 8 * pick(256);
  for (int l = 0; l < 64; ++l) {
    r.addr[l][0] = base + (strided ? l * stride : pick(span));
    if (pick(8) == 0) r.addr[l][0] &= ~3u;  // a few byte offsets stay, most are aligned
    r.addr[l][1] = pick(4) ? r.addr[l][0] + offset1 : base + pick(span);
  }
  return r;
}

TEST(LdsArbiterEquivalence, HundredThousandRandomRequests) {
  std::mt19937_64 rng(20240501);
  RtlLdsBankArbiter& rtl = rtlArbiter();
  CppLdsBankArbiter cpp;
  uint64_t cycles = 0, conflicts = 0;
  for (int i = 0; i < 100000; ++i) {
    LdsBankRequest r = randomRequest(rng);
    const LdsBankSchedule a = rtl.schedule(r), b = cpp.schedule(r);
    ASSERT_EQ(a.cycles, b.cycles) << "request " << i << ": " << describe(r);
    ASSERT_EQ(a.conflictCycles, b.conflictCycles) << "request " << i << ": " << describe(r);
    ASSERT_EQ(a.servedLanes, b.servedLanes) << "request " << i << ": " << describe(r);
    cycles += a.cycles;
    conflicts += a.conflictCycles;
  }
  // The mix exercises conflicts and conflict-free requests alike.
  EXPECT_GT(conflicts, cycles / 10);
  EXPECT_LT(conflicts, cycles);
}

TEST(LdsArbiterEquivalence, BackToBackWithStallsAndGaps) {
  // Requests presented while the previous one is still arbitrated wait with req_valid high
  // until req_ready; some follow after idle cycles. Each must get its own C++ schedule.
  std::mt19937_64 rng(7);
  for (int batch = 0; batch < 20; ++batch) {
    std::vector<LdsBankRequest> requests;
    std::vector<uint32_t> gaps;
    for (int i = 0; i < 500; ++i) {
      requests.push_back(randomRequest(rng));
      gaps.push_back(rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 5) : 0);
    }
    const std::vector<LdsBankSchedule> out = rtlArbiter().scheduleStream(requests, gaps);
    ASSERT_EQ(out.size(), requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      expectSame(requests[i], out[i]);
      if (HasFailure()) return;
    }
  }
}

TEST(LdsArbiterEquivalence, TimelineFollowsTheBankReservation) {
  // On its waveform the RTL grants a request from its arrival cycle, or right after the previous
  // request's last grant: the cycles Lds reserves for the banks.
  RtlLdsBankArbiter& rtl = rtlArbiter();
  const uint64_t t = rtl.cycle() + 1000;
  LdsBankRequest r = strided(kAll, 128);  // 64 cycles
  r.cycle = t;
  EXPECT_EQ(rtl.schedule(r).cycles, 64u);
  EXPECT_EQ(rtl.cycle(), t + 63);  // in its last grant cycle
  r.cycle = t + 10;                // arrives while the banks are busy
  EXPECT_EQ(rtl.schedule(r).cycles, 64u);
  EXPECT_EQ(rtl.cycle(), t + 64 + 63);
  r = strided(kAll, 4);
  r.cycle = t + 5000;
  EXPECT_EQ(rtl.schedule(r).cycles, 2u);
  EXPECT_EQ(rtl.cycle(), t + 5001);
}

TEST(LdsArbiterEquivalence, RefusesOtherBankCounts) {
  RtlArbiterOptions o;
  o.banks = 16;
  EXPECT_THROW(RtlLdsBankArbiter("sixteen", o), std::exception);
}

}  // namespace
}  // namespace vgpu::rtl
