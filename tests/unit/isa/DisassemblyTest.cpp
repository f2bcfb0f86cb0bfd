// Disassembly against llvm-objdump-15: every instruction of every compiled test kernel, and
// an assembly corpus covering many mnemonics and operand forms.
#include <gtest/gtest.h>

#include <sstream>

#include "WaveRunner.h"

namespace vgpu::isa::test {
namespace {

// Compares every instruction line of data/NAME.dis; returns the number compared.
size_t compareWithObjdump(const std::string& name, GfxTarget target) {
  const CodeFile code = loadCode(name);
  const Program p = Program::decode(code.text, code.base, target);
  EXPECT_FALSE(code.reference.empty()) << name;
  size_t mismatches = 0;
  for (const auto& [addr, text] : code.reference) {
    const Instruction* in = p.at(addr);
    if (!in) {
      ADD_FAILURE() << name << " @0x" << std::hex << addr << ": no instruction boundary (expected '"
                    << text << "')";
      ++mismatches;
      continue;
    }
    const std::string got = disassemble(*in, target);
    if (got != text) {
      if (++mismatches <= 40) {
        ADD_FAILURE() << name << " @0x" << std::hex << addr << " [" << std::hex << in->words[0]
                      << " " << in->words[1] << "]\n  expected: " << text
                      << "\n  got:      " << got;
      }
    }
  }
  EXPECT_EQ(mismatches, 0u) << name;
  return code.reference.size();
}

std::vector<std::pair<std::string, GfxTarget>> kernels() {
  std::vector<std::pair<std::string, GfxTarget>> out;
  std::stringstream ss(VGPU_ISA_KERNELS);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto colon = item.find(':');
    out.emplace_back(item.substr(0, colon),
                     item.substr(colon + 1) == "gfx900" ? GfxTarget::Gfx900 : GfxTarget::Gfx906);
  }
  return out;
}

class KernelDisassembly : public ::testing::TestWithParam<std::pair<std::string, GfxTarget>> {};

TEST_P(KernelDisassembly, MatchesLlvmObjdump) {
  const size_t n = compareWithObjdump(GetParam().first, GetParam().second);
  EXPECT_GT(n, 10u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelDisassembly, ::testing::ValuesIn(kernels()),
                         [](const auto& info) { return info.param.first; });

TEST(Disassembly, CorpusMatchesLlvmObjdump) {
  const size_t n = compareWithObjdump("corpus", GfxTarget::Gfx906);
  EXPECT_GT(n, 100u);
}

// Every gfx906 opcode in randomised operand forms (tools/gen_corpus.py); the issue asks for
// at least 3000 encodings.
TEST(Disassembly, GeneratedCorpusMatchesLlvmObjdump) {
  const size_t n = compareWithObjdump("corpus_generated", GfxTarget::Gfx906);
  EXPECT_GE(n, 3000u);
}

TEST(Disassembly, GeneratedCorpusMatchesLlvmObjdumpOnGfx900) {
  const size_t n = compareWithObjdump("corpus_generated_gfx900", GfxTarget::Gfx900);
  EXPECT_GE(n, 3000u);
}

TEST(Decoder, SizesAndBoundaries) {
  // s_mov_b32 s0, literal (8 bytes); v_add_f32 dpp (8); s_nop (4).
  const std::vector<uint8_t> bytes = {0xff, 0x00, 0x80, 0xbe, 0x78, 0x56, 0x34, 0x12, 0xfa, 0x04,
                                      0x00, 0x02, 0x01, 0x13, 0x91, 0xff, 0x00, 0x00, 0x80, 0xbf};
  const Program p = Program::decode(bytes, 0x1000, GfxTarget::Gfx906);
  ASSERT_EQ(p.instructions().size(), 3u);
  EXPECT_EQ(p.instructions()[0].sizeBytes, 8);
  EXPECT_EQ(p.instructions()[0].literal, 0x12345678u);
  EXPECT_EQ(p.instructions()[1].sizeBytes, 8);
  EXPECT_EQ(p.at(0x1004), nullptr);
  ASSERT_NE(p.at(0x1010), nullptr);
  EXPECT_EQ(disassemble(*p.at(0x1010), GfxTarget::Gfx906), "s_nop 0");
}

TEST(Decoder, UnknownEncodingsAreOneWordAsInObjdump) {
  // An unknown VOP3 opcode (0x2ff) prints as one .long and decoding resumes at the next word
  // (llvm-objdump does the same); an unknown SOPP prints as .long.
  const std::vector<uint8_t> bytes = {0x00, 0x00, 0xff, 0xd2, 0x01, 0x00,
                                      0x80, 0xbf, 0x00, 0x00, 0xfe, 0xbf};
  const Program p = Program::decode(bytes, 0, GfxTarget::Gfx906);
  ASSERT_EQ(p.instructions().size(), 3u);
  EXPECT_EQ(p.instructions()[0].sizeBytes, 4);
  EXPECT_EQ(p.instructions()[0].op, nullptr);
  EXPECT_EQ(disassemble(p.instructions()[0], GfxTarget::Gfx906), ".long 0xd2ff0000");
  EXPECT_EQ(disassemble(p.instructions()[1], GfxTarget::Gfx906), "s_nop 1");
  EXPECT_EQ(disassemble(p.instructions()[2], GfxTarget::Gfx906), ".long 0xbffe0000");
}

TEST(Decoder, Gfx906OnlyOpcodesOnGfx900) {
  // v_fmac_f32_e32 v0, v1, v2 is gfx906-only: on gfx900 it prints as data and faults.
  const std::vector<uint8_t> bytes = {0x01, 0x05, 0x00, 0x76};
  const Program p = Program::decode(bytes, 0, GfxTarget::Gfx900);
  EXPECT_EQ(disassemble(p.instructions()[0], GfxTarget::Gfx906), "v_fmac_f32_e32 v0, v1, v2");
  EXPECT_EQ(disassemble(p.instructions()[0], GfxTarget::Gfx900), ".long 0x76000501");
  WaveState w;
  w.resizeVgprs(8);
  MemRequest mem;
  ExecContext ctx;
  ctx.target = GfxTarget::Gfx900;
  const StepResult r = execute(p.instructions()[0], w, mem, ctx);
  EXPECT_EQ(r.kind, StepKind::Fault);
  EXPECT_NE(r.fault.find("gfx906"), std::string::npos);
  EXPECT_EQ(w.pc, 0u);
}

}  // namespace
}  // namespace vgpu::isa::test
