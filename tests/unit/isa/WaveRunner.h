// A small functional wave runner for the ISA tests: executes a program until s_endpgm,
// serving MemRequests from a sparse test memory and an LDS array, and calling completeMemory.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "isa/Isa.h"

namespace vgpu::isa::test {

// Reference code extracted at build time: data/NAME.{bin,addr,dis}.
struct CodeFile {
  std::vector<uint8_t> text;
  uint64_t base = 0;
  // (address, llvm-objdump text) for every instruction line of NAME.dis.
  std::vector<std::pair<uint64_t, std::string>> reference;
  // The address of every label ("ADDRESS <name>:" lines of NAME.dis).
  std::map<std::string, uint64_t> labels;
};
CodeFile loadCode(const std::string& name);

class TestMemory {
 public:
  uint8_t read8(uint64_t a) const {
    auto it = bytes_.find(a);
    return it == bytes_.end() ? 0 : it->second;
  }
  void write8(uint64_t a, uint8_t v) { bytes_[a] = v; }
  uint32_t read32(uint64_t a) const {
    return read8(a) | (read8(a + 1) << 8) | (read8(a + 2) << 16) |
           (static_cast<uint32_t>(read8(a + 3)) << 24);
  }
  void write32(uint64_t a, uint32_t v) {
    for (int i = 0; i < 4; ++i) write8(a + i, static_cast<uint8_t>(v >> (8 * i)));
  }
  uint64_t read64(uint64_t a) const {
    return read32(a) | (static_cast<uint64_t>(read32(a + 4)) << 32);
  }
  void write64(uint64_t a, uint64_t v) {
    write32(a, static_cast<uint32_t>(v));
    write32(a + 4, static_cast<uint32_t>(v >> 32));
  }
  size_t size() const { return bytes_.size(); }
  const std::map<uint64_t, uint8_t>& bytes() const { return bytes_; }

 private:
  std::map<uint64_t, uint8_t> bytes_;
};

class WaveRunner {
 public:
  explicit WaveRunner(const std::string& program, GfxTarget target = GfxTarget::Gfx906);
  // Runs code from data/NAME (not a prog_ program): `code` already loaded.
  WaveRunner(const CodeFile& code, GfxTarget target);
  // A wave of data/prog_PROGRAM with its PC at `label` (an unknown label throws).
  static WaveRunner atLabel(const std::string& program, const std::string& label,
                            GfxTarget target = GfxTarget::Gfx906);

  // Every opcode (OpInfo) any WaveRunner in this process executed without a fault: the ISA
  // coverage test (vgpu_isa_coverage) reports their union.
  static std::set<const OpInfo*>& executedOps();

  // Runs until EndProgram, Fault or `maxSteps`; returns the last StepResult.
  StepResult run(int maxSteps = 100000);
  // Executes one instruction (serving its memory request at once).
  StepResult step();

  WaveState wave;
  ExecContext ctx;
  TestMemory memory;
  std::vector<uint8_t> lds = std::vector<uint8_t>(65536, 0);
  Program program;
  std::vector<StepResult> events;    // every non-Continue result, in order
  std::vector<MemRequest> requests;  // copies of every memory request as issued
  bool recordRequests = false;

  uint32_t& v(int reg, int lane) { return wave.v(static_cast<uint32_t>(reg))[lane]; }
  uint32_t& s(int reg) { return wave.sgpr[static_cast<size_t>(reg)]; }

 private:
  void serve(MemRequest& mem);
  MemRequest mem_;       // every instruction issues into it
  MemRequest inFlight_;  // what completes a memory access (MemRequest::moveResultTo)
  MemRequest ldsSide_;   // the LDS side of a load into / a store from the LDS
};

}  // namespace vgpu::isa::test
