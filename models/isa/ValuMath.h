// Arithmetic helpers shared by the VALU tables: conversions with the ISA's saturation rules,
// division helpers, bit operations (Vega ISA guide 12.7 - 12.11 opcode descriptions).
#pragma once

#include <cmath>
#include <cstring>
#include <limits>

#include "isa/Valu.h"

namespace vgpu::isa::math {

// std::ldexp of a float as one multiply in double, which the lane loops vectorise (std::ldexp
// is a call per lane): x * 2^n is exact in double for |n| <= 300 (a float's exponents and its
// 24 bits stay well inside double's normal range), and its conversion to float rounds it once,
// in the current rounding mode, as std::ldexp rounds the exact result. Past +-300 the result
// overflows or underflows in both (infinity, the largest float, zero or the smallest denormal as
// the rounding mode says), so n is clamped there. NaNs come back quiet with their payload and
// infinities and zeros unchanged, as from std::ldexp.
inline float ldexpF32(float x, int32_t n) {
  const int32_t k = n < -300 ? -300 : (n > 300 ? 300 : n);
  const uint64_t scaleBits = static_cast<uint64_t>(k + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scaleBits, 8);
  return static_cast<float>(static_cast<double>(x) * scale);
}

// Float -> integer conversions saturate and map NaN to 0 (12.8 V_CVT_I32_F32 etc.).
template <class Int, class Real>
Int cvtSat(Real x) {
  if (std::isnan(x)) return 0;
  const Real t = std::trunc(x);
  if (t <= static_cast<Real>(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  if (t >= static_cast<Real>(std::numeric_limits<Int>::max()))
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(t);
}

// Round half to even whatever the host's rounding mode (V_RNDNE_*: the VALU runs lane functions
// with the host rounding set to MODE.FP_ROUND, which std::nearbyint would follow). Every step is
// exact: the fraction x - trunc(x) and t +- 1 are representable.
template <class Real>
Real roundEven(Real x) {
  if (!std::isfinite(x)) return x;
  const Real t = std::trunc(x);
  const Real frac = std::fabs(x - t);
  const bool odd = std::fmod(t, Real(2)) != 0;
  if (frac > Real(0.5) || (frac == Real(0.5) && odd)) return t + std::copysign(Real(1), x);
  return t;
}

inline uint32_t ffbh(uint32_t v) {
  return v ? static_cast<uint32_t>(__builtin_clz(v)) : ~0u;
}
inline uint32_t ffbl(uint32_t v) {
  return v ? static_cast<uint32_t>(__builtin_ctz(v)) : ~0u;
}
inline uint32_t ffbhSigned(uint32_t v) {
  const uint32_t x = (v >> 31) ? ~v : v;
  return x ? static_cast<uint32_t>(__builtin_clz(x)) : ~0u;
}
inline uint32_t popcount(uint64_t v) {
  return static_cast<uint32_t>(bitCount(v));
}

inline uint32_t bfeU(uint32_t v, uint32_t off, uint32_t width) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  return (v >> off) & ((1u << width) - 1);
}
// Signed: a field reaching bit 31 or past it ends at bit 31 and takes bit 31 as its sign, so
// the result is v shifted arithmetically (the D3D SM5 ibfe definition, which LLVM's AMDGPU
// constant folding of llvm.amdgcn.sbfe follows: offset + width >= 32 folds to an ashr).
inline uint32_t bfeI(uint32_t v, uint32_t off, uint32_t width) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  if (off + width >= 32) return static_cast<uint32_t>(static_cast<int32_t>(v) >> off);
  const uint32_t x = (v >> off) & ((1u << width) - 1);
  return static_cast<uint32_t>(sext(x, static_cast<int>(width)));
}

inline uint32_t sext24(uint32_t v) {
  return static_cast<uint32_t>(sext(v & 0xffffff, 24));
}

template <class T>
T med3(T a, T b, T c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}
inline float fmed3(float a, float b, float c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return std::fmin(std::fmin(a, b), c);
  return std::fmax(std::fmin(a, b), std::fmin(std::fmax(a, b), c));
}

// V_CMP_CLASS mask bits (12.7): 0 sNaN, 1 qNaN, 2 -inf, 3 -norm, 4 -denorm, 5 -0, 6 +0,
// 7 +denorm, 8 +norm, 9 +inf.
template <class Real>
bool fpClass(Real x, uint32_t mask, bool quietBit) {
  int cls;
  const bool neg = std::signbit(x);
  switch (std::fpclassify(x)) {
    case FP_NAN:
      cls = quietBit ? 1 : 0;
      break;
    case FP_INFINITE:
      cls = neg ? 2 : 9;
      break;
    case FP_NORMAL:
      cls = neg ? 3 : 8;
      break;
    case FP_SUBNORMAL:
      cls = neg ? 4 : 7;
      break;
    default:
      cls = neg ? 5 : 6;
      break;
  }
  return (mask >> cls) & 1;
}

inline float fract(float x) {
  return std::isinf(x) ? NAN : std::fmin(x - std::floor(x), 0x1.fffffep-1f);
}
inline double fract(double x) {
  return std::isinf(x) ? NAN : std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1);
}

