// Disassembly in llvm-objdump-15 syntax (LLVM AMDGPUInstPrinter conventions): one operand
// printer per operand kind and one layout per encoding family.
#include <algorithm>
#include <cstdio>
#include <string>

#include "common/Hex.h"
#include "isa/EncodingFields.h"
#include "isa/Salu.h"

namespace vgpu::isa {
namespace {

std::string dec(int64_t v) {
  return std::to_string(v);
}

std::string range(const char* prefix, int first, int count) {
  if (count <= 1) return prefix + std::to_string(first);
  return std::string(prefix) + "[" + std::to_string(first) + ":" +
         std::to_string(first + count - 1) + "]";
}

std::string vgpr(int reg, int dwords) {
  return range("v", reg, dwords);
}

// A literal prints like an immediate of the operand's width (AMDGPUInstPrinter::printImmediate*):
// values that look like inline constants print as such, anything else in hex.
std::string literalText(uint32_t lit, Ty ty) {
  if (is16(ty) && ty != Ty::Pk16 && ty != Ty::PkF16) {
    // printImmediate16 / printImmediateInt16: the low half decides; float names only for an
    // exact f16 pattern, hex of the low 16 bits otherwise.
    const int16_t v = static_cast<int16_t>(lit);
    if (v >= -16 && v <= 64) return dec(v);
    if (isFloat(ty)) {
      static const uint16_t kF16[] = {0x3800, 0xb800, 0x3c00, 0xbc00,
                                      0x4000, 0xc000, 0x4400, 0xc400};
      static const char* const kText[] = {"0.5", "-0.5", "1.0", "-1.0",
                                          "2.0", "-2.0", "4.0", "-4.0"};
      for (int i = 0; i < 8; ++i)
        if (lit == kF16[i]) return kText[i];
      if (lit == 0x3118) return "0.15915494";
    }
    return hex(lit & 0xffff);
  }
  if (is64(ty)) return lit <= 64 ? dec(lit) : hex(lit);
  const int32_t v = static_cast<int32_t>(lit);
  if (v >= -16 && v <= 64) return dec(v);
  static const uint32_t kF32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
                                  0x40000000, 0xc0000000, 0x40800000, 0xc0800000};
  static const char* const kText[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
  for (int i = 0; i < 8; ++i)
    if (lit == kF32[i]) return kText[i];
  if (lit == 0x3e22f983) return "0.15915494";
  return hex(lit);
}

// SOPP / SMEM small unsigned immediates (printU16ImmOperand): inline-looking values in
// decimal, anything else in hex.
std::string u16Imm(uint32_t v) {
  return v <= 64 ? dec(v) : hex(v);
}

// Scalar operand space (LLVM AMDGPUInstPrinter::printRegOperand / printImmediate*).
std::string scalar(int code, int dwords, Ty ty, uint32_t literal) {
  // Register tuples are aligned (2 for pairs, 4 beyond): llvm-objdump rounds an unaligned
  // index down (and warns).
  const int align = dwords >= 4 ? 4 : (dwords == 2 ? 2 : 1);
  if (code < kNumSgprs) return range("s", code / align * align, dwords);
  if (code >= opnd::kTtmp0 && code < opnd::kTtmp0 + kNumTtmps) {
    return range("ttmp", (code - opnd::kTtmp0) / align * align, dwords);
  }
  const bool pair = dwords >= 2;
  switch (code) {
    case opnd::kFlatScratchLo:
      return pair ? "flat_scratch" : "flat_scratch_lo";
    case opnd::kFlatScratchHi:
      return "flat_scratch_hi";
    case opnd::kXnackLo:
      return pair ? "xnack_mask" : "xnack_mask_lo";
    case opnd::kXnackHi:
      return "xnack_mask_hi";
    case opnd::kVccLo:
      return pair ? "vcc" : "vcc_lo";
    case opnd::kVccHi:
      return "vcc_hi";
    case opnd::kM0:
      return "m0";
    case opnd::kExecLo:
      return pair ? "exec" : "exec_lo";
    case opnd::kExecHi:
      return "exec_hi";
    case opnd::kSharedBase:
      return "src_shared_base";
    case opnd::kSharedLimit:
      return "src_shared_limit";
    case opnd::kPrivateBase:
      return "src_private_base";
    case opnd::kPrivateLimit:
      return "src_private_limit";
    case opnd::kPopsExiting:
      return "src_pops_exiting_wave_id";
    case opnd::kVccz:
      return "src_vccz";
    case opnd::kExecz:
      return "src_execz";
    case opnd::kScc:
      return "src_scc";
    case opnd::kLdsDirect:
      return "src_lds_direct";
    case opnd::kLiteral:
      return literalText(literal, ty);
    default:
      break;
  }
  if (code >= opnd::kZero && code <= opnd::kIntPosMax) return dec(code - opnd::kZero);
  if (code > opnd::kIntPosMax && code <= opnd::kIntNegMax) return dec(opnd::kIntPosMax - code);
  if (code >= opnd::kHalf && code <= opnd::kInvTwoPi) {
    static const char* const kFloats[] = {"0.5", "-0.5", "1.0", "-1.0",
                                          "2.0", "-2.0", "4.0", "-4.0"};
    if (code < opnd::kInvTwoPi) return kFloats[code - opnd::kHalf];
    return is64(ty) ? "0.15915494309189532" : "0.15915494";
  }
  return "<unknown " + dec(code) + ">";
}

// Any operand code 0..511.
std::string operand(int code, Ty ty, uint32_t literal) {
  const int dwords = dwordsOf(ty);
  if (code >= opnd::kVgpr0) return vgpr(code - opnd::kVgpr0, dwords);
  return scalar(code, dwords, ty, literal);
}

void add(std::string& s, const std::string& op, bool& first) {
  s += first ? " " : ", ";
  s += op;
  first = false;
}

// ---------------------------------------------------------------------------------------
// SALU / flow

std::string hwreg(uint32_t imm) {
  const int id = imm & 0x3f, offset = (imm >> 6) & 0x1f, size = ((imm >> 11) & 0x1f) + 1;
  const char* name = hwRegName(id);
  std::string s = "hwreg(" + (name ? std::string(name) : dec(id));
  if (offset != 0 || size != 32) s += ", " + dec(offset) + ", " + dec(size);
  return s + ")";
}

std::string waitcnt(uint32_t s) {
  const WaitcntFields c = waitcntFields(s);
  const uint32_t vm = c.vm, exp = c.exp, lgkm = c.lgkm;
  const bool all = vm == 63 && exp == 7 && lgkm == 15;
  std::string out;
  auto part = [&](const char* n, uint32_t v, bool dflt) {
    if (dflt && !all) return;
    if (!out.empty()) out += " ";
    out += std::string(n) + "(" + dec(v) + ")";
  };
  part("vmcnt", vm, vm == 63);
  part("expcnt", exp, exp == 7);
  part("lgkmcnt", lgkm, lgkm == 15);
  return out;
}

// printSendMsg (gfx9): symbolic when id, operation and stream are valid; otherwise the numeric
// triple when the fields re-encode to the same value; otherwise the plain immediate.
std::string sendmsg(uint32_t imm) {
  const uint32_t id = imm & 0xf, op = (imm >> 4) & 7, stream = (imm >> 8) & 3;
  static const char* const kIds[16] = {nullptr,
                                       "MSG_INTERRUPT",
                                       "MSG_GS",
                                       "MSG_GS_DONE",
                                       "MSG_SAVEWAVE",
                                       "MSG_STALL_WAVE_GEN",
                                       "MSG_HALT_WAVES",
                                       "MSG_ORDERED_PS_DONE",
                                       "MSG_EARLY_PRIM_DEALLOC",
                                       "MSG_GS_ALLOC_REQ",
                                       "MSG_GET_DOORBELL",
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       "MSG_SYSMSG"};
  static const char* const kGsOps[] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
  static const char* const kSysOps[] = {nullptr, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD",
                                        "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"};
  const bool gs = id == 2 || id == 3;
  const bool requiresOp = gs || id == 15;
  bool validOp =
      requiresOp ? (gs ? (op <= 3 && (id != 2 || op != 0)) : (op >= 1 && op <= 4)) : op == 0;
  if (gs && id == 3) validOp = op <= 3;
  const bool supportsStream = gs && op != 0;
  const bool validStream = supportsStream || stream == 0;
  if ((imm & ~0x3ffu) == 0 && kIds[id] && validOp && validStream && !((imm >> 7) & 1)) {
    std::string s = std::string("sendmsg(") + kIds[id];
    if (requiresOp) {
      s += std::string(", ") + (gs ? kGsOps[op] : kSysOps[op]);
      if (supportsStream) s += ", " + dec(stream);
    }
    return s + ")";
  }
  if ((imm & ~0x37fu) == 0) return "sendmsg(" + dec(id) + ", " + dec(op) + ", " + dec(stream) + ")";
  return dec(imm);
}

std::string gprIdx(uint32_t imm) {
  static const char* const kModes[] = {"SRC0", "SRC1", "SRC2", "DST"};
  std::string s = "gpr_idx(";
  bool first = true;
  for (int b = 0; b < 4; ++b) {
    if ((imm >> b) & 1) {
      if (!first) s += ",";
      s += kModes[b];
      first = false;
    }
  }
  return s + ")";
}

std::string salu(const Instruction& in, const OpInfo& op) {
  std::string s = op.name;
  const uint16_t* f = in.f;
  bool first = true;
  switch (op.enc) {
    case Enc::Sop2:
    case Enc::Sop1:
    case Enc::Sopc:
      if (op.dst != Ty::None)
        add(s, scalar(f[fld::kDst], dwordsOf(op.dst), op.dst, in.literal), first);
      if (op.enc == Enc::Sopc && op.opcode == 0x11) {  // s_set_gpr_idx_on
        add(s, scalar(f[fld::kSrc0], 1, Ty::B32, in.literal), first);
        add(s, gprIdx(f[fld::kSrc1]), first);
        return s;
      }
      if (op.src0 != Ty::None)
        add(s, scalar(f[fld::kSrc0], dwordsOf(op.src0), op.src0, in.literal), first);
      if (op.src1 != Ty::None)
        add(s, scalar(f[fld::kSrc1], dwordsOf(op.src1), op.src1, in.literal), first);
      return s;
    case Enc::Sopk: {
      const uint32_t imm = f[fld::kExt0];
      const std::string sdst =
          scalar(f[fld::kDst], op.opcode == 0x10 || op.opcode == 0x15 ? 2 : 1, Ty::B32, 0);
      switch (op.opcode) {
        case 0x11:
          return s + " " + sdst + ", " + hwreg(imm);
        case 0x12:
          return s + " " + hwreg(imm) + ", " + sdst;
        case 0x14:
          return s + " " + hwreg(imm) + ", " + hex(in.literal);
        case 0x10:
        case 0x15:
          return s + " " + sdst + ", " + dec(imm);  // branch offset, printed unsigned
        default:
          return s + " " + sdst + ", " + hex(imm);
      }
    }
    default:
      return s;
  }
}

std::string sopp(const Instruction& in, const OpInfo& op) {
  const uint32_t imm = in.f[fld::kExt0];
  std::string s = op.name;
  if (op.flags & kNoOperands) return s;
  switch (op.opcode) {
    case 0x01:
      return imm ? s + " " + dec(imm) : s;  // s_endpgm
    case 0x0c:
      return s + " " + waitcnt(imm);
    case 0x10:
    case 0x11:
      return s + " " + sendmsg(imm);
    case 0x1d:
      return s + " " + gprIdx(imm);
    case 0x02:
    case 0x04:
    case 0x05:
    case 0x06:
    case 0x07:
    case 0x08:
    case 0x09:
    case 0x17:
    case 0x18:
    case 0x19:
    case 0x1a:
      return s + " " + dec(imm);  // branch offsets print unsigned, as llvm-objdump-15 does
    default:
      return s + " " + u16Imm(imm);
  }
}

std::string smem(const Instruction& in, const OpInfo& op) {
  std::string s = op.name;
  if (op.flags & kNoOperands) return s;
  const uint16_t* f = in.f;
  bool first = true;
  if (op.dst != Ty::None) {
    add(s, scalar(f[fld::kData0], dwordsOf(op.dst), op.dst, 0), first);
  } else if (op.src0 != Ty::None && !(op.flags & kSmemNoData)) {
    add(s, u16Imm(f[fld::kData0]), first);  // s_atc_probe: sdata is an immediate
  }
  if (op.src0 == Ty::None) return s;
  add(s, scalar(f[fld::kAddr], dwordsOf(op.src0), op.src0, 0), first);
  const unsigned bits = f[fld::kBits];
  if (bits & kSmemImm) {
    const int64_t off = static_cast<int64_t>(sext(in.literal & 0x1fffff, 21));
    if (bits & kSmemSoe) {
      add(s, scalar(f[fld::kOffset1], 1, Ty::B32, 0), first);
      s += " offset:" +
           (off < 0 ? "-" + hex(static_cast<uint64_t>(-off)) : hex(static_cast<uint64_t>(off)));
    } else {
      add(s, off < 0 ? "-" + hex(static_cast<uint64_t>(-off)) : hex(static_cast<uint64_t>(off)),
          first);
    }
  } else {
    add(s, scalar(in.literal & 0xff, 1, Ty::B32, 0), first);
  }
  if (bits & kGlc) s += " glc";
  if (bits & kNv) s += " nv";
  return s;
}

// ---------------------------------------------------------------------------------------
// VALU

const char* sdwaSel(unsigned sel) {
  static const char* const kSel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                     "WORD_0", "WORD_1", "DWORD",  "7"};
  return kSel[sel & 7];
}

std::string dppCtrl(unsigned ctrl) {
  if (ctrl <= 0xff) {
    return "quad_perm:[" + dec(ctrl & 3) + "," + dec((ctrl >> 2) & 3) + "," + dec((ctrl >> 4) & 3) +
           "," + dec((ctrl >> 6) & 3) + "]";
  }
  if (ctrl >= 0x101 && ctrl <= 0x10f) return "row_shl:" + dec(ctrl & 15);
  if (ctrl >= 0x111 && ctrl <= 0x11f) return "row_shr:" + dec(ctrl & 15);
  if (ctrl >= 0x121 && ctrl <= 0x12f) return "row_ror:" + dec(ctrl & 15);
  switch (ctrl) {
    case 0x130:
      return "wave_shl:1";
    case 0x134:
      return "wave_rol:1";
    case 0x138:
      return "wave_shr:1";
    case 0x13c:
      return "wave_ror:1";
    case 0x140:
      return "row_mirror";
    case 0x141:
      return "row_half_mirror";
    case 0x142:
      return "row_bcast:15";
    case 0x143:
      return "row_bcast:31";
    default:
      return "/* invalid dpp_ctrl */";
  }
}

std::string bitList(unsigned v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",";
    s += ((v >> i) & 1) ? "1" : "0";
  }
  return s + "]";
}

