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

#include "WaveRunner.h"
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

// A short program: instructions one per line (s_endpgm is appended), run on one fresh wave
// from the state `in` (defaults as in Case) until it ends. `out` as in Case ("pcrel" is the PC
// at the end minus the program's first address). Every instruction of the program whose
// mnemonic (without _e32/_e64) is in `checks` is recorded in valueChecked() when the program
// ended without a fault and every expectation held; each name in `checks` must occur in it.
struct ProgramCase {
  std::string text;
  std::vector<Val> in;
  std::vector<Val> out;
  std::vector<std::string> checks;
};
void checkPrograms(const std::vector<ProgramCase>& cases);

// The program of a ProgramCase for tests that run it themselves: assembled at 0x1000 with
// s_endpgm appended; `pcs` (if given) receives each instruction's address.
CodeFile assembleProgram(const std::string& text, std::vector<uint64_t>* pcs = nullptr);

// Instructions that must change no architectural state but the PC ("no effect other than PC
// advance"): each runs once on a wave whose SGPRs, VGPRs, EXEC, VCC, SCC, M0, TTMPs, LDS and a
// region of test memory hold distinct non-zero values, and afterwards every one of them, MODE,
// TRAPSTS, FLAT_SCRATCH, TBA/TMA and the fork/join stack must equal its value before, which is
// what a run of the same program without the instruction leaves; the PC must have advanced by
// the instruction's size. One instruction per string, as llvm-mc-15 accepts it, or "NAME //
// raw 0xWORD ..." for an encoding llvm-mc-15 cannot produce. Records each opcode that passed.
void checkNoArchitecturalEffect(const std::vector<std::string>& instructions);

// For tests that compare results in their own way (several waves, clocks): records every
// opcode named `mnemonic` under the running test's name. Call it only after the comparisons,
// and only when they passed (it records nothing once the test has a failure).
void recordValueChecked(const std::vector<std::string>& mnemonics);

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
