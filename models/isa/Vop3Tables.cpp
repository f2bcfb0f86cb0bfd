// VOP3-only opcodes (Vega ISA guide 12.11 "VOP3A/VOP3B Instructions"): three-source ALU,
// 64-bit shifts and multiplies, lane access, division helpers.
#include "isa/ValuMath.h"

namespace vgpu::isa {
namespace {

using namespace math;

OpInfo v3(int op, const char* name, Ty d, Ty a, Ty b, Ty c, ValuKernel fn, uint32_t flags = 0) {
  OpInfo o = valuOp(Enc::Vop3, execValu, op, name, d, a, b, c, fn, flags);
  o.exec = valuExecutor(o);
  return o;
}

constexpr Ty NoT = Ty::None, B16 = Ty::B16, I16 = Ty::I16, F16 = Ty::F16, B32 = Ty::B32,
             I32 = Ty::I32, F32 = Ty::F32, B64 = Ty::B64, I64 = Ty::I64, F64 = Ty::F64,
             B128 = Ty::B128;
constexpr uint32_t kHalf = kPreserveHi16 | kOpselDst;  // gfx9 op_sel-capable 16-bit ops

uint32_t sadU8(uint32_t a, uint32_t b, bool masked) {
  uint32_t sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
    if (masked && y == 0) continue;
    sum += static_cast<uint32_t>(x > y ? x - y : y - x);
  }
  return sum;
}

// V_PERM_B32 byte selector (12.11): 0-7 pick a byte of {S0, S1}, 8-11 replicate a sign bit,
// 12 is 0x00 and 13-15 are 0xff.
uint32_t permByte(uint64_t bytes, uint32_t sel) {
  sel &= 0xff;
  if (sel <= 7) return (bytes >> (8 * sel)) & 0xff;
  if (sel <= 11) {
    static const int kSignBit[] = {15, 31, 47, 63};
    return ((bytes >> kSignBit[sel - 8]) & 1) ? 0xff : 0;
  }
  return sel == 12 ? 0 : 0xff;
}

uint32_t cvtPkU8(float v, uint32_t byte, uint32_t acc) {
  const uint32_t x = cvtSat<uint8_t>(std::nearbyint(v));
  const uint32_t shift = 8 * (byte & 3);
  return (acc & ~(0xffu << shift)) | (x << shift);
}

uint16_t normI16(float v) {
  return static_cast<uint16_t>(
      cvtSat<int16_t>(std::nearbyint(std::fmax(-1.0f, std::fmin(1.0f, v)) * 32767.0f)));
}
uint16_t normU16(float v) {
  return cvtSat<uint16_t>(std::nearbyint(std::fmax(0.0f, std::fmin(1.0f, v)) * 65535.0f));
}

int32_t satI32(int64_t v) {
  return static_cast<int32_t>(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v)));
}
int16_t satI16(int32_t v) {
  return static_cast<int16_t>(std::max(-32768, std::min(32767, v)));
}

// Cube map helpers (12.11 V_CUBE*): the major axis is z if |z| >= |x|, |y|, else y if
// |y| >= |x|, else x.
int cubeAxis(float x, float y, float z) {
  if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return 2;
  return std::fabs(y) >= std::fabs(x) ? 1 : 0;
}
float cubeId(float x, float y, float z) {
  switch (cubeAxis(x, y, z)) {
    case 2:
      return z < 0 ? 5.0f : 4.0f;
    case 1:
      return y < 0 ? 3.0f : 2.0f;
    default:
      return x < 0 ? 1.0f : 0.0f;
  }
}
float cubeSc(float x, float y, float z) {
  switch (cubeAxis(x, y, z)) {
    case 2:
      return z < 0 ? -x : x;
    case 1:
      return x;
    default:
      return x < 0 ? z : -z;
  }
}
float cubeTc(float x, float y, float z) {
  switch (cubeAxis(x, y, z)) {
    case 1:
      return y < 0 ? -z : z;
    default:
      return -y;
  }
}
float cubeMa(float x, float y, float z) {
  switch (cubeAxis(x, y, z)) {
    case 2:
      return 2.0f * z;
    case 1:
      return 2.0f * y;
    default:
      return 2.0f * x;
  }
}

