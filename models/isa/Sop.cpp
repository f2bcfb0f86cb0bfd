// Scalar ALU: SOP2, SOP1, SOPK, SOPC. One table line per opcode with a small function of the
// operand values; execSalu() does operand fetch and write-back once (Vega ISA guide ch. 4/5,
// opcode descriptions in 12.2 - 12.5).
#include "isa/Salu.h"

namespace vgpu::isa {
namespace {

using S = SaluVals;

int32_t i32(uint64_t v) {
  return static_cast<int32_t>(v);
}
uint32_t u32(uint64_t v) {
  return static_cast<uint32_t>(v);
}
int64_t i64(uint64_t v) {
  return static_cast<int64_t>(v);
}

int popcount64(uint64_t v) {
  return bitCount(v);
}

// Signed overflow of a + b (or a - b) in 32 bits: SCC for s_add_i32 / s_sub_i32.
bool addOverflow(int32_t a, int32_t b) {
  int32_t r;
  return __builtin_add_overflow(a, b, &r);
}
bool subOverflow(int32_t a, int32_t b) {
  int32_t r;
  return __builtin_sub_overflow(a, b, &r);
}

// (Signed fields reaching the top bit end there and take it as their sign, as bfeI in
// ValuMath.h: an arithmetic shift.)
uint64_t bfe(uint64_t v, uint32_t off, uint32_t width, int bits, bool sign) {
  if (width == 0) return 0;
  if (sign && off + width >= static_cast<uint32_t>(bits)) {
    const int64_t s = bits == 32 ? int64_t{static_cast<int32_t>(v)} : static_cast<int64_t>(v);
    const uint64_t r = static_cast<uint64_t>(s >> off);
    return bits == 32 ? (r & 0xffffffffull) : r;
  }
  uint64_t r = (off >= 64) ? 0 : (v >> off);
  if (width < 64) r &= (1ull << width) - 1;
  if (sign && width < 64) r = sext(r, static_cast<int>(width));
  return bits == 32 ? (r & 0xffffffffull) : r;
}

// Bit position of the first 1 from the MSB (s_flbit_i32_b32), -1 if none.
int32_t flbit32(uint32_t v) {
  return v ? __builtin_clz(v) : -1;
}
int32_t flbit64(uint64_t v) {
  return v ? __builtin_clzll(v) : -1;
}
int32_t ff1_32(uint32_t v) {
  return v ? __builtin_ctz(v) : -1;
}
int32_t ff1_64(uint64_t v) {
  return v ? __builtin_ctzll(v) : -1;
}

uint64_t wqm(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int q = 0; q < bits; q += 4)
    if ((v >> q) & 0xf) r |= 0xfull << q;
  return r;
}
uint64_t quadmask(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int q = 0; q < bits / 4; ++q)
    if ((v >> (4 * q)) & 0xf) r |= 1ull << q;
  return r;
}
// s_movrels / s_movreld: SGPR base + M0 + dword, or -1 when that is not an SGPR.
int movrelIndex(int base, uint32_t m0, int dword) {
  const uint64_t index = uint64_t(uint32_t(base)) + m0 + uint64_t(dword);
  return index < uint64_t(kNumSgprs) && base < kNumSgprs ? int(index) : -1;
}
uint32_t movrelRead(SaluVals& s, int base, int dword) {
  const int i = movrelIndex(base, s.w.m0, dword);
  return i < 0 ? 0u : s.w.sgpr[i];
}
void movrelWrite(SaluVals& s, int base, int dword, uint32_t value) {
  const int i = movrelIndex(base, s.w.m0, dword);
  if (i >= 0) s.w.sgpr[i] = value;
}
uint32_t brev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
uint64_t brev64(uint64_t v) {
  return (static_cast<uint64_t>(brev32(static_cast<uint32_t>(v))) << 32) |
         brev32(static_cast<uint32_t>(v >> 32));
}

// The STATUS register as s_getreg reads it (Vega ISA guide 3.6.2): the bits the model keeps.
uint32_t statusValue(const WaveState& w) {
  return (w.scc ? 1u : 0u) | ((w.exec == 0) << 9) | ((w.vcc == 0) << 10) | (1u << 11) /*in wave*/;
}

void getreg(S& s) {
  const uint32_t id = s.imm & 0x3f, offset = (s.imm >> 6) & 0x1f, size = ((s.imm >> 11) & 0x1f) + 1;
  uint32_t v = 0;
  switch (id) {
    case kHwRegMode:
      v = s.w.mode;
      break;
    case kHwRegStatus:
      v = statusValue(s.w);
      break;
    case kHwRegTrapsts:
      v = s.w.trapsts;
      break;
    case kHwRegHwId:
      v = s.w.hwId;
      break;
    case kHwRegGprAlloc:
      v = ((s.w.numVgprs + 3) / 4 - 1) << 24 | ((kNumSgprs + 15) / 16 - 1) << 8;
      break;
    case kHwRegLdsAlloc:
      v = ((s.ctx.ldsSize + 255) / 256) << 12;
      break;
    case kHwRegIbSts:
      v = s.w.ib_sts;
      break;
    case kHwRegShMemBases:
      v = static_cast<uint32_t>(s.ctx.privateApertureBase >> 48) |
          static_cast<uint32_t>(s.ctx.sharedApertureBase >> 48) << 16;
      break;
    default:
      v = 0;
      break;
  }
  s.d = (offset >= 32) ? 0 : ((v >> offset) & (size >= 32 ? ~0u : ((1u << size) - 1)));
}

