#include "isa/HazardChecker.h"

#include <algorithm>
#include <bitset>
#include <cstdio>
#include <cstring>

#include "isa/EncodingFields.h"
#include "isa/OpInfo.h"

namespace vgpu::isa {

namespace {

// The rows of table 8, "Required Software-inserted Wait States" (Vega ISA guide section 4.5; the
// same table is in the Vega 7nm ISA guide, section 4.5 "Manually Inserted Wait States (NOPs)").
// "row N" below is the N-th row of the seed's table.
const HazardRuleInfo kRules[kHazardRules] = {
    {HazardRule::SetregThenGetreg, "setreg_then_getreg",  // row 1
     "S_SETREG, then S_GETREG of the same hardware register", 2},
    {HazardRule::SetregThenSetreg, "setreg_then_setreg",  // row 2
     "S_SETREG, then S_SETREG of the same hardware register", 2},
    {HazardRule::SetvskipThenGetregMode, "setvskip_then_getreg_mode",  // row 3
     "S_SETVSKIP, then S_GETREG of MODE (reads VSKIP)", 2},
    {HazardRule::SetregVskipThenVector, "setreg_vskip_then_vector",  // row 4
     "S_SETREG of MODE.VSKIP, then any vector instruction", 2},
    {HazardRule::ValuVccExecThenVcczExecz, "valu_vcc_exec_then_vccz_execz",  // row 5
     "VALU writes VCC or EXEC, then a VALU reads VCCZ or EXECZ as data", 5},
    {HazardRule::ValuSgprThenLaneSelect, "valu_sgpr_then_lane_select",  // row 6
     "VALU writes an SGPR or VCC, then V_READLANE/V_WRITELANE uses it as the lane select", 4},
    {HazardRule::ValuVccThenDivFmas, "valu_vcc_then_div_fmas",  // row 7
     "VALU writes VCC, then V_DIV_FMAS (reads VCC)", 4},
    {HazardRule::WideStoreThenDataWrite, "wide_store_then_data_write",  // row 8
     "VMEM store or cmpswap with more than 64 bits of data, then a VALU writes those data VGPRs",
     1},
    {HazardRule::ValuSgprThenVmem, "valu_sgpr_then_vmem",  // row 9
     "VALU writes an SGPR, then a VMEM instruction reads that SGPR", 5},
    {HazardRule::SaluM0ThenGdsSendmsg, "salu_m0_then_gds_sendmsg",  // row 10
     "SALU writes M0, then GDS, S_SENDMSG or S_TTRACEDATA (reads M0)", 1},
    {HazardRule::ValuVgprThenDpp, "valu_vgpr_then_dpp",  // row 11
     "VALU writes a VGPR, then a DPP instruction reads that VGPR", 2},
    {HazardRule::ValuExecThenDpp, "valu_exec_then_dpp",  // row 12
     "VALU writes EXEC, then a DPP instruction (EXEC is not forwarded to DPP)", 5},
    {HazardRule::ValuVccThenVccConstant, "valu_vcc_then_vcc_constant",  // row 13
     "VALU writes VCC, then a VALU reads VCC as a constant (not as a carry-in or mask)", 1},
    {HazardRule::SetregTrapstsThenRfe, "setreg_trapsts_then_rfe",  // row 14
     "S_SETREG of TRAPSTS, then S_RFE_B64 or S_RFE_RESTORE_B64", 1},
    {HazardRule::SaluM0ThenLdsM0, "salu_m0_then_lds_m0",  // row 15
     "SALU writes M0, then an LDS add-TID, LDS=1 buffer/global/scratch, V_INTERP or LDS_DIRECT "
     "instruction (reads M0)",
     1},
    {HazardRule::SaluM0ThenMovrel, "salu_m0_then_movrel",  // row 16
     "SALU writes M0, then S_MOVREL (reads M0)", 1},
};
// No row asks for more: a history of this many wait states covers every rule.
constexpr uint32_t kMaxWaitStates = 5;

// Scalar operand codes 0..127 (SGPRs, FLAT_SCRATCH, XNACK_MASK, VCC, TTMPs, M0, EXEC) and VGPRs.
using ScalarSet = std::bitset<128>;
using VgprSet = std::bitset<256>;

// Hardware registers of s_getreg/s_setreg (hwreg IDs, Vega ISA guide 12.3 S_GETREG_B32).
constexpr int kHwRegMode = 1, kHwRegTrapsts = 3;
// MODE.VSKIP (Vega ISA guide 3.3 "Mode Register": VSKIP is bit 28, GPR_IDX_EN bit 27).
constexpr int kModeVskipBit = 28;

void addScalar(ScalarSet& set, int code, int dwords) {
  for (int i = 0; i < dwords; ++i)
    if (code >= 0 && code + i < 128) set.set(static_cast<size_t>(code + i));
}
void addVgpr(VgprSet& set, int reg, int dwords) {
  for (int i = 0; i < dwords; ++i)
    if (reg >= 0 && reg + i < 256) set.set(static_cast<size_t>(reg + i));
}
bool is(const char* s, const char* name) {
  return std::strcmp(s, name) == 0;
}
uint32_t bit(HazardRule r) {
  return 1u << static_cast<unsigned>(r);
}

}  // namespace

// What one instruction does that some row of the table looks at.
struct HazardChecker::Effects {
  uint8_t waitStates = 1;  // s_nop N: N+1, every other instruction: 1
  uint32_t asFirst = 0;    // rules this instruction can start (bit per HazardRule)
  uint32_t asSecond = 0;   // rules this instruction can complete
  bool valu = false, vector = false, dpp = false, divFmas = false, laneAccess = false;
  bool readsVcczExecz = false, readsVccConstant = false;
  bool readsM0Gds = false, readsM0Lds = false, readsM0Movrel = false;
  bool rfe = false, setvskip = false, setregVskip = false;
  int setreg = -1, getreg = -1;  // hardware register ID
  ScalarSet valuScalarWrites, saluScalarWrites, laneSelect, vmemScalarReads;
  VgprSet valuVgprWrites, dppVgprReads, wideStoreData;