template <class Real>
int frexpExp(Real x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
template <class Real>
Real frexpMant(Real x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  int e;
  return std::frexp(x, &e);
}

// V_DIV_SCALE (12.8): scales numerator or denominator by 2^(+-2*mantbits) so the following
// Newton-Raphson steps stay in range; sets VCC when V_DIV_FMAS must undo the scaling.
template <class Real>
Real divScale(Real s0, Real s1, Real s2, bool& vcc) {
  constexpr bool isF32 = sizeof(Real) == 4;
  constexpr int kScale = isF32 ? 64 : 128;
  constexpr int kRangeExp = isF32 ? 96 : 768;
  constexpr int kTinyExp = isF32 ? 23 : 53;
  vcc = false;
  if (s2 == 0 || s1 == 0) return std::numeric_limits<Real>::quiet_NaN();
  const int e1 = frexpExp(s1), e2 = frexpExp(s2);
  // 1 / S1 is evaluated in double precision (RDNA/Vega pseudo-code: 1.0 / 64'F(S1)).
  const Real q = s2 / s1;
  const double r = 1.0 / static_cast<double>(s1);
  const auto denorm = [](auto v) { return std::fpclassify(v) == FP_SUBNORMAL; };
  if (e2 - e1 >= kRangeExp) {
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, kScale) : s0;
  }
  if (denorm(s1)) return std::ldexp(s0, kScale);
  // "1 / S1 == DENORM" at the operation's precision: V_RCP_F32 flushes denormal results, so an
  // f32 denominator whose reciprocal is an f32 denormal must be scaled (x / FLT_MAX otherwise
  // returns 0 once the reciprocal flushes; tests/differential f32_arith `div`).
  const bool rcpDenorm = denorm(static_cast<Real>(r));
  if (rcpDenorm && denorm(q)) {
    // The guide's pseudo-code scales the denominator up here, which overflows for a
    // denominator near the maximum (1/MAX is denormal): scale it down as in the lone 1/S1
    // case, so the reciprocal is normal; V_DIV_FMAS then scales the small quotient back down.
    // Checked against PoCL (tests/differential f64_arith: recip(MAX), x / MAX).
    vcc = true;
    return s0 == s1 ? std::ldexp(s0, -kScale) : s0;
  }
  if (rcpDenorm) return std::ldexp(s0, -kScale);
  if (denorm(q)) {
    vcc = true;
    return s0 == s2 ? std::ldexp(s0, kScale) : s0;
  }
  // exponent() in the pseudo-code is the biased exponent field: a numerator below
  // 2^(kTinyExp - bias) is scaled up.
  constexpr int kBias = isF32 ? 127 : 1023;
  if (e2 - 1 + kBias <= kTinyExp) return std::ldexp(s0, kScale);
  return s0;
}

// V_DIV_FMAS: fma, undoing V_DIV_SCALE's scaling when VCC is set. A scaled-down denominator
// leaves a large quotient estimate (multiply back up); a scaled-up numerator leaves a tiny one.
// Biased exponent field of a float / double (0 for zero and denormals).
template <class Real>
int biasedExp(Real x) {
  if constexpr (sizeof(Real) == 4) {
    return static_cast<int>((bitsF32(x) >> 23) & 0xff);
  } else {
    return static_cast<int>((bitsF64(x) >> 52) & 0x7ff);
  }
}

// V_DIV_FMAS (12.11): with VCC the fma result is scaled by 2^+-64 (f32) / 2^+-128 (f64).
template <class Real>
Real divFmas(Real a, Real b, Real c, bool vcc) {
  constexpr int kScale = sizeof(Real) == 4 ? 64 : 128;
  const Real r = std::fma(a, b, c);
  if (!vcc) return r;
  // The guide leaves the direction implicit; a scaled-down denominator leaves a large
  // quotient (scale back up), a scaled-up numerator a small one.
  if (std::fabs(r) >= Real(1)) return std::ldexp(r, kScale);
  // Scaling down may land in the denormal range, where rounding the fma to Real and then the
  // scaled value would round twice. The hardware rounds once: compute in binary128, where the
  // product is exact and the power-of-two scaling too, and round to Real at the end.
  const __float128 exact =
      static_cast<__float128>(a) * static_cast<__float128>(b) + static_cast<__float128>(c);
  return static_cast<Real>(exact * static_cast<__float128>(std::ldexp(1.0, -kScale)));
}

// V_DIV_FIXUP (12.8): special cases of quotient `q` = num / den.
template <class Real>
Real divFixup(Real q, Real den, Real num) {
  const bool sign = std::signbit(den) != std::signbit(num);
  const Real inf = std::numeric_limits<Real>::infinity();
  if (std::isnan(num)) return num;
  if (std::isnan(den)) return den;
  // 0/0 and inf/inf: the guide's pseudocode gives the quiet NaN with the sign bit set
  // (0xffc00000 for f32, 0xfff8000000000000 for f64, 0xfe00 for the f16 forms).
  if (den == 0 && num == 0) return -std::numeric_limits<Real>::quiet_NaN();
  if (std::isinf(den) && std::isinf(num)) return -std::numeric_limits<Real>::quiet_NaN();
  if (den == 0 || std::isinf(num)) return sign ? -inf : inf;
  if (std::isinf(den) || num == 0) return sign ? Real(-0.0) : Real(0.0);
  // The quotient underflows: exponent(num) - exponent(den) below -150 (f32) / -1075 (f64).
  if (biasedExp(num) - biasedExp(den) < (sizeof(Real) == 4 ? -150 : -1075))
    return sign ? Real(-0.0) : Real(0.0);
  if (std::isnan(q)) return sign ? -inf : inf;  // the quotient overflowed in the refinement
  return sign ? -std::fabs(q) : std::fabs(q);
}

inline uint32_t satU8(int32_t v) {
  return static_cast<uint32_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

}  // namespace vgpu::isa::math