// 1201 fractional bits of 2/pi, most significant word first (bit 1200 = 2^-1).
const uint32_t kTwoByPi[38] = {
    0x000145f3, 0x06dc9c88, 0x2a53f84e, 0xafa3ea69, 0xbb81b6c5, 0x2b327887, 0x2083fca2, 0xc757bd77,
    0x8ac36e48, 0xdc74849b, 0xa5c00c92, 0x5dd413a3, 0x2439fc3b, 0xd6396253, 0x4e7dd104, 0x6bea5d76,
    0x8909d338, 0xe04d68be, 0xfc827323, 0xac7306a6, 0x73e93908, 0xbf177bf2, 0x50763ff1, 0x2fffbc0b,
    0x301fde5e, 0x2316b414, 0xda3eda6c, 0xfd9e4f96, 0x136e9e8c, 0x7ecd3cbf, 0xd45aea4f, 0x758fd7cb,
    0xe2f67a0e, 0x73ef14a5, 0x25d4d7f6, 0xbf623f1a, 0xba10ac06, 0x608df8f6};

// V_TRIG_PREOP_F64 (12.11): the 53-bit segment of 2/pi selected by S1[4:0] (and the exponent
// of S0 for large arguments), scaled to its position.
double trigPreop(uint64_t s0, uint32_t s1) {
  const int exp = static_cast<int>((s0 >> 52) & 0x7ff);
  int shift = static_cast<int>(s1 & 31) * 53;
  if (exp > 1077) shift += exp - 1077;
  uint64_t r = 0;
  for (int k = 0; k < 53; ++k) {
    const int b = 1200 - shift - k;
    const uint32_t bit = b >= 0 ? (kTwoByPi[37 - b / 32] >> (b % 32)) & 1 : 0;
    r = (r << 1) | bit;
  }
  int scale = -53 - shift;
  if (exp >= 1968) scale += 128;
  return std::ldexp(static_cast<double>(r), scale);
}

// QSAD/MQSAD (12.11): four SADs of the 32-bit windows of S0 (shifted by 0..3 bytes) against S1,
// each with its 16-bit accumulator, into a 16-bit result field: the sum's low 16 bits (the
// Vega guide gives the fields' width only; AMD's RDNA3 and CDNA3 guides spell the same opcode
// out as 16'B(v_sad_u8(...)), a truncation).
uint64_t qsad(uint64_t s0, uint32_t s1, uint64_t acc, bool masked) {
  uint64_t r = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t sum =
        sadU8(static_cast<uint32_t>(s0 >> (8 * i)), s1, masked) + ((acc >> (16 * i)) & 0xffff);
    r |= static_cast<uint64_t>(sum & 0xffff) << (16 * i);
  }
  return r;
}

// V_MQSAD_U32_U8: 128-bit accumulator and result; reads and writes the VGPR quads itself.
void mqsadU32(ValuLanes& L) {
  const Instruction& in = *L.in;
  const int dst = in.f[fld::kDst] - opnd::kVgpr0, src2 = in.f[fld::kSrc2];
  if (!vgprInRange(*L.w, dst, 4) || (src2 >= opnd::kVgpr0 && !vgprInRange(*L.w, src2 - 256, 4))) {
    L.fault = "VGPR operand out of the wave's allocation";
    return;
  }
  for (int l = 0; l < kWaveSize; ++l) {
    if (!((L.exec >> l) & 1)) continue;
    uint32_t out[4];
    for (int i = 0; i < 4; ++i) {
      const uint32_t acc = src2 >= opnd::kVgpr0 ? L.w->v(static_cast<uint32_t>(src2 - 256 + i))[l]
                                                : static_cast<uint32_t>(L.c[l]);
      out[i] = sadU8(static_cast<uint32_t>(L.a[l] >> (8 * i)), u32(L.b[l]), true) + acc;
    }
    for (int i = 0; i < 4; ++i) L.w->v(static_cast<uint32_t>(dst + i))[l] = out[i];
  }
  L.writeMask = 0;
}

