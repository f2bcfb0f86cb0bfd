// MUBUF/MTBUF buffer instructions (Vega ISA guide ch. 8.1): the data-format
// conversions on their own, then hand-encoded instructions on the test wave runner: range checks
// per buffer kind, swizzled addressing, the null resource, resource/instruction mismatch,
// alignment modes with MEMVIOL, D16/D16_HI, DST_SEL, TFE, loads into the LDS and every atomic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "WaveRunner.h"
#include "isa/BufferFormat.h"

namespace vgpu::isa::test {
namespace {

constexpr uint64_t kBase = 0x10000;
constexpr int kZero = 128;  // operand code of the inline constant 0 (soffset)

uint32_t bitsOf(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}
float asFloat(uint32_t v) {
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}

// ------------------------------------------------------------------------------------------
// Conversions (BufferFormat.h).

uint32_t unpack1(uint32_t dfmt, uint32_t nfmt, std::initializer_list<uint8_t> bytes, int c = 0) {
  uint8_t e[16] = {};
  std::copy(bytes.begin(), bytes.end(), e);
  uint32_t out[4];
  unpackElement(dfmt, nfmt, e, out);
  return out[c];
}
uint16_t unpackD16(uint32_t dfmt, uint32_t nfmt, std::initializer_list<uint8_t> bytes, int c = 0) {
  uint8_t e[16] = {};
  std::copy(bytes.begin(), bytes.end(), e);
  uint16_t out[4];
  unpackElementD16(dfmt, nfmt, e, out);
  return out[c];
}
uint32_t pack32(uint32_t dfmt, uint32_t nfmt, uint32_t x, uint32_t y = 0, uint32_t z = 0,
                uint32_t w = 0) {
  const uint32_t in[4] = {x, y, z, w};
  uint8_t e[16] = {};
  packElement(dfmt, nfmt, in, e);
  uint32_t v;
  std::memcpy(&v, e, 4);
  return v;
}

TEST(BufferFormat, SmallFloatEdgeCases) {
  using R = SmallFloatRound;
  const R rne = R::NearestEven, rtz = R::TowardZero;
  EXPECT_EQ(encodeSmallFloat(1.0, 5, 10, true, rne), 0x3c00u);
  EXPECT_EQ(encodeSmallFloat(-2.0, 5, 10, true, rne), 0xc000u);
  EXPECT_EQ(encodeSmallFloat(65504.0, 5, 10, true, rne), 0x7bffu);  // largest f16
  EXPECT_EQ(encodeSmallFloat(65520.0, 5, 10, true, rne), 0x7c00u);  // halfway: to infinity
  EXPECT_EQ(encodeSmallFloat(65520.0, 5, 10, true, rtz), 0x7bffu);  // truncation saturates
  EXPECT_EQ(encodeSmallFloat(-1e9, 5, 10, true, rtz), 0xfbffu);
  EXPECT_EQ(encodeSmallFloat(HUGE_VAL, 5, 10, true, rtz), 0x7c00u);  // infinity stays
  EXPECT_EQ(encodeSmallFloat(std::nan(""), 5, 10, true, rne), 0x7e00u);
  EXPECT_EQ(encodeSmallFloat(-0.0, 5, 10, true, rne), 0x8000u);
  // 1 + 0.75 ulp: nearest-even rounds up, truncation does not.
  EXPECT_EQ(encodeSmallFloat(1.0 + 0.75 / 1024, 5, 10, true, rne), 0x3c01u);
  EXPECT_EQ(encodeSmallFloat(1.0 + 0.75 / 1024, 5, 10, true, rtz), 0x3c00u);
  EXPECT_EQ(encodeSmallFloat(-(1.0 + 0.75 / 1024), 5, 10, true, rtz), 0xbc00u);
  EXPECT_EQ(encodeSmallFloat(1.0 + 0.5 / 1024, 5, 10, true, rne), 0x3c00u);  // tie: even
  EXPECT_EQ(encodeSmallFloat(1.0 + 1.5 / 1024, 5, 10, true, rne), 0x3c02u);  // tie: even
  // Denormals: 2^-24 is the smallest f16; half of it ties to 0, 3/4 of it rounds up.
  EXPECT_EQ(encodeSmallFloat(std::ldexp(1.0, -24), 5, 10, true, rne), 0x0001u);
  EXPECT_EQ(encodeSmallFloat(std::ldexp(1.0, -25), 5, 10, true, rne), 0x0000u);
  EXPECT_EQ(encodeSmallFloat(std::ldexp(3.0, -26), 5, 10, true, rne), 0x0001u);
  EXPECT_EQ(encodeSmallFloat(std::ldexp(1023.5, -24), 5, 10, true, rne), 0x0400u);  // to normal
  // Unsigned 11-bit (5e6m) and 10-bit (5e5m) floats of the packed formats.
  EXPECT_EQ(encodeSmallFloat(1.0, 5, 6, false, rne), 0x3c0u);
  EXPECT_EQ(encodeSmallFloat(-1.0, 5, 6, false, rne), 0u);
  EXPECT_EQ(encodeSmallFloat(-HUGE_VAL, 5, 6, false, rne), 0u);
  EXPECT_EQ(encodeSmallFloat(std::nan(""), 5, 6, false, rne), 0x7e0u);
  EXPECT_EQ(encodeSmallFloat(65024.0, 5, 6, false, rne), 0x7bfu);   // largest 11-bit float
  EXPECT_EQ(encodeSmallFloat(64512.0, 5, 5, false, rne), 0x3dfu);   // largest 10-bit float
  EXPECT_EQ(encodeSmallFloat(131072.0, 5, 5, false, rne), 0x3e0u);  // overflow: infinity
  EXPECT_EQ(decodeSmallFloat(0x7bf, 5, 6, false), 65024.0);
  EXPECT_EQ(decodeSmallFloat(0x001, 5, 5, false), std::ldexp(1.0, -19));
  EXPECT_TRUE(std::isnan(decodeSmallFloat(0x3e1, 5, 5, false)));
  EXPECT_EQ(decodeSmallFloat(0xfc00, 5, 10, true), -HUGE_VAL);
}

TEST(BufferFormat, UnpackEveryDataFormat) {
  const uint32_t one = 0x3f800000;
  // 8-bit components: each number format.
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUnorm, {0xff}), one);
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUnorm, {51}), bitsOf(0.2f));     // 51 / 255 = 0.2
  EXPECT_EQ(unpack1(kDfmt8, kNfmtSnorm, {0x80}), bitsOf(-1.0f));  // -128 clamps to -1
  EXPECT_EQ(unpack1(kDfmt8, kNfmtSnorm, {0x81}), bitsOf(-1.0f));  // -127 / 127
  EXPECT_EQ(unpack1(kDfmt8, kNfmtSnorm, {0x7f}), one);
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUscaled, {200}), bitsOf(200.0f));
  EXPECT_EQ(unpack1(kDfmt8, kNfmtSscaled, {0xff}), bitsOf(-1.0f));
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUint, {0xfe}), 0xfeu);
  EXPECT_EQ(unpack1(kDfmt8, kNfmtSint, {0xfe}), 0xfffffffeu);
  // Components the format lacks: 0, 0, 0, 1.
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUint, {7}, 1), 0u);
  EXPECT_EQ(unpack1(kDfmt8, kNfmtUint, {7}, 3), 1u);
  EXPECT_EQ(unpack1(kDfmt16, kNfmtFloat, {0, 0x3c}, 3), one);
  EXPECT_EQ(unpack1(kDfmt8_8, kNfmtUint, {1, 2}, 1), 2u);
  EXPECT_EQ(unpack1(kDfmt8_8_8_8, kNfmtUnorm, {0, 51, 255, 0}, 1), bitsOf(0.2f));
  EXPECT_EQ(unpack1(kDfmt8_8_8_8, kNfmtUnorm, {0, 51, 255, 0}, 2), one);
  // 16-bit: f16 widens exactly (denormal, infinity), integers extend.
  EXPECT_EQ(unpack1(kDfmt16, kNfmtFloat, {0x01, 0x00}), 0x33800000u);  // 2^-24
  EXPECT_EQ(unpack1(kDfmt16, kNfmtFloat, {0x00, 0x7c}), 0x7f800000u);
  EXPECT_EQ(unpack1(kDfmt16_16, kNfmtSint, {0x00, 0x80, 0xff, 0x7f}, 0), 0xffff8000u);
  EXPECT_EQ(unpack1(kDfmt16_16, kNfmtSint, {0x00, 0x80, 0xff, 0x7f}, 1), 0x7fffu);
  EXPECT_EQ(unpack1(kDfmt16_16_16_16, kNfmtUnorm, {0, 0, 0, 0, 0xff, 0xff, 0, 0}, 2), one);
  EXPECT_EQ(unpack1(kDfmt16, kNfmtSnorm, {0x00, 0x80}), bitsOf(-1.0f));
  // 10_11_11: X 11 bits (1.0 = 0x3c0), Y 11 bits (2.0 = 0x400), Z 10 bits (0.5 = 0x1c0).
  const std::initializer_list<uint8_t> e101111 = {0xc0, 0x03, 0x20, 0x70};  // 0x702003c0
  EXPECT_EQ(unpack1(kDfmt10_11_11, kNfmtFloat, e101111, 0), one);
  EXPECT_EQ(unpack1(kDfmt10_11_11, kNfmtFloat, e101111, 1), bitsOf(2.0f));
  EXPECT_EQ(unpack1(kDfmt10_11_11, kNfmtFloat, e101111, 2), bitsOf(0.5f));
  // 11_11_10: X 10 bits (0.5), Y 11 bits (1.0), Z 11 bits (infinity 0x7c0): 0xf80f01c0.
  const std::initializer_list<uint8_t> e111110 = {0xc0, 0x01, 0x0f, 0xf8};
  EXPECT_EQ(unpack1(kDfmt11_11_10, kNfmtFloat, e111110, 0), bitsOf(0.5f));
  EXPECT_EQ(unpack1(kDfmt11_11_10, kNfmtFloat, e111110, 1), one);
  EXPECT_EQ(unpack1(kDfmt11_11_10, kNfmtFloat, e111110, 2), 0x7f800000u);
  EXPECT_TRUE(std::isnan(asFloat(unpack1(kDfmt10_11_11, kNfmtFloat, {0xc1, 0x07, 0, 0}, 0))));
  // 2_10_10_10: X in [9:0], W in [31:30]. 0xc00003ff: X = 1023, W = 3.
  EXPECT_EQ(unpack1(kDfmt2_10_10_10, kNfmtUnorm, {0xff, 0x03, 0x00, 0xc0}, 0), one);
  EXPECT_EQ(unpack1(kDfmt2_10_10_10, kNfmtUnorm, {0xff, 0x03, 0x00, 0xc0}, 3), one);
  EXPECT_EQ(unpack1(kDfmt2_10_10_10, kNfmtSnorm, {0x00, 0x02, 0x00, 0x80}, 0), bitsOf(-1.0f));
  EXPECT_EQ(unpack1(kDfmt2_10_10_10, kNfmtSnorm, {0x00, 0x02, 0x00, 0x80}, 3), bitsOf(-1.0f));
  EXPECT_EQ(unpack1(kDfmt2_10_10_10, kNfmtSnorm, {0x00, 0x00, 0x00, 0x40}, 3), one);
  // 10_10_10_2: X in [1:0], Y [11:2], Z [21:12], W [31:22]: 0xffc05fff = (3, 1023, 5, 1023).
  const std::initializer_list<uint8_t> e1010102 = {0xff, 0x5f, 0xc0, 0xff};
  EXPECT_EQ(unpack1(kDfmt10_10_10_2, kNfmtUint, e1010102, 0), 3u);
  EXPECT_EQ(unpack1(kDfmt10_10_10_2, kNfmtUint, e1010102, 1), 1023u);
  EXPECT_EQ(unpack1(kDfmt10_10_10_2, kNfmtUint, e1010102, 2), 5u);
  EXPECT_EQ(unpack1(kDfmt10_10_10_2, kNfmtUint, e1010102, 3), 1023u);
  EXPECT_EQ(unpack1(kDfmt10_10_10_2, kNfmtSscaled, e1010102, 0), bitsOf(-1.0f));
  // 32-bit FLOAT passes the bits (a signalling NaN included).
  EXPECT_EQ(unpack1(kDfmt32_32_32, kNfmtFloat, {0, 0, 0, 0, 1, 0, 0xa0, 0x7f}, 1), 0x7fa00001u);
  EXPECT_EQ(unpack1(kDfmt32_32_32_32, kNfmtSint, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9}, 3), 9u);
  EXPECT_EQ(unpack1(kDfmt32_32, kNfmtUint, {1, 0, 0, 0, 2, 0, 0, 0}, 1), 2u);
}