// An operand with input modifiers (printOperandAndFPInputMods / IntInputMods): the neg bit of
// an integer operand is sext(); a negated immediate without abs prints as neg(...).
std::string withMods(std::string text, int code, Ty ty, bool abs, bool neg, bool sextBit) {
  if (sextBit || (neg && !isFloat(ty))) return "sext(" + text + ")";
  if (abs) text = "|" + text + "|";
  if (neg) {
    const bool imm = (code >= opnd::kZero && code <= opnd::kIntNegMax) ||
                     (code >= opnd::kHalf && code <= opnd::kInvTwoPi) || code == opnd::kLiteral;
    text = imm && !abs ? "neg(" + text + ")" : "-" + text;
  }
  return text;
}

std::string valuName(const OpInfo& op, unsigned form, GfxTarget target) {
  std::string name = op.name;
  if (target == GfxTarget::Gfx900 && name.rfind("v_fma_mix", 0) == 0)
    name = "v_mad_mix" + name.substr(9);
  switch (form) {
    case kE32:
      return (op.flags & kNoE32Suffix) ? name : name + "_e32";
    case kE64:
      return (op.enc == Enc::Vop3 || (op.flags & kNoOperands)) ? name : name + "_e64";
    case kDpp:
      return name + "_dpp";
    case kSdwa:
      return name + "_sdwa";
    default:
      return name;
  }
}

