// When a load's data may be written to its registers at issue (isa/LoadResultAtIssue.h), on
// hand-written sequences assembled by llvm-mc-15. The answer follows from the rules the search
// encodes: a program sees a load's data only through its destination registers, and only
// s_endpgm or an s_waitcnt that guarantees the load ends the time in which it could see it
// early: for a vector load vmcnt(n) with at least n buffer/global/scratch accesses issued after
// it (they return in order, Vega ISA guide 4.4), for a scalar load lgkmcnt(0) (scalar loads
// return out of order).
#include <gtest/gtest.h>

#include <string>

#include "Assemble.h"
#include "isa/Isa.h"
#include "isa/LoadResultAtIssue.h"
#include "isa/OpInfo.h"

namespace vgpu::isa {
namespace {

constexpr uint64_t kBase = 0x1000;

// Whether the load at byte `loadAt` of the source may write VGPRs [first, first + count) at
// issue, looking at the code from kBase to kBase + `codeBytes` (all of it when 0).
bool atIssueOf(LoadResult result, const std::string& source, uint32_t first, uint32_t count,
               uint64_t codeBytes = 0, uint64_t loadAt = 0) {
  const Program program = Program::decode(assemble(source), kBase, GfxTarget::Gfx906);
  const Instruction* load = program.at(kBase + loadAt);
  EXPECT_NE(load, nullptr);
  if (load == nullptr) return false;
  const uint64_t end = codeBytes ? kBase + codeBytes : uint64_t{1} << 62;
  return loadResultUnobservedBeforeWait(*load, result, first, count, kBase, end,
                                        [&](uint64_t pc) { return program.at(pc); });
}
bool atIssue(const std::string& source, uint32_t first, uint32_t count, uint64_t codeBytes = 0,
             uint64_t loadAt = 0) {
  return atIssueOf(LoadResult::Vgprs, source, first, count, codeBytes, loadAt);
}
// The same for a scalar load into SGPRs [first, first + count).
bool scalarAtIssue(const std::string& source, uint32_t first, uint32_t count) {
  return atIssueOf(LoadResult::Sgprs, source, first, count);
}

TEST(LoadResultAtIssue, VectorAddsTwoLoadsAreUnobservedUntilVmcnt0) {
  // vector_add as hipcc compiles it: the address arithmetic between the loads and the wait
  // touches v0..v5 only.
  const std::string body =
      "v_mov_b32 v2, s5\n"
      "v_add_co_u32_e32 v0, vcc, s4, v0\n"
      "v_addc_co_u32_e32 v1, vcc, v2, v1, vcc\n"
      "s_waitcnt vmcnt(0)\n"
      "v_add_f32_e32 v2, v6, v7\n";
  EXPECT_TRUE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "global_load_dword v7, v[2:3], off\n" +
                  body,
              6, 1));
  EXPECT_TRUE(atIssue("global_load_dword v7, v[2:3], off\n" + body, 7, 1));
}

TEST(LoadResultAtIssue, AReadOrWriteOfTheDestinationBeforeTheWaitIsSeen) {
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\nv_mov_b32 v8, v6\ns_waitcnt vmcnt(0)", 6, 1));
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\nv_mov_b32 v6, 0\ns_waitcnt vmcnt(0)", 6, 1));
  // v_mac reads its destination; the search takes it as read and written.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\nv_mac_f32 v6, v1, v2\ns_waitcnt vmcnt(0)", 6, 1));
  // The second half of a 64-bit source, and the last of a dwordx4 destination.
  EXPECT_FALSE(atIssue(
      "global_load_dword v7, v[4:5], off\nv_add_f64 v[0:1], v[6:7], v[2:3]\ns_waitcnt vmcnt(0)", 7,
      1));
  EXPECT_FALSE(atIssue(
      "global_load_dwordx4 v[8:11], v[4:5], off\nv_mov_b32 v12, v11\ns_waitcnt vmcnt(0)", 8, 4));
  // A DPP source and an SDWA source are the instruction's VGPRs too.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "v_mov_b32_dpp v8, v6 row_shr:1 row_mask:0xf bank_mask:0xf\n"
              "s_waitcnt vmcnt(0)",
              6, 1));
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "v_mov_b32_sdwa v8, v6 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n"
              "s_waitcnt vmcnt(0)",
              6, 1));
  // A store of the destination, and a later load into it.
  EXPECT_FALSE(atIssue(
      "global_load_dword v6, v[4:5], off\nglobal_store_dword v[2:3], v6, off\ns_waitcnt vmcnt(0)",
      6, 1));
  EXPECT_FALSE(atIssue(
      "global_load_dword v6, v[4:5], off\nglobal_load_dword v6, v[2:3], off\ns_waitcnt vmcnt(0)", 6,
      1));
}

