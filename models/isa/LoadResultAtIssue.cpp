#include "isa/LoadResultAtIssue.h"

#include <algorithm>
#include <cstring>

#include "isa/EncodingFields.h"
#include "isa/OpInfo.h"

namespace vgpu::isa {
namespace {

// The registers an operand of `type` spans: at least one; two when the type does not say.
uint32_t operandRegisters(Ty type) {
  const int dwords = type == Ty::None ? 2 : dwordsOf(type);
  return static_cast<uint32_t>(dwords < 1 ? 1 : dwords);
}

// An operand code (Vega ISA guide 12.3 "Scalar and vector operands": 0..101 are s0..s101,
// 256 + n is vN) that names a VGPR, added as VGPRs; one that names an SGPR, added as SGPRs.
void addOperand(RegisterRanges& out, uint16_t code, Ty type) {
  if (code == opnd::kNone || code < 256 || code > 511) return;
  out.add(code - 256u, operandRegisters(type));
}
void addScalar(RegisterRanges& out, uint32_t code, Ty type) {
  if (code >= 128) return;  // inline constants, literals, VGPRs
  out.add(code, operandRegisters(type));
}

// Registers of a memory operand of type `t`; four (a dwordx4) when the table does not say.
uint32_t widthOr4(Ty t) {
  return t == Ty::None ? 4 : static_cast<uint32_t>(dwordsOf(t));
}

// Scalar instructions that may leave the straight line, stop the wave for someone else to look
// at its registers, switch on VGPR indexing (S_SETREG can write MODE.GPR_IDX_EN) or name SGPRs
// through M0 (s_movrel*).
bool scalarEndsSearch(const char* name) {
  static const char* const kPrefixes[] = {"s_cbranch",     "s_setpc",       "s_swappc",  "s_call",
                                          "s_rfe",         "s_trap",        "s_sethalt", "s_setreg",
                                          "s_set_gpr_idx", "s_sendmsghalt", "s_movrel"};
  for (const char* p : kPrefixes)
    if (startsWith(name, p)) return true;
  return false;
}

// SOPP instructions the search passes over: they neither touch VGPRs nor change the PC.
bool soppPassesOver(const char* name) {
  static const char* const kNames[] = {"s_nop", "s_setprio", "s_sleep", "s_barrier"};
  for (const char* n : kNames)
    if (std::strcmp(name, n) == 0) return true;
  return false;
}

// An instruction that certainly counts on VM_CNT when it issues and completes in the order of
// the vector memory path: a buffer, global or scratch load, store or atomic (every one is sent,
// with or without active lanes). A FLAT-segment access may go to the LDS instead, out of that
// order, and is not counted.
bool countsInVectorOrder(const OpInfo& op) {
  switch (op.enc) {
    case Enc::Mubuf:
    case Enc::Mtbuf:
      return startsWith(op.name, "buffer_load") || startsWith(op.name, "buffer_store") ||
             startsWith(op.name, "buffer_atomic") || startsWith(op.name, "tbuffer_");
    case Enc::Flat:
      return op.mem.segment == 1 || op.mem.segment == 2;
    default:
      return false;
  }
}

}  // namespace

bool RegisterRanges::overlaps(uint32_t first, uint32_t count) const {
  if (all) return true;
  for (int i = 0; i < size; ++i) {
    const Range& r = ranges[i];
    if (r.first < first + count && first < r.first + r.count) return true;
  }
  return false;
}

bool vgprsTouched(const Instruction& in, RegisterRanges& out) {
  out = RegisterRanges{};
  if (in.op == nullptr || (in.op->flags & kGraphics)) return false;
  const OpInfo& op = *in.op;
  const uint32_t w1 = in.words[1];
  switch (op.enc) {
    case Enc::Sop2:
    case Enc::Sopk:
    case Enc::Sop1:
    case Enc::Sopc:
    case Enc::Sopp:
    case Enc::Smem:
      return true;  // scalar: no VGPRs
    case Enc::Vop1:
    case Enc::Vop2:
    case Enc::Vopc:
    case Enc::Vop3:
    case Enc::Vop3p:
      // Every VALU instruction names its VGPRs in its operand codes (the decoder resolves
      // DPP's and SDWA's source, v_mac's accumulator, VOP3B's sdst); gfx9 has no v_movrel*.
      addOperand(out, in.f[fld::kDst], op.dst);
      addOperand(out, in.f[fld::kSrc0], op.src0);
      addOperand(out, in.f[fld::kSrc1], op.src1);
      addOperand(out, in.f[fld::kSrc2], op.src2);
      return true;
    case Enc::Vintrp:  // VINTRP (Vega ISA guide 12.14): vdst [25:18], vsrc [7:0]
      out.add(bits(in.words[0], 25, 18), 1);
      out.add(bits(in.words[0], 7, 0), 1);
      return true;
    case Enc::Ds: {  // DS: addr [39:32], data0 [47:40], data1 [55:48], vdst [63:56]
      // Unused fields are encoded as 0 (v0): skipped where the opcode cannot use them.
      out.add(bits(w1, 7, 0), 1);
      if (!startsWith(op.name, "ds_read")) {
        out.add(bits(w1, 15, 8), 4);   // ds_write_b128, write2_b64
        out.add(bits(w1, 23, 16), 4);  // write2_b64, cmpst_b64
      }
      if (!startsWith(op.name, "ds_write")) out.add(bits(w1, 31, 24), 4);  // read_b128, read2_b64
      return true;
    }
    case Enc::Mubuf:
    case Enc::Mtbuf: {  // vaddr [39:32] (one per OFFEN [12] and IDXEN [13]), vdata [47:40]
      const uint32_t addresses = bits(in.words[0], 12, 12) + bits(in.words[0], 13, 13);
      if (addresses != 0) out.add(bits(w1, 7, 0), addresses);
      // The data or the returned data, and the TFE status after it.
      const int data = std::max(dwordsOf(op.dst), dwordsOf(op.src1));
      out.add(bits(w1, 15, 8), static_cast<uint32_t>(data == 0 ? 4 : data) + 1);
      return true;
    }
    case Enc::Flat:  // addr [39:32] (64-bit), data [47:40], vdst [63:56]
      out.add(bits(w1, 7, 0), 2);
      if (op.mem.op != MemOp::Load) out.add(bits(w1, 15, 8), widthOr4(op.src1));
      if (op.mem.op != MemOp::Store) out.add(bits(w1, 31, 24), widthOr4(op.dst));
      return true;
    case Enc::Mimg:  // addresses of up to 13 VGPRs by dimension and sample kind
    case Enc::Exp:
    case Enc::Unknown:
      return false;
  }
  return false;
}

bool sgprsTouched(const Instruction& in, RegisterRanges& out) {
  out = RegisterRanges{};
  if (in.op == nullptr || (in.op->flags & kGraphics)) return false;
  const OpInfo& op = *in.op;
  const uint32_t w0 = in.words[0], w1 = in.words[1];
  switch (op.enc) {
    case Enc::Sop2:
    case Enc::Sopk:
    case Enc::Sop1:
    case Enc::Sopc:
    case Enc::Vop1:
    case Enc::Vop2:
    case Enc::Vopc:
    case Enc::Vop3:
    case Enc::Vop3p: {
      // The decoder leaves every operand's code in f[] (an SOPK's SDST, a VOP3B's SDST, a VOPC's
      // or v_readlane's scalar destination, a carry-in or lane-select SGPR).
      // In the 64-bit forms (VOP3, also of VOP1/VOP2/VOPC opcodes, and VOP3P) a source the
      // opcode does not read is encoded as 0, which is s0: such a source (no type in the table:
      // the VALU executors read none) is skipped, but for a carry-in (src2, read apart from the
      // typed sources) and the interpolation forms. The 32-bit forms leave unused fields empty.
      addScalar(out, in.f[fld::kDst], op.dst);
      const bool wide = in.f[fld::kForm] == kE64 || in.f[fld::kForm] == kVop3p;
      for (int k = 0; k < 3; ++k) {
        const Ty type = k == 0 ? op.src0 : (k == 1 ? op.src1 : op.src2);
        const bool read = type != Ty::None || (op.flags & kInterp) ||
                          (k == 2 && (op.flags & (kCarryIn | kAccumulate)));
        if (read || !wide) addScalar(out, in.f[fld::kSrc0 + k], type);
      }
      addScalar(out, in.f[fld::kSdst], Ty::B64);  // VOP3B's carry-out (empty otherwise)
      return true;
    }
    case Enc::Sopp:
    case Enc::Vintrp:  // M0 only
    case Enc::Ds:      // M0 only
    case Enc::Exp:
      return true;
    case Enc::Smem:  // SBASE [5:0] x 2 (a quad for s_buffer_*), SDATA [12:6], the offset SGPRs
      out.add(bits(w0, 5, 0) * 2, startsWith(op.name, "s_buffer") ? 4 : 2);
      out.add(bits(w0, 12, 6),
              op.dst == Ty::None && op.src1 == Ty::None
                  ? 16
                  : static_cast<uint32_t>(std::max(dwordsOf(op.dst), dwordsOf(op.src1))));
      if (!bits(w0, 17, 17)) out.add(bits(w1, 6, 0), 1);   // IMM = 0: OFFSET[6:0] is an SGPR
      if (bits(w0, 14, 14)) out.add(bits(w1, 31, 25), 1);  // SOE: SOFFSET
      return true;
    case Enc::Mubuf:
    case Enc::Mtbuf:  // SRSRC [52:48] x 4, SOFFSET [63:56]
      out.add(bits(w1, 20, 16) * 4, 4);
      addScalar(out, bits(w1, 31, 24), Ty::B32);
      return true;
    case Enc::Flat:  // SADDR [54:48] (0x7f: none)
      if (bits(w1, 22, 16) != 0x7f) addScalar(out, bits(w1, 22, 16), Ty::B64);
      return true;
    case Enc::Mimg:  // SRSRC [52:48] x 4 (eight), SSAMP [57:53] x 4
      out.add(bits(w1, 20, 16) * 4, 8);
      out.add(bits(w1, 25, 21) * 4, 4);
      return true;
    case Enc::Unknown:
      return false;
  }
  return false;
}

bool loadResultUnobservedBeforeWait(const Instruction& load, LoadResult result, uint32_t first,
                                    uint32_t count, uint64_t codeBegin, uint64_t codeEnd,
                                    const InstructionAt& at) {
  const bool scalar = result == LoadResult::Sgprs;
  // Each path from the load: where it goes on, and the vector memory instructions after the
  // load on it that still count on VM_CNT while the load does. The load is in order before each
  // of them, so s_waitcnt vmcnt(n) with n at most that many cannot be satisfied while the load
  // is outstanding.
  struct Path {
    uint64_t pc;
    uint32_t after;
  };
  Path paths[kLoadResultPaths];
  int open = 0;
  paths[open++] = {load.pc + load.sizeBytes, 0};
  RegisterRanges touched;
  int budget = kLoadResultSearchLimit;
  while (open > 0) {
    Path p = paths[--open];
    for (bool ended = false; !ended;) {
      if (budget-- == 0) return false;
      const Instruction* in = p.pc >= codeBegin ? at(p.pc) : nullptr;
      if (in == nullptr || in->op == nullptr || in->pc != p.pc || p.pc + in->sizeBytes > codeEnd)
        return false;
      const OpInfo& op = *in->op;
      uint64_t next = p.pc + in->sizeBytes;
      switch (op.enc) {
        case Enc::Sopp: {
          const uint32_t simm = in->words[0] & 0xffff;
          const uint64_t target = branchTarget(p.pc, simm);
          if (std::strcmp(op.name, "s_endpgm") == 0) {
            ended = true;
          } else if (std::strcmp(op.name, "s_waitcnt") == 0) {
            // Scalar loads return out of order: only lgkmcnt(0) waits for one.
            const WaitcntFields c = waitcntFields(simm);
            ended = scalar ? c.lgkm == 0 : c.vm <= p.after;
          } else if (std::strcmp(op.name, "s_branch") == 0) {
            next = target;
          } else if (startsWith(op.name, "s_cbranch")) {  // both ways
            if (open == kLoadResultPaths) return false;
            paths[open++] = {target, p.after};
          } else if (!soppPassesOver(op.name)) {
            return false;
          }
          break;
        }
        case Enc::Sop2:
        case Enc::Sopk:
        case Enc::Sop1:
        case Enc::Sopc:
          if (scalarEndsSearch(op.name)) return false;
          [[fallthrough]];  // the register check (vgprsTouched adds no VGPRs for these)
        default:
          if (!(scalar ? sgprsTouched(*in, touched) : vgprsTouched(*in, touched)) ||
              touched.overlaps(first, count))
            return false;
          if (countsInVectorOrder(op)) ++p.after;
          break;
      }
      p.pc = next;
    }
  }
  return true;
}

}  // namespace vgpu::isa