// VOP3 interpolation: vdst, src1 (mov: p10/p20/p0), attrN.c[, src2][ high][ clamp][ omod].
std::string interpVop3(const Instruction& in, const OpInfo& op) {
  const uint16_t* f = in.f;
  const unsigned mods = f[fld::kMods], abs = mods & 7, neg = (mods >> 3) & 7,
                 omod = (mods >> 7) & 3;
  const unsigned a = f[fld::kSrc0];
  std::string s = std::string(op.name) + " " + vgpr(f[fld::kDst] - opnd::kVgpr0, 1) + ", ";
  if (op.opcode == 0x272) {
    static const char* const kParams[] = {"p10", "p20", "p0"};
    s += f[fld::kSrc1] < 3 ? kParams[f[fld::kSrc1]] : "invalid_param_" + dec(f[fld::kSrc1]);
  } else {
    s += withMods(operand(f[fld::kSrc1], op.src1, in.literal), f[fld::kSrc1], op.src1, abs & 2,
                  neg & 2, false);
  }
  s += ", attr" + dec(a & 0x3f) + "." + "xyzw"[(a >> 6) & 3];
  if (op.src2 != Ty::None)
    s += ", " + withMods(operand(f[fld::kSrc2], op.src2, in.literal), f[fld::kSrc2], op.src2,
                         abs & 4, neg & 4, false);
  if ((a >> 8) & 1) s += " high";
  if ((mods >> 6) & 1) s += " clamp";
  if (omod) s += omod == 1 ? " mul:2" : (omod == 2 ? " mul:4" : " div:2");
  return s;
}