TEST(LoadResultAtIssue, RegistersNextToTheDestinationAreNotIt) {
  EXPECT_TRUE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "v_add_f32 v5, v7, v4\n"
              "v_add_f64 v[8:9], v[2:3], v[10:11]\n"
              "global_store_dword v[2:3], v7, off\n"
              "s_waitcnt vmcnt(0)",
              6, 1));
}

TEST(LoadResultAtIssue, VmcntNGuaranteesTheLoadAfterNLaterVectorAccesses) {
  // stream_copy's pipelining: a second load, then vmcnt(1) waits for the first.
  EXPECT_TRUE(
      atIssue("global_load_dwordx4 v[2:5], v[2:3], off\n"
              "global_load_dwordx4 v[6:9], v[6:7], off\n"
              "s_waitcnt vmcnt(1)\n"
              "global_store_dwordx4 v[16:17], v[2:5], off",
              2, 4));
  // vmcnt(1) with nothing issued after the load does not wait for it: the read is seen.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "s_waitcnt vmcnt(1)\n"
              "v_mov_b32 v8, v6\n"
              "s_waitcnt vmcnt(0)",
              6, 1));
  // Buffer and scratch accesses count like global ones; a store counts like a load.
  EXPECT_TRUE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "buffer_store_dword v1, off, s[8:11], 0\n"
              "scratch_load_dword v9, off, s2\n"
              "s_waitcnt vmcnt(2)\n"
              "v_mov_b32 v8, v6",
              6, 1));
  // A FLAT-segment access may go to the LDS and return before the load: it does not count.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "flat_load_dword v9, v[2:3]\n"
              "s_waitcnt vmcnt(1)\n"
              "v_mov_b32 v8, v6\n"
              "s_waitcnt vmcnt(0)",
              6, 1));
}

TEST(LoadResultAtIssue, EveryPathFromABranchIsFollowed) {
  // pointer_chase's loop: the wait at the top (byte 0), the load (byte 4) at the bottom, the
  // branch back (byte 20: PC + 4 - 6 * 4 = 0) and the wait after the loop.
  const std::string loop =
      "s_waitcnt vmcnt(0)\n"
      "global_load_dword v1, v1, s[4:5]\n"
      "s_add_i32 s2, s2, -1\n"
      "s_cmp_eq_u32 s2, 0\n"
      "s_cbranch_scc0 -6\n";
  EXPECT_TRUE(atIssue(loop + "s_waitcnt vmcnt(0)\nglobal_store_dword v[2:3], v1, off", 1, 1, 0, 4));
  // The same loop with the wait after the branch's other way missing: that way reads v1.
  EXPECT_FALSE(atIssue(loop + "global_store_dword v[2:3], v1, off", 1, 1, 0, 4));
  // The same loop when the code given starts after the top: the branch leaves it.
  EXPECT_FALSE([&] {
    const Program program = Program::decode(assemble(loop + "s_endpgm"), kBase, GfxTarget::Gfx906);
    return loadResultUnobservedBeforeWait(*program.at(kBase + 4), LoadResult::Vgprs, 1, 1,
                                          kBase + 4, kBase + 64,
                                          [&](uint64_t pc) { return program.at(pc); });
  }());
  // Both ways of a branch reach a wait before reading: the taken way skips a read-free block.
  EXPECT_TRUE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "s_cbranch_execz 1\n"
              "v_mov_b32 v8, v1\n"
              "s_waitcnt vmcnt(0)\n"
              "v_mov_b32 v8, v6",
              6, 1));
  // The taken way reads the destination before its wait.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "s_cbranch_scc1 2\n"
              "s_waitcnt vmcnt(0)\n"
              "s_endpgm\n"
              "v_mov_b32 v8, v6\n"
              "s_endpgm",
              6, 1));
  // An unconditional branch is followed to its target.
  EXPECT_TRUE(
      atIssue("global_load_dword v6, v[4:5], off\n"
              "s_branch 1\n"
              "v_mov_b32 v8, v6\n"
              "s_waitcnt vmcnt(0)\n"
              "v_mov_b32 v8, v6",
              6, 1));
}

