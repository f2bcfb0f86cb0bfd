// Image descriptors and MIMG execution (Vega ISA reference guide, section 8.2 "Image
// Instructions"). Descriptors are built field by field here from the guide's T#/S# tables (the
// gfx9 bit positions as AMD's ROCr image runtime names them, resource_ai.h); texel addresses and
// results are worked out by hand from the linear layout of AMD's address library for gfx9
// (docs/images.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ValueCheck.h"
#include "isa/ImageResource.h"
#include "isa/OpInfo.h"

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

// ------------------------------------------------------------------------------------------
// Execution on the test wave (one instruction each, llvm-mc-15 assembles it): results worked
// out by hand from the layout above and the guide's format definitions (8.1.4 "Buffer Data":
// UNORM = value / (2^n - 1), stores round to nearest even).

uint32_t f32(float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}

constexpr uint32_t kDfmt8888 = 10, kDfmt32 = 4, kDfmt3232 = 11, kDfmt16x4 = 12;
constexpr uint32_t kUnorm = 0, kUint = 4, kFloat = 7;

// Image A: 2D 8_8_8_8 UNORM, 4 x 2, rows of 64 texels (256 bytes) at 0x10000. Texel (2, 1) is
// at 0x10000 + 256 + 2 * 4.
TSharp imageA() {
  return TSharp(0x10000, kDfmt8888, kUnorm, 4, 2, kImage2d).pitch(64);
}
constexpr uint64_t kA21 = 0x10108;
// Image C: 2D 32 UINT, 20 x 9, levels 0..3 (rows 0, 9, 13, 15 of a 16-row chain), rows padded
// to 256 bytes, at 0x20000. Level 2 texel (3, 1) is at row 13 + 1: 0x20000 + 14 * 256 + 12.
TSharp imageC() {
  return TSharp(0x20000, kDfmt32, kUint, 20, 9, kImage2d).levels(0, 3, 3).pitch(16);
}
constexpr uint64_t kC2_31 = 0x20e0c;

std::vector<Val> with(const TSharp& t, std::vector<Val> in, int first = 8) {
  t.into(in, first);
  return in;
}

TEST(ImageLoad, ConvertsSelectsAndPacksByDmask) {
  const uint32_t texel = 0x80ff4000;  // x 0x00, y 0x40, z 0xff, w 0x80
  const std::vector<Val> at21 = {{"v4", 2}, {"v5", 1}, {"mem:0x10108", texel}};
  std::vector<Case> cases = {
      {"image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA(), at21),
       {{"v0", 0}, {"v1", f32(64.0f / 255.0f)}, {"v2", f32(1.0f)}, {"v3", f32(128.0f / 255.0f)}}},
      // DST_SEL (Y, X, 0, W) and dmask x, z, w: three VGPRs.
      {"image_load v[0:2], v[4:5], s[8:15] dmask:0xd unorm",
       with(imageA().dstSel(5, 4, 0, 7), at21),
       {{"v0", f32(64.0f / 255.0f)}, {"v1", 0}, {"v2", f32(128.0f / 255.0f)}}},
      // DST_SEL SEL_1 gives 1.0 for a float format.
      {"image_load v[0:1], v[4:5], s[8:15] dmask:0x3 unorm",
       with(imageA().dstSel(1, 6, 0, 0), at21),
       {{"v0", f32(1.0f)}, {"v1", f32(1.0f)}}},
      // A16: x and y in the two halves of one VGPR.
      {"image_load v[0:3], v4, s[8:15] dmask:0xf unorm a16",
       with(imageA(), {{"v4", 0x00010002}, {"mem:0x10108", texel}}),
       {{"v0", 0}, {"v1", f32(64.0f / 255.0f)}, {"v2", f32(1.0f)}, {"v3", f32(128.0f / 255.0f)}}},
      // Out of range (x = width): zeros, and the TFE/LWE status VGPR is 0.
      {"image_load v[0:4], v[8:9], s[8:15] dmask:0xf unorm tfe lwe",
       with(imageA(),
            {{"v8", 4}, {"v9", 1}, {"v0", 7}, {"v1", 7}, {"v2", 7}, {"v3", 7}, {"v4", 7}}),
       {{"v0", 0}, {"v1", 0}, {"v2", 0}, {"v3", 0}, {"v4", 0}}},
      {"image_load v[0:2], v[8:9], s[8:15] dmask:0x3 unorm tfe",
       with(imageA(), {{"v8", 2}, {"v9", 1}, {"v2", 7}, {"mem:0x10108", texel}}),
       {{"v0", 0}, {"v1", f32(64.0f / 255.0f)}, {"v2", 0}}},
  };
  checkCases(cases);
}

TEST(ImageLoad, EveryDimensionAddressesItsTexel) {
  std::vector<Case> cases = {
      // 2D array, 10 x 3, rows of 16 texels, slices 1 (BASE_ARRAY) .. 4 (DEPTH): slice
      // coordinate 2 is slice 3 at 0x30000 + 3 * 192 + 2 * 64 + 7 * 4.
      {"image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(TSharp(0x30000, kDfmt32, kUint, 10, 3, kImage2dArray).pitch(16).depth(5).baseArray(1),
            {{"v4", 7}, {"v5", 2}, {"v6", 2}, {"mem:0x302dc", 0x5eed}}),
       {{"v0", 0x5eed}}},
      // Slice coordinate 4 is slice 5, past DEPTH: out of range.
      {"image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(TSharp(0x30000, kDfmt32, kUint, 10, 3, kImage2dArray).pitch(16).depth(5).baseArray(1),
            {{"v4", 7}, {"v5", 2}, {"v6", 4}, {"v0", 9}}),
       {{"v0", 0}}},
      // 3D 4 x 4 x 4, rows of 4 texels: (1, 2, 3) at 0x40000 + 3 * 64 + 2 * 16 + 4.
      {"image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(TSharp(0x40000, kDfmt32, kUint, 4, 4, kImage3d).pitch(4).depth(4),
            {{"v4", 1}, {"v5", 2}, {"v6", 3}, {"mem:0x400e4", 0x3d}}),
       {{"v0", 0x3d}}},
      {"image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(TSharp(0x40000, kDfmt32, kUint, 4, 4, kImage3d).pitch(4).depth(4),
            {{"v4", 1}, {"v5", 2}, {"v6", 4}, {"v0", 9}}),
       {{"v0", 0}}},
      // 1D array of 8 texels (one 32-byte row per slice): (5, slice 2) at 0x50000 + 64 + 20.
      {"image_load v0, v[4:5], s[8:15] dmask:0x1 unorm",
       with(TSharp(0x50000, kDfmt32, kUint, 8, 1, kImage1dArray).pitch(8).depth(3),
            {{"v4", 5}, {"v5", 2}, {"mem:0x50054", 0x1da}}),
       {{"v0", 0x1da}}},
      // 1D, 8 texels: x 6 at 0x58000 + 24.
      {"image_load v0, v4, s[8:15] dmask:0x1 unorm",
       with(TSharp(0x58000, kDfmt32, kUint, 8, 1, kImage1d).pitch(8),
            {{"v4", 6}, {"mem:0x58018", 0x1d}}),
       {{"v0", 0x1d}}},
      // Cube 2 x 2 (faces are slices of 16 bytes): face 5 texel (1, 1) at 0x60000 + 80 + 12.
      {"image_load v0, v[4:6], s[8:15] dmask:0x1 unorm da",
       with(TSharp(0x60000, kDfmt32, kUint, 2, 2, kImageCube).pitch(2).depth(6),
            {{"v4", 1}, {"v5", 1}, {"v6", 5}, {"mem:0x6005c", 0xc0be}}),
       {{"v0", 0xc0be}}},
  };
  checkCases(cases);
}

