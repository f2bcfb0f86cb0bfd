// Image resource (T#) and sampler (S#) descriptors of gfx9 (Vega ISA reference guide, section
// 8.2 "Image Instructions": "Image Resource" and "Image Sampler"), and where a texel of a linear
// image lies in memory.
//
// Field layouts: the guide's tables, as AMD's ROCr image runtime (ROCm/ROCR-Runtime,
// runtime/hsa-runtime/image/resource_ai.h: SQ_IMG_RSRC_WORD0..7, SQ_IMG_SAMP_WORD0..3) defines
// them for gfx9. On gfx9 the T# is always 256 bits in an instruction (MIMG bit 15 is A16, not
// R128: llvm-mc-15 rejects r128 for gfx906); decodeImageResource also reads the 128-bit form
// (words 0-3) that earlier generations select with R128, giving words 4-7 their zero values.
//
// Memory layout: only linear surfaces (SW_MODE 0, ADDR_SW_LINEAR) are modelled; every tiled
// swizzle mode is refused with a clear fault. The linear layout follows AMD's address library
// for gfx9 (addrlib, Gfx9Lib::HwlComputeSurfaceInfoLinear and ComputeSurfaceLinearPadding):
//   - a row is the level-0 width padded to 256 bytes, the same for every mip level;
//   - mip levels are stacked one below the other inside a slice: level l starts at row
//     sum(max(1, height >> i), i < l) (a 1D image: one row per level);
//   - slices (array layers, 3D depth slices, cube faces) follow one another, each
//     `sliceRows` rows: with one mip level the T#'s PITCH field is the row pitch in texels and a
//     slice is `height` rows; with a mip chain (MAX_MIP > 0) PITCH holds the chain's height in
//     rows (addrlib's epitchIsHeight) and the row pitch is the padded width.
// See docs/images.md.
#pragma once

#include <cstdint>
#include <string>

namespace vgpu::isa {

// T# TYPE (SQ_RSRC_IMG_*); 0..7 is a buffer resource.
enum ImageType : uint8_t {
  kImage1d = 8,
  kImage2d = 9,
  kImage3d = 10,
  kImageCube = 11,
  kImage1dArray = 12,
  kImage2dArray = 13,
  kImage2dMsaa = 14,
  kImage2dMsaaArray = 15,
};

// IMG_NUM_FORMAT values beyond the buffer ones (BufferFormat.h, 0..7).
constexpr uint32_t kImgNumFormatSrgb = 9;

struct ImageResource {
  uint64_t base = 0;               // byte address (BASE_ADDRESS is in 256-byte units)
  uint32_t minLod = 0;             // MIN_LOD, unsigned 4.8 fixed point
  uint32_t dataFormat = 0;         // IMG_DATA_FORMAT_* (6 bits; 1..14 are the buffer formats)
  uint32_t numFormat = 0;          // IMG_NUM_FORMAT_* (4 bits)
  uint32_t width = 1, height = 1;  // level 0, in texels (WIDTH + 1, HEIGHT + 1)
  uint32_t perfMod = 0;
  uint32_t dstSel = 0;  // DST_SEL_X..W, 3 bits each from bit 0 (BufferFormat.h DstSel)
  uint32_t baseLevel = 0, lastLevel = 0;
  uint32_t swizzleMode = 0;  // SW_MODE: 0 linear, else a tiled mode (not modelled)
  uint32_t type = 0;         // ImageType
  // Words 4-7 (the 256-bit form; `wide` false: the 128-bit form, rows padded to 256 bytes and
  // slices one mip chain high).
  bool wide = true;
  uint32_t depth = 1;  // DEPTH + 1: the depth of a 3D image; arrays: the last slice + 1
  uint32_t pitch = 1;  // PITCH + 1: row pitch in texels, or the mip chain's height (above)
  uint32_t bcSwizzle = 0;
  uint32_t baseArray = 0;
  uint32_t arrayPitch = 0;
  uint32_t maxMip = 0;  // MAX_MIP: levels in memory - 1
  uint32_t minLodWarn = 0;
  bool compression = false;  // COMPRESSION_EN (DCC): not modelled
  uint64_t metaDataAddress = 0;
};

// `dwords` is 8 (the 256-bit T#) or 4 (the 128-bit form).
ImageResource decodeImageResource(const uint32_t* words, int dwords = 8);

// S# CLAMP_X/Y/Z (SQ_TEX_*).
enum TexClamp : uint8_t {
  kClampWrap = 0,
  kClampMirror = 1,
  kClampLastTexel = 2,
  kClampMirrorOnceLastTexel = 3,
  kClampHalfBorder = 4,
  kClampMirrorOnceHalfBorder = 5,
  kClampBorder = 6,
  kClampMirrorOnceBorder = 7,
};
// XY_MAG_FILTER / XY_MIN_FILTER; Z_FILTER and MIP_FILTER use 0 none, 1 point, 2 linear.
enum TexXyFilter : uint8_t {
  kXyPoint = 0,
  kXyBilinear = 1,
  kXyAnisoPoint = 2,
  kXyAnisoBilinear = 3
};
enum TexFilter : uint8_t { kFilterNone = 0, kFilterPoint = 1, kFilterLinear = 2 };
enum TexBorderColor : uint8_t {
  kBorderTransparentBlack = 0,
  kBorderOpaqueBlack = 1,
  kBorderOpaqueWhite = 2,
  kBorderRegister = 3,  // from the border colour table at BORDER_COLOR_PTR: not modelled
};

struct SamplerState {
  uint8_t clamp[3] = {};  // TexClamp for x, y, z
  uint8_t maxAnisoRatio = 0;
  uint8_t depthCompareFunc = 0;  // 0 never, 1 less, 2 equal, 3 lequal, 4 greater, 5 notequal,
                                 // 6 gequal, 7 always (reference op texel)
  bool forceUnnormalized = false;
  uint8_t anisoThreshold = 0;
  bool mcCoordTrunc = false;
  bool forceDegamma = false;
  uint8_t anisoBias = 0;
  bool truncCoord = false;
  bool disableCubeWrap = false;
  uint8_t filterMode = 0;  // 0 blend, 1 min, 2 max
  bool compatMode = false;
  uint32_t minLod = 0, maxLod = 0;  // unsigned 4.8 fixed point
  uint8_t perfMip = 0, perfZ = 0;
  int32_t lodBias = 0;  // signed 6.8 fixed point (14 bits)
  uint8_t lodBiasSec = 0;
  uint8_t xyMagFilter = 0, xyMinFilter = 0, zFilter = 0, mipFilter = 0;
  bool mipPointPreclamp = false;
  bool blendZeroPrt = false;
  bool filterPrecFix = false;
  bool anisoOverride = false;
  uint32_t borderColorPtr = 0;
  bool skipDegamma = false;
  uint8_t borderColorType = 0;  // TexBorderColor
};

SamplerState decodeSampler(const uint32_t* words);

// Where the texels of a linear image are (see the file comment). Built by linearLayout.
struct ImageLayout {
  static constexpr int kMaxLevels = 16;
  uint32_t texelBytes = 0;
  uint32_t levels = 1;  // levels in memory (MAX_MIP + 1)
  uint64_t rowPitchBytes = 0;
  uint64_t sliceBytes = 0;
  uint32_t levelRow[kMaxLevels] = {};  // first row of each level inside a slice
  uint32_t lastSlice = 0;              // arrays and cube maps: the last slice the T# allows (DEPTH)

