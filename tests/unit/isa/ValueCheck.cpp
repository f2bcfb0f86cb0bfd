#include "ValueCheck.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "WaveRunner.h"
#include "isa/Coverage.h"
#include "isa/OpInfo.h"

namespace vgpu::isa::test {
namespace {

constexpr uint64_t kBase = 0x1000;

std::string testName() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info ? std::string("isa.") + info->test_suite_name() + "." + info->name() : "?";
}

// llvm-mc-15 -show-encoding on the cases, one instruction per line; returns each instruction's
// bytes.
std::vector<std::vector<uint8_t>> assemble(const std::vector<std::string>& lines,
                                           const std::string& asmCpu) {
  std::string name = testName();
  for (char& c : name)
    if (c == '/' || c == '.') c = '_';
  const std::string file = "/tmp/vgpu-values-" + std::to_string(::getpid()) + "-" + name + ".s";
  {
    std::ofstream s(file);
    for (const std::string& l : lines) s << l << "\n";
  }
  const std::string cmd = std::string(VGPU_LLVM_MC) + " -arch=amdgcn -mcpu=" + asmCpu +
                          " -show-encoding " + file + " 2>&1";
  std::string out;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot run " << cmd;
    return {};
  }
  char buf[1024];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  EXPECT_EQ(::pclose(pipe), 0) << out;
  std::remove(file.c_str());
  std::vector<std::vector<uint8_t>> insts;
  std::istringstream lines(out);
  std::string l;
  while (std::getline(lines, l)) {
    const size_t p = l.find("encoding: [");
    if (p == std::string::npos) continue;
    const size_t end = l.find(']', p);
    std::vector<uint8_t> bytes;
    for (size_t q = l.find("0x", p); q != std::string::npos && q < end; q = l.find("0x", q + 2))
      bytes.push_back(static_cast<uint8_t>(std::strtoul(l.c_str() + q, nullptr, 16)));
    insts.push_back(bytes);
  }
  return insts;
}

// The mnemonic of the case without the _e32/_e64/_sdwa/_dpp encoding suffix.
std::string mnemonic(const std::string& text) {
  std::string m = text.substr(0, text.find_first_of(" \t"));
  for (const char* suffix : {"_e32", "_e64", "_sdwa", "_dpp"}) {
    const std::string s = suffix;
    if (m.size() > s.size() && m.compare(m.size() - s.size(), s.size(), s) == 0)
      m.resize(m.size() - s.size());
  }
  return m;
}

struct Place {
  enum Kind { Sgpr, Vgpr, Vcc, Exec, Scc, M0, Mem, Lds, Mode, PcRel, FlatScratch } kind;
  uint64_t index = 0;
  int lane = -1;  // Vgpr: -1 for every lane
};

Place parse(const std::string& at) {
  auto num = [&](size_t from) { return std::strtoull(at.c_str() + from, nullptr, 0); };
  if (at == "vcc") return {Place::Vcc};
  if (at == "exec") return {Place::Exec};
  if (at == "scc") return {Place::Scc};
  if (at == "m0") return {Place::M0};
  if (at == "mode") return {Place::Mode};
  if (at == "flat_scratch") return {Place::FlatScratch};
  if (at == "pcrel") return {Place::PcRel};
  if (at.rfind("mem:", 0) == 0) return {Place::Mem, num(4)};
  if (at.rfind("lds:", 0) == 0) return {Place::Lds, num(4)};
  if (at[0] == 's') return {Place::Sgpr, num(1)};
  if (at[0] == 'v') {
    const size_t lane = at.find('@');
    return {Place::Vgpr, num(1), lane == std::string::npos ? -1 : static_cast<int>(num(lane + 1))};
  }
  throw std::runtime_error("bad place " + at);
}