TEST(ImageLoad, MipLevelsFromBaseLevel) {
  std::vector<Case> cases = {
      {"image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(imageC(), {{"v4", 3}, {"v5", 1}, {"v6", 2}, {"mem:0x20e0c", 0x12345678}}),
       {{"v0", 0x12345678}}},
      // BASE_LEVEL 1: mip 1 is level 2.
      {"image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(imageC().levels(1, 3, 3), {{"v4", 3}, {"v5", 1}, {"v6", 1}, {"mem:0x20e0c", 0xabc}}),
       {{"v0", 0xabc}}},
      // Level 2 is 5 x 2: x 5 is out of range; so is a level past LAST_LEVEL.
      {"image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(imageC(), {{"v4", 5}, {"v5", 1}, {"v6", 2}, {"v0", 9}}),
       {{"v0", 0}}},
      {"image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(imageC().levels(0, 2, 3), {{"v4", 0}, {"v5", 0}, {"v6", 3}, {"v0", 9}}),
       {{"v0", 0}}},
  };
  checkCases(cases);
}

TEST(ImageLoad, D16AndPackedForms) {
  // 16_16_16_16 FLOAT, 2 x 1 at 0x70000: texel 1 holds (1.0, -2.0, 0.5, +inf) as f16.
  const TSharp h = TSharp(0x70000, kDfmt16x4, kFloat, 2, 1, kImage2d).pitch(2);
  const std::vector<Val> texel1 = {
      {"v4", 1}, {"v5", 0}, {"mem:0x70008", 0xc0003c00}, {"mem:0x7000c", 0x7c003800}};
  const std::vector<Val> at21 = {{"v4", 2}, {"v5", 1}, {"v6", 0}, {"mem:0x10108", 0x80ff4001}};
  std::vector<Case> cases = {
      {"image_load v[0:1], v[4:5], s[8:15] dmask:0xf unorm d16",
       with(h, texel1),
       {{"v0", 0xc0003c00}, {"v1", 0x7c003800}}},
      {"image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(h, texel1),
       {{"v0", f32(1.0f)}, {"v1", f32(-2.0f)}, {"v2", f32(0.5f)}, {"v3", 0x7f800000}}},
      // D16 of dmask y, w: one VGPR, y in the low half.
      {"image_load v0, v[4:5], s[8:15] dmask:0xa unorm d16", with(h, texel1), {{"v0", 0x7c00c000}}},
      // _pck: the components' bits; _sgn: sign-extended.
      {"image_load_pck v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA(), at21),
       {{"v0", 0x01}, {"v1", 0x40}, {"v2", 0xff}, {"v3", 0x80}}},
      {"image_load_pck_sgn v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA(), at21),
       {{"v0", 0x01}, {"v1", 0x40}, {"v2", 0xffffffff}, {"v3", 0xffffff80}}},
      {"image_load_mip_pck v[0:1], v[4:6], s[8:15] dmask:0x5 unorm",
       with(imageA(), at21),
       {{"v0", 0x01}, {"v1", 0xff}}},
      {"image_load_mip_pck_sgn v[0:1], v[4:6], s[8:15] dmask:0xc unorm",
       with(imageA(), at21),
       {{"v0", 0xffffffff}, {"v1", 0xffffff80}}},
  };
  checkCases(cases);
}

TEST(ImageLoad, SrgbDecodesColourNotAlpha) {
  // IEC 61966-2-1: ((c + 0.055) / 1.055)^2.4 above 0.04045; compared to 12 bits of mantissa.
  const double y = std::pow((64.0 / 255.0 + 0.055) / 1.055, 2.4);
  std::vector<Case> cases = {
      {"image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA().numFormat(kImgNumFormatSrgb),
            {{"v4", 2}, {"v5", 1}, {"mem:0x10108", 0x80ff4000}}),
       {{"v0", 0},
        {"v1", f32(static_cast<float>(y)) & 0xfffff000u, 0xfffff000u},
        {"v2", f32(1.0f)},
        {"v3", f32(128.0f / 255.0f)}}},
  };
  checkCases(cases);
}

TEST(ImageStore, ConvertsAndRoundsToNearestEven) {
  // (1.0, 0.5, 0, 0.25) to 8_8_8_8 UNORM: 255, 127.5 -> 128, 0, 63.75 -> 64.
  const std::vector<Val> at21 = {{"v4", 2}, {"v5", 1}, {"v6", 0}};
  auto data = [&](std::vector<Val> v) {
    v.insert(v.end(), at21.begin(), at21.end());
    return v;
  };
  std::vector<Case> cases = {
      {"image_store v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA(), data({{"v0", f32(1.0f)}, {"v1", f32(0.5f)}, {"v2", 0}, {"v3", f32(0.25f)}})),
       {{"mem:0x10108", 0x400080ff}}},
      // dmask x, y: z and w are written as 0.
      {"image_store v[0:1], v[4:5], s[8:15] dmask:0x3 unorm",
       with(imageA(), data({{"v0", f32(1.0f)}, {"v1", f32(0.5f)}, {"mem:0x10108", 0xffffffff}})),
       {{"mem:0x10108", 0x000080ff}}},
      {"image_store_mip v0, v[4:6], s[8:15] dmask:0x1 unorm",
       with(imageC(), {{"v0", 0xcafef00d}, {"v4", 3}, {"v5", 1}, {"v6", 2}}),
       {{"mem:0x20e0c", 0xcafef00d}}},
      // _pck: the low bits of each component.
      {"image_store_pck v[0:3], v[4:5], s[8:15] dmask:0xf unorm",
       with(imageA(), data({{"v0", 0x1ff}, {"v1", 0x12}, {"v2", 0x34}, {"v3", 0x56}})),
       {{"mem:0x10108", 0x563412ff}}},
      {"image_store_mip_pck v[0:3], v[4:6], s[8:15] dmask:0xf unorm",
       with(imageA(), data({{"v0", 0x01}, {"v1", 0x02}, {"v2", 0x03}, {"v3", 0x04}})),
       {{"mem:0x10108", 0x04030201}}},
      // D16 to 16_16_16_16 FLOAT: the halves as they are.
      {"image_store v[0:1], v[4:5], s[8:15] dmask:0xf unorm d16",
       with(TSharp(0x70000, kDfmt16x4, kFloat, 2, 1, kImage2d).pitch(2),
            {{"v0", 0xc0003c00}, {"v1", 0x7c003800}, {"v4", 1}, {"v5", 0}}),
       {{"mem:0x70008", 0xc0003c00}, {"mem:0x7000c", 0x7c003800}}},
      // Out of range: nothing written.
      {"image_store v0, v[4:5], s[8:15] dmask:0x1 unorm",
       with(imageA(), {{"v0", f32(1.0f)}, {"v4", 4}, {"v5", 0}, {"mem:0x10010", 0x11}}),
       {{"mem:0x10010", 0x11}}},
  };
  checkCases(cases);
}