const OpInfo kVop3Ops[] = {
    v3(0x1c0, "v_mad_legacy_f32", F32, F32, F32, F32, VALU_LANES(d = F(((f(a) == 0.0f || f(b) == 0.0f) ? 0.0f : f(a) * f(b)) + f(c))), kFpFlushAlways),
    v3(0x1c1, "v_mad_f32", F32, F32, F32, F32, VALU_LANES(d = F(f(a) * f(b) + f(c))), kFpFlushAlways),
    v3(0x1c2, "v_mad_i32_i24", I32, I32, I32, I32, VALU_LANES(d = u32(U(i64(i32(sext24(u32(a)))) * i32(sext24(u32(b))) + i32(c))))),
    v3(0x1c3, "v_mad_u32_u24", B32, B32, B32, B32, VALU_LANES(d = u32((a & 0xffffff) * (b & 0xffffff) + u32(c)))),
    v3(0x1c4, "v_cubeid_f32", F32, F32, F32, F32, VALU_LANES(d = F(cubeId(f(a), f(b), f(c))))),
    v3(0x1c5, "v_cubesc_f32", F32, F32, F32, F32, VALU_LANES(d = F(cubeSc(f(a), f(b), f(c))))),
    v3(0x1c6, "v_cubetc_f32", F32, F32, F32, F32, VALU_LANES(d = F(cubeTc(f(a), f(b), f(c))))),
    v3(0x1c7, "v_cubema_f32", F32, F32, F32, F32, VALU_LANES(d = F(cubeMa(f(a), f(b), f(c))))),
    v3(0x1c8, "v_bfe_u32", B32, B32, B32, B32, VALU_LANES(d = bfeU(u32(a), u32(b), u32(c)))),
    v3(0x1c9, "v_bfe_i32", I32, I32, B32, B32, VALU_LANES(d = bfeI(u32(a), u32(b), u32(c)))),
    v3(0x1ca, "v_bfi_b32", B32, B32, B32, B32, VALU_LANES(d = u32((a & b) | (~a & c)))),
    v3(0x1cb, "v_fma_f32", F32, F32, F32, F32, VALU_LANES(d = F(std::fma(f(a), f(b), f(c))))),
    v3(0x1cc, "v_fma_f64", F64, F64, F64, F64, VALU_LANES(d = D(std::fma(dbl(a), dbl(b), dbl(c))))),
    v3(0x1cd, "v_lerp_u8", B32, B32, B32, B32, VALU_LANES(uint32_t r = 0; for (int k = 0; k < 32; k += 8) r |= ((((a >> k) & 0xff) + ((b >> k) & 0xff) + ((c >> k) & 1)) >> 1) << k; d = r)),
    v3(0x1ce, "v_alignbit_b32", B32, B32, B32, B32, VALU_LANES(d = u32((((a & 0xffffffff) << 32) | (b & 0xffffffff)) >> (c & 31)))),
    v3(0x1cf, "v_alignbyte_b32", B32, B32, B32, B32, VALU_LANES(d = u32((((a & 0xffffffff) << 32) | (b & 0xffffffff)) >> (8 * (c & 3))))),
    v3(0x1d0, "v_min3_f32", F32, F32, F32, F32, VALU_LANES(d = F(std::fmin(std::fmin(f(a), f(b)), f(c))))),
    v3(0x1d1, "v_min3_i32", I32, I32, I32, I32, VALU_LANES(d = u32(std::min(std::min(i32(a), i32(b)), i32(c))))),
    v3(0x1d2, "v_min3_u32", B32, B32, B32, B32, VALU_LANES(d = std::min(std::min(u32(a), u32(b)), u32(c)))),
    v3(0x1d3, "v_max3_f32", F32, F32, F32, F32, VALU_LANES(d = F(std::fmax(std::fmax(f(a), f(b)), f(c))))),
    v3(0x1d4, "v_max3_i32", I32, I32, I32, I32, VALU_LANES(d = u32(std::max(std::max(i32(a), i32(b)), i32(c))))),
    v3(0x1d5, "v_max3_u32", B32, B32, B32, B32, VALU_LANES(d = std::max(std::max(u32(a), u32(b)), u32(c)))),
    v3(0x1d6, "v_med3_f32", F32, F32, F32, F32, VALU_LANES(d = F(fmed3(f(a), f(b), f(c))))),
    v3(0x1d7, "v_med3_i32", I32, I32, I32, I32, VALU_LANES(d = u32(med3(i32(a), i32(b), i32(c))))),
    v3(0x1d8, "v_med3_u32", B32, B32, B32, B32, VALU_LANES(d = med3(u32(a), u32(b), u32(c)))),
    v3(0x1d9, "v_sad_u8", B32, B32, B32, B32, VALU_LANES(d = u32(sadU8(u32(a), u32(b), false) + c))),
    v3(0x1da, "v_sad_hi_u8", B32, B32, B32, B32, VALU_LANES(d = u32((sadU8(u32(a), u32(b), false) << 16) + c))),
    v3(0x1db, "v_sad_u16", B32, B32, B32, B32, VALU_LANES(const int x0 = u16(a), y0 = u16(b), x1 = u16(a >> 16), y1 = u16(b >> 16); d = u32(std::abs(x0 - y0) + std::abs(x1 - y1) + c))),
    v3(0x1dc, "v_sad_u32", B32, B32, B32, B32, VALU_LANES(d = u32((u32(a) > u32(b) ? u32(a) - u32(b) : u32(b) - u32(a)) + c))),
    v3(0x1dd, "v_cvt_pk_u8_f32", B32, F32, B32, B32, VALU_LANES(d = cvtPkU8(f(a), u32(b), u32(c)))),
    v3(0x1de, "v_div_fixup_f32", F32, F32, F32, F32, VALU_LANES(d = F(divFixup(f(a), f(b), f(c))))),
    v3(0x1df, "v_div_fixup_f64", F64, F64, F64, F64, VALU_LANES(d = D(divFixup(dbl(a), dbl(b), dbl(c))))),
    v3(0x1e0, "v_div_scale_f32", F32, F32, F32, F32, VALU_LANES(d = F(divScale(f(a), f(b), f(c), cc))), kCarryOut | kVop3b),
    v3(0x1e1, "v_div_scale_f64", F64, F64, F64, F64, VALU_LANES(d = D(divScale(dbl(a), dbl(b), dbl(c), cc))), kCarryOut | kVop3b),
    // V_DIV_FMAS reads VCC implicitly (not an encoded operand).
    v3(0x1e2, "v_div_fmas_f32", F32, F32, F32, F32, VALU_LANES(d = F(divFmas(f(a), f(b), f(c), (L.w->vcc >> i) & 1)))),
    v3(0x1e3, "v_div_fmas_f64", F64, F64, F64, F64, VALU_LANES(d = D(divFmas(dbl(a), dbl(b), dbl(c), (L.w->vcc >> i) & 1)))),
    v3(0x1e4, "v_msad_u8", B32, B32, B32, B32, VALU_LANES(d = u32(sadU8(u32(a), u32(b), true) + c))),
    v3(0x1e5, "v_qsad_pk_u16_u8", B64, B64, B32, B64, VALU_LANES(d = qsad(a, u32(b), c, false))),
    v3(0x1e6, "v_mqsad_pk_u16_u8", B64, B64, B32, B64, VALU_LANES(d = qsad(a, u32(b), c, true))),
    v3(0x1e7, "v_mqsad_u32_u8", B128, B64, B32, B128, mqsadU32),
    // 32x32 + 64 multiply-add with a carry out (VOP3B).
    v3(0x1e8, "v_mad_u64_u32", B64, B32, B32, B64, VALU_LANES(const uint64_t p = (a & 0xffffffff) * (b & 0xffffffff); d = p + c; cc = d < p), kCarryOut | kVop3b),
    v3(0x1e9, "v_mad_i64_i32", I64, I32, I32, I64, VALU_LANES(const __int128 r = static_cast<__int128>(i64(i32(a)) * i32(b)) + i64(c); d = static_cast<uint64_t>(r); cc = r > INT64_MAX || r < INT64_MIN), kCarryOut | kVop3b),
    v3(0x1ea, "v_mad_legacy_f16", F16, F16, F16, F16, VALU_LANES(d = H(h(a) * h(b) + h(c))), kFpFlushAlways),
    v3(0x1eb, "v_mad_legacy_u16", B16, B16, B16, B16, VALU_LANES(d = (uint32_t{u16(a)} * u16(b) + u16(c)) & 0xffff)),
    v3(0x1ec, "v_mad_legacy_i16", I16, I16, I16, I16, VALU_LANES(d = u16(i16(a) * i16(b) + i16(c)))),
    v3(0x1ed, "v_perm_b32", B32, B32, B32, B32, VALU_LANES(const uint64_t bytes = ((a & 0xffffffff) << 32) | (b & 0xffffffff); uint32_t r = 0; for (int k = 0; k < 4; ++k) r |= permByte(bytes, u32(c) >> (8 * k)) << (8 * k); d = r)),
    v3(0x1ee, "v_fma_legacy_f16", F16, F16, F16, F16, VALU_LANES(d = H(std::fma(h(a), h(b), h(c))))),
    v3(0x1ef, "v_div_fixup_legacy_f16", F16, F16, F16, F16, VALU_LANES(d = H(divFixup(h(a), h(b), h(c))))),
    v3(0x1f0, "v_cvt_pkaccum_u8_f32", B32, F32, B32, NoT, VALU_LANES(const int dst = L.in->f[fld::kDst] - opnd::kVgpr0; d = cvtPkU8(f(a), u32(b), vgprInRange(*L.w, dst, 1) ? u32(L.w->v(dst)[i]) : 0u))),  // reads the destination: a VGPR past the allocation reads 0 here and faults at the write-back
    v3(0x1f1, "v_mad_u32_u16", B32, B16, B16, B32, VALU_LANES(d = u32(u16(a) * uint32_t(u16(b)) + c)), kOpselDst),
    v3(0x1f2, "v_mad_i32_i16", I32, I16, I16, I32, VALU_LANES(d = u32(int64_t{i16(a)} * i16(b) + i32(c))), kOpselDst),
    v3(0x1f3, "v_xad_u32", B32, B32, B32, B32, VALU_LANES(d = u32((a ^ b) + c))),
    v3(0x1f4, "v_min3_f16", F16, F16, F16, F16, VALU_LANES(d = H(std::fmin(std::fmin(h(a), h(b)), h(c)))), kHalf),
    v3(0x1f5, "v_min3_i16", I16, I16, I16, I16, VALU_LANES(d = u16(std::min(std::min(i16(a), i16(b)), i16(c)))), kHalf),
    v3(0x1f6, "v_min3_u16", B16, B16, B16, B16, VALU_LANES(d = std::min(std::min(u16(a), u16(b)), u16(c))), kHalf),
    v3(0x1f7, "v_max3_f16", F16, F16, F16, F16, VALU_LANES(d = H(std::fmax(std::fmax(h(a), h(b)), h(c)))), kHalf),
    v3(0x1f8, "v_max3_i16", I16, I16, I16, I16, VALU_LANES(d = u16(std::max(std::max(i16(a), i16(b)), i16(c)))), kHalf),
    v3(0x1f9, "v_max3_u16", B16, B16, B16, B16, VALU_LANES(d = std::max(std::max(u16(a), u16(b)), u16(c))), kHalf),
    v3(0x1fa, "v_med3_f16", F16, F16, F16, F16, VALU_LANES(d = H(fmed3(h(a), h(b), h(c)))), kHalf),
    v3(0x1fb, "v_med3_i16", I16, I16, I16, I16, VALU_LANES(d = u16(med3(i16(a), i16(b), i16(c)))), kHalf),
    v3(0x1fc, "v_med3_u16", B16, B16, B16, B16, VALU_LANES(d = med3(u16(a), u16(b), u16(c))), kHalf),
    v3(0x1fd, "v_lshl_add_u32", B32, B32, B32, B32, VALU_LANES(d = u32((u32(a) << (b & 31)) + c))),
    v3(0x1fe, "v_add_lshl_u32", B32, B32, B32, B32, VALU_LANES(d = u32(u32(a + b) << (c & 31)))),
    v3(0x1ff, "v_add3_u32", B32, B32, B32, B32, VALU_LANES(d = u32(a + b + c))),
    v3(0x200, "v_lshl_or_b32", B32, B32, B32, B32, VALU_LANES(d = u32((u32(a) << (b & 31)) | c))),
    v3(0x201, "v_and_or_b32", B32, B32, B32, B32, VALU_LANES(d = u32((a & b) | c))),
    v3(0x202, "v_or3_b32", B32, B32, B32, B32, VALU_LANES(d = u32(a | b | c))),
    v3(0x203, "v_mad_f16", F16, F16, F16, F16, VALU_LANES(d = H(h(a) * h(b) + h(c))), kHalf | kFpFlushAlways),
    v3(0x204, "v_mad_u16", B16, B16, B16, B16, VALU_LANES(d = (uint32_t{u16(a)} * u16(b) + u16(c)) & 0xffff), kHalf),
    v3(0x205, "v_mad_i16", I16, I16, I16, I16, VALU_LANES(d = u16(i16(a) * i16(b) + i16(c))), kHalf),
    v3(0x206, "v_fma_f16", F16, F16, F16, F16, VALU_LANES(d = H(std::fma(h(a), h(b), h(c)))), kHalf),
    v3(0x207, "v_div_fixup_f16", F16, F16, F16, F16, VALU_LANES(d = H(divFixup(h(a), h(b), h(c)))), kHalf),
    v3(0x280, "v_add_f64", F64, F64, F64, NoT, VALU_LANES(d = D(dbl(a) + dbl(b)))),
    v3(0x281, "v_mul_f64", F64, F64, F64, NoT, VALU_LANES(d = D(dbl(a) * dbl(b)))),
    v3(0x282, "v_min_f64", F64, F64, F64, NoT, VALU_LANES(d = D(std::fmin(dbl(a), dbl(b))))),
    v3(0x283, "v_max_f64", F64, F64, F64, NoT, VALU_LANES(d = D(std::fmax(dbl(a), dbl(b))))),
    v3(0x284, "v_ldexp_f64", F64, F64, I32, NoT, VALU_LANES(d = D(std::ldexp(dbl(a), i32(b))))),
    v3(0x285, "v_mul_lo_u32", B32, B32, B32, NoT, VALU_LANES(d = u32((a & 0xffffffff) * (b & 0xffffffff)))),
    v3(0x286, "v_mul_hi_u32", B32, B32, B32, NoT, VALU_LANES(d = ((a & 0xffffffff) * (b & 0xffffffff)) >> 32)),
    v3(0x287, "v_mul_hi_i32", I32, I32, I32, NoT, VALU_LANES(d = u32(U(i64(i32(a)) * i32(b)) >> 32))),
    v3(0x288, "v_ldexp_f32", F32, F32, I32, NoT, VALU_LANES(d = F(ldexpF32(f(a), i32(b))))),
    // Lane access (12.11): the lane index is taken modulo 64 from an SGPR or constant.
    v3(0x289, "v_readlane_b32", B32, B32, B32, NoT, [](ValuLanes& L) { L.scalarOut = u32(L.a[L.b[0] & 63]); }, kScalarDst | kSrc1Sgpr),
    v3(0x28a, "v_writelane_b32", B32, B32, B32, NoT, [](ValuLanes& L) {
      const int lane = static_cast<int>(L.b[0] & 63);
      L.d[lane] = L.a[0];
      L.writeMask = 1ull << lane;  // written regardless of EXEC
    }, kSrc1Sgpr),
    v3(0x28b, "v_bcnt_u32_b32", B32, B32, B32, NoT, VALU_LANES(d = u32(popcount(u32(a)) + b))),
    // Bits of the mask below this lane: lanes 0-31 (lo) and 32-63 (hi) (12.11 V_MBCNT_*).
    v3(0x28c, "v_mbcnt_lo_u32_b32", B32, B32, B32, NoT, VALU_LANES(d = u32(popcount(u32(a) & u32((1ull << i) - 1)) + b))),
    v3(0x28d, "v_mbcnt_hi_u32_b32", B32, B32, B32, NoT, VALU_LANES(d = u32(popcount(u32(a) & u32(((1ull << i) - 1) >> 32)) + b))),
    v3(0x28f, "v_lshlrev_b64", B64, B32, B64, NoT, VALU_LANES(d = b << (a & 63))),
    v3(0x290, "v_lshrrev_b64", B64, B32, B64, NoT, VALU_LANES(d = b >> (a & 63))),
    v3(0x291, "v_ashrrev_i64", I64, B32, I64, NoT, VALU_LANES(d = U(i64(b) >> (a & 63)))),
    v3(0x292, "v_trig_preop_f64", F64, F64, B32, NoT, VALU_LANES(d = D(trigPreop(a, u32(b))))),
    v3(0x293, "v_bfm_b32", B32, B32, B32, NoT, VALU_LANES(d = u32(((1ull << (a & 31)) - 1) << (b & 31)))),
    v3(0x294, "v_cvt_pknorm_i16_f32", B32, F32, F32, NoT, VALU_LANES(d = normI16(f(a)) | (uint32_t(normI16(f(b))) << 16))),
    v3(0x295, "v_cvt_pknorm_u16_f32", B32, F32, F32, NoT, VALU_LANES(d = normU16(f(a)) | (uint32_t(normU16(f(b))) << 16))),
    v3(0x296, "v_cvt_pkrtz_f16_f32", B32, F32, F32, NoT, VALU_LANES(d = f32ToF16Rtz(f(a)) | (uint32_t(f32ToF16Rtz(f(b))) << 16))),
    v3(0x297, "v_cvt_pk_u16_u32", B32, B32, B32, NoT, VALU_LANES(d = std::min(u32(a), 0xffffu) | (std::min(u32(b), 0xffffu) << 16))),
    v3(0x298, "v_cvt_pk_i16_i32", B32, I32, I32, NoT, VALU_LANES(d = u16(satI16(std::max(-32768, std::min(32767, i32(a))))) | (uint32_t(u16(satI16(std::max(-32768, std::min(32767, i32(b)))))) << 16))),
    v3(0x299, "v_cvt_pknorm_i16_f16", B32, F16, F16, NoT, VALU_LANES(d = normI16(h(a)) | (uint32_t(normI16(h(b))) << 16)), kOpselDst),
    v3(0x29a, "v_cvt_pknorm_u16_f16", B32, F16, F16, NoT, VALU_LANES(d = normU16(h(a)) | (uint32_t(normU16(h(b))) << 16)), kOpselDst),
    v3(0x29c, "v_add_i32", I32, I32, I32, NoT, VALU_LANES(const int64_t r = int64_t(i32(a)) + i32(b); d = u32(L.clamp ? satI32(r) : int32_t(r)))),
    v3(0x29d, "v_sub_i32", I32, I32, I32, NoT, VALU_LANES(const int64_t r = int64_t(i32(a)) - i32(b); d = u32(L.clamp ? satI32(r) : int32_t(r)))),
    v3(0x29e, "v_add_i16", I16, I16, I16, NoT, VALU_LANES(const int32_t r = int32_t(i16(a)) + i16(b); d = u16(L.clamp ? satI16(r) : int16_t(r))), kHalf),
    v3(0x29f, "v_sub_i16", I16, I16, I16, NoT, VALU_LANES(const int32_t r = int32_t(i16(a)) - i16(b); d = u16(L.clamp ? satI16(r) : int16_t(r))), kHalf),
    v3(0x2a0, "v_pack_b32_f16", B32, F16, F16, NoT, VALU_LANES(d = (a & 0xffff) | ((b & 0xffff) << 16)), kOpselDst | kFpBitwise),
};

}  // namespace

OpTable vop3Table() {
  return {kVop3Ops, static_cast<int>(sizeof(kVop3Ops) / sizeof(kVop3Ops[0]))};
}

}  // namespace vgpu::isa