// Sets the starting state of `r` from `in`.
void applyState(WaveRunner& r, const std::vector<Val>& in) {
  for (const Val& v : in) {
    const Place p = parse(v.at);
    const uint32_t v32 = static_cast<uint32_t>(v.value);
    switch (p.kind) {
      case Place::Sgpr:
        r.s(static_cast<int>(p.index)) = v32;
        break;
      case Place::Vgpr:
        for (int l = 0; l < kWaveSize; ++l)
          if (p.lane < 0 || p.lane == l) r.v(static_cast<int>(p.index), l) = v32;
        break;
      case Place::Vcc:
        r.wave.vcc = v.value;
        break;
      case Place::Exec:
        r.wave.exec = v.value;
        break;
      case Place::Scc:
        r.wave.scc = v.value != 0;
        break;
      case Place::M0:
        r.wave.m0 = v32;
        break;
      case Place::Mem:
        r.memory.write32(p.index, v32);
        break;
      case Place::Lds:
        std::memcpy(&r.lds[p.index], &v32, 4);
        break;
      case Place::Mode:
        r.wave.mode = v32;
        break;
      case Place::FlatScratch:
        r.wave.flatScratch = v.value;
        break;
      case Place::PcRel:
        throw std::runtime_error("pcrel is a result only");
    }
  }
}

// Compares the state of `r` with `out` (PC relative to `pcBase`); true if all held.
bool compareState(WaveRunner& r, const std::vector<Val>& out, uint64_t pcBase,
                  const std::string& text) {
  bool ok = true;
  for (const Val& v : out) {
    const Place p = parse(v.at);
    auto expect = [&](uint64_t got, const std::string& where) {
      got &= v.mask;
      EXPECT_EQ(got, v.value) << where << " of " << text << ": 0x" << std::hex << got
                              << ", expected 0x" << v.value;
      ok = ok && got == v.value;
    };
    switch (p.kind) {
      case Place::Sgpr:
        expect(r.s(static_cast<int>(p.index)), v.at);
        break;
      case Place::Vgpr:
        for (int l = 0; l < kWaveSize; ++l)
          if (p.lane < 0 || p.lane == l)
            expect(r.v(static_cast<int>(p.index), l),
                   "v" + std::to_string(p.index) + "@" + std::to_string(l));
        break;
      case Place::Vcc:
        expect(r.wave.vcc, v.at);
        break;
      case Place::Exec:
        expect(r.wave.exec, v.at);
        break;
      case Place::Scc:
        expect(r.wave.scc, v.at);
        break;
      case Place::M0:
        expect(r.wave.m0, v.at);
        break;
      case Place::Mode:
        expect(r.wave.mode, v.at);
        break;
      case Place::PcRel:
        expect(r.wave.pc - pcBase, v.at);
        break;
      case Place::FlatScratch:
        expect(r.wave.flatScratch, v.at);
        break;
      case Place::Mem:
        expect(r.memory.read32(p.index), v.at);
        break;
      case Place::Lds: {
        uint32_t d;
        std::memcpy(&d, &r.lds[p.index], 4);
        expect(d, v.at);
        break;
      }
    }
  }
  return ok;
}

void appendWord(CodeFile& code, uint32_t w) {
  for (int i = 0; i < 4; ++i) code.text.push_back(static_cast<uint8_t>(w >> (8 * i)));
}