TEST(ImageResInfo, SizesOfTheViewsLevels) {
  // 2D array 20 x 9, levels 1..3 of 4, slices 1..4: mip 1 is level 2 (5 x 2), 4 slices, 3
  // levels.
  const TSharp t = TSharp(0x20000, kDfmt32, kUint, 20, 9, kImage2dArray)
                       .levels(1, 3, 3)
                       .pitch(16)
                       .depth(5)
                       .baseArray(1);
  std::vector<Case> cases = {
      {"image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf unorm",
       with(t, {{"v4", 1}}),
       {{"v0", 5}, {"v1", 2}, {"v2", 4}, {"v3", 3}}},
      {"image_get_resinfo v[0:1], v4, s[8:15] dmask:0x9 unorm",
       with(t, {{"v4", 0}}),
       {{"v0", 10}, {"v1", 3}}},
      {"image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf unorm",
       with(t, {{"v4", 3}}),
       {{"v0", 0}, {"v1", 0}, {"v2", 0}, {"v3", 3}}},
  };
  checkCases(cases);
}

TEST(ImageAtomic, EveryOperationOnOneLane) {
  // 2D 32 UINT 4 x 4 at 0x80000: texel (1, 2) at 0x80000 + 2 * 16 + 4. One lane (EXEC = 1);
  // with glc the value memory held before returns in the data VGPR.
  const TSharp t = TSharp(0x80000, kDfmt32, kUint, 4, 4, kImage2d).pitch(4);
  struct A {
    const char* op;
    uint32_t mem, data, newMem;
  };
  const A ops[] = {
      {"swap", 5, 9, 9},
      {"add", 0xffffffff, 2, 1},
      {"sub", 1, 2, 0xffffffff},
      {"smin", 0xfffffffe, 3, 0xfffffffe},
      {"umin", 0xfffffffe, 3, 3},
      {"smax", 0xfffffffe, 3, 3},
      {"umax", 0xfffffffe, 3, 0xfffffffe},
      {"and", 0xff0f, 0x0ff0, 0x0f00},
      {"or", 0xf000, 0x000f, 0xf00f},
      {"xor", 0xff00, 0x0ff0, 0xf0f0},
      {"inc", 7, 7, 0},  // mem >= data ? 0 : mem + 1
      {"inc", 6, 7, 7},
      {"dec", 0, 9, 9},  // mem == 0 || mem > data ? data : mem - 1
      {"dec", 5, 9, 4},
  };
  std::vector<Case> cases;
  for (const A& a : ops) {
    cases.push_back(
        {std::string("image_atomic_") + a.op + " v0, v[4:5], s[8:15] dmask:0x1 unorm glc",
         with(t, {{"exec", 1}, {"v0", a.data}, {"v4", 1}, {"v5", 2}, {"mem:0x80024", a.mem}}),
         {{"mem:0x80024", a.newMem}, {"v0@0", a.mem}}});
  }
  // cmpswap: data = {new value, compare value}; returns the old value in v0.
  cases.push_back(
      {"image_atomic_cmpswap v[0:1], v[4:5], s[8:15] dmask:0x3 unorm glc",
       with(t, {{"exec", 1}, {"v0", 99}, {"v1", 10}, {"v4", 1}, {"v5", 2}, {"mem:0x80024", 10}}),
       {{"mem:0x80024", 99}, {"v0@0", 10}}});
  cases.push_back(
      {"image_atomic_cmpswap v[0:1], v[4:5], s[8:15] dmask:0x3 unorm glc",
       with(t, {{"exec", 1}, {"v0", 99}, {"v1", 10}, {"v4", 1}, {"v5", 2}, {"mem:0x80024", 11}}),
       {{"mem:0x80024", 11}, {"v0@0", 11}}});
  // 64-bit on 32_32 UINT (dmask 0x3): 0xffffffff + 1 carries into the high dword. Texel (1, 2)
  // of a 4 x 4 image of 8-byte texels at 0x90000 + 2 * 32 + 8.
  cases.push_back(
      {"image_atomic_add v[0:1], v[4:5], s[8:15] dmask:0x3 unorm glc",
       with(TSharp(0x90000, kDfmt3232, kUint, 4, 4, kImage2d).pitch(4),
            {{"exec", 1}, {"v0", 1}, {"v1", 0}, {"v4", 1}, {"v5", 2}, {"mem:0x90048", 0xffffffff}}),
       {{"mem:0x90048", 0}, {"mem:0x9004c", 1}, {"v0@0", 0xffffffff}, {"v1@0", 0}}});
  // Without glc nothing returns.
  cases.push_back({"image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 unorm",
                   with(t, {{"exec", 1}, {"v0", 2}, {"v4", 1}, {"v5", 2}, {"mem:0x80024", 40}}),
                   {{"mem:0x80024", 42}, {"v0@0", 2}}});
  checkCases(cases);
}

// ------------------------------------------------------------------------------------------
// Sampling: filters worked out by hand (texel centres at +0.5, bilinear weights from the
// coordinate rounded to 8 fractional bits, docs/images.md).

// An S# built from the guide's fields.
struct SSharp {
  uint32_t w[4] = {};
  SSharp(uint32_t clamp, uint32_t xyFilter, uint32_t mipFilter) {
    put(w, 0, 0, 3, clamp);
    put(w, 0, 3, 3, clamp);
    put(w, 0, 6, 3, clamp);
    put(w, 1, 12, 12, 0xfff);  // MAX_LOD 15.996
    put(w, 2, 20, 2, xyFilter);
    put(w, 2, 22, 2, xyFilter);
    put(w, 2, 26, 2, mipFilter);
  }
  SSharp& compare(uint32_t func) {
    put(w, 0, 12, 3, func);
    return *this;
  }
  SSharp& border(uint32_t type) {
    put(w, 3, 30, 2, type);
    return *this;
  }
  SSharp& disableCubeWrap() {
    put(w, 0, 28, 1, 1);
    return *this;
  }
  SSharp& maxLod(uint32_t fixed48) {
    put(w, 1, 12, 12, fixed48);
    return *this;
  }
  void into(std::vector<Val>& in, int first) const {
    for (int k = 0; k < 4; ++k) in.push_back({"s" + std::to_string(first + k), w[k]});
  }
};

