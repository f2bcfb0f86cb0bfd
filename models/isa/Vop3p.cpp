// VOP3P packed math and the gfx906 dot products (Vega ISA guide 12.12 "VOP3P Instructions").
// Sources are 32-bit registers holding two 16-bit values; op_sel picks the half that feeds the
// low result, op_sel_hi the half that feeds the high result; neg_lo/neg_hi negate (floats).
#include "isa/FloatMode.h"
#include "isa/ValuMath.h"

namespace vgpu::isa {
namespace {

using namespace math;

OpInfo vp(int op, const char* name, Ty d, Ty a, Ty b, Ty c, ValuFn fn, uint32_t flags = 0) {
  return valuOp(Enc::Vop3p, execVop3p, op, name, d, a, b, c, fn, flags);
}

constexpr Ty NoT = Ty::None, Pk = Ty::Pk16, PkF = Ty::PkF16, F32 = Ty::F32, B32 = Ty::B32,
             I32 = Ty::I32;

// Per-half helpers: lo/hi of a packed value.
inline uint32_t lo(uint64_t v) {
  return v & 0xffff;
}
inline uint32_t hi(uint64_t v) {
  return (v >> 16) & 0xffff;
}
inline uint64_t pack(uint32_t l, uint32_t h2) {
  return (l & 0xffff) | ((h2 & 0xffff) << 16);
}
inline float hl(uint64_t v) {
  return f16ToF32(static_cast<uint16_t>(lo(v)));
}
inline float hh(uint64_t v) {
  return f16ToF32(static_cast<uint16_t>(hi(v)));
}
inline int32_t sl(uint64_t v) {
  return static_cast<int16_t>(lo(v));
}
inline int32_t sh(uint64_t v) {
  return static_cast<int16_t>(hi(v));
}

#define PK_F(expr_lo, expr_hi) VALU_LANES(d = pack(f32ToF16(expr_lo), f32ToF16(expr_hi)))
#define PK_I(expr_lo, expr_hi) VALU_LANES(d = pack(uint32_t(expr_lo), uint32_t(expr_hi)))
// Integer ops with the clamp bit saturate each half (12.12): signed or unsigned 16-bit range.
inline int32_t clampS16(bool on, int32_t v) {
  return on ? std::max(-32768, std::min(32767, v)) : v;
}
inline int32_t clampU16(bool on, int32_t v) {
  return on ? std::max(0, std::min(65535, v)) : v;
}
#define PK_S(expr_lo, expr_hi) \
  VALU_LANES(d = pack(uint32_t(clampS16(L.clamp, expr_lo)), uint32_t(clampS16(L.clamp, expr_hi))))
#define PK_U(expr_lo, expr_hi)                                       \
  VALU_LANES(d = pack(uint32_t(clampU16(L.clamp, int32_t(expr_lo))), \
                      uint32_t(clampU16(L.clamp, int32_t(expr_hi)))))

int32_t nib(uint64_t v, int k, bool sign) {
  const uint32_t x = (v >> (4 * k)) & 0xf;
  return sign ? static_cast<int32_t>(sext(x, 4)) : static_cast<int32_t>(x);
}
int32_t byteAt(uint64_t v, int k, bool sign) {
  const uint32_t x = (v >> (8 * k)) & 0xff;
  return sign ? static_cast<int32_t>(sext(x, 8)) : static_cast<int32_t>(x);
}

const OpInfo kVop3pOps[] = {
    vp(0x00, "v_pk_mad_i16", Pk, Pk, Pk, Pk, PK_S(sl(a) * sl(b) + sl(c), sh(a) * sh(b) + sh(c))),
    vp(0x01, "v_pk_mul_lo_u16", Pk, Pk, Pk, NoT, PK_I(lo(a) * lo(b), hi(a) * hi(b))),
    vp(0x02, "v_pk_add_i16", Pk, Pk, Pk, NoT, PK_S(sl(a) + sl(b), sh(a) + sh(b))),
    vp(0x03, "v_pk_sub_i16", Pk, Pk, Pk, NoT, PK_S(sl(a) - sl(b), sh(a) - sh(b))),
    vp(0x04, "v_pk_lshlrev_b16", Pk, Pk, Pk, NoT,
       PK_I(lo(b) << (lo(a) & 15), hi(b) << (hi(a) & 15))),
    vp(0x05, "v_pk_lshrrev_b16", Pk, Pk, Pk, NoT,
       PK_I(lo(b) >> (lo(a) & 15), hi(b) >> (hi(a) & 15))),
    vp(0x06, "v_pk_ashrrev_i16", Pk, Pk, Pk, NoT,
       PK_I(sl(b) >> (lo(a) & 15), sh(b) >> (hi(a) & 15))),
    vp(0x07, "v_pk_max_i16", Pk, Pk, Pk, NoT, PK_I(std::max(sl(a), sl(b)), std::max(sh(a), sh(b)))),
    vp(0x08, "v_pk_min_i16", Pk, Pk, Pk, NoT, PK_I(std::min(sl(a), sl(b)), std::min(sh(a), sh(b)))),
    vp(0x09, "v_pk_mad_u16", Pk, Pk, Pk, Pk, PK_U(lo(a) * lo(b) + lo(c), hi(a) * hi(b) + hi(c))),
    vp(0x0a, "v_pk_add_u16", Pk, Pk, Pk, NoT, PK_U(lo(a) + lo(b), hi(a) + hi(b))),
    vp(0x0b, "v_pk_sub_u16", Pk, Pk, Pk, NoT, PK_U(lo(a) - lo(b), hi(a) - hi(b))),
    vp(0x0c, "v_pk_max_u16", Pk, Pk, Pk, NoT, PK_I(std::max(lo(a), lo(b)), std::max(hi(a), hi(b)))),
    vp(0x0d, "v_pk_min_u16", Pk, Pk, Pk, NoT, PK_I(std::min(lo(a), lo(b)), std::min(hi(a), hi(b)))),
    vp(0x0e, "v_pk_fma_f16", PkF, PkF, PkF, PkF,
       PK_F(std::fma(hl(a), hl(b), hl(c)), std::fma(hh(a), hh(b), hh(c)))),
    vp(0x0f, "v_pk_add_f16", PkF, PkF, PkF, NoT, PK_F(hl(a) + hl(b), hh(a) + hh(b))),
    vp(0x10, "v_pk_mul_f16", PkF, PkF, PkF, NoT, PK_F(hl(a) * hl(b), hh(a) * hh(b))),
    vp(0x11, "v_pk_min_f16", PkF, PkF, PkF, NoT,
       PK_F(std::fmin(hl(a), hl(b)), std::fmin(hh(a), hh(b)))),
    vp(0x12, "v_pk_max_f16", PkF, PkF, PkF, NoT,
       PK_F(std::fmax(hl(a), hl(b)), std::fmax(hh(a), hh(b)))),
    // Mixed precision (sources converted to f32 by the executor). gfx906 fuses (fma);
    // gfx900's v_mad_mix rounds the product; the difference is below what tests observe.
    vp(0x20, "v_fma_mix_f32", F32, F32, F32, F32, VALU_LANES(d = F(std::fma(f(a), f(b), f(c)))),
       kMixOpsel),
    vp(0x21, "v_fma_mixlo_f16", B32, F32, F32, F32,
       VALU_LANES(d = (L.w->v(L.in->f[fld::kDst] - opnd::kVgpr0)[i] & 0xffff0000u) |
                      f32ToF16(std::fma(f(a), f(b), f(c)))),
       kMixOpsel),
    vp(0x22, "v_fma_mixhi_f16", B32, F32, F32, F32,
       VALU_LANES(d = (L.w->v(L.in->f[fld::kDst] - opnd::kVgpr0)[i] & 0xffffu) |
                      (uint32_t(f32ToF16(std::fma(f(a), f(b), f(c)))) << 16)),
       kMixOpsel),
    // gfx906 dot products (12.12).
    vp(0x23, "v_dot2_f32_f16", F32, PkF, PkF, F32,
       VALU_LANES(d = F(hl(a) * hl(b) + hh(a) * hh(b) + f(c))), kGfx906Only),
    vp(0x26, "v_dot2_i32_i16", I32, Pk, Pk, I32,
       VALU_LANES(d = u32(int64_t{sl(a) * sl(b)} + sh(a) * sh(b) + i32(c))), kGfx906Only),
    vp(0x27, "v_dot2_u32_u16", B32, Pk, Pk, B32,
       VALU_LANES(d = u32(uint64_t{lo(a)} * lo(b) + uint64_t{hi(a)} * hi(b) + u32(c))),
       kGfx906Only),
    vp(0x28, "v_dot4_i32_i8", I32, B32, B32, I32,
       VALU_LANES(int64_t s = i32(c);  // 64-bit sum: the low 32 bits wrap as the hardware's
                  for (int k = 0; k < 4; ++k) s += byteAt(a, k, true) * byteAt(b, k, true);
                  d = u32(s)),
       kGfx906Only),
    vp(0x29, "v_dot4_u32_u8", B32, B32, B32, B32,
       VALU_LANES(uint32_t s = u32(c); for (int k = 0; k < 4; ++k) s +=
                                       uint32_t(byteAt(a, k, false) * byteAt(b, k, false));
                  d = s),
       kGfx906Only),
    vp(0x2a, "v_dot8_i32_i4", I32, B32, B32, I32,
       VALU_LANES(int64_t s = i32(c);  // 64-bit sum: the low 32 bits wrap as the hardware's
                  for (int k = 0; k < 8; ++k) s += nib(a, k, true) * nib(b, k, true); d = u32(s)),
       kGfx906Only),
    vp(0x2b, "v_dot8_u32_u4", B32, B32, B32, B32,
       VALU_LANES(uint32_t s = u32(c);
                  for (int k = 0; k < 8; ++k) s += uint32_t(nib(a, k, false) * nib(b, k, false));
                  d = s),
       kGfx906Only),
};
#undef PK_F
#undef PK_I
#undef PK_S
#undef PK_U

}  // namespace

OpTable vop3pTable() {
  return {kVop3pOps, static_cast<int>(sizeof(kVop3pOps) / sizeof(kVop3pOps[0]))};
}

void execVop3p(ExecArgs& x) {
  const Instruction& in = x.in;
  const OpInfo& op = x.op;
  WaveState& w = x.w;
  const unsigned negLo = (in.f[fld::kMods] >> 3) & 7;
  const unsigned opselField = in.f[fld::kOpsel];
  const unsigned opsel = opselField & 7, opselHi = (opselField >> 3) & 7,
                 negHi = (opselField >> 6) & 7;
  const bool clamp = (in.f[fld::kMods] >> 6) & 1;
  ValuLanes L;
  L.w = &w;
  L.in = &in;
  L.ctx = &x.ctx;
  L.exec = w.exec;
  L.writeMask = w.exec;
  L.clamp = clamp;
  L.opsel = opselField;
  const Ty types[3] = {op.src0, op.src1, op.src2};
  // MODE float controls (FloatMode.h). The mix ops' f16 results (mixlo/mixhi) round and flush
  // as half precision; their f16 sources flush as half precision before widening.
  const uint32_t fpMode = w.mode & fpmode::kFieldsMask;
  const bool mix = op.flags & kMixOpsel;
  const bool fpControlled = fpMode != fpmode::kDefault;
  const Ty resultTy = mix && op.dst == Ty::B32 ? Ty::F16 : op.dst;
  const bool flush16 = fpControlled && fpmode::flushesSources(fpMode, Ty::F16, false);
  const bool flush32 = fpControlled && fpmode::flushesSources(fpMode, Ty::F32, false);
  uint64_t* outs[3] = {L.a, L.b, L.c};
  for (int s = 0; s < 3; ++s) {
    uint64_t* out = outs[s];
    const Ty t = types[s];
    if (t == Ty::None) {
      for (int l = 0; l < kWaveSize; ++l) out[l] = 0;
      continue;
    }
    const int code = in.f[fld::kSrc0 + s];
    if (code >= opnd::kVgpr0 && !vgprInRange(w, code - opnd::kVgpr0, 1)) {
      x.r.kind = StepKind::Fault;
      x.r.fault = "VGPR operand out of the wave's allocation";
      return;
    }
    readLanes(in, w, x.ctx, code, t, out);
    const bool selLo = (opsel >> s) & 1, selHi = (opselHi >> s) & 1;
    const bool nLo = (negLo >> s) & 1, nHi = (negHi >> s) & 1;
    if (op.flags & kMixOpsel) {
      // Mix: op_sel_hi = 0 means an f32 source; 1 means an f16 source in the half op_sel picks.
      // neg_lo negates and neg_hi takes the absolute value (12.12 V_FMA_MIX_F32).
      for (int l = 0; l < kWaveSize; ++l) {
        uint64_t bits = selHi ? (selLo ? out[l] >> 16 : out[l]) & 0xffff : out[l] & 0xffffffffu;
        if (selHi && flush16) bits = fpmode::flushF16(bits);
        if (!selHi && flush32) bits = fpmode::flushF32(bits);
        float v = selHi ? f16ToF32(static_cast<uint16_t>(bits)) : asF32(bits);
        if (nHi) v = std::fabs(v);
        if (nLo) v = -v;
        out[l] = bitsF32(v);
      }
    } else if (t == Ty::Pk16 || t == Ty::PkF16) {
      const uint32_t negMask =
          (t == Ty::PkF16) ? ((nLo ? 0x8000u : 0u) | (nHi ? 0x80000000u : 0u)) : 0u;
      for (int l = 0; l < kWaveSize; ++l) {
        const uint32_t v = static_cast<uint32_t>(out[l]);
        const uint32_t l16 = selLo ? v >> 16 : v & 0xffff;
        const uint32_t h16 = selHi ? v >> 16 : v & 0xffff;
        out[l] = ((l16 | (h16 << 16)) ^ negMask) & 0xffffffffu;
      }
    } else if (isFloat(t) && nLo) {
      for (int l = 0; l < kWaveSize; ++l) out[l] ^= 0x80000000u;
    }
    if (!mix && fpControlled && fpmode::flushesSources(fpMode, t, false))
      fpmode::flushLanes(out, t);
  }
  // v_fma_mixlo/hi_f16 read their destination (the half they keep) before the write-back's
  // range check: check it here, or a VGPR beyond the allocation is read.
  if ((op.flags & kMixOpsel) && !vgprInRange(w, in.f[fld::kDst] - opnd::kVgpr0, 1)) {
    x.r.kind = StepKind::Fault;
    x.r.fault = "VGPR operand out of the wave's allocation";
    return;
  }
  for (int l = 0; l < kWaveSize; ++l) L.cin[l] = 0;
  {
    fpmode::HostRounding rounding(fpControlled ? fpmode::roundFor(fpMode, resultTy) : 0);
    op.valu(L);
  }
  if (fpControlled && fpmode::flushesResults(fpMode, resultTy, false)) {
    if (resultTy == op.dst) {
      fpmode::flushLanes(L.d, op.dst);
    } else {  // mixlo / mixhi: only the written half (the other keeps the old register bits)
      const int shift = op.opcode == 0x22 ? 16 : 0;
      for (int l = 0; l < kWaveSize; ++l) {
        const uint64_t half = fpmode::flushF16((L.d[l] >> shift) & 0xffff);
        L.d[l] = (L.d[l] & ~(0xffffull << shift)) | (half << shift);
      }
    }
  }
  const int reg = in.f[fld::kDst] - opnd::kVgpr0;
  if (!vgprInRange(w, reg, 1)) {
    x.r.kind = StepKind::Fault;
    x.r.fault = "VGPR destination out of the wave's allocation";
    return;
  }
  uint32_t* dst = w.v(static_cast<uint32_t>(reg));
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((L.writeMask >> l) & 1)) continue;
    uint32_t v = static_cast<uint32_t>(L.d[l]);
    if (clamp && op.dst == Ty::F32) {
      const float fv = asF32(v);
      v = static_cast<uint32_t>(bitsF32(fv > 1.0f ? 1.0f : (fv >= 0.0f ? fv : 0.0f)));
    }
    dst[l] = v;
  }
  w.pc += in.sizeBytes;
}

}  // namespace vgpu::isa