  uint64_t texelAddress(uint64_t base, uint32_t x, uint32_t y, uint32_t slice,
                        uint32_t level) const {
    return base + slice * sliceBytes + (uint64_t{levelRow[level]} + y) * rowPitchBytes +
           uint64_t{x} * texelBytes;
  }
};

// A level's size in texels: max(1, size0 >> level).
inline uint32_t levelSize(uint32_t size0, uint32_t level) {
  const uint32_t s = level < 32 ? size0 >> level : 0;
  return s ? s : 1;
}

// Whether the image dimension has a y coordinate / a z (3D) coordinate / slices.
inline bool imageHasY(uint32_t type) {
  return type != kImage1d && type != kImage1dArray;
}
inline bool imageIsArray(uint32_t type) {
  return type == kImage1dArray || type == kImage2dArray || type == kImageCube ||
         type == kImage2dMsaaArray;
}

// The linear layout of `r` in `out`; empty if it is one the model addresses, else what is not
// (a tiled swizzle mode, MSAA, DCC, an unsupported data or number format, a malformed T#).
std::string linearLayout(const ImageResource& r, ImageLayout& out);

// "IMG_DATA_FORMAT_8_8_8_8", "IMG_NUM_FORMAT_SRGB", "2D_ARRAY", ... for fault messages.
std::string imageDataFormatName(uint32_t dfmt);
std::string imageNumFormatName(uint32_t nfmt);
const char* imageTypeName(uint32_t type);

}  // namespace vgpu::isa

// --- Encoding (host side: models/runtime/ImageBuilder) ----------------------------------------
// The inverse of decodeImageResource / decodeSampler, derived from them: each descriptor bit is
// attributed to the field and field bit it changes when decoded alone, so the field positions
// stay defined once, in the decoders above. Returns "" with `words` filled, or the first field
// whose value the descriptor cannot hold (e.g. WIDTH beyond 14 bits), naming field and value.
// The T# is the 256-bit form (8 words).
namespace vgpu::isa {
std::string encodeImageResource(const ImageResource& r, uint32_t words[8]);
std::string encodeSampler(const SamplerState& s, uint32_t words[4]);
}  // namespace vgpu::isa