std::string valu(const Instruction& in, const OpInfo& op, GfxTarget target) {
  if (op.flags & kInterp) return interpVop3(in, op);
  const uint16_t* f = in.f;
  const unsigned form = f[fld::kForm];
  std::string s = valuName(op, form, target);
  if (op.flags & kNoOperands) return s;
  const unsigned mods = f[fld::kMods];
  const unsigned abs = mods & 7, neg = (mods >> 3) & 7, omod = (mods >> 7) & 3;
  const bool clamp = (mods >> 6) & 1;
  bool first = true;
  // Destination(s).
  if (op.enc == Enc::Vopc) {
    add(s, form == kE32 ? std::string("vcc") : scalar(f[fld::kDst], 2, Ty::B64, 0), first);
  } else if (op.flags & kScalarDst) {
    add(s, scalar(f[fld::kDst], 1, Ty::B32, 0), first);
  } else if (op.dst != Ty::None) {
    add(s, vgpr(f[fld::kDst] - opnd::kVgpr0, dwordsOf(op.dst)), first);
  }
  if (op.flags & kCarryOut)
    add(s, form == kE64 ? scalar(f[fld::kSdst], 2, Ty::B64, 0) : "vcc", first);
  // Sources with input modifiers.
  const Ty types[3] = {op.src0, op.src1, op.src2};
  const bool accumulate = op.flags & kAccumulate;
  for (int i = 0; i < 3; ++i) {
    if (types[i] == Ty::None || (i == 2 && accumulate)) continue;
    const int code = f[fld::kSrc0 + i];
    if (i == 2 && (op.flags & kCarryIn)) {
      add(s, form == kE64 ? scalar(code, 2, Ty::B64, 0) : "vcc", first);
      continue;
    }
    const bool kSlot = (op.flags & kLiteralK) && i == (in.f[fld::kSrc1] == opnd::kLiteral ? 1 : 2);
    if (kSlot) {  // the madmk/madak constant K always prints in hex
      add(s, hex(in.literal), first);
      continue;
    }
    add(s,
        withMods(operand(code, types[i], in.literal), code, types[i], (abs >> i) & 1,
                 (neg >> i) & 1, form == kSdwa && i < 2 && ((f[fld::kExt1] >> (4 * i + 3)) & 1)),
        first);
  }
  if ((op.flags & kCarryIn) && op.src2 == Ty::None)
    add(s, form == kE64 ? scalar(f[fld::kSrc2], 2, Ty::B64, 0) : std::string("vcc"), first);
  if (form == kE64) {
    const unsigned opsel = f[fld::kOpsel];
    const int nsrc = (op.src0 != Ty::None) + (op.src1 != Ty::None) + (op.src2 != Ty::None);
    const bool hasOpsel = (op.flags & (kOpselDst | kPreserveHi16)) != 0;
    if (hasOpsel && opsel)
      s += " op_sel:" +
           bitList((opsel & ((1u << nsrc) - 1)) | (((opsel >> 3) & 1) << nsrc), nsrc + 1);
    if (clamp) s += " clamp";
    if (omod) s += omod == 1 ? " mul:2" : (omod == 2 ? " mul:4" : " div:2");
  } else if (form == kDpp) {
    const unsigned ext1 = f[fld::kExt1];
    s += " " + dppCtrl(f[fld::kExt0]) + " row_mask:" + hex(ext1 & 0xf) +
         " bank_mask:" + hex((ext1 >> 4) & 0xf);
    if ((ext1 >> 8) & 1) s += " bound_ctrl:1";  // llvm-objdump-15 prints the bit value
  } else if (form == kSdwa) {
    if (clamp) s += " clamp";
    if (omod) s += omod == 1 ? " mul:2" : (omod == 2 ? " mul:4" : " div:2");
    const unsigned ext0 = f[fld::kExt0], ext1 = f[fld::kExt1];
    if (op.enc != Enc::Vopc) {
      static const char* const kUnused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "3"};
      s += std::string(" dst_sel:") + sdwaSel(ext0 & 7) + " dst_unused:" + kUnused[(ext0 >> 3) & 3];
    }
    s += std::string(" src0_sel:") + sdwaSel(ext1 & 7);
    if (op.src1 != Ty::None) s += std::string(" src1_sel:") + sdwaSel((ext1 >> 4) & 7);
  }
  return s;
}

