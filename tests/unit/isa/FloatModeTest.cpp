// MODE register float controls: FP_ROUND (MODE[3:0]) and FP_DENORM (MODE[7:4]) as the VALU
// applies them. Each case runs one labelled snippet of programs/float_mode.s under a MODE value
// and checks bit patterns worked out by exact rational rounding (Python fractions: round the
// exact result to 24/53/11 significant bits in the mode's direction), edge cases first: ties
// and non-ties in every round mode, denormal sources and results in every denorm mode.
#include <gtest/gtest.h>

#include <cfenv>
#include <cstring>

#include "WaveRunner.h"
#include "isa/Operands.h"
#include "isa/ValuMath.h"

namespace vgpu::isa::test {
namespace {

// MODE[7:0]: round single [1:0], round double/half [3:2], denorm single [5:4], denorm
// double/half [7:6] (AMDGPUUsage FLOAT_ROUND_MODE_* / FLOAT_DENORM_MODE_*).
enum Round : uint32_t { kRne = 0, kUp = 1, kDown = 2, kZero = 3 };
constexpr uint32_t mode(uint32_t roundSp, uint32_t roundDp, uint32_t denormSp, uint32_t denormDp) {
  return roundSp | (roundDp << 2) | (denormSp << 4) | (denormDp << 6);
}
constexpr uint32_t kDefault = mode(kRne, kRne, 3, 3);  // what clang-15 emits for HIP and OpenCL
constexpr uint32_t roundAll(uint32_t r) {
  return mode(r, r, 3, 3);
}
constexpr Round kRounds[4] = {kRne, kUp, kDown, kZero};

uint32_t bits(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
uint64_t bits(double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  return v;
}

// programs/float_mode.s, and the address of each label from its llvm-objdump listing.
// A wave positioned at `label` with MODE[7:0] = `fpMode` (the rest of MODE zero).
WaveRunner at(const std::string& label, uint32_t fpMode) {
  WaveRunner r = WaveRunner::atLabel("float_mode", label);
  r.wave.mode = fpMode;
  return r;
}
void runToEnd(WaveRunner& r) {
  const StepResult res = r.run(100);
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
}
void setF64(WaveRunner& r, int reg, int lane, uint64_t v) {
  r.v(reg, lane) = static_cast<uint32_t>(v);
  r.v(reg + 1, lane) = static_cast<uint32_t>(v >> 32);
}
uint64_t getF64(WaveRunner& r, int reg, int lane) {
  return r.v(reg, lane) | (static_cast<uint64_t>(r.v(reg + 1, lane)) << 32);
}

// ---- FP_ROUND ---------------------------------------------------------------------------------

TEST(FloatModeRound, LdexpF32IsStdLdexpInEveryHostRoundingMode) {
  // v_ldexp_f32's lane body (math::ldexpF32, one multiply in double) against std::ldexp: zeros,
  // denormals, normals, the largest float, infinities, quiet and signalling NaNs with payloads,
  // scaled into and past every range (overflow, denormal results, ties to round, underflow).
  const uint32_t values[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000003u, 0x007fffffu,
                             0x00400001u, 0x00800000u, 0x3f800000u, 0xbfc00001u, 0x3fffffffu,
                             0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                             0x7f800123u, 0xffa00000u, 0x4b3504f3u, 0x1a2b3c4du, 0xc3ffffffu};
  const int32_t exponents[] = {0,    1,    -1,    23,         24,        25,         126,
                               127,  128,  149,   150,        151,       254,        255,
                               300,  301,  -23,   -24,        -25,       -126,       -127,
                               -149, -150, -151,  -152,       -254,      -277,       -300,
                               -301, 1000, -1000, 0x7fffffff, INT32_MIN, 0x40000000, -0x3fffffff};
  const int hostRounds[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  const int saved = std::fegetround();
  for (const int round : hostRounds) {
    std::fesetround(round);
    for (const uint32_t bits : values) {
      float x;
      std::memcpy(&x, &bits, 4);
      for (const int32_t n : exponents) {
        const float expected = std::ldexp(x, n), actual = math::ldexpF32(x, n);
        uint32_t e, a;
        std::memcpy(&e, &expected, 4);
        std::memcpy(&a, &actual, 4);
        EXPECT_EQ(a, e) << std::hex << "x 0x" << bits << std::dec << ", n " << n << ", round "
                        << round;
      }
    }
  }
  std::fesetround(saved);
}

TEST(FloatModeRound, AddF32TiesAndNonTiesInEveryMode) {
  // lane: a, b, expected per mode (RNE, +inf, -inf, zero).
  struct Case {
    uint32_t a, b, want[4];
  } cases[] = {
      {0x3f800000, 0x33c00000, {0x3f800001, 0x3f800001, 0x3f800000, 0x3f800000}},  // 1 + 0.75 ulp
      {0x3f800000,
       0x33800000,
       {0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000}},  // tie, even below
      {0x3f800001,
       0x33800000,
       {0x3f800002, 0x3f800002, 0x3f800001, 0x3f800001}},  // tie, even above
      {0xbf800000, 0xb3c00000, {0xbf800001, 0xbf800000, 0xbf800001, 0xbf800000}},  // negative
      {0x7f7fffff, 0x7f7fffff, {0x7f800000, 0x7f800000, 0x7f7fffff, 0x7f7fffff}},  // overflow
  };
  for (int m = 0; m < 4; ++m) {
    SCOPED_TRACE(m);
    WaveRunner r = at("add_f32", roundAll(kRounds[m]));
    for (int l = 0; l < 5; ++l) {
      r.v(0, l) = cases[l].a;
      r.v(1, l) = cases[l].b;
    }
    runToEnd(r);
    for (int l = 0; l < 5; ++l) EXPECT_EQ(r.v(2, l), cases[l].want[m]) << "lane " << l;
  }
}

TEST(FloatModeRound, MulAndFmaF32) {
  const uint32_t mulNonTie[4] = {0x3f800002, 0x3f800003, 0x3f800002, 0x3f800002};  // (1+u)^2
  const uint32_t mulTie[4] = {0x3f801000, 0x3f801001, 0x3f801000, 0x3f801000};     // (1+2^-12)^2
  const uint32_t fmaNonTie[4] = {0x40400002, 0x40400002, 0x40400001, 0x40400001};
  const uint32_t fmaTie[4] = {0x40400002, 0x40400002, 0x40400001, 0x40400001};
  for (int m = 0; m < 4; ++m) {
    SCOPED_TRACE(m);
    WaveRunner mul = at("mul_f32", roundAll(kRounds[m]));
    mul.v(0, 0) = mul.v(1, 0) = 0x3f800001;
    mul.v(0, 1) = mul.v(1, 1) = 0x3f800800;
    runToEnd(mul);
    EXPECT_EQ(mul.v(2, 0), mulNonTie[m]);
    EXPECT_EQ(mul.v(2, 1), mulTie[m]);
    // fma(3, 1 + 2^-23, c): 3 + 1.5 ulp(3) exactly (a tie) for c = 0, 3 + 1.75 ulp for 2^-24.
    WaveRunner fma = at("fma_f32", roundAll(kRounds[m]));
    for (int l = 0; l < 2; ++l) {
      fma.v(0, l) = bits(3.0f);
      fma.v(1, l) = 0x3f800001;
    }
    fma.v(2, 0) = 0x33800000;
    fma.v(2, 1) = 0;
    runToEnd(fma);
    EXPECT_EQ(fma.v(3, 0), fmaNonTie[m]);
    EXPECT_EQ(fma.v(3, 1), fmaTie[m]);
  }
}

TEST(FloatModeRound, DoubleAndHalfFollowTheirOwnField) {
  const uint64_t f64Tie[4] = {0x3ff0000000000000, 0x3ff0000000000001, 0x3ff0000000000000,
                              0x3ff0000000000000};  // 1 + 2^-53
  const uint64_t f64NonTie[4] = {0x3ff0000000000001, 0x3ff0000000000001, 0x3ff0000000000000,
                                 0x3ff0000000000000};              // 1 + 1.5 * 2^-53
  const uint32_t f16Tie[4] = {0x3c00, 0x3c01, 0x3c00, 0x3c00};     // 1 + 2^-11
  const uint32_t f16NonTie[4] = {0x3c01, 0x3c01, 0x3c00, 0x3c00};  // 1 + 3 * 2^-12
  for (int m = 0; m < 4; ++m) {
    SCOPED_TRACE(m);
    // The single-precision field points the other way: it must not matter.
    const uint32_t md = mode(kRounds[3 - m], kRounds[m], 3, 3);
    WaveRunner d = at("add_f64", md);
    setF64(d, 0, 0, bits(1.0));
    setF64(d, 2, 0, 0x3ca0000000000000);  // 2^-53
    setF64(d, 0, 1, bits(1.0));
    setF64(d, 2, 1, 0x3ca8000000000000);  // 1.5 * 2^-53
    runToEnd(d);
    EXPECT_EQ(getF64(d, 4, 0), f64Tie[m]);
    EXPECT_EQ(getF64(d, 4, 1), f64NonTie[m]);
    WaveRunner h = at("add_f16", md);
    h.v(0, 0) = h.v(0, 1) = 0x3c00;
    h.v(1, 0) = 0x1000;  // 2^-11
    h.v(1, 1) = 0x1200;  // 3 * 2^-12
    runToEnd(h);
    EXPECT_EQ(h.v(2, 0), f16Tie[m]);
    EXPECT_EQ(h.v(2, 1), f16NonTie[m]);
    // Packed: the same tie in the low half, the non-tie in the high half.
    WaveRunner p = at("pk_add_f16", md);
    p.v(0, 0) = 0x3c003c00;
    p.v(1, 0) = 0x12001000;
    runToEnd(p);
    EXPECT_EQ(p.v(2, 0), f16Tie[m] | (f16NonTie[m] << 16));
    // fma f16: 3 * (1 + 2^-10) + 2^-12 = 3 + 1.5 ulp(3) + 0.25 ulp(3).
    WaveRunner f = at("fma_f16", md);
    f.v(0, 0) = 0x4200;
    f.v(1, 0) = 0x3c01;
    f.v(2, 0) = 0x0c00;
    runToEnd(f);
    const uint32_t fmaWant[4] = {0x4202, 0x4202, 0x4201, 0x4201};
    EXPECT_EQ(f.v(3, 0), fmaWant[m]);
  }
}

TEST(FloatModeRound, ConversionsToFloat) {
  const uint32_t i32a[4] = {0x4b800000, 0x4b800001, 0x4b800000, 0x4b800000};  // 16777217
  const uint32_t i32b[4] = {0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000};  // -16777217
  const uint32_t i32c[4] = {0x4b800002, 0x4b800002, 0x4b800001, 0x4b800001};  // 16777219: tie
  const uint32_t u32max[4] = {0x4f800000, 0x4f800000, 0x4f7fffff, 0x4f7fffff};
  const uint32_t f64tie[4] = {0x3f800000, 0x3f800001, 0x3f800000, 0x3f800000};  // 1 + 2^-24
  // f32 -> f16: tie, non-tie, negative tie, overflow, a tiny positive (below half a denormal).
  const uint32_t h[5][4] = {{0x3c00, 0x3c01, 0x3c00, 0x3c00},
                            {0x3c01, 0x3c01, 0x3c00, 0x3c00},
                            {0xbc00, 0xbc00, 0xbc01, 0xbc00},
                            {0x7c00, 0x7c00, 0x7bff, 0x7bff},
                            {0x0000, 0x0001, 0x0000, 0x0000}};
  const float hIn[5] = {1.0f + 0x1p-11f, 1.0f + 0x3p-12f, -1.0f - 0x1p-11f, 70000.0f, 1e-10f};
  for (int m = 0; m < 4; ++m) {
    SCOPED_TRACE(m);
    WaveRunner i = at("cvt_f32_i32", roundAll(kRounds[m]));
    i.v(0, 0) = 16777217;
    i.v(0, 1) = static_cast<uint32_t>(-16777217);
    i.v(0, 2) = 16777219;
    runToEnd(i);
    EXPECT_EQ(i.v(2, 0), i32a[m]);
    EXPECT_EQ(i.v(2, 1), i32b[m]);
    EXPECT_EQ(i.v(2, 2), i32c[m]);
    WaveRunner u = at("cvt_f32_u32", roundAll(kRounds[m]));
    u.v(0, 0) = 0xffffffffu;
    runToEnd(u);
    EXPECT_EQ(u.v(2, 0), u32max[m]);
    // f64 -> f32 rounds with the single-precision field (the result's precision).
    WaveRunner d = at("cvt_f32_f64", mode(kRounds[m], kRne, 3, 3));
    setF64(d, 0, 0, bits(1.0 + 0x1p-24));
    runToEnd(d);
    EXPECT_EQ(d.v(2, 0), f64tie[m]);
    // f32 -> f16 rounds with the double/half field.
    WaveRunner c = at("cvt_f16_f32", mode(kRne, kRounds[m], 3, 3));
    for (int l = 0; l < 5; ++l) c.v(0, l) = bits(hIn[l]);
    runToEnd(c);
    for (int l = 0; l < 5; ++l) EXPECT_EQ(c.v(2, l), h[l][m]) << "lane " << l;
  }
}

TEST(FloatModeRound, FloatToIntegerAndRndneIgnoreTheMode) {
  // v_cvt_i32_f32 truncates, v_cvt_rpi floor(x + 0.5), v_rndne ties to even: in every mode.
  const float in[5] = {2.5f, 3.5f, -2.5f, 0.49999997f, 2.7f};
  const int32_t trunc[5] = {2, 3, -2, 0, 2}, rpi[5] = {3, 4, -2, 0, 3};
  const float rndne[5] = {2.0f, 4.0f, -2.0f, 0.0f, 3.0f};
  for (int m = 0; m < 4; ++m) {
    SCOPED_TRACE(m);
    WaveRunner r = at("cvt_i32_f32", roundAll(kRounds[m]));
    for (int l = 0; l < 5; ++l) r.v(0, l) = bits(in[l]);
    runToEnd(r);
    for (int l = 0; l < 5; ++l) {
      EXPECT_EQ(static_cast<int32_t>(r.v(2, l)), trunc[l]) << l;
      EXPECT_EQ(static_cast<int32_t>(r.v(3, l)), rpi[l]) << l;
      EXPECT_EQ(r.v(4, l), bits(rndne[l])) << l;
    }
  }
}

TEST(FloatModeRound, CvtPkrtzTruncatesInEveryMode) {
  for (int m = 0; m < 4; ++m) {
    WaveRunner r = at("cvt_pkrtz", roundAll(kRounds[m]));
    r.v(0, 0) = bits(1.0f + 0x3p-12f);  // 1 + 0.75 ulp(f16 1.0)
    r.v(1, 0) = bits(-1.0f - 0x3p-12f);
    runToEnd(r);
    EXPECT_EQ(r.v(2, 0), 0xbc003c00u) << m;
  }
}

// ---- FP_DENORM --------------------------------------------------------------------------------

TEST(FloatModeDenorm, F32SourcesAndResultsInEveryDenormMode) {
  // denorm field: 0 flush both, 1 keep sources / flush results, 2 flush sources / keep results,
  // 3 keep both.
  // lane 0: 2^-149 * 2^100 (denormal source, normal result 2^-49)
  // lane 1: 2^-126 * 0.5   (normal sources, denormal result 2^-127)
  // lane 2: -2^-149 * 1    (the flush keeps the sign)
  const uint32_t want[3][4] = {{0, 0x27000000, 0, 0x27000000},
                               {0, 0, 0x00400000, 0x00400000},
                               {0x80000000, 0x80000000, 0x80000000, 0x80000001}};
  for (uint32_t dn = 0; dn < 4; ++dn) {
    SCOPED_TRACE(dn);
    // The double/half field is the opposite setting: it must not matter for f32.
    WaveRunner r = at("mul_f32", mode(kRne, kRne, dn, 3 - dn));
    r.v(0, 0) = 0x00000001;
    r.v(1, 0) = bits(0x1p100f);
    r.v(0, 1) = 0x00800000;
    r.v(1, 1) = bits(0.5f);
    r.v(0, 2) = 0x80000001;
    r.v(1, 2) = bits(1.0f);
    runToEnd(r);
    for (int l = 0; l < 3; ++l) EXPECT_EQ(r.v(2, l), want[l][dn]) << "lane " << l;
  }
}

TEST(FloatModeDenorm, F64AndF16FollowTheDoubleHalfField) {
  for (uint32_t dn = 0; dn < 4; ++dn) {
    SCOPED_TRACE(dn);
    const bool keepIn = dn & 1, keepOut = dn & 2;
    WaveRunner d = at("mul_f64", mode(kRne, kRne, 3 - dn, dn));
    setF64(d, 0, 0, 1);  // 2^-1074 * 2^600
    setF64(d, 2, 0, bits(0x1p600));
    setF64(d, 0, 1, bits(0x1p-1022));  // 2^-1022 * 0.5 = 2^-1023, a denormal
    setF64(d, 2, 1, bits(0.5));
    runToEnd(d);
    EXPECT_EQ(getF64(d, 4, 0), keepIn ? bits(0x1p-474) : 0u);
    EXPECT_EQ(getF64(d, 4, 1), keepOut ? 0x0008000000000000ull : 0u);
    WaveRunner h = at("mul_f16", mode(kRne, kRne, 3 - dn, dn));
    h.v(0, 0) = 0x0001;  // 2^-24 * 2^15 = 2^-9
    h.v(1, 0) = 0x7800;
    h.v(0, 1) = 0x8400;  // -2^-14 * 0.5 = -2^-15, a denormal
    h.v(1, 1) = 0x3800;
    runToEnd(h);
    EXPECT_EQ(h.v(2, 0), keepIn ? 0x1800u : 0u);
    EXPECT_EQ(h.v(2, 1), keepOut ? 0x8200u : 0x8000u);
    // Packed f16: each half flushes on its own.
    WaveRunner p = at("pk_add_f16", mode(kRne, kRne, 3, dn));
    p.v(0, 0) = 0x00010400;  // hi: 2^-24 (denormal), lo: 2^-14
    p.v(1, 0) = 0x00008400;  // hi: +0, lo: -2^-14 -> +0
    runToEnd(p);
    EXPECT_EQ(p.v(2, 0), keepIn && keepOut ? 0x00010000u : 0u);
  }
}

TEST(FloatModeDenorm, ConversionsFlushByPrecision) {
  // f16 denormal -> f32: the source flushes with the double/half field.
  for (uint32_t dn = 0; dn < 4; ++dn) {
    WaveRunner r = at("cvt_f32_f16", mode(kRne, kRne, 3, dn));
    r.v(0, 0) = 0x8001;
    runToEnd(r);
    EXPECT_EQ(r.v(2, 0), (dn & 1) ? bits(-0x1p-24f) : 0x80000000u) << dn;
  }
  // f32 denormal -> f16 rounding up: 0x0001 unless the single field flushes the source.
  for (uint32_t dn = 0; dn < 4; ++dn) {
    WaveRunner r = at("cvt_f16_f32", mode(kRne, kUp, dn, 3));
    r.v(0, 0) = 0x00000001;
    runToEnd(r);
    EXPECT_EQ(r.v(2, 0), (dn & 1) ? 1u : 0u) << dn;
  }
  // f64 2^-140 -> f32 denormal 0x200: flushed when the single field flushes results.
  for (uint32_t dn = 0; dn < 4; ++dn) {
    WaveRunner r = at("cvt_f32_f64", mode(kRne, kRne, dn, 3));
    setF64(r, 0, 0, bits(0x1p-140));
    runToEnd(r);
    EXPECT_EQ(r.v(2, 0), (dn & 2) ? 0x200u : 0u) << dn;
  }
}

TEST(FloatModeDenorm, MadAndMacFlushEvenInTheDefaultMode) {
  WaveRunner r = at("mac_f32", kDefault);
  r.v(0, 0) = 0x00000001;  // 2^-149 * 2^100
  r.v(1, 0) = bits(0x1p100f);
  r.v(0, 1) = 0x00800000;  // 2^-126 * 0.5: a denormal result
  r.v(1, 1) = bits(0.5f);
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), 0u);              // v_mac_f32
  EXPECT_EQ(r.v(3, 0), 0u);              // v_mad_f32
  EXPECT_EQ(r.v(4, 0), bits(0x1p-49f));  // v_fma_f32 keeps it
  EXPECT_EQ(r.v(2, 1), 0u);
  EXPECT_EQ(r.v(3, 1), 0u);
  EXPECT_EQ(r.v(4, 1), 0x00400000u);
  WaveRunner h = at("mad_f16", kDefault);
  h.v(0, 0) = 0x0001;
  h.v(1, 0) = 0x7800;
  runToEnd(h);
  EXPECT_EQ(h.v(2, 0) & 0xffff, 0u);       // v_mad_f16
  EXPECT_EQ(h.v(3, 0) & 0xffff, 0x1800u);  // v_fma_f16
}

TEST(FloatModeDenorm, F32TranscendentalsFlushF16OnesFollowTheMode) {
  WaveRunner r = at("transcendental", kDefault);
  r.v(0, 0) = 0x00000001;  // 2^-149
  r.v(1, 0) = 0x0200;      // f16 2^-15
  r.v(0, 1) = bits(130.0f);
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), 0x7f800000u);  // v_rcp_f32: the source is flushed -> +inf
  EXPECT_EQ(r.v(3, 0), 0u);           // v_sqrt_f32
  EXPECT_EQ(r.v(4, 0), 0x7800u);      // v_rcp_f16(2^-15) = 2^15
  EXPECT_EQ(r.v(5, 1), 0u);           // v_exp_f32(-130) = 2^-130: a denormal result, flushed
}

