// Internal description of an opcode: the table line every encoding family writes once per
// instruction, and the decoded-field layout shared by the decoder, disassembler and executors.
// Not part of the public interface (the compute unit only sees Isa.h).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "isa/Isa.h"

namespace vgpu::isa {

// Encoding families of gfx9 (Vega ISA guide, chapter 12 "Microcode Formats").
enum class Enc : uint8_t {
  Sop2,
  Sopk,
  Sop1,
  Sopc,
  Sopp,
  Smem,
  Vop2,
  Vop1,
  Vopc,
  Vop3,
  Vop3p,
  Vintrp,
  Ds,
  Mubuf,
  Mtbuf,
  Mimg,
  Flat,
  Exp,
  Unknown
};

// Operand data type: width, and whether float modifiers / float inline constants apply.
enum class Ty : uint8_t {
  None,
  B16,
  I16,
  F16,  // 16-bit (inline floats are f16 patterns)
  Pk16,
  PkF16,  // packed 2 x 16 bit (VOP3P)
  B32,
  I32,
  F32,  // 32-bit
  B64,
  I64,
  F64,  // 64-bit (inline floats are f64 patterns)
  B96,
  B128,
  B256,
  B512,
};

inline int dwordsOf(Ty t) {
  switch (t) {
    case Ty::None:
      return 0;
    case Ty::B64:
    case Ty::I64:
    case Ty::F64:
      return 2;
    case Ty::B96:
      return 3;
    case Ty::B128:
      return 4;
    case Ty::B256:
      return 8;
    case Ty::B512:
      return 16;
    default:
      return 1;
  }
}
inline bool is16(Ty t) {
  return t == Ty::B16 || t == Ty::I16 || t == Ty::F16 || t == Ty::Pk16 || t == Ty::PkF16;
}
inline bool is64(Ty t) {
  return t == Ty::B64 || t == Ty::I64 || t == Ty::F64;
}
inline bool isFloat(Ty t) {
  return t == Ty::F16 || t == Ty::F32 || t == Ty::F64 || t == Ty::PkF16;
}

// Opcode flags (bit set).
enum OpFlag : uint32_t {
  kGfx906Only = 1u << 0,    // faults on gfx900 (v_fmac_f32, v_dot*, v_xnor_b32, ...)
  kCarryOut = 1u << 1,      // VALU writes a per-lane carry/flag mask (vcc in e32, sdst in VOP3B)
  kCarryIn = 1u << 2,       // VALU reads a carry mask (vcc in e32, src2 SGPR pair in e64)
  kAccumulate = 1u << 3,    // v_mac/v_fmac: the destination is also src2
  kCmpx = 1u << 4,          // v_cmpx: the compare result is also written to EXEC
  kVop3b = 1u << 5,         // VOP3 form has an SGPR sdst (VOP3B) instead of abs/op_sel
  kScalarDst = 1u << 6,     // VALU whose destination is an SGPR (v_readlane, readfirstlane)
  kPreserveHi16 = 1u << 7,  // 16-bit result keeps the other half (gfx9 mad/fma f16/u16/i16)
  kNoOperands = 1u << 8,    // v_nop, v_clrexcp, s_endpgm ...: prints only the mnemonic
  kLiteralK = 1u << 9,      // v_madmk/v_madak: a literal constant follows the encoding
  kOpselDst = 1u << 10,     // VOP3 16-bit op whose op_sel prints with a destination bit
  kReadsScc = 1u << 11,
  kSrc1Sgpr = 1u << 12,     // lane-select operand (readlane/writelane) is scalar
  kNoE32Suffix = 1u << 13,  // VOP1/VOP2 op printed without _e32 (v_madmk, v_swap_b32 ...)
  kMixOpsel = 1u << 14,     // VOP3P mix ops: op_sel_hi prints even when all ones
  kSmemNoData = 1u << 15,   // SMEM without sdata (s_dcache_discard)
  kInterp = 1u << 16,       // VOP3 interpolation (src0 = attr/chan/high)
  kGraphics = 1u << 17,     // graphics-only: decoded and printed, never executed by compute
  // MODE float controls (isa/FloatMode.h). kFpBitwise: float-typed operands only for the
  // input modifiers; the op moves bits, so no flushing or rounding (v_cndmask, v_pack_b32_f16).
  // kFpFlushAlways: flushes denormal sources and results whatever MODE.FP_DENORM says (the
  // mad/mac family and the f32 transcendentals).
  kFpBitwise = 1u << 18,
  kFpFlushAlways = 1u << 19,
  kGdsOnly = 1u << 20,  // DS opcode that exists only with gds=1 (ds_gws_*, ds_ordered_count)
  // Decoded and printed, but its semantics are not modelled yet: executing it faults with a
  // message naming it; the coverage report lists it as "not modelled".
  kNotModelled = 1u << 21,
};

// Memory instruction description (DS, MUBUF/MTBUF, FLAT, SMEM).
enum class LoadExt : uint8_t {
  None,  // whole dwords
  U8,
  I8,
  U16,
  I16,  // zero/sign extend into a dword
  D16LoU8,
  D16LoI8,
  D16Lo16,  // write the low 16 bits, keep the high half
  D16HiU8,
  D16HiI8,
  D16Hi16,  // write the high 16 bits, keep the low half
};

struct MemDesc {
  MemOp op = MemOp::Load;
  AtomicOp atomic = AtomicOp::None;
  uint8_t bytes = 4;     // bytes per element
  uint8_t elements = 1;  // 2 for read2/write2
  LoadExt ext = LoadExt::None;
  bool st64 = false;       // read2st64/write2st64: offsets scaled by 64 elements
  bool returns = false;    // DS *_rtn_*, reads (data back to VGPRs)
  bool format = false;     // MUBUF/MTBUF format conversion
  uint8_t components = 0;  // format ops: number of components x,xy,xyz,xyzw
  bool d16 = false;        // format d16 (packed 16-bit data)
  bool d16Hi = false;      // format d16_hi
  uint8_t segment = 0;     // FLAT: 0 flat, 1 scratch, 2 global
  bool fromLds = false;    // buffer_store_lds_dword: the store data is read from the LDS
};

struct ValuLanes;
struct ValuLaneState;
using ValuFn = void (*)(ValuLanes&);
// The lane body's loops over operands read in place (Valu.h).
struct ValuLaneForms;
// What a VALU table line gives: the general lane function and, where VALU_LANES wrote it, its
// in-place forms. Converts from and to a plain ValuFn for the tables that have none.
struct ValuKernel {
  ValuFn wide = nullptr;
  const ValuLaneForms* forms = nullptr;
  ValuKernel(ValuFn w, const ValuLaneForms* f) : wide(w), forms(f) {}
  template <class F, class = std::enable_if_t<std::is_convertible_v<F, ValuFn>>>
  ValuKernel(F f) : wide(f) {}              // NOLINT: implicit on purpose (a lambda or ValuFn)
  operator ValuFn() const { return wide; }  // NOLINT: implicit on purpose
};
struct SaluVals;
using SaluFn = void (*)(SaluVals&);

struct OpInfo {
  const char* name = "";  // mnemonic without _e32/_e64/_dpp/_sdwa suffix
  Enc enc = Enc::Unknown;
  int16_t opcode = -1;  // opcode in `enc`
  int16_t vop3 = -1;    // VOP1/VOP2/VOPC: the VOP3 (e64) opcode, -1 if none
  Ty dst = Ty::None, src0 = Ty::None, src1 = Ty::None, src2 = Ty::None;
  uint32_t flags = 0;
  ExecFn exec = nullptr;  // executor; nullptr: decoded and disassembled but not executable
  ValuFn valu = nullptr;  // VALU lane function
  // Its in-place forms, set only when every operand is 32- or 64-bit and nothing but the lane
  // function acts on them (no scalar destination, no forced denormal flushing, not VOP3P).
  const ValuLaneForms* valuForms = nullptr;
  SaluFn salu = nullptr;  // SALU value function
  MemDesc mem{};
  IssueType issue = IssueType::Internal;
};

// Where the decoder leaves the instruction's fields in Instruction::f[].
namespace fld {
// VALU (VOP1/VOP2/VOPC/VOP3/VOP3P, with DPP/SDWA) and SALU share the first five.
constexpr int kDst = 0;   // operand code (0..255 scalar, 256+n = vN); 0xffff none
constexpr int kSrc0 = 1;  // operand codes 0..511 (255 = literal)
constexpr int kSrc1 = 2;
constexpr int kSrc2 = 3;
constexpr int kSdst = 4;   // VOP3B sdst, carry-out target (106 = vcc for e32)
constexpr int kMods = 5;   // abs[2:0] neg[5:3] clamp[6] omod[8:7]
constexpr int kOpsel = 6;  // VOP3: op_sel[3:0]; VOP3P: op_sel[2:0] op_sel_hi[5:3] neg_hi[8:6]
constexpr int kForm = 7;   // ValuForm
constexpr int kExt0 = 8;   // DPP: dpp_ctrl; SDWA: dst_sel[2:0] dst_unused[4:3] sdst_en[5]
constexpr int kExt1 = 9;   // DPP: row_mask[3:0] bank_mask[7:4] bound_ctrl[8];
                           // SDWA: src0_sel[2:0] src0_sext[3] src1_sel[6:4] src1_sext[7]
// Memory (DS/MUBUF/MTBUF/FLAT/SMEM/MIMG): see each family's decoder.
constexpr int kAddr = 1;      // DS addr / MUBUF vaddr / FLAT vaddr / SMEM sbase (code)
constexpr int kData0 = 2;     // DS data0 / MUBUF vdata / FLAT data / SMEM sdata
constexpr int kData1 = 3;     // DS data1 / MUBUF srsrc (sgpr index) / FLAT saddr
constexpr int kOffset0 = 5;   // DS offset0 / MUBUF offset / FLAT offset (13-bit signed)
constexpr int kOffset1 = 6;   // DS offset1 / MUBUF soffset
constexpr int kBits = 7;      // per family flag bits (gds, offen, idxen, glc, slc, lds, tfe...)
constexpr int kFmt = 8;       // MTBUF dfmt[3:0] nfmt[6:4]; FLAT seg; MIMG dmask
constexpr int kMimgBits = 9;  // MIMG unorm[0] da[1] a16[2] lwe[3] d16[4]; MIMG ssamp in kOffset0
}  // namespace fld

enum ValuForm : uint16_t { kE32 = 0, kE64 = 1, kDpp = 2, kSdwa = 3, kVop3p = 4 };

// Memory flag bits in f[fld::kBits].
enum MemBits : uint16_t {
  kGds = 1,
  kOffen = 2,
  kIdxen = 4,
  kGlc = 8,
  kSlc = 16,
  kLds = 32,
  kTfe = 64,
  kSmemImm = 128,
  kSmemSoe = 256,
  kNv = 512,
};

// Whether a MUBUF or FLAT opcode has a form with the LDS bit (lds=1) (VectorMemory.cpp): the
// loads into the LDS and buffer_store_lds_dword. Other opcodes with the bit set are not valid
// encodings (llvm-objdump-15 prints them as .long).
bool hasLdsForm(const OpInfo& op);

// Operand codes of the scalar source/destination space (Vega ISA guide 12.1/12.3).
namespace opnd {
constexpr int kFlatScratchLo = 102, kFlatScratchHi = 103, kXnackLo = 104, kXnackHi = 105;
constexpr int kVccLo = 106, kVccHi = 107, kTtmp0 = 108, kM0 = 124, kExecLo = 126, kExecHi = 127;
constexpr int kZero = 128, kIntPosMax = 192, kIntNegMax = 208;
constexpr int kSharedBase = 235, kSharedLimit = 236, kPrivateBase = 237, kPrivateLimit = 238;
constexpr int kPopsExiting = 239, kHalf = 240, kInvTwoPi = 248, kSdwa = 249, kDpp = 250;
constexpr int kVccz = 251, kExecz = 252, kScc = 253, kLdsDirect = 254, kLiteral = 255;
constexpr int kVgpr0 = 256;
constexpr uint16_t kNone = 0xffff;
}  // namespace opnd

// Per-family tables (each family file defines its own); the decoder builds lookups from them.
struct OpTable {
  const OpInfo* ops;
  int count;
};
OpTable sopTable();     // SOP1/SOP2/SOPK/SOPC (Sop.cpp)
OpTable soppTable();    // SOPP (Flow.cpp)
OpTable smemTable();    // SMEM (Smem.cpp)
OpTable valuTable();    // VOP1/VOP2 (VopTables.cpp)
OpTable vop3Table();    // VOP3-only (Vop3Tables.cpp)
OpTable vopcTable();    // VOPC (VopCompare.cpp)
OpTable vop3pTable();   // VOP3P + VINTRP (Vop3p.cpp)
OpTable dsTable();      // DS (Ds.cpp)
OpTable vmemTable();    // MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH (VectorMemory.cpp)
OpTable mimgTable();    // MIMG and EXP (Mimg.cpp)
OpTable interpTable();  // VINTRP and the VOP3 interpolation opcodes (Interp.cpp)

// Fills what Instruction holds besides its decoded fields: its executor (Instruction::exec)
// and what the executors work out once (Instruction::vgprLimit) (Execute.cpp).
void resolveExecution(Instruction& in);
// The VGPR limit of a VALU instruction's fast path (Instruction::vgprLimit) (Vop.cpp).
uint16_t valuVgprLimit(const Instruction& in);

// Opcode lookup (Decoder.cpp). `seg` distinguishes FLAT/SCRATCH/GLOBAL (0/1/2).
const OpInfo* findOp(Enc enc, int opcode, GfxTarget target, int seg = 0);

// Executors shared between files.
void execValu(ExecArgs& a);   // Vop.cpp: generic VALU (all forms)
void execSalu(ExecArgs& a);   // Sop.cpp: generic SALU
void execVop3p(ExecArgs& a);  // Vop3p.cpp: packed math

// A VALU table entry: operand types of destination and sources, the lane function, and the
// executor of its encoding (execValu, execVop3p). Shared by the VOP tables.
inline bool isNarrowType(Ty t) {
  return t == Ty::None || t == Ty::B32 || t == Ty::I32 || t == Ty::F32;
}
inline bool isDwordsType(Ty t) {
  return isNarrowType(t) || t == Ty::B64 || t == Ty::I64 || t == Ty::F64;
}
inline OpInfo valuOp(Enc enc, ExecFn executor, int op, const char* name, Ty d, Ty a, Ty b, Ty c,
                     ValuKernel fn, uint32_t flags) {
  OpInfo o;
  o.name = name;
  o.enc = enc;
  o.opcode = static_cast<int16_t>(op);
  o.dst = d;
  o.src0 = a;
  o.src1 = b;
  o.src2 = c;
  o.flags = flags;
  o.exec = fn ? executor : nullptr;
  o.valu = fn.wide;
  const bool plain = enc != Enc::Vop3p && d != Ty::None &&
                     !(flags & (kScalarDst | kFpFlushAlways | kInterp | kLiteralK));
  const bool dwords =
      plain && isDwordsType(d) && isDwordsType(a) && isDwordsType(b) && isDwordsType(c);
  o.valuForms = dwords ? fn.forms : nullptr;
  o.issue = IssueType::Valu;
  return o;
}
uint32_t readLdsDirect(const WaveState& w, const ExecContext& ctx);  // Interp.cpp

}  // namespace vgpu::isa
