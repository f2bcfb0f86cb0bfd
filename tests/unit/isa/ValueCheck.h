// Value-checking tables for single instructions. Each Case is one instruction in assembly (put
// through llvm-mc-15 at test time), the state it starts from and the results it must produce,
// worked out in the test from the Vega ISA reference guide's definition of the opcode. A case
// whose every expectation holds records its opcode, with the test's name, in the value-check
// registry that the coverage report (vgpu_isa_coverage, column "result checked by") reads.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "isa/Isa.h"

namespace vgpu::isa::test {

// A register, flag or memory word and its value. Names: "s5", "v3" (every lane), "v3@7" (lane
// 7), "vcc", "exec", "scc", "m0", "mode", "flat_scratch", "mem:0x2000" (a dword of test memory),
// "lds:0x40" (a dword of LDS), and in `out` only "pcrel" (the PC after the instruction minus its
// address). In `in` a name sets the starting value; in `out` it is compared after the instruction.
struct Val {
  std::string at;
  uint64_t value;
  uint64_t mask = ~0ull;  // in `out`: the bits compared (e.g. 0xffff for a 16-bit result)
};

struct Case {
  std::string text;      // one instruction, as llvm-mc-15 accepts it
  std::vector<Val> in;   // everything else starts at 0 (EXEC all ones, M0 all ones)
  std::vector<Val> out;  // at least one expectation
  uint32_t mode = 0;     // MODE register (round to nearest even, FP32 denormals flushed)
};

// Assembles every case, runs each once on a fresh wave and compares; records the opcode of every
// case that passed in valueChecked() under "isa.<Suite>.<Test>". `asmCpu` is llvm-mc-15's -mcpu
// for assembling only (the wave is always gfx906): gfx90a for v_pk_fmac_f16, which LLVM 15 knows
// only there, with the same encoding (VOP2 opcode 0x3c) as on gfx906.
void checkCases(const std::vector<Case>& cases, const std::string& asmCpu = "gfx906");

// Opcode -> the first test that compared its results with expected values.
std::map<const OpInfo*, std::string>& valueChecked();

inline uint32_t f32(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
inline uint64_t f64(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}
inline uint32_t lo(uint64_t v) {
  return static_cast<uint32_t>(v);
}
inline uint32_t hi(uint64_t v) {
  return static_cast<uint32_t>(v >> 32);
}

}  // namespace vgpu::isa::test
