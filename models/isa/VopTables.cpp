// VOP2 and VOP1 opcodes (Vega ISA guide 12.7 / 12.8): one line per opcode. Each line gives
// the e32 opcode, the VOP3 (e64) opcode, operand types and the lane function.
#include "isa/Operands.h"
#include "isa/ValuMath.h"

namespace vgpu::isa {
namespace {

using namespace math;

OpInfo valu(Enc enc, int opcode, int vop3, const char* name, Ty d, Ty a, Ty b, Ty c, ValuKernel fn,
            uint32_t flags) {
  OpInfo o = valuOp(enc, execValu, opcode, name, d, a, b, c, fn, flags);
  o.vop3 = static_cast<int16_t>(vop3);
  o.exec = valuExecutor(o);
  return o;
}
// VOP2: e64 opcode is 0x100 + op (12.7).
OpInfo v2(int op, const char* n, Ty d, Ty a, Ty b, ValuKernel fn, uint32_t flags = 0) {
  return valu(Enc::Vop2, op, 0x100 + op, n, d, a, b, Ty::None, fn, flags);
}
// VOP1: e64 opcode is 0x140 + op (12.8).
OpInfo v1(int op, const char* n, Ty d, Ty a, ValuKernel fn, uint32_t flags = 0) {
  return valu(Enc::Vop1, op, 0x140 + op, n, d, a, Ty::None, Ty::None, fn, flags);
}

constexpr Ty NoT = Ty::None, B16 = Ty::B16, I16 = Ty::I16, F16 = Ty::F16, B32 = Ty::B32,
             I32 = Ty::I32, F32 = Ty::F32, F64 = Ty::F64, PkF16_T = Ty::PkF16;

// The 32-bit integer adds and subtracts compute their carry / borrow in 32 bits (r < a): written
// with a 64-bit sum, the conversion of its bit 32 to the carry keeps the lane loop from
// vectorising (SSE2). With the VOP3 clamp bit they saturate to [0, 0xffffffff].
const OpInfo kVopOps[] = {
    // ---- VOP2 (12.7) ----
    // v_cndmask takes float input modifiers (abs/neg act on the sign bit), so F32 sources.
    v2(0x00, "v_cndmask_b32", B32, F32, F32, VALU_LANES(d = cin ? b : a), kCarryIn | kFpBitwise),
    v2(0x01, "v_add_f32", F32, F32, F32, VALU_LANES(d = F(f(a) + f(b)))),
    v2(0x02, "v_sub_f32", F32, F32, F32, VALU_LANES(d = F(f(a) - f(b)))),
    v2(0x03, "v_subrev_f32", F32, F32, F32, VALU_LANES(d = F(f(b) - f(a)))),
    // Legacy multiply: 0 * anything (even inf/nan) is 0 (DX9 rules).
    v2(0x04, "v_mul_legacy_f32", F32, F32, F32, VALU_LANES(d = (f(a) == 0.0f || f(b) == 0.0f) ? 0 : F(f(a) * f(b)))),
    v2(0x05, "v_mul_f32", F32, F32, F32, VALU_LANES(d = F(f(a) * f(b)))),
    v2(0x06, "v_mul_i32_i24", I32, I32, I32, VALU_LANES(d = u32(U(i64(i32(sext24(u32(a)))) * i32(sext24(u32(b))))))),
    v2(0x07, "v_mul_hi_i32_i24", I32, I32, I32, VALU_LANES(d = u32(U(i64(i32(sext24(u32(a)))) * i32(sext24(u32(b)))) >> 32))),
    v2(0x08, "v_mul_u32_u24", B32, B32, B32, VALU_LANES(d = u32((a & 0xffffff) * (b & 0xffffff)))),
    v2(0x09, "v_mul_hi_u32_u24", B32, B32, B32, VALU_LANES(d = ((a & 0xffffff) * (b & 0xffffff)) >> 32)),
    v2(0x0a, "v_min_f32", F32, F32, F32, VALU_LANES(d = F(std::fmin(f(a), f(b))))),
    v2(0x0b, "v_max_f32", F32, F32, F32, VALU_LANES(d = F(std::fmax(f(a), f(b))))),
    v2(0x0c, "v_min_i32", I32, I32, I32, VALU_LANES(d = u32(std::min(i32(a), i32(b))))),
    v2(0x0d, "v_max_i32", I32, I32, I32, VALU_LANES(d = u32(std::max(i32(a), i32(b))))),
    v2(0x0e, "v_min_u32", B32, B32, B32, VALU_LANES(d = std::min(u32(a), u32(b)))),
    v2(0x0f, "v_max_u32", B32, B32, B32, VALU_LANES(d = std::max(u32(a), u32(b)))),
    v2(0x10, "v_lshrrev_b32", B32, B32, B32, VALU_LANES(d = u32(b) >> (a & 31))),
    v2(0x11, "v_ashrrev_i32", I32, B32, I32, VALU_LANES(d = u32(i32(b) >> (a & 31)))),
    v2(0x12, "v_lshlrev_b32", B32, B32, B32, VALU_LANES(d = u32(u32(b) << (a & 31)))),
    v2(0x13, "v_and_b32", B32, B32, B32, VALU_LANES(d = u32(a & b))),
    v2(0x14, "v_or_b32", B32, B32, B32, VALU_LANES(d = u32(a | b))),
    v2(0x15, "v_xor_b32", B32, B32, B32, VALU_LANES(d = u32(a ^ b))),
    // The mad/mac family (f32 and f16) flushes denormals whatever MODE.FP_DENORM says: LLVM only
    // selects v_mad/v_mac when denormals are flushed (SITargetLowering::isFMADLegal).
    v2(0x16, "v_mac_f32", F32, F32, F32, VALU_LANES(d = F(f(a) * f(b) + f(c))), kAccumulate | kFpFlushAlways),
    // v_madmk: D = S0 * K + S1; v_madak: D = S0 * S1 + K. The decoder places K (the literal)
    // as the second / third source so both are a plain multiply-add here.
    valu(Enc::Vop2, 0x17, -1, "v_madmk_f32", F32, F32, F32, F32, VALU_LANES(d = F(f(a) * f(b) + f(c))), kLiteralK | kNoE32Suffix | kFpFlushAlways),
    valu(Enc::Vop2, 0x18, -1, "v_madak_f32", F32, F32, F32, F32, VALU_LANES(d = F(f(a) * f(b) + f(c))), kLiteralK | kNoE32Suffix | kFpFlushAlways),
    v2(0x19, "v_add_co_u32", B32, B32, B32, VALU_LANES(const uint32_t r = u32(a) + u32(b); cc = r < u32(a); d = (L.clamp && cc) ? 0xffffffffu : r), kCarryOut | kVop3b),
    v2(0x1a, "v_sub_co_u32", B32, B32, B32, VALU_LANES(cc = u32(b) > u32(a); d = (L.clamp && cc) ? 0 : u32(a - b)), kCarryOut | kVop3b),
    v2(0x1b, "v_subrev_co_u32", B32, B32, B32, VALU_LANES(cc = u32(a) > u32(b); d = (L.clamp && cc) ? 0 : u32(b - a)), kCarryOut | kVop3b),
    v2(0x1c, "v_addc_co_u32", B32, B32, B32, VALU_LANES(const uint32_t s = u32(a) + u32(b); const uint32_t r = s + cin; cc = (s < u32(a)) | (r < s); d = r), kCarryOut | kCarryIn | kVop3b),
    v2(0x1d, "v_subb_co_u32", B32, B32, B32, VALU_LANES(const uint32_t s = u32(a) - u32(b); cc = (u32(b) > u32(a)) | (s < uint32_t{cin}); d = s - cin), kCarryOut | kCarryIn | kVop3b),
    v2(0x1e, "v_subbrev_co_u32", B32, B32, B32, VALU_LANES(const uint32_t s = u32(b) - u32(a); cc = (u32(a) > u32(b)) | (s < uint32_t{cin}); d = s - cin), kCarryOut | kCarryIn | kVop3b),
    v2(0x1f, "v_add_f16", F16, F16, F16, VALU_LANES(d = H(h(a) + h(b)))),
    v2(0x20, "v_sub_f16", F16, F16, F16, VALU_LANES(d = H(h(a) - h(b)))),
    v2(0x21, "v_subrev_f16", F16, F16, F16, VALU_LANES(d = H(h(b) - h(a)))),
    v2(0x22, "v_mul_f16", F16, F16, F16, VALU_LANES(d = H(h(a) * h(b)))),
    v2(0x23, "v_mac_f16", F16, F16, F16, VALU_LANES(d = H(h(a) * h(b) + h(c))), kAccumulate | kFpFlushAlways),
    valu(Enc::Vop2, 0x24, -1, "v_madmk_f16", F16, F16, F16, F16, VALU_LANES(d = H(h(a) * h(b) + h(c))), kLiteralK | kNoE32Suffix | kFpFlushAlways),
    valu(Enc::Vop2, 0x25, -1, "v_madak_f16", F16, F16, F16, F16, VALU_LANES(d = H(h(a) * h(b) + h(c))), kLiteralK | kNoE32Suffix | kFpFlushAlways),
    v2(0x26, "v_add_u16", B16, B16, B16, VALU_LANES(const uint32_t r = u16(a) + u16(b); d = (L.clamp && r > 0xffff) ? 0xffff : (r & 0xffff))),
    v2(0x27, "v_sub_u16", B16, B16, B16, VALU_LANES(d = (L.clamp && u16(b) > u16(a)) ? 0 : ((a - b) & 0xffff))),
    v2(0x28, "v_subrev_u16", B16, B16, B16, VALU_LANES(d = (L.clamp && u16(a) > u16(b)) ? 0 : ((b - a) & 0xffff))),
    v2(0x29, "v_mul_lo_u16", B16, B16, B16, VALU_LANES(d = (a * b) & 0xffff)),
    v2(0x2a, "v_lshlrev_b16", B16, B16, B16, VALU_LANES(d = (b << (a & 15)) & 0xffff)),
    v2(0x2b, "v_lshrrev_b16", B16, B16, B16, VALU_LANES(d = u16(b) >> (a & 15))),
    v2(0x2c, "v_ashrrev_i16", I16, B16, I16, VALU_LANES(d = u16(i16(b) >> (a & 15)))),
    v2(0x2d, "v_max_f16", F16, F16, F16, VALU_LANES(d = H(std::fmax(h(a), h(b))))),
    v2(0x2e, "v_min_f16", F16, F16, F16, VALU_LANES(d = H(std::fmin(h(a), h(b))))),
    v2(0x2f, "v_max_u16", B16, B16, B16, VALU_LANES(d = std::max(u16(a), u16(b)))),
    v2(0x30, "v_max_i16", I16, I16, I16, VALU_LANES(d = u16(std::max(i16(a), i16(b))))),
    v2(0x31, "v_min_u16", B16, B16, B16, VALU_LANES(d = std::min(u16(a), u16(b)))),
    v2(0x32, "v_min_i16", I16, I16, I16, VALU_LANES(d = u16(std::min(i16(a), i16(b))))),
    v2(0x33, "v_ldexp_f16", F16, F16, I16, VALU_LANES(d = H(std::ldexp(h(a), std::max(-64, std::min(64, int(i16(b)))))))),
    v2(0x34, "v_add_u32", B32, B32, B32, VALU_LANES(const uint32_t r = u32(a) + u32(b); d = (L.clamp && r < u32(a)) ? 0xffffffffu : r)),
    v2(0x35, "v_sub_u32", B32, B32, B32, VALU_LANES(d = (L.clamp && u32(b) > u32(a)) ? 0u : u32(a - b))),
    v2(0x36, "v_subrev_u32", B32, B32, B32, VALU_LANES(d = (L.clamp && u32(a) > u32(b)) ? 0u : u32(b - a))),
    // gfx906 (deep-learning extensions).
    v2(0x3b, "v_fmac_f32", F32, F32, F32, VALU_LANES(d = F(std::fma(f(a), f(b), f(c)))), kAccumulate | kGfx906Only),
    v2(0x3c, "v_pk_fmac_f16", PkF16_T, PkF16_T, PkF16_T, VALU_LANES(d = H(std::fma(h(a), h(b), h(c))) | (H(std::fma(h(a >> 16), h(b >> 16), h(c >> 16))) << 16)), kAccumulate | kGfx906Only),
    v2(0x3d, "v_xnor_b32", B32, B32, B32, VALU_LANES(d = u32(~(a ^ b))), kGfx906Only),

    // ---- VOP1 (12.8) ----
    valu(Enc::Vop1, 0x00, 0x140, "v_nop", NoT, NoT, NoT, NoT, VALU_LANES((void)0), kNoOperands | kNoE32Suffix),
    v1(0x01, "v_mov_b32", B32, B32, VALU_LANES(d = u32(a))),
    // First active lane's value to an SGPR (lane 0 if EXEC is zero).
    valu(Enc::Vop1, 0x02, -1, "v_readfirstlane_b32", B32, B32, NoT, NoT, [](ValuLanes& L) {
      const int lane = L.exec ? __builtin_ctzll(L.exec) : 0;
      L.scalarOut = u32(L.a[lane]);
    }, kScalarDst | kNoE32Suffix),
    v1(0x03, "v_cvt_i32_f64", I32, F64, VALU_LANES(d = u32(cvtSat<int32_t>(dbl(a))))),
    v1(0x04, "v_cvt_f64_i32", F64, I32, VALU_LANES(d = D(double(i32(a))))),
    v1(0x05, "v_cvt_f32_i32", F32, I32, VALU_LANES(d = F(float(i32(a))))),
    v1(0x06, "v_cvt_f32_u32", F32, B32, VALU_LANES(d = F(float(u32(a))))),
    v1(0x07, "v_cvt_u32_f32", B32, F32, VALU_LANES(d = cvtSat<uint32_t>(f(a)))),
    v1(0x08, "v_cvt_i32_f32", I32, F32, VALU_LANES(d = u32(cvtSat<int32_t>(f(a))))),
    v1(0x0a, "v_cvt_f16_f32", F16, F32, VALU_LANES(d = H(f(a)))),
    v1(0x0b, "v_cvt_f32_f16", F32, F16, VALU_LANES(d = F(h(a)))),
    // floor(x + 0.5) in double: exact, so no tie of the f32 addition rounds it up.
    v1(0x0c, "v_cvt_rpi_i32_f32", I32, F32, VALU_LANES(d = u32(cvtSat<int32_t>(std::floor(double(f(a)) + 0.5))))),
    v1(0x0d, "v_cvt_flr_i32_f32", I32, F32, VALU_LANES(d = u32(cvtSat<int32_t>(std::floor(f(a)))))),
    v1(0x0e, "v_cvt_off_f32_i4", F32, B32, VALU_LANES(d = F(float(i32(sext(a & 0xf, 4))) / 16.0f))),
    v1(0x0f, "v_cvt_f32_f64", F32, F64, VALU_LANES(d = F(float(dbl(a))))),
    v1(0x10, "v_cvt_f64_f32", F64, F32, VALU_LANES(d = D(double(f(a))))),
    v1(0x11, "v_cvt_f32_ubyte0", F32, B32, VALU_LANES(d = F(float(a & 0xff)))),
    v1(0x12, "v_cvt_f32_ubyte1", F32, B32, VALU_LANES(d = F(float((a >> 8) & 0xff)))),
    v1(0x13, "v_cvt_f32_ubyte2", F32, B32, VALU_LANES(d = F(float((a >> 16) & 0xff)))),
    v1(0x14, "v_cvt_f32_ubyte3", F32, B32, VALU_LANES(d = F(float((a >> 24) & 0xff)))),
    v1(0x15, "v_cvt_u32_f64", B32, F64, VALU_LANES(d = cvtSat<uint32_t>(dbl(a)))),
    v1(0x16, "v_cvt_f64_u32", F64, B32, VALU_LANES(d = D(double(u32(a))))),
    v1(0x17, "v_trunc_f64", F64, F64, VALU_LANES(d = D(std::trunc(dbl(a))))),
    v1(0x18, "v_ceil_f64", F64, F64, VALU_LANES(d = D(std::ceil(dbl(a))))),
    v1(0x19, "v_rndne_f64", F64, F64, VALU_LANES(d = D(roundEven(dbl(a))))),
    v1(0x1a, "v_floor_f64", F64, F64, VALU_LANES(d = D(std::floor(dbl(a))))),
    v1(0x1b, "v_fract_f32", F32, F32, VALU_LANES(d = F(fract(f(a))))),
    v1(0x1c, "v_trunc_f32", F32, F32, VALU_LANES(d = F(std::trunc(f(a))))),
    v1(0x1d, "v_ceil_f32", F32, F32, VALU_LANES(d = F(std::ceil(f(a))))),
    v1(0x1e, "v_rndne_f32", F32, F32, VALU_LANES(d = F(roundEven(f(a))))),
    v1(0x1f, "v_floor_f32", F32, F32, VALU_LANES(d = F(std::floor(f(a))))),
    // The f32 transcendentals flush denormal sources and results whatever the mode (LLVM: "v_rcp_f32
    // and v_rsq_f32 do not support denormals"; AMDGPUUsage llvm.log2/llvm.exp2: the f32
    // instructions do not support denormal inputs / results). The f16 and f64 ones follow MODE.
    v1(0x20, "v_exp_f32", F32, F32, VALU_LANES(d = F(std::exp2(f(a)))), kFpFlushAlways),
    v1(0x21, "v_log_f32", F32, F32, VALU_LANES(d = F(std::log2(f(a)))), kFpFlushAlways),
    v1(0x22, "v_rcp_f32", F32, F32, VALU_LANES(d = F(1.0f / f(a))), kFpFlushAlways),
    v1(0x23, "v_rcp_iflag_f32", F32, F32, VALU_LANES(d = F(1.0f / f(a))), kFpFlushAlways),
    v1(0x24, "v_rsq_f32", F32, F32, VALU_LANES(d = F(1.0f / std::sqrt(f(a)))), kFpFlushAlways),
    v1(0x25, "v_rcp_f64", F64, F64, VALU_LANES(d = D(1.0 / dbl(a)))),
    v1(0x26, "v_rsq_f64", F64, F64, VALU_LANES(d = D(1.0 / std::sqrt(dbl(a))))),
    v1(0x27, "v_sqrt_f32", F32, F32, VALU_LANES(d = F(std::sqrt(f(a)))), kFpFlushAlways),
    v1(0x28, "v_sqrt_f64", F64, F64, VALU_LANES(d = D(std::sqrt(dbl(a))))),
    // Trigonometric inputs are in revolutions: sin(x * 2 * pi) (12.8 V_SIN_F32).
    v1(0x29, "v_sin_f32", F32, F32, VALU_LANES(d = F(float(std::sin(double(f(a)) * 2.0 * M_PI)))), kFpFlushAlways),
    v1(0x2a, "v_cos_f32", F32, F32, VALU_LANES(d = F(float(std::cos(double(f(a)) * 2.0 * M_PI)))), kFpFlushAlways),
    v1(0x2b, "v_not_b32", B32, B32, VALU_LANES(d = u32(~a))),
    v1(0x2c, "v_bfrev_b32", B32, B32, VALU_LANES(uint32_t r = 0; for (int k = 0; k < 32; ++k) r |= ((u32(a) >> k) & 1u) << (31 - k); d = r)),
    v1(0x2d, "v_ffbh_u32", B32, B32, VALU_LANES(d = ffbh(u32(a)))),
    v1(0x2e, "v_ffbl_b32", B32, B32, VALU_LANES(d = ffbl(u32(a)))),
    v1(0x2f, "v_ffbh_i32", B32, I32, VALU_LANES(d = ffbhSigned(u32(a)))),
    v1(0x30, "v_frexp_exp_i32_f64", I32, F64, VALU_LANES(d = u32(frexpExp(dbl(a))))),
    v1(0x31, "v_frexp_mant_f64", F64, F64, VALU_LANES(d = D(frexpMant(dbl(a))))),
    v1(0x32, "v_fract_f64", F64, F64, VALU_LANES(d = D(fract(dbl(a))))),
    v1(0x33, "v_frexp_exp_i32_f32", I32, F32, VALU_LANES(d = u32(frexpExp(f(a))))),
    v1(0x34, "v_frexp_mant_f32", F32, F32, VALU_LANES(d = F(frexpMant(f(a))))),
    valu(Enc::Vop1, 0x35, 0x175, "v_clrexcp", NoT, NoT, NoT, NoT, VALU_LANES((void)0), kNoOperands | kNoE32Suffix),
    // Rasterizer screen-partition lookup: graphics-only, decoded and printed, not executed.
    valu(Enc::Vop1, 0x37, 0x177, "v_screen_partition_4se_b32", B32, B32, NoT, NoT, nullptr, kGraphics),
    v1(0x39, "v_cvt_f16_u16", F16, B16, VALU_LANES(d = H(float(u16(a))))),
    v1(0x3a, "v_cvt_f16_i16", F16, I16, VALU_LANES(d = H(float(i16(a))))),
    v1(0x3b, "v_cvt_u16_f16", B16, F16, VALU_LANES(d = cvtSat<uint16_t>(h(a)))),
    v1(0x3c, "v_cvt_i16_f16", I16, F16, VALU_LANES(d = u16(cvtSat<int16_t>(h(a))))),
    v1(0x3d, "v_rcp_f16", F16, F16, VALU_LANES(d = H(1.0f / h(a)))),
    v1(0x3e, "v_sqrt_f16", F16, F16, VALU_LANES(d = H(std::sqrt(h(a))))),
    v1(0x3f, "v_rsq_f16", F16, F16, VALU_LANES(d = H(1.0f / std::sqrt(h(a))))),
    v1(0x40, "v_log_f16", F16, F16, VALU_LANES(d = H(std::log2(h(a))))),
    v1(0x41, "v_exp_f16", F16, F16, VALU_LANES(d = H(std::exp2(h(a))))),
    v1(0x42, "v_frexp_mant_f16", F16, F16, VALU_LANES(d = H(frexpMant(h(a))))),
    v1(0x43, "v_frexp_exp_i16_f16", I16, F16, VALU_LANES(d = u16(frexpExp(h(a))))),
    v1(0x44, "v_floor_f16", F16, F16, VALU_LANES(d = H(std::floor(h(a))))),
    v1(0x45, "v_ceil_f16", F16, F16, VALU_LANES(d = H(std::ceil(h(a))))),
    v1(0x46, "v_trunc_f16", F16, F16, VALU_LANES(d = H(std::trunc(h(a))))),
    v1(0x47, "v_rndne_f16", F16, F16, VALU_LANES(d = H(roundEven(h(a))))),
    v1(0x48, "v_fract_f16", F16, F16, VALU_LANES(d = H(fract(h(a))))),
    v1(0x49, "v_sin_f16", F16, F16, VALU_LANES(d = H(float(std::sin(double(h(a)) * 2.0 * M_PI))))),
    v1(0x4a, "v_cos_f16", F16, F16, VALU_LANES(d = H(float(std::cos(double(h(a)) * 2.0 * M_PI))))),
    v1(0x4b, "v_exp_legacy_f32", F32, F32, VALU_LANES(d = F(std::exp2(f(a)))), kFpFlushAlways),
    v1(0x4c, "v_log_legacy_f32", F32, F32, VALU_LANES(d = F(std::log2(f(a)))), kFpFlushAlways),
    v1(0x4d, "v_cvt_norm_i16_f16", I16, F16, VALU_LANES(d = u16(cvtSat<int16_t>(std::nearbyint(std::fmax(-1.0f, std::fmin(1.0f, h(a))) * 32767.0f))))),
    v1(0x4e, "v_cvt_norm_u16_f16", B16, F16, VALU_LANES(d = cvtSat<uint16_t>(std::nearbyint(std::fmax(0.0f, std::fmin(1.0f, h(a))) * 65535.0f)))),
    v1(0x4f, "v_sat_pk_u8_i16", B16, B32, VALU_LANES(d = satU8(i16(a)) | (satU8(i16(a >> 16)) << 8))),
    // v_swap_b32 exchanges two VGPRs; it writes both itself.
    valu(Enc::Vop1, 0x51, -1, "v_swap_b32", B32, B32, NoT, NoT, [](ValuLanes& L) {
      // Both operands must be VGPRs the wave owns (src0 could encode an SGPR or a constant).
      const int dstReg = L.in->f[fld::kDst] - opnd::kVgpr0;
      const int srcReg = L.in->f[fld::kSrc0] - opnd::kVgpr0;
      if (dstReg < 0 || srcReg < 0 || !vgprInRange(*L.w, dstReg, 1) ||
          !vgprInRange(*L.w, srcReg, 1)) {
        L.fault = "v_swap_b32 needs two VGPRs inside the wave's allocation";
        return;
      }
      uint32_t* dst = L.w->v(dstReg);
      uint32_t* src = L.w->v(srcReg);
      for (int i = 0; i < kWaveSize; ++i) {
        if ((L.exec >> i) & 1) {
          const uint32_t t = dst[i];
          dst[i] = src[i];
          src[i] = t;
        }
      }
      L.writeMask = 0;
    }, kNoE32Suffix),
};

}  // namespace

OpTable valuTable() {
  return {kVopOps, static_cast<int>(sizeof(kVopOps) / sizeof(kVopOps[0]))};
}

}  // namespace vgpu::isa