// Image S: 2D 32 FLOAT 4 x 4 at 0xa0000, rows of 16 bytes; texel (i, j) holds 10 j + i.
TSharp imageS() {
  return TSharp(0xa0000, kDfmt32, kFloat, 4, 4, kImage2d).pitch(4);
}
std::vector<Val> imageSTexels() {
  std::vector<Val> in;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i)
      in.push_back(
          {"mem:" + std::to_string(0xa0000 + 16 * j + 4 * i), f32(static_cast<float>(10 * j + i))});
  return in;
}
// Image T: 2D 32 FLOAT with levels 4 x 4, 2 x 2, 1 x 1 holding 8.0, 4.0 and 2.0 everywhere;
// rows padded to 256 bytes, levels at rows 0, 4, 6 (a 7-row chain) at 0xb0000.
TSharp imageT() {
  return TSharp(0xb0000, kDfmt32, kFloat, 4, 4, kImage2d).levels(0, 2, 2).pitch(7);
}
std::vector<Val> imageTTexels() {
  std::vector<Val> in;
  const int size[3] = {4, 2, 1}, row[3] = {0, 4, 6};
  const float value[3] = {8.0f, 4.0f, 2.0f};
  for (int lv = 0; lv < 3; ++lv)
    for (int j = 0; j < size[lv]; ++j)
      for (int i = 0; i < size[lv]; ++i)
        in.push_back(
            {"mem:" + std::to_string(0xb0000 + 256 * (row[lv] + j) + 4 * i), f32(value[lv])});
  return in;
}

std::vector<Val> sampled(const TSharp& t, const SSharp& s, std::vector<Val> texels,
                         std::vector<Val> in) {
  t.into(in, 8);
  s.into(in, 16);
  in.insert(in.end(), texels.begin(), texels.end());
  return in;
}

constexpr uint32_t kPoint = 0, kBilinear = 1, kMipNone = 0, kMipPoint = 1, kMipLinear = 2;

TEST(ImageSample, PointAndBilinearWithFixedPointWeights) {
  std::vector<Val> negativeZeroAt12 = imageSTexels();
  negativeZeroAt12.push_back({"mem:0xa0024", 0x80000000});  // texel (1, 2), set last
  const SSharp point(kClampLastTexel, kPoint, kMipNone),
      linear(kClampLastTexel, kBilinear, kMipNone);
  std::vector<Case> cases = {
      // (0.375, 0.625) * 4 = (1.5, 2.5): texel (1, 2).
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), point, imageSTexels(), {{"v4", f32(0.375f)}, {"v5", f32(0.625f)}}),
       {{"v0", f32(21.0f)}}},
      // unorm: the coordinates are texels.
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1 unorm",
       sampled(imageS(), point, imageSTexels(), {{"v4", f32(1.5f)}, {"v5", f32(2.5f)}}),
       {{"v0", f32(21.0f)}}},
      // (2.0, 1.25) texels: i 1..2 with a = 0.5, j 0..1 with b = 0.75:
      // 0.125 * 1 + 0.125 * 2 + 0.375 * 11 + 0.375 * 12 = 9.
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), linear, imageSTexels(), {{"v4", f32(0.5f)}, {"v5", f32(0.3125f)}}),
       {{"v0", f32(9.0f)}}},
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1 d16",
       sampled(imageS(), linear, imageSTexels(), {{"v4", f32(0.5f)}, {"v5", f32(0.3125f)}}),
       {{"v0", 0x4880, 0xffff}}},  // 9.0 in f16
      // u = 2.5 + 1/1024: the fraction 1/1024 rounds to 0 in 8 bits, so texel (2, 0) alone
      // (an exact interpolation would give 2 + 1/1024).
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), linear, imageSTexels(),
               {{"v4", f32(2.5009765625f / 4)}, {"v5", f32(0.125f)}}),
       {{"v0", f32(2.0f)}}},
      // Point sampling returns the texel unchanged: -0 stays -0 (texel (1, 2) set to -0).
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), point, negativeZeroAt12, {{"v4", f32(0.375f)}, {"v5", f32(0.625f)}}),
       {{"v0", 0x80000000}}},
      // Y, Z of a one-component format read 0 and W reads 1.
      {"image_sample_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf",
       sampled(imageS(), point, imageSTexels(), {{"v4", f32(0.375f)}, {"v5", f32(0.625f)}}),
       {{"v0", f32(21.0f)}, {"v1", 0}, {"v2", 0}, {"v3", f32(1.0f)}}},
  };
  checkCases(cases);
}

TEST(ImageSample, AddressModesAndBorderColours) {
  // u = -1.5 texels (point: texel -2), v = 0.5 (row 0): wrap 2, mirror 1, clamp 0, mirror
  // once 1, border: the border colour.
  const std::vector<Val> at = {{"v4", f32(-0.375f)}, {"v5", f32(0.125f)}};
  auto run = [&](uint32_t mode, uint32_t border = 0) {
    return sampled(imageS(), SSharp(mode, kPoint, kMipNone).border(border), imageSTexels(), at);
  };
  const char* text = "image_sample_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf";
  std::vector<Case> cases = {
      {text, run(kClampWrap), {{"v0", f32(2.0f)}}},
      {text, run(kClampMirror), {{"v0", f32(1.0f)}}},
      {text, run(kClampLastTexel), {{"v0", f32(0.0f)}}},
      {text, run(kClampMirrorOnceLastTexel), {{"v0", f32(1.0f)}}},
      {text,
       run(kClampBorder, kBorderTransparentBlack),
       {{"v0", 0}, {"v1", 0}, {"v2", 0}, {"v3", 0}}},
      {text,
       run(kClampBorder, kBorderOpaqueBlack),
       {{"v0", 0}, {"v1", 0}, {"v2", 0}, {"v3", f32(1.0f)}}},
      {text,
       run(kClampBorder, kBorderOpaqueWhite),
       {{"v0", f32(1.0f)}, {"v1", f32(1.0f)}, {"v2", f32(1.0f)}, {"v3", f32(1.0f)}}},
  };
  checkCases(cases);
}