TEST(FloatModeDenorm, MinMaxFlushCndmaskMovesBits) {
  for (uint32_t dn : {0u, 3u}) {
    SCOPED_TRACE(dn);
    WaveRunner r = at("min_max", mode(kRne, kRne, dn, 3));
    r.wave.vcc = 0;
    r.v(0, 0) = 0x00000001;
    r.v(1, 0) = 0x0001;
    runToEnd(r);
    EXPECT_EQ(r.v(2, 0), dn ? 1u : 0u);  // v_max_f32(denormal, 0)
    EXPECT_EQ(r.v(3, 0), dn ? 1u : 0u);  // v_min_f32(denormal, 1.0)
    EXPECT_EQ(r.v(4, 0), 1u);            // v_max_f16 keeps (double/half field 3)
    EXPECT_EQ(r.v(5, 0), 1u);            // v_cndmask_b32 moves bits
  }
}

TEST(FloatModeDenorm, MixSourcesFlushAsHalf) {
  for (uint32_t dn : {0u, 3u}) {
    SCOPED_TRACE(dn);
    WaveRunner r = at("fma_mix", mode(kRne, kRne, 3, dn));
    r.v(0, 0) = 0x0001;  // f16 2^-24
    r.v(1, 0) = 0x7800;  // f16 2^15
    r.v(2, 0) = 0;       // f32 +0
    r.v(4, 0) = 0xabcd0000;
    runToEnd(r);
    EXPECT_EQ(r.v(3, 0), dn ? bits(0x1p-9f) : 0u);
    EXPECT_EQ(r.v(4, 0), dn ? 0xabcd1800u : 0xabcd0000u);  // mixlo keeps the high half
  }
}

