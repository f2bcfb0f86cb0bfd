// Program flow: EXEC masking with saveexec, branches, loops, v_cmpx, and the step results the
// sequencer sees (s_waitcnt thresholds, s_nop/s_sleep, s_barrier, s_sendmsg, s_trap).
#include <gtest/gtest.h>

#include "WaveRunner.h"

namespace vgpu::isa::test {
namespace {

TEST(ControlFlow, SaveexecBranchesAndLoops) {
  WaveRunner r("control");
  for (int l = 0; l < 64; ++l) r.v(0, l) = static_cast<uint32_t>(l);
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  for (int l = 0; l < 64; ++l) {
    EXPECT_EQ(r.v(1, l), l < 16 ? 1u : 0u) << l;
    EXPECT_EQ(r.v(2, l), l < 4 ? 5u : 0u) << l;
  }
  EXPECT_EQ(r.s(4), 30u);  // the loop ran 10 times
  EXPECT_EQ(r.s(5), 10u);
  EXPECT_EQ(r.s(6), 0xffffffffu);
  EXPECT_EQ(r.s(7), 0xffffffffu);
  EXPECT_EQ(r.wave.exec, ~0ull);
  // s_getpc_b64 returns the address of the next instruction (the s_endpgm).
  const uint64_t getpc = r.s(8) | (static_cast<uint64_t>(r.s(9)) << 32);
  const Instruction* next = r.program.at(getpc);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(disassemble(*next, GfxTarget::Gfx906), "s_endpgm");
}

TEST(ControlFlow, SequencerStepResults) {
  WaveRunner r("misc");
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  ASSERT_EQ(r.events.size(), 8u);
  EXPECT_EQ(r.events[0].kind, StepKind::Waitcnt);
  EXPECT_EQ(r.events[0].vmcnt, 3u);
  EXPECT_EQ(r.events[0].expcnt, 2u);
  EXPECT_EQ(r.events[0].lgkmcnt, 1u);
  EXPECT_EQ(r.events[1].kind, StepKind::Waitcnt);
  EXPECT_EQ(r.events[1].vmcnt, 40u);  // uses the high vmcnt bits [15:14]
  EXPECT_EQ(r.events[1].expcnt, 7u);
  EXPECT_EQ(r.events[1].lgkmcnt, 15u);
  EXPECT_EQ(r.events[2].kind, StepKind::Sleep);
  EXPECT_EQ(r.events[2].cycles, 4u);
  EXPECT_EQ(r.events[3].kind, StepKind::Sleep);
  EXPECT_EQ(r.events[3].cycles, 128u);
  EXPECT_EQ(r.events[4].kind, StepKind::Barrier);
  EXPECT_EQ(r.events[5].kind, StepKind::Message);
  EXPECT_EQ(r.events[5].message, 1u);
  EXPECT_EQ(r.events[6].kind, StepKind::Trap);
  EXPECT_EQ(r.events[6].trapId, 2u);
  EXPECT_EQ(r.events[7].kind, StepKind::EndProgram);
}

TEST(ControlFlow, FaultLeavesPcOnTheInstruction) {
  // An unknown encoding faults without moving PC.
  const std::vector<uint8_t> bytes = {0x00, 0x00, 0xfe, 0xbf};
  const Program p = Program::decode(bytes, 0x100, GfxTarget::Gfx906);
  WaveState w;
  w.pc = 0x100;
  MemRequest mem;
  const StepResult r = execute(p.instructions()[0], w, mem, ExecContext{});
  EXPECT_EQ(r.kind, StepKind::Fault);
  EXPECT_FALSE(r.fault.empty());
  EXPECT_EQ(w.pc, 0x100u);
}

}  // namespace
}  // namespace vgpu::isa::test
