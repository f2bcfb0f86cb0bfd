// Operand fetch for every encoding: the scalar operand space and VGPR lanes.
#include "isa/Operands.h"

namespace vgpu::isa {

float f16ToF32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf / nan (payload kept)
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // denormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400) == 0);
      mant &= 0x3ff;
      bits = sign | ((127 - 15 - e) << 23) | (mant << 13);
    }
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return asF32(bits);
}

thread_local uint8_t f16RoundMode = 0;

// `round`: MODE.FP_ROUND encoding (0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero).
static uint16_t f32ToF16Impl(float f, unsigned round) {
  const uint32_t x = static_cast<uint32_t>(bitsF32(f));
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xff);
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) {  // inf / nan: quiet the nan
    return static_cast<uint16_t>(sign | 0x7c00 | (mant ? (0x200 | (mant >> 13)) : 0));
  }
  // Directed modes: an inexact magnitude grows when the direction points away from zero for
  // this sign, and is truncated otherwise.
  const bool away = (round == 1 && !sign) || (round == 2 && sign);
  const bool truncates = round != 0 && !away;
  int32_t e = exp - 127 + 15;
  if (e >= 0x1f) {  // overflow: infinity, or the largest finite half when truncating
    return truncates ? static_cast<uint16_t>(sign | 0x7bff) : static_cast<uint16_t>(sign | 0x7c00);
  }
  uint32_t full;  // mantissa with implicit bit, 24 bits
  int shift;      // bits to drop
  if (e <= 0) {
    if (e < -10) {  // below half the smallest half denormal: zero, or that denormal when away
      const bool zero = exp == 0 && mant == 0;
      return static_cast<uint16_t>(sign | (away && !zero ? 1 : 0));
    }
    full = mant | 0x800000;
    shift = 14 - e;
    e = 0;
  } else {
    full = mant;
    shift = 13;
  }
  uint32_t result = full >> shift;
  const uint32_t rem = full & ((1u << shift) - 1);
  if (round == 0) {
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (result & 1))) ++result;
  } else if (away && rem != 0) {
    ++result;
  }
  // For normals `result` is the 10-bit mantissa; a carry out of it bumps the exponent, which
  // the addition below does naturally.
  return static_cast<uint16_t>(sign + (static_cast<uint32_t>(e) << 10) + result);
}

uint16_t f32ToF16(float f) {
  return f32ToF16Impl(f, f16RoundMode);
}
uint16_t f32ToF16Rtz(float f) {
  return f32ToF16Impl(f, 3);
}
uint16_t f32ToF16Rounded(float f, unsigned roundMode) {
  return f32ToF16Impl(f, roundMode & 3);
}

bool isInlineConstant(int code) {
  return code >= 128 && code <= 248 && !(code > 208 && code < 240);
}

uint64_t inlineConstant(int code, Ty ty) {
  if (code >= opnd::kZero && code <= opnd::kIntPosMax) {
    return static_cast<uint64_t>(code - opnd::kZero) & widthMask(is16(ty) ? 16 : 64);
  }
  if (code > opnd::kIntPosMax && code <= opnd::kIntNegMax) {
    const int64_t v = -(code - opnd::kIntPosMax);
    return static_cast<uint64_t>(v) & widthMask(is16(ty) ? 16 : (is64(ty) ? 64 : 32));
  }
  // 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)
  static const uint16_t kF16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                  0xc000, 0x4400, 0xc400, 0x3118};
  static const uint32_t kF32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
  static const uint64_t kF64[] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                                  0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                                  0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};
  if (code >= opnd::kHalf && code <= opnd::kInvTwoPi) {
    const int i = code - opnd::kHalf;
    if (is16(ty)) return kF16[i];
    if (is64(ty)) return kF64[i];
    return kF32[i];
  }
  return 0;
}

uint32_t readScalarDword(const WaveState& w, const ExecContext& ctx, int code) {
  if (code < kNumSgprs) return w.sgpr[code];
  switch (code) {
    case opnd::kFlatScratchLo:
      return static_cast<uint32_t>(w.flatScratch);
    case opnd::kFlatScratchHi:
      return static_cast<uint32_t>(w.flatScratch >> 32);
    case opnd::kXnackLo:
      return static_cast<uint32_t>(w.xnackMask);
    case opnd::kXnackHi:
      return static_cast<uint32_t>(w.xnackMask >> 32);
    case opnd::kVccLo:
      return static_cast<uint32_t>(w.vcc);
    case opnd::kVccHi:
      return static_cast<uint32_t>(w.vcc >> 32);
    case opnd::kM0:
      return w.m0;
    case opnd::kExecLo:
      return static_cast<uint32_t>(w.exec);
    case opnd::kExecHi:
      return static_cast<uint32_t>(w.exec >> 32);
    default:
      break;
  }
  if (code >= opnd::kTtmp0 && code < opnd::kTtmp0 + kNumTtmps) return w.ttmp[code - opnd::kTtmp0];
  // Aperture registers hold the high half of the 64-bit aperture addresses (gfx9).
  switch (code) {
    case opnd::kSharedBase:
      return static_cast<uint32_t>(ctx.sharedApertureBase >> 32);
    case opnd::kSharedLimit:
      return static_cast<uint32_t>((ctx.sharedApertureBase + 0xffffffffull) >> 32);
    case opnd::kPrivateBase:
      return static_cast<uint32_t>(ctx.privateApertureBase >> 32);
    case opnd::kPrivateLimit:
      return static_cast<uint32_t>((ctx.privateApertureBase + 0xffffffffull) >> 32);
    case opnd::kVccz:
      return w.vcc == 0;
    case opnd::kExecz:
      return w.exec == 0;
    case opnd::kScc:
      return w.scc;
    case opnd::kLdsDirect:
      return readLdsDirect(w, ctx);
    default:
      return 0;
  }
}