// ---- MODE changes and the host ---------------------------------------------------------------

TEST(FloatMode, SetregChangesTheModeMidProgram) {
  WaveRunner r = at("setreg", kDefault);
  r.v(0, 0) = bits(1.0f);
  r.v(1, 0) = 0x33800000;  // 1 + 2^-24: a tie
  r.v(0, 1) = 0x00000001;
  r.v(1, 1) = bits(1.0f);
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), 0x3f800000u);  // RNE
  EXPECT_EQ(r.v(3, 0), 0x3f800001u);  // FP_ROUND single = +inf
  EXPECT_EQ(r.v(3, 1), 0x3f800001u);  // 1 + 2^-149 rounds up
  EXPECT_EQ(r.v(4, 1), 0u);           // FP_DENORM single = 0: 2^-149 * 1 flushed
  EXPECT_EQ(r.wave.mode & 0xff, 0xc1u);
}

TEST(FloatMode, HostRoundingIsRestoredAfterEachInstruction) {
  WaveRunner r = at("cvt_f16_f32", mode(kDown, kUp, 3, 3));
  r.v(0, 0) = bits(1.0f + 0x1p-11f);
  runToEnd(r);
  EXPECT_EQ(r.v(2, 0), 0x3c01u);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  EXPECT_EQ(f32ToF16(1.0f + 0x1p-11f), 0x3c00u);  // the conversion is back to nearest even
  volatile float one = 1.0f, tie = 0x1p-24f;
  EXPECT_EQ(bits(one + tie), 0x3f800000u);
}

}  // namespace
}  // namespace vgpu::isa::test
