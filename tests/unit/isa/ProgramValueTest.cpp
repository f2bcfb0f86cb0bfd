// Value checks that need more than one instruction or more than the registers of one step:
// opcodes whose documented result is "no architectural change" (compared register by register
// and byte by byte with the state before them), the ends of a program, traps and halts, the
// clocks, multi-dword scratch accesses (compared with the single-dword ones) and parameter
// interpolation. Expected values are worked out here from the Vega ISA reference guide.
#include <gtest/gtest.h>

#include "ValueCheck.h"
#include "WaveRunner.h"

namespace vgpu::isa::test {
namespace {

// Instructions whose definitions in the Vega ISA guide change no register or memory a program
// can see (their definitions in chapter 12; section 4.4 for S_WAITCNT):
// S_NOP / V_NOP / DS_NOP ("do nothing"), the scalar and vector L1 cache controls (write back /
// invalidate / discard / probe lines: the data a program reads stays the same), the instruction
// cache invalidate, the performance-level, trace-data, priority, sleep and wake-up hints,
// S_SETKILL 0 / S_SETHALT 0 (clear bits that are clear in a running wave), S_WAITCNT and
// S_BARRIER (they only order: one wave, nothing outstanding), S_SENDMSG (a message to the
// interrupt handler: data leaves the wave, nothing comes back) and V_CLREXCP (clears the SIMD's
// exception state; TRAPSTS starts clear here, so it stays so). BUFFER_WBINVL1 also as opcode
// 0x71 (its Southern Islands number, which llvm-objdump-15 decodes on gfx9 too).
TEST(ProgramValues, NopsHintsAndCacheControlsChangeNothingButThePc) {
  checkNoArchitecturalEffect({
      "s_nop 3",
      "s_nop 15",
      "v_nop",
      "ds_nop",
      "buffer_wbinvl1",
      "buffer_wbinvl1_vol",
      "buffer_wbinvl1 // raw 0xe1c40000 0x00000000",
      "s_dcache_inv",
      "s_dcache_wb",
      "s_dcache_inv_vol",
      "s_dcache_wb_vol",
      "s_dcache_discard s[0:1], 0x10",
      "s_dcache_discard_x2 s[0:1], 0x10",
      "s_atc_probe 7, s[0:1], 0x10",
      "s_atc_probe_buffer 7, s[4:7], 0x10",
      "s_icache_inv",
      "s_incperflevel 5",
      "s_decperflevel 5",
      "s_ttracedata",
      "s_setprio 3",
      "s_sleep 2",
      "s_wakeup",
      "s_setkill 0",
      "s_sethalt 0",
      "s_waitcnt vmcnt(37) expcnt(5) lgkmcnt(9)",
      "s_barrier",
      "s_sendmsg sendmsg(MSG_INTERRUPT)",
      "v_clrexcp",
  });
}

// What these instructions hand to the wave's sequencer, from their definitions: S_WAITCNT's
// SIMM16 holds vmcnt in [3:0] and [15:14], expcnt in [6:4], lgkmcnt in [11:8] (section 4.4);
// S_NOP N waits N + 1 times (SIMM16[3:0]); S_SLEEP N sleeps about 64 * N clocks (later guides:
// 64 * N + 1..64, so 128..192 for N = 2);
// S_SENDMSG sends SIMM16's message with M0 as its data; S_BARRIER waits for the workgroup.
TEST(ProgramValues, WaitcntNopSleepSendmsgAndBarrierHandTheirFieldsToTheSequencer) {
  WaveRunner r(assembleProgram("s_waitcnt vmcnt(37) expcnt(5) lgkmcnt(9)\n"
                               "s_waitcnt vmcnt(0) expcnt(7) lgkmcnt(15)\n"
                               "s_nop 3\n"
                               "s_sleep 2\n"
                               "s_sendmsg sendmsg(MSG_INTERRUPT)\n"
                               "s_barrier\n"),
               GfxTarget::Gfx906);
  r.wave.m0 = 0x1234;
  StepResult s = r.step();
  ASSERT_EQ(s.kind, StepKind::Waitcnt);
  EXPECT_EQ(s.vmcnt, 37u);
  EXPECT_EQ(s.expcnt, 5u);
  EXPECT_EQ(s.lgkmcnt, 9u);
  s = r.step();
  ASSERT_EQ(s.kind, StepKind::Waitcnt);
  EXPECT_EQ(s.vmcnt, 0u);
  EXPECT_EQ(s.expcnt, 7u);
  EXPECT_EQ(s.lgkmcnt, 15u);
  s = r.step();
  ASSERT_EQ(s.kind, StepKind::Sleep);
  EXPECT_EQ(s.cycles, 4u);
  s = r.step();
  ASSERT_EQ(s.kind, StepKind::Sleep);
  EXPECT_GE(s.cycles, 128u);
  EXPECT_LE(s.cycles, 192u);
  s = r.step();
  ASSERT_EQ(s.kind, StepKind::Message);
  EXPECT_EQ(s.message, 1u);  // MSG_INTERRUPT
  EXPECT_EQ(s.messageData, 0x1234u);
  EXPECT_EQ(r.step().kind, StepKind::Barrier);
  EXPECT_EQ(r.step().kind, StepKind::EndProgram);
  recordValueChecked({"s_waitcnt", "s_nop", "s_sleep", "s_sendmsg", "s_barrier"});
}

// S_ENDPGM, S_ENDPGM_SAVED and S_ENDPGM_ORDERED_PS_DONE end the wave: the instructions after
// them do not execute (v0 and s0 keep their values).
TEST(ProgramValues, EndProgramOpcodesStopTheWaveBeforeTheNextInstruction) {
  std::vector<ProgramCase> cases;
  for (const std::string end : {"s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done"})
    cases.push_back({end + "\nv_mov_b32 v0, 7\ns_mov_b32 s0, 7",
                     {{"v0", 1}, {"s0", 1}},
                     {{"v0", 1}, {"s0", 1}},
                     {end}});
  checkPrograms(cases);
}

// S_TRAP with a trap handler (TBA != 0): {TTMP1, TTMP0} = {3'h0, PCRewind[3:0], HT, TrapID[7:0],
// PC[47:0]} and PC = TBA (its definition in chapter 12; section 4.5 "Traps"). Checked: the new
// PC, TrapID = SIMM16[7:0] in TTMP1[23:16], PC[47:32] = 0 in TTMP1[15:0] and HT = 0 (the
// saved PC's low half is left out: the guides differ on whether it points at the S_TRAP).
// Without a handler the trap goes to the sequencer with its ID, which stops the kernel.
TEST(ProgramValues, TrapEntersTheHandlerAtTbaWithItsIdInTtmp1) {
  const CodeFile code = assembleProgram("s_trap 0x25\n");
  WaveRunner r(code, GfxTarget::Gfx906);
  r.wave.tba = 0x40000;
  r.wave.ttmp[1] = 0xffffffff;
  const StepResult s = r.step();
  ASSERT_EQ(s.kind, StepKind::Continue) << s.fault;
  EXPECT_EQ(r.wave.pc, 0x40000u);
  EXPECT_EQ(r.wave.ttmp[1] & 0x1ffffff, 0x250000u);

  WaveRunner n(code, GfxTarget::Gfx906);
  const StepResult t = n.step();
  ASSERT_EQ(t.kind, StepKind::Trap);
  EXPECT_EQ(t.trapId, 0x25u);
  recordValueChecked({"s_trap"});
}

// S_SETHALT 1 halts the wave until a debugger resumes it (SIMM16[0] = 1: halt): the wave's
// sequencer gets a halt, PC past the instruction, with the reason the compute unit reports when
// it stops the wave (no debugger), naming the instruction.
TEST(ProgramValues, SethaltOneHaltsTheWaveWithAReasonNamingIt) {
  WaveRunner r(assembleProgram("s_sethalt 1\n"), GfxTarget::Gfx906);
  const StepResult s = r.step();
  ASSERT_EQ(s.kind, StepKind::Halt);
  EXPECT_NE(s.fault.find("s_sethalt"), std::string::npos) << s.fault;
  EXPECT_EQ(r.wave.pc, 0x1004u);
  recordValueChecked({"s_sethalt"});
}

// S_SENDMSGHALT (section 12.6 SOPP): "send a message and then HALT the wavefront", the message
// as S_SENDMSG sends it (SIMM16 the message, M0 its data). As after S_SETHALT 1 the sequencer
// gets a halt (PC past the instruction) whose reason names the instruction, the message and
// M0; no register changes.
TEST(ProgramValues, SendmsghaltHaltsTheWaveWithAReasonNamingTheMessage) {
  WaveRunner r(assembleProgram("s_sendmsghalt sendmsg(MSG_INTERRUPT)\n"), GfxTarget::Gfx906);
  r.wave.m0 = 0x1234;
  r.s(3) = 0x77;
  const StepResult s = r.step();
  ASSERT_EQ(s.kind, StepKind::Halt);
  EXPECT_NE(s.fault.find("s_sendmsghalt"), std::string::npos) << s.fault;
  EXPECT_NE(s.fault.find("message 0x1 "), std::string::npos) << s.fault;  // MSG_INTERRUPT = 1
  EXPECT_NE(s.fault.find("M0 = 0x1234"), std::string::npos) << s.fault;
  EXPECT_EQ(r.wave.pc, 0x1004u);
  EXPECT_EQ(r.wave.m0, 0x1234u);
  EXPECT_EQ(r.s(3), 0x77u);
  recordValueChecked({"s_sendmsghalt"});
}

// S_SETVSKIP (section 12.5 SOPC) sets MODE.VSKIP to S0.u[S1.u[4:0]]; while VSKIP is set the
// wave does not execute vector instructions, "valu, vmem, export, lds, gds" (section 3.3, MODE
// register), and scalar ones go on. The guide's example, with the one wait state it asks for:
// S_SETVSKIP 1, 0 turns it on, S_SETVSKIP 0, 0 off. In between a VALU move, an LDS store and a
// global store change nothing, a scalar move does; after it a VALU move executes again.
TEST(ProgramValues, VskipSkipsVectorInstructionsUntilCleared) {
  const std::string program =
      "s_setvskip 1, 0\n"
      "s_nop 0\n"
      "v_mov_b32 v1, 5\n"
      "ds_write_b32 v0, v2\n"
      "global_store_dword v[4:5], v2, off\n"
      "s_mov_b32 s2, 7\n"
      "s_setvskip 0, 0\n"
      "s_nop 0\n"
      "v_mov_b32 v3, 9\n";
  const std::vector<Val> in = {{"v0", 0x40}, {"v1", 1},          {"v2", 0xabc},
                               {"v3", 1},    {"v4", 0x3000},     {"v5", 0},
                               {"s2", 1},    {"lds:0x40", 0x11}, {"mem:0x3000", 0x22},
                               {"mode", 0x5}};
  checkPrograms(
      {{program,
        in,
        {{"v1", 1}, {"v3", 9}, {"s2", 7}, {"lds:0x40", 0x11}, {"mem:0x3000", 0x22}, {"mode", 0x5}},
        {"s_setvskip"}}});
}

// S_MEMTIME returns the 64-bit shader clock and S_MEMREALTIME the 64-bit constant-rate "real
// time" clock (their definitions in the SMEM section of chapter 12), as the compute unit gives
// them to the instruction at issue (ExecContext::cycle / ::realtime); a later read returns the
// later value, both halves included.
TEST(ProgramValues, MemtimeAndMemrealtimeReturnTheClocksAtIssue) {
  WaveRunner r(assembleProgram("s_memtime s[2:3]\n"
                               "s_memrealtime s[4:5]\n"
                               "s_memtime s[6:7]\n"
                               "s_memrealtime s[8:9]\n"),
               GfxTarget::Gfx906);
  r.ctx.cycle = 0x1fffffff0ull;
  r.ctx.realtime = 0x300000007ull;
  ASSERT_NE(r.step().kind, StepKind::Fault);
  ASSERT_NE(r.step().kind, StepKind::Fault);
  r.ctx.cycle += 0x20;  // the low half wraps
  r.ctx.realtime += 3;
  ASSERT_NE(r.step().kind, StepKind::Fault);
  ASSERT_NE(r.step().kind, StepKind::Fault);
  EXPECT_EQ(r.s(2), 0xfffffff0u);
  EXPECT_EQ(r.s(3), 1u);
  EXPECT_EQ(r.s(4), 7u);
  EXPECT_EQ(r.s(5), 3u);
  EXPECT_EQ(r.s(6), 0x10u);
  EXPECT_EQ(r.s(7), 2u);
  EXPECT_EQ(r.s(8), 10u);
  EXPECT_EQ(r.s(9), 3u);
  recordValueChecked({"s_memtime", "s_memrealtime"});
}

// SCRATCH_LOAD/STORE_DWORDX2..X4 (section 12.18): dword k of the data is the one at private
// address A + 4k, A = VADDR + offset. Whatever the swizzle puts where in memory, a
// multi-dword store must be read back, dword by dword, by SCRATCH_LOAD_DWORD at A + 4k, and a
// multi-dword load must return what single-dword stores put there (SCRATCH_*_DWORD are checked
// against the swizzle formula in MemoryValues.ScratchLoadsAndStoresMatchDefinitions). Lanes 1
// and 2 with their own data: their private spaces do not overlap; lane 0 is inactive. (A
// model that swizzled only the start of the access and moved the rest contiguously would put
// lane 1's second dword where lane 2's first is: FLAT_SCRATCH + ((A + 4k) / 4) * 256 + l * 4
// is the address of dword k of lane l.)
TEST(ProgramValues, ScratchMultiDwordAccessesMatchSingleDwordOnes) {
  std::vector<Val> in = {{"exec", 0b110}, {"flat_scratch", 0x100000}, {"v0", 4}};
  for (int r = 2; r <= 5; ++r) in.push_back({"v" + std::to_string(r), 0xdead});
  auto data = [](int k, int lane) {
    return 0x10000000u * static_cast<uint32_t>(lane) + 0x11u * static_cast<uint32_t>(k + 1);
  };
  for (int k = 0; k < 4; ++k)
    for (int lane = 1; lane <= 2; ++lane)
      in.push_back({"v" + std::to_string(8 + k) + "@" + std::to_string(lane), data(k, lane)});
  std::vector<ProgramCase> cases;
  for (int n = 2; n <= 4; ++n) {
    const std::string x = "x" + std::to_string(n);
    const std::string regs = "v[8:" + std::to_string(7 + n) + "]";
    std::vector<Val> out = {{"v2@0", 0xdead}};
    for (int k = 0; k < n; ++k)
      for (int lane = 1; lane <= 2; ++lane)
        out.push_back({"v" + std::to_string(2 + k) + "@" + std::to_string(lane), data(k, lane)});
    const std::string store = "scratch_store_dword" + x + " v0, " + regs + ", off offset:8\n";
    std::string loads, stores;
    for (int k = 0; k < n; ++k) {
      loads += "scratch_load_dword v" + std::to_string(2 + k) +
               ", v0, off offset:" + std::to_string(8 + 4 * k) + "\n";
      stores += "scratch_store_dword v0, v" + std::to_string(8 + k) +
                ", off offset:" + std::to_string(8 + 4 * k) + "\n";
    }
    cases.push_back({store + loads, in, out, {"scratch_store_dword" + x}});
    cases.push_back({stores + "scratch_load_dword" + x + " v[2:" + std::to_string(1 + n) +
                         "], v0, off offset:8\n",
                     in,
                     out,
                     {"scratch_load_dword" + x}});
  }
  checkPrograms(cases);
}

// Parameter interpolation (section 10.3.2 "LDS Parameter Reads" and the VINTRP / VOP3
// definitions): V_INTERP_P1_F32 D = P10 * S + P0; V_INTERP_P2_F32 D = P20 * S + D;
// V_INTERP_MOV_F32 D = P10, P20 or P0 (selector 0, 1, 2); the 16-bit forms read the low or, with
// `high`, the high half of each parameter dword: P1LL D.f32 = P10.f16 * S + P0.f16, P1LV D.f32
// = P10.f16 * S + S2.f16 (the same half of the VGPR), P2 / P2_LEGACY D.f16 = P20.f16 * S + S2.f32.
// M0 = {0, new_prim_mask[15:1], lds_param_offset[15:0]}: quad q belongs to primitive
// popcount(new_prim_mask[q:1]). The guide does not give the parameter layout in the LDS; the
// model's (models/isa/Interp.cpp) is P0, P10, P20 as vec4s per attribute (33 per primitive):
// lds_param_offset + ((prim * 33 + attr) * 3 + {0, 1, 2}) * 16 + channel * 4. attr1.y of
// primitive 0 with lds_param_offset 0x100: P0 at 0x134, P10 at 0x144, P20 at 0x154. Values are
// exact in f16 and f32: P0 = 1.5, P10 = 2, P20 = 3 (high halves 3, 4, -2), I = 0.25, J = 0.5.
TEST(ProgramValues, InterpolationFromLdsParameters) {
  const std::vector<Val> in = {{"m0", 0x100},
                               {"lds:0x134", f32(1.5f)},
                               {"lds:0x144", f32(2.0f)},
                               {"lds:0x154", f32(3.0f)},
                               {"v1", f32(0.25f)},
                               {"v2", f32(0.5f)},
                               {"v3", 0xdeadbeef}};
  std::vector<Val> inP2 = in;
  inP2.back() = {"v3", f32(2.0f)};  // D of P2: the P1 result
  const std::vector<Val> in16 = {{"m0", 0x100},
                                 {"lds:0x134", 0x42003e00},
                                 {"lds:0x144", 0x44004000},
                                 {"lds:0x154", 0xc0004200},
                                 {"v1", f32(0.25f)},
                                 {"v2", f32(0.5f)},
                                 {"v4", 0x45003c00},
                                 {"v5", f32(2.0f)},
                                 {"v3", 0xdeadbeef}};
  // Primitive 1 (new_prim_mask bit 1: quads 1..15), its attr1.y P0 = 10 at 0x764, P10 = 20
  // at 0x774; attr0.x P0 of primitive 0 at 0x100 and attr2.w P10 at 0x17c.
  std::vector<Val> prims = in;
  prims[0] = {"m0", 0x00010100};
  prims.push_back({"lds:0x764", f32(10.0f)});
  prims.push_back({"lds:0x774", f32(20.0f)});
  std::vector<Val> attrs = in;
  attrs.push_back({"lds:0x100", f32(7.0f)});
  attrs.push_back({"lds:0x17c", f32(-9.0f)});
  const uint32_t kHalf = 0xffff;
  checkCases({
      {"v_interp_p1_f32 v3, v1, attr1.y", in, {{"v3", f32(2.0f)}}},
      {"v_interp_p2_f32 v3, v2, attr1.y", inP2, {{"v3", f32(3.5f)}}},
      {"v_interp_mov_f32 v3, p10, attr1.y", in, {{"v3", f32(2.0f)}}},
      {"v_interp_mov_f32 v3, p20, attr1.y", in, {{"v3", f32(3.0f)}}},
      {"v_interp_mov_f32 v3, p0, attr1.y", in, {{"v3", f32(1.5f)}}},
      {"v_interp_p1_f32 v3, v1, attr1.y", prims, {{"v3@3", f32(2.0f)}, {"v3@4", f32(15.0f)}}},
      {"v_interp_mov_f32 v3, p0, attr0.x", attrs, {{"v3", f32(7.0f)}}},
      {"v_interp_mov_f32 v3, p10, attr2.w", attrs, {{"v3", f32(-9.0f)}}},
      {"v_interp_p1_f32_e64 v3, v1, attr1.y", in, {{"v3", f32(2.0f)}}},
      {"v_interp_p1_f32_e64 v3, v1, attr1.y mul:2", in, {{"v3", f32(4.0f)}}},
      {"v_interp_p2_f32_e64 v3, v2, attr1.y", inP2, {{"v3", f32(3.5f)}}},
      {"v_interp_mov_f32_e64 v3, p20, attr1.y", in, {{"v3", f32(3.0f)}}},
      {"v_interp_p1ll_f16 v3, v1, attr1.y", in16, {{"v3", f32(2.0f)}}},
      {"v_interp_p1ll_f16 v3, v1, attr1.y high", in16, {{"v3", f32(4.0f)}}},
      {"v_interp_p1lv_f16 v3, v1, attr1.y, v4", in16, {{"v3", f32(1.5f)}}},
      {"v_interp_p1lv_f16 v3, v1, attr1.y, v4 high", in16, {{"v3", f32(6.0f)}}},
      // A negated S2 (input modifier neg): the selected half's value is negated.
      {"v_interp_p1lv_f16 v3, v1, attr1.y, -v4", in16, {{"v3", f32(-0.5f)}}},
      {"v_interp_p1lv_f16 v3, v1, attr1.y, -v4 high", in16, {{"v3", f32(-4.0f)}}},
      {"v_interp_p2_f16 v3, v2, attr1.y, v5", in16, {{"v3", 0x4300, kHalf}}},
      {"v_interp_p2_f16 v3, v2, attr1.y, v5 high", in16, {{"v3", 0x3c00, kHalf}}},
      {"v_interp_p2_legacy_f16 v3, v2, attr1.y, v5", in16, {{"v3", 0x4300, kHalf}}},
      {"v_interp_p2_legacy_f16 v3, v2, attr1.y, v5 high", in16, {{"v3", 0x3c00, kHalf}}},
  });
}

}  // namespace
}  // namespace vgpu::isa::test