TEST(ImageSample, MipLevelsLodBiasAndTrilinear) {
  const SSharp trilinear(kClampLastTexel, kBilinear, kMipLinear);
  const SSharp nearestMip(kClampLastTexel, kBilinear, kMipPoint);
  // image_sample_l: v4 = s, v5 = t, v6 = lod.
  auto withLod = [&](const SSharp& s, float l) {
    return sampled(imageT(), s, imageTTexels(),
                   {{"v4", f32(0.5f)}, {"v5", f32(0.5f)}, {"v6", f32(l)}});
  };
  std::vector<Case> cases = {
      // LOD 0.25: 0.75 * 8 + 0.25 * 4 = 7.
      {"image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       withLod(trilinear, 0.25f),
       {{"v0", f32(7.0f)}}},
      // LOD 0.75 with a point mip filter: level 1.
      {"image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       withLod(nearestMip, 0.75f),
       {{"v0", f32(4.0f)}}},
      // LOD 5 clamps to the last level.
      {"image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       withLod(trilinear, 5.0f),
       {{"v0", f32(2.0f)}}},
      // S# MAX_LOD 0.5 (0x080): LOD 3 becomes 0.5: 0.5 * 8 + 0.5 * 4 = 6.
      {"image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       withLod(SSharp(kClampLastTexel, kBilinear, kMipLinear).maxLod(0x080), 3.0f),
       {{"v0", f32(6.0f)}}},
      // Implicit derivatives from the quad: lane 1's s is 0.25 more (one texel of the 4 x 4
      // level), so the quad's LOD is 0; bias 1.5 makes it 1.5: 0.5 * 4 + 0.5 * 2 = 3.
      {"image_sample_b v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(imageT(), trilinear, imageTTexels(),
               {{"v4", f32(1.5f)}, {"v5", f32(0.5f)}, {"v5@1", f32(0.75f)}, {"v6", f32(0.5f)}}),
       {{"v0@0", f32(3.0f)}, {"v0@2", f32(3.0f)}}},
      // image_get_lod: the same quad, LOD 0 + log2(2) with lane 1 two texels on.
      {"image_get_lod v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x3",
       sampled(imageT(), SSharp(kClampLastTexel, kBilinear, kMipLinear).maxLod(0x080),
               imageTTexels(), {{"v4", f32(0.25f)}, {"v4@1", f32(0.75f)}, {"v5", f32(0.5f)}}),
       {{"v0@0", f32(0.5f)}, {"v1@0", f32(1.0f)}}},
      // Explicit derivatives (_d): ds/dx = 1 (4 texels): LOD 2, the last level.
      {"image_sample_d v0, v[4:9], s[8:15], s[16:19] dmask:0x1",
       sampled(imageT(), trilinear, imageTTexels(),
               {{"v4", f32(1.0f)},
                {"v5", 0},
                {"v6", 0},
                {"v7", 0},
                {"v8", f32(0.5f)},
                {"v9", f32(0.5f)}}),
       {{"v0", f32(2.0f)}}},
  };
  checkCases(cases);
}

TEST(ImageSample, CompareOffsetsAndGather4) {
  const SSharp point(kClampLastTexel, kPoint, kMipNone),
      linear(kClampLastTexel, kBilinear, kMipNone);
  std::vector<Case> cases = {
      // _c, LESS (reference < texel): texel (1, 2) = 21.
      {"image_sample_c_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), SSharp(kClampLastTexel, kPoint, kMipNone).compare(1), imageSTexels(),
               {{"v4", f32(20.5f)}, {"v5", f32(0.375f)}, {"v6", f32(0.625f)}}),
       {{"v0", f32(1.0f)}}},
      {"image_sample_c_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), SSharp(kClampLastTexel, kPoint, kMipNone).compare(1), imageSTexels(),
               {{"v4", f32(21.5f)}, {"v5", f32(0.375f)}, {"v6", f32(0.625f)}}),
       {{"v0", 0}}},
      // Bilinear percentage-closer: GEQUAL (reference >= texel) 10.5 passes for 1 and 2 (weights
      // 0.125 each).
      {"image_sample_c_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), SSharp(kClampLastTexel, kBilinear, kMipNone).compare(6), imageSTexels(),
               {{"v4", f32(10.5f)}, {"v5", f32(0.5f)}, {"v6", f32(0.3125f)}}),
       {{"v0", f32(0.25f)}}},
      // _o: offsets (+1, -1) move texel (1, 2) to (2, 1) = 12.
      {"image_sample_lz_o v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), point, imageSTexels(),
               {{"v4", 0x3f01}, {"v5", f32(0.375f)}, {"v6", f32(0.625f)}}),
       {{"v0", f32(12.0f)}}},
      // gather4 of the bilinear footprint i 1..2, j 0..1: (i0, j1), (i1, j1), (i1, j0), (i0, j0).
      {"image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(imageS(), linear, imageSTexels(), {{"v4", f32(0.5f)}, {"v5", f32(0.3125f)}}),
       {{"v0", f32(11.0f)}, {"v1", f32(12.0f)}, {"v2", f32(2.0f)}, {"v3", f32(1.0f)}}},
  };
  checkCases(cases);
}

TEST(ImageSample, ThreeDAndArrayImages) {
  // 3D 32 FLOAT 2 x 2 x 2 at 0xc0000 (rows of 8 bytes, slices of 16): texel (i, j, k) holds
  // 100 k + 10 j + i. 1D array 32 FLOAT of 4 texels, slices 0..2 at 0xd0000: (i, slice) holds
  // 10 slice + i.
  std::vector<Val> cube3d, array1d;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        cube3d.push_back({"mem:" + std::to_string(0xc0000 + 16 * k + 8 * j + 4 * i),
                          f32(static_cast<float>(100 * k + 10 * j + i))});
  for (int sl = 0; sl < 3; ++sl)
    for (int i = 0; i < 4; ++i)
      array1d.push_back({"mem:" + std::to_string(0xd0000 + 16 * sl + 4 * i),
                         f32(static_cast<float>(10 * sl + i))});
  const TSharp t3 = TSharp(0xc0000, kDfmt32, kFloat, 2, 2, kImage3d).pitch(2).depth(2);
  const TSharp t1 = TSharp(0xd0000, kDfmt32, kFloat, 4, 1, kImage1dArray).pitch(4).depth(3);
  const SSharp point(kClampLastTexel, kPoint, kMipNone),
      linear(kClampLastTexel, kBilinear, kMipNone);
  std::vector<Case> cases = {
      // The centre of the 3D image: the eight texels at 1/8 each, (0 + 1 + 10 + 11 + 100 +
      // 101 + 110 + 111) / 8 (Z_FILTER none follows the bilinear xy filter).
      {"image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(t3, linear, cube3d, {{"v4", f32(0.5f)}, {"v5", f32(0.5f)}, {"v6", f32(0.5f)}}),
       {{"v0", f32(55.5f)}}},
      {"image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
       sampled(t3, point, cube3d, {{"v4", f32(0.75f)}, {"v5", f32(0.25f)}, {"v6", f32(0.75f)}}),
       {{"v0", f32(101.0f)}}},
      // 1D array: s 0.625 is texel 2; layer 1.4 rounds to slice 1, layer 7 clamps to slice 2.
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(t1, point, array1d, {{"v4", f32(0.625f)}, {"v5", f32(1.4f)}}),
       {{"v0", f32(12.0f)}}},
      {"image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
       sampled(t1, point, array1d, {{"v4", f32(0.625f)}, {"v5", f32(7.0f)}}),
       {{"v0", f32(22.0f)}}},
  };
  checkCases(cases);
}

