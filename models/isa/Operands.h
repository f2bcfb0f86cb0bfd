// Operand access written once for every encoding: the scalar operand space (SGPRs, special
// registers, inline constants, literals), VGPR lanes, and the float conversions that
// modifiers and 16-bit operations need.
#pragma once

#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "isa/OpInfo.h"

namespace vgpu::isa {

// --- bit casts and half precision --------------------------------------------------------
inline float asF32(uint64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t bitsF32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline double asF64(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
inline uint64_t bitsF64(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
float f16ToF32(uint16_t h);
// f32 -> f16 in the round mode of f16RoundMode (MODE.FP_ROUND encoding: 0 nearest even,
// 1 toward +inf, 2 toward -inf, 3 toward zero). The VALU sets it (fpmode::HostRounding) around
// an instruction whose MODE asks for a directed rounding, together with the host's rounding
// mode; everywhere else it is 0. Per thread, like the host's floating-point environment.
extern thread_local uint8_t f16RoundMode;
uint16_t f32ToF16(float f);
uint16_t f32ToF16Rtz(float f);                          // toward zero whatever the mode
uint16_t f32ToF16Rounded(float f, unsigned roundMode);  // an explicit round mode
inline float asF16(uint64_t bits) {
  return f16ToF32(static_cast<uint16_t>(bits));
}
inline uint64_t bitsF16(float f) {
  return f32ToF16(f);
}

inline uint64_t sext(uint64_t v, int bits) {
  const int s = 64 - bits;
  return static_cast<uint64_t>(static_cast<int64_t>(v << s) >> s);
}
// Bits set in `v`. Written out (SWAR) rather than __builtin_popcountll, which without
// -mpopcnt (the portable x86-64 baseline the build targets) is a call into libgcc.
inline int bitCount(uint64_t v) {
#if defined(__SSE2__)
  // The same steps on an SSE register, the final byte sum by psadbw (no 64-bit multiply).
  const __m128i x = _mm_cvtsi64_si128(static_cast<long long>(v));
  __m128i y = _mm_sub_epi64(x, _mm_and_si128(_mm_srli_epi64(x, 1), _mm_set1_epi8(0x55)));
  y = _mm_add_epi64(_mm_and_si128(y, _mm_set1_epi8(0x33)),
                    _mm_and_si128(_mm_srli_epi64(y, 2), _mm_set1_epi8(0x33)));
  y = _mm_and_si128(_mm_add_epi64(y, _mm_srli_epi64(y, 4)), _mm_set1_epi8(0x0f));
  return _mm_cvtsi128_si32(_mm_sad_epu8(y, _mm_setzero_si128()));
#else
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((v * 0x0101010101010101ull) >> 56);
#endif
}
inline uint64_t widthMask(int bits) {
  return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

// The lane loops that gain most from wider vectors (the VALU's loops over every lane, the
// memory paths' address checks) come in a second build for AVX2 and FMA on x86-64 hosts that
// have both, chosen at run time: lanesAvx2() says whether to run them (the host has both, asked
// once, unless setLanesAvx2(false) said otherwise: the tests run both builds).
#if defined(__x86_64__) && defined(__GNUC__)
#define VGPU_LANES_AVX2 1
#else
#define VGPU_LANES_AVX2 0
#endif
extern bool gLanesAvx2;
inline bool lanesAvx2() {
  return gLanesAvx2;
}
void setLanesAvx2(bool on);  // on: only if the host has AVX2 and FMA

// A whole wave's dwords (256 bytes) from one place to another (VGPRs, memory, buffers), as
// moves: a memcpy of this size compiles to `rep movs`, slow to start.
inline void copyWaveDwords(void* to, const void* from) {
#if defined(__SSE2__)
#pragma GCC unroll 16
  for (int i = 0; i < kWaveSize / 4; ++i)
    _mm_storeu_si128(static_cast<__m128i*>(to) + i,
                     _mm_loadu_si128(static_cast<const __m128i*>(from) + i));
#else
  std::memcpy(to, from, 4 * kWaveSize);
#endif
}

// MODE.GPR_IDX_EN (s_set_gpr_idx_on / _off): VGPR indexing through M0 is active.
constexpr uint32_t kModeGprIdxEnable = 1u << 27;

// --- scalar operand space ----------------------------------------------------------------
// Value of an inline constant code (128..248) for an operand of type `ty` (Vega ISA guide
// 12.3.1 "Inline constants": float constants use the operand's precision).
uint64_t inlineConstant(int code, Ty ty);
bool isInlineConstant(int code);

// Reads scalar operand `code` (0..255) as `ty` (64-bit types read a register pair).
uint64_t readScalarAny(const Instruction& in, const WaveState& w, const ExecContext& ctx, int code,
                       Ty ty);
inline uint64_t readScalar(const Instruction& in, const WaveState& w, const ExecContext& ctx,
                           int code, Ty ty) {
  // The common cases inline: SGPRs (a pair inside s0..s101 for 64-bit types; 16-bit types
  // other than packed keep the low half) and the non-negative integer constants 0..64, which
  // read the same at every width.
  if (code + 1 < kNumSgprs) {
    if (is64(ty)) return w.sgpr[code] | (static_cast<uint64_t>(w.sgpr[code + 1]) << 32);
    if (!is16(ty) || ty == Ty::Pk16 || ty == Ty::PkF16) return w.sgpr[code];
  }
  if (code >= opnd::kZero && code <= opnd::kIntPosMax)
    return static_cast<uint64_t>(code - opnd::kZero);
  if (is64(ty) && code == opnd::kVccLo) return w.vcc;
  if (is64(ty) && code == opnd::kExecLo) return w.exec;
  return readScalarAny(in, w, ctx, code, ty);
}
// Writes `dwords` (1 or 2) dwords to scalar destination `code`.
void writeScalarAny(WaveState& w, int code, int dwords, uint64_t value);
inline void writeScalar(WaveState& w, int code, int dwords, uint64_t value) {
  // The common cases inline: SGPRs, and VCC or EXEC as a pair.
  if (code + dwords <= kNumSgprs) {
    w.sgpr[code] = static_cast<uint32_t>(value);
    if (dwords > 1) w.sgpr[code + 1] = static_cast<uint32_t>(value >> 32);
  } else if (code == opnd::kVccLo && dwords == 2) {
    w.vcc = value;
  } else if (code == opnd::kExecLo && dwords == 2) {
    w.exec = value;
  } else {
    writeScalarAny(w, code, dwords, value);
  }
}
// Writes `count` consecutive SGPR dwords starting at `code` (SMEM, readlane ...).
void writeScalarDword(WaveState& w, int code, uint32_t value);
uint32_t readScalarDword(const WaveState& w, const ExecContext& ctx, int code);

// Reads operand `code` (0..511) for all 64 lanes into `out` (low bits, zero-extended).
void readLanes(const Instruction& in, const WaveState& w, const ExecContext& ctx, int code, Ty ty,
               uint64_t* out);

// Checks that a VGPR range is allocated.
inline bool vgprInRange(const WaveState& w, int reg, int count) {
  return reg >= 0 && static_cast<uint32_t>(reg + count) <= w.numVgprs;
}

}  // namespace vgpu::isa