TEST(BufferFormat, D16TruncatesFloat32AndRoundsTheRest) {
  // 32-bit FLOAT -> f16 truncates (Vega ISA guide 8.1): 1 + 0.75 ulp stays 1.0, 1e6 saturates.
  EXPECT_EQ(unpackD16(kDfmt32, kNfmtFloat, {0x00, 0x18, 0x80, 0x3f}), 0x3c00u);
  EXPECT_EQ(unpackD16(kDfmt32, kNfmtFloat, {0x00, 0x24, 0x74, 0x49}), 0x7bffu);  // 1e6
  EXPECT_EQ(unpackD16(kDfmt32, kNfmtFloat, {0x00, 0x00, 0x80, 0xff}), 0xfc00u);  // -inf
  EXPECT_EQ(unpackD16(kDfmt32, kNfmtFloat, {0x01, 0x00, 0xc0, 0x7f}), 0x7e00u);  // NaN
  // Other inputs round to nearest even: 127/255 = 0.498039 = 2^-2 * 1.99216 -> mantissa
  // 1015.97 -> 1016 (truncation would give 1015).
  EXPECT_EQ(unpackD16(kDfmt8, kNfmtUnorm, {127}), 0x37f8u);
  EXPECT_EQ(unpackD16(kDfmt8, kNfmtSnorm, {0x80}), 0xbc00u);
  EXPECT_EQ(unpackD16(kDfmt16, kNfmtUscaled, {0xff, 0xff}), 0x7c00u);  // 65535 -> infinity
  EXPECT_EQ(unpackD16(kDfmt16, kNfmtFloat, {0x01, 0x7e}), 0x7e01u);    // f16 as it is
  EXPECT_EQ(unpackD16(kDfmt10_11_11, kNfmtFloat, {0xc0, 0x03, 0x20, 0x70}, 0), 0x3c00u);
  EXPECT_EQ(unpackD16(kDfmt10_11_11, kNfmtFloat, {0xc0, 0x03, 0x20, 0x70}, 2), 0x3800u);
  // Integers: the low 16 bits.
  EXPECT_EQ(unpackD16(kDfmt32, kNfmtUint, {0x45, 0x23, 0x01, 0x00}), 0x2345u);
  EXPECT_EQ(unpackD16(kDfmt8, kNfmtSint, {0x80}), 0xff80u);
  EXPECT_EQ(unpackD16(kDfmt8, kNfmtUint, {0x80}, 3), 1u);
  EXPECT_EQ(unpackD16(kDfmt8, kNfmtUnorm, {0x80}, 3), 0x3c00u);
}