std::string vop3p(const Instruction& in, const OpInfo& op, GfxTarget target) {
  const uint16_t* f = in.f;
  std::string s = valuName(op, kVop3p, target);
  bool first = true;
  add(s, vgpr(f[fld::kDst] - opnd::kVgpr0, 1), first);
  const Ty types[3] = {op.src0, op.src1, op.src2};
  int nsrc = 0;
  const unsigned opselAll = f[fld::kOpsel];
  const bool mix = op.flags & kMixOpsel;
  for (int i = 0; i < 3; ++i) {
    if (types[i] == Ty::None) continue;
    const int code = f[fld::kSrc0 + i];
    std::string text = operand(code, Ty::B32, in.literal);
    // Mix ops: neg_lo negates, neg_hi takes the absolute value of the source (printed on it).
    if (mix)
      text = withMods(text, code, Ty::F32, (opselAll >> (6 + i)) & 1,
                      (f[fld::kMods] >> (3 + i)) & 1, false);
    add(s, text, first);
    ++nsrc;
  }
  const unsigned mask = (1u << nsrc) - 1;
  const unsigned opsel = opselAll & mask, opselHi = (opselAll >> 3) & mask;
  const unsigned negHi = mix ? 0 : (opselAll >> 6) & mask;
  const unsigned negLo = mix ? 0 : (f[fld::kMods] >> 3) & mask;
  if (opsel) s += " op_sel:" + bitList(opsel, nsrc);
  if (mix ? opselHi != 0 : opselHi != mask) s += " op_sel_hi:" + bitList(opselHi, nsrc);
  if (negLo) s += " neg_lo:" + bitList(negLo, nsrc);
  if (negHi) s += " neg_hi:" + bitList(negHi, nsrc);
  if ((f[fld::kMods] >> 6) & 1) s += " clamp";
  return s;
}

