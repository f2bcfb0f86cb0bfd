// T# / S# decoding and the linear image layout: see ImageResource.h for the sources.
#include "isa/ImageResource.h"

#include <iterator>
#include <vector>

#include "isa/BufferFormat.h"

namespace vgpu::isa {

namespace {
uint32_t field(uint32_t word, int low, int bits) {
  return (word >> low) & ((bits == 32) ? ~0u : (1u << bits) - 1);
}
}  // namespace

ImageResource decodeImageResource(const uint32_t* v, int dwords) {
  ImageResource r;
  r.base = (uint64_t{v[0]} | (uint64_t{field(v[1], 0, 8)} << 32)) << 8;
  r.minLod = field(v[1], 8, 12);
  r.dataFormat = field(v[1], 20, 6);
  r.numFormat = field(v[1], 26, 4);
  r.width = field(v[2], 0, 14) + 1;
  r.height = field(v[2], 14, 14) + 1;
  r.perfMod = field(v[2], 28, 3);
  r.dstSel = field(v[3], 0, 12);
  r.baseLevel = field(v[3], 12, 4);
  r.lastLevel = field(v[3], 16, 4);
  r.swizzleMode = field(v[3], 20, 5);
  r.type = field(v[3], 28, 4);
  r.wide = dwords >= 8;
  if (!r.wide) {  // words 4-7 read as zeros, except the mip chain the levels imply
    r.maxMip = r.lastLevel;
    return r;
  }
  r.depth = field(v[4], 0, 13) + 1;
  r.pitch = field(v[4], 13, 16) + 1;
  r.bcSwizzle = field(v[4], 29, 3);
  r.baseArray = field(v[5], 0, 13);
  r.arrayPitch = field(v[5], 13, 4);
  r.metaDataAddress = (uint64_t{field(v[5], 17, 8)} << 40) | (uint64_t{v[7]} << 8);
  r.maxMip = field(v[5], 28, 4);
  r.minLodWarn = field(v[6], 0, 12);
  r.compression = field(v[6], 21, 1) != 0;
  return r;
}

SamplerState decodeSampler(const uint32_t* v) {
  SamplerState s;
  for (int c = 0; c < 3; ++c) s.clamp[c] = static_cast<uint8_t>(field(v[0], 3 * c, 3));
  s.maxAnisoRatio = static_cast<uint8_t>(field(v[0], 9, 3));
  s.depthCompareFunc = static_cast<uint8_t>(field(v[0], 12, 3));
  s.forceUnnormalized = field(v[0], 15, 1) != 0;
  s.anisoThreshold = static_cast<uint8_t>(field(v[0], 16, 3));
  s.mcCoordTrunc = field(v[0], 19, 1) != 0;
  s.forceDegamma = field(v[0], 20, 1) != 0;
  s.anisoBias = static_cast<uint8_t>(field(v[0], 21, 6));
  s.truncCoord = field(v[0], 27, 1) != 0;
  s.disableCubeWrap = field(v[0], 28, 1) != 0;
  s.filterMode = static_cast<uint8_t>(field(v[0], 29, 2));
  s.compatMode = field(v[0], 31, 1) != 0;
  s.minLod = field(v[1], 0, 12);
  s.maxLod = field(v[1], 12, 12);
  s.perfMip = static_cast<uint8_t>(field(v[1], 24, 4));
  s.perfZ = static_cast<uint8_t>(field(v[1], 28, 4));
  const uint32_t bias = field(v[2], 0, 14);
  s.lodBias = static_cast<int32_t>(bias << 18) >> 18;  // 14-bit two's complement
  s.lodBiasSec = static_cast<uint8_t>(field(v[2], 14, 6));
  s.xyMagFilter = static_cast<uint8_t>(field(v[2], 20, 2));
  s.xyMinFilter = static_cast<uint8_t>(field(v[2], 22, 2));
  s.zFilter = static_cast<uint8_t>(field(v[2], 24, 2));
  s.mipFilter = static_cast<uint8_t>(field(v[2], 26, 2));
  s.mipPointPreclamp = field(v[2], 28, 1) != 0;
  s.blendZeroPrt = field(v[2], 29, 1) != 0;
  s.filterPrecFix = field(v[2], 30, 1) != 0;
  s.anisoOverride = field(v[2], 31, 1) != 0;
  s.borderColorPtr = field(v[3], 0, 12);
  s.skipDegamma = field(v[3], 12, 1) != 0;
  s.borderColorType = static_cast<uint8_t>(field(v[3], 30, 2));
  return s;
}

const char* imageTypeName(uint32_t type) {
  static const char* const kNames[8] = {"1D",       "2D",       "3D",      "CUBE",
                                        "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"};
  return type >= 8 && type < 16 ? kNames[type - 8] : "BUFFER";
}

std::string imageDataFormatName(uint32_t dfmt) {
  if (dfmt < 15) {
    const std::string buffer = dataFormatName(dfmt);  // "BUF_DATA_FORMAT_..."
    return "IMG" + buffer.substr(3);
  }
  return "IMG_DATA_FORMAT " + std::to_string(dfmt);
}

std::string imageNumFormatName(uint32_t nfmt) {
  if (nfmt < 8) {
    const std::string buffer = numFormatName(nfmt);
    return "IMG" + buffer.substr(3);
  }
  return nfmt == kImgNumFormatSrgb ? "IMG_NUM_FORMAT_SRGB"
                                   : "IMG_NUM_FORMAT " + std::to_string(nfmt);
}

std::string linearLayout(const ImageResource& r, ImageLayout& out) {
  out = ImageLayout{};
  if (r.type < kImage1d) return "the resource is a buffer (T# TYPE " + std::to_string(r.type) + ")";
  if (r.type == kImage2dMsaa || r.type == kImage2dMsaaArray)
    return std::string("MSAA images (") + imageTypeName(r.type) +
           ") have no linear layout on gfx9 and their tiled layouts are not modelled";
  if (r.swizzleMode != 0)
    return "swizzle mode SW_MODE " + std::to_string(r.swizzleMode) +
           " (tiled) is not modelled: only linear images (SW_MODE 0)";
  if (r.compression) return "DCC-compressed images (COMPRESSION_EN) are not modelled";
  // Data formats 1..14 are those of the buffer path, whose conversions the image path reuses;
  // the packed 16-bit, depth-stencil and block-compressed formats (15..63) are not modelled.
  const FormatLayout* layout = r.dataFormat < 15 ? formatLayout(r.dataFormat) : nullptr;
  if (layout == nullptr)
    return "data format " + imageDataFormatName(r.dataFormat) + " is not modelled";
  if (r.numFormat == kImgNumFormatSrgb) {
    if (r.dataFormat != kDfmt8 && r.dataFormat != kDfmt8_8 && r.dataFormat != kDfmt8_8_8_8)
      return "IMG_NUM_FORMAT_SRGB needs an 8-bit data format, not " +
             imageDataFormatName(r.dataFormat);
  } else if (r.numFormat >= 8) {
    return "number format " + imageNumFormatName(r.numFormat) + " is not modelled";
  } else if (const char* problem = formatProblem(r.dataFormat, r.numFormat)) {
    return imageDataFormatName(r.dataFormat) + ", " + imageNumFormatName(r.numFormat) + ": " +
           problem;
  }
  if (r.type == kImage1d || r.type == kImage1dArray) {
    if (r.height != 1 && r.type == kImage1d) return "a 1D image with HEIGHT > 0";
  }
  out.texelBytes = layout->bytes;
  out.levels = r.maxMip + 1;
  const uint32_t height0 = imageHasY(r.type) ? r.height : 1;
  uint32_t row = 0;
  for (uint32_t l = 0; l < out.levels; ++l) {
    out.levelRow[l] = row;
    row += levelSize(height0, l);
  }
  const uint64_t paddedRow = (uint64_t{r.width} * out.texelBytes + 255) / 256 * 256;
  uint64_t sliceRows;
  if (!r.wide) {
    out.rowPitchBytes = paddedRow;
    sliceRows = row;
  } else if (out.levels > 1) {
    out.rowPitchBytes = paddedRow;
    sliceRows = r.pitch;  // the mip chain's height (epitchIsHeight)
    if (sliceRows < row)
      return "malformed T#: PITCH (mip chain height " + std::to_string(r.pitch) +
             " rows) is less than the " + std::to_string(row) + " rows of its " +
             std::to_string(out.levels) + " levels";
  } else {
    out.rowPitchBytes = uint64_t{r.pitch} * out.texelBytes;
    sliceRows = height0;
    if (r.pitch < r.width)
      return "malformed T#: PITCH " + std::to_string(r.pitch) + " is less than WIDTH " +
             std::to_string(r.width);
  }
  out.sliceBytes = sliceRows * out.rowPitchBytes;
  out.lastSlice = r.type == kImage3d ? r.depth - 1 : (imageIsArray(r.type) ? r.depth - 1 : 0);
  if (r.baseLevel > r.lastLevel)
    return "malformed T#: BASE_LEVEL " + std::to_string(r.baseLevel) + " beyond LAST_LEVEL " +
           std::to_string(r.lastLevel);
  if (r.lastLevel >= out.levels)
    return "malformed T#: LAST_LEVEL " + std::to_string(r.lastLevel) + " beyond MAX_MIP " +
           std::to_string(r.maxMip);
  return {};
}

}  // namespace vgpu::isa