void setreg(S& s, uint32_t value) {
  const uint32_t id = s.imm & 0x3f, offset = (s.imm >> 6) & 0x1f, size = ((s.imm >> 11) & 0x1f) + 1;
  const uint32_t mask = (size >= 32 ? ~0u : ((1u << size) - 1)) << offset;
  auto apply = [&](uint32_t& reg) { reg = (reg & ~mask) | ((value << offset) & mask); };
  switch (id) {
    case kHwRegMode:
      apply(s.w.mode);
      break;
    case kHwRegTrapsts:
      apply(s.w.trapsts);
      break;
    default:
      break;  // read-only or not modelled: ignored as the hardware ignores them
  }
  s.write = false;
}

// Fork/join (Vega ISA guide 4.6 "Arbitrary Divergent Control Flow" and the S_CBRANCH_G_FORK /
// S_CBRANCH_I_FORK / S_CBRANCH_JOIN definitions of chapter 12): a 6-deep stack of {PC, EXEC}
// entries in SGPR[CSP*4 .. CSP*4+3] (EXEC in the low pair, PC in the high pair). CSP, the
// conditional branch stack pointer, is MODE[31:29] (the guide's MODE register table, section 3.5).
constexpr int kCspShift = 29;
uint32_t csp(const S& s) {
  return s.w.mode >> kCspShift;
}
void setCsp(S& s, uint32_t v) {
  s.w.mode = (s.w.mode & ((1u << kCspShift) - 1)) | (v << kCspShift);
}
void forkPush(S& s, uint64_t pc, uint64_t mask) {
  if (csp(s) >= 6) {
    s.fault = "s_cbranch_fork: control stack overflow (6 entries)";
    return;
  }
  const int base = static_cast<int>(csp(s)) * 4;
  s.w.sgpr[base] = static_cast<uint32_t>(mask);
  s.w.sgpr[base + 1] = static_cast<uint32_t>(mask >> 32);
  s.w.sgpr[base + 2] = static_cast<uint32_t>(pc);
  s.w.sgpr[base + 3] = static_cast<uint32_t>(pc >> 32);
  setCsp(s, csp(s) + 1);
}
void fork(S& s, uint64_t target) {
  const uint64_t exec = s.w.exec, pass = s.a & exec, fail = ~s.a & exec;
  const uint64_t next = s.w.pc + 4;
  s.write = false;
  s.pcSet = true;
  if (pass == exec) {
    s.w.pc = target;
  } else if (fail == exec) {
    s.w.pc = next;
  } else if (bitCount(fail) < bitCount(pass)) {
    s.w.exec = fail;
    forkPush(s, target, pass);
    s.w.pc = next;
  } else {
    s.w.exec = pass;
    forkPush(s, next, fail);
    s.w.pc = target;
  }
}
void join(S& s) {
  s.write = false;
  if (csp(s) == static_cast<uint32_t>(s.a)) return;  // second join: fall through
  if (csp(s) == 0) {
    s.fault = "s_cbranch_join: control stack underflow";
    return;
  }
  setCsp(s, csp(s) - 1);
  const int base = static_cast<int>(csp(s)) * 4;
  s.w.exec = s.w.sgpr[base] | static_cast<uint64_t>(s.w.sgpr[base + 1]) << 32;
  s.w.pc = (s.w.sgpr[base + 2] | static_cast<uint64_t>(s.w.sgpr[base + 3]) << 32) & ~3ull;
  s.pcSet = true;
}

// VGPR indexing (s_set_gpr_idx_*): MODE.GPR_IDX_EN (bit 27), M0[7:0] = index,
// M0[15:12] = enabled operands {dst, src2, src1, src0} (12.4; applied by execValu).
constexpr uint32_t kModeGprIdxEn = kModeGprIdxEnable;

// SOPK simm16 as a signed / unsigned 32-bit value.
int32_t simm(const S& s) {
  return static_cast<int16_t>(s.imm);
}
uint32_t uimm(const S& s) {
  return s.imm & 0xffff;
}

// execSalu instantiated per operand width (0 none, 1 a dword, 2 a pair): the widths fold the
// operand reads and the write-back; the types still decide the rest (a literal's extension).
template <int Width>
inline uint64_t readSource(const Instruction& in, const WaveState& w, const ExecContext& ctx,
                           int code, Ty ty) {
  if (code + 1 < kNumSgprs) {  // an SGPR (pair) as readScalar reads it for a 32/64-bit type
    return Width == 2 ? w.sgpr[code] | (static_cast<uint64_t>(w.sgpr[code + 1]) << 32)
                      : w.sgpr[code];
  }
  if (Width == 2 && code == opnd::kExecLo) return w.exec;  // the exec mask arithmetic
  if (Width == 2 && code == opnd::kVccLo) return w.vcc;
  return readScalar(in, w, ctx, code, ty);
}