std::string vintrp(const Instruction& in) {
  static const char* const kNames[] = {"v_interp_p1_f32_e32", "v_interp_p2_f32_e32",
                                       "v_interp_mov_f32_e32", nullptr};
  const unsigned opc = in.f[fld::kExt0];
  if (!kNames[opc]) return {};
  const unsigned attr = in.f[fld::kExt1] & 0x3f, chan = (in.f[fld::kExt1] >> 6) & 3;
  static const char kChan[] = "xyzw";
  std::string s = std::string(kNames[opc]) + " " + vgpr(in.f[fld::kDst] - opnd::kVgpr0, 1) + ", ";
  if (opc == 2) {
    static const char* const kParams[] = {"p10", "p20", "p0"};
    const unsigned p = in.f[fld::kSrc0];
    s += p < 3 ? kParams[p] : "invalid_param_" + dec(p);
  } else {
    s += vgpr(in.f[fld::kSrc0], 1);
  }
  return s + ", attr" + dec(attr) + "." + kChan[chan];
}

// ---------------------------------------------------------------------------------------
// Memory

// printSwizzle: QUAD_PERM when the high byte is 0x80, BITMASK_PERM (or its SWAP / REVERSE /
// BROADCAST special cases) when bit 15 is clear, the plain value otherwise.
std::string swizzle(uint32_t off) {
  if ((off & 0xff00) == 0x8000) {
    return "swizzle(QUAD_PERM," + dec(off & 3) + "," + dec((off >> 2) & 3) + "," +
           dec((off >> 4) & 3) + "," + dec((off >> 6) & 3) + ")";
  }
  if (off & 0x8000) return dec(off);
  const uint32_t andM = off & 0x1f, orM = (off >> 5) & 0x1f, xorM = (off >> 10) & 0x1f;
  if (andM == 0x1f && orM == 0 && __builtin_popcount(xorM) == 1)
    return "swizzle(SWAP," + dec(xorM) + ")";
  if (andM == 0x1f && orM == 0 && xorM > 0 && ((xorM + 1) & xorM) == 0)
    return "swizzle(REVERSE," + dec(xorM + 1) + ")";
  const uint32_t group = 0x1f - andM + 1;
  if (group > 1 && (group & (group - 1)) == 0 && orM < group && xorM == 0)
    return "swizzle(BROADCAST," + dec(group) + "," + dec(orM) + ")";
  std::string m;
  for (int b = 4; b >= 0; --b) {
    const uint32_t p0 = ((orM ^ xorM) >> b) & 1, p1 = (((andM | orM) ^ xorM) >> b) & 1;
    m += p0 == p1 ? (p0 ? '1' : '0') : (p0 ? 'i' : 'p');
  }
  return "swizzle(BITMASK_PERM,\"" + m + "\")";
}

std::string ds(const Instruction& in, const OpInfo& op) {
  const uint16_t* f = in.f;
  std::string s = op.name;
  bool first = true;
  if (op.dst != Ty::None) add(s, vgpr(f[fld::kDst], dwordsOf(op.dst)), first);
  if (op.src0 != Ty::None) add(s, vgpr(f[fld::kAddr], 1), first);
  if (op.src1 != Ty::None) add(s, vgpr(f[fld::kData0], dwordsOf(op.src1)), first);
  if (op.src2 != Ty::None) add(s, vgpr(f[fld::kData1], dwordsOf(op.src2)), first);
  const bool two = op.mem.elements == 2 || std::string(op.name).find("xchg2") != std::string::npos;
  if (two && op.opcode != 0x3d) {
    if (f[fld::kOffset0]) s += " offset0:" + dec(f[fld::kOffset0]);
    if (f[fld::kOffset1]) s += " offset1:" + dec(f[fld::kOffset1]);
  } else {
    const uint32_t off = f[fld::kOffset0] | (static_cast<uint32_t>(f[fld::kOffset1]) << 8);
    if (op.opcode == 0x3d && off) {
      s += " offset:" + swizzle(off);
    } else if (off) {
      s += " offset:" + dec(off);
    }
  }
  if (f[fld::kBits] & kGds) s += " gds";
  return s;
}

