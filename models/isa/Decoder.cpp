// Decoder for every gfx9 encoding (Vega ISA guide ch. 12 "Microcode Formats"): finds the
// encoding family and size (including 32-bit literals, DPP and SDWA words), looks the opcode
// up in the family tables and unpacks the fields once per instruction.
#include <array>
#include <cstring>
#include <unordered_map>

#include "isa/EncodingFields.h"
#include "isa/OpInfo.h"

namespace vgpu::isa {
namespace {

// The rate class of a VALU opcode (ValuRate), worked out once per opcode when the lookup is
// built. FP64 and transcendentals by name; the 32-bit integer multiplies run
// at quarter rate on GCN (AMD OpenCL optimization guide, "Instruction Throughput").
uint8_t valuRateOf(const OpInfo& o) {
  uint8_t rate = kValuFullRate;
  if (std::strstr(o.name, "_f64")) rate |= kValuFp64;  // f64 results, sources or compares
  for (const char* t : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (std::strncmp(o.name, t, std::strlen(t)) == 0) rate |= kValuTranscendental;
  for (const char* m : {"v_mul_lo_u32", "v_mul_hi_u32", "v_mul_hi_i32", "v_mad_u64_u32",
                        "v_mad_i64_i32", "v_mul_lo_i32"})
    if (std::strcmp(o.name, m) == 0) rate |= kValuQuarterRateInt;
  return rate;
}

struct Lookup {
  std::array<const OpInfo*, 128> sop2{}, sopk{}, sopc{}, sopp{};
  std::array<const OpInfo*, 256> sop1{}, smem{}, vop1{}, vopc{}, ds{};
  std::array<const OpInfo*, 64> vop2{};
  std::array<const OpInfo*, 1024> vop3{};
  std::array<const OpInfo*, 128> vop3p{}, mubuf{};
  std::array<const OpInfo*, 16> mtbuf{};
  std::array<std::array<const OpInfo*, 128>, 3> flat{};
  std::array<const OpInfo*, 128> mimg{};
  std::array<const OpInfo*, 4> vintrp{};
  const OpInfo* exp = nullptr;
  std::unordered_map<const OpInfo*, uint8_t> valuRates;  // VALU opcodes below full rate

  Lookup() {
    auto addAll = [&](OpTable t) {
      for (int i = 0; i < t.count; ++i) add(&t.ops[i]);
    };
    addAll(sopTable());
    addAll(soppTable());
    addAll(smemTable());
    addAll(valuTable());
    addAll(vop3Table());
    addAll(vopcTable());
    addAll(vop3pTable());
    addAll(dsTable());
    addAll(vmemTable());
    addAll(mimgTable());
    addAll(interpTable());
  }
  void add(const OpInfo* o) {
    if (o->issue == IssueType::Valu) {
      const uint8_t rate = valuRateOf(*o);
      if (rate != kValuFullRate) valuRates.emplace(o, rate);
    }
    const int op = o->opcode;
    switch (o->enc) {
      case Enc::Sop2:
        sop2[op] = o;
        break;
      case Enc::Sopk:
        sopk[op] = o;
        break;
      case Enc::Sop1:
        sop1[op] = o;
        break;
      case Enc::Sopc:
        sopc[op] = o;
        break;
      case Enc::Sopp:
        sopp[op] = o;
        break;
      case Enc::Smem:
        smem[op] = o;
        break;
      case Enc::Vop2:
        vop2[op] = o;
        break;
      case Enc::Vop1:
        vop1[op] = o;
        break;
      case Enc::Vopc:
        vopc[op] = o;
        break;
      case Enc::Vop3:
        vop3[op] = o;
        break;
      case Enc::Vop3p:
        vop3p[op] = o;
        break;
      case Enc::Ds:
        ds[op] = o;
        break;
      case Enc::Mubuf:
        mubuf[op] = o;
        break;
      case Enc::Mtbuf:
        mtbuf[op] = o;
        break;
      case Enc::Flat:
        flat[o->mem.segment][op] = o;
        break;
      case Enc::Mimg:
        mimg[op] = o;
        break;
      case Enc::Vintrp:
        vintrp[op] = o;
        break;
      case Enc::Exp:
        exp = o;
        break;
      default:
        break;
    }
    if (o->vop3 >= 0 && o->enc != Enc::Vop3) vop3[o->vop3] = o;
  }
};

const Lookup& lookup() {
  static const Lookup l;
  return l;
}

template <size_t N>
const OpInfo* at(const std::array<const OpInfo*, N>& a, int op) {
  return (op >= 0 && static_cast<size_t>(op) < N) ? a[op] : nullptr;
}

Enc classify(uint32_t w) {
  if ((w >> 31) == 0) {
    const uint32_t top7 = w >> 25;
    if (top7 == 0x3f) return Enc::Vop1;
    if (top7 == 0x3e) return Enc::Vopc;
    return Enc::Vop2;
  }
  if ((w >> 30) == 2) {
    const uint32_t top9 = w >> 23;
    if (top9 == 0x17d) return Enc::Sop1;
    if (top9 == 0x17e) return Enc::Sopc;
    if (top9 == 0x17f) return Enc::Sopp;
    if ((w >> 28) == 0xb) return Enc::Sopk;
    return Enc::Sop2;
  }
  switch (w >> 26) {
    case 0x30:
      return Enc::Smem;
    case 0x31:
      return Enc::Exp;
    case 0x34:
      return (w >> 23) == 0x1a7 ? Enc::Vop3p : Enc::Vop3;
    case 0x35:
      return Enc::Vintrp;
    case 0x36:
      return Enc::Ds;
    case 0x37:
      return Enc::Flat;
    case 0x38:
      return Enc::Mubuf;
    case 0x3a:
      return Enc::Mtbuf;
    case 0x3c:
      return Enc::Mimg;
    default:
      return Enc::Unknown;
  }
}

uint16_t u16(uint32_t v) {
  return static_cast<uint16_t>(v);
}

// Fills `in` from its words; returns the instruction size in bytes. `avail` is how many
// bytes remain (a literal that would run past the end is not read).
int decodeOne(Instruction& in, const uint8_t* p, size_t avail, GfxTarget target) {
  auto word = [&](int i) -> uint32_t {
    if (avail < static_cast<size_t>(4 * i + 4)) return 0;
    return static_cast<uint32_t>(p[4 * i]) | (static_cast<uint32_t>(p[4 * i + 1]) << 8) |
           (static_cast<uint32_t>(p[4 * i + 2]) << 16) |
           (static_cast<uint32_t>(p[4 * i + 3]) << 24);
  };
  const uint32_t w0 = word(0);
  in.words[0] = w0;
  const Enc enc = classify(w0);
  const Lookup& lk = lookup();
  uint16_t* f = in.f;
  for (int i = 0; i < 12; ++i) f[i] = 0;
  f[fld::kDst] = f[fld::kSrc0] = f[fld::kSrc1] = f[fld::kSrc2] = f[fld::kSdst] = opnd::kNone;
  int size = 4;
  auto literal = [&]() {
    in.literal = word(size / 4);
    in.hasLiteral = true;
    size += 4;
  };
  const OpInfo* op = nullptr;
  switch (enc) {
    case Enc::Sop2:
      op = at(lk.sop2, bits(w0, 29, 23));
      f[fld::kDst] = u16(bits(w0, 22, 16));
      f[fld::kSrc0] = u16(bits(w0, 7, 0));
      f[fld::kSrc1] = u16(bits(w0, 15, 8));
      if (f[fld::kSrc0] == opnd::kLiteral || f[fld::kSrc1] == opnd::kLiteral) literal();
      break;
    case Enc::Sopk:
      op = at(lk.sopk, bits(w0, 27, 23));
      f[fld::kDst] = f[fld::kSrc0] = u16(bits(w0, 22, 16));
      f[fld::kExt0] = u16(bits(w0, 15, 0));
      if (bits(w0, 27, 23) == 0x14) literal();  // s_setreg_imm32_b32
      break;
    case Enc::Sop1:
      op = at(lk.sop1, bits(w0, 15, 8));
      f[fld::kDst] = u16(bits(w0, 22, 16));
      f[fld::kSrc0] = u16(bits(w0, 7, 0));
      if (f[fld::kSrc0] == opnd::kLiteral) literal();
      break;
    case Enc::Sopc:
      op = at(lk.sopc, bits(w0, 22, 16));
      f[fld::kSrc0] = u16(bits(w0, 7, 0));
      f[fld::kSrc1] = u16(bits(w0, 15, 8));
      if (f[fld::kSrc0] == opnd::kLiteral || f[fld::kSrc1] == opnd::kLiteral) literal();
      break;
    case Enc::Sopp:
      op = at(lk.sopp, bits(w0, 22, 16));
      f[fld::kExt0] = u16(bits(w0, 15, 0));
      // Operand-less SOPP opcodes are only valid with a zero immediate (llvm-objdump agrees).
      if (op && (op->flags & kNoOperands) && f[fld::kExt0] != 0) op = nullptr;
      break;
    case Enc::Smem: {
      size = 8;
      const uint32_t w1 = word(1);
      op = at(lk.smem, bits(w0, 25, 18));
      f[fld::kAddr] = u16(bits(w0, 5, 0) * 2);
      f[fld::kData0] = u16(bits(w0, 12, 6));
      f[fld::kBits] = u16((bits(w0, 16, 16) ? kGlc : 0) | (bits(w0, 17, 17) ? kSmemImm : 0) |
                          (bits(w0, 14, 14) ? kSmemSoe : 0) | (bits(w0, 15, 15) ? kNv : 0));
      f[fld::kOffset1] = u16(bits(w1, 31, 25));
      in.literal = w1;  // the offset word; not an instruction literal
      break;
    }
    case Enc::Vop2:
    case Enc::Vop1:
    case Enc::Vopc: {
      const uint32_t src0 = bits(w0, 8, 0);
      if (enc == Enc::Vop2) {
        op = at(lk.vop2, bits(w0, 30, 25));
        f[fld::kDst] = u16(256 + bits(w0, 24, 17));
        f[fld::kSrc1] = u16(256 + bits(w0, 16, 9));
      } else if (enc == Enc::Vop1) {
        op = at(lk.vop1, bits(w0, 16, 9));
        if (op && (op->flags & kNoOperands) && bits(w0, 24, 17) != 0) op = nullptr;  // v_nop
        f[fld::kDst] = u16(256 + bits(w0, 24, 17));
        if (op && (op->flags & kScalarDst)) f[fld::kDst] = u16(bits(w0, 24, 17));
      } else {
        op = at(lk.vopc, bits(w0, 24, 17));
        f[fld::kDst] = opnd::kVccLo;
        f[fld::kSrc1] = u16(256 + bits(w0, 16, 9));
      }
      f[fld::kSrc0] = u16(src0);
      f[fld::kForm] = kE32;
      if (op && (op->flags & kCarryOut)) f[fld::kSdst] = opnd::kVccLo;
      if (src0 == opnd::kLiteral) literal();
      if (op && (op->flags & kLiteralK)) {
        if (!in.hasLiteral) literal();  // K and a literal src0 share the one literal dword
        // v_madmk: D = S0 * K + S1; v_madak: D = S0 * S1 + K (12.7).
        const bool madmk = op->opcode == 0x17 || op->opcode == 0x24;
        if (madmk) {
          f[fld::kSrc2] = f[fld::kSrc1];
          f[fld::kSrc1] = opnd::kLiteral;
        } else {
          f[fld::kSrc2] = opnd::kLiteral;
        }
      }
      if (src0 == opnd::kDpp) {
        size = 8;
        const uint32_t w1 = word(1);
        f[fld::kForm] = kDpp;
        f[fld::kSrc0] = u16(256 + bits(w1, 7, 0));
        f[fld::kExt0] = u16(bits(w1, 16, 8));
        f[fld::kExt1] = u16(bits(w1, 31, 28) | (bits(w1, 27, 24) << 4) | (bits(w1, 19, 19) << 8));
        f[fld::kMods] = u16(bits(w1, 21, 21) | (bits(w1, 23, 23) << 1) | (bits(w1, 20, 20) << 3) |
                            (bits(w1, 22, 22) << 4));
      } else if (src0 == opnd::kSdwa) {
        size = 8;
        const uint32_t w1 = word(1);
        f[fld::kForm] = kSdwa;
        f[fld::kSrc0] = u16(bits(w1, 7, 0) + (bits(w1, 23, 23) ? 0 : 256));
        if (enc != Enc::Vop1) f[fld::kSrc1] = u16(bits(w0, 16, 9) + (bits(w1, 31, 31) ? 0 : 256));
        f[fld::kExt1] = u16(bits(w1, 18, 16) | (bits(w1, 19, 19) << 3) | (bits(w1, 26, 24) << 4) |
                            (bits(w1, 27, 27) << 7));
        f[fld::kMods] = u16(bits(w1, 21, 21) | (bits(w1, 29, 29) << 1) | (bits(w1, 20, 20) << 3) |
                            (bits(w1, 28, 28) << 4));
        if (enc == Enc::Vopc) {
          f[fld::kDst] = bits(w1, 15, 15) ? u16(bits(w1, 14, 8)) : u16(opnd::kVccLo);
          f[fld::kExt0] = u16(bits(w1, 15, 15) << 5);
        } else {
          f[fld::kExt0] = u16(bits(w1, 10, 8) | (bits(w1, 12, 11) << 3));
          f[fld::kMods] = u16(f[fld::kMods] | (bits(w1, 13, 13) << 6) | (bits(w1, 15, 14) << 7));
        }
      }
      if (op && (op->flags & kAccumulate)) f[fld::kSrc2] = f[fld::kDst];
      break;
    }
    case Enc::Vop3: {
      size = 8;
      const uint32_t w1 = word(1);
      op = at(lk.vop3, bits(w0, 25, 16));
      const bool vop3b = op && (op->flags & kVop3b);
      const uint32_t vdst = bits(w0, 7, 0);
      const bool sgprDst = op && (op->enc == Enc::Vopc || (op->flags & kScalarDst));
      f[fld::kDst] = u16(sgprDst ? vdst : 256 + vdst);
      f[fld::kSrc0] = u16(bits(w1, 8, 0));
      f[fld::kSrc1] = u16(bits(w1, 17, 9));
      f[fld::kSrc2] = u16(bits(w1, 26, 18));
      if (vop3b) f[fld::kSdst] = u16(bits(w0, 14, 8));
      f[fld::kMods] = u16((vop3b ? 0 : bits(w0, 10, 8)) | (bits(w1, 31, 29) << 3) |
                          (bits(w0, 15, 15) << 6) | (bits(w1, 28, 27) << 7));
      f[fld::kOpsel] = u16(vop3b ? 0 : bits(w0, 14, 11));
      f[fld::kForm] = kE64;
      if (op && (op->flags & kAccumulate)) f[fld::kSrc2] = f[fld::kDst];
      break;
    }
    case Enc::Vop3p: {
      size = 8;
      const uint32_t w1 = word(1);
      op = at(lk.vop3p, bits(w0, 22, 16));
      f[fld::kDst] = u16(256 + bits(w0, 7, 0));
      f[fld::kSrc0] = u16(bits(w1, 8, 0));
      f[fld::kSrc1] = u16(bits(w1, 17, 9));
      f[fld::kSrc2] = u16(bits(w1, 26, 18));
      f[fld::kMods] = u16((bits(w1, 31, 29) << 3) | (bits(w0, 15, 15) << 6));
      const uint32_t opselHi = bits(w1, 27, 27) | (bits(w1, 28, 28) << 1) | (bits(w0, 14, 14) << 2);
      f[fld::kOpsel] = u16(bits(w0, 13, 11) | (opselHi << 3) | (bits(w0, 10, 8) << 6));
      f[fld::kForm] = kVop3p;
      break;
    }
    case Enc::Vintrp:
      op = at(lk.vintrp, bits(w0, 17, 16));
      f[fld::kDst] = u16(256 + bits(w0, 25, 18));
      f[fld::kSrc0] = u16(bits(w0, 7, 0));
      f[fld::kExt0] = u16(bits(w0, 17, 16));  // opcode
      f[fld::kExt1] = u16(bits(w0, 15, 10) | (bits(w0, 9, 8) << 6));
      break;
    case Enc::Ds: {
      size = 8;
      const uint32_t w1 = word(1);
      op = at(lk.ds, bits(w0, 24, 17));
      // ds_gws_* and ds_ordered_count exist only with gds=1 (llvm-objdump-15 prints the
      // gds=0 encodings as .long).
      if (op && (op->flags & kGdsOnly) && !bits(w0, 16, 16)) op = nullptr;
      f[fld::kOffset0] = u16(bits(w0, 7, 0));
      f[fld::kOffset1] = u16(bits(w0, 15, 8));
      f[fld::kBits] = u16(bits(w0, 16, 16) ? kGds : 0);
      f[fld::kAddr] = u16(bits(w1, 7, 0));
      f[fld::kData0] = u16(bits(w1, 15, 8));
      f[fld::kData1] = u16(bits(w1, 23, 16));
      f[fld::kDst] = u16(bits(w1, 31, 24));
      break;
    }
    case Enc::Mubuf:
    case Enc::Mtbuf: {
      size = 8;
      const uint32_t w1 = word(1);
      const bool mtbuf = enc == Enc::Mtbuf;
      op = mtbuf ? at(lk.mtbuf, bits(w0, 18, 15)) : at(lk.mubuf, bits(w0, 24, 18));
      f[fld::kOffset0] = u16(bits(w0, 11, 0));
      f[fld::kOffset1] = u16(bits(w1, 31, 24));
      const bool slc = mtbuf ? bits(w1, 22, 22) : bits(w0, 17, 17);
      f[fld::kBits] = u16((bits(w0, 12, 12) ? kOffen : 0) | (bits(w0, 13, 13) ? kIdxen : 0) |
                          (bits(w0, 14, 14) ? kGlc : 0) | (slc ? kSlc : 0) |
                          (!mtbuf && bits(w0, 16, 16) ? kLds : 0) | (bits(w1, 23, 23) ? kTfe : 0));
      f[fld::kAddr] = u16(bits(w1, 7, 0));
      f[fld::kData0] = f[fld::kDst] = u16(bits(w1, 15, 8));
      f[fld::kData1] = u16(bits(w1, 20, 16) * 4);
      if (mtbuf) f[fld::kFmt] = u16(bits(w0, 22, 19) | (bits(w0, 25, 23) << 4));
      // lds=1 only on the loads into the LDS and BUFFER_STORE_LDS_DWORD, which exists only with
      // it and without a VGPR address (offen, idxen); other combinations are not instructions.
      if (op && !mtbuf &&
          ((f[fld::kBits] & kLds)
               ? !hasLdsForm(*op) || (op->mem.fromLds && (f[fld::kBits] & (kOffen | kIdxen)))
               : op->mem.fromLds))
        op = nullptr;
      break;
    }
    case Enc::Flat: {
      size = 8;
      const uint32_t w1 = word(1);
      const uint32_t seg = bits(w0, 15, 14);
      op = seg < 3 ? at(lk.flat[seg], bits(w0, 24, 18)) : nullptr;
      if (seg == 0 && bits(w1, 22, 16) != 0) op = nullptr;  // FLAT has no saddr: must be 0
      f[fld::kOffset0] = u16(bits(w0, 12, 0));
      f[fld::kBits] = u16((bits(w0, 13, 13) ? kLds : 0) | (bits(w0, 16, 16) ? kGlc : 0) |
                          (bits(w0, 17, 17) ? kSlc : 0) | (bits(w1, 23, 23) ? kNv : 0));
      f[fld::kFmt] = u16(seg);
      f[fld::kAddr] = u16(bits(w1, 7, 0));
      f[fld::kData0] = u16(bits(w1, 15, 8));
      f[fld::kData1] = u16(bits(w1, 22, 16));
      f[fld::kDst] = u16(bits(w1, 31, 24));
      if (op && (f[fld::kBits] & kLds) && !hasLdsForm(*op)) op = nullptr;  // no such LDS form
      break;
    }
    case Enc::Mimg: {
      size = 8;
      const uint32_t w1 = word(1);
      op = at(lk.mimg, bits(w0, 24, 18));
      f[fld::kAddr] = u16(bits(w1, 7, 0));
      f[fld::kData0] = f[fld::kDst] = u16(bits(w1, 15, 8));
      f[fld::kData1] = u16(bits(w1, 20, 16) * 4);
      f[fld::kOffset0] = u16(bits(w1, 25, 21) * 4);
      f[fld::kBits] = u16((bits(w0, 13, 13) ? kGlc : 0) | (bits(w0, 25, 25) ? kSlc : 0) |
                          (bits(w0, 16, 16) ? kTfe : 0));
      f[fld::kFmt] = u16(bits(w0, 11, 8));
      f[fld::kMimgBits] = u16(bits(w0, 12, 12) | (bits(w0, 14, 14) << 1) | (bits(w0, 15, 15) << 2) |
                              (bits(w0, 17, 17) << 3) | (bits(w1, 31, 31) << 4));
      break;
    }
    case Enc::Exp: {
      size = 8;
      const uint32_t w1 = word(1);
      op = lk.exp;
      f[fld::kExt0] = u16(bits(w0, 12, 0));  // en[3:0] tgt[9:4] compr[10] done[11] vm[12]
      for (int i = 0; i < 4; ++i) f[1 + i] = u16(bits(w1, 8 * i + 7, 8 * i));
      break;
    }
    default:
      break;
  }
  if (!op || (target == GfxTarget::Gfx900 && (op->flags & kGfx906Only))) {
    // llvm-objdump prints an encoding it does not know as one .long and goes on with the next
    // word; so does the model (a gfx906-only opcode keeps its OpInfo so that executing it on
    // gfx900 reports what it is).
    size = 4;
    in.hasLiteral = false;
  }
  in.op = op;
  in.issue = op ? op->issue : IssueType::Internal;
  if (op && in.issue == IssueType::Valu) {
    const auto& rates = lookup().valuRates;
    const auto rate = rates.find(op);
    in.valuRate = rate == rates.end() ? uint8_t{kValuFullRate} : rate->second;
  }
  for (int i = 1; i < size / 4; ++i) in.words[i] = word(i);
  return size;
}

}  // namespace

const OpInfo* findOp(Enc enc, int opcode, GfxTarget target, int seg) {
  const Lookup& lk = lookup();
  (void)target;
  switch (enc) {
    case Enc::Sop2:
      return at(lk.sop2, opcode);
    case Enc::Sopk:
      return at(lk.sopk, opcode);
    case Enc::Sop1:
      return at(lk.sop1, opcode);
    case Enc::Sopc:
      return at(lk.sopc, opcode);
    case Enc::Sopp:
      return at(lk.sopp, opcode);
    case Enc::Smem:
      return at(lk.smem, opcode);
    case Enc::Vop2:
      return at(lk.vop2, opcode);
    case Enc::Vop1:
      return at(lk.vop1, opcode);
    case Enc::Vopc:
      return at(lk.vopc, opcode);
    case Enc::Vop3:
      return at(lk.vop3, opcode);
    case Enc::Vop3p:
      return at(lk.vop3p, opcode);
    case Enc::Ds:
      return at(lk.ds, opcode);
    case Enc::Mubuf:
      return at(lk.mubuf, opcode);
    case Enc::Mtbuf:
      return at(lk.mtbuf, opcode);
    case Enc::Flat:
      return (seg >= 0 && seg < 3) ? at(lk.flat[seg], opcode) : nullptr;
    default:
      return nullptr;
  }
}

Instruction decodeInstruction(const uint8_t* bytes, size_t avail, uint64_t pc, GfxTarget target) {
  Instruction in;
  in.pc = pc;
  const int size = decodeOne(in, bytes, avail, target);
  resolveExecution(in);
  in.sizeBytes =
      static_cast<uint8_t>(static_cast<size_t>(size) <= avail ? size : (avail & ~size_t{3}));
  return in;
}

Program Program::decode(const std::vector<uint8_t>& bytes, uint64_t base, GfxTarget target) {
  Program p;
  p.base_ = base;
  p.target_ = target;
  p.indexOf_.assign((bytes.size() + 3) / 4, -1);
  size_t pos = 0;
  while (pos + 4 <= bytes.size()) {
    const Instruction in =
        decodeInstruction(bytes.data() + pos, bytes.size() - pos, base + pos, target);
    p.indexOf_[pos / 4] = static_cast<int32_t>(p.insts_.size());
    p.insts_.push_back(in);
    pos += in.sizeBytes;
  }
  return p;
}

const Instruction* Program::at(uint64_t pc) const {
  if (pc < base_ || (pc - base_) % 4 != 0) return nullptr;
  const uint64_t idx = (pc - base_) / 4;
  if (idx >= indexOf_.size() || indexOf_[idx] < 0) return nullptr;
  return &insts_[static_cast<size_t>(indexOf_[idx])];
}

}  // namespace vgpu::isa