TEST(LoadResultAtIssue, TheWaveEndingEndsTheSearch) {
  EXPECT_TRUE(atIssue("global_load_dword v6, v[4:5], off\nv_mov_b32 v8, v1\ns_endpgm", 6, 1));
}

TEST(LoadResultAtIssue, WhatTheSearchCannotBoundEndsItWithNo) {
  for (const char* between : {
           "s_setpc_b64 s[4:5]",                   // a jump through registers
           "s_swappc_b64 s[4:5], s[6:7]",          // a call
           "s_trap 2",                             // a trap handler would see the VGPRs
           "s_set_gpr_idx_on s2, gpr_idx(SRC0)",   // VGPR indexing through M0
           "s_setreg_b32 hwreg(HW_REG_MODE), s2",  // may switch VGPR indexing on
           "image_load v[8:11], v[0:3], s[8:15] dmask:0xf unorm",  // MIMG addresses
       }) {
    EXPECT_FALSE(atIssue(
        std::string("global_load_dword v6, v[4:5], off\n") + between + "\ns_waitcnt vmcnt(0)", 6,
        1))
        << between;
  }
}

TEST(LoadResultAtIssue, UnusedMemoryFieldsAreNotRegisters) {
  // A DS read's data fields and a buffer access's VADDR without OFFEN/IDXEN are encoded as 0
  // (v0): a load into v0 is not touched by them.
  EXPECT_TRUE(
      atIssue("global_load_dword v0, v[4:5], off\n"
              "ds_read_b32 v9, v1\n"
              "buffer_load_dword v9, off, s[8:11], 0\n"
              "s_waitcnt vmcnt(0)",
              0, 1));
  // ... and a DS write's data is.
  EXPECT_FALSE(
      atIssue("global_load_dword v6, v[4:5], off\nds_write_b32 v1, v6\ns_waitcnt vmcnt(0)", 6, 1));
}

TEST(LoadResultAtIssue, TheSearchStaysInsideTheCodeItIsGivenAndIsBounded) {
  // The wait is the fourth instruction (bytes 16..20): code ending before it gives no answer.
  const std::string src =
      "global_load_dword v6, v[4:5], off\nv_mov_b32 v8, v1\nv_mov_b32 v9, v1\ns_waitcnt vmcnt(0)";
  EXPECT_TRUE(atIssue(src, 6, 1, 20));
  EXPECT_FALSE(atIssue(src, 6, 1, 19));
  // More than kLoadResultSearchLimit instructions before the wait.
  std::string longer = "global_load_dword v6, v[4:5], off\n";
  for (int i = 0; i < kLoadResultSearchLimit; ++i) longer += "v_mov_b32 v8, v1\n";
  EXPECT_FALSE(atIssue(longer + "s_waitcnt vmcnt(0)", 6, 1));
}

