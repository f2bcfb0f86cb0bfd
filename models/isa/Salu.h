// Values an SALU table entry's function sees (Sop.cpp).
#pragma once

#include "isa/Operands.h"

namespace vgpu::isa {

struct SaluVals {
  WaveState& w;
  const Instruction& in;
  const ExecContext& ctx;
  uint64_t a = 0, b = 0;  // ssrc0, ssrc1 (SOPK: a = the sdst register's value)
  uint64_t d = 0;         // result, written to sdst when `write`
  bool scc = false;       // in: current SCC; out: new SCC
  bool write = true;
  bool pcSet = false;  // the function set w.pc itself
  uint32_t imm = 0;    // SOPK simm16 (raw) or s_setreg_imm32 literal
  const char* fault = nullptr;
  SaluVals(WaveState& wave, const Instruction& inst, const ExecContext& c)
      : w(wave), in(inst), ctx(c) {}
};

// s_getreg/s_setreg hardware register ids (Vega ISA guide 4.4 / LLVM SIDefines.h).
enum HwReg : int {
  kHwRegMode = 1,
  kHwRegStatus = 2,
  kHwRegTrapsts = 3,
  kHwRegHwId = 4,
  kHwRegGprAlloc = 5,
  kHwRegLdsAlloc = 6,
  kHwRegIbSts = 7,
  kHwRegShMemBases = 15,
};
const char* hwRegName(int id);

}  // namespace vgpu::isa
