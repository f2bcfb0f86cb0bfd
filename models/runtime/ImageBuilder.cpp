// Image objects, their linear layout and samplers: see ImageBuilder.h for the sources.
#include "runtime/ImageBuilder.h"

#include <cstring>
#include <iterator>
#include <vector>

#include "isa/BufferFormat.h"

namespace vgpu::image {
namespace {

// hsa_ext_image_channel_type_t / hsa_ext_image_channel_order_t values used below.
enum ChannelType : uint32_t {
  kSnormInt8 = 0,
  kSnormInt16 = 1,
  kUnormInt8 = 2,
  kUnormInt16 = 3,
  kSignedInt8 = 8,
  kSignedInt16 = 9,
  kSignedInt32 = 10,
  kUnsignedInt8 = 11,
  kUnsignedInt16 = 12,
  kUnsignedInt32 = 13,
  kHalfFloat = 14,
  kFloat = 15,
};
enum ChannelOrder : uint32_t {
  kOrderA = 0,
  kOrderR = 1,
  kOrderRx = 2,
  kOrderRg = 3,
  kOrderRgx = 4,
  kOrderRa = 5,
  kOrderRgba = 8,
  kOrderBgra = 9,
  kOrderArgb = 10,
  kOrderAbgr = 11,
  kOrderIntensity = 16,
  kOrderLuminance = 17,
};

struct TypeFormat {
  uint32_t bits = 0;  // per channel
  uint32_t numFormat = 0;
};
bool channelTypeFormat(uint32_t type, TypeFormat& f) {
  using namespace isa;
  switch (type) {
    case kSnormInt8:
      f = {8, kNfmtSnorm};
      return true;
    case kSnormInt16:
      f = {16, kNfmtSnorm};
      return true;
    case kUnormInt8:
      f = {8, kNfmtUnorm};
      return true;
    case kUnormInt16:
      f = {16, kNfmtUnorm};
      return true;
    case kSignedInt8:
      f = {8, kNfmtSint};
      return true;
    case kSignedInt16:
      f = {16, kNfmtSint};
      return true;
    case kSignedInt32:
      f = {32, kNfmtSint};
      return true;
    case kUnsignedInt8:
      f = {8, kNfmtUint};
      return true;
    case kUnsignedInt16:
      f = {16, kNfmtUint};
      return true;
    case kUnsignedInt32:
      f = {32, kNfmtUint};
      return true;
    case kHalfFloat:
      f = {16, kNfmtFloat};
      return true;
    case kFloat:
      f = {32, kNfmtFloat};
      return true;
    default:
      return false;
  }
}

// Channels in memory and where each of r, g, b, a comes from (DST_SEL: component X is the
// first in memory), as the channel order defines them (OpenCL 1.2, 5.3.1.1; ROCr's MapSwizzle).
struct OrderSwizzle {
  uint32_t channels = 0;
  uint8_t sel[4] = {};
  uint32_t bcSwizzle = 0;  // BC_SWIZZLE: where the border colour's channels go (ROCr's
                           // GetBcSwizzle); only transparent black is used, so only for
                           // completeness: 0 XYZW, 1 XWYZ, 2 WZYX, 3 WXYZ, 4 ZYXW
};
bool channelOrderSwizzle(uint32_t order, OrderSwizzle& s) {
  using namespace isa;
  switch (order) {
    case kOrderR:
    case kOrderRx:
      s = {1, {kSelX, kSel0, kSel0, kSel1}, 0};
      return true;
    case kOrderA:
      s = {1, {kSel0, kSel0, kSel0, kSelX}, 3};
      return true;
    case kOrderIntensity:
      s = {1, {kSelX, kSelX, kSelX, kSelX}, 0};
      return true;
    case kOrderLuminance:
      s = {1, {kSelX, kSelX, kSelX, kSel1}, 0};
      return true;
    case kOrderRg:
    case kOrderRgx:
      s = {2, {kSelX, kSelY, kSel0, kSel1}, 0};
      return true;
    case kOrderRa:
      s = {2, {kSelX, kSel0, kSel0, kSelY}, 1};
      return true;
    case kOrderRgba:
      s = {4, {kSelX, kSelY, kSelZ, kSelW}, 0};
      return true;
    case kOrderBgra:
      s = {4, {kSelZ, kSelY, kSelX, kSelW}, 4};
      return true;
    case kOrderArgb:
      s = {4, {kSelY, kSelZ, kSelW, kSelX}, 3};
      return true;
    case kOrderAbgr:
      s = {4, {kSelW, kSelZ, kSelY, kSelX}, 2};
      return true;
    default:
      return false;
  }
}

uint32_t dataFormat(uint32_t bits, uint32_t channels) {
  using namespace isa;
  const uint32_t i = channels == 1 ? 0 : channels == 2 ? 1 : 2;
  static const uint32_t k8[3] = {kDfmt8, kDfmt8_8, kDfmt8_8_8_8};
  static const uint32_t k16[3] = {kDfmt16, kDfmt16_16, kDfmt16_16_16_16};
  static const uint32_t k32[3] = {kDfmt32, kDfmt32_32, kDfmt32_32_32_32};
  return bits == 8 ? k8[i] : bits == 16 ? k16[i] : k32[i];
}

BuildResult fail(ImageProblem p, std::string message) {
  return {p, std::move(message)};
}

// --- V# encoding, derived from the decoder (isa::decodeResource) as ImageResource.h's T# and S#
// encoders are: each descriptor bit is attributed to the field bit it changes when decoded alone,
// so the V# field positions stay defined once, in the decoder.
struct VField {
  const char* name;
  uint64_t (*read)(const isa::BufferResource&);
};
#define VGPU_VFIELD(member)                                                               \
  VField {                                                                                \
#member, [](const isa::BufferResource& r) { return static_cast<uint64_t>(r.member); } \
  }
const VField kBufferFields[] = {
    VGPU_VFIELD(base),        VGPU_VFIELD(stride),     VGPU_VFIELD(numRecords),
    VGPU_VFIELD(swizzle),     VGPU_VFIELD(addTid),     VGPU_VFIELD(elementSize),
    VGPU_VFIELD(indexStride), VGPU_VFIELD(dataFormat), VGPU_VFIELD(numFormat),
    VGPU_VFIELD(dstSel),      VGPU_VFIELD(type),
};
#undef VGPU_VFIELD

std::string encodeBufferResource(const isa::BufferResource& r, uint32_t words[4]) {
  struct Place {
    int bit;
    size_t field;
    int fieldBit;
  };
  static const std::vector<Place> places = [] {
    std::vector<Place> out;
    uint32_t w[4] = {};
    const isa::BufferResource zero = isa::decodeResource(w);
    for (int bit = 0; bit < 128; ++bit) {
      w[bit / 32] = 1u << (bit % 32);
      const isa::BufferResource one = isa::decodeResource(w);
      w[bit / 32] = 0;
      for (size_t f = 0; f < std::size(kBufferFields); ++f) {
        const uint64_t delta = kBufferFields[f].read(one) - kBufferFields[f].read(zero);
        if (delta == 0) continue;
        int low = 0;
        while (((delta >> low) & 1) == 0) ++low;
        out.push_back({bit, f, low});
      }
    }
    return out;
  }();
  uint32_t zeroWords[4] = {};
  const isa::BufferResource zero = isa::decodeResource(zeroWords);
  for (int i = 0; i < 4; ++i) words[i] = 0;
  for (const Place& p : places) {
    const uint64_t raw = kBufferFields[p.field].read(r) - kBufferFields[p.field].read(zero);
    if ((raw >> p.fieldBit) & 1) words[p.bit / 32] |= 1u << (p.bit % 32);
  }
  const isa::BufferResource back = isa::decodeResource(words);
  for (const VField& f : kBufferFields)
    if (f.read(back) != f.read(r))
      return std::string("field ") + f.name + " = " + std::to_string(f.read(r)) +
             " does not fit the V#";
  return {};
}

// A 1D buffer image: typed records of texelBytes, as ROCr's gfx9 image manager builds them
// (PopulateImageSrd, 1DB: STRIDE the element size, the channel order's DST_SEL, the format's
// DATA_FORMAT/NUM_FORMAT), NUM_RECORDS in records (the structured range check of the Vega ISA
// guide 8.1.8 counts indices).
BuildResult planBufferImage(const ImageDescription& d, const TypeFormat& tf, const OrderSwizzle& sw,
                            ImagePlan& out) {
  if (d.width == 0) return fail(ImageProblem::kInvalid, "an image dimension is 0");
  if (d.width > kMaxImageBufferTexels)
    return fail(ImageProblem::kSize, "1D buffer image of " + std::to_string(d.width) +
                                         " texels exceeds " +
                                         std::to_string(kMaxImageBufferTexels));
  out.buffer = true;
  out.texelBytes = tf.bits / 8 * sw.channels;
  isa::BufferResource& r = out.bufferResource;
  uint32_t zero[4] = {};
  r = isa::decodeResource(zero);  // the fields a typed buffer leaves 0
  r.stride = out.texelBytes;
  r.numRecords = static_cast<uint32_t>(d.width);
  r.dataFormat = dataFormat(tf.bits, sw.channels);
  r.numFormat = tf.numFormat;
  r.dstSel = sw.sel[0] | sw.sel[1] << 3 | sw.sel[2] << 6 | sw.sel[3] << 9;
  uint32_t words[4];
  if (std::string why = encodeBufferResource(r, words); !why.empty())
    return fail(ImageProblem::kFormat, why);
  out.width = static_cast<uint32_t>(d.width);
  out.rowPitchBytes = out.slicePitchBytes = out.dataBytes = d.width * out.texelBytes;
  // One row: texel x at x * texelBytes.
  out.layout.texelBytes = out.texelBytes;
  out.layout.rowPitchBytes = out.layout.sliceBytes = out.rowPitchBytes;
  out.channelType = d.channelType;
  out.channelOrder = d.channelOrder;
  return {};
}

}  // namespace

BuildResult planImage(const ImageDescription& d, ImagePlan& out) {
  out = ImagePlan{};
  uint32_t type;
  switch (d.geometry) {
    case k1d:
      type = isa::kImage1d;
      break;
    case k2d:
      type = isa::kImage2d;
      break;
    case k3d:
      type = isa::kImage3d;
      break;
    case k1dArray:
      type = isa::kImage1dArray;
      break;
    case k2dArray:
      type = isa::kImage2dArray;
      break;
    case k1dBuffer:
      type = 0;  // a buffer resource
      break;
    default:
      return fail(ImageProblem::kInvalid, "geometry " + std::to_string(d.geometry) +
                                              " is not supported (depth images "
                                              "and unknown geometries)");
  }
  TypeFormat tf;
  OrderSwizzle sw;
  if (!channelTypeFormat(d.channelType, tf))
    return fail(ImageProblem::kFormat, "channel type " + std::to_string(d.channelType) +
                                           " is not supported (packed and 24-bit types)");
  if (!channelOrderSwizzle(d.channelOrder, sw))
    return fail(ImageProblem::kFormat, "channel order " + std::to_string(d.channelOrder) +
                                           " is not supported (3-channel, sRGB and depth orders)");
  // OpenCL 1.2, table 5.6: INTENSITY and LUMINANCE take only UNORM/SNORM INT8/INT16, HALF_FLOAT
  // and FLOAT.
  if ((d.channelOrder == kOrderIntensity || d.channelOrder == kOrderLuminance) &&
      (tf.numFormat == isa::kNfmtUint || tf.numFormat == isa::kNfmtSint))
    return fail(ImageProblem::kFormat, "INTENSITY and LUMINANCE images take no integer types");

  if (d.geometry == k1dBuffer) return planBufferImage(d, tf, sw, out);

  const bool hasY = d.geometry == k2d || d.geometry == k3d || d.geometry == k2dArray;
  const bool isArray = d.geometry == k1dArray || d.geometry == k2dArray;
  const uint64_t height = hasY ? d.height : 1;
  const uint64_t slices = d.geometry == k3d ? d.depth : isArray ? d.arraySize : 1;
  if (d.width == 0 || height == 0 || slices == 0)
    return fail(ImageProblem::kInvalid, "an image dimension is 0");
  if (d.width > kMaxImageWidth || height > kMaxImageHeight ||
      (d.geometry == k3d && slices > kMaxImageDepth) || (isArray && slices > kMaxImageLayers))
    return fail(ImageProblem::kSize, "image size " + std::to_string(d.width) + " x " +
                                         std::to_string(height) + " x " + std::to_string(slices) +
                                         " exceeds the T#'s 16384 x 16384 x 8192");

  const uint32_t texelBytes = tf.bits / 8 * sw.channels;
  uint64_t pitchTexels;
  if (d.rowPitchBytes == 0) {
    const uint64_t rowBytes = (d.width * texelBytes + kImageRowPitchAlignment - 1) /
                              kImageRowPitchAlignment * kImageRowPitchAlignment;
    pitchTexels = rowBytes / texelBytes;
  } else {
    if (d.rowPitchBytes % kImageRowPitchAlignment != 0 || d.rowPitchBytes < d.width * texelBytes)
      return fail(ImageProblem::kPitch,
                  "row pitch " + std::to_string(d.rowPitchBytes) +
                      " bytes: it must be a multiple of 256 and hold the row's " +
                      std::to_string(d.width * texelBytes) + " bytes");
    pitchTexels = d.rowPitchBytes / texelBytes;
  }

  isa::ImageResource& r = out.resource;
  r.dataFormat = dataFormat(tf.bits, sw.channels);
  r.numFormat = tf.numFormat;
  r.width = static_cast<uint32_t>(d.width);
  r.height = static_cast<uint32_t>(height);
  r.dstSel = sw.sel[0] | sw.sel[1] << 3 | sw.sel[2] << 6 | sw.sel[3] << 9;
  r.type = type;
  r.depth = static_cast<uint32_t>(slices);
  r.pitch = static_cast<uint32_t>(pitchTexels);
  r.bcSwizzle = sw.bcSwizzle;
  // Round trip through the descriptor, so the layout is the one the GPU will address.
  uint32_t words[8];
  if (std::string why = isa::encodeImageResource(r, words); !why.empty())
    return fail(ImageProblem::kPitch, "T#: " + why);
  if (std::string why = isa::linearLayout(isa::decodeImageResource(words), out.layout);
      !why.empty())
    return fail(ImageProblem::kFormat, why);
  out.texelBytes = texelBytes;
  out.width = r.width;
  out.height = r.height;
  out.slices = static_cast<uint32_t>(slices);
  out.rowPitchBytes = out.layout.rowPitchBytes;
  out.slicePitchBytes = out.layout.sliceBytes;
  if (d.slicePitchBytes != 0 && (slices > 1 || d.geometry == k3d || isArray) &&
      d.slicePitchBytes != out.slicePitchBytes)
    return fail(ImageProblem::kPitch, "slice pitch " + std::to_string(d.slicePitchBytes) +
                                          " bytes: the linear layout's slices are " +
                                          std::to_string(out.slicePitchBytes) +
                                          " bytes (row pitch x height)");
  out.dataBytes = out.slicePitchBytes * slices;
  out.channelType = d.channelType;
  out.channelOrder = d.channelOrder;
  return {};
}

BuildResult imageObject(const ImagePlan& plan, uint64_t dataAddress,
                        std::array<uint32_t, kImageObjectBytes / 4>& words) {
  words.fill(0);
  if (plan.buffer) {
    isa::BufferResource r = plan.bufferResource;
    r.base = dataAddress;
    if (std::string why = encodeBufferResource(r, words.data()); !why.empty())
      return fail(ImageProblem::kInvalid, "V#: " + why);
    words[8] = plan.channelType;
    words[9] = plan.channelOrder;
    words[10] = plan.width;
    return {};
  }
  if (dataAddress % kImageDataAlignment != 0)
    return fail(ImageProblem::kInvalid,
                "image data at " + std::to_string(dataAddress) + " is not 256-byte aligned");
  isa::ImageResource r = plan.resource;
  r.base = dataAddress;
  if (std::string why = isa::encodeImageResource(r, words.data()); !why.empty())
    return fail(ImageProblem::kInvalid, "T#: " + why);
  words[8] = plan.channelType;
  words[9] = plan.channelOrder;
  words[10] = plan.width;
  return {};
}

namespace {
template <bool kToLinear>
void copyTexels(const ImagePlan& plan, const uint8_t* from, uint8_t* to) {
  const size_t rowBytes = size_t{plan.width} * plan.texelBytes;
  size_t packed = 0;
  for (uint32_t s = 0; s < plan.slices; ++s)
    for (uint32_t y = 0; y < plan.height; ++y, packed += rowBytes) {
      const uint64_t linear = plan.layout.texelAddress(0, 0, y, s, 0);
      if (kToLinear)
        std::memcpy(to + linear, from + packed, rowBytes);
      else
        std::memcpy(to + packed, from + linear, rowBytes);
    }
}
}  // namespace

void packedToLinear(const ImagePlan& plan, const uint8_t* packed, uint8_t* linear) {
  copyTexels<true>(plan, packed, linear);
}
void linearToPacked(const ImagePlan& plan, const uint8_t* linear, uint8_t* packed) {
  copyTexels<false>(plan, linear, packed);
}

BuildResult samplerWords(const SamplerDescription& d, std::array<uint32_t, 4>& words) {
  words.fill(0);
  isa::SamplerState s;
  uint8_t clamp;
  switch (d.addressingMode) {
    case 0:  // undefined
    case 3:
      clamp = isa::kClampWrap;
      break;
    case 1:
      clamp = isa::kClampLastTexel;
      break;
    case 2:
      clamp = isa::kClampBorder;
      break;
    case 4:
      clamp = isa::kClampMirror;
      break;
    default:
      return fail(ImageProblem::kInvalid,
                  "sampler addressing mode " + std::to_string(d.addressingMode) + " is unknown");
  }
  if (d.coordinateMode > 1)
    return fail(ImageProblem::kInvalid,
                "sampler coordinate mode " + std::to_string(d.coordinateMode) + " is unknown");
  if (d.filterMode > 1)
    return fail(ImageProblem::kInvalid,
                "sampler filter mode " + std::to_string(d.filterMode) + " is unknown");
  s.clamp[0] = s.clamp[1] = s.clamp[2] = clamp;
  s.forceUnnormalized = d.coordinateMode == 0;
  s.maxLod = 4095;
  s.xyMagFilter = s.xyMinFilter = d.filterMode == 1 ? isa::kXyBilinear : isa::kXyPoint;
  s.zFilter = isa::kFilterNone;
  s.mipFilter = isa::kFilterNone;
  s.borderColorType = isa::kBorderTransparentBlack;
  if (std::string why = isa::encodeSampler(s, words.data()); !why.empty())
    return fail(ImageProblem::kInvalid, "S#: " + why);
  return {};
}

}  // namespace vgpu::image
