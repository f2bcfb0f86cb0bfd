// The hazard checker on hand-written instruction sequences, assembled by llvm-mc-15: for every
// row of table 8 (Vega ISA guide section 4.5, "Required Software-inserted Wait States") the pair
// with no wait state in between, with some but too few, and with enough (no report); then how wait
// states are counted (s_nop N is N+1, any other instruction 1, per wave), which earlier
// instruction is blamed, and how findings are merged and described.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Assemble.h"
#include "isa/HazardChecker.h"
#include "isa/Isa.h"

namespace vgpu::isa {
namespace {

constexpr uint64_t kBase = 0x1000;

// Decodes the source's instructions and lets one wave issue them in order, `times` times.
class Checked {
 public:
  explicit Checked(const std::string& source, int times = 1)
      : program_(Program::decode(assemble(source), kBase, GfxTarget::Gfx906)),
        checker_(GfxTarget::Gfx906) {
    HazardChecker::WaveHistory wave;
    for (int t = 0; t < times; ++t)
      for (const Instruction& inst : program_.instructions()) checker_.observe(wave, inst);
  }
  std::vector<HazardFinding> findings() const { return checker_.findings(); }
  const Program& program() const { return program_; }

 private:
  Program program_;
  HazardChecker checker_;
};

std::string describeAll(const std::vector<HazardFinding>& findings) {
  std::string s;
  for (const auto& f : findings) s += describeHazard(f) + "\n";
  return s.empty() ? "(no findings)" : s;
}

// One row of the table: an instruction (or a few) that starts the hazard, one that completes
// it, and what the row requires between them.
struct RuleCase {
  std::string name;
  HazardRule rule;
  std::string first, second;
  uint32_t required;
  friend void PrintTo(const RuleCase& c, std::ostream* os) { *os << c.name; }
};

class HazardRow : public ::testing::TestWithParam<RuleCase> {};

// No wait state at all: reported once, with both instructions and 0 present.
TEST_P(HazardRow, MissingIsReported) {
  const RuleCase& c = GetParam();
  const Checked run(c.first + "\n" + c.second);
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  const HazardFinding& f = findings[0];
  EXPECT_EQ(f.rule, c.rule) << describeAll(findings);
  EXPECT_EQ(f.required, c.required);
  EXPECT_EQ(f.present, 0u);
  EXPECT_EQ(f.occurrences, 1u);
  const auto& insts = run.program().instructions();
  EXPECT_EQ(f.secondPc, insts.back().pc);
  EXPECT_EQ(f.second, disassemble(insts.back(), GfxTarget::Gfx906));
  EXPECT_EQ(f.firstPc, insts[insts.size() - 2].pc);
  EXPECT_EQ(f.first, disassemble(insts[insts.size() - 2], GfxTarget::Gfx906));
  EXPECT_EQ(hazardRuleInfo(f.rule).waitStates, c.required) << "the table's row says so";
}

// Exactly the required wait states (s_nop N counts N+1): nothing reported.
TEST_P(HazardRow, FullyPresentIsNotReported) {
  const RuleCase& c = GetParam();
  const Checked run(c.first + "\ns_nop " + std::to_string(c.required - 1) + "\n" + c.second);
  EXPECT_TRUE(run.findings().empty()) << describeAll(run.findings());
}

using R = HazardRule;
// One or more cases per row of table 8, in the table's order.
std::vector<RuleCase> rowCases() {
  return {
      RuleCase{"setreg_then_getreg", R::SetregThenGetreg,
               "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
               "s_getreg_b32 s1, hwreg(HW_REG_MODE, 8, 1)", 2},
      RuleCase{"setreg_then_setreg", R::SetregThenSetreg,
               "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3",
               "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s0", 2},
      RuleCase{"setvskip_then_getreg_mode", R::SetvskipThenGetregMode, "s_setvskip s0, s1",
               "s_getreg_b32 s2, hwreg(HW_REG_MODE)", 2},
      RuleCase{"setreg_vskip_then_vector", R::SetregVskipThenVector,
               "s_setreg_b32 hwreg(HW_REG_MODE, 28, 1), s0", "v_mov_b32 v0, v1", 2},
      RuleCase{"setreg_vskip_then_lds", R::SetregVskipThenVector,
               "s_setreg_b32 hwreg(HW_REG_MODE, 24, 8), s0", "ds_read_b32 v0, v1", 2},
      RuleCase{"valu_vcc_then_vccz", R::ValuVccExecThenVcczExecz, "v_cmp_eq_u32 vcc, v0, v1",
               "v_mov_b32 v2, src_vccz", 5},
      RuleCase{"valu_exec_then_execz", R::ValuVccExecThenVcczExecz, "v_cmp_eq_u32_e64 exec, v0, v1",
               "v_mov_b32 v2, src_execz", 5},
      RuleCase{"valu_sgpr_then_readlane", R::ValuSgprThenLaneSelect, "v_readfirstlane_b32 s4, v0",
               "v_readlane_b32 s5, v1, s4", 4},
      RuleCase{"valu_sgpr_then_writelane", R::ValuSgprThenLaneSelect, "v_readlane_b32 s4, v3, 1",
               "v_writelane_b32 v1, 0, s4", 4},
      RuleCase{"div_scale_then_div_fmas", R::ValuVccThenDivFmas,
               "v_div_scale_f32 v2, vcc, v0, v0, v1", "v_div_fmas_f32 v3, v2, v0, v1", 4},
      RuleCase{"cmp_then_div_fmas", R::ValuVccThenDivFmas, "v_cmp_lt_f32 vcc, v0, v1",
               "v_div_fmas_f32 v3, v2, v0, v1", 4},
      RuleCase{"global_store_x4_then_write", R::WideStoreThenDataWrite,
               "global_store_dwordx4 v[0:1], v[2:5], off", "v_mov_b32 v4, 0", 1},
      RuleCase{"flat_store_x3_then_write", R::WideStoreThenDataWrite,
               "flat_store_dwordx3 v[0:1], v[2:4]", "v_add_u32 v2, 1, v2", 1},
      RuleCase{"flat_cmpswap_x2_then_write", R::WideStoreThenDataWrite,
               "flat_atomic_cmpswap_x2 v[0:1], v[2:5]", "v_mov_b32 v5, 0", 1},
      RuleCase{"buffer_store_x3_const_offset_then_write", R::WideStoreThenDataWrite,
               "buffer_store_dwordx3 v[2:4], v0, s[0:3], 0 offen", "v_mov_b32 v3, 0", 1},
      RuleCase{"buffer_store_format_xyzw_then_write", R::WideStoreThenDataWrite,
               "buffer_store_format_xyzw v[2:5], off, s[0:3], 0", "v_mov_b32 v2, 0", 1},
      RuleCase{"buffer_cmpswap_x2_sgpr_offset_then_write", R::WideStoreThenDataWrite,
               "buffer_atomic_cmpswap_x2 v[2:5], off, s[0:3], s4", "v_mov_b32 v5, 0", 1},
      RuleCase{"valu_sgpr_then_buffer_resource", R::ValuSgprThenVmem, "v_readfirstlane_b32 s6, v0",
               "buffer_load_dword v1, v2, s[4:7], 0 offen", 5},
      RuleCase{"valu_sgpr_then_buffer_soffset", R::ValuSgprThenVmem, "v_readfirstlane_b32 s8, v0",
               "buffer_load_dword v1, v2, s[4:7], s8 offen", 5},
      RuleCase{"valu_sgpr_then_global_saddr", R::ValuSgprThenVmem, "v_readlane_b32 s11, v0, 3",
               "global_load_dword v1, v2, s[10:11]", 5},
      RuleCase{"valu_cmp_then_scratch_saddr", R::ValuSgprThenVmem,
               "v_cmp_eq_u32_e64 s[4:5], v0, v1", "scratch_load_dword v1, off, s4 offset:4", 5},
      RuleCase{"salu_m0_then_sendmsg", R::SaluM0ThenGdsSendmsg, "s_mov_b32 m0, s0",
               "s_sendmsg sendmsg(MSG_INTERRUPT)", 1},
      RuleCase{"salu_m0_then_gds", R::SaluM0ThenGdsSendmsg, "s_movk_i32 m0, 0x100",
               "ds_add_u32 v0, v1 gds", 1},
      RuleCase{"salu_m0_then_ttracedata", R::SaluM0ThenGdsSendmsg, "s_add_u32 m0, s0, 4",
               "s_ttracedata", 1},
      RuleCase{"valu_vgpr_then_dpp_src0", R::ValuVgprThenDpp, "v_add_f32 v1, v2, v3",
               "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 2},
      RuleCase{"valu_vgpr64_then_dpp_src1", R::ValuVgprThenDpp, "v_mul_f64 v[6:7], v[0:1], v[2:3]",
               "v_add_f32_dpp v4, v5, v7 row_shr:1 row_mask:0xf bank_mask:0xf", 2},
      RuleCase{"valu_exec_then_dpp", R::ValuExecThenDpp, "v_cmpx_eq_u32_e64 s[0:1], v0, v1",
               "v_mov_b32_dpp v4, v5 row_shl:1 row_mask:0xf bank_mask:0xf", 5},
      RuleCase{"valu_vcc_then_vcc_constant", R::ValuVccThenVccConstant, "v_cmp_eq_u32 vcc, v0, v1",
               "v_mov_b32 v2, vcc_lo", 1},
      RuleCase{"carry_out_then_vcc_hi_constant", R::ValuVccThenVccConstant,
               "v_add_co_u32 v0, vcc, v1, v2", "v_add_u32 v3, vcc_hi, v3", 1},
      RuleCase{"setreg_trapsts_then_rfe", R::SetregTrapstsThenRfe,
               "s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 8), s0", "s_rfe_b64 s[2:3]", 1},
      RuleCase{"setreg_trapsts_then_rfe_restore", R::SetregTrapstsThenRfe,
               "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 8), 0", "s_rfe_restore_b64 s[2:3], s4",
               1},
      RuleCase{"salu_m0_then_ds_addtid", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "ds_read_addtid_b32 v0", 1},
      RuleCase{"salu_m0_then_buffer_lds", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "buffer_load_dword off, s[4:7], 0 lds", 1},
      RuleCase{"salu_m0_then_global_lds", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "global_load_dword v[2:3], off lds", 1},
      RuleCase{"salu_m0_then_vinterp", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "v_interp_p1_f32 v0, v1, attr0.x", 1},
      RuleCase{"salu_m0_then_vop3_interp", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "v_interp_p1_f32_e64 v0, v1, attr0.x", 1},
      RuleCase{"salu_m0_then_lds_direct", R::SaluM0ThenLdsM0, "s_mov_b32 m0, s0",
               "v_mov_b32 v0, src_lds_direct", 1},
      RuleCase{"salu_m0_then_movrel", R::SaluM0ThenMovrel, "s_mov_b32 m0, 2",
               "s_movrels_b32 s0, s1", 1},
      RuleCase{"set_gpr_idx_then_movreld", R::SaluM0ThenMovrel, "s_set_gpr_idx_idx s3",
               "s_movreld_b32 s0, s1", 1}};
}

std::vector<RuleCase> rowsNeedingMoreThanOne() {
  std::vector<RuleCase> out;
  for (const RuleCase& c : rowCases())
    if (c.required > 1) out.push_back(c);
  return out;
}

std::string caseName(const ::testing::TestParamInfo<RuleCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Table8, HazardRow, ::testing::ValuesIn(rowCases()), caseName);
// Some wait states, one short: still reported, with the number present (rows that need more
// than one; for the others an s_nop 0 is already enough, which FullyPresentIsNotReported checks).
class HazardRowPartly : public ::testing::TestWithParam<RuleCase> {};

TEST_P(HazardRowPartly, PartlyPresentIsReportedWithTheCount) {
  const RuleCase& c = GetParam();
  // One independent SALU instruction (one wait state) and an s_nop for the rest but one.
  std::string between = "s_mov_b32 s99, 0\n";
  if (c.required > 2) between += "s_nop " + std::to_string(c.required - 3) + "\n";
  const Checked run(c.first + "\n" + between + c.second);
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  EXPECT_EQ(findings[0].rule, c.rule);
  EXPECT_EQ(findings[0].present, c.required - 1) << describeAll(findings);
}

INSTANTIATE_TEST_SUITE_P(Table8, HazardRowPartly, ::testing::ValuesIn(rowsNeedingMoreThanOne()),
                         caseName);

// Pairs that look alike but are not in the table: nothing reported, even back to back.
TEST(HazardChecker, LookalikesAreNotHazards) {
  const char* const sequences[] = {
      // s_setreg/s_getreg of different hardware registers.
      "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\ns_getreg_b32 s1, hwreg(HW_REG_TRAPSTS)",
      // MODE without VSKIP, then a vector instruction.
      "s_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s0\nv_mov_b32 v0, v1",
      // VCC read as the carry-in or the select mask (row 13 says 0 wait states).
      "v_cmp_eq_u32 vcc, v0, v1\nv_cndmask_b32 v2, v3, v4, vcc",
      "v_cmp_eq_u32 vcc, v0, v1\nv_cndmask_b32_e64 v2, v3, v4, vcc",
      "v_add_co_u32 v0, vcc, v1, v2\nv_addc_co_u32 v2, vcc, v3, v4, vcc",
      // A buffer store with an SGPR offset, and stores of 64 bits or less.
      "buffer_store_dwordx4 v[2:5], v0, s[0:3], s4 offen\nv_mov_b32 v3, 0",
      "global_store_dwordx2 v[0:1], v[2:3], off\nv_mov_b32 v3, 0",
      "buffer_store_format_d16_xyzw v[2:3], off, s[0:3], 0\nv_mov_b32 v3, 0",
      // A wide store, then a VALU writing other VGPRs, or reading the data VGPRs.
      "global_store_dwordx4 v[0:1], v[2:5], off\nv_mov_b32 v6, v2",
      // The VMEM reads SGPRs other than the one the VALU wrote; SALU writes are interlocked.
      "v_readfirstlane_b32 s8, v0\nbuffer_load_dword v1, v2, s[4:7], 0 offen",
      "s_mov_b32 s6, s0\nbuffer_load_dword v1, v2, s[4:7], 0 offen",
      // A DPP reading other VGPRs; a non-DPP VALU reading the written VGPR.
      "v_add_f32 v1, v2, v3\nv_mov_b32_dpp v4, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
      "v_add_f32 v1, v2, v3\nv_mov_b32 v4, v1",
      // SALU writes EXEC (not VALU), then DPP; VALU writes M0, then s_movrel (not SALU).
      "s_mov_b64 exec, s[0:1]\nv_mov_b32_dpp v4, v5 row_shl:1 row_mask:0xf bank_mask:0xf",
      "v_readfirstlane_b32 m0, v0\ns_movrels_b32 s0, s1",
      // An ordinary LDS access does not read M0 on gfx9.
      "s_mov_b32 m0, -1\nds_read_b32 v0, v1",
  };
  for (const char* s : sequences) {
    const Checked run(s);
    EXPECT_TRUE(run.findings().empty()) << s << "\n" << describeAll(run.findings());
  }
}

// s_nop N is N+1 wait states and every other instruction one: five needed, s_nop 1 (2) and two
// independent instructions make four.
TEST(HazardChecker, CountsNopsAndIndependentInstructions) {
  const Checked run(
      "v_readfirstlane_b32 s6, v0\ns_nop 1\nv_mov_b32 v9, 0\ns_add_u32 s20, s21, s22\n"
      "buffer_load_dword v1, v2, s[4:7], 0 offen");
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  EXPECT_EQ(findings[0].present, 4u);
  EXPECT_EQ(findings[0].required, 5u);
  const Checked enough(
      "v_readfirstlane_b32 s6, v0\ns_nop 2\nv_mov_b32 v9, 0\ns_add_u32 s20, s21, s22\n"
      "buffer_load_dword v1, v2, s[4:7], 0 offen");
  EXPECT_TRUE(enough.findings().empty()) << describeAll(enough.findings());
}

// The nearest writer is the one that counts: the older write of s6 is far enough (after the
// newer one, only the newer is blamed).
TEST(HazardChecker, BlamesTheNearestProducer) {
  const Checked run(
      "v_readfirstlane_b32 s6, v0\nv_readfirstlane_b32 s6, v1\nbuffer_load_dword v1, v2, s[4:7], "
      "0 offen");
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  EXPECT_EQ(findings[0].present, 0u);
  EXPECT_EQ(findings[0].firstPc, run.program().instructions()[1].pc);
}

// Two rows can hold for one pair; each is its own finding.
TEST(HazardChecker, OnePairCanBreakTwoRows) {
  const Checked run("v_cmp_eq_u32 vcc, v0, v1\nv_readlane_b32 s0, v2, vcc_lo");
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 2u) << describeAll(findings);
  EXPECT_EQ(findings[0].rule, R::ValuSgprThenLaneSelect);
  EXPECT_EQ(findings[1].rule, R::ValuVccThenVccConstant);
}

// The same pair issued again (a loop, or many waves) is one finding with a count.
TEST(HazardChecker, RepeatedPairIsOneFindingWithACount) {
  const Checked run("s_mov_b32 m0, s0\ns_movrels_b32 s0, s1", 3);
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  EXPECT_EQ(findings[0].occurrences, 3u);
}

// Wait states are per wave: another wave's instructions in between do not count, and a fresh
// wave starts with no history.
TEST(HazardChecker, HistoryIsPerWave) {
  const Program p = Program::decode(
      assemble("v_readfirstlane_b32 s6, v0\ns_nop 7\nbuffer_load_dword v1, v2, s[4:7], 0 offen"),
      kBase, GfxTarget::Gfx906);
  const auto& insts = p.instructions();
  ASSERT_EQ(insts.size(), 3u);
  HazardChecker checker(GfxTarget::Gfx906);
  HazardChecker::WaveHistory a, b;
  checker.observe(a, insts[0]);
  checker.observe(b, insts[1]);  // wave b's s_nop is not between wave a's instructions
  checker.observe(a, insts[2]);
  checker.observe(b, insts[2]);  // wave b never wrote s6
  const auto findings = checker.findings();
  ASSERT_EQ(findings.size(), 1u) << describeAll(findings);
  EXPECT_EQ(findings[0].occurrences, 1u);
  EXPECT_EQ(checker.instructionsChecked(), 4u);
}

TEST(HazardChecker, DescriptionNamesPcsInstructionsAndCounts) {
  const Checked run("v_readfirstlane_b32 s6, v0\nbuffer_load_dword v1, v2, s[4:7], 0 offen");
  const auto findings = run.findings();
  ASSERT_EQ(findings.size(), 1u);
  const std::string text = describeHazard(findings[0]);
  EXPECT_NE(text.find("PC 0x1004"), std::string::npos) << text;
  EXPECT_NE(text.find("5 required, 0 present"), std::string::npos) << text;
  EXPECT_NE(text.find("0x1000  v_readfirstlane_b32 s6, v0"), std::string::npos) << text;
  EXPECT_NE(text.find("0x1004  buffer_load_dword v1, v2, s[4:7], 0 offen"), std::string::npos)
      << text;
  EXPECT_NE(text.find("valu_sgpr_then_vmem"), std::string::npos) << text;
}

}  // namespace
}  // namespace vgpu::isa