// A 2D array sampled with normalized coordinates (the differential case
// samp_2darray_f_nearest_norm_edge, tests/differential/README.md): the address VGPRs are s, t,
// then the layer (12.16), and only s and t are normalized; the layer is rounded to the nearest
// slice and clamped to the view (OpenCL 1.2, 8.2: clamp(rint(layer), 0, layers - 1)), never
// scaled by the layer count and never filtered. 2D array 32 FLOAT 2 x 2, slices 0..2 at 0xe0000
// (rows of 8 bytes, slices of 16): texel (i, j, slice) holds 100 slice + 10 j + i. A layer scaled
// by the 3 slices (as PoCL 3.1 does) would read slice 1 for 0.3 and slice 2 for 0.8.
TEST(ImageSample, TwoDArrayLayerIsRoundedAndClampedNotNormalized) {
  std::vector<Val> texels;
  for (int sl = 0; sl < 3; ++sl)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        texels.push_back({"mem:" + std::to_string(0xe0000 + 16 * sl + 8 * j + 4 * i),
                          f32(static_cast<float>(100 * sl + 10 * j + i))});
  const TSharp t = TSharp(0xe0000, kDfmt32, kFloat, 2, 2, kImage2dArray).pitch(2).depth(3);
  const SSharp point(kClampLastTexel, kPoint, kMipNone),
      linear(kClampLastTexel, kBilinear, kMipNone);
  const char* text = "image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da";
  auto at = [&](const SSharp& s, float u, float v, float layer) {
    return sampled(t, s, texels, {{"v4", f32(u)}, {"v5", f32(v)}, {"v6", f32(layer)}});
  };
  std::vector<Case> cases = {
      // (0.75, 0.25) * 2 = (1.5, 0.5): texel (1, 0); layer 0.3 rounds to slice 0.
      {text, at(point, 0.75f, 0.25f, 0.3f), {{"v0", f32(1.0f)}}},
      // Texel (0, 1); layer 0.8 rounds to slice 1.
      {text, at(point, 0.25f, 0.75f, 0.8f), {{"v0", f32(110.0f)}}},
      // Layer -0.7 rounds to -1 and clamps to slice 0; 5.2 rounds to 5 and clamps to slice 2.
      {text, at(point, 0.75f, 0.75f, -0.7f), {{"v0", f32(11.0f)}}},
      {text, at(point, 0.25f, 0.25f, 5.2f), {{"v0", f32(200.0f)}}},
      // Bilinear at the centre of slice 1 (layer 1.4): the four texels of that slice at 1/4
      // each, (100 + 101 + 110 + 111) / 4; no weight for slice 2.
      {text, at(linear, 0.5f, 0.5f, 1.4f), {{"v0", f32(105.5f)}}},
  };
  checkCases(cases);
}

// Cube maps: 32 FLOAT faces of 2 x 2 at 0xf0000 (rows of 8 bytes, slices of 16; cube arrays:
// 12 slices), texel (i, j) of slice f holds 100 f + 10 j + i, so every face (slice 0..5: +x, -x,
// +y, -y, +z, -z) holds distinct values. The program prepares the coordinates as Mesa does
// (ac_prepare_cube_coords: s = sc / |ma| + 1.5 with ma = v_cubema_f32 = 2 x the major axis) and
// samples. Expected texels from the cube-map table of OpenGL (ARB_texture_cube_map, which
// Direct3D shares): major axis +x: sc = -z, tc = -y; -x: sc = z, tc = -y; +y: sc = x, tc = z;
// -y: sc = x, tc = -z; +z: sc = x, tc = -y; -z: sc = -x, tc = -y; face coordinates
// ((sc / |ma| + 1) / 2, (tc / |ma| + 1) / 2) in [0, 1], times 2 texels. Each lane's direction
// has major component +-2 and the others +-1, so each face coordinate is 0.25 or 0.75: texel 0
// or 1, and a wrong sign or swapped axis picks another texel.
std::vector<Val> cubeTexels(int slices) {
  std::vector<Val> in;
  for (int f = 0; f < slices; ++f)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        in.push_back({"mem:" + std::to_string(0xf0000 + 16 * f + 8 * j + 4 * i),
                      f32(static_cast<float>(100 * f + 10 * j + i))});
  return in;
}

TEST(ImageSample, CubeMapFaceSelectionFromTheCubeInstructions) {
  const TSharp t = TSharp(0xf0000, kDfmt32, kFloat, 2, 2, kImageCube).pitch(2).depth(6);
  const std::string prepare =
      "v_cubema_f32 v10, v0, v1, v2\n"
      "v_cubeid_f32 v6, v0, v1, v2\n"
      "v_cubesc_f32 v11, v0, v1, v2\n"
      "v_cubetc_f32 v12, v0, v1, v2\n"
      "v_rcp_f32_e64 v13, |v10|\n"
      "v_mov_b32 v14, 1.5\n"
      "v_fma_f32 v4, v11, v13, v14\n"
      "v_fma_f32 v5, v12, v13, v14\n";
  struct Lane {
    float x, y, z;
    float expected;  // worked out above
  };
  const Lane lanes[] = {
      {2, -1, 1, 10.0f},    // +x: sc = -1, tc = 1: s 0.25, t 0.75: texel (0, 1) of face 0
      {-2, -1, 1, 111.0f},  // -x: sc = 1, tc = 1: texel (1, 1) of face 1
      {1, 2, -1, 201.0f},   // +y: sc = 1, tc = -1: texel (1, 0) of face 2
      {1, -2, -1, 311.0f},  // -y: sc = 1, tc = 1: texel (1, 1) of face 3
      {-1, 1, 2, 400.0f},   // +z: sc = -1, tc = -1: texel (0, 0) of face 4
      {-1, 1, -2, 501.0f},  // -z: sc = 1, tc = -1: texel (1, 0) of face 5
  };
  auto program = [&](const SSharp& smp, const char* sample, const std::vector<Lane>& ls, int slices,
                     const TSharp& image) {
    ProgramCase c;
    c.text = prepare + sample + "\ns_waitcnt vmcnt(0)";
    c.in = sampled(image, smp, cubeTexels(slices), {});
    for (size_t l = 0; l < ls.size(); ++l) {
      const std::string at = "@" + std::to_string(l);
      c.in.push_back({"v0" + at, f32(ls[l].x)});
      c.in.push_back({"v1" + at, f32(ls[l].y)});
      c.in.push_back({"v2" + at, f32(ls[l].z)});
      c.out.push_back({"v20" + at, f32(ls[l].expected)});
    }
    c.checks = {"v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32", "image_sample_lz"};
    return c;
  };
  const SSharp point(kClampWrap, kPoint, kMipNone), linear(kClampWrap, kBilinear, kMipNone);
  const char* lz = "image_sample_lz v20, v[4:6], s[8:15], s[16:19] dmask:0x1 da";
  std::vector<ProgramCase> cases = {
      program(point, lz, std::vector<Lane>(std::begin(lanes), std::end(lanes)), 6, t),
      // Bilinear along the axes (the face centres, s = t = 1.5: the four texels of the face at
      // 1/4 each): +x (0 + 1 + 10 + 11) / 4 = 5.5, -y 300 + 5.5, -z 500 + 5.5.
      program(linear, lz, {{3, 0, 0, 5.5f}, {0, -0.5f, 0, 305.5f}, {0, 0, -7, 505.5f}}, 6, t),
  };
  // A cube array: the face coordinate is 8 x layer + face (v6 = 8 + v_cubeid_f32), so layer 1's
  // +y face is slice 8: texel (1, 0) holds 801. The view holds 2 cubes (12 slices).
  ProgramCase array =
      program(point, lz, {{1, 2, -1, 801.0f}}, 12,
              TSharp(0xf0000, kDfmt32, kFloat, 2, 2, kImageCube).pitch(2).depth(12));
  array.text = prepare + "v_add_f32 v6, 0x41000000, v6\n" + lz + "\ns_waitcnt vmcnt(0)";
  cases.push_back(array);
  checkPrograms(cases);
}