TEST(LoadResultAtIssue, VectorAddsScalarLoadsAreUnobservedUntilLgkmcnt0) {
  const std::string prologue =
      "s_load_dword s0, s[4:5], 0x4\n"
      "s_load_dword s1, s[4:5], 0xc\n"
      "s_load_dword s2, s[6:7], 0x18\n"
      "s_waitcnt lgkmcnt(0)\n"
      "s_and_b32 s0, s0, 0xffff\n";
  EXPECT_TRUE(scalarAtIssue(prologue, 0, 1));
  // stream_copy's: a load from s[6:7] is not one from s[6:9] (only s_buffer_* take a quad).
  EXPECT_TRUE(
      scalarAtIssue("s_load_dword s9, s[4:5], 0xc\n"
                    "s_load_dwordx2 s[10:11], s[6:7], 0x8\n"
                    "s_waitcnt lgkmcnt(0)",
                    9, 1));
  EXPECT_FALSE(
      scalarAtIssue("s_load_dword s11, s[4:5], 0xc\n"
                    "s_buffer_load_dword s12, s[8:11], 0x8\n"
                    "s_waitcnt lgkmcnt(0)",
                    11, 1));
  // A compare in its 64-bit form reads no src2 either (rocSPARSE's csrmv prologue).
  EXPECT_TRUE(
      scalarAtIssue("s_load_dword s0, s[4:5], 0x4\n"
                    "v_cmp_neq_f64_e64 s[20:21], s[12:13], 0\n"
                    "v_and_b32_e32 v0, 7, v0\n"
                    "s_waitcnt lgkmcnt(0)",
                    0, 1));
  // Its second pair of scalar loads, into s[0:3] and s[4:5]: the VOP3 shift between them and
  // the wait reads no src2 (its encoding's 0 there is not s0).
  EXPECT_TRUE(
      scalarAtIssue("s_load_dwordx4 s[0:3], s[6:7], 0x0\n"
                    "s_load_dwordx2 s[4:5], s[6:7], 0x10\n"
                    "v_ashrrev_i32_e32 v1, 31, v0\n"
                    "v_lshlrev_b64 v[0:1], 2, v[0:1]\n"
                    "s_waitcnt lgkmcnt(0)",
                    0, 4));
  // Registers next to the destination are not it.
  EXPECT_TRUE(
      scalarAtIssue("s_load_dword s2, s[4:5], 0x4\n"
                    "s_mov_b32 s3, s1\n"
                    "v_mov_b32 v1, s4\n"
                    "s_load_dwordx2 s[0:1], s[6:7], 0x0\n"
                    "s_waitcnt lgkmcnt(0)",
                    2, 1));
}

TEST(LoadResultAtIssue, AScalarDestinationNamedBeforeTheWaitIsSeen) {
  for (const char* between : {
           "s_add_u32 s1, s0, 1",                           // SALU source
           "s_mov_b32 s0, 1",                               // SALU destination
           "s_mov_b64 s[6:7], s[0:1]",                      // half of a 64-bit source
           "v_add_u32 v1, s0, v1",                          // VALU scalar source
           "v_addc_co_u32_e64 v1, s[2:3], v2, v3, s[0:1]",  // carry-in
           "v_cndmask_b32_e64 v1, v2, v3, s[0:1]",          // select mask
           "v_fma_f32 v1, v2, v3, s0",                      // VOP3 src2
           "v_add_co_u32_e64 v1, s[0:1], v2, v3",           // VOP3B carry-out
           "v_cmp_eq_u32_e64 s[0:1], v1, v2",               // VOPC scalar destination
           "v_readlane_b32 s0, v1, 0",                      // v_readlane's destination
           "global_load_dword v1, v0, s[0:1]",              // FLAT SADDR
           "buffer_load_dword v1, off, s[0:3], 0",          // MUBUF SRSRC
           "s_load_dword s8, s[0:1], 0x0",                  // SMEM SBASE
           "s_movrels_b32 s8, s1",                          // an SGPR chosen by M0
       }) {
    EXPECT_FALSE(scalarAtIssue(
        std::string("s_load_dword s0, s[4:5], 0x4\n") + between + "\ns_waitcnt lgkmcnt(0)", 0, 1))
        << between;
  }
}

TEST(LoadResultAtIssue, OnlyLgkmcnt0WaitsForAScalarLoad) {
  // The second load may return first: lgkmcnt(1) does not say the first has.
  EXPECT_FALSE(
      scalarAtIssue("s_load_dword s0, s[4:5], 0x4\n"
                    "s_load_dword s1, s[4:5], 0x8\n"
                    "s_waitcnt lgkmcnt(1)\n"
                    "s_mov_b32 s2, s0\n"
                    "s_waitcnt lgkmcnt(0)",
                    0, 1));
  // vmcnt(0) says nothing about scalar loads either.
  EXPECT_FALSE(
      scalarAtIssue("s_load_dword s0, s[4:5], 0x4\n"
                    "s_waitcnt vmcnt(0)\n"
                    "s_mov_b32 s2, s0",
                    0, 1));
}

}  // namespace
}  // namespace vgpu::isa