TEST(BufferFormat, PackSaturatesAndRoundsToNearestEven) {
  const float nan = std::nanf(""), inf = HUGE_VALF;
  // UNORM: NaN -> 0, clamp to [0, 1], then x * 255 rounded to nearest even (127.5 -> 128).
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(1.5f)), 255u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(-1.0f)), 0u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(nan)), 0u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(inf)), 255u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(-inf)), 0u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(0.5f)), 128u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUnorm, bitsOf(0.2f)), 51u);
  // SNORM: clamp to [-1, 1], x * 127: -0.5 -> -63.5 -> -64.
  EXPECT_EQ(pack32(kDfmt8, kNfmtSnorm, bitsOf(-2.0f)), 0x81u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSnorm, bitsOf(nan)), 0u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSnorm, bitsOf(inf)), 0x7fu);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSnorm, bitsOf(-0.5f)), 0xc0u);
  EXPECT_EQ(pack32(kDfmt16, kNfmtSnorm, bitsOf(-1.0f)), 0x8001u);
  // Scaled: clamp to the integer range, round to nearest even.
  EXPECT_EQ(pack32(kDfmt8, kNfmtUscaled, bitsOf(300.0f)), 255u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUscaled, bitsOf(-5.0f)), 0u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtUscaled, bitsOf(2.5f)), 2u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSscaled, bitsOf(-200.0f)), 0x80u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSscaled, bitsOf(127.5f)), 0x7fu);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSscaled, bitsOf(nan)), 0u);
  // Integers saturate.
  EXPECT_EQ(pack32(kDfmt8, kNfmtUint, 300), 255u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSint, static_cast<uint32_t>(-300)), 0x80u);
  EXPECT_EQ(pack32(kDfmt8, kNfmtSint, 0xffffffffu), 0xffu);
  EXPECT_EQ(pack32(kDfmt16, kNfmtSint, 40000), 0x7fffu);
  EXPECT_EQ(pack32(kDfmt10_10_10_2, kNfmtUint, 9, 2000, 5, 1), 0x00405fffu);  // X 2 bits: 3
  EXPECT_EQ(pack32(kDfmt32, kNfmtSint, 0x80000000u), 0x80000000u);
  // Floats: f32 -> f16 to nearest even (overflow: infinity).
  EXPECT_EQ(pack32(kDfmt16, kNfmtFloat, bitsOf(1.0f)), 0x3c00u);
  EXPECT_EQ(pack32(kDfmt16, kNfmtFloat, bitsOf(65520.0f)), 0x7c00u);
  EXPECT_EQ(pack32(kDfmt16, kNfmtFloat, 0x3f801800u), 0x3c01u);
  EXPECT_EQ(pack32(kDfmt16_16, kNfmtFloat, bitsOf(-2.0f), bitsOf(0.5f)), 0x3800c000u);
  // 10_11_11: (1.0, -3.0, NaN) -> X 0x3c0, Y 0 (negative), Z quiet NaN 0x3f0.
  EXPECT_EQ(pack32(kDfmt10_11_11, kNfmtFloat, bitsOf(1.0f), bitsOf(-3.0f), bitsOf(nan)),
            0xfc0003c0u);
  // 2_10_10_10 UNORM (1, 0, 0.5, 1): Z = 511.5 -> 512.
  EXPECT_EQ(pack32(kDfmt2_10_10_10, kNfmtUnorm, bitsOf(1.0f), 0, bitsOf(0.5f), bitsOf(1.0f)),
            0xe00003ffu);
  // D16 stores: 16-bit values widen first.
  const uint16_t half[4] = {0x3800, 0x8000, 0xffff, 0x3c00};
  uint8_t e[16] = {};
  packElementD16(kDfmt8_8_8_8, kNfmtUnorm, half, e);
  EXPECT_EQ(e[0], 128);  // 0.5 * 255 = 127.5 -> 128
  EXPECT_EQ(e[1], 0);    // -0
  EXPECT_EQ(e[2], 0);    // NaN
  EXPECT_EQ(e[3], 255);  // 1.0
  const uint16_t ints[4] = {0xffff, 0x8000, 0, 0};
  std::memset(e, 0, sizeof e);
  packElementD16(kDfmt32_32, kNfmtSint, ints, e);
  uint32_t d[2];
  std::memcpy(d, e, 8);
  EXPECT_EQ(d[0], 0xffffffffu);
  EXPECT_EQ(d[1], 0xffff8000u);
  std::memset(e, 0, sizeof e);
  packElementD16(kDfmt32_32, kNfmtUint, ints, e);
  std::memcpy(d, e, 8);
  EXPECT_EQ(d[0], 0xffffu);
  packElementD16(kDfmt32, kNfmtFloat, half + 3, e);
  std::memcpy(d, e, 4);
  EXPECT_EQ(d[0], 0x3f800000u);
}

TEST(BufferFormat, ValidCombinations) {
  int valid = 0;
  for (uint32_t dfmt = 1; dfmt <= 14; ++dfmt)
    for (uint32_t nfmt = 0; nfmt < 8; ++nfmt) valid += formatProblem(dfmt, nfmt) == nullptr;
  // 5 integer-only layouts x 6 + three 16-bit x 7 + four 32-bit x 3 + two packed floats x 1.
  EXPECT_EQ(valid, 65);
  EXPECT_EQ(formatProblem(kDfmtInvalid, kNfmtUint), nullptr);  // the null resource
  EXPECT_NE(formatProblem(kDfmtReserved15, kNfmtUint), nullptr);
  EXPECT_NE(formatProblem(kDfmt16, kNfmtReserved6), nullptr);
  EXPECT_NE(formatProblem(kDfmt8, kNfmtFloat), nullptr);
  EXPECT_NE(formatProblem(kDfmt2_10_10_10, kNfmtFloat), nullptr);
  EXPECT_NE(formatProblem(kDfmt32, kNfmtUnorm), nullptr);
  EXPECT_NE(formatProblem(kDfmt10_11_11, kNfmtUint), nullptr);
  EXPECT_EQ(formatProblem(kDfmt16_16_16_16, kNfmtSnorm), nullptr);
  EXPECT_EQ(formatLayout(kDfmtInvalid), nullptr);
  EXPECT_EQ(formatLayout(kDfmt32_32_32)->bytes, 12);
  EXPECT_EQ(formatLayout(kDfmt8_8)->bytes, 2);
  EXPECT_STREQ(dataFormatName(kDfmt10_11_11), "BUF_DATA_FORMAT_10_11_11");
  EXPECT_STREQ(numFormatName(kNfmtSscaled), "BUF_NUM_FORMAT_SSCALED");
}