uint64_t readScalarAny(const Instruction& in, const WaveState& w, const ExecContext& ctx, int code,
                       Ty ty) {
  if (code == opnd::kLiteral) {
    if (ty == Ty::F64) return static_cast<uint64_t>(in.literal) << 32;  // high half of a double
    if (ty == Ty::I64) return sext(in.literal, 32);
    return in.literal;
  }
  if (code >= opnd::kZero && code <= opnd::kInvTwoPi) return inlineConstant(code, ty);
  if (code >= opnd::kSharedBase && code <= opnd::kPrivateLimit && is64(ty)) {
    // As a 64-bit operand an aperture register reads as the full aperture address.
    const uint64_t hi = readScalarDword(w, ctx, code);
    return hi << 32;
  }
  uint64_t v = readScalarDword(w, ctx, code);
  if (is64(ty)) {
    if (code < opnd::kZero) {
      v |= static_cast<uint64_t>(readScalarDword(w, ctx, code + 1)) << 32;
    }
  } else if (is16(ty) && ty != Ty::Pk16 && ty != Ty::PkF16) {
    v &= 0xffff;
  }
  return v;
}

void writeScalarDword(WaveState& w, int code, uint32_t value) {
  if (code < kNumSgprs) {
    w.sgpr[code] = value;
    return;
  }
  auto setLo = [](uint64_t& r, uint32_t v) { r = (r & 0xffffffff00000000ull) | v; };
  auto setHi = [](uint64_t& r, uint32_t v) {
    r = (r & 0xffffffffull) | (static_cast<uint64_t>(v) << 32);
  };
  switch (code) {
    case opnd::kFlatScratchLo:
      setLo(w.flatScratch, value);
      return;
    case opnd::kFlatScratchHi:
      setHi(w.flatScratch, value);
      return;
    case opnd::kXnackLo:
      setLo(w.xnackMask, value);
      return;
    case opnd::kXnackHi:
      setHi(w.xnackMask, value);
      return;
    case opnd::kVccLo:
      setLo(w.vcc, value);
      return;
    case opnd::kVccHi:
      setHi(w.vcc, value);
      return;
    case opnd::kM0:
      w.m0 = value;
      return;
    case opnd::kExecLo:
      setLo(w.exec, value);
      return;
    case opnd::kExecHi:
      setHi(w.exec, value);
      return;
    default:
      break;
  }
  if (code >= opnd::kTtmp0 && code < opnd::kTtmp0 + kNumTtmps) w.ttmp[code - opnd::kTtmp0] = value;
  // Writes to constants and read-only sources are ignored.
}

void writeScalarAny(WaveState& w, int code, int dwords, uint64_t value) {
  writeScalarDword(w, code, static_cast<uint32_t>(value));
  if (dwords > 1) writeScalarDword(w, code + 1, static_cast<uint32_t>(value >> 32));
}

void readLanes(const Instruction& in, const WaveState& w, const ExecContext& ctx, int code, Ty ty,
               uint64_t* __restrict out) {  // never the VGPRs themselves: the loops vectorise
  if (code >= opnd::kVgpr0) {
    const uint32_t reg = static_cast<uint32_t>(code - opnd::kVgpr0);
    const uint32_t* lo = w.v(reg);
    if (is64(ty)) {
      const uint32_t* hi = w.v(reg + 1);
      for (int l = 0; l < kWaveSize; ++l) out[l] = lo[l] | (static_cast<uint64_t>(hi[l]) << 32);
    } else {
      for (int l = 0; l < kWaveSize; ++l) out[l] = lo[l];
    }
    return;
  }
  const uint64_t v = readScalar(in, w, ctx, code, ty);
  for (int l = 0; l < kWaveSize; ++l) out[l] = v;
}

namespace {
bool hostHasAvx2Fma() {
#if VGPU_LANES_AVX2
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}
}  // namespace

bool gLanesAvx2 = hostHasAvx2Fma();

void setLanesAvx2(bool on) {
  gLanesAvx2 = on && hostHasAvx2Fma();
}

}  // namespace vgpu::isa
