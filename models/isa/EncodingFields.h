// Small pieces of the gfx9 encodings that several parts of the ISA read: a bit field of a word,
// an opcode name's family, the s_waitcnt counters and a SOPP branch's target.
#pragma once

#include <cstdint>
#include <cstring>

namespace vgpu::isa {

// Bits [hi:lo] of `w`.
inline uint32_t bits(uint32_t w, int hi, int lo) {
  return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

// Whether mnemonic `s` begins with `prefix` (an opcode family: "s_cbranch", "ds_read").
inline bool startsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// gfx9 s_waitcnt fields (Vega ISA guide 4.4, 12.6): vmcnt = simm16[3:0] | simm16[15:14] << 4,
// expcnt = simm16[6:4], lgkmcnt = simm16[11:8].
struct WaitcntFields {
  uint32_t vm, exp, lgkm;
};
inline WaitcntFields waitcntFields(uint32_t simm16) {
  return {(simm16 & 0xf) | (((simm16 >> 14) & 3) << 4), (simm16 >> 4) & 7, (simm16 >> 8) & 0xf};
}

// A SOPP branch's target: the PC of the next instruction + simm16 * 4 (12.6 S_BRANCH).
inline uint64_t branchTarget(uint64_t pc, uint32_t simm16) {
  return pc + 4 + static_cast<uint64_t>(int64_t{static_cast<int16_t>(simm16)} * 4);
}

}  // namespace vgpu::isa
