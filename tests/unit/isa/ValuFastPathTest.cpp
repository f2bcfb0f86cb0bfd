// The VALU fast path (Vop.cpp execValuInPlace: operands read in place, the lane body on just the
// active lanes or vectorised over all 64) against the general path on the same programs. The
// general path is forced by MODE.GPR_IDX_EN with no operand enabled in M0[15:12] (the fast path
// leaves VGPR indexing to the general path; with nothing enabled nothing is indexed), so the two
// runs must leave identical waves for every EXEC pattern: partial, sparse, empty, full.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "WaveRunner.h"
#include "isa/FloatMode.h"
#include "isa/Operands.h"
#include "isa/Valu.h"

namespace vgpu::isa::test {
namespace {

struct Outcome {
  StepResult result;
  WaveState wave;
};

uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

Outcome runProgram(const std::string& program, uint64_t exec, bool general, uint32_t vgprs) {
  WaveRunner r(program);
  r.wave.resizeVgprs(vgprs);
  for (int l = 0; l < kWaveSize; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    for (int reg = 1; reg < static_cast<int>(vgprs); ++reg)
      r.v(reg, l) = mix(static_cast<uint32_t>(reg * 64 + l));
    // Carries in every direction: v1 + v2 wraps in some lanes, v3 is all ones in others.
    if (vgprs > 3 && l % 3 == 0) r.v(3, l) = 0xffffffffu;
    if (vgprs > 2 && l % 5 == 0) r.v(2, l) = ~r.v(1, l) + static_cast<uint32_t>(l & 1);
    // 64-bit compares of v[4:5] with v[6:7]: equal high halves, and equal values, in some lanes.
    if (vgprs > 7 && l % 4 == 0) r.v(7, l) = r.v(5, l);
    if (vgprs > 7 && l % 8 == 0) r.v(6, l) = r.v(4, l);
  }
  r.s(0) = 0x12345678u;
  r.s(1) = 0x9abcdef0u;
  r.s(2) = 0x0fedcba9u;
  r.s(3) = 0x40100000u;  // s[2:3] as a double: 4.0000...
  r.wave.exec = exec;
  r.wave.vcc = 0x5a5a5a5a0f0f0f0full;  // the carry-in of the first v_addc
  r.wave.mode = fpmode::kDefault;
  if (general) {
    r.wave.mode |= kModeGprIdxEnable;
    r.wave.m0 = 0;
  }
  Outcome o;
  o.result = r.run();
  o.wave = r.wave;
  o.wave.mode &= ~kModeGprIdxEnable;
  return o;
}

void expectSameWave(const Outcome& fast, const Outcome& general) {
  EXPECT_EQ(fast.result.kind, general.result.kind);
  EXPECT_EQ(fast.result.fault, general.result.fault);
  EXPECT_EQ(fast.wave.pc, general.wave.pc);
  EXPECT_EQ(fast.wave.exec, general.wave.exec);
  EXPECT_EQ(fast.wave.vcc, general.wave.vcc);
  EXPECT_EQ(fast.wave.scc, general.wave.scc);
  EXPECT_EQ(fast.wave.mode, general.wave.mode);
  for (int s = 0; s < kNumSgprs; ++s)
    EXPECT_EQ(fast.wave.sgpr[s], general.wave.sgpr[s]) << "s" << s;
  ASSERT_EQ(fast.wave.vgpr.size(), general.wave.vgpr.size());
  for (size_t i = 0; i < fast.wave.vgpr.size(); ++i) {
    EXPECT_EQ(fast.wave.vgpr[i], general.wave.vgpr[i])
        << "v" << i / kWaveSize << " lane " << i % kWaveSize;
  }
}

// Full, empty, two lanes at the ends, sparse, at the sparse/vectorised limit (32), dense.
const uint64_t kExecPatterns[] = {~0ull,
                                  0ull,
                                  0x8000000000000001ull,
                                  0x0000100000400010ull,
                                  0x00ff00ff00ff00ffull,
                                  0x00ff00ff00ff01ffull,
                                  0xfffffffffffffffeull,
                                  0x7fff0fffff3fffffull};

// The loops over every lane in both builds (SSE2, and AVX2 with FMA where the host has them).
class ValuVectorBuild : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { setLanesAvx2(GetParam()); }
  void TearDown() override { setLanesAvx2(true); }
};

TEST_P(ValuVectorBuild, MatchesTheGeneralPathForEveryExecPattern) {
  for (const uint64_t exec : kExecPatterns) {
    SCOPED_TRACE(testing::Message() << "exec " << std::hex << exec);
    const Outcome fast = runProgram("valu_fast", exec, false, 64);
    const Outcome general = runProgram("valu_fast", exec, true, 64);
    ASSERT_EQ(fast.result.kind, StepKind::EndProgram) << fast.result.fault;
    expectSameWave(fast, general);
  }
}

INSTANTIATE_TEST_SUITE_P(ValuFastPath, ValuVectorBuild, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Avx2" : "Sse2";
                         });