std::string mtbufFormat(unsigned fmt) {
  static const char* const kData[] = {
      "BUF_DATA_FORMAT_INVALID",     "BUF_DATA_FORMAT_8",        "BUF_DATA_FORMAT_16",
      "BUF_DATA_FORMAT_8_8",         "BUF_DATA_FORMAT_32",       "BUF_DATA_FORMAT_16_16",
      "BUF_DATA_FORMAT_10_11_11",    "BUF_DATA_FORMAT_11_11_10", "BUF_DATA_FORMAT_10_10_10_2",
      "BUF_DATA_FORMAT_2_10_10_10",  "BUF_DATA_FORMAT_8_8_8_8",  "BUF_DATA_FORMAT_32_32",
      "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32", "BUF_DATA_FORMAT_32_32_32_32",
      "BUF_DATA_FORMAT_RESERVED_15"};
  static const char* const kNum[] = {"BUF_NUM_FORMAT_UNORM",      "BUF_NUM_FORMAT_SNORM",
                                     "BUF_NUM_FORMAT_USCALED",    "BUF_NUM_FORMAT_SSCALED",
                                     "BUF_NUM_FORMAT_UINT",       "BUF_NUM_FORMAT_SINT",
                                     "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT"};
  const unsigned dfmt = fmt & 0xf, nfmt = (fmt >> 4) & 7;
  if (dfmt == 1 && nfmt == 0) return {};
  std::string s = " format:[";
  if (dfmt != 1) s += kData[dfmt];
  if (nfmt != 0) s += std::string(dfmt != 1 ? "," : "") + kNum[nfmt];
  return s + "]";
}

std::string buffer(const Instruction& in, const OpInfo& op) {
  const uint16_t* f = in.f;
  std::string s = op.name;
  if (op.flags & kNoOperands) return s;
  const unsigned bits = f[fld::kBits];
  const bool glc = bits & kGlc;
  bool first = true;
  if (op.mem.fromLds) {
    // buffer_store_lds_dword: no VGPR operand; lds before glc and slc (llvm-objdump-15).
    s += " " + scalar(f[fld::kData1], 4, Ty::B128, 0) + ", " +
         scalar(f[fld::kOffset1], 1, Ty::B32, in.literal);
    if (f[fld::kOffset0]) s += " offset:" + dec(f[fld::kOffset0]);
    s += " lds";
    if (glc) s += " glc";
    if (bits & kSlc) s += " slc";
    return s;
  }
  const Ty data =
      op.mem.op == MemOp::Store ? op.src1 : (op.mem.op == MemOp::Atomic ? op.src1 : op.dst);
  if (!(bits & kLds) || op.mem.op != MemOp::Load)  // lds loads have no vdata operand
    add(s, vgpr(f[fld::kData0], dwordsOf(data)), first);
  const bool offen = bits & kOffen, idxen = bits & kIdxen;
  add(s, (offen || idxen) ? vgpr(f[fld::kAddr], (offen && idxen) ? 2 : 1) : std::string("off"),
      first);
  add(s, scalar(f[fld::kData1], 4, Ty::B128, 0), first);
  add(s, scalar(f[fld::kOffset1], 1, Ty::B32, in.literal), first);
  if (op.enc == Enc::Mtbuf) s += mtbufFormat(f[fld::kFmt]);
  if (idxen) s += " idxen";
  if (offen) s += " offen";
  if (f[fld::kOffset0]) s += " offset:" + dec(f[fld::kOffset0]);
  if (glc) s += " glc";
  if (bits & kSlc) s += " slc";
  if (bits & kLds) s += " lds";
  if (bits & kTfe) s += " tfe";
  return s;
}

std::string flat(const Instruction& in, const OpInfo& op) {
  const uint16_t* f = in.f;
  std::string s = op.name;
  const unsigned bits = f[fld::kBits];
  const int seg = f[fld::kFmt];
  const int saddr = f[fld::kData1];
  const bool useSaddr = seg != 0 && saddr != 0x7f;
  // Loads into the LDS (lds) have no VGPR destination.
  const bool returns =
      (op.mem.op == MemOp::Load && !(bits & kLds)) || (op.mem.op == MemOp::Atomic && (bits & kGlc));
  bool first = true;
  if (returns) add(s, vgpr(f[fld::kDst], dwordsOf(op.dst)), first);
  // Address: 64-bit VGPR pair for flat/global without saddr; 32-bit VGPR offset otherwise;
  // scratch with an SGPR address has no VGPR ("off").
  if (seg == 1 && useSaddr) {
    add(s, "off", first);
  } else {
    add(s, vgpr(f[fld::kAddr], (seg == 1 || useSaddr) ? 1 : 2), first);
  }
  if (op.src1 != Ty::None) add(s, vgpr(f[fld::kData0], dwordsOf(op.src1)), first);
  if (seg != 0)
    add(s, useSaddr ? scalar(saddr, seg == 2 ? 2 : 1, Ty::B64, 0) : std::string("off"), first);
  // FLAT prints the 13-bit field unsigned, GLOBAL/SCRATCH signed (llvm-objdump-15).
  const int64_t offset =
      seg == 0 ? f[fld::kOffset0] : static_cast<int64_t>(sext(f[fld::kOffset0], 13));
  if (offset) s += " offset:" + dec(offset);
  if (bits & kGlc) s += " glc";
  if (bits & kSlc) s += " slc";
  if (bits & kLds) s += " lds";
  if ((bits & kNv) && seg != 0) s += " nv";
  return s;
}

