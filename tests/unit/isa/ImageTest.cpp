// Image descriptors and MIMG execution (Vega ISA reference guide, section 8.2 "Image
// Instructions"). Descriptors are built field by field here from the guide's T#/S# tables (the
// gfx9 bit positions as AMD's ROCr image runtime names them, resource_ai.h); texel addresses and
// results are worked out by hand from the linear layout of AMD's address library for gfx9
// (docs/images.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "ValueCheck.h"
#include "isa/ImageResource.h"

namespace vgpu::isa::test {
namespace {

// Sets `bits` bits of words[word] at bit `low` to `value`.
void put(uint32_t* words, int word, int low, int bits, uint32_t value) {
  const uint32_t mask = (bits == 32 ? ~0u : (1u << bits) - 1) << low;
  words[word] = (words[word] & ~mask) | ((value << low) & mask);
}

// A T# built from the guide's fields.
struct TSharp {
  uint32_t w[8] = {};
  TSharp(uint64_t base, uint32_t dfmt, uint32_t nfmt, uint32_t width, uint32_t height,
         uint32_t type) {
    put(w, 0, 0, 32, static_cast<uint32_t>(base >> 8));
    put(w, 1, 0, 8, static_cast<uint32_t>(base >> 40));
    put(w, 1, 20, 6, dfmt);
    put(w, 1, 26, 4, nfmt);
    put(w, 2, 0, 14, width - 1);
    put(w, 2, 14, 14, height - 1);
    put(w, 3, 0, 12, 4 | (5 << 3) | (6 << 6) | (7 << 9));  // DST_SEL X, Y, Z, W
    put(w, 3, 28, 4, type);
    put(w, 4, 13, 16, width - 1);  // PITCH: the width, for one level
  }
  TSharp& levels(uint32_t base, uint32_t last, uint32_t maxMip) {
    put(w, 3, 12, 4, base);
    put(w, 3, 16, 4, last);
    put(w, 5, 28, 4, maxMip);
    return *this;
  }
  TSharp& depth(uint32_t d) {  // DEPTH field: depth - 1 (3D) or the last slice (arrays)
    put(w, 4, 0, 13, d - 1);
    return *this;
  }
  TSharp& pitch(uint32_t p) {
    put(w, 4, 13, 16, p - 1);
    return *this;
  }
  TSharp& dstSel(uint32_t x, uint32_t y, uint32_t z, uint32_t ww) {
    put(w, 3, 0, 12, x | (y << 3) | (z << 6) | (ww << 9));
    return *this;
  }
  TSharp& baseArray(uint32_t b) {
    put(w, 5, 0, 13, b);
    return *this;
  }
  TSharp& numFormat(uint32_t n) {
    put(w, 1, 26, 4, n);
    return *this;
  }
  TSharp& swizzleMode(uint32_t m) {
    put(w, 3, 20, 5, m);
    return *this;
  }
  // The T# as the starting values of s[first:first+7].
  void into(std::vector<Val>& in, int first) const {
    for (int k = 0; k < 8; ++k) in.push_back({"s" + std::to_string(first + k), w[k]});
  }
};

TEST(ImageResource, DecodesEveryFieldOfTheT) {
  uint32_t w[8] = {};
  put(w, 0, 0, 32, 0x12345678);
  put(w, 1, 0, 8, 0x9a);
  put(w, 1, 8, 12, 0x123);   // MIN_LOD
  put(w, 1, 20, 6, 10);      // 8_8_8_8
  put(w, 1, 26, 4, 9);       // SRGB
  put(w, 2, 0, 14, 639);     // WIDTH - 1
  put(w, 2, 14, 14, 479);    // HEIGHT - 1
  put(w, 2, 28, 3, 5);       // PERF_MOD
  put(w, 3, 0, 12, 0xfac);   // DST_SEL
  put(w, 3, 12, 4, 2);       // BASE_LEVEL
  put(w, 3, 16, 4, 7);       // LAST_LEVEL
  put(w, 3, 20, 5, 0x19);    // SW_MODE
  put(w, 3, 28, 4, 13);      // 2D_ARRAY
  put(w, 4, 0, 13, 4095);    // DEPTH
  put(w, 4, 13, 16, 40000);  // PITCH
  put(w, 4, 29, 3, 3);       // BC_SWIZZLE
  put(w, 5, 0, 13, 17);      // BASE_ARRAY
  put(w, 5, 13, 4, 6);       // ARRAY_PITCH
  put(w, 5, 17, 8, 0xab);    // META_DATA_ADDRESS_HI
  put(w, 5, 28, 4, 9);       // MAX_MIP
  put(w, 6, 0, 12, 0x456);   // MIN_LOD_WARN
  put(w, 6, 21, 1, 1);       // COMPRESSION_EN
  put(w, 7, 0, 32, 0xcafe0001);
  const ImageResource r = decodeImageResource(w);
  EXPECT_EQ(r.base, 0x9a1234567800ull);
  EXPECT_EQ(r.minLod, 0x123u);
  EXPECT_EQ(r.dataFormat, 10u);
  EXPECT_EQ(r.numFormat, 9u);
  EXPECT_EQ(r.width, 640u);
  EXPECT_EQ(r.height, 480u);
  EXPECT_EQ(r.perfMod, 5u);
  EXPECT_EQ(r.dstSel, 0xfacu);
  EXPECT_EQ(r.baseLevel, 2u);
  EXPECT_EQ(r.lastLevel, 7u);
  EXPECT_EQ(r.swizzleMode, 0x19u);
  EXPECT_EQ(r.type, 13u);
  EXPECT_EQ(r.depth, 4096u);
  EXPECT_EQ(r.pitch, 40001u);
  EXPECT_EQ(r.bcSwizzle, 3u);
  EXPECT_EQ(r.baseArray, 17u);
  EXPECT_EQ(r.arrayPitch, 6u);
  EXPECT_EQ(r.maxMip, 9u);
  EXPECT_EQ(r.minLodWarn, 0x456u);
  EXPECT_TRUE(r.compression);
  EXPECT_EQ(r.metaDataAddress, (0xabull << 40) | (0xcafe0001ull << 8));

  // The 128-bit form: words 4-7 are not read.
  const ImageResource narrow = decodeImageResource(w, 4);
  EXPECT_FALSE(narrow.wide);
  EXPECT_EQ(narrow.depth, 1u);
  EXPECT_EQ(narrow.baseArray, 0u);
  EXPECT_EQ(narrow.maxMip, 7u);  // the levels up to LAST_LEVEL
  EXPECT_FALSE(narrow.compression);
}

TEST(ImageResource, DecodesEveryFieldOfTheS) {
  uint32_t w[4] = {};
  put(w, 0, 0, 3, 6);  // CLAMP_X border
  put(w, 0, 3, 3, 1);  // CLAMP_Y mirror
  put(w, 0, 6, 3, 2);  // CLAMP_Z clamp to last texel
  put(w, 0, 9, 3, 4);
  put(w, 0, 12, 3, 3);  // DEPTH_COMPARE_FUNC lequal
  put(w, 0, 15, 1, 1);
  put(w, 0, 16, 3, 5);
  put(w, 0, 19, 1, 1);
  put(w, 0, 20, 1, 1);
  put(w, 0, 21, 6, 33);
  put(w, 0, 27, 1, 1);
  put(w, 0, 28, 1, 1);
  put(w, 0, 29, 2, 2);
  put(w, 0, 31, 1, 1);
  put(w, 1, 0, 12, 0x100);   // MIN_LOD 1.0
  put(w, 1, 12, 12, 0xa80);  // MAX_LOD 10.5
  put(w, 1, 24, 4, 7);
  put(w, 1, 28, 4, 9);
  put(w, 2, 0, 14, 0x3f80);  // LOD_BIAS -0.5 (14-bit two's complement, 8 fraction bits)
  put(w, 2, 14, 6, 21);
  put(w, 2, 20, 2, 1);  // XY_MAG bilinear
  put(w, 2, 22, 2, 3);  // XY_MIN aniso bilinear
  put(w, 2, 24, 2, 2);  // Z linear
  put(w, 2, 26, 2, 1);  // MIP point
  put(w, 2, 28, 1, 1);
  put(w, 2, 30, 1, 1);
  put(w, 3, 0, 12, 0x5a5);
  put(w, 3, 12, 1, 1);
  put(w, 3, 30, 2, 2);  // opaque white
  const SamplerState s = decodeSampler(w);
  EXPECT_EQ(s.clamp[0], kClampBorder);
  EXPECT_EQ(s.clamp[1], kClampMirror);
  EXPECT_EQ(s.clamp[2], kClampLastTexel);
  EXPECT_EQ(s.maxAnisoRatio, 4);
  EXPECT_EQ(s.depthCompareFunc, 3);
  EXPECT_TRUE(s.forceUnnormalized);
  EXPECT_EQ(s.anisoThreshold, 5);
  EXPECT_TRUE(s.mcCoordTrunc);
  EXPECT_TRUE(s.forceDegamma);
  EXPECT_EQ(s.anisoBias, 33);
  EXPECT_TRUE(s.truncCoord);
  EXPECT_TRUE(s.disableCubeWrap);
  EXPECT_EQ(s.filterMode, 2);
  EXPECT_TRUE(s.compatMode);
  EXPECT_EQ(s.minLod, 0x100u);
  EXPECT_EQ(s.maxLod, 0xa80u);
  EXPECT_EQ(s.perfMip, 7);
  EXPECT_EQ(s.perfZ, 9);
  EXPECT_EQ(s.lodBias, -128);
  EXPECT_EQ(s.lodBiasSec, 21);
  EXPECT_EQ(s.xyMagFilter, kXyBilinear);
  EXPECT_EQ(s.xyMinFilter, kXyAnisoBilinear);
  EXPECT_EQ(s.zFilter, kFilterLinear);
  EXPECT_EQ(s.mipFilter, kFilterPoint);
  EXPECT_TRUE(s.mipPointPreclamp);
  EXPECT_FALSE(s.blendZeroPrt);
  EXPECT_TRUE(s.filterPrecFix);
  EXPECT_FALSE(s.anisoOverride);
  EXPECT_EQ(s.borderColorPtr, 0x5a5u);
  EXPECT_TRUE(s.skipDegamma);
  EXPECT_EQ(s.borderColorType, kBorderOpaqueWhite);
}

TEST(ImageResource, LinearLayoutOfOneLevel) {
  // 2D array, 8_8_8_8 (4 bytes), 10 x 3, PITCH 16 texels, slices 0..4.
  const TSharp t = TSharp(0x100000, 10, 0, 10, 3, kImage2dArray).pitch(16).depth(5);
  ImageLayout l;
  ASSERT_EQ(linearLayout(decodeImageResource(t.w), l), "");
  EXPECT_EQ(l.texelBytes, 4u);
  EXPECT_EQ(l.rowPitchBytes, 64u);   // 16 texels
  EXPECT_EQ(l.sliceBytes, 3 * 64u);  // HEIGHT rows
  EXPECT_EQ(l.lastSlice, 4u);
  // (x 7, y 2, slice 3): 0x100000 + 3 * 192 + 2 * 64 + 7 * 4.
  EXPECT_EQ(l.texelAddress(0x100000, 7, 2, 3, 0), 0x100000u + 576 + 128 + 28);
}

TEST(ImageResource, LinearMipChainStacksLevelsInsideASlice) {
  // 2D, 32 (4 bytes), 20 x 9, levels 0..3 (heights 9, 4, 2, 1: 16 rows); PITCH holds the chain
  // height; rows are the width padded to 256 bytes (20 * 4 = 80 -> 256).
  const TSharp t = TSharp(0x200000, 4, 4, 20, 9, kImage2d).levels(0, 3, 3).pitch(16);
  ImageLayout l;
  ASSERT_EQ(linearLayout(decodeImageResource(t.w), l), "");
  EXPECT_EQ(l.rowPitchBytes, 256u);
  EXPECT_EQ(l.levels, 4u);
  EXPECT_EQ(l.levelRow[0], 0u);
  EXPECT_EQ(l.levelRow[1], 9u);
  EXPECT_EQ(l.levelRow[2], 13u);
  EXPECT_EQ(l.levelRow[3], 15u);
  EXPECT_EQ(l.sliceBytes, 16 * 256u);
  EXPECT_EQ(l.texelAddress(0x200000, 3, 1, 0, 2), 0x200000u + (13 + 1) * 256 + 12);
  // A chain height smaller than the levels need is a malformed T#.
  const TSharp shortChain = TSharp(0x200000, 4, 4, 20, 9, kImage2d).levels(0, 3, 3).pitch(15);
  EXPECT_NE(linearLayout(decodeImageResource(shortChain.w), l).find("malformed"),
            std::string::npos);
}

TEST(ImageResource, RefusesWhatIsNotModelled) {
  ImageLayout l;
  auto problem = [&](const TSharp& t) { return linearLayout(decodeImageResource(t.w), l); };
  EXPECT_NE(problem(TSharp(0, 10, 0, 8, 8, kImage2d).swizzleMode(25)).find("SW_MODE 25"),
            std::string::npos);
  EXPECT_NE(problem(TSharp(0, 10, 0, 8, 8, kImage2dMsaa)).find("MSAA"), std::string::npos);
  EXPECT_NE(problem(TSharp(0, 16, 0, 8, 8, kImage2d)).find("data format"), std::string::npos);
  EXPECT_NE(problem(TSharp(0, 4, 0, 8, 8, kImage2d)).find("32"), std::string::npos);  // UNORM
  EXPECT_NE(problem(TSharp(0, 10, 0, 8, 8, 0)).find("buffer"), std::string::npos);
  EXPECT_NE(problem(TSharp(0, 10, 0, 8, 8, kImage2d).pitch(4)).find("PITCH"), std::string::npos);
  EXPECT_EQ(problem(TSharp(0, 10, kImgNumFormatSrgb, 8, 8, kImage2d)), "");
  EXPECT_NE(problem(TSharp(0, 4, kImgNumFormatSrgb, 8, 8, kImage2d)).find("SRGB"),
            std::string::npos);
}

}  // namespace
}  // namespace vgpu::isa::test