// Taps beyond a face's edge (seamless filtering, DISABLE_CUBE_WRAP 0) read the adjacent face,
// worked out from the cube-map table above: a tap's centre one texel beyond the edge is a
// direction whose major axis is the adjacent face's, and it lands on that face's edge texel in
// the same row or column. Face 0's left column (sc = -z = -ma) touches face 4's right column
// (sc = x = ma), rows matching (tc = -y on both): beyond texel (0, 0) of face 0 lies texel (1, 0)
// of face 4 (401). Face 0's top row (tc = -y = -ma) touches face 2's right column (sc = x = ma);
// face 0's column 0 (sc = -z = -0.5: z = 0.5) continues into face 2's row 1 (tc = z = 0.5):
// above texel (0, 0) of face 0 lies texel (1, 1) of face 2 (211). Face 2's top row (tc = z = -ma)
// touches face 5's top row (tc = -y = -ma), columns mirrored (sc = x on face 2, -x on face 5):
// above texel (1, 0) of face 2 (x = 0.5) lies texel (0, 0) of face 5 (500).
//   - face 0, s = 1.0 (its left edge), t = 1.25 (row 0's centre): taps i = -1 and 0 at 1/2 each:
//     (401 + 0) / 2 = 200.5; with DISABLE_CUBE_WRAP 1 and WRAP the face wraps on itself: i = -1
//     is texel 1, (1 + 0) / 2 = 0.5.
//   - face 2, s = 1.75 (column 1's centre), t = 1.0 (top edge): (500 + 201) / 2 = 350.5.
//   - face 0, s = 1.0625, t = 1.0: u = 0.125 texels, v = 0: taps i = -1, 0 at 3/8, 5/8 and
//     j = -1, 0 at 1/2 each. The corner tap (-1, -1) (weight 3/16) is the average of the other
//     three: texel (0, 0) (0, weight 5/16), beyond the left edge 401 (3/16), beyond the top 211
//     (5/16): 5/16 211 + 3/16 401 + 1/16 (0 + 401 + 211) = 179.375. Gather4 there returns
//     (i0, j1), (i1, j1), (i1, j0), (i0, j0) = 401, 0, 211 and for the corner the footprint's
//     texel diagonal to it, (0, 0): 0.
//   - Point sampling at s = t = 2.0 (the far edge) reads the face's last texel (1, 1) = 11.
// Face coordinates 9 and 10 (8 + 1, 8 + 2) on a view of one cube read faces 1 and 2 (the layer
// clamps to the view), and face coordinate 0.6 rounds to face 1.
TEST(ImageSample, CubeMapSeamlessEdgesCornersLayersAndRounding) {
  const TSharp t = TSharp(0xf0000, kDfmt32, kFloat, 2, 2, kImageCube).pitch(2).depth(6);
  const SSharp wrapLinear(kClampWrap, kBilinear, kMipNone), point(kClampWrap, kPoint, kMipNone);
  const char* text = "image_sample_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1 da";
  auto at = [&](const SSharp& s, float u, float v, float face) {
    return sampled(t, s, cubeTexels(6), {{"v4", f32(u)}, {"v5", f32(v)}, {"v6", f32(face)}});
  };
  std::vector<Case> cases = {
      {text, at(wrapLinear, 1.0f, 1.25f, 0.0f), {{"v0", f32(200.5f)}}},
      {text, at(SSharp(wrapLinear).disableCubeWrap(), 1.0f, 1.25f, 0.0f), {{"v0", f32(0.5f)}}},
      {text, at(wrapLinear, 1.75f, 1.0f, 2.0f), {{"v0", f32(350.5f)}}},
      {text, at(wrapLinear, 1.0625f, 1.0f, 0.0f), {{"v0", f32(179.375f)}}},
      {"image_gather4_lz v[0:3], v[4:6], s[8:15], s[16:19] dmask:0x1 da",
       at(wrapLinear, 1.0625f, 1.0f, 0.0f),
       {{"v0", f32(401.0f)}, {"v1", f32(0.0f)}, {"v2", f32(211.0f)}, {"v3", f32(0.0f)}}},
      {text, at(point, 2.0f, 2.0f, 0.0f), {{"v0", f32(11.0f)}}},
      {text, at(point, 1.75f, 1.25f, 9.0f), {{"v0", f32(101.0f)}}},
      {text, at(point, 1.75f, 1.75f, 10.0f), {{"v0", f32(211.0f)}}},
      {text, at(point, 1.25f, 1.75f, 0.6f), {{"v0", f32(110.0f)}}},
  };
  checkCases(cases);
}