// A wave state in which every register, the LDS and 256 bytes of test memory at 0x2000 hold
// distinct non-zero values (checkNoArchitecturalEffect).
void fillState(WaveRunner& r) {
  WaveState& w = r.wave;
  for (int i = 0; i < kNumSgprs; ++i)
    w.sgpr[i] = 0x5a000000u + 0x01010101u * static_cast<uint32_t>(i);
  w.sgpr[0] = 0x2000;  // an address for the instructions that take one: test memory
  w.sgpr[1] = 0;
  for (uint32_t v = 0; v < w.numVgprs; ++v)
    for (int l = 0; l < kWaveSize; ++l)
      r.v(static_cast<int>(v), l) = 0xa5000000u + v * 0x100u + static_cast<uint32_t>(l) + 1u;
  for (int i = 0; i < kNumTtmps; ++i) w.ttmp[i] = 0x7e000000u + static_cast<uint32_t>(i);
  w.exec = 0xfedcba9876543210ull;
  w.vcc = 0x0123456789abcdefull;
  w.scc = true;
  w.m0 = 0x00012340;
  w.mode = 0x000000f0;  // denormals kept: a non-zero MODE
  w.trapsts = 0;
  w.flatScratch = 0x100000;
  for (size_t i = 0; i < r.lds.size(); ++i) r.lds[i] = static_cast<uint8_t>(i * 7 + 1);
  for (uint64_t a = 0x2000; a < 0x2100; ++a) r.memory.write8(a, static_cast<uint8_t>(a * 3 + 1));
}

bool sameState(const WaveState& a, const WaveState& b) {
  return a.sgpr == b.sgpr && a.vgpr == b.vgpr && a.exec == b.exec && a.vcc == b.vcc &&
         a.scc == b.scc && a.m0 == b.m0 && a.pc == b.pc && a.mode == b.mode &&
         a.trapsts == b.trapsts && a.ib_sts == b.ib_sts && a.flatScratch == b.flatScratch &&
         a.xnackMask == b.xnackMask && a.ttmp == b.ttmp && a.tba == b.tba && a.tma == b.tma;
}

void record(const OpInfo* op) {
  valueChecked().emplace(op, testName());
}

}  // namespace

std::map<const OpInfo*, std::string>& valueChecked() {
  static std::map<const OpInfo*, std::string> checked;
  return checked;
}

void checkCases(const std::vector<Case>& cases, const std::string& asmCpu) {
  std::vector<std::string> lines;
  for (const Case& c : cases) lines.push_back(c.text);
  const std::vector<std::vector<uint8_t>> insts = assemble(lines, asmCpu);
  ASSERT_EQ(insts.size(), cases.size()) << "llvm-mc-15 gave a different number of instructions";
  CodeFile code;
  code.base = kBase;
  std::vector<uint64_t> pcs;
  for (const auto& bytes : insts) {
    pcs.push_back(kBase + code.text.size());
    code.text.insert(code.text.end(), bytes.begin(), bytes.end());
  }
  appendWord(code, 0xbf810000u);  // s_endpgm
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(c.text);
    ASSERT_FALSE(c.out.empty()) << "a case that checks nothing";
    WaveRunner r(code, GfxTarget::Gfx906);
    r.wave.exec = ~0ull;
    r.wave.m0 = ~0u;
    r.wave.mode = c.mode;
    r.wave.pc = pcs[i];
    applyState(r, c.in);
    const Instruction* in = r.program.at(pcs[i]);
    ASSERT_TRUE(in && in->op) << "not decoded";
    EXPECT_EQ(mnemonic(in->op->name), mnemonic(c.text)) << "decoded as another opcode";
    const StepResult res = r.step();
    ASSERT_NE(res.kind, StepKind::Fault) << res.fault;
    bool ok = mnemonic(in->op->name) == mnemonic(c.text);
    ok = compareState(r, c.out, pcs[i], c.text) && ok;
    if (ok) record(in->op);
  }
}

CodeFile assembleProgram(const std::string& text, std::vector<uint64_t>* pcs) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.find_first_not_of(" \t") != std::string::npos) lines.push_back(l);
  const std::vector<std::vector<uint8_t>> insts = assemble(lines, "gfx906");
  EXPECT_EQ(insts.size(), lines.size()) << "llvm-mc-15 gave a different number of instructions";
  CodeFile code;
  code.base = kBase;
  for (const auto& bytes : insts) {
    if (pcs) pcs->push_back(kBase + code.text.size());
    code.text.insert(code.text.end(), bytes.begin(), bytes.end());
  }
  appendWord(code, 0xbf810000u);  // s_endpgm
  return code;
}

