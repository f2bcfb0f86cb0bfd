#include "ValueCheck.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "WaveRunner.h"
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
std::vector<std::vector<uint8_t>> assemble(const std::vector<Case>& cases,
                                           const std::string& asmCpu) {
  std::string name = testName();
  for (char& c : name)
    if (c == '/' || c == '.') c = '_';
  const std::string file = "/tmp/vgpu-values-" + std::to_string(::getpid()) + "-" + name + ".s";
  {
    std::ofstream s(file);
    for (const Case& c : cases) s << c.text << "\n";
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

}  // namespace

std::map<const OpInfo*, std::string>& valueChecked() {
  static std::map<const OpInfo*, std::string> checked;
  return checked;
}

void checkCases(const std::vector<Case>& cases, const std::string& asmCpu) {
  const std::vector<std::vector<uint8_t>> insts = assemble(cases, asmCpu);
  ASSERT_EQ(insts.size(), cases.size()) << "llvm-mc-15 gave a different number of instructions";
  CodeFile code;
  code.base = kBase;
  std::vector<uint64_t> pcs;
  for (const auto& bytes : insts) {
    pcs.push_back(kBase + code.text.size());
    code.text.insert(code.text.end(), bytes.begin(), bytes.end());
  }
  for (uint32_t w : {0xbf810000u})  // s_endpgm
    for (int i = 0; i < 4; ++i) code.text.push_back(static_cast<uint8_t>(w >> (8 * i)));
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    SCOPED_TRACE(c.text);
    ASSERT_FALSE(c.out.empty()) << "a case that checks nothing";
    WaveRunner r(code, GfxTarget::Gfx906);
    r.wave.exec = ~0ull;
    r.wave.m0 = ~0u;
    r.wave.mode = c.mode;
    r.wave.pc = pcs[i];
    for (const Val& v : c.in) {
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
    const Instruction* in = r.program.at(pcs[i]);
    ASSERT_TRUE(in && in->op) << "not decoded";
    EXPECT_EQ(std::string(in->op->name), mnemonic(c.text)) << "decoded as another opcode";
    const StepResult res = r.step();
    ASSERT_NE(res.kind, StepKind::Fault) << res.fault;
    bool ok = std::string(in->op->name) == mnemonic(c.text);
    for (const Val& v : c.out) {
      const Place p = parse(v.at);
      auto expect = [&](uint64_t got, const std::string& where) {
        got &= v.mask;
        EXPECT_EQ(got, v.value) << where << " of " << c.text << ": 0x" << std::hex << got
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
          expect(r.wave.pc - pcs[i], v.at);
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
    if (ok) valueChecked().emplace(in->op, testName());
  }
}

}  // namespace vgpu::isa::test
