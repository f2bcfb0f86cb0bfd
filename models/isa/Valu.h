// What a VALU table entry's lane function sees (Vop.cpp runs it). Sources arrive with input
// modifiers applied (abs/neg, SDWA select, DPP permutation, op_sel half); the executor applies
// output modifiers (omod, clamp), SDWA/op_sel destination placement and EXEC masking.
#pragma once

#include <cmath>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/Operands.h"

namespace vgpu::isa {

// What a lane body may read besides its operands (the wave, the instruction, the clamp bit),
// and the carry bytes of the loops over every lane.
struct ValuLaneState {
  uint8_t cin[kWaveSize];  // carry / condition in (vcc or src2 mask)
  uint8_t cc[kWaveSize];   // carry / compare result out
  uint64_t exec = 0;       // lanes enabled (EXEC, DPP masks)
  uint64_t writeMask = 0;  // lanes whose destination is written (default: exec)
  uint64_t scalarOut = 0;  // kScalarDst ops: the SGPR result
  bool clamp = false;      // integer ops saturate when set
  uint32_t opsel = 0;      // raw op_sel field (VOP3P mix ops read it)
  WaveState* w = nullptr;
  const Instruction* in = nullptr;
  const ExecContext* ctx = nullptr;
  const char* fault = nullptr;
};

// The general form's operands: every source widened to 64-bit lanes, and the result.
struct ValuLanes : ValuLaneState {
  alignas(64) uint64_t a[kWaveSize];
  alignas(64) uint64_t b[kWaveSize];
  alignas(64) uint64_t c[kWaveSize];
  alignas(64) uint64_t d[kWaveSize];
};

// Sources of the in-place forms, as dword arrays of 64 lanes: the low dword of each source
// (a VGPR, or a broadcast scalar) and its high dword (the pair's second VGPR, the high half of
// a broadcast 64-bit scalar, or zeros for a 32-bit source).
struct ValuOperands {
  const uint32_t* lo[3];
  const uint32_t* hi[3];
};

// The lane body run over operands read in place (Vop.cpp's fast path for ops without
// modifiers), over just the lanes set in `lanes`: each lane's result goes straight to
// `dlo`/`dhi` (the destination VGPRs); returns the carry/compare-out mask; `carryIn` is the
// carry-in mask. sparse32 reads only the low dwords and writes only `dlo`; sparse64 reads the
// sources as dword pairs and writes both.
using ValuSparseFn = uint64_t (*)(ValuLaneState& L, const ValuOperands& s, uint32_t* dlo,
                                  uint32_t* dhi, uint64_t lanes, uint64_t carryIn);
// The lane body over all 64 lanes at once, in loops the compiler vectorises: 32-bit operands
// (full32) or dword pairs (full64), every lane's result into `dlo` (and `dhi`), which must be
// none of the sources (the caller passes buffers otherwise). With `UniformA` the first source
// is the scalar `a0` in every lane, not read from s.lo[0] / s.hi[0]: the compiler sees that it
// is uniform (a shift by it vectorises; a broadcast array is not filled). The carry-in comes
// from L.cin's bytes; returns the carry/compare-out mask of all 64 lanes when `wantCc` (else
// 0).
using ValuFullFn = uint64_t (*)(ValuLaneState& L, const ValuOperands& s, uint64_t a0, uint32_t* dlo,
                                uint32_t* dhi, bool wantCc);
// A compare over every lane with its sources as dword pairs, the results into L.cc.
using ValuCompareFn = void (*)(ValuLaneState& L, const ValuOperands& s);
struct ValuLaneForms {
  ValuSparseFn sparse32;
  ValuSparseFn sparse64;
  // 64-bit integer compares only (VopCompare.cpp; nullptr else): over every lane on 32-bit
  // halves, which vectorises and beats the lane-by-lane loop once more than a few lanes are on.
  ValuCompareFn compare64;
  ValuFullFn full32[2][2];  // [compiled for AVX2 and FMA][UniformA]
  ValuFullFn full64[2][2];
};

// Lanes whose dword is not zero, as a mask (the carry/compare bytes of the full loops): 16
// lanes per pack and byte-mask with SSE2.
inline uint64_t laneMask32(const uint32_t* v) {
#if defined(__SSE2__)
  uint64_t m = 0;
  const __m128i zero = _mm_setzero_si128();
  for (int k = 0; k < kWaveSize / 16; ++k) {
    const auto* p = reinterpret_cast<const __m128i*>(v + 16 * k);
    const __m128i lo = _mm_packs_epi32(_mm_load_si128(p), _mm_load_si128(p + 1));
    const __m128i hi = _mm_packs_epi32(_mm_load_si128(p + 2), _mm_load_si128(p + 3));
    const __m128i set =
        _mm_xor_si128(_mm_cmpeq_epi8(_mm_packs_epi16(lo, hi), zero), _mm_cmpeq_epi8(zero, zero));
    m |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(set))) << (16 * k);
  }
  return m;
