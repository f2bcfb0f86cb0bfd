// Parameter interpolation (Vega ISA guide 10.3.2 "LDS Parameter Reads", 12.10 VINTRP and the
// VOP3 interpolation opcodes) and LDS_DIRECT reads (10.3.1). Both read the workgroup's LDS
// synchronously through ExecContext::ldsData.
//
// M0 = {1'b0, new_prim_mask[15:1], lds_param_offset[15:0]}: quad q (lanes 4q..4q+3) uses
// primitive popcount(new_prim_mask[q:1]). The guide does not give the parameter layout; the
// model stores, per primitive and attribute (0..32), three vec4s P0, P10, P20:
//   addr = lds_param_offset + ((prim * 33 + attr) * 3 + k) * 16 + chan * 4,  k: 0 P0, 1 P10, 2 P20
// 16-bit parameters (the _f16 forms) are the low half of that dword, or the high half with `high`.
#include "isa/Valu.h"
#include "lds/LdsElementRules.h"

namespace vgpu::isa {
namespace {

uint32_t ldsDword(const ExecContext& ctx, uint64_t addr) {
  if (!ctx.ldsData || !lds::inRange(addr, 4, ctx.ldsSize)) return 0;  // out of range: 0
  uint32_t v;
  std::memcpy(&v, ctx.ldsData + addr, 4);
  return v;
}

// P0 (k=0), P10 (k=1) or P20 (k=2) of attribute `attr`, channel `chan` for `lane`.
uint32_t param(const WaveState& w, const ExecContext& ctx, int lane, unsigned attr, unsigned chan,
               unsigned k) {
  const uint32_t quad = static_cast<uint32_t>(lane) / 4;
  const uint32_t newPrim = (w.m0 >> 16) & 0x7fff;  // bit q-1: quad q starts a primitive
  const uint32_t prim =
      quad ? static_cast<uint32_t>(__builtin_popcount(newPrim & ((1u << quad) - 1))) : 0;
  const uint64_t addr = (w.m0 & 0xffff) + ((prim * 33ull + attr) * 3 + k) * 16 + chan * 4;
  return ldsDword(ctx, addr);
}

float half(uint32_t v, bool high) {
  return f16ToF32(static_cast<uint16_t>(high ? v >> 16 : v));
}

enum Kind { kP1, kP2, kMov, kP1ll, kP1lv, kP2Legacy, kP2F16 };

// One interpolation step for every enabled lane. `s` is the barycentric (or the mov selector),
// `c` the VGPR source of the lv/p2 f16 forms, `d` the old destination.
void interpolate(Kind kind, ValuLanes& L, unsigned attr, unsigned chan, bool high) {
  const WaveState& w = *L.w;
  const ExecContext& ctx = *L.ctx;
  for (int i = 0; i < kWaveSize; ++i) {
    if (!((L.exec >> i) & 1)) continue;
    const float s = asF32(L.b[i]);
    switch (kind) {
      case kP1:  // D = P10 * S + P0
        L.d[i] = bitsF32(std::fma(asF32(param(w, ctx, i, attr, chan, 1)), s,
                                  asF32(param(w, ctx, i, attr, chan, 0))));
        break;
      case kP2:  // D = P20 * S + D
        L.d[i] = bitsF32(std::fma(asF32(param(w, ctx, i, attr, chan, 2)), s, asF32(L.c[i])));
        break;
      case kMov: {  // D = {P10, P20, P0}[S]
        const uint32_t sel = static_cast<uint32_t>(L.b[i]);
        L.d[i] = sel < 3 ? param(w, ctx, i, attr, chan, sel == 2 ? 0 : sel + 1) : 0;
        break;
      }
      case kP1ll:  // D.f32 = P10.f16 * S + P0.f16
        L.d[i] = bitsF32(std::fma(half(param(w, ctx, i, attr, chan, 1), high), s,
                                  half(param(w, ctx, i, attr, chan, 0), high)));
        break;
      case kP1lv:  // D.f32 = P10.f16 * S + (VGPR P0).f16
        L.d[i] = bitsF32(std::fma(half(param(w, ctx, i, attr, chan, 1), high), s,
                                  half(static_cast<uint32_t>(L.c[i]), high)));
        break;
      case kP2Legacy:
      case kP2F16:  // D.f16 = P20.f16 * S + src2.f32
        L.d[i] = f32ToF16(std::fma(half(param(w, ctx, i, attr, chan, 2), high), s, asF32(L.c[i])));
        break;
    }
  }
}

// VINTRP (e32): vdst, vsrc (barycentric or param selector), attr, chan.
void execVintrp(ExecArgs& x) {
  const Instruction& in = x.in;
  WaveState& w = x.w;
  const int vdst = in.f[fld::kDst] - opnd::kVgpr0;
  const unsigned attr = in.f[fld::kExt1] & 0x3f, chan = (in.f[fld::kExt1] >> 6) & 3;
  const Kind kind = static_cast<Kind>(x.op.opcode);
  const int vsrc = in.f[fld::kSrc0];
  if (!vgprInRange(w, vdst, 1) || (kind != kMov && !vgprInRange(w, vsrc, 1))) {
    x.r.kind = StepKind::Fault;
    x.r.fault = "VGPR operand out of the wave's allocation";
    return;
  }
  ValuLanes L;
  L.w = &w;
  L.ctx = &x.ctx;
  L.in = &in;
  L.exec = w.exec;
  uint32_t* d = w.v(static_cast<uint32_t>(vdst));
  for (int i = 0; i < kWaveSize; ++i) {
    L.b[i] = kind == kMov ? static_cast<uint64_t>(vsrc) : w.v(static_cast<uint32_t>(vsrc))[i];
    L.c[i] = d[i];
  }
  interpolate(kind, L, attr, chan, false);
  for (int i = 0; i < kWaveSize; ++i)
    if ((w.exec >> i) & 1) d[i] = static_cast<uint32_t>(L.d[i]);
  w.pc += in.sizeBytes;
}

// VOP3 forms: src0 holds attr[5:0] chan[7:6] high[8]; src1 the barycentric (mov: the param
// selector), src2 the VGPR operand of the lv/p2 f16 forms. The generic VALU executor fetches
// src1/src2 with modifiers and applies clamp/omod; the lane function reads LDS.
template <Kind K>
void vop3Interp(ValuLanes& L) {
  const unsigned code = L.in->f[fld::kSrc0];
  if (K == kMov)
    for (int i = 0; i < kWaveSize; ++i) L.b[i] = L.in->f[fld::kSrc1];
  if (K == kP2) {
    // V_INTERP_P2_F32 accumulates into D (D = P20 * S + D) in the VOP3 form too: D is read
    // from the destination VGPR, as the VINTRP form does.
    const int vdst = L.in->f[fld::kDst] - opnd::kVgpr0;
    if (!vgprInRange(*L.w, vdst, 1)) {
      L.fault = "VGPR operand out of the wave's allocation";
      return;
    }
    const uint32_t* d = L.w->v(static_cast<uint32_t>(vdst));
    for (int i = 0; i < kWaveSize; ++i) L.c[i] = d[i];
  }
  if (K == kP1lv) {
    // V_INTERP_P1LV_F16: S2 holds two f16 values and the attribute word (`high`) selects the
    // VGPR's half as well as the LDS half. The source is fetched as 32 bits, abs / neg applied
    // to bit 31 (the high half's sign); for the low half they are applied here to bit 15. Both
    // halves then hold the selected value for interpolate().
    const bool high = (code >> 8) & 1;
    const unsigned mods = L.in->f[fld::kMods];
    const uint64_t keep = ((mods >> 2) & 1) ? 0x7fff : 0xffff, flip = ((mods >> 5) & 1) << 15;
    for (int i = 0; i < kWaveSize; ++i) {
      const uint64_t h = high ? (L.c[i] >> 16) & 0xffff : ((L.c[i] & keep) ^ flip);
      L.c[i] = h | (h << 16);
    }
  }
  interpolate(K, L, code & 0x3f, (code >> 6) & 3, (code >> 8) & 1);
}

OpInfo vintrp(int op, const char* name) {
  OpInfo o;
  o.name = name;
  o.enc = Enc::Vintrp;
  o.opcode = static_cast<int16_t>(op);
  o.dst = Ty::F32;
  o.src0 = Ty::F32;
  o.exec = execVintrp;
  o.issue = IssueType::Valu;
  return o;
}
OpInfo interp3(int op, const char* name, Ty d, Ty s1, Ty s2, ValuFn fn) {
  OpInfo o;
  o.name = name;
  o.enc = Enc::Vop3;
  o.opcode = static_cast<int16_t>(op);
  o.dst = d;
  // src0 holds attr/chan/high and is not read as an operand.
  o.src1 = s1;
  o.src2 = s2;
  o.flags = kInterp;
  o.exec = execValu;
  o.valu = fn;
  o.issue = IssueType::Valu;
  return o;
}

const OpInfo kInterpOps[] = {
    vintrp(0, "v_interp_p1_f32"),
    vintrp(1, "v_interp_p2_f32"),
    vintrp(2, "v_interp_mov_f32"),
    interp3(0x270, "v_interp_p1_f32_e64", Ty::F32, Ty::F32, Ty::None, vop3Interp<kP1>),
    interp3(0x271, "v_interp_p2_f32_e64", Ty::F32, Ty::F32, Ty::None, vop3Interp<kP2>),
    interp3(0x272, "v_interp_mov_f32_e64", Ty::F32, Ty::None, Ty::None, vop3Interp<kMov>),
    interp3(0x274, "v_interp_p1ll_f16", Ty::F32, Ty::F32, Ty::None, vop3Interp<kP1ll>),
    // src2 read whole: `high` picks its half (vop3Interp), as it picks the LDS half.
    interp3(0x275, "v_interp_p1lv_f16", Ty::F32, Ty::F32, Ty::B32, vop3Interp<kP1lv>),
    interp3(0x276, "v_interp_p2_legacy_f16", Ty::F16, Ty::F32, Ty::F32, vop3Interp<kP2Legacy>),
    interp3(0x277, "v_interp_p2_f16", Ty::F16, Ty::F32, Ty::F32, vop3Interp<kP2F16>),
};

}  // namespace

OpTable interpTable() {
  return {kInterpOps, static_cast<int>(sizeof(kInterpOps) / sizeof(kInterpOps[0]))};
}

// LDS_DIRECT (10.3.1): LDS_addr = M0[15:0], DataType = M0[18:16]: 0 u8, 1 u16, 2 dword,
// 4 i8, 5 i16; the value is broadcast to all lanes.
uint32_t readLdsDirect(const WaveState& w, const ExecContext& ctx) {
  const uint32_t addr = w.m0 & 0xfffc & 0xffff, type = (w.m0 >> 16) & 7;
  const uint32_t byteAddr = w.m0 & 0xffff;
  const uint32_t dw = ldsDword(ctx, addr);
  const uint32_t shift = 8 * (byteAddr & 3);
  switch (type) {
    case 0:
      return (dw >> shift) & 0xff;
    case 1:
      return (dw >> (shift & 16)) & 0xffff;
    case 4:
      return static_cast<uint32_t>(static_cast<int8_t>(dw >> shift));
    case 5:
      return static_cast<uint32_t>(static_cast<int16_t>(dw >> (shift & 16)));
    default:
      return dw;
  }
}

}  // namespace vgpu::isa