// --- Encoding: see ImageResource.h ------------------------------------------------------------

namespace vgpu::isa {
namespace {

// A descriptor field as the host sets it, read as an unsigned 64-bit value (signed fields are
// sign-extended, so their two's complement bits line up with the descriptor's).
template <typename Desc>
struct FieldRead {
  const char* name;
  uint64_t (*read)(const Desc&);
};

#define VGPU_FIELD(Desc, member)                                           \
  FieldRead<Desc> {                                                        \
#member, [](const Desc& d) { return static_cast<uint64_t>(d.member); } \
  }

const FieldRead<ImageResource> kImageFields[] = {
    VGPU_FIELD(ImageResource, base),
    VGPU_FIELD(ImageResource, minLod),
    VGPU_FIELD(ImageResource, dataFormat),
    VGPU_FIELD(ImageResource, numFormat),
    VGPU_FIELD(ImageResource, width),
    VGPU_FIELD(ImageResource, height),
    VGPU_FIELD(ImageResource, perfMod),
    VGPU_FIELD(ImageResource, dstSel),
    VGPU_FIELD(ImageResource, baseLevel),
    VGPU_FIELD(ImageResource, lastLevel),
    VGPU_FIELD(ImageResource, swizzleMode),
    VGPU_FIELD(ImageResource, type),
    VGPU_FIELD(ImageResource, depth),
    VGPU_FIELD(ImageResource, pitch),
    VGPU_FIELD(ImageResource, bcSwizzle),
    VGPU_FIELD(ImageResource, baseArray),
    VGPU_FIELD(ImageResource, arrayPitch),
    VGPU_FIELD(ImageResource, maxMip),
    VGPU_FIELD(ImageResource, minLodWarn),
    VGPU_FIELD(ImageResource, compression),
    VGPU_FIELD(ImageResource, metaDataAddress),
};

const FieldRead<SamplerState> kSamplerFields[] = {
    VGPU_FIELD(SamplerState, clamp[0]),         VGPU_FIELD(SamplerState, clamp[1]),
    VGPU_FIELD(SamplerState, clamp[2]),         VGPU_FIELD(SamplerState, maxAnisoRatio),
    VGPU_FIELD(SamplerState, depthCompareFunc), VGPU_FIELD(SamplerState, forceUnnormalized),
    VGPU_FIELD(SamplerState, anisoThreshold),   VGPU_FIELD(SamplerState, mcCoordTrunc),
    VGPU_FIELD(SamplerState, forceDegamma),     VGPU_FIELD(SamplerState, anisoBias),
    VGPU_FIELD(SamplerState, truncCoord),       VGPU_FIELD(SamplerState, disableCubeWrap),
    VGPU_FIELD(SamplerState, filterMode),       VGPU_FIELD(SamplerState, compatMode),
    VGPU_FIELD(SamplerState, minLod),           VGPU_FIELD(SamplerState, maxLod),
    VGPU_FIELD(SamplerState, perfMip),          VGPU_FIELD(SamplerState, perfZ),
    VGPU_FIELD(SamplerState, lodBias),          VGPU_FIELD(SamplerState, lodBiasSec),
    VGPU_FIELD(SamplerState, xyMagFilter),      VGPU_FIELD(SamplerState, xyMinFilter),
    VGPU_FIELD(SamplerState, zFilter),          VGPU_FIELD(SamplerState, mipFilter),
    VGPU_FIELD(SamplerState, mipPointPreclamp), VGPU_FIELD(SamplerState, blendZeroPrt),
    VGPU_FIELD(SamplerState, filterPrecFix),    VGPU_FIELD(SamplerState, anisoOverride),
    VGPU_FIELD(SamplerState, borderColorPtr),   VGPU_FIELD(SamplerState, skipDegamma),
    VGPU_FIELD(SamplerState, borderColorType),
};
#undef VGPU_FIELD

// Descriptor bit `bit` holds bit `fieldBit` of field `field` (its value minus the value all-zero
// words decode to: WIDTH + 1 and the like).
struct BitPlace {
  uint16_t bit;
  uint8_t field;
  uint8_t fieldBit;
};

template <typename Desc, size_t kFields, int kWords>
std::vector<BitPlace> probeBits(const FieldRead<Desc> (&fields)[kFields],
                                Desc (*decode)(const uint32_t*)) {
  uint32_t words[kWords] = {};
  const Desc zero = decode(words);
  std::vector<BitPlace> places;
  for (int bit = 0; bit < 32 * kWords; ++bit) {
    words[bit / 32] = 1u << (bit % 32);
    const Desc one = decode(words);
    words[bit / 32] = 0;
    for (size_t f = 0; f < kFields; ++f) {
      const uint64_t delta = fields[f].read(one) - fields[f].read(zero);
      if (delta == 0) continue;
      int low = 0;
      while (((delta >> low) & 1) == 0) ++low;  // a sign bit changes every bit from `low` up
      places.push_back(
          {static_cast<uint16_t>(bit), static_cast<uint8_t>(f), static_cast<uint8_t>(low)});
    }
  }
  return places;
}

template <typename Desc, size_t kFields, int kWords>
std::string encode(const Desc& d, uint32_t* words, const FieldRead<Desc> (&fields)[kFields],
                   const std::vector<BitPlace>& places, Desc (*decode)(const uint32_t*)) {
  uint32_t zeroWords[kWords] = {};
  const Desc zero = decode(zeroWords);
  for (int w = 0; w < kWords; ++w) words[w] = 0;
  for (const BitPlace& p : places) {
    const uint64_t raw = fields[p.field].read(d) - fields[p.field].read(zero);
    if ((raw >> p.fieldBit) & 1) words[p.bit / 32] |= 1u << (p.bit % 32);
  }
  // Whatever the words cannot hold (too wide, below the field's offset, low bits of an address
  // the descriptor keeps in 256-byte units) decodes differently.
  const Desc back = decode(words);
  for (size_t f = 0; f < kFields; ++f)
    if (fields[f].read(back) != fields[f].read(d))
      return std::string("field ") + fields[f].name + " = " +
             std::to_string(static_cast<int64_t>(fields[f].read(d))) +
             " does not fit the descriptor (it would read back as " +
             std::to_string(static_cast<int64_t>(fields[f].read(back))) + ")";
  return {};
}

ImageResource decodeWideImageResource(const uint32_t* words) {
  return decodeImageResource(words, 8);
}

}  // namespace

std::string encodeImageResource(const ImageResource& r, uint32_t words[8]) {
  static const std::vector<BitPlace> places =
      probeBits<ImageResource, std::size(kImageFields), 8>(kImageFields, decodeWideImageResource);
  return encode<ImageResource, std::size(kImageFields), 8>(r, words, kImageFields, places,
                                                           decodeWideImageResource);
}

std::string encodeSampler(const SamplerState& s, uint32_t words[4]) {
  static const std::vector<BitPlace> places =
      probeBits<SamplerState, std::size(kSamplerFields), 4>(kSamplerFields, decodeSampler);
  return encode<SamplerState, std::size(kSamplerFields), 4>(s, words, kSamplerFields, places,
                                                            decodeSampler);
}

}  // namespace vgpu::isa