#else
  uint64_t m = 0;
  for (int i = 0; i < kWaveSize; ++i) m |= static_cast<uint64_t>(v[i] != 0) << i;
  return m;
#endif
}

// The loops a lane body is instantiated in. `Lane::run(L, i, a, b, c, cin, d, cc)` is one
// lane: a, b, c the source bits zero-extended to 64 bits, cin the carry in; it sets d (result
// bits, 0 on entry) and cc (carry / compare out, false on entry).
namespace lanes {

// Over the 64-bit lane arrays of ValuLanes: every form and width (the general path).
template <class Lane>
void wide(ValuLanes& L) {
  for (int i = 0; i < kWaveSize; ++i) {
    uint64_t d = 0;
    bool cc = false;
    Lane::run(L, i, L.a[i], L.b[i], L.c[i], L.cin[i] != 0, d, cc);
    L.d[i] = d;
    L.cc[i] = cc;
  }
}

// Every lane, 32-bit operands read in place (ValuFullFn). The carry bytes go to a local array
// first: stored through L they might alias L's other fields (L.clamp ...), which the body would
// then reload in every lane, and the loop would not vectorise. Dwords, not bytes, so that the
// loop needs no narrowing (SSE2).
template <class Lane, bool UniformA>
__attribute__((always_inline)) inline uint64_t full32Loop(ValuLaneState& L, const ValuOperands& s,
                                                          uint64_t a0, uint32_t* dlo, bool wantCc) {
  const uint32_t* __restrict A = s.lo[0];
  const uint32_t* __restrict B = s.lo[1];
  const uint32_t* __restrict C = s.lo[2];
  uint32_t* __restrict D = dlo;
  const uint8_t* __restrict cinIn = L.cin;
  const auto uniformA = static_cast<uint32_t>(a0);
  alignas(32) uint32_t ccOut[kWaveSize];
  // The in-place forms run only for ops without modifiers: the clamp is off. Said here so the
  // compiler drops the saturation of the integer bodies from the loop.
  if (L.clamp) __builtin_unreachable();
  for (int i = 0; i < kWaveSize; ++i) {
    uint64_t d = 0;
    bool cc = false;
    Lane::run(L, i, UniformA ? uniformA : A[i], B[i], C[i], cinIn[i] != 0, d, cc);
    D[i] = static_cast<uint32_t>(d);
    ccOut[i] = cc ? ~0u : 0u;
  }
  return wantCc ? laneMask32(ccOut) : 0;
}

// Every lane, sources as dword pairs (ValuFullFn).
template <class Lane, bool UniformA>
__attribute__((always_inline)) inline uint64_t full64Loop(ValuLaneState& L, const ValuOperands& s,
                                                          uint64_t a0, uint32_t* dlo, uint32_t* dhi,
                                                          bool wantCc) {
  const uint32_t* __restrict A0 = s.lo[0];
  const uint32_t* __restrict A1 = s.hi[0];
  const uint32_t* __restrict B0 = s.lo[1];
  const uint32_t* __restrict B1 = s.hi[1];
  const uint32_t* __restrict C0 = s.lo[2];
  const uint32_t* __restrict C1 = s.hi[2];
  uint32_t* __restrict D0 = dlo;
  uint32_t* __restrict D1 = dhi;
  const uint8_t* __restrict cinIn = L.cin;
  alignas(32) uint32_t ccOut[kWaveSize];
  if (L.clamp) __builtin_unreachable();  // as in full32Loop
  for (int i = 0; i < kWaveSize; ++i) {
    const uint64_t a = UniformA ? a0 : (A0[i] | static_cast<uint64_t>(A1[i]) << 32);
    const uint64_t b = B0[i] | static_cast<uint64_t>(B1[i]) << 32;
    const uint64_t c = C0[i] | static_cast<uint64_t>(C1[i]) << 32;
    uint64_t d = 0;
    bool cc = false;
    Lane::run(L, i, a, b, c, cinIn[i] != 0, d, cc);
    D0[i] = static_cast<uint32_t>(d);
    D1[i] = static_cast<uint32_t>(d >> 32);
    ccOut[i] = cc ? ~0u : 0u;
  }
  return wantCc ? laneMask32(ccOut) : 0;
}

template <class Lane, bool UniformA>
uint64_t full32(ValuLaneState& L, const ValuOperands& s, uint64_t a0, uint32_t* dlo, uint32_t*,
                bool wantCc) {
  return full32Loop<Lane, UniformA>(L, s, a0, dlo, wantCc);
}
template <class Lane, bool UniformA>
uint64_t full64(ValuLaneState& L, const ValuOperands& s, uint64_t a0, uint32_t* dlo, uint32_t* dhi,
                bool wantCc) {
  return full64Loop<Lane, UniformA>(L, s, a0, dlo, dhi, wantCc);
}

#if VGPU_LANES_AVX2
// The same loops compiled for AVX2 and FMA (lanesAvx2()): eight lanes per operation, shifts by
// per-lane counts and fused multiply-adds as single instructions. The results are the same:
// the same IEEE operations in the same rounding mode (MXCSR), no contraction of a * b + c into
// one rounding (ISO C++ mode), and std::fma is correctly rounded either way.
template <class Lane, bool UniformA>
__attribute__((target("avx2,fma"))) uint64_t full32Avx2(ValuLaneState& L, const ValuOperands& s,
                                                        uint64_t a0, uint32_t* dlo, uint32_t*,
                                                        bool wantCc) {
  return full32Loop<Lane, UniformA>(L, s, a0, dlo, wantCc);
}
template <class Lane, bool UniformA>
__attribute__((target("avx2,fma"))) uint64_t full64Avx2(ValuLaneState& L, const ValuOperands& s,
                                                        uint64_t a0, uint32_t* dlo, uint32_t* dhi,
                                                        bool wantCc) {
  return full64Loop<Lane, UniformA>(L, s, a0, dlo, dhi, wantCc);
}
#endif

// Only the lanes set in `active`, one at a time, results straight to the destination (none for
// a compare: `Result` false). The destination may be a source: each lane reads its sources
// before writing, and no lane reads another's (so no __restrict here).
template <class Lane, bool Wide, bool Result>
uint64_t sparse(ValuLaneState& L, const ValuOperands& s, uint32_t* dlo, uint32_t* dhi,
                uint64_t active, uint64_t carryIn) {
  const uint32_t *a0 = s.lo[0], *b0 = s.lo[1], *c0 = s.lo[2];
  const uint32_t *a1 = s.hi[0], *b1 = s.hi[1], *c1 = s.hi[2];
  uint64_t ccMask = 0;
  if (L.clamp) __builtin_unreachable();  // as in full32
  for (; active != 0; active &= active - 1) {
    const auto i = static_cast<uint64_t>(__builtin_ctzll(active));
    uint64_t a = a0[i], b = b0[i], c = c0[i];
    if constexpr (Wide) {
      a |= static_cast<uint64_t>(a1[i]) << 32;
      b |= static_cast<uint64_t>(b1[i]) << 32;
      c |= static_cast<uint64_t>(c1[i]) << 32;
    }
    uint64_t d = 0;
    bool cc = false;
    Lane::run(L, static_cast<int>(i), a, b, c, (carryIn >> i) & 1, d, cc);
    if constexpr (Result) {
      dlo[i] = static_cast<uint32_t>(d);
      if constexpr (Wide) dhi[i] = static_cast<uint32_t>(d >> 32);
    }
    ccMask |= static_cast<uint64_t>(cc) << i;
  }
  return ccMask;
}

// The in-place forms of a lane body; `compare64` as ValuLaneForms says.
template <class Lane, bool Result>
constexpr ValuLaneForms formsOf(ValuCompareFn compare64 = nullptr) {
#if VGPU_LANES_AVX2
  return ValuLaneForms{&sparse<Lane, false, Result>,
                       &sparse<Lane, true, Result>,
                       compare64,
                       {{&full32<Lane, false>, &full32<Lane, true>},
                        {&full32Avx2<Lane, false>, &full32Avx2<Lane, true>}},
                       {{&full64<Lane, false>, &full64<Lane, true>},
                        {&full64Avx2<Lane, false>, &full64Avx2<Lane, true>}}};
#else
  return ValuLaneForms{
      &sparse<Lane, false, Result>,
      &sparse<Lane, true, Result>,
      compare64,
      {{&full32<Lane, false>, &full32<Lane, true>}, {&full32<Lane, false>, &full32<Lane, true>}},
      {{&full64<Lane, false>, &full64<Lane, true>}, {&full64<Lane, false>, &full64<Lane, true>}}};
#endif
}
template <class Lane, bool Result>
inline constexpr ValuLaneForms kForms = formsOf<Lane, Result>();

}  // namespace lanes