  bool writesVcc() const {
    return valuScalarWrites[opnd::kVccLo] || valuScalarWrites[opnd::kVccHi];
  }
  bool writesExec() const {
    return valuScalarWrites[opnd::kExecLo] || valuScalarWrites[opnd::kExecHi];
  }
  bool saluWritesM0() const { return saluScalarWrites[opnd::kM0]; }
};

namespace {

using Effects = HazardChecker::Effects;

void valuEffects(const Instruction& in, const OpInfo& op, Effects& e) {
  e.valu = e.vector = true;
  const unsigned form = in.f[fld::kForm];
  e.dpp = form == kDpp;
  e.divFmas = startsWith(op.name, "v_div_fmas");
  e.laneAccess = (op.flags & kSrc1Sgpr) != 0;
  const bool interp = op.enc == Enc::Vintrp || (op.flags & kInterp);
  // Row 15: the interpolation instructions read M0 (the LDS parameter offset).
  if (interp) e.readsM0Lds = true;

  // Destinations.
  if (op.enc == Enc::Vopc) {
    addScalar(e.valuScalarWrites, in.f[fld::kDst], 2);  // VCC in e32, any SGPR pair in e64
    if (op.flags & kCmpx) addScalar(e.valuScalarWrites, opnd::kExecLo, 2);
  } else if (op.flags & kScalarDst) {
    addScalar(e.valuScalarWrites, in.f[fld::kDst], 1);
  } else if (in.f[fld::kDst] != opnd::kNone && in.f[fld::kDst] >= opnd::kVgpr0) {
    addVgpr(e.valuVgprWrites, in.f[fld::kDst] - opnd::kVgpr0, std::max(1, dwordsOf(op.dst)));
  }
  if ((op.flags & kCarryOut) && in.f[fld::kSdst] != opnd::kNone)
    addScalar(e.valuScalarWrites, in.f[fld::kSdst], 2);

  // Sources. VINTRP's source field is a VGPR number or a parameter selector, never a scalar
  // operand code; the VOP3 interpolation opcodes hold attribute/channel in src0.
  if (op.enc == Enc::Vintrp) return;
  const Ty types[3] = {op.src0, op.src1, (op.flags & kAccumulate) ? op.dst : op.src2};
  for (int s = 0; s < 3; ++s) {
    const int code = in.f[fld::kSrc0 + s];
    if (code == opnd::kNone || (interp && s == 0)) continue;
    // The carry-in / select mask of v_addc, v_subb, v_cndmask (e64 src2) reads VCC as a mask,
    // which row 13 names as the case that needs no wait state.
    if ((op.flags & kCarryIn) && s == 2) continue;
    if (types[s] == Ty::None) continue;
    if (code == opnd::kVccz || code == opnd::kExecz) e.readsVcczExecz = true;
    if (code == opnd::kVccLo || code == opnd::kVccHi) e.readsVccConstant = true;
    if (code == opnd::kLdsDirect) e.readsM0Lds = true;  // LDS_DIRECT addresses through M0
    if (code < 128 && s == 1 && e.laneAccess) addScalar(e.laneSelect, code, 1);
    if (code >= opnd::kVgpr0 && e.dpp)
      addVgpr(e.dppVgprReads, code - opnd::kVgpr0, std::max(1, dwordsOf(types[s])));
  }
}

void saluEffects(const Instruction& in, const OpInfo& op, Effects& e) {
  if (op.enc != Enc::Sopc && op.dst != Ty::None && in.f[fld::kDst] != opnd::kNone)
    addScalar(e.saluScalarWrites, in.f[fld::kDst], dwordsOf(op.dst));
  // s_set_gpr_idx_on / s_set_gpr_idx_idx write the index into M0 themselves.
  if (is(op.name, "s_set_gpr_idx_on") || is(op.name, "s_set_gpr_idx_idx"))
    addScalar(e.saluScalarWrites, opnd::kM0, 1);
  const unsigned simm16 = in.f[fld::kExt0];
  const int id = static_cast<int>(simm16 & 0x3f);  // hwreg(id, offset, size): 12.3 S_GETREG
  if (is(op.name, "s_setreg_b32") || is(op.name, "s_setreg_imm32_b32")) {
    e.setreg = id;
    const unsigned offset = (simm16 >> 6) & 0x1f, size = ((simm16 >> 11) & 0x1f) + 1;
    e.setregVskip = id == kHwRegMode && offset <= kModeVskipBit && kModeVskipBit < offset + size;
  }
  if (is(op.name, "s_getreg_b32")) e.getreg = id;
  e.setvskip = is(op.name, "s_setvskip");
  e.rfe = is(op.name, "s_rfe_b64") || is(op.name, "s_rfe_restore_b64");
  e.readsM0Movrel = startsWith(op.name, "s_movrel");
}

void memoryEffects(const Instruction& in, const OpInfo& op, Effects& e) {
  e.vector = true;
  const bool writesData = op.mem.op == MemOp::Store || op.mem.op == MemOp::Atomic;
  const int dataDwords = dwordsOf(op.src1);
  switch (op.enc) {
    case Enc::Ds:
      if (in.f[fld::kBits] & kGds) e.readsM0Gds = true;
      if (std::strstr(op.name, "addtid")) e.readsM0Lds = true;  // address = M0 + lane * 4
      break;
    case Enc::Mubuf:
    case Enc::Mtbuf: {
      addScalar(e.vmemScalarReads, in.f[fld::kData1], 4);  // V#
      const int soffset = in.f[fld::kOffset1];
      const bool sgprOffset = soffset < 128;
      if (sgprOffset) addScalar(e.vmemScalarReads, soffset, 1);
      if (in.f[fld::kBits] & kLds) {
        e.readsM0Lds = true;
        addScalar(e.vmemScalarReads, opnd::kM0, 1);
      }
      // Row 8 names BUFFER_STORE_DWORD_X3/X4, BUFFER_STORE_FORMAT_XYZ/XYZW and
      // BUFFER_ATOMIC_CMPSWAP_X2; "BUFFER_STORE_* operations that use an SGPR for offset do
      // not require any wait states" (the exemption is for stores only). TBUFFER stores move
      // their data the same way and are taken alike.
      const bool exempt = op.mem.op == MemOp::Store && sgprOffset;
      if (writesData && dataDwords > 2 && !exempt)
        addVgpr(e.wideStoreData, in.f[fld::kData0], dataDwords);
      break;
    }
    case Enc::Flat: {
      const int saddr = in.f[fld::kData1];
      if (op.mem.segment != 0 && saddr != 0x7f)  // 0x7f: "off"
        addScalar(e.vmemScalarReads, saddr, op.mem.segment == 2 ? 2 : 1);
      if (in.f[fld::kBits] & kLds) {
        e.readsM0Lds = true;
        addScalar(e.vmemScalarReads, opnd::kM0, 1);
      }
      // Row 8: FLAT_STORE_X3/X4, FLAT_ATOMIC_CMPSWAP_X2 (and their GLOBAL/SCRATCH forms).
      if (writesData && dataDwords > 2) addVgpr(e.wideStoreData, in.f[fld::kData0], dataDwords);
      break;
    }
    case Enc::Mimg: {
      addScalar(e.vmemScalarReads, in.f[fld::kData1], 8);  // T#
      if (std::strstr(op.name, "sample") || std::strstr(op.name, "gather"))
        addScalar(e.vmemScalarReads, in.f[fld::kOffset0], 4);  // S#
      // Row 8: IMAGE_STORE_* and IMAGE_{F}CMPSWAP with more than two DMASK bits (more than 64
      // bits of data). The exemption for a 256-bit T# cannot be told from a gfx9 encoding (bit
      // 15 is A16 there), so every such store is taken as needing the wait state.
      const int components = std::bitset<4>(in.f[fld::kFmt] & 0xf).count();
      const bool d16 = (in.f[fld::kMimgBits] >> 4) & 1;
      const bool wide = startsWith(op.name, "image_store") ||
                        startsWith(op.name, "image_atomic_cmpswap") ||
                        startsWith(op.name, "image_atomic_fcmpswap");
      if (wide && components > 2 && !d16) addVgpr(e.wideStoreData, in.f[fld::kData0], components);
      break;
    }
    default:
      break;
  }
}

void classify(Effects& e) {
  using R = HazardRule;
  if (e.setreg >= 0) {
    e.asFirst |= bit(R::SetregThenGetreg) | bit(R::SetregThenSetreg);
    e.asSecond |= bit(R::SetregThenSetreg);
  }
  if (e.setreg == kHwRegTrapsts) e.asFirst |= bit(R::SetregTrapstsThenRfe);
  if (e.setregVskip) e.asFirst |= bit(R::SetregVskipThenVector);
  if (e.setvskip) e.asFirst |= bit(R::SetvskipThenGetregMode);
  if (e.getreg >= 0) e.asSecond |= bit(R::SetregThenGetreg);
  if (e.getreg == kHwRegMode) e.asSecond |= bit(R::SetvskipThenGetregMode);
  if (e.vector) e.asSecond |= bit(R::SetregVskipThenVector);
  if (e.writesVcc() || e.writesExec()) e.asFirst |= bit(R::ValuVccExecThenVcczExecz);
  if (e.valuScalarWrites.any())
    e.asFirst |= bit(R::ValuSgprThenLaneSelect) | bit(R::ValuSgprThenVmem);
  if (e.writesVcc()) e.asFirst |= bit(R::ValuVccThenDivFmas) | bit(R::ValuVccThenVccConstant);
  if (e.writesExec()) e.asFirst |= bit(R::ValuExecThenDpp);
  if (e.valuVgprWrites.any()) {
    e.asFirst |= bit(R::ValuVgprThenDpp);
    e.asSecond |= bit(R::WideStoreThenDataWrite);
  }
  if (e.wideStoreData.any()) e.asFirst |= bit(R::WideStoreThenDataWrite);
  if (e.saluWritesM0())
    e.asFirst |= bit(R::SaluM0ThenGdsSendmsg) | bit(R::SaluM0ThenLdsM0) | bit(R::SaluM0ThenMovrel);
  if (e.readsVcczExecz) e.asSecond |= bit(R::ValuVccExecThenVcczExecz);
  if (e.laneSelect.any()) e.asSecond |= bit(R::ValuSgprThenLaneSelect);
  if (e.divFmas) e.asSecond |= bit(R::ValuVccThenDivFmas);
  if (e.vmemScalarReads.any()) e.asSecond |= bit(R::ValuSgprThenVmem);
  if (e.readsM0Gds) e.asSecond |= bit(R::SaluM0ThenGdsSendmsg);
  if (e.dpp) e.asSecond |= bit(R::ValuVgprThenDpp) | bit(R::ValuExecThenDpp);
  if (e.readsVccConstant) e.asSecond |= bit(R::ValuVccThenVccConstant);
  if (e.rfe) e.asSecond |= bit(R::SetregTrapstsThenRfe);
  if (e.readsM0Lds) e.asSecond |= bit(R::SaluM0ThenLdsM0);
  if (e.readsM0Movrel) e.asSecond |= bit(R::SaluM0ThenMovrel);
}

// Whether `a` followed by `b` is the pair of `rule` (both already passed classify's filter).
bool pairMatches(HazardRule rule, const Effects& a, const Effects& b) {
  switch (rule) {
    case HazardRule::SetregThenGetreg:
      return a.setreg == b.getreg;
    case HazardRule::SetregThenSetreg:
      return a.setreg == b.setreg;
    case HazardRule::ValuSgprThenLaneSelect:
      return (a.valuScalarWrites & b.laneSelect).any();
    case HazardRule::WideStoreThenDataWrite:
      return (a.wideStoreData & b.valuVgprWrites).any();
    case HazardRule::ValuSgprThenVmem:
      return (a.valuScalarWrites & b.vmemScalarReads).any();
    case HazardRule::ValuVgprThenDpp:
      return (a.valuVgprWrites & b.dppVgprReads).any();
    default:  // the rest are about kinds of instructions, which classify has matched
      return true;
  }
}

}  // namespace

const HazardRuleInfo& hazardRuleInfo(HazardRule rule) {
  return kRules[static_cast<int>(rule)];
}

std::string describeHazard(const HazardFinding& f) {
  const HazardRuleInfo& info = hazardRuleInfo(f.rule);
  char head[160];
  std::snprintf(head, sizeof head,
                "missing wait states at PC 0x%llx: %u required, %u present (%llu time%s) [%s]",
                static_cast<unsigned long long>(f.secondOffset), f.required, f.present,
                static_cast<unsigned long long>(f.occurrences), f.occurrences == 1 ? "" : "s",
                info.id);
  char first[32], second[32];
  std::snprintf(first, sizeof first, "0x%llx", static_cast<unsigned long long>(f.firstOffset));
  std::snprintf(second, sizeof second, "0x%llx", static_cast<unsigned long long>(f.secondOffset));
  return std::string(head) + "\n  " + info.description + "\n    " + first + "  " + f.first +
         "\n    " + second + "  " + f.second;
}

HazardChecker::HazardChecker(GfxTarget target) : target_(target) {}
HazardChecker::~HazardChecker() = default;

const HazardChecker::Effects& HazardChecker::effectsOf(const Instruction& inst) {
  auto it = effects_.find(&inst);
  if (it != effects_.end()) return *it->second;
  auto e = std::make_unique<Effects>();
  if (const OpInfo* op = inst.op) {
    switch (op->enc) {
      case Enc::Vop1:
      case Enc::Vop2:
      case Enc::Vopc:
      case Enc::Vop3:
      case Enc::Vop3p:
      case Enc::Vintrp:
        valuEffects(inst, *op, *e);
        break;
      case Enc::Sop1:
      case Enc::Sop2:
      case Enc::Sopk:
      case Enc::Sopc:
        saluEffects(inst, *op, *e);
        break;
      case Enc::Sopp:
        // s_nop N is N+1 wait states (SIMM16[3:0], as the model executes it: Flow.cpp).
        if (is(op->name, "s_nop"))
          e->waitStates = static_cast<uint8_t>((inst.f[fld::kExt0] & 0xf) + 1);
        // Row 10: s_sendmsg / s_sendmsghalt send M0 as the message data; s_ttracedata too.
        if (startsWith(op->name, "s_sendmsg") || is(op->name, "s_ttracedata")) e->readsM0Gds = true;
        break;
      case Enc::Ds:
      case Enc::Mubuf:
      case Enc::Mtbuf:
      case Enc::Flat:
      case Enc::Mimg:
        memoryEffects(inst, *op, *e);
        break;
      case Enc::Exp:
        e->vector = true;
        break;
      default:
        break;
    }
  }
  classify(*e);
  const Effects& result = *e;
  effects_.emplace(&inst, std::move(e));
  return result;
}

void HazardChecker::observe(WaveHistory& wave, const Instruction& inst) {
  ++instructionsChecked_;
  const Effects& now = effectsOf(inst);
  constexpr int depth = WaveHistory::kDepth;
  uint32_t between = 0;  // wait states between the earlier instruction and this one
  uint32_t decided = 0;  // rules whose nearest earlier instruction was found
  for (int back = 0; back < wave.count && between < kMaxWaitStates; ++back) {
    const int slot = (wave.next + depth - 1 - back) % depth;
    const Effects& before = *wave.effects[static_cast<size_t>(slot)];
    uint32_t candidates = before.asFirst & now.asSecond & ~decided;
    while (candidates) {
      const int r = __builtin_ctz(candidates);
      candidates &= candidates - 1;
      const auto rule = static_cast<HazardRule>(r);
      if (!pairMatches(rule, before, now)) continue;
      // Only the nearest producer counts: an older one is further away still.
      decided |= 1u << r;
      if (between < kRules[r].waitStates)
        record(rule, *wave.inst[static_cast<size_t>(slot)], inst, between);
    }
    between += before.waitStates;
  }
  wave.inst[wave.next] = &inst;
  wave.effects[wave.next] = &now;
  wave.next = static_cast<uint8_t>((wave.next + 1) % depth);
  if (wave.count < depth) ++wave.count;
}

void HazardChecker::record(HazardRule rule, const Instruction& first, const Instruction& second,
                           uint32_t present) {
  const auto key = std::make_tuple(second.pc, first.pc, static_cast<int>(rule));
  auto it = findings_.find(key);
  if (it == findings_.end()) {
    HazardFinding f;
    f.rule = rule;
    f.firstPc = f.firstOffset = first.pc;
    f.secondPc = f.secondOffset = second.pc;
    f.first = disassemble(first, target_);
    f.second = disassemble(second, target_);
    f.required = hazardRuleInfo(rule).waitStates;
    f.present = present;
    it = findings_.emplace(key, std::move(f)).first;
  }
  it->second.present = std::min(it->second.present, present);
  ++it->second.occurrences;
}

std::vector<HazardFinding> HazardChecker::findings() const {
  std::vector<HazardFinding> out;
  out.reserve(findings_.size());
  for (const auto& [key, f] : findings_) out.push_back(f);
  return out;
}

}  // namespace vgpu::isa