void checkPrograms(const std::vector<ProgramCase>& cases) {
  for (const ProgramCase& c : cases) {
    SCOPED_TRACE(c.text);
    ASSERT_FALSE(c.out.empty()) << "a program that checks nothing";
    std::vector<uint64_t> pcs;
    const CodeFile code = assembleProgram(c.text, &pcs);
    ASSERT_FALSE(pcs.empty());
    WaveRunner r(code, GfxTarget::Gfx906);
    r.wave.exec = ~0ull;
    r.wave.m0 = ~0u;
    applyState(r, c.in);
    const StepResult res = r.run(1000);
    ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
    const bool ok = compareState(r, c.out, kBase, c.text);
    for (const std::string& name : c.checks) {
      bool found = false;
      for (const uint64_t pc : pcs) {
        const Instruction* in = r.program.at(pc);
        ASSERT_TRUE(in && in->op) << "not decoded at 0x" << std::hex << pc;
        if (mnemonic(in->op->name) != name) continue;
        found = true;
        if (ok) record(in->op);
      }
      EXPECT_TRUE(found) << name << " is not in the program";
    }
  }
}

void checkNoArchitecturalEffect(const std::vector<std::string>& instructions) {
  std::vector<std::string> toAssemble;
  for (const std::string& t : instructions)
    if (t.find("// raw") == std::string::npos) toAssemble.push_back(t);
  const std::vector<std::vector<uint8_t>> assembled = assemble(toAssemble, "gfx906");
  ASSERT_EQ(assembled.size(), toAssemble.size()) << "llvm-mc-15 gave a different count";
  size_t next = 0;
  for (const std::string& t : instructions) {
    SCOPED_TRACE(t);
    CodeFile code;
    code.base = kBase;
    const size_t raw = t.find("// raw");
    if (raw == std::string::npos) {
      code.text = assembled[next++];
    } else {
      std::istringstream words(t.substr(raw + 6));
      for (std::string w; words >> w;)
        appendWord(code, static_cast<uint32_t>(std::strtoul(w.c_str(), nullptr, 16)));
    }
    const size_t size = code.text.size();
    appendWord(code, 0xbf810000u);  // s_endpgm
    WaveRunner r(code, GfxTarget::Gfx906);
    fillState(r);
    const WaveState before = r.wave;
    const std::vector<uint8_t> ldsBefore = r.lds;
    const std::map<uint64_t, uint8_t> memoryBefore = r.memory.bytes();
    const Instruction* in = r.program.at(kBase);
    ASSERT_TRUE(in && in->op) << "not decoded";
    const std::string name = mnemonic(t);
    EXPECT_EQ(std::string(in->op->name), name) << "decoded as another opcode";
    const StepResult res = r.step();
    ASSERT_NE(res.kind, StepKind::Fault) << res.fault;
    EXPECT_EQ(r.wave.pc, kBase + size) << "the PC did not advance by the instruction's size";
    WaveState expected = before;
    expected.pc = kBase + size;
    const bool same = sameState(r.wave, expected);
    EXPECT_TRUE(same) << "a register changed";
    EXPECT_TRUE(r.lds == ldsBefore) << "the LDS changed";
    EXPECT_TRUE(r.memory.bytes() == memoryBefore) << "memory changed";
    if (same && r.lds == ldsBefore && r.memory.bytes() == memoryBefore &&
        std::string(in->op->name) == name)
      record(in->op);
  }
}

void recordValueChecked(const std::vector<std::string>& mnemonics) {
  if (::testing::Test::HasFailure()) return;
  for (const std::string& name : mnemonics) {
    bool found = false;
    for (const OpcodeStatus& row : opcodeTable())
      if (row.name == name) {
        record(row.op);
        found = true;
      }
    EXPECT_TRUE(found) << "no opcode " << name;
  }
}

}  // namespace vgpu::isa::test