// Every form of a lane body (OpInfo.h ValuKernel); `Result` false for a compare (its result is
// the compare mask alone).
template <class Lane, bool Result = true>
ValuKernel valuKernel() {
  return ValuKernel(&lanes::wide<Lane>, &lanes::kForms<Lane, Result>);
}

// The executor of a VALU table line (OpInfo::exec): for an op with in-place forms, Vop.cpp's
// fast path instantiated for its operand shape (falling back to the general path); else
// op.exec as it is. The VALU tables set it once the line is complete.
ExecFn valuExecutor(const OpInfo& op);

// A VALU table line's lane function, written once as the body of one lane. In the body:
// a, b, c: source bits (zero-extended to 64 bits); d: result bits; cc: carry/compare out;
// cin: carry in; i: lane; L: the ValuLaneState (clamp, the wave). The body is instantiated in
// every loop of `lanes` above; each sees the same values, so the body means the same in all.
#define VALU_LANES(...)                                                                 \
  ([] {                                                                                 \
    struct Lane {                                                                       \
      __attribute__((always_inline)) static inline void run(                            \
          [[maybe_unused]] ::vgpu::isa::ValuLaneState& L, [[maybe_unused]] const int i, \
          [[maybe_unused]] const uint64_t a, [[maybe_unused]] const uint64_t b,         \
          [[maybe_unused]] const uint64_t c, [[maybe_unused]] const bool cin,           \
          [[maybe_unused]] uint64_t& d, [[maybe_unused]] bool& cc) {                    \
        __VA_ARGS__;                                                                    \
      }                                                                                 \
    };                                                                                  \
    return ::vgpu::isa::valuKernel<Lane>();                                             \
  }())

// Helpers for lane bodies.
inline float f(uint64_t v) {
  return asF32(v);
}
inline uint64_t F(float x) {
  return bitsF32(x);
}
inline double dbl(uint64_t v) {
  return asF64(v);
}
inline uint64_t D(double x) {
  return bitsF64(x);
}
inline float h(uint64_t v) {
  return asF16(v);
}
inline uint64_t H(float x) {
  return bitsF16(x);
}
inline uint32_t u32(uint64_t v) {
  return static_cast<uint32_t>(v);
}
inline int32_t i32(uint64_t v) {
  return static_cast<int32_t>(v);
}
inline uint16_t u16(uint64_t v) {
  return static_cast<uint16_t>(v);
}
inline int16_t i16(uint64_t v) {
  return static_cast<int16_t>(v);
}
inline int64_t i64(uint64_t v) {
  return static_cast<int64_t>(v);
}
inline uint64_t U(int64_t v) {
  return static_cast<uint64_t>(v);
}

}  // namespace vgpu::isa