// Every image_sample* and image_gather4* variant once, on image T (levels of 8.0, 4.0, 2.0)
// with a trilinear sampler, from the address layout of the Vega ISA guide (12.16: [offset]
// [bias] [z-compare] [derivatives] coordinates [lod | clamp]) and the LOD rules (8.2): the LOD
// is explicit (_l 1.0, _lz 0), from derivatives (_d/_cd: ds/dx = 1.0 = 4 texels, LOD 2) or from
// the quad (lane 1's s is 1.0 further: LOD 2); _b adds the bias, _cl clamps it from above.
// Sampling blends the two levels around the LOD; a compare (_c, LESS with reference 3.0)
// filters the pass results (1, 1, 0 on the three levels); gather4 returns the four footprint
// texels of one level, so its bias (-1) and clamp (0) keep the LOD whole.
TEST(ImageSample, EveryVariantReadsItsAddressOperandsInOrder) {
  const float level[3] = {8.0f, 4.0f, 2.0f};
  const float pass[3] = {1.0f, 1.0f, 0.0f};  // 3.0 < texel
  const OpTable t = mimgTable();
  std::vector<Case> cases;
  for (int i = 0; i < t.count; ++i) {
    const std::string name = t.ops[i].name;
    const bool gather = name.rfind("image_gather4", 0) == 0;
    if (!gather && name.rfind("image_sample", 0) != 0) continue;
    std::set<std::string> mods;
    std::stringstream rest(name.substr(gather ? 13 : 12));
    for (std::string tok; std::getline(rest, tok, '_');)
      if (!tok.empty()) mods.insert(tok);
    const bool c = mods.count("c"), d = mods.count("d") || mods.count("cd"), b = mods.count("b"),
               l = mods.count("l"), lz = mods.count("lz"), cl = mods.count("cl"),
               o = mods.count("o");
    const float bias = gather ? -1.0f : -0.5f, clamp = gather ? 0.0f : 1.0f;
    std::vector<Val> in = {{"exec", 0xf}};
    int k = 4;
    auto next = [&](uint32_t value) { in.push_back({"v" + std::to_string(k++), value}); };
    if (o) next(0x0101);  // offsets (+1, +1): every level is uniform, the value stays
    if (b) next(f32(bias));
    if (c) next(f32(3.0f));
    if (d) {
      next(f32(1.0f));  // ds/dx
      next(0);          // dt/dx
      next(0);          // ds/dy
      next(0);          // dt/dy
    }
    next(f32(0.5f));                                                // s
    in.push_back({"v" + std::to_string(k - 1) + "@1", f32(1.5f)});  // the quad's x neighbour
    next(f32(0.5f));                                                // t
    if (l) next(f32(1.0f));
    if (cl) next(f32(clamp));
    float lod = lz ? 0.0f : l ? 1.0f : 2.0f;
    if (b) lod += bias;
    if (cl) lod = std::min(lod, clamp);
    lod = std::max(lod, 0.0f);
    const int lo = static_cast<int>(std::floor(lod));
    const float f = lod - static_cast<float>(lo);
    const float* v = c ? pass : level;
    const float expected = f == 0.0f ? v[lo] : (1.0f - f) * v[lo] + f * v[lo + 1];
    const int count = k - 4;
    const std::string vaddr =
        count == 1 ? "v4" : "v[4:" + std::to_string(count <= 8 ? 3 + count : 19) + "]";
    const std::string text =
        name + (gather ? " v[0:3], " : " v0, ") + vaddr + ", s[8:15], s[16:19] dmask:0x1";
    std::vector<Val> out;
    if (gather) {
      for (int r = 0; r < 4; ++r) out.push_back({"v" + std::to_string(r) + "@0", f32(expected)});
    } else {
      for (int lane = 0; lane < 4; ++lane)
        out.push_back({"v0@" + std::to_string(lane), f32(expected)});
    }
    cases.push_back({text,
                     sampled(imageT(), SSharp(kClampLastTexel, kBilinear, kMipLinear).compare(1),
                             imageTTexels(), in),
                     out});
  }
  EXPECT_EQ(cases.size(), 64u);  // 40 image_sample*, 24 image_gather4*
  checkCases(cases);
}

TEST(ImageExecution, EveryOpcodeRunsOnALinearImage) {
  // Every MIMG opcode once, encoded here (12.16 field layout: op [24:18], dmask [11:8], unorm
  // [12], glc [13]; vaddr, vdata, srsrc / 4, ssamp / 4 in word 1), on a 2D 32 UINT image (32
  // FLOAT for the samplers) with every address VGPR 0.25 (integer coordinates far out of range,
  // float coordinates inside): each must run without a fault.
  const OpTable t = mimgTable();
  int ran = 0;
  for (int i = 0; i < t.count; ++i) {
    const OpInfo& o = t.ops[i];
    if (o.enc != Enc::Mimg) continue;
    const std::string name = o.name;
    const bool sampler = o.src2 != Ty::None;
    const uint32_t dmask =
        name == "image_atomic_cmpswap" ? 0x3 : (name == "image_get_lod" ? 0x3 : 0x1);
    const uint32_t w0 =
        (0x3cu << 26) | (static_cast<uint32_t>(o.opcode) << 18) | (dmask << 8) | (1u << 13);  // glc
    const uint32_t w1 = 20u | (0u << 8) | ((8u / 4) << 16) | ((16u / 4) << 21);
    CodeFile code;
    code.base = 0x1000;
    for (uint32_t w : {w0, w1, 0xbf810000u})
      for (int k = 0; k < 4; ++k) code.text.push_back(static_cast<uint8_t>(w >> (8 * k)));
    WaveRunner r(code, GfxTarget::Gfx906);
    const TSharp image =
        TSharp(0xa0000, kDfmt32, sampler ? kFloat : kUint, 4, 4, kImage2d).pitch(4);
    for (int k = 0; k < 8; ++k) r.s(8 + k) = image.w[k];
    const SSharp s(kClampWrap, kBilinear, kMipLinear);
    for (int k = 0; k < 4; ++k) r.s(16 + k) = s.w[k];
    for (int v = 20; v < 32; ++v)
      for (int l = 0; l < kWaveSize; ++l) r.v(v, l) = f32(0.25f);
    const StepResult res = r.run();
    EXPECT_EQ(res.kind, StepKind::EndProgram) << name << ": " << res.fault;
    ++ran;
  }
  EXPECT_EQ(ran, t.count - 1);  // all but EXP
}

TEST(ImageFaults, NameWhatIsNotModelled) {
  auto faultOf = [](const std::string& text, const TSharp& t) {
    std::vector<Val> in;
    t.into(in, 8);
    CodeFile code = assembleProgram(text);
    WaveRunner r(code, GfxTarget::Gfx906);
    for (const Val& v : in) r.s(std::stoi(v.at.substr(1))) = static_cast<uint32_t>(v.value);
    const StepResult res = r.run();
    EXPECT_EQ(res.kind, StepKind::Fault) << text;
    return res.fault;
  };
  EXPECT_NE(faultOf("image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm", imageA().swizzleMode(9))
                .find("SW_MODE 9"),
            std::string::npos);
  EXPECT_NE(faultOf("image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 unorm", imageA())
                .find("needs an integer number format"),
            std::string::npos);
  EXPECT_NE(faultOf("image_sample v[0:3], v[4:6], s[8:15], s[16:19] dmask:0xf unorm",
                    TSharp(0x60000, kDfmt32, kFloat, 2, 2, kImageCube).pitch(2).depth(6))
                .find("cube-map sampling with unnormalized coordinates"),
            std::string::npos);
}

}  // namespace
}  // namespace vgpu::isa::test
