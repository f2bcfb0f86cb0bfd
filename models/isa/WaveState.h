// Architectural state of one wavefront: everything an instruction can read or write.
// Plain C++ (no SystemC) so the ISA can be tested and fuzzed on its own.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace vgpu::isa {

constexpr int kWaveSize = 64;
constexpr int kNumSgprs = 102;  // s0..s101 addressable on gfx9
constexpr int kNumTtmps = 16;

enum class GfxTarget { Gfx900, Gfx906 };

struct WaveState {
  std::array<uint32_t, kNumSgprs> sgpr{};
  // VGPRs register-major: vgpr[reg * 64 + lane], sized by the kernel's VGPR count.
  std::vector<uint32_t> vgpr;
  uint32_t numVgprs = 0;

  uint64_t exec = 0;
  uint64_t vcc = 0;
  bool scc = false;
  uint32_t m0 = 0;
  uint64_t pc = 0;  // byte address in device memory
  uint32_t mode = 0;
  // MODE.VSKIP (bit 28; Vega ISA guide 3.3 "Mode Register"): while set, the wave skips every
  // vector instruction (VALU, vector memory, LDS/GDS, export) instead of executing it.
  static constexpr uint32_t kModeVskip = 1u << 28;
  uint32_t trapsts = 0;
  uint32_t ib_sts = 0;
  uint64_t flatScratch = 0;  // FLAT_SCRATCH: base of this wave's private segment (gfx9)
  uint64_t xnackMask = 0;
  std::array<uint32_t, kNumTtmps> ttmp{};
  uint64_t tba = 0;
  uint64_t tma = 0;

  // Fixed at dispatch, read by s_getreg HW_ID and friends.
  uint32_t hwId = 0;
  // SH_MEM_CONFIG.alignment_mode for this dispatch (Vega ISA guide 8.1.9 "Alignment"): 0 DWORD, 1
  // DWORD_STRICT, 2 STRICT, 3 UNALIGNED. amdkfd programs UNALIGNED on gfx9
  // (kfd_device_queue_manager_v9.c: SH_MEM_ALIGNMENT_MODE_UNALIGNED).
  uint8_t alignmentMode = 3;

  // The fork/join stack pointer (s_cbranch_*_fork / s_cbranch_join) is MODE[31:29] (CSP) and
  // its entries are SGPRs (Vega ISA guide 4.6): no state of its own.

  void resizeVgprs(uint32_t count) {
    numVgprs = count;
    vgpr.assign(static_cast<size_t>(count) * kWaveSize, 0u);
  }
  uint32_t* v(uint32_t reg) { return &vgpr[static_cast<size_t>(reg) * kWaveSize]; }
  const uint32_t* v(uint32_t reg) const { return &vgpr[static_cast<size_t>(reg) * kWaveSize]; }
};

}  // namespace vgpu::isa