template <int Src0, int Src1, int Dst>
void execSaluShaped(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  WaveState& w = x.w;
  SaluVals s(w, in, x.ctx);
  if constexpr (Src0 != 0) s.a = readSource<Src0>(in, w, x.ctx, in.f[fld::kSrc0], op.src0);
  if constexpr (Src1 != 0) s.b = readSource<Src1>(in, w, x.ctx, in.f[fld::kSrc1], op.src1);
  s.imm = (op.enc == Enc::Sopk) ? in.f[fld::kExt0] : 0;
  s.scc = w.scc;
  s.write = Dst != 0;
  op.salu(s);
  if (s.fault) {
    x.r.kind = StepKind::Fault;
    x.r.fault = s.fault;
    return;
  }
  if (s.write) writeScalar(w, in.f[fld::kDst], Dst, s.d);
  w.scc = s.scc;
  if (!s.pcSet) w.pc += in.sizeBytes;
}

int widthOf(Ty t) {
  return t == Ty::None ? 0 : dwordsOf(t);
}

template <int Src0, int Src1>
ExecFn saluShapedFor(int dst) {
  switch (dst) {
    case 0:
      return &execSaluShaped<Src0, Src1, 0>;
    case 1:
      return &execSaluShaped<Src0, Src1, 1>;
    default:
      return &execSaluShaped<Src0, Src1, 2>;
  }
}

// The executor of a table line: the instance for its widths (every SALU operand is a dword or a
// pair; anything else keeps the generic execSalu).
ExecFn saluExecutor(Ty d, Ty a, Ty b) {
  for (const Ty t : {d, a, b})
    if (t != Ty::None && t != Ty::B32 && t != Ty::I32 && t != Ty::B64 && t != Ty::I64)
      return execSalu;
  switch (widthOf(a) * 3 + widthOf(b)) {
    case 0:
      return saluShapedFor<0, 0>(widthOf(d));
    case 1:
      return saluShapedFor<0, 1>(widthOf(d));
    case 2:
      return saluShapedFor<0, 2>(widthOf(d));
    case 3:
      return saluShapedFor<1, 0>(widthOf(d));
    case 4:
      return saluShapedFor<1, 1>(widthOf(d));
    case 5:
      return saluShapedFor<1, 2>(widthOf(d));
    case 6:
      return saluShapedFor<2, 0>(widthOf(d));
    case 7:
      return saluShapedFor<2, 1>(widthOf(d));
    default:
      return saluShapedFor<2, 2>(widthOf(d));
  }
}

OpInfo sop(Enc enc, int opcode, const char* name, Ty d, Ty a, Ty b, SaluFn fn, uint32_t flags = 0) {
  OpInfo o;
  o.name = name;
  o.enc = enc;
  o.opcode = static_cast<int16_t>(opcode);
  o.dst = d;
  o.src0 = a;
  o.src1 = b;
  o.flags = flags;
  o.exec = fn ? saluExecutor(d, a, b) : nullptr;  // no function: decoded and printed, faults
  o.salu = fn;
  o.issue = IssueType::Salu;
  return o;
}
OpInfo sop2(int op, const char* n, Ty d, Ty a, Ty b, SaluFn f) {
  return sop(Enc::Sop2, op, n, d, a, b, f);
}
OpInfo sop1(int op, const char* n, Ty d, Ty a, SaluFn f) {
  return sop(Enc::Sop1, op, n, d, a, Ty::None, f);
}
OpInfo sopc(int op, const char* n, Ty a, Ty b, SaluFn f) {
  return sop(Enc::Sopc, op, n, Ty::None, a, b, f);
}
// SOPK: src0 is the sdst register read as a source (s_cmpk, s_addk ...).
OpInfo sopk(int op, const char* n, Ty d, Ty a, SaluFn f) {
  return sop(Enc::Sopk, op, n, d, a, Ty::None, f);
}

constexpr Ty B32 = Ty::B32, B64 = Ty::B64, I32 = Ty::I32, I64_T = Ty::I64, NoT = Ty::None;

#define FN(...) [](S& s) { __VA_ARGS__; }