// Every valid pair: unpack then pack returns the element, for random elements (fields whose
// value does not survive are skipped: float NaN payloads and the SNORM code that aliases -1).
TEST(BufferFormat, RoundTripEveryValidFormat) {
  std::mt19937 rng(1234);
  int checked = 0;
  for (uint32_t dfmt = 1; dfmt <= 14; ++dfmt) {
    const FormatLayout& l = *formatLayout(dfmt);
    for (uint32_t nfmt = 0; nfmt < 8; ++nfmt) {
      if (formatProblem(dfmt, nfmt)) continue;
      for (int n = 0; n < 200; ++n) {
        uint8_t e[16] = {};
        for (int b = 0; b < l.bytes; ++b) e[b] = static_cast<uint8_t>(rng());
        bool skip = false;
        for (int c = 0; c < l.components; ++c) {
          uint32_t word;
          std::memcpy(&word, e + (l.shift[c] / 32) * 4, 4);
          const uint32_t f =
              static_cast<uint32_t>((word >> (l.shift[c] % 32)) & ((1ull << l.bits[c]) - 1));
          const int k = l.bits[c];
          if (nfmt == kNfmtSnorm && f == (1u << (k - 1))) skip = true;
          if (nfmt == kNfmtFloat && k < 32 && ((f >> (k == 16 ? 10 : k - 5)) & 31) == 31 &&
              (f & ((1u << (k == 16 ? 10 : k - 5)) - 1)) != 0)
            skip = true;
        }
        if (skip) continue;
        uint32_t v[4];
        unpackElement(dfmt, nfmt, e, v);
        uint8_t back[16] = {};
        packElement(dfmt, nfmt, v, back);
        ASSERT_EQ(std::memcmp(e, back, l.bytes), 0)
            << dataFormatName(dfmt) << " " << numFormatName(nfmt) << " sample " << n;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

// ------------------------------------------------------------------------------------------
// Instructions on a wave.

// MUBUF / MTBUF word-0 flag bits (Vega ISA guide 12.17, 12.18); kTfeBit is this test's way to
// ask for TFE (word 1 bit 23).
constexpr uint32_t kOffenBit = 1u << 12, kIdxenBit = 1u << 13, kGlcBit = 1u << 14,
                   kLdsBit = 1u << 16, kTfeBit = 1u << 31;

struct Encoding {
  uint32_t w0, w1;
};

Encoding mubuf(int op, int vdata, int vaddr, int srsrc, int soffset, int offset = 0,
               uint32_t flags = 0) {
  return {(0x38u << 26) | (static_cast<uint32_t>(op) << 18) |
              (flags & (kOffenBit | kIdxenBit | kGlcBit | kLdsBit)) | static_cast<uint32_t>(offset),
          static_cast<uint32_t>(vaddr) | (static_cast<uint32_t>(vdata) << 8) |
              (static_cast<uint32_t>(srsrc / 4) << 16) | ((flags & kTfeBit) ? 1u << 23 : 0u) |
              (static_cast<uint32_t>(soffset) << 24)};
}

Encoding mtbuf(int op, uint32_t dfmt, uint32_t nfmt, int vdata, int vaddr, int srsrc, int soffset,
               int offset = 0, uint32_t flags = 0) {
  return {(0x3au << 26) | (nfmt << 23) | (dfmt << 19) | (static_cast<uint32_t>(op) << 15) |
              (flags & (kOffenBit | kIdxenBit | kGlcBit)) | static_cast<uint32_t>(offset),
          static_cast<uint32_t>(vaddr) | (static_cast<uint32_t>(vdata) << 8) |
              (static_cast<uint32_t>(srsrc / 4) << 16) | ((flags & kTfeBit) ? 1u << 23 : 0u) |
              (static_cast<uint32_t>(soffset) << 24)};
}

// Opcodes (Vega ISA guide 12.17 MUBUF, 12.18 MTBUF).
enum : int {
  kLoadFormatX = 0x00,
  kLoadFormatXyzw = 0x03,
  kStoreFormatX = 0x04,
  kStoreFormatXyz = 0x06,
  kStoreFormatXyzw = 0x07,
  kLoadFormatD16X = 0x08,
  kLoadFormatD16Xyz = 0x0a,
  kLoadUbyte = 0x10,
  kLoadSbyte = 0x11,
  kLoadUshort = 0x12,
  kLoadDword = 0x14,
  kLoadDwordx2 = 0x15,
  kLoadDwordx3 = 0x16,
  kLoadDwordx4 = 0x17,
  kStoreDword = 0x1c,
  kStoreDwordx4 = 0x1f,
  kLoadUbyteD16Hi = 0x21,
  kLoadFormatD16HiX = 0x26,
  kStoreFormatD16HiX = 0x27,
  kAtomicSwap = 0x40,
  kAtomicAdd = 0x42,
  kAtomicAddX2 = 0x62,
  // MTBUF
  kTLoadFormatXy = 0x01,
  kTLoadFormatXyzw = 0x03,
  kTStoreFormatXyzw = 0x07,
  kTLoadFormatD16X = 0x08,
  kTStoreFormatD16Xy = 0x0d,
};

constexpr uint32_t kIdentitySel = kSelX | (kSelY << 3) | (kSelZ << 6) | (kSelW << 9);

uint32_t word3(uint32_t dfmt, uint32_t nfmt, uint32_t dstSel = kIdentitySel) {
  return dstSel | (nfmt << 12) | (dfmt << 15);
}

WaveRunner program(std::initializer_list<Encoding> insts) {
  CodeFile code;
  code.base = 0x1000;
  auto put = [&](uint32_t w) {
    for (int i = 0; i < 4; ++i) code.text.push_back(static_cast<uint8_t>(w >> (8 * i)));
  };
  for (const Encoding& e : insts) {
    put(e.w0);
    put(e.w1);
  }
  put(0xbf810000u);  // s_endpgm
  WaveRunner r(code, GfxTarget::Gfx906);
  r.wave.exec = 1;
  return r;
}

// V# in s[s:s+3] (Vega ISA guide 8.1.5).
void setRsrc(WaveRunner& r, int s, uint64_t base, uint32_t stride, uint32_t numRecords, uint32_t w3,
             bool swizzle = false) {
  r.s(s) = static_cast<uint32_t>(base);
  r.s(s + 1) =
      static_cast<uint32_t>((base >> 32) & 0xffff) | (stride << 16) | (swizzle ? 1u << 31 : 0u);
  r.s(s + 2) = numRecords;
  r.s(s + 3) = w3;
}

void runToEnd(WaveRunner& r) {
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::EndProgram) << res.fault;
}

TEST(Buffer, RawDwordx4IsRangeCheckedPerComponent) {
  for (const bool store : {false, true}) {
    SCOPED_TRACE(store ? "store" : "load");
    WaveRunner r =
        program({mubuf(store ? kStoreDwordx4 : kLoadDwordx4, 4, 0, 8, kZero, 0, kOffenBit)});
    EXPECT_EQ(disassemble(r.program.instructions()[0], GfxTarget::Gfx906),
              store ? "buffer_store_dwordx4 v[4:7], v0, s[8:11], 0 offen"
                    : "buffer_load_dwordx4 v[4:7], v0, s[8:11], 0 offen");
    setRsrc(r, 8, kBase, 0, 40, word3(kDfmt32, kNfmtUint));  // raw: 40 bytes
    for (int i = 0; i < 16; ++i) r.memory.write32(kBase + 4 * i, 0x100u + i);
    r.wave.exec = 0x7;
    const uint32_t offsets[3] = {0, 28, 40};
    for (int l = 0; l < 3; ++l) {
      r.v(0, l) = offsets[l];
      for (int k = 0; k < 4; ++k) r.v(4 + k, l) = 0xa0u + 16 * l + k;
    }
    runToEnd(r);
    if (!store) {
      for (int k = 0; k < 4; ++k) EXPECT_EQ(r.v(4 + k, 0), 0x100u + k);
      // Offset 28: dwords at 28, 32, 36 are inside 40 bytes, the one at 40 is not.
      EXPECT_EQ(r.v(4, 1), 0x107u);
      EXPECT_EQ(r.v(6, 1), 0x109u);
      EXPECT_EQ(r.v(7, 1), 0u);
      for (int k = 0; k < 4; ++k) EXPECT_EQ(r.v(4 + k, 2), 0u);
    } else {
      EXPECT_EQ(r.memory.read32(kBase + 28), 0xb0u);
      EXPECT_EQ(r.memory.read32(kBase + 36), 0xb2u);
      EXPECT_EQ(r.memory.read32(kBase + 40), 0x10au);  // lane 1's 4th dword was dropped
      EXPECT_EQ(r.memory.read32(kBase + 44), 0x10bu);  // lane 2 entirely out of range
    }
  }
}

TEST(Buffer, FormatMtbufAndAtomicsAreAllOrNothing) {
  // buffer_load_format_xyzw (32_32_32_32, DST_SEL X,1,Z,W); tbuffer_load_format_xy (32_32);
  // buffer_atomic_add_x2 with return. 40-byte raw buffer.
  WaveRunner r = program({
      mubuf(kLoadFormatXyzw, 4, 0, 8, kZero, 0, kOffenBit),
      mtbuf(kTLoadFormatXy, kDfmt32_32, kNfmtUint, 8, 0, 8, kZero, 0, kOffenBit),
      mubuf(kAtomicAddX2, 10, 1, 8, kZero, 0, kOffenBit | kGlcBit),
  });
  EXPECT_EQ(disassemble(r.program.instructions()[1], GfxTarget::Gfx906),
            "tbuffer_load_format_xy v[8:9], v0, s[8:11], 0 "
            "format:[BUF_DATA_FORMAT_32_32,BUF_NUM_FORMAT_UINT] offen");
  const uint32_t sel = kSelX | (kSel1 << 3) | (kSelZ << 6) | (kSelW << 9);
  setRsrc(r, 8, kBase, 0, 40, word3(kDfmt32_32_32_32, kNfmtFloat, sel));
  for (int i = 0; i < 16; ++i) r.memory.write32(kBase + 4 * i, 0x100u + i);
  r.wave.exec = 0x7;
  const uint32_t offsets[3] = {0, 28, 36}, atomicOffsets[3] = {32, 40, 48};
  for (int l = 0; l < 3; ++l) {
    r.v(0, l) = offsets[l];
    r.v(1, l) = atomicOffsets[l];
    r.v(10, l) = 1;
    r.v(11, l) = 0;
  }
  runToEnd(r);
  EXPECT_EQ(r.v(4, 0), 0x100u);
  EXPECT_EQ(r.v(5, 0), 0x3f800000u);  // SEL_1
  EXPECT_EQ(r.v(7, 0), 0x103u);
  // Offset 28 + 16 bytes > 40: the whole element is out; SEL_1 still reads 1.0.
  EXPECT_EQ(r.v(4, 1), 0u);
  EXPECT_EQ(r.v(5, 1), 0x3f800000u);
  EXPECT_EQ(r.v(6, 1), 0u);
  // MTBUF: offset 28 + 8 fits; offset 36 + 8 does not: both components are 0.
  EXPECT_EQ(r.v(8, 1), 0x107u);
  EXPECT_EQ(r.v(9, 1), 0x108u);
  EXPECT_EQ(r.v(8, 2), 0u);
  EXPECT_EQ(r.v(9, 2), 0u);
  // Atomic x2 at 32 fits (returns the old value); at 40 and 48 it is dropped and returns 0.
  EXPECT_EQ(r.v(10, 0), 0x108u);
  EXPECT_EQ(r.v(11, 0), 0x109u);
  EXPECT_EQ(r.memory.read32(kBase + 32), 0x109u);
  EXPECT_EQ(r.v(10, 1), 0u);
  EXPECT_EQ(r.v(10, 2), 0u);
  EXPECT_EQ(r.memory.read32(kBase + 40), 0x10au);  // lane 1's add was dropped
  EXPECT_EQ(r.memory.read32(kBase + 44), 0x10bu);
}

TEST(Buffer, StructuredIsRangeCheckedByIndexAndScratchNotAtAll) {
  WaveRunner r = program({mubuf(kLoadDword, 4, 0, 8, kZero, 0, kIdxenBit | kOffenBit),
                          mubuf(kStoreDword, 5, 2, 12, kZero, 0, kOffenBit)});
  setRsrc(r, 8, kBase, 16, 4, word3(kDfmt32, kNfmtUint));  // 4 records of 16 bytes
  const auto scratch = makeScratchResource(0x800000, 64);  // ADD_TID_ENABLE, 64 bytes
  for (int i = 0; i < 4; ++i) r.s(12 + i) = scratch[i];
  for (int i = 0; i < 32; ++i) r.memory.write32(kBase + 4 * i, 0x200u + i);
  r.wave.exec = 0x3;
  r.v(0, 0) = 3;  // index 3, offset 20: past the stride, but only the index is checked
  r.v(1, 0) = 20;
  r.v(0, 1) = 4;  // index 4 >= num_records
  r.v(1, 1) = 0;
  for (int l = 0; l < 2; ++l) {
    r.v(2, l) = 1024;  // private offset far past the 64 bytes of scratch
    r.v(5, l) = 0x55u + l;
  }
  runToEnd(r);
  EXPECT_EQ(r.v(4, 0), 0x200u + (3 * 16 + 20) / 4);
  EXPECT_EQ(r.v(4, 1), 0u);
  for (int l = 0; l < 2; ++l)  // swizzled: dword 1024 / 4 of lane l at 256 * 256 + 4 l
    EXPECT_EQ(r.memory.read32(0x800000 + 256 * 256 + 4 * l), 0x55u + l);
}

TEST(Buffer, SwizzledAddressingFollowsTheSeedFormula) {
  // element size 4 (ELEMENT_SIZE 1), index stride 16 (INDEX_STRIDE 1), stride 8, offset 4:
  // (index / 16 * 8 + 4 / 4 * 4) * 16 + index % 16 * 4 + 4 % 4.
  WaveRunner r = program({mubuf(kStoreDword, 1, 0, 8, kZero, 4, kIdxenBit),
                          mubuf(kStoreDwordx4, 4, 0, 12, kZero, 16, kIdxenBit)});
  setRsrc(r, 8, kBase, 8, 64, word3(kDfmt32, kNfmtUint) | (1u << 19) | (1u << 21), true);
  // element size 16 (3), index stride 16: (index / 16 * 32 + 16) * 16 + index % 16 * 16.
  setRsrc(r, 12, 0x40000, 32, 64, word3(kDfmt32, kNfmtUint) | (3u << 19) | (1u << 21), true);
  r.wave.exec = ~0ull;
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = static_cast<uint32_t>(l);
    r.v(1, l) = 0x5000u + l;
    for (int k = 0; k < 4; ++k) r.v(4 + k, l) = 0x6000u + 4 * l + k;
  }
  runToEnd(r);
  for (int l = 0; l < 64; ++l) {
    SCOPED_TRACE(l);
    EXPECT_EQ(r.memory.read32(kBase + (l / 16) * 128 + 64 + (l % 16) * 4), 0x5000u + l);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(r.memory.read32(0x40000 + (l / 16) * 512 + 256 + (l % 16) * 16 + 4 * k),
                0x6000u + 4 * l + k);
  }
  EXPECT_EQ(r.memory.read32(kBase + 17 * 8 + 4), 0u);  // not where the linear layout has it
}

TEST(Buffer, SwizzledAccessesMustStayInsideAnElement) {
  for (const auto& c : {std::make_pair(mubuf(kLoadDword, 4, 0, 8, kZero, 2), "crosses"),
                        std::make_pair(mubuf(kLoadDwordx2, 4, 0, 8, kZero, 0), "wider")}) {
    WaveRunner r = program({c.first});
    setRsrc(r, 8, kBase, 8, 64, word3(kDfmt32, kNfmtUint) | (1u << 19), true);
    const StepResult res = r.run();
    ASSERT_EQ(res.kind, StepKind::Fault);
    EXPECT_NE(res.fault.find(c.second), std::string::npos) << res.fault;
    EXPECT_EQ(r.wave.pc, 0x1000u);
  }
}

TEST(Buffer, NullResourceReadsZeroAndDropsWrites) {
  // All-zero V#, then a V# whose only fault is DATA_FORMAT 0: both are the null resource.
  for (const uint64_t base : {uint64_t{0}, kBase}) {
    SCOPED_TRACE(base);
    WaveRunner r = program({
        mubuf(kLoadDword, 4, 0, 8, kZero),
        mubuf(kLoadFormatXyzw, 5, 0, 8, kZero),
        mubuf(kStoreDword, 1, 0, 8, kZero),
        mubuf(kAtomicAdd, 2, 0, 8, kZero, 4, kGlcBit),
        mubuf(kLoadUbyteD16Hi, 3, 0, 8, kZero),
    });
    setRsrc(r, 8, base, 0, base ? 64 : 0, 0);
    r.memory.write32(kBase, 0x11223344);
    r.memory.write32(kBase + 4, 7);
    r.v(1, 0) = 0x99;
    r.v(2, 0) = 5;
    r.v(3, 0) = 0xabcd1234;
    for (int k = 4; k < 9; ++k) r.v(k, 0) = 0xdead;
    runToEnd(r);
    EXPECT_EQ(r.v(4, 0), 0u);
    for (int k = 5; k < 9; ++k) EXPECT_EQ(r.v(k, 0), 0u);  // even W (missing: 1) reads 0
    EXPECT_EQ(r.v(2, 0), 0u);
    EXPECT_EQ(r.v(3, 0), 0x00001234u);  // d16_hi: the high half is 0, the low half kept
    EXPECT_EQ(r.memory.read32(kBase), 0x11223344u);
    EXPECT_EQ(r.memory.read32(kBase + 4), 7u);
    EXPECT_EQ(r.memory.read32(0), 0u);
  }
}

TEST(Buffer, ImageResourceMakesTheInstructionANoOp) {
  WaveRunner r = program({mubuf(kLoadDword, 4, 0, 8, kZero), mubuf(kStoreDword, 1, 0, 8, kZero),
                          mubuf(kLoadFormatXyzw, 5, 0, 8, kZero)});
  setRsrc(r, 8, kBase, 0, 64, word3(kDfmt32, kNfmtUint) | (2u << 30));  // TYPE != 0: a T#
  r.memory.write32(kBase, 0x11223344);
  r.v(1, 0) = 0x99;
  for (int k = 4; k < 9; ++k) r.v(k, 0) = 0xdead;
  runToEnd(r);
  for (int k = 4; k < 9; ++k) EXPECT_EQ(r.v(k, 0), 0xdeadu);  // loads return nothing
  EXPECT_EQ(r.memory.read32(kBase), 0x11223344u);
}

// One load in alignment mode `mode`: the VGPR result, or the fault.
StepResult alignedLoad(int op, int offset, int mode, uint32_t* result, uint32_t w3 = 0) {
  WaveRunner r = program({mubuf(op, 4, 0, 8, kZero, offset)});
  setRsrc(r, 8, kBase, 0, 64, w3 ? w3 : word3(kDfmt32, kNfmtUint));
  for (int i = 0; i < 64; ++i) r.memory.write8(kBase + i, static_cast<uint8_t>(i));
  r.wave.alignmentMode = static_cast<uint8_t>(mode);
  const StepResult res = r.run();
  result[0] = r.v(4, 0);
  result[1] = r.v(5, 0);
  if (res.kind == StepKind::Fault) {
    EXPECT_EQ(r.wave.pc, 0x1000u);  // a fault leaves PC on the instruction
  }
  return res;
}

TEST(Buffer, AlignmentModes) {
  uint32_t v[2];
  // UNALIGNED (the ROCm default): any address.
  EXPECT_EQ(WaveState{}.alignmentMode, 3);
  EXPECT_EQ(alignedLoad(kLoadDword, 2, 3, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x05040302u);
  // DWORD: the low bits of the address are dropped (to the smaller of size and a dword).
  EXPECT_EQ(alignedLoad(kLoadDword, 2, 0, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x03020100u);
  EXPECT_EQ(alignedLoad(kLoadUshort, 3, 0, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x0302u);
  EXPECT_EQ(alignedLoad(kLoadDwordx2, 6, 0, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[1], 0x0b0a0908u);
  // DWORD_STRICT: misaligned to min(size, 4) is a MEMVIOL.
  StepResult res = alignedLoad(kLoadDword, 2, 1, v);
  ASSERT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("MEMVIOL"), std::string::npos) << res.fault;
  EXPECT_NE(res.fault.find("DWORD_STRICT"), std::string::npos) << res.fault;
  EXPECT_EQ(alignedLoad(kLoadUshort, 2, 1, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x0302u);
  EXPECT_EQ(alignedLoad(kLoadUshort, 1, 1, v).kind, StepKind::Fault);
  EXPECT_EQ(alignedLoad(kLoadDwordx2, 4, 1, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x07060504u);
  // STRICT: aligned to the access size (a 12-byte access: to a dword).
  res = alignedLoad(kLoadDwordx2, 4, 2, v);
  ASSERT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("STRICT"), std::string::npos) << res.fault;
  EXPECT_EQ(alignedLoad(kLoadDwordx2, 8, 2, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 0x0b0a0908u);
  EXPECT_EQ(alignedLoad(kLoadDwordx4, 8, 2, v).kind, StepKind::Fault);
  EXPECT_EQ(alignedLoad(kLoadDwordx3, 4, 2, v).kind, StepKind::EndProgram);
  EXPECT_EQ(alignedLoad(kLoadUbyte, 3, 2, v).kind, StepKind::EndProgram);
  EXPECT_EQ(v[0], 3u);
}

TEST(Buffer, AtomicsAndFormatOpsAlwaysNeedAlignment) {
  uint32_t v[2];
  for (int mode = 0; mode < 4; ++mode) {
    SCOPED_TRACE(mode);
    StepResult res = alignedLoad(kAtomicAdd, 2, mode, v);
    ASSERT_EQ(res.kind, StepKind::Fault);
    EXPECT_NE(res.fault.find("atomics must be aligned"), std::string::npos) << res.fault;
    EXPECT_EQ(alignedLoad(kAtomicAddX2, 4, mode, v).kind, StepKind::Fault);
    EXPECT_EQ(alignedLoad(kAtomicAddX2, 8, mode, v).kind, StepKind::EndProgram);
    // Format ops: 4-byte alignment for 4-byte and larger formats, 2 for 2-byte, 1 for 1-byte.
    res = alignedLoad(kLoadFormatX, 2, mode, v, word3(kDfmt32, kNfmtUint));
    ASSERT_EQ(res.kind, StepKind::Fault);
    EXPECT_NE(res.fault.find("format operations"), std::string::npos) << res.fault;
    EXPECT_EQ(alignedLoad(kLoadFormatX, 2, mode, v, word3(kDfmt8_8, kNfmtUint)).kind,
              StepKind::EndProgram);
    EXPECT_EQ(v[0], 2u);
    EXPECT_EQ(alignedLoad(kLoadFormatX, 1, mode, v, word3(kDfmt8_8, kNfmtUint)).kind,
              StepKind::Fault);
    EXPECT_EQ(alignedLoad(kLoadFormatX, 1, mode, v, word3(kDfmt8, kNfmtUint)).kind,
              StepKind::EndProgram);
    EXPECT_EQ(v[0], 1u);
  }
}

TEST(Buffer, D16AndD16HiFormatLoadsAndStores) {
  WaveRunner r = program({
      mubuf(kLoadFormatD16Xyz, 4, 0, 8, kZero),  // 16_16_16_16 FLOAT
      mubuf(kLoadFormatD16HiX, 6, 0, 8, kZero),
      mubuf(kLoadFormatD16X, 7, 0, 12, kZero),  // 32 FLOAT: truncated
      mtbuf(kTLoadFormatD16X, kDfmt8, kNfmtUnorm, 8, 0, 16, kZero, 8),
      mtbuf(kTStoreFormatD16Xy, kDfmt8_8, kNfmtUnorm, 9, 0, 16, kZero, 12),
      mubuf(kStoreFormatD16HiX, 10, 0, 8, kZero, 16),
  });
  setRsrc(r, 8, kBase, 0, 64, word3(kDfmt16_16_16_16, kNfmtFloat));
  setRsrc(r, 12, kBase + 0x100, 0, 64, word3(kDfmt32, kNfmtFloat));
  setRsrc(r, 16, kBase + 0x200, 0, 64, word3(kDfmt32, kNfmtUint));  // MTBUF ignores its format
  r.memory.write64(kBase, 0x7c00c00040003c00ull);                   // 1, 2, -2, inf
  r.memory.write32(kBase + 0x100, 0x3f801800u);                     // 1 + 0.75 ulp of f16
  r.memory.write8(kBase + 0x208, 127);
  r.v(5, 0) = 0xabcd1234;
  r.v(6, 0) = 0x1234abcd;
  r.v(7, 0) = 0x55550000;
  r.v(9, 0) = 0x38003c00;   // (1.0, 0.5)
  r.v(10, 0) = 0x42000000;  // 3.0 in the high half
  runToEnd(r);
  EXPECT_EQ(r.v(4, 0), 0x40003c00u);
  EXPECT_EQ(r.v(5, 0), 0xabcdc000u);  // Z in the low half, the high half kept
  EXPECT_EQ(r.v(6, 0), 0x3c00abcdu);  // d16_hi: X in the high half
  EXPECT_EQ(r.v(7, 0), 0x55553c00u);
  EXPECT_EQ(r.v(8, 0) & 0xffff, 0x37f8u);  // 127/255 to nearest even
  EXPECT_EQ(r.memory.read8(kBase + 0x20c), 255);
  EXPECT_EQ(r.memory.read8(kBase + 0x20d), 128);
  // d16_hi store into 16_16_16_16 FLOAT: X = 3.0 from the high half, Y, Z, W not supplied: 0.
  EXPECT_EQ(r.memory.read64(kBase + 16), 0x4200u);
}

TEST(Buffer, DstSelAndMissingComponents) {
  const uint32_t selWX10 = kSelW | (kSelX << 3) | (kSel1 << 6) | (kSel0 << 9);
  const uint32_t selX10X = kSelX | (kSel1 << 3) | (kSel0 << 6) | (kSelX << 9);
  WaveRunner r = program({
      mubuf(kLoadFormatXyzw, 4, 0, 8, kZero),                       // 8 UNORM, W,X,1,0
      mtbuf(kTLoadFormatXyzw, kDfmt8, kNfmtUnorm, 8, 0, 8, kZero),  // identity X000
      mubuf(kStoreFormatX, 1, 0, 12, kZero),                        // 4 dwords by sel
      mubuf(kStoreFormatXyzw, 20, 0, 16, kZero),                    // 32: X only
      mubuf(kLoadFormatX, 24, 0, 12, kZero, 0),                     // first of four
  });
  setRsrc(r, 8, kBase, 0, 64, word3(kDfmt8, kNfmtUnorm, selWX10));
  setRsrc(r, 12, kBase + 0x100, 0, 64, word3(kDfmt32_32_32_32, kNfmtUint, selX10X));
  setRsrc(r, 16, kBase + 0x200, 0, 64, word3(kDfmt32, kNfmtUint));
  r.memory.write8(kBase, 51);  // 0.2
  r.memory.write32(kBase + 0x204, 0xeeee);
  r.v(1, 0) = 0x77;
  for (int k = 0; k < 4; ++k) r.v(20 + k, 0) = k + 1u;
  r.v(25, 0) = 0xbeef;
  runToEnd(r);
  EXPECT_EQ(r.v(4, 0), 0x3f800000u);  // W: the format has none, so 1.0
  EXPECT_EQ(r.v(5, 0), bitsOf(0.2f));
  EXPECT_EQ(r.v(6, 0), 0x3f800000u);  // SEL_1
  EXPECT_EQ(r.v(7, 0), 0u);           // SEL_0
  EXPECT_EQ(r.v(8, 0), bitsOf(0.2f));
  for (int k = 9; k < 12; ++k) EXPECT_EQ(r.v(k, 0), 0u);  // MTBUF identity: X000
  EXPECT_EQ(r.memory.read32(kBase + 0x100), 0x77u);
  EXPECT_EQ(r.memory.read32(kBase + 0x104), 1u);  // SEL_1 of a UINT format: 1
  EXPECT_EQ(r.memory.read32(kBase + 0x108), 0u);
  EXPECT_EQ(r.memory.read32(kBase + 0x10c), 0x77u);
  EXPECT_EQ(r.memory.read32(kBase + 0x200), 1u);
  EXPECT_EQ(r.memory.read32(kBase + 0x204), 0xeeeeu);  // Y, Z, W not stored
  EXPECT_EQ(r.v(24, 0), 0x77u);
  EXPECT_EQ(r.v(25, 0), 0xbeefu);
}

TEST(Buffer, TfeWritesAStatusVgprAfterTheData) {
  WaveRunner r = program({mubuf(kLoadDword, 4, 0, 8, kZero, 0, kOffenBit | kTfeBit),
                          mubuf(kLoadFormatD16Xyz, 8, 0, 12, kZero, 0, kTfeBit)});
  setRsrc(r, 8, kBase, 0, 4, word3(kDfmt32, kNfmtUint));
  setRsrc(r, 12, kBase, 0, 64, word3(kDfmt16_16_16_16, kNfmtFloat));
  r.memory.write64(kBase, 0x0000c00040003c00ull);
  r.wave.exec = 0x3;
  r.v(0, 1) = 8;  // out of range
  for (int l = 0; l < 2; ++l)
    for (int k = 4; k < 12; ++k) r.v(k, l) = 0xdead;
  runToEnd(r);
  EXPECT_EQ(r.v(4, 0), 0x40003c00u);
  EXPECT_EQ(r.v(4, 1), 0u);
  for (int l = 0; l < 2; ++l) {
    EXPECT_EQ(r.v(5, l), 0u);  // status: no fetch failed
    EXPECT_EQ(r.v(6, l), 0xdeadu);
    EXPECT_EQ(r.v(10, l), 0u);  // after the two D16 VGPRs
    EXPECT_EQ(r.v(11, l), 0xdeadu);
  }
  EXPECT_EQ(r.v(8, 0), 0x40003c00u);
  WaveRunner bad = program({mubuf(kLoadDword, 4, 0, 8, kZero, 0, kLdsBit | kTfeBit)});
  setRsrc(bad, 8, kBase, 0, 4, word3(kDfmt32, kNfmtUint));
  const StepResult res = bad.run();
  ASSERT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("TFE"), std::string::npos) << res.fault;
}

TEST(Buffer, LoadsIntoLdsAtM0PlusOffsetPlusLane) {
  WaveRunner r = program({
      mubuf(kLoadDword, 4, 0, 8, kZero, 8, kOffenBit | kLdsBit),
      mubuf(kLoadSbyte, 4, 0, 12, kZero, 0, kLdsBit),
      mubuf(kLoadFormatX, 4, 0, 16, kZero, 0, kLdsBit),
  });
  setRsrc(r, 8, kBase, 0, 64 * 4 + 4, word3(kDfmt32, kNfmtUint));  // lane 63 reads past it
  setRsrc(r, 12, kBase + 0x1000, 0, 64, word3(kDfmt32, kNfmtUint));
  setRsrc(r, 16, kBase + 0x2000, 0, 64, word3(kDfmt16, kNfmtFloat));
  for (int i = 0; i < 66; ++i) r.memory.write32(kBase + 4 * i, 0x300u + i);
  r.memory.write8(kBase + 0x1000, 0x80);
  r.memory.write32(kBase + 0x2000, 0x3c00);
  r.wave.exec = ~0ull;
  r.wave.m0 = 0x100;
  for (int l = 0; l < 64; ++l) {
    r.v(0, l) = 4u * l;
    r.v(4, l) = 0xdead;
  }
  // Run one instruction at a time to look at the LDS in between.
  auto ldsWord = [&](uint32_t a) {
    uint32_t v;
    std::memcpy(&v, &r.lds[a], 4);
    return v;
  };
  ASSERT_EQ(r.step().kind, StepKind::Memory);
  for (int l = 0; l < 64; ++l) {
    SCOPED_TRACE(l);
    // 4 l + 8 + 4 <= 260 except for lane 63, which reads 0.
    EXPECT_EQ(ldsWord(0x100 + 8 + 4 * l), l < 63 ? 0x300u + l + 2 : 0u);
    EXPECT_EQ(r.v(4, l), 0xdeadu);  // VGPRs untouched
  }
  ASSERT_EQ(r.step().kind, StepKind::Memory);
  EXPECT_EQ(ldsWord(0x100 + 4 * 5), 0xffffff80u);  // sign-extended to a dword
  ASSERT_EQ(r.step().kind, StepKind::Memory);
  EXPECT_EQ(ldsWord(0x100 + 4 * 9), 0x3f800000u);  // converted like a VGPR result
  // buffer_load_dwordx2 has no LDS form: with lds=1 it is no instruction (llvm-objdump-15
  // prints it as .long), and executing it faults as an illegal encoding.
  WaveRunner bad = program({mubuf(kLoadDwordx2, 4, 0, 8, kZero, 0, kLdsBit)});
  setRsrc(bad, 8, kBase, 0, 64, word3(kDfmt32, kNfmtUint));
  const StepResult res = bad.run();
  ASSERT_EQ(res.kind, StepKind::Fault);
  EXPECT_NE(res.fault.find("illegal or unknown instruction encoding"), std::string::npos)
      << res.fault;
}

// Every MUBUF atomic, 32 and 64 bit, with (glc) and without return: op index i is opcode
// 0x40 + i (0x60 + i for _x2): swap, cmpswap, add, sub, smin, umin, smax, umax, and, or, xor,
// inc, dec.
TEST(Buffer, EveryAtomicWithAndWithoutReturn) {
  struct Case {
    int op;
    uint64_t old, src, cmp, result;
  };
  const uint64_t m1 = ~0ull;
  const Case cases32[] = {
      {0, 5, 7, 0, 7},          {1, 5, 9, 5, 9},          {1, 5, 9, 4, 5},
      {2, 5, 7, 0, 12},         {3, 5, 7, 0, 0xfffffffe}, {4, 5, 0xffffffff, 0, 0xffffffff},
      {5, 5, 0xffffffff, 0, 5}, {6, 5, 0xffffffff, 0, 5}, {7, 5, 0xffffffff, 0, 0xffffffff},
      {8, 0xc, 0xa, 0, 8},      {9, 0xc, 0xa, 0, 0xe},    {10, 0xc, 0xa, 0, 6},
      {11, 9, 9, 0, 0},         {11, 3, 9, 0, 4},         {12, 0, 9, 0, 9},
      {12, 12, 9, 0, 9},        {12, 5, 9, 0, 4},
  };
  const Case cases64[] = {
      {0, 0x100000005, 0x700000000, 0, 0x700000000},
      {1, 0x100000005, 0x900000000, 0x100000005, 0x900000000},
      {1, 0x100000005, 0x900000000, 0x5, 0x100000005},
      {2, 0x1ffffffff, 1, 0, 0x200000000},
      {3, 0, 1, 0, m1},
      {4, 5, m1, 0, m1},
      {5, 5, m1, 0, 5},
      {6, 5, m1, 0, 5},
      {7, 5, m1, 0, m1},
      {8, 0xc0000000c, 0xa0000000a, 0, 0x800000008},
      {9, 0xc0000000c, 0xa0000000a, 0, 0xe0000000e},
      {10, 0xc0000000c, 0xa0000000a, 0, 0x600000006},
      {11, 0x100000000, 0x100000000, 0, 0},
      {12, 0, 0x100000000, 0, 0x100000000},
  };
  for (const bool wide : {false, true}) {
    for (const Case& c : wide ? std::vector<Case>(std::begin(cases64), std::end(cases64))
                              : std::vector<Case>(std::begin(cases32), std::end(cases32))) {
      for (const bool glc : {false, true}) {
        SCOPED_TRACE(std::to_string(c.op) + (wide ? " x2" : "") + (glc ? " glc" : ""));
        WaveRunner r =
            program({mubuf((wide ? 0x60 : 0x40) + c.op, 1, 0, 8, kZero, 16, glc ? kGlcBit : 0)});
        setRsrc(r, 8, kBase, 0, 64, word3(kDfmt32, kNfmtUint));
        const int dwords = wide ? 2 : 1;
        if (wide)
          r.memory.write64(kBase + 16, c.old);
        else
          r.memory.write32(kBase + 16, static_cast<uint32_t>(c.old));
        for (int k = 0; k < dwords; ++k) {
          r.v(1 + k, 0) = static_cast<uint32_t>(c.src >> (32 * k));
          r.v(1 + dwords + k, 0) = static_cast<uint32_t>(c.cmp >> (32 * k));
        }
        runToEnd(r);
        const uint64_t now = wide ? r.memory.read64(kBase + 16) : r.memory.read32(kBase + 16);
        EXPECT_EQ(now, wide ? c.result : (c.result & 0xffffffff));
        const uint64_t returned = r.v(1, 0) | (wide ? static_cast<uint64_t>(r.v(2, 0)) << 32 : 0);
        EXPECT_EQ(returned, glc ? c.old : (wide ? c.src : c.src & 0xffffffff));
      }
    }
  }
}

TEST(Buffer, FormatStoresAndLoadsThroughMemory) {
  WaveRunner r = program({
      mtbuf(kTStoreFormatXyzw, kDfmt8_8_8_8, kNfmtSnorm, 4, 0, 8, kZero),
      mtbuf(kTLoadFormatXyzw, kDfmt8_8_8_8, kNfmtSnorm, 12, 0, 8, kZero),
      mubuf(kStoreFormatXyz, 16, 0, 12, kZero),
      mubuf(kLoadFormatXyzw, 20, 0, 12, kZero),
  });
  setRsrc(r, 8, kBase, 0, 64, word3(kDfmt32, kNfmtUint));
  setRsrc(r, 12, kBase + 0x100, 0, 64, word3(kDfmt10_11_11, kNfmtFloat));
  r.v(4, 0) = bitsOf(-2.0f);
  r.v(5, 0) = bitsOf(0.5f);
  r.v(6, 0) = bitsOf(std::nanf(""));
  r.v(7, 0) = bitsOf(1.0f);
  r.v(16, 0) = bitsOf(1.0f);
  r.v(17, 0) = bitsOf(-3.0f);
  r.v(18, 0) = bitsOf(131072.0f);  // past the largest 10-bit float: infinity
  runToEnd(r);
  // -2 -> -127 (0x81), 0.5 * 127 = 63.5 -> 64, NaN -> 0, 1 -> 127.
  EXPECT_EQ(r.memory.read32(kBase), 0x7f004081u);
  EXPECT_EQ(r.v(12, 0), bitsOf(-1.0f));
  EXPECT_EQ(r.v(13, 0), bitsOf(static_cast<float>(64.0 / 127.0)));
  EXPECT_EQ(r.v(14, 0), 0u);
  EXPECT_EQ(r.v(15, 0), bitsOf(1.0f));
  EXPECT_EQ(r.memory.read32(kBase + 0x100), 0xf80003c0u);
  EXPECT_EQ(r.v(20, 0), bitsOf(1.0f));
  EXPECT_EQ(r.v(21, 0), 0u);
  EXPECT_EQ(r.v(22, 0), 0x7f800000u);
  EXPECT_EQ(r.v(23, 0), bitsOf(1.0f));  // W: the format has none, identity DST_SEL W -> 1.0
}

TEST(Buffer, InvalidFormatCombinationsFaultClearly) {
  WaveRunner r = program({mtbuf(kTLoadFormatXyzw, kDfmt32, kNfmtUnorm, 4, 0, 8, kZero)});
  setRsrc(r, 8, kBase, 0, 64, word3(kDfmt32, kNfmtUint));
  const StepResult res = r.run();
  ASSERT_EQ(res.kind, StepKind::Fault);
  EXPECT_EQ(res.fault,
            "buffer format BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_UNORM: 32-bit components are only "
            "UINT, SINT or FLOAT");
  WaveRunner r2 = program({mubuf(kLoadFormatX, 4, 0, 8, kZero)});
  setRsrc(r2, 8, kBase, 0, 64, word3(kDfmtReserved15, kNfmtUint));
  EXPECT_EQ(r2.run().kind, StepKind::Fault);
}

}  // namespace
}  // namespace vgpu::isa::test
