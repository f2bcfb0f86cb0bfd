// The per-instruction profile (vgpu-sim --profile-instructions N): for every instruction address
// a wave issued from, how often it issued and how many wave-cycles waves stalled at it, by the
// reasons the compute unit already counts (ComputeUnit's stall counters):
//   waitcnt_vm, waitcnt_lgkm  waiting in this s_waitcnt for the vector-memory / LDS-GDS-scalar
//                             counter to come down;
//   barrier                   waiting in this s_barrier (or ds_gws_* barrier / semaphore);
//   fetch                     waiting for this instruction's line from the instruction cache;
//   issue_conflict            ready, but another wave of the SIMD took this pipeline type in
//                             the SIMD's issue cycle;
//   valu_busy                 a VALU instruction, ready, while the SIMD's VALU was still busy.
// Each stall is counted where the CU counts it into its totals, so every column sums to the
// matching cuN.stall_*_cycles counter over all CUs.
//
// Off unless asked for: the compute units hold a null pointer and test it once per issue. Plain
// C++ (no SystemC): SystemC runs every CU's process on one thread, so the CUs share one profile.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/Isa.h"

namespace vgpu {

enum class StallReason : uint8_t {
  WaitcntVm,
  WaitcntLgkm,
  Barrier,
  Fetch,
  IssueConflict,
  ValuBusy,
};
constexpr size_t kStallReasons = 6;
// "waitcnt_vm", ...: the names of the statistics counters (cuN.stall_NAME_cycles).
const char* stallReasonName(StallReason reason);

class InstructionProfile {
 public:
  struct Entry {
    uint64_t pc = 0;  // device address
    uint64_t issued = 0;
    std::array<uint64_t, kStallReasons> stallCycles{};
    std::string kernel;       // the kernel of the wave that first issued it
    std::string disassembly;  // as llvm-objdump prints it; empty until it issued
    uint64_t stalled() const;
  };

  // `rows`: how many of the hottest instructions reports show (--profile-instructions N).
  InstructionProfile(isa::GfxTarget target, uint32_t rows) : target_(target), rows_(rows) {}
  uint32_t rows() const { return rows_; }

  void issued(const isa::Instruction& inst, const std::string& kernel) {
    Entry& e = at(inst.pc);
    if (e.issued++ == 0) describe(e, inst, kernel);
  }
  void stalled(uint64_t pc, StallReason reason, uint64_t cycles) {
    at(pc).stallCycles[static_cast<size_t>(reason)] += cycles;
  }

  // Every instruction seen, hottest first: most issued, then most stalled, then by address.
  std::vector<Entry> hottest() const;
  uint64_t totalIssued() const;

 private:
  Entry& at(uint64_t pc) {
    auto [it, fresh] = index_.try_emplace(pc, entries_.size());
    if (fresh) {
      entries_.emplace_back();
      entries_.back().pc = pc;
    }
    return entries_[it->second];
  }
  void describe(Entry& e, const isa::Instruction& inst, const std::string& kernel) const;

  isa::GfxTarget target_;
  uint32_t rows_;
  std::unordered_map<uint64_t, size_t> index_;  // pc -> entries_
  std::vector<Entry> entries_;
};

}  // namespace vgpu