TEST(ValuFastPath, ComputesTheExpectedLanes) {
  // A few results spelled out, so that both paths agreeing on a wrong answer is caught too.
  const Outcome o = runProgram("valu_fast", 0x00000000ffff0000ull, false, 64);
  ASSERT_EQ(o.result.kind, StepKind::EndProgram) << o.result.fault;
  const auto v = [&](int reg, int lane) { return o.wave.v(static_cast<uint32_t>(reg))[lane]; };
  for (int l = 0; l < kWaveSize; ++l) {
    SCOPED_TRACE(l);
    const bool on = l >= 16 && l < 32;
    const uint32_t v1 = mix(64 + static_cast<uint32_t>(l));
    uint32_t v2 = mix(128 + static_cast<uint32_t>(l));
    if (l % 5 == 0) v2 = ~v1 + static_cast<uint32_t>(l & 1);
    const uint32_t v3 = l % 3 == 0 ? 0xffffffffu : mix(192 + static_cast<uint32_t>(l));
    const uint32_t untouched8 = mix(8 * 64 + static_cast<uint32_t>(l));
    EXPECT_EQ(v(8, l), on ? static_cast<uint32_t>(l) + v1 : untouched8);
    if (!on) continue;
    // The carry chain through VCC: v_add_co (v9), v_addc_co (v10), v_subb_co (v14).
    const uint64_t sum9 = static_cast<uint64_t>(v1) + v2;
    EXPECT_EQ(v(9, l), static_cast<uint32_t>(sum9));
    const uint64_t sum10 = static_cast<uint64_t>(v2) + v3 + (sum9 >> 32);
    EXPECT_EQ(v(10, l), static_cast<uint32_t>(sum10));
    const uint64_t diff14 = static_cast<uint64_t>(v3) - v1 - (sum10 >> 32);
    EXPECT_EQ(v(14, l), static_cast<uint32_t>(diff14));
    // v_mad_u64_u32 v[16:17], s[16:17], v1, v2, v[2:3]
    const uint64_t pair23 = v2 | (static_cast<uint64_t>(v3) << 32);
    const uint64_t mad = static_cast<uint64_t>(v1) * v2 + pair23;
    EXPECT_EQ(v(16, l), static_cast<uint32_t>(mad));
    EXPECT_EQ(v(17, l), static_cast<uint32_t>(mad >> 32));
    // v_mad_u64_u32 v[2:3], ..., v2, 3, v[2:3]: the source pair is the destination.
    const uint64_t mad3 = static_cast<uint64_t>(v2) * 3 + pair23;
    EXPECT_EQ(v(18, l), static_cast<uint32_t>(mad3 >> 1));
    EXPECT_EQ(v(36, l), (static_cast<uint32_t>(l) << 2) | 3);
    EXPECT_EQ(v(38, l), 0x9abcdef0u);
    // v1 doubled by then: shifts by a constant and by s0 (0x12345678: 24), a multiply by s0.
    const uint32_t doubled = 2 * v1;
    EXPECT_EQ(v(46, l), doubled << 3);
    EXPECT_EQ(v(48, l), doubled >> 24);
    EXPECT_EQ(v(58, l), doubled * 0x12345678u);
  }
  // v_add_co_u32_e64 v11, s[10:11], v1, v3: the carry-out mask of the active lanes only.
  uint64_t carry = 0;
  for (int l = 16; l < 32; ++l) {
    const uint32_t v1 = mix(64 + static_cast<uint32_t>(l));
    const uint32_t v3 = l % 3 == 0 ? 0xffffffffu : mix(192 + static_cast<uint32_t>(l));
    if (static_cast<uint64_t>(v1) + v3 > 0xffffffffull) carry |= 1ull << l;
  }
  EXPECT_EQ(o.wave.sgpr[10] | (static_cast<uint64_t>(o.wave.sgpr[11]) << 32), carry);
}

TEST(ValuFastPath, VgprPairAtTheEndOfTheAllocation) {
  // v[6:7] is the last pair of 8 VGPRs and runs; v[7:8] faults, identically in both paths, with
  // PC on the faulting instruction and everything before it done.
  for (const uint64_t exec : kExecPatterns) {
    SCOPED_TRACE(testing::Message() << "exec " << std::hex << exec);
    const Outcome fast = runProgram("valu_pair_end", exec, false, 8);
    const Outcome general = runProgram("valu_pair_end", exec, true, 8);
    ASSERT_EQ(fast.result.kind, StepKind::Fault);
    EXPECT_EQ(fast.result.fault, "VGPR operand out of the wave's allocation");
    expectSameWave(fast, general);
  }
}

TEST(ValuFastPath, DestinationPastTheAllocationFaultsAsTheGeneralPath) {
  for (const uint64_t exec : kExecPatterns) {
    SCOPED_TRACE(testing::Message() << "exec " << std::hex << exec);
    const Outcome fast = runProgram("valu_dst_past_end", exec, false, 8);
    const Outcome general = runProgram("valu_dst_past_end", exec, true, 8);
    ASSERT_EQ(fast.result.kind, StepKind::Fault);
    EXPECT_EQ(fast.result.fault, "VGPR destination out of the wave's allocation");
    expectSameWave(fast, general);
  }
}

}  // namespace
}  // namespace vgpu::isa::test
