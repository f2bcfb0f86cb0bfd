#include "WaveRunner.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "isa/Atomics.h"
#include "lds/LdsElementRules.h"

namespace vgpu::isa::test {

CodeFile loadCode(const std::string& name) {
  const std::string dir = VGPU_ISA_TEST_DATA;
  CodeFile c;
  std::ifstream bin(dir + "/" + name + ".bin", std::ios::binary);
  if (!bin) throw std::runtime_error("missing " + dir + "/" + name + ".bin");
  c.text.assign(std::istreambuf_iterator<char>(bin), {});
  std::ifstream addr(dir + "/" + name + ".addr");
  std::string hexAddr;
  addr >> hexAddr;
  c.base = hexAddr.empty() ? 0 : std::stoull(hexAddr, nullptr, 16);
  std::ifstream dis(dir + "/" + name + ".dis");
  const std::regex line(R"(^\t(.*?)\s*// ([0-9A-Fa-f]+):.*$)");
  const std::regex label(R"(^([0-9A-Fa-f]+) <([A-Za-z0-9_]+)>:\s*$)");
  std::string l;
  std::smatch m;
  while (std::getline(dis, l)) {
    if (std::regex_match(l, m, line))
      c.reference.emplace_back(std::stoull(m[2].str(), nullptr, 16), m[1].str());
    else if (std::regex_match(l, m, label))
      c.labels[m[2].str()] = std::stoull(m[1].str(), nullptr, 16);
  }
  return c;
}

WaveRunner WaveRunner::atLabel(const std::string& program, const std::string& label,
                               GfxTarget target) {
  // Each program is read once per process: the tests start hundreds of waves from one file.
  static std::map<std::string, CodeFile> loaded;
  auto it = loaded.find(program);
  if (it == loaded.end()) it = loaded.emplace(program, loadCode("prog_" + program)).first;
  const auto at = it->second.labels.find(label);
  if (at == it->second.labels.end())
    throw std::runtime_error("prog_" + program + " has no label '" + label + "'");
  WaveRunner r(it->second, target);
  r.wave.pc = at->second;
  return r;
}

WaveRunner::WaveRunner(const std::string& name, GfxTarget target)
    : WaveRunner(loadCode("prog_" + name), target) {}

WaveRunner::WaveRunner(const CodeFile& code, GfxTarget target) {
  program = Program::decode(code.text, code.base, target);
  ctx.target = target;
  ctx.ldsSize = 65536;
  ctx.ldsData = lds.data();
  wave.resizeVgprs(256);
  wave.exec = ~0ull;
  wave.pc = code.base;
}

std::set<const OpInfo*>& WaveRunner::executedOps() {
  static std::set<const OpInfo*> ops;
  return ops;
}

void WaveRunner::serve(MemRequest& mem) {
  if (mem.space == MemSpace::Scalar) {
    if (mem.laneMask & 1) {
      const uint64_t a = mem.address(0, 0);
      for (int i = 0; i < mem.elementBytes; ++i) {
        if (mem.op == MemOp::Load) mem.data[i] = memory.read8(a + i);
        if (mem.op == MemOp::Store) memory.write8(a + i, mem.data[i]);
      }
      if (mem.op == MemOp::Atomic) {
        uint8_t buf[8], old[8];
        for (int i = 0; i < mem.elementBytes; ++i) buf[i] = memory.read8(a + i);
        applyAtomic(mem.atomic, mem.elementBytes, buf, &mem.data[0], &mem.cmp[0], old);
        for (int i = 0; i < mem.elementBytes; ++i) memory.write8(a + i, buf[i]);
        std::memcpy(&mem.data[0], old, mem.elementBytes);
      }
    }
    return;
  }
  if (!mem.texels.empty()) {  // image sampling: the texel list replaces the lanes' elements
    for (size_t i = 0; i < mem.texels.size(); ++i)
      if (mem.texels[i].fetch)
        for (int b = 0; b < mem.elementBytes; ++b)
          mem.texelElement(i)[b] = memory.read8(mem.texels[i].address + b);
    return;
  }
  // A lane permute or swizzle carries its result already: no LDS byte to read or write.
  if (mem.crossLane != MemRequest::CrossLane::None) return;
  const bool toLds = mem.space == MemSpace::Lds;
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((mem.laneMask >> l) & 1)) continue;
    for (int e = 0; e < mem.elementsPerLane; ++e) {
      const uint64_t a = mem.address(l, e);
      uint8_t* d = mem.element(l, e);
      if (toLds && a + mem.elementBytes > lds.size()) {
        mem.faulted = true;
        mem.faultAddress = a;
        continue;
      }
      auto rd = [&](uint64_t x) { return toLds ? lds[x] : memory.read8(x); };
      auto wr = [&](uint64_t x, uint8_t v) {
        if (toLds)
          lds[x] = v;
        else
          memory.write8(x, v);
      };
      const int bytes = mem.laneBytes[l] ? mem.laneBytes[l] : mem.elementBytes;
      if (mem.op == MemOp::Load) {
        for (int i = 0; i < bytes; ++i) d[i] = rd(a + i);
      } else if (mem.op == MemOp::Store) {
        for (int i = 0; i < bytes; ++i) wr(a + i, d[i]);
      } else {
        uint8_t buf[16], old[16];
        for (int i = 0; i < mem.elementBytes; ++i) buf[i] = rd(a + i);
        applyAtomic(mem.atomic, mem.elementBytes, buf, d, mem.cmpElement(l, e), old);
        for (int i = 0; i < mem.elementBytes; ++i) wr(a + i, buf[i]);
        std::memcpy(d, old, mem.elementBytes);
      }
    }
  }
}

StepResult WaveRunner::step() {
  const Instruction* in = program.at(wave.pc);
  if (!in) {
    StepResult r;
    r.kind = StepKind::Fault;
    r.fault = "PC outside the program";
    return r;
  }
  ctx.ldsData = lds.data();
  StepResult r = execute(*in, wave, mem_, ctx);
  if (r.kind != StepKind::Fault && in->op) executedOps().insert(in->op);
  if (r.kind == StepKind::Memory) {
    if (recordRequests) requests.push_back(mem_);
    // The LDS side of BUFFER_STORE_LDS_DWORD (its data read from the LDS first) and of loads
    // into the LDS (their data written there after), by the LDS's element rules, as the
    // compute unit's memory port does it.
    const lds::LdsWindow window{lds.data(), ctx.ldsSize};
    if (ldsReadOfStore(mem_, ldsSide_)) {
      lds::executeRequest(ldsSide_, window);
      storeDataFromLds(mem_, ldsSide_);
    }
    serve(mem_);
    if (ldsWriteOfLoad(mem_, ldsSide_)) lds::executeRequest(ldsSide_, window);
    // As the compute unit does: the result goes to a request kept for the access in flight
    // (one reused for every access, as the CU's pool reuses them), which completes it.
    mem_.moveResultTo(inFlight_);
    completeMemory(wave, inFlight_);
  }
  if (r.kind != StepKind::Continue) events.push_back(r);
  return r;
}

StepResult WaveRunner::run(int maxSteps) {
  StepResult r;
  for (int i = 0; i < maxSteps; ++i) {
    r = step();
    if (r.kind == StepKind::EndProgram || r.kind == StepKind::Fault || r.kind == StepKind::Halt)
      return r;
  }
  r.kind = StepKind::Fault;
  r.fault = "step limit reached";
  return r;
}

}  // namespace vgpu::isa::test
