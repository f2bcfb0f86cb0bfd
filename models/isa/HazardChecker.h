// Co-verification of the software-inserted wait states of gfx9: the dependencies the hardware
// does not check, which the program must cover with independent instructions or s_nop
// (Vega ISA guide section 4.5 "Manually Inserted Wait States (NOPs)", table 8; the same table in
// the Vega 7nm ISA guide, section 4.5). Fed with the instructions each wave issues, in program
// order, it counts wait states as the hardware does (every instruction in between is one,
// s_nop N is N+1) and records every pair that has fewer than its row of the table requires.
//
// The hardware would silently compute with stale values there; the functional model does not
// (it executes each instruction to completion), so without this check such a program runs
// correctly in the model and fails on silicon.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "isa/Isa.h"

namespace vgpu::isa {

// One row of table 8 each (Vega ISA guide 4.5), in the table's order.
enum class HazardRule : uint8_t {
  SetregThenGetreg,          // S_SETREG <reg> -> S_GETREG <same reg>: 2
  SetregThenSetreg,          // S_SETREG <reg> -> S_SETREG <same reg>: 2
  SetvskipThenGetregMode,    // S_SETVSKIP -> S_GETREG MODE: 2
  SetregVskipThenVector,     // S_SETREG MODE.vskip -> any vector op: 2
  ValuVccExecThenVcczExecz,  // VALU writes VCC/EXEC -> VALU reads VCCZ/EXECZ as data: 5
  ValuSgprThenLaneSelect,    // VALU writes SGPR/VCC -> v_readlane/v_writelane lane select: 4
  ValuVccThenDivFmas,        // VALU writes VCC -> v_div_fmas: 4
  WideStoreThenDataWrite,    // VMEM store/cmpswap with > 64-bit data -> VALU writes that data: 1
  ValuSgprThenVmem,          // VALU writes SGPR -> VMEM reads that SGPR: 5
  SaluM0ThenGdsSendmsg,      // SALU writes M0 -> GDS, s_sendmsg, s_ttracedata: 1
  ValuVgprThenDpp,           // VALU writes VGPR -> DPP reads that VGPR: 2
  ValuExecThenDpp,           // VALU writes EXEC -> DPP: 5
  ValuVccThenVccConstant,    // VALU writes VCC -> VALU reads VCC as a constant: 1
  SetregTrapstsThenRfe,      // S_SETREG TRAPSTS -> s_rfe_b64 / s_rfe_restore_b64: 1
  SaluM0ThenLdsM0,           // SALU writes M0 -> LDS add-TID, LDS=1 VMEM, v_interp, LDS_DIRECT: 1
  SaluM0ThenMovrel,          // SALU writes M0 -> s_movrel*: 1
};
constexpr int kHazardRules = 16;

struct HazardRuleInfo {
  HazardRule rule;
  const char* id;           // stable name, used in --stats JSON ("valu_sgpr_then_vmem")
  const char* description;  // the table row in words
  uint8_t waitStates;       // required between the two instructions
};
const HazardRuleInfo& hazardRuleInfo(HazardRule rule);

// One distinct (first PC, second PC, rule) with too few wait states, over the whole run.
struct HazardFinding {
  HazardRule rule = HazardRule::SetregThenGetreg;
  uint64_t firstPc = 0, secondPc = 0;  // device addresses, as the wave's PC holds them
  // Offsets in the code object (the addresses `vgpu-sim disasm` prints); whoever knows where
  // the code was loaded fills them in (Gpu::hazardFindings), else they equal the PCs.
  uint64_t firstOffset = 0, secondOffset = 0;
  std::string first, second;  // disassembly as vgpu-sim disasm prints it
  uint32_t required = 0;      // wait states the table requires
  uint32_t present = 0;       // wait states found between them (the fewest, if it varied)
  uint64_t occurrences = 0;   // times a wave issued the pair that close
};

// Readable lines for one finding (no trailing newline).
std::string describeHazard(const HazardFinding& finding);

class HazardChecker {
 public:
  // What the checker remembers of one instruction: the registers and kinds the table's rows
  // look at. Computed once per decoded instruction.
  struct Effects;

  // A wave's recent past: enough instructions to cover the largest requirement (5 wait
  // states; each instruction is at least one). Kept by whoever runs the wave, one per wave;
  // a value-initialised history is a wave that has issued nothing yet.
  class WaveHistory {
   private:
    friend class HazardChecker;
    static constexpr int kDepth = 5;
    std::array<const Instruction*, kDepth> inst{};
    std::array<const Effects*, kDepth> effects{};
    uint8_t count = 0, next = 0;
  };

  explicit HazardChecker(GfxTarget target);
  ~HazardChecker();
  HazardChecker(const HazardChecker&) = delete;
  HazardChecker& operator=(const HazardChecker&) = delete;

  // `inst` issues on the wave whose history is `wave`. `inst` must stay alive (and unchanged)
  // as long as the checker does: it is remembered by address.
  void observe(WaveHistory& wave, const Instruction& inst);

  // Every finding, ordered by second PC, first PC, rule (deterministic).
  std::vector<HazardFinding> findings() const;
  uint64_t instructionsChecked() const { return instructionsChecked_; }

 private:
  const Effects& effectsOf(const Instruction& inst);
  void record(HazardRule rule, const Instruction& first, const Instruction& second,
              uint32_t present);

  GfxTarget target_;
  std::unordered_map<const Instruction*, std::unique_ptr<Effects>> effects_;
  std::map<std::tuple<uint64_t, uint64_t, int>, HazardFinding> findings_;
  uint64_t instructionsChecked_ = 0;
};

}  // namespace vgpu::isa