// MIMG (LLVM gfx9 syntax): vdata (dmask components, packed d16, + tfe), vaddr (fixed per
// opcode), srsrc, [ssamp], then the modifiers.
std::string mimg(const Instruction& in, const OpInfo& op) {
  const uint16_t* f = in.f;
  const unsigned dmask = f[fld::kFmt], mb = f[fld::kMimgBits], bits = f[fld::kBits];
  const bool gather = std::string(op.name).rfind("image_gather4", 0) == 0;
  int data = gather ? 4 : std::max(__builtin_popcount(dmask), 1);
  if (mb & 16) data = (data + 1) / 2;
  if (bits & kTfe) data += 1;
  std::string s = op.name;
  s += " " + vgpr(f[fld::kData0], data) + ", " + vgpr(f[fld::kAddr], dwordsOf(op.src0)) + ", " +
       scalar(f[fld::kData1], 8, Ty::B256, 0);
  if (op.src2 != Ty::None) s += ", " + scalar(f[fld::kOffset0], 4, Ty::B128, 0);
  if (dmask) s += " dmask:" + hex(dmask);
  if (mb & 1) s += " unorm";
  if (bits & kGlc) s += " glc";
  if (bits & kSlc) s += " slc";
  if (mb & 4) s += " a16";
  if (bits & kTfe) s += " tfe";
  if (mb & 8) s += " lwe";
  if (mb & 2) s += " da";
  if (mb & 16) s += " d16";
  return s;
}

// EXP: target, four sources (compressed: src0, src0, src1, src1), done / compr / vm.
std::string exportInst(const Instruction& in) {
  const unsigned w = in.f[fld::kExt0];
  const unsigned en = w & 0xf, tgt = (w >> 4) & 0x3f;
  const bool compr = (w >> 10) & 1;
  std::string s = "exp ";
  if (tgt <= 7) {
    s += "mrt" + dec(tgt);
  } else if (tgt == 8) {
    s += "mrtz";
  } else if (tgt == 9) {
    s += "null";
  } else if (tgt >= 12 && tgt <= 15) {
    s += "pos" + dec(tgt - 12);
  } else if (tgt >= 32) {
    s += "param" + dec(tgt - 32);
  } else {
    s += "invalid_target_" + dec(tgt);
  }
  for (int i = 0; i < 4; ++i) {
    s += i ? ", " : " ";
    s += ((en >> i) & 1) ? vgpr(in.f[1 + (compr ? i / 2 : i)], 1) : std::string("off");
  }
  if ((w >> 11) & 1) s += " done";
  if (compr) s += " compr";
  if ((w >> 12) & 1) s += " vm";
  return s;
}

}  // namespace

std::string disassemble(const Instruction& in, GfxTarget target) {
  const OpInfo* op = in.op;
  char raw[24];
  std::snprintf(raw, sizeof raw, ".long 0x%08x", in.words[0]);
  if (!op || (target == GfxTarget::Gfx900 && (op->flags & kGfx906Only))) {
    if (!op && (in.words[0] >> 26) == 0x35) {
      std::string s = vintrp(in);
      if (!s.empty()) return s;
    }
    return raw;
  }
  switch (op->enc) {
    case Enc::Sop2:
    case Enc::Sop1:
    case Enc::Sopc:
    case Enc::Sopk:
      return salu(in, *op);
    case Enc::Sopp:
      return sopp(in, *op);
    case Enc::Smem:
      return smem(in, *op);
    case Enc::Vop1:
    case Enc::Vop2:
    case Enc::Vopc:
    case Enc::Vop3:
      return valu(in, *op, target);
    case Enc::Vop3p:
      return vop3p(in, *op, target);
    case Enc::Ds:
      return ds(in, *op);
    case Enc::Mubuf:
    case Enc::Mtbuf:
      return buffer(in, *op);
    case Enc::Flat:
      return flat(in, *op);
    case Enc::Mimg:
      return mimg(in, *op);
    case Enc::Vintrp: {
      const std::string s = vintrp(in);
      return s.empty() ? raw : s;
    }
    case Enc::Exp:
      return exportInst(in);
    default:
      return raw;
  }
}

}  // namespace vgpu::isa
