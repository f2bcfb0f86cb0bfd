// The no-fault sweep: executes every instruction of the llvm-objdump corpora once on a prepared
// wave (EXEC partly off, small register values that make valid addresses): each opcode must
// execute without a fault at least once. It compares no result (except v_pk_fmac_f16's, which
// llvm-mc-15 cannot assemble): it guarantees that no decoded compute opcode is left without an
// executor. Results are compared by the value-checking tests (ValueCheck.h and the other
// files); the coverage report's "result checked by" column names them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "WaveRunner.h"
#include "isa/Gws.h"
#include "isa/OpInfo.h"

namespace vgpu::isa::test {
namespace {

void prepare(WaveRunner& r, uint64_t pc, unsigned variant) {
  WaveState& w = r.wave;
  for (int i = 0; i < kNumSgprs; ++i) w.sgpr[i] = static_cast<uint32_t>(i * 16 + variant);
  if (variant == 2) {
    // Every SGPR quad a raw buffer V#: base 0x10000, 1 MiB, BUF_DATA_FORMAT_32 / UINT.
    for (int i = 0; i + 3 < kNumSgprs; i += 4) {
      w.sgpr[i] = 0x10000;
      w.sgpr[i + 1] = 0;
      w.sgpr[i + 2] = 0x100000;
      w.sgpr[i + 3] = (4u << 12) | (4u << 15);
    }
  }
  // Dword-aligned values; variant 3 aligns them to 8 bytes, which 64-bit atomics need.
  const uint32_t scale = variant == 3 ? 8 : 4;
  for (uint32_t v = 0; v < w.numVgprs; ++v)
    for (int l = 0; l < kWaveSize; ++l) r.v(static_cast<int>(v), l) = (v * 64 + l) * scale % 4096;
  w.exec = variant & 1 ? 0x00ff00ff00ff00ffull : ~0ull;
  w.vcc = 0x5555aaaa5555aaaaull;
  w.m0 = 0x100;
  w.mode = variant & 2 ? 1u << 29 : 0;  // MODE.CSP = 1: s_cbranch_join has an entry to pop
  w.tba = 0;
  w.flatScratch = 0x100000;
  w.pc = pc;
}

std::map<std::string, int> sweep(const std::string& name) {
  const CodeFile code = loadCode(name);
  WaveRunner r(code, GfxTarget::Gfx906);
  GwsState gws;  // for the ds_gws_* (sema_p and barrier may return GwsWait: not a fault)
  r.ctx.gws = &gws;
  std::map<std::string, int> faults;
  for (const Instruction& in : r.program.instructions()) {
    if (!in.op || (in.op->flags & kGraphics)) continue;
    for (unsigned variant = 0; variant < 4; ++variant) {
      prepare(r, in.pc, variant);
      const StepResult res = r.step();
      if (res.kind == StepKind::Fault) ++faults[in.op->name];
    }
  }
  return faults;
}

// Encodings llvm-mc-15 cannot produce: v_pk_fmac_f16 (gfx906, unknown to LLVM 15) and the
// SI/CI opcode 0x71 of buffer_wbinvl1 that llvm-objdump-15 still decodes.
WaveRunner runRawEncodings() {
  CodeFile code;
  code.base = 0x1000;
  // v_pk_fmac_f16 v0, v1, v2 ; buffer_wbinvl1 (0x71) ; s_endpgm
  for (uint32_t w : {0x78000501u, 0xe1c40000u, 0x00000000u, 0xbf810000u})
    for (int i = 0; i < 4; ++i) code.text.push_back(static_cast<uint8_t>(w >> (8 * i)));
  WaveRunner r(code, GfxTarget::Gfx906);
  for (int l = 0; l < kWaveSize; ++l) {
    r.v(0, l) = 0x3c003c00;  // (1.0, 1.0)
    r.v(1, l) = 0x40004000;  // (2.0, 2.0)
    r.v(2, l) = 0x42004400;  // (4.0, 3.0)
  }
  const StepResult res = r.run();
  EXPECT_EQ(res.kind, StepKind::EndProgram) << res.fault;
  return r;
}

TEST(NoFaultSweep, EncodingsLlvmCannotAssembleRunAndPcFmacAdds) {
  WaveRunner r = runRawEncodings();
  EXPECT_EQ(disassemble(*r.program.at(0x1004), GfxTarget::Gfx906), "buffer_wbinvl1");
  // 2 * 4 + 1 = 9 (0x4880) in the low half, 2 * 3 + 1 = 7 (0x4700) in the high half.
  EXPECT_EQ(r.v(0, 5), 0x47004880u);
}

TEST(NoFaultSweep, EveryCorpusOpcodeExecutesWithoutFault) {
  sweep("corpus");
  sweep("corpus_generated");
  runRawEncodings();
  // Every non-graphics opcode of the library ran at least once without a fault.
  std::vector<std::string> missing;
  for (const OpTable& t : {sopTable(), soppTable(), smemTable(), valuTable(), vop3Table(),
                           vopcTable(), vop3pTable(), dsTable(), vmemTable(), interpTable()}) {
    for (int i = 0; i < t.count; ++i) {
      const OpInfo& o = t.ops[i];
      if (!(o.flags & kGraphics) && !WaveRunner::executedOps().count(&o)) missing.push_back(o.name);
    }
  }
  std::string list;
  for (const std::string& m : missing) list += m + " ";
  EXPECT_TRUE(missing.empty()) << missing.size() << " opcodes never executed: " << list;
}

TEST(NoFaultSweep, ImageOpcodesRunOrFaultClearly) {
  // MIMG opcodes on the sweep's arbitrary SGPRs as a T# either run or fault with a message (an
  // unusable descriptor); opcodes marked not modelled fault naming the opcode. A fault leaves
  // PC on the instruction. (ImageExecution.EveryOpcodeRunsOnALinearImage runs each on a valid
  // descriptor.)
  const CodeFile code = loadCode("corpus_generated");
  WaveRunner r(code, GfxTarget::Gfx906);
  int images = 0, unmodelled = 0;
  for (const Instruction& in : r.program.instructions()) {
    if (!in.op || in.op->enc != Enc::Mimg) continue;
    prepare(r, in.pc, 0);
    const StepResult res = r.step();
    if (in.op->flags & kNotModelled) {
      EXPECT_EQ(res.kind, StepKind::Fault);
      EXPECT_EQ(res.fault.rfind(std::string(in.op->name) + " is not modelled yet", 0), 0u)
          << res.fault;
      ++unmodelled;
    }
    if (res.kind == StepKind::Fault) {
      EXPECT_FALSE(res.fault.empty());
      EXPECT_EQ(r.wave.pc, in.pc);
    }
    ++images;
  }
  EXPECT_GT(images, 50);
  EXPECT_EQ(unmodelled, 0) << "every MIMG opcode has an executor (docs/images.md)";
}

}  // namespace
}  // namespace vgpu::isa::test