const OpInfo kSopOps[] = {
    // ---- SOP2 (12.2) ----
    sop2(0x00, "s_add_u32", B32, B32, B32,
         FN(uint64_t r = u32(s.a) + uint64_t(u32(s.b)); s.d = u32(r); s.scc = r >> 32)),
    sop2(0x01, "s_sub_u32", B32, B32, B32, FN(s.d = u32(s.a - s.b); s.scc = u32(s.b) > u32(s.a))),
    sop2(0x02, "s_add_i32", I32, I32, I32,
         FN(s.d = u32(s.a + s.b); s.scc = addOverflow(i32(s.a), i32(s.b)))),
    sop2(0x03, "s_sub_i32", I32, I32, I32,
         FN(s.d = u32(s.a - s.b); s.scc = subOverflow(i32(s.a), i32(s.b)))),
    sop2(0x04, "s_addc_u32", B32, B32, B32,
         FN(uint64_t r = u32(s.a) + uint64_t(u32(s.b)) + s.scc; s.d = u32(r); s.scc = r >> 32)),
    sop2(0x05, "s_subb_u32", B32, B32, B32,
         FN(uint64_t r = uint64_t(u32(s.a)) - u32(s.b) - s.scc; s.d = u32(r);
            s.scc = (r >> 32) != 0)),
    sop2(0x06, "s_min_i32", I32, I32, I32,
         FN(s.scc = i32(s.a) < i32(s.b); s.d = s.scc ? u32(s.a) : u32(s.b))),
    sop2(0x07, "s_min_u32", B32, B32, B32,
         FN(s.scc = u32(s.a) < u32(s.b); s.d = s.scc ? u32(s.a) : u32(s.b))),
    sop2(0x08, "s_max_i32", I32, I32, I32,
         FN(s.scc = i32(s.a) > i32(s.b); s.d = s.scc ? u32(s.a) : u32(s.b))),
    sop2(0x09, "s_max_u32", B32, B32, B32,
         FN(s.scc = u32(s.a) > u32(s.b); s.d = s.scc ? u32(s.a) : u32(s.b))),
    sop2(0x0a, "s_cselect_b32", B32, B32, B32, FN(s.d = s.scc ? s.a : s.b)),
    sop2(0x0b, "s_cselect_b64", B64, B64, B64, FN(s.d = s.scc ? s.a : s.b)),
    sop2(0x0c, "s_and_b32", B32, B32, B32, FN(s.d = u32(s.a & s.b); s.scc = s.d != 0)),
    sop2(0x0d, "s_and_b64", B64, B64, B64, FN(s.d = s.a & s.b; s.scc = s.d != 0)),
    sop2(0x0e, "s_or_b32", B32, B32, B32, FN(s.d = u32(s.a | s.b); s.scc = s.d != 0)),
    sop2(0x0f, "s_or_b64", B64, B64, B64, FN(s.d = s.a | s.b; s.scc = s.d != 0)),
    sop2(0x10, "s_xor_b32", B32, B32, B32, FN(s.d = u32(s.a ^ s.b); s.scc = s.d != 0)),
    sop2(0x11, "s_xor_b64", B64, B64, B64, FN(s.d = s.a ^ s.b; s.scc = s.d != 0)),
    sop2(0x12, "s_andn2_b32", B32, B32, B32, FN(s.d = u32(s.a & ~s.b); s.scc = s.d != 0)),
    sop2(0x13, "s_andn2_b64", B64, B64, B64, FN(s.d = s.a & ~s.b; s.scc = s.d != 0)),
    sop2(0x14, "s_orn2_b32", B32, B32, B32, FN(s.d = u32(s.a | ~s.b); s.scc = s.d != 0)),
    sop2(0x15, "s_orn2_b64", B64, B64, B64, FN(s.d = s.a | ~s.b; s.scc = s.d != 0)),
    sop2(0x16, "s_nand_b32", B32, B32, B32, FN(s.d = u32(~(s.a & s.b)); s.scc = s.d != 0)),
    sop2(0x17, "s_nand_b64", B64, B64, B64, FN(s.d = ~(s.a & s.b); s.scc = s.d != 0)),
    sop2(0x18, "s_nor_b32", B32, B32, B32, FN(s.d = u32(~(s.a | s.b)); s.scc = s.d != 0)),
    sop2(0x19, "s_nor_b64", B64, B64, B64, FN(s.d = ~(s.a | s.b); s.scc = s.d != 0)),
    sop2(0x1a, "s_xnor_b32", B32, B32, B32, FN(s.d = u32(~(s.a ^ s.b)); s.scc = s.d != 0)),
    sop2(0x1b, "s_xnor_b64", B64, B64, B64, FN(s.d = ~(s.a ^ s.b); s.scc = s.d != 0)),
    sop2(0x1c, "s_lshl_b32", B32, B32, B32,
         FN(s.d = u32(u32(s.a) << (s.b & 31)); s.scc = s.d != 0)),
    sop2(0x1d, "s_lshl_b64", B64, B64, B32, FN(s.d = s.a << (s.b & 63); s.scc = s.d != 0)),
    sop2(0x1e, "s_lshr_b32", B32, B32, B32, FN(s.d = u32(s.a) >> (s.b & 31); s.scc = s.d != 0)),
    sop2(0x1f, "s_lshr_b64", B64, B64, B32, FN(s.d = s.a >> (s.b & 63); s.scc = s.d != 0)),
    sop2(0x20, "s_ashr_i32", I32, I32, B32,
         FN(s.d = u32(i32(s.a) >> (s.b & 31)); s.scc = s.d != 0)),
    sop2(0x21, "s_ashr_i64", I64_T, I64_T, B32,
         FN(s.d = uint64_t(i64(s.a) >> (s.b & 63)); s.scc = s.d != 0)),
    sop2(0x22, "s_bfm_b32", B32, B32, B32, FN(s.d = u32(((1ull << (s.a & 31)) - 1) << (s.b & 31)))),
    sop2(0x23, "s_bfm_b64", B64, B32, B32,
         FN(s.d = ((s.a & 63) == 0 ? 0 : (~0ull >> (64 - (s.a & 63)))) << (s.b & 63))),
    sop2(0x24, "s_mul_i32", I32, I32, I32, FN(s.d = u32(uint64_t(i64(i32(s.a)) * i32(s.b))))),
    sop2(0x25, "s_bfe_u32", B32, B32, B32,
         FN(s.d = bfe(u32(s.a), s.b & 31, (s.b >> 16) & 0x7f, 32, false); s.scc = s.d != 0)),
    sop2(0x26, "s_bfe_i32", I32, I32, B32,
         FN(s.d = bfe(u32(s.a), s.b & 31, (s.b >> 16) & 0x7f, 32, true); s.scc = s.d != 0)),
    sop2(0x27, "s_bfe_u64", B64, B64, B32,
         FN(s.d = bfe(s.a, s.b & 63, (s.b >> 16) & 0x7f, 64, false); s.scc = s.d != 0)),
    sop2(0x28, "s_bfe_i64", I64_T, I64_T, B32,
         FN(s.d = bfe(s.a, s.b & 63, (s.b >> 16) & 0x7f, 64, true); s.scc = s.d != 0)),
    sop2(0x29, "s_cbranch_g_fork", NoT, B64, B64, FN(fork(s, s.b & ~3ull))),
    sop2(0x2a, "s_absdiff_i32", I32, I32, I32,
         FN(int64_t r = int64_t(i32(s.a)) - i32(s.b); s.d = u32(r < 0 ? -r : r); s.scc = s.d != 0)),
    // Return from the trap handler (4.5): PC = S0; S1 (saved state) is not modelled.
    sop2(0x2b, "s_rfe_restore_b64", NoT, B64, B32, FN(s.w.pc = s.a & ~3ull; s.pcSet = true)),
    sop2(0x2c, "s_mul_hi_u32", B32, B32, B32, FN(s.d = (uint64_t(u32(s.a)) * u32(s.b)) >> 32)),
    sop2(0x2d, "s_mul_hi_i32", I32, I32, I32,
         FN(s.d = u32(uint64_t((int64_t(i32(s.a)) * i32(s.b)) >> 32)))),
    sop2(0x2e, "s_lshl1_add_u32", B32, B32, B32,
         FN(uint64_t r = (uint64_t(u32(s.a)) << 1) + u32(s.b); s.d = u32(r); s.scc = r >> 32)),
    sop2(0x2f, "s_lshl2_add_u32", B32, B32, B32,
         FN(uint64_t r = (uint64_t(u32(s.a)) << 2) + u32(s.b); s.d = u32(r); s.scc = r >> 32)),
    sop2(0x30, "s_lshl3_add_u32", B32, B32, B32,
         FN(uint64_t r = (uint64_t(u32(s.a)) << 3) + u32(s.b); s.d = u32(r); s.scc = r >> 32)),
    sop2(0x31, "s_lshl4_add_u32", B32, B32, B32,
         FN(uint64_t r = (uint64_t(u32(s.a)) << 4) + u32(s.b); s.d = u32(r); s.scc = r >> 32)),
    sop2(0x32, "s_pack_ll_b32_b16", B32, B32, B32,
         FN(s.d = (s.a & 0xffff) | ((s.b & 0xffff) << 16))),
    sop2(0x33, "s_pack_lh_b32_b16", B32, B32, B32, FN(s.d = (s.a & 0xffff) | (s.b & 0xffff0000u))),
    sop2(0x34, "s_pack_hh_b32_b16", B32, B32, B32,
         FN(s.d = ((s.a >> 16) & 0xffff) | (s.b & 0xffff0000u))),

    // ---- SOPK (12.3) ----
    sopk(0x00, "s_movk_i32", I32, NoT, FN(s.d = u32(simm(s)))),
    sopk(0x01, "s_cmovk_i32", I32, NoT, FN(s.write = s.scc; s.d = u32(simm(s)))),
    sopk(0x02, "s_cmpk_eq_i32", NoT, I32, FN(s.scc = i32(s.a) == simm(s))),
    sopk(0x03, "s_cmpk_lg_i32", NoT, I32, FN(s.scc = i32(s.a) != simm(s))),
    sopk(0x04, "s_cmpk_gt_i32", NoT, I32, FN(s.scc = i32(s.a) > simm(s))),
    sopk(0x05, "s_cmpk_ge_i32", NoT, I32, FN(s.scc = i32(s.a) >= simm(s))),
    sopk(0x06, "s_cmpk_lt_i32", NoT, I32, FN(s.scc = i32(s.a) < simm(s))),
    sopk(0x07, "s_cmpk_le_i32", NoT, I32, FN(s.scc = i32(s.a) <= simm(s))),
    sopk(0x08, "s_cmpk_eq_u32", NoT, B32, FN(s.scc = u32(s.a) == uimm(s))),
    sopk(0x09, "s_cmpk_lg_u32", NoT, B32, FN(s.scc = u32(s.a) != uimm(s))),
    sopk(0x0a, "s_cmpk_gt_u32", NoT, B32, FN(s.scc = u32(s.a) > uimm(s))),
    sopk(0x0b, "s_cmpk_ge_u32", NoT, B32, FN(s.scc = u32(s.a) >= uimm(s))),
    sopk(0x0c, "s_cmpk_lt_u32", NoT, B32, FN(s.scc = u32(s.a) < uimm(s))),
    sopk(0x0d, "s_cmpk_le_u32", NoT, B32, FN(s.scc = u32(s.a) <= uimm(s))),
    sopk(0x0e, "s_addk_i32", I32, I32,
         FN(s.d = u32(s.a + uint64_t(int64_t(simm(s)))); s.scc = addOverflow(i32(s.a), simm(s)))),
    sopk(0x0f, "s_mulk_i32", I32, I32, FN(s.d = u32(uint64_t(int64_t(i32(s.a)) * simm(s))))),
    sopk(0x10, "s_cbranch_i_fork", NoT, B64, FN(fork(s, s.w.pc + 4 + int64_t(simm(s)) * 4))),
    sopk(0x11, "s_getreg_b32", B32, NoT, FN(getreg(s))),
    sopk(0x12, "s_setreg_b32", NoT, B32, FN(setreg(s, u32(s.a)))),
    sopk(0x14, "s_setreg_imm32_b32", NoT, NoT, FN(setreg(s, s.in.literal))),
    sopk(0x15, "s_call_b64", B64, NoT,
         FN(s.d = s.w.pc + 4; s.w.pc = s.w.pc + 4 + int64_t(simm(s)) * 4; s.pcSet = true)),

    // ---- SOP1 (12.4) ----
    sop1(0x00, "s_mov_b32", B32, B32, FN(s.d = s.a)),
    sop1(0x01, "s_mov_b64", B64, B64, FN(s.d = s.a)),
    sop1(0x02, "s_cmov_b32", B32, B32, FN(s.write = s.scc; s.d = s.a)),
    sop1(0x03, "s_cmov_b64", B64, B64, FN(s.write = s.scc; s.d = s.a)),
    sop1(0x04, "s_not_b32", B32, B32, FN(s.d = u32(~s.a); s.scc = s.d != 0)),
    sop1(0x05, "s_not_b64", B64, B64, FN(s.d = ~s.a; s.scc = s.d != 0)),
    sop1(0x06, "s_wqm_b32", B32, B32, FN(s.d = wqm(s.a, 32); s.scc = s.d != 0)),
    sop1(0x07, "s_wqm_b64", B64, B64, FN(s.d = wqm(s.a, 64); s.scc = s.d != 0)),
    sop1(0x08, "s_brev_b32", B32, B32, FN(s.d = brev32(u32(s.a)))),
    sop1(0x09, "s_brev_b64", B64, B64, FN(s.d = brev64(s.a))),
    sop1(0x0a, "s_bcnt0_i32_b32", I32, B32, FN(s.d = 32 - popcount64(u32(s.a)); s.scc = s.d != 0)),
    sop1(0x0b, "s_bcnt0_i32_b64", I32, B64, FN(s.d = 64 - popcount64(s.a); s.scc = s.d != 0)),
    sop1(0x0c, "s_bcnt1_i32_b32", I32, B32, FN(s.d = popcount64(u32(s.a)); s.scc = s.d != 0)),
    sop1(0x0d, "s_bcnt1_i32_b64", I32, B64, FN(s.d = popcount64(s.a); s.scc = s.d != 0)),
    sop1(0x0e, "s_ff0_i32_b32", I32, B32, FN(s.d = u32(ff1_32(~u32(s.a))))),
    sop1(0x0f, "s_ff0_i32_b64", I32, B64, FN(s.d = u32(ff1_64(~s.a)))),
    sop1(0x10, "s_ff1_i32_b32", I32, B32, FN(s.d = u32(ff1_32(u32(s.a))))),
    sop1(0x11, "s_ff1_i32_b64", I32, B64, FN(s.d = u32(ff1_64(s.a)))),
    sop1(0x12, "s_flbit_i32_b32", I32, B32, FN(s.d = u32(flbit32(u32(s.a))))),
    sop1(0x13, "s_flbit_i32_b64", I32, B64, FN(s.d = u32(flbit64(s.a)))),
    sop1(0x14, "s_flbit_i32", I32, I32,
         FN(uint32_t v = u32(s.a); v = (v >> 31) ? ~v : v; s.d = u32(v == 0 ? -1 : flbit32(v)))),
    sop1(0x15, "s_flbit_i32_i64", I32, I64_T,
         FN(uint64_t v = s.a; v = (v >> 63) ? ~v : v; s.d = u32(v == 0 ? -1 : flbit64(v)))),
    sop1(0x16, "s_sext_i32_i8", I32, I32, FN(s.d = u32(sext(s.a, 8)))),
    sop1(0x17, "s_sext_i32_i16", I32, I32, FN(s.d = u32(sext(s.a, 16)))),
    sop1(0x18, "s_bitset0_b32", B32, B32,
         FN(s.d = u32(readScalar(s.in, s.w, s.ctx, s.in.f[fld::kDst], Ty::B32) &
                      ~(1ull << (s.a & 31))))),
    sop1(
        0x19, "s_bitset0_b64", B64, B32,
        FN(s.d = readScalar(s.in, s.w, s.ctx, s.in.f[fld::kDst], Ty::B64) & ~(1ull << (s.a & 63)))),
    sop1(0x1a, "s_bitset1_b32", B32, B32,
         FN(s.d = u32(readScalar(s.in, s.w, s.ctx, s.in.f[fld::kDst], Ty::B32) |
                      (1ull << (s.a & 31))))),
    sop1(0x1b, "s_bitset1_b64", B64, B32,
         FN(s.d = readScalar(s.in, s.w, s.ctx, s.in.f[fld::kDst], Ty::B64) | (1ull << (s.a & 63)))),
    sop1(0x1c, "s_getpc_b64", B64, NoT, FN(s.d = s.w.pc + 4)),
    sop1(0x1d, "s_setpc_b64", NoT, B64, FN(s.w.pc = s.a & ~3ull; s.pcSet = true)),
    sop1(0x1e, "s_swappc_b64", B64, B64,
         FN(s.d = s.w.pc + 4; s.w.pc = s.a & ~3ull; s.pcSet = true)),
    sop1(0x1f, "s_rfe_b64", NoT, B64, FN(s.w.pc = s.a & ~3ull; s.pcSet = true)),
    // saveexec family (12.4): D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
    sop1(0x20, "s_and_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = s.a & s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x21, "s_or_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = s.a | s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x22, "s_xor_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = s.a ^ s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x23, "s_andn2_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = s.a & ~s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x24, "s_orn2_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = s.a | ~s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x25, "s_nand_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = ~(s.a & s.w.exec); s.scc = s.w.exec != 0)),
    sop1(0x26, "s_nor_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = ~(s.a | s.w.exec); s.scc = s.w.exec != 0)),
    sop1(0x27, "s_xnor_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = ~(s.a ^ s.w.exec); s.scc = s.w.exec != 0)),
    sop1(0x28, "s_quadmask_b32", B32, B32, FN(s.d = quadmask(s.a, 32); s.scc = s.d != 0)),
    sop1(0x29, "s_quadmask_b64", B64, B64, FN(s.d = quadmask(s.a, 64); s.scc = s.d != 0)),
    // movrel: the source / destination SGPR index is offset by M0 (12.4). Only SGPRs are
    // reachable: an index past s101 (M0 is 32 bits, possibly "negative") reads 0 and drops the
    // write, rather than reaching VCC, EXEC or memory outside the register file.
    sop1(0x2a, "s_movrels_b32", B32, B32, FN(s.d = movrelRead(s, s.in.f[fld::kSrc0], 0))),
    sop1(0x2b, "s_movrels_b64", B64, B64,
         FN(s.d = movrelRead(s, s.in.f[fld::kSrc0], 0) |
                  uint64_t(movrelRead(s, s.in.f[fld::kSrc0], 1)) << 32)),
    sop1(0x2c, "s_movreld_b32", B32, B32,
         FN(movrelWrite(s, s.in.f[fld::kDst], 0, uint32_t(s.a)); s.write = false)),
    sop1(0x2d, "s_movreld_b64", B64, B64,
         FN(movrelWrite(s, s.in.f[fld::kDst], 0, uint32_t(s.a));
            movrelWrite(s, s.in.f[fld::kDst], 1, uint32_t(s.a >> 32)); s.write = false)),
    sop1(0x2e, "s_cbranch_join", NoT, B32, FN(join(s))),
    sop1(0x30, "s_abs_i32", I32, I32,
         FN(int64_t v = i32(s.a); s.d = u32(v < 0 ? -v : v); s.scc = s.d != 0)),
    sop1(0x32, "s_set_gpr_idx_idx", NoT, B32, FN(s.w.m0 = (s.w.m0 & ~0xffu) | (s.a & 0xff))),
    sop1(0x33, "s_andn1_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = ~s.a & s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x34, "s_orn1_saveexec_b64", B64, B64,
         FN(s.d = s.w.exec; s.w.exec = ~s.a | s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x35, "s_andn1_wrexec_b64", B64, B64,
         FN(s.w.exec = ~s.a & s.w.exec; s.d = s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x36, "s_andn2_wrexec_b64", B64, B64,
         FN(s.w.exec = s.a & ~s.w.exec; s.d = s.w.exec; s.scc = s.w.exec != 0)),
    sop1(0x37, "s_bitreplicate_b64_b32", B64, B32,
         FN(uint64_t r = 0; for (int i = 0; i < 32; ++i) if ((s.a >> i) & 1) r |= 3ull << (2 * i);
            s.d = r)),

    // ---- SOPC (12.5) ----
    sopc(0x00, "s_cmp_eq_i32", I32, I32, FN(s.scc = i32(s.a) == i32(s.b))),
    sopc(0x01, "s_cmp_lg_i32", I32, I32, FN(s.scc = i32(s.a) != i32(s.b))),
    sopc(0x02, "s_cmp_gt_i32", I32, I32, FN(s.scc = i32(s.a) > i32(s.b))),
    sopc(0x03, "s_cmp_ge_i32", I32, I32, FN(s.scc = i32(s.a) >= i32(s.b))),
    sopc(0x04, "s_cmp_lt_i32", I32, I32, FN(s.scc = i32(s.a) < i32(s.b))),
    sopc(0x05, "s_cmp_le_i32", I32, I32, FN(s.scc = i32(s.a) <= i32(s.b))),
    sopc(0x06, "s_cmp_eq_u32", B32, B32, FN(s.scc = u32(s.a) == u32(s.b))),
    sopc(0x07, "s_cmp_lg_u32", B32, B32, FN(s.scc = u32(s.a) != u32(s.b))),
    sopc(0x08, "s_cmp_gt_u32", B32, B32, FN(s.scc = u32(s.a) > u32(s.b))),
    sopc(0x09, "s_cmp_ge_u32", B32, B32, FN(s.scc = u32(s.a) >= u32(s.b))),
    sopc(0x0a, "s_cmp_lt_u32", B32, B32, FN(s.scc = u32(s.a) < u32(s.b))),
    sopc(0x0b, "s_cmp_le_u32", B32, B32, FN(s.scc = u32(s.a) <= u32(s.b))),
    sopc(0x0c, "s_bitcmp0_b32", B32, B32, FN(s.scc = ((s.a >> (s.b & 31)) & 1) == 0)),
    sopc(0x0d, "s_bitcmp1_b32", B32, B32, FN(s.scc = ((s.a >> (s.b & 31)) & 1) == 1)),
    sopc(0x0e, "s_bitcmp0_b64", B64, B32, FN(s.scc = ((s.a >> (s.b & 63)) & 1) == 0)),
    sopc(0x0f, "s_bitcmp1_b64", B64, B32, FN(s.scc = ((s.a >> (s.b & 63)) & 1) == 1)),
    // S_SETVSKIP: MODE.VSKIP = S0.u[S1.u[4:0]] (12.5 SOPC); while set, vector instructions are
    // skipped (executeInto).
    sopc(0x10, "s_setvskip", B32, B32,
         FN(s.w.mode = ((s.a >> (s.b & 31)) & 1) ? s.w.mode | WaveState::kModeVskip
                                                 : s.w.mode & ~WaveState::kModeVskip)),
    sopc(0x11, "s_set_gpr_idx_on", B32, NoT,
         FN(s.w.m0 = (s.w.m0 & ~0xf0ffu) | (s.a & 0xff) | ((s.in.f[fld::kSrc1] & 0xfu) << 12);
            s.w.mode |= kModeGprIdxEn)),
    sopc(0x12, "s_cmp_eq_u64", B64, B64, FN(s.scc = s.a == s.b)),
    sopc(0x13, "s_cmp_lg_u64", B64, B64, FN(s.scc = s.a != s.b)),
};
#undef FN

}  // namespace

const char* hwRegName(int id) {
  switch (id) {
    case 1:
      return "HW_REG_MODE";
    case 2:
      return "HW_REG_STATUS";
    case 3:
      return "HW_REG_TRAPSTS";
    case 4:
      return "HW_REG_HW_ID";
    case 5:
      return "HW_REG_GPR_ALLOC";
    case 6:
      return "HW_REG_LDS_ALLOC";
    case 7:
      return "HW_REG_IB_STS";
    case 15:
      return "HW_REG_SH_MEM_BASES";
    case 16:
      return "HW_REG_TBA_LO";
    case 17:
      return "HW_REG_TBA_HI";
    case 18:
      return "HW_REG_TMA_LO";
    case 19:
      return "HW_REG_TMA_HI";
    default:
      return nullptr;
  }
}

OpTable sopTable() {
  return {kSopOps, static_cast<int>(sizeof(kSopOps) / sizeof(kSopOps[0]))};
}

void execSalu(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  SaluVals s(x.w, in, x.ctx);
  if (op.src0 != Ty::None) s.a = readScalar(in, x.w, x.ctx, in.f[fld::kSrc0], op.src0);
  if (op.src1 != Ty::None) s.b = readScalar(in, x.w, x.ctx, in.f[fld::kSrc1], op.src1);
  s.imm = (op.enc == Enc::Sopk) ? in.f[fld::kExt0] : 0;
  s.scc = x.w.scc;
  s.write = op.dst != Ty::None;
  op.salu(s);
  if (s.fault) {
    x.r.kind = StepKind::Fault;
    x.r.fault = s.fault;
    return;
  }
  if (s.write) writeScalar(x.w, in.f[fld::kDst], dwordsOf(op.dst), s.d);
  x.w.scc = s.scc;
  if (!s.pcSet) x.w.pc += in.sizeBytes;
}

}  // namespace vgpu::isa
